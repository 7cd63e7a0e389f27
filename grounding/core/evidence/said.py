"""What the pieces seen say verbatim (SPEC §3.5, §5.1): a value that is itself a token read is grounded
plainly, told by a search of the texts seen before any piece is read.

A text is searched until it has been asked about _ASKED_BEFORE_CUT times; then it is cut into the set of
runs it says (verbatim.said_runs), one pass, so a long conversation does not search its every text for
every value. Values found in no text at all are remembered until a piece is seen: a question about one
does not look in those texts again (verbatim.Seen.may_hold)."""

from __future__ import annotations

import re

from grounding.core.evidence import verbatim
from grounding.core.text.normalise import normalise_once
from grounding.core.text.tokens import ASCII_TOKEN_CHARS

_ASKED_BEFORE_CUT = 4  # questions a text answers by search before it is cut into its runs
# A text longer than this stays searched: its runs cost ~30 bytes of memory per character (a 40 MB result's
# are over a gigabyte), where a search costs milliseconds. Up to it, a text asked about often is cut (a
# 7 MB result against 1,600 values: 1.3 s and 220 MB cut, where searching it for each took 8 s)
_CUT_AT_MOST = 8_000_000
_HAS_DIGIT = re.compile(r"\d")


class Said:
    """The runs and canonical literals the pieces seen say, and the texts still searched for them."""

    __slots__ = ("runs", "literals", "texts", "cut", "nowhere")

    def __init__(self) -> None:
        # Normalising lowers a token first, so lowered runs lose nothing.
        self.runs: set[str] = set()
        self.literals: set[str] = set()  # literals of non-ASCII JSON pieces seen verbatim (ASCII: see says)
        self.texts: list[list] = []  # [text, in_strings, quotes, times asked]
        self.cut = False  # some texts are in runs: "found nowhere" is no longer told
        self.nowhere: set[str] = set()  # values found in no text looked in, until a piece is seen

    def see(self, seen: verbatim.Seen) -> None:
        """A piece seen: what it says joins the rest (the piece keeps only what its search text is made of)."""
        self.nowhere.clear()
        if seen.said is not None:
            self.runs |= seen.said
        elif seen.said_text is not None:
            self.texts.append([seen.said_text, seen.in_strings, seen.quotes, 0])
        if seen.literals is not None:
            self.literals |= seen.literals
        seen.said = seen.literals = None

    def says(self, value: str, keep_words: bool) -> bool:
        """True when a token seen is value itself; False says nothing (the forms may still hold value)."""
        literal = verbatim.is_canonical(value)  # a number literal of a JSON piece says it (§5.1)
        if literal and value in self.literals:
            return True
        if "," in value or (not literal and normalise_once(value) != value):
            return False  # (a canonical number literal is normal: see is_canonical)
        if not keep_words and _HAS_DIGIT.search(value) is None:
            return False
        if not ASCII_TOKEN_CHARS.issuperset(value):
            # a value of several runs ("1st january 2022") is no token: the forms answer it. (A search would
            # find it, the runs a text is cut into never: its verdict hung on the questions asked before.)
            return False
        if value in self.runs:
            return True
        nowhere = not self.cut
        cut = False
        said: bool | None = False
        for entry in reversed(self.texts):  # an answer quotes its latest results most
            text, in_strings, quotes, asked = entry
            said = verbatim.says(text, value, in_strings, literal, quotes)
            if said:
                break
            nowhere = nowhere and said is None
            entry[3] = asked + 1
            cut = cut or (asked + 1 == _ASKED_BEFORE_CUT and len(text) <= _CUT_AT_MOST)
        if cut:
            self._cut_into_runs()
        if not said and self.runs:
            said = self._ends_a_run(value)
        if nowhere and not (said or cut):
            self.nowhere.add(value)
        return bool(said)

    def _ends_a_run(self, value: str) -> bool:
        """True when a run cut from a text is value and a mark it is read without ("mid-2025,"), as
        verbatim.says finds one in a text searched. Asked last: most values a text says are found before."""
        for mark in verbatim.ENDING_MARKS:
            run = value + mark
            if run in self.runs and verbatim.reads_as(run, value):
                return True
        return False

    def _cut_into_runs(self) -> None:
        """Cut the texts asked about _ASKED_BEFORE_CUT times into the runs they say, one pass each: a set
        answers every later question at once, where a search reads the whole text again."""
        keep = []
        for entry in self.texts:
            text, in_strings, _quotes, asked = entry
            if asked < _ASKED_BEFORE_CUT or len(text) > _CUT_AT_MOST:
                keep.append(entry)
                continue
            said, literals = verbatim.said_runs(text, in_strings)
            self.runs |= said
            self.literals |= literals
        self.texts = keep
        self.cut = True
        self.nowhere.clear()
