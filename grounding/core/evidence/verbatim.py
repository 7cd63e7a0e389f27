"""What a piece of read text says verbatim: its token runs, lowered, and its canonical number literals.

Most answer values are copied out of a tool result as they stand. Seeing that
takes a few passes in C over the text (lowering, splitting, one regex), where
reading every token's §9 forms costs Python work per token. The index asks
this first and reads a piece's forms only when a value is not found verbatim
(SPEC §3.5: a value equal to a read token is grounded plainly). It also
keeps each piece's *search text*, which tells the index which pieces a
question could be answered from (grounding.core.evidence.search_keys).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from grounding import json_exact
from grounding.core.evidence.search_keys import holds_whole, searchable_text
from grounding.core.text.normalise import TRAIL, lookup_forms, normalise_once
from grounding.core.text.tokens import ASCII_TOKEN_CHARS, runs, split_run

# A literal with an exponent (1.5e3) is spelled by the index with digits its text does not show.
_EXPONENT = re.compile(r"\d[eE][-+]?\d")
_CANONICAL_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?")
# A line of literals that is_canonical rejects: "-0", or not wholly _CANONICAL_NUMBER.
_NOT_CANONICAL_LINE = re.compile(rf"^(?!(?!-0$){_CANONICAL_NUMBER.pattern}$).*$", re.MULTILINE)
# Outside its strings a JSON text holds numbers and literals between punctuation.
_PUNCTUATION_TO_SPACE = str.maketrans({ch: " " for ch in "{}[]:,"})
# See quote_counts: a place's quotes are counted within its chunk, the chunks before it counted once.
_CHUNK = 1024
# What stands around a number literal outside strings: JSON's separators and whitespace.
_LITERAL_BEFORE_TEXT = frozenset(":[, \t\n\r")
_LITERAL_AFTER_TEXT = frozenset(",]} \t\n\r")
_JSON_MARKS = ":,"  # the token characters JSON writes outside its strings


# Every character a JSON number literal's spelling holds (see json_exact.number_spelling).
_NUMBER_CHARACTERS = frozenset("0123456789.-")


@dataclass(slots=True)  # not frozen: made per token or result, and a frozen __init__ costs ~6x
class Seen:
    """A piece of read text as seen before reading it. With neither said nor said_text, only reading
    tells what it says."""

    said: set[str] | None = None  # its lowered token runs, when its text is not ASCII
    said_text: str | None = None  # its lowered text, when ASCII: runs are looked for in it (see says)
    in_strings: bool = False  # a JSON text: only the runs inside its strings (and its literals) are said
    literals: set[str] | None = None  # a JSON text's literals outside strings, when it is not ASCII
    quotes: list[int] | None = None  # an ASCII JSON text's quote counts by chunk (see quote_counts)
    lowered: str | None = None  # its lowered text, which its search text is made from; None: not seen
    notes: json_exact.Notes | None = None  # of a JSON text: what its parse saw (see may_hold)
    _search: str | None = None  # its search text, once worked out

    def may_hold(self, keys: list[str], not_said_anywhere: bool = False, whole_numbers: bool = True) -> bool:
        """False when the text is surely read as no form whose key (see keys) is one of keys: the key of
        every form it is read as is in its search text (see search_text), but for the numbers a JSON number
        literal with an exponent spells with digits its text does not show (``1.5e3`` is read as 1500).
        With whole_numbers, a key that is a number counts only where it is one whole (writes_number), not
        inside a longer one: ``53.2`` in ``4553.21`` holds no form 53.2 (a question asking for numbers that
        begin with it, as rounding does, asks without).

        Told in the cheapest order, as a piece is searched only for a value not found verbatim (two in five
        ever are), and mostly for one found nowhere: the lowered text first (its search text keeps every
        key it holds, dropping only characters no key has), then the search text, then, for a key a number
        can spell, the literals. With not_said_anywhere, each key is known to be in no text says looked in:
        when the lowered text is one (said_text), it is not looked in again.
        """
        lowered = self.lowered
        if lowered is None:
            return True  # not seen so: only reading tells
        if not (not_said_anywhere and self.said_text is lowered):
            for key in keys:
                if key in lowered and (not whole_numbers or holds_whole(lowered, key)):
                    return True
        search = self._search_text(lowered)
        if search is not lowered:
            for key in keys:
                if key in search and (not whole_numbers or holds_whole(search, key)):
                    return True
        notes = self.notes
        return notes is not None and any(_NUMBER_CHARACTERS.issuperset(key) for key in keys) and notes.exponent

    def may_hold_one(self, pattern: re.Pattern, numeric: bool) -> bool:
        """may_hold for many keys at once: pattern finds any of them; numeric, when one may be a number."""
        lowered = self.lowered
        if lowered is None:
            return True
        if pattern.search(lowered):
            return True
        search = self._search_text(lowered)
        if search is not lowered and pattern.search(search):
            return True
        return numeric and self.notes is not None and self.notes.exponent

    def _search_text(self, lowered: str) -> str:
        """The search text made from lowered (self.lowered, when seen)."""
        search = self._search
        if search is None:
            notes = self.notes
            # a JSON text whose commas stand between no digits groups nothing with them: its commas are kept
            # (dropping them copied every result's text for nothing)
            search = searchable_text(lowered, commas_group_nothing=(
                notes is not None and lowered.isascii() and not notes.digit_comma))
            self._search = search
        return search


def may_spell_number(key: str) -> bool:
    """True when key is made of the characters a JSON number literal's spelling holds."""
    return _NUMBER_CHARACTERS.issuperset(key)


