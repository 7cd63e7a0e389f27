"""What a piece of read text says verbatim: its token runs, lowered, and its canonical number literals.

Most answer values are copied out of a tool result as they stand. Seeing that
takes a few passes in C over the text (lowering, splitting, one regex), where
reading every token's §9 forms costs Python work per token. The index asks
this first and reads a piece's forms only when a value is not found verbatim
(SPEC §3.5: a value equal to a read token is grounded plainly). It also
keeps each piece's *search text*, which tells the index which pieces a
question could be answered from (see search_text).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from grounding import json_exact
from grounding.core.text.dates import MONTHS
from grounding.core.text.normalise import fold_digits, groups_thousands, without_group_marks
from grounding.core.text.numeric_dates import numeric_dates
from grounding.core.text.tokens import ASCII_TOKEN_CHARS, runs
from grounding.core.text.units import (
    grouped_numbers,
    may_write_spaced,
    pointed_numbers,
    spaced_numbers,
    writes_pointed,
)

# Normalising deletes grouping commas and currency signs; a key and a search text both drop them.
_KEY_DROPS = ",$€£¥₹"
# A literal with an exponent (1.5e3) is spelled by the index with digits its text does not show.
_EXPONENT = re.compile(r"\d[eE][-+]?\d")
_CANONICAL_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?")
# A line of literals that is_canonical rejects: "-0", or not wholly _CANONICAL_NUMBER.
_NOT_CANONICAL_LINE = re.compile(rf"^(?!(?!-0$){_CANONICAL_NUMBER.pattern}$).*$", re.MULTILINE)
# Every form a time of day is read as has this shape (dates.time_forms: 24- and 12-hour, seconds, a
# meridiem or a day marker); a form of another shape that begins like one (a WWN) is held only as written.
_TIME_OF_DAY = re.compile(r"\d{1,2}:(\d{2})(?::\d{2})?(?:am|pm|[-+]\d{1,2})?")
_ON_THE_HOUR = ("am", "pm", "a.m", "p.m", "noon", "midnight")  # what writes a time on the hour without ":00"
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_SCALE_KEYS = ("thousand", "million", "billion", "trillion", "万", "萬", "亿", "億")
# every name of a month, in each language read, begins with one of its month's keys (lowered, as search text is)
_MONTH_KEYS = {number: sorted({name[:3] for name, named in MONTHS.items() if named == number})
               for number in range(1, 13)}
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
                if key in lowered and (not whole_numbers or _holds_whole(lowered, key)):
                    return True
        search = self._search_text(lowered)
        if search is not lowered:
            for key in keys:
                if key in search and (not whole_numbers or _holds_whole(search, key)):
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
            if (notes is not None and lowered.isascii() and not notes.digit_comma and "$" not in lowered
                    and not may_write_spaced(lowered) and ("'" not in lowered or not groups_thousands(lowered))):
                # nothing to drop (see _searchable), and no copy to make but for the dates it adds (an IP
                # address looks like one at first: 10.64.60.69)
                search = lowered + _two_digit_year_dates(lowered)
            else:
                search = _searchable(lowered)
            self._search = search
        return search


_NUMBER_KEY = re.compile(r"\d+(?:\.\d+)?")  # a key that is a number's (its sign dropped, see key)


def _holds_whole(text: str, key: str) -> bool:
    """text, which holds key, holds it whole: as any key not a number's, or as a number (writes_number)."""
    return _NUMBER_KEY.fullmatch(key) is None or writes_number(text, key)


def writes_number(text: str, key: str) -> bool:
    """True when text writes the number key whole, as a form of it is read: no digit before it but zeros
    (``00532`` is read as 532, ``1532`` never is), and none after it but a decimal's zeros (``53.20``).
    The lowered text and the search text are both asked: a comma that splits two numbers (``12,34`` is 12 and
    34) stands in the one, grouping commas (``1,532``) are dropped from the other."""
    return _whole_number(key).search(text) is not None


@lru_cache(maxsize=4096)
def _whole_number(key: str) -> re.Pattern:
    after = "0*(?!\\d)" if "." in key else "(?!\\d)"
    return re.compile(f"(?<!\\d)0*{re.escape(key)}{after}")


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
    """True when value is a whole token run of text (lowered ASCII); of a JSON text, one inside a string
    or, when literal (value is a canonical number, see is_canonical), a whole literal outside strings.
    None (false too) when value is not even in text.

    Finding a value costs a substring search where splitting the text into a set of its runs costs a new
    string per token, and most of a text's runs are never asked about. With quotes (quote_counts), only
    a chunk's quotes are counted to tell whether a place is inside a string.

    >>> says('{"id": "ord-7", "n": 12}', "ord-7", True), says("ord-77", "ord-7", False)
    (True, False)
    >>> says('{"id": "x", "n": 12}', "12", True), says("n = 12", "12", False), says('{"n": 12}', "12", True, True)
    (False, True, True)
    """
    at = text.find(value)
    if at < 0:
        return None
    while at >= 0:
        end = at + len(value)
        before = text[at - 1] if at > 0 else " "
        after = text[end] if end < len(text) else " "
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


def key(form: str) -> str:
    """What the search text of anything holding form plainly must contain (see search_text): the form
    without grouping commas and currency signs, and without a minus sign first (normalising drops the zero
    padding after a sign, ``-0012`` is read as ``-12``, so the sign may stand apart from the rest)."""
    return _dropped(form[1:] if form[:1] == "-" else form)