def see_text(text: str) -> Seen:
    lowered = text.lower()
    if lowered.isascii():
        return Seen(said_text=lowered, lowered=lowered)
    return Seen(said=runs(lowered), lowered=lowered)


def see_json(text: str, notes: json_exact.Notes | None) -> Seen:
    """A JSON document's text, seen without walking the document; notes tell what its parse saw.

    With no backslash, every string is the text between two quotes, as parsed. An ASCII text's literals
    are found in it when asked (says): splitting every text at its quotes costs more than all the
    questions.
    """
    if "\\" in text:
        return Seen()
    lowered = text.lower()
    if lowered.isascii():
        return Seen(said_text=lowered, in_strings=True, quotes=quote_counts(), lowered=lowered,
                    notes=notes)
    parts = lowered.split('"')  # outside, string, outside, string, …, outside
    return Seen(said=runs("\x00".join(parts[1::2])), literals=_literals_outside(parts), lowered=lowered,
                notes=notes)


def said_runs(lowered: str, in_strings: bool) -> tuple[set[str], set[str]]:
    """What says finds in a lowered ASCII text, as sets: the runs it says and, of a JSON text, the literals
    outside its strings (said when a value is a canonical number).

    >>> said, literals = said_runs('{"id": "ord-7 x", "n": 12, "f": 1.50}', True)
    >>> sorted(said), sorted(literals)
    (['f', 'id', 'n', 'ord-7', 'x'], ['1.5', '1.50', '12'])
    """
    if not in_strings:
        return runs(lowered), set()
    parts = lowered.split('"')  # outside, string, outside, string, …, outside (a text without backslash)
    literals = _literals_outside(parts)
    # a literal also says itself without the zeros its spelling drops, as says finds it (_literal_ends)
    literals |= {literal.rstrip("0").rstrip(".") for literal in literals if "." in literal}
    return runs("\x00".join(parts[1::2])), literals


def _literals_outside(parts: list[str]) -> set[str]:
    """The literals outside the strings of a JSON text split at its quotes, as written: numbers, true, false,
    null (JSON writes those three in lower case, and only an exponent's e may be upper)."""
    return set(" ".join(parts[0::2]).translate(_PUNCTUATION_TO_SPACE).split())


def quote_counts() -> list[int]:
    """A text's memo of how many quotes stand before each of its chunks: none counted yet (no quote before
    the first chunk). _in_string counts up to a chunk when a place in it is first asked about: says asks
    that of every place a value is found at, texts run to megabytes, and most are never asked about."""
    return [0]


def _in_string(text: str, at: int, quotes: list[int] | None) -> bool:
    if quotes is None:
        return text.count('"', 0, at) % 2 == 1
    chunk = at // _CHUNK
    while len(quotes) <= chunk:  # count the chunks up to this one (once: the list is the text's own)
        start = (len(quotes) - 1) * _CHUNK
        quotes.append(quotes[-1] + text.count('"', start, start + _CHUNK))
    return (quotes[chunk] + text.count('"', chunk * _CHUNK, at)) % 2 == 1


def says(text: str, value: str, in_strings: bool, literal: bool = False,
         quotes: list[int] | None = None) -> bool | None:
    """True when value is a whole token run of text (lowered ASCII), or one but for a mark after it that it is
    read without (ENDING_MARKS: "by mid-2025, agents"); of a JSON text, one inside a string or, when literal
    (value is a canonical number, see is_canonical), a whole literal outside strings. None (false too) when
    value is not even in text.

    Finding a value costs a substring search where splitting the text into a set of its runs costs a new
    string per token, and most of a text's runs are never asked about. With quotes (quote_counts), only
    a chunk's quotes are counted to tell whether a place is inside a string.

    >>> says('{"id": "ord-7", "n": 12}', "ord-7", True), says("ord-77", "ord-7", False)
    (True, False)
    >>> says('{"id": "x", "n": 12}', "12", True), says("n = 12", "12", False), says('{"n": 12}', "12", True, True)
    (False, True, True)
    >>> says("by mid-2025, x", "mid-2025", False), says("order ord-7.", "ord-7", False), says("41,200", "41", False)
    (True, True, False)
    """
    at = text.find(value)
    if at < 0:
        return None
    while at >= 0:
        end = at + len(value)
        before = text[at - 1] if at > 0 else " "
        after = text[end] if end < len(text) else " "
        if after in ENDING_MARKS and before not in ASCII_TOKEN_CHARS and (
                end + 1 == len(text) or text[end + 1] not in ASCII_TOKEN_CHARS) and reads_as(value + after, value):
            after = " "  # the run is value and a mark it is read without
        token = before not in ASCII_TOKEN_CHARS and after not in ASCII_TOKEN_CHARS
        if not in_strings:
            if token:
                return True
        else:
            whole_literal = literal and before in _LITERAL_BEFORE_TEXT and _literal_ends(text, end, value)
            if token or whole_literal:
                # outside its strings a valid JSON text puts only ":" or "," of the token characters right after
                # a quote or right before one: beside a quote, a token not beginning (ending) so is inside
                inside = (
                    (before == '"' and value[0] not in _JSON_MARKS)
                    or (after == '"' and value[-1] not in _JSON_MARKS)
                    or _in_string(text, at, quotes)
                )
                if (token and inside) or (whole_literal and not inside):
                    return True
        at = text.find(value, at + 1)
    return False


# The token characters normalising strips from a token's end (``.,:%-``): prose puts one after most values
# (``mid-2025,``, ``ORD-4471.``, ``40%``). A run that is a value and one of them says the value when its token
# is read as it (reads_as), as reading the text would find.
ENDING_MARKS = "".join(mark for mark in TRAIL if mark in ASCII_TOKEN_CHARS)


@lru_cache(maxsize=1 << 12)  # (a JSON result puts a comma after most literals: the same few, asked often)
def reads_as(run: str, value: str) -> bool:
    """True when a token of run is read plainly as value, as the token reader reads it (normalised, then its
    lookup forms)."""
    return any(value in lookup_forms(normalise_once(token)) for token in split_run(run))


def _literal_ends(text: str, end: int, value: str) -> bool:
    """True when a number literal starting with value ends at end, or after zeros its index spelling drops
    (``12.50``, ``13666.0``: a float literal of 15 digits or fewer is spelled by its repr)."""
    if "." in value:
        while end < len(text) and text[end] == "0":
            end += 1
    elif text.startswith(".0", end):
        end += 2
        while end < len(text) and text[end] == "0":
            end += 1
    return end == len(text) or text[end] in _LITERAL_AFTER_TEXT


def is_canonical(literal: str) -> bool:
    """True when a JSON number literal is spelled by the index as written (so it is its own verbatim form).

    No exponent, no leading or trailing zero: literals of 16 or more digits are parsed exactly
    (jsontext), shorter floats round-trip through their repr.
    """
    # most values asked about are identifiers, which begin with a letter: told without the pattern
    return literal[:1] in _LITERAL_STARTS and literal != "-0" and _CANONICAL_NUMBER.fullmatch(literal) is not None


_LITERAL_STARTS = frozenset("-0123456789")


def not_canonical(literals: Collection[str]) -> list[str]:
    """Those of literals (JSON number literals, or magnitudes) that is_canonical rejects, found by one regex
    over them all.

    >>> not_canonical(["12", "12.50", "-0", "0.5", "007"])
    ['12.50', '-0', '007']
    """
    return _NOT_CANONICAL_LINE.findall("\n".join(literals)) if literals else []


def has_exponent(text: str) -> bool:
    """True when text may hold a number literal with an exponent: a digit, sign or point on each side of
    an ``e`` (call arguments are asked, one per tool result)."""
    return _EXPONENT.search(text) is not None