def _dropped(text: str) -> str:
    """text without the characters normalising deletes from a token (grouping commas, currency signs) and the
    marks that group a number's thousands (``41 200``, ``1'250'000`` are read as 41200 and 1250000)."""
    if text.isascii():  # of those only ",", "$" and "'" are ASCII; translate copies always
        if "," in text or "$" in text:
            text = text.replace(",", "").replace("$", "")
        return without_group_marks(text) if "'" in text else text
    for dropped in _KEY_DROPS:  # (str.translate maps a text outside ASCII a character at a time: ~40x slower)
        if dropped in text:
            text = text.replace(dropped, "")
    return without_group_marks(text)


def keys(form: str) -> tuple[str, ...]:
    """What the search text of anything holding form by any reading must contain one of.

    Two readings write a form with characters the token does not show. A time
    of day: ``16:20`` is read as ``4:20pm`` and ``4:20 pm`` as ``16:20``, but
    every spelling keeps ``:20``; an hour without minutes (``3pm``) is read as
    ``15:00``, so a form on the hour is also sought by its meridiem. A prose
    date (``March 5, 2024`` is read as ``2024-03-05``) always writes the year, and a numeric date with a
    year of two digits (``05/03/24``) has its ISO dates in its search text (see _searchable).
    """
    time = _TIME_OF_DAY.fullmatch(form)
    if time is not None:
        minutes = time.group(1)
        # 7:0 and 7:5 write minutes in one digit (§9.14); ":0" is in every ":0N" too; 5h59m is 5:59
        short = (":" + minutes[1], f"h{minutes[1]}m") if minutes[0] == "0" else ()
        return (":" + minutes, f"h{minutes}m") + short + (_ON_THE_HOUR if minutes == "00" else ())
    if _ISO_DATE.fullmatch(form):
        return (form[:4],)
    if form.endswith("000") and form.isdigit():
        # 21000000 is also written "21 million" or "2100万" (units.scaled_numbers), 577000000000 "577b"
        # (units.scale_suffix)
        suffixes = ("b", "t") if form.endswith("0" * 12) else ("b",) if form.endswith("0" * 9) else ()
        return (key(form), *_SCALE_KEYS, *suffixes)
    return (key(form),)


def month_keys(month: int) -> list[str]:
    """What the search text of anything writing that month in prose must contain one of: the first three
    letters of one of its names."""
    return _MONTH_KEYS[month]


def search_text(text: str) -> str:
    """Text to search for keys before reading it.

    Every form a token is read as, plainly or by a §9 reading other than a
    time of day, is spelled inside the token once it is lowered, its digits
    folded, and grouping commas and currency signs dropped: normalising only
    deletes characters (a sign, zero padding, trailing zeros, punctuation at
    the ends), and units, date parts and components are pieces of the token.
    So a piece whose search text lacks a form's key cannot hold the form.
    """
    return _searchable(text.lower())


def _searchable(lowered: str) -> str:
    folded = fold_digits(lowered)
    searchable = _dropped(folded)
    if groups_thousands(folded):  # a number grouped so before a decimal comma (41 200,50) is read as 41200.5
        searchable += "\n" + "\n".join(number for _, _, number in grouped_numbers(folded))
    if writes_pointed(folded):  # a number pointed as German writes it (1.234,56) is read as 1234.56
        searchable += "\n" + "\n".join(number for _, _, number in pointed_numbers(folded))
    if may_write_spaced(folded):  # ... and one spaced as French writes it (41 900 €) as 41900
        searchable += "\n" + "\n".join(number for _, _, number in spaced_numbers(folded))
    return searchable + _two_digit_year_dates(folded)


def _two_digit_year_dates(folded: str) -> str:
    """The ISO dates a text's dates of two-digit years are read as (24/06/24 is 2024-06-24: a question about
    it asks for 2024), each after a line break; "" when it writes none.

    Found from their separators (patterns that begin with one are searched in C by it, ~6x faster than one
    that begins with a class: every JSON result's search text asks, and an IP address looks like one)."""
    found: list[str] = []
    for hint in (_SLASH_YEAR, _POINT_YEAR) if "/" in folded else (_POINT_YEAR,):
        match = hint.search(folded)
        while match is not None:  # (overlapping: the year of 3.25.07 is found after .3.25 was)
            at = match.start()
            for start in range(max(at - 2, 0), at):
                date = _SHORT_YEAR_DATE.match(folded, start)
                if date is not None:
                    found.extend(numeric_dates(date.group(1), two_digit_year=True))
            match = hint.search(folded, at + 1)
    return "".join("\n" + iso for iso in found)


_SLASH_YEAR = re.compile(r"/\d\d?/\d\d(?!\d)")  # the separators and year of 24/06/24 (the same twice: numeric_dates)
_POINT_YEAR = re.compile(r"\.\d\d?\.\d\d(?!\d)")
# (a point beside it ends or starts a sentence, as the token reader reads it: beside a digit, a number goes on)
_SHORT_YEAR_DATE = re.compile(r"(?<![\d/])(?<!\d\.)(\d{1,2}[/.]\d{1,2}[/.]\d\d)(?![\d/]|\.\d)")
