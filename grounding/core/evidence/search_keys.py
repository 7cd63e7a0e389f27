"""What a piece's text must contain to be read as a form: each form's keys, and the search text they are looked
for in (grounding.core.evidence.verbatim.Seen.may_hold), with the whole-number rule for a number's key."""

from __future__ import annotations

import re
from functools import lru_cache

from grounding.core.text.month_dates import MONTHS
from grounding.core.text.normalise import fold_digits, groups_thousands, without_group_marks
from grounding.core.text.numeric_dates import numeric_dates
from grounding.core.text.units import (
    CJK_SCALES,
    SCALES,
    grouped_numbers,
    may_write_spaced,
    pointed_numbers,
    spaced_numbers,
    writes_pointed,
)

# Normalising deletes grouping commas and currency signs; a key and a search text both drop them.
_KEY_DROPS = ",$€£¥₹"
# Every form a time of day is read as has this shape (dates.time_forms: 24- and 12-hour, seconds, a
# meridiem or a day marker); a form of another shape that begins like one (a WWN) is held only as written.
_TIME_OF_DAY = re.compile(r"\d{1,2}:(\d{2})(?::\d{2})?(?:am|pm|[-+]\d{1,2})?")
_ON_THE_HOUR = ("am", "pm", "a.m", "p.m", "noon", "midnight")  # what writes a time on the hour without ":00"
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_SCALE_KEYS = (*SCALES, *CJK_SCALES)  # the words and characters a scaled number is written with
# every name of a month, in each language read, begins with one of its month's keys (lowered, as search text is)
_MONTH_KEYS = {number: sorted({name[:3] for name, named in MONTHS.items() if named == number})
               for number in range(1, 13)}


_NUMBER_KEY = re.compile(r"\d+(?:\.\d+)?")  # a key that is a number's (its sign dropped, see key)


def holds_whole(text: str, key: str) -> bool:
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


def key(form: str) -> str:
    """What the search text of anything holding form plainly must contain (see search_text): the form
    without grouping commas and currency signs, and without a minus sign first (normalising drops the zero
    padding after a sign, ``-0012`` is read as ``-12``, so the sign may stand apart from the rest)."""
    return _dropped(form[1:] if form[:1] == "-" else form)


def _dropped(text: str, keep_commas: bool = False) -> str:
    """text without the characters normalising deletes from a token (grouping commas, currency signs) and the
    marks that group a number's thousands (``41 200``, ``1'250'000`` are read as 41200 and 1250000); with
    keep_commas, its commas stay (none groups anything)."""
    if text.isascii():  # of those only ",", "$" and "'" are ASCII; a text holding none is not copied
        if "," in text and not keep_commas:
            text = text.replace(",", "")
        if "$" in text:
            text = text.replace("$", "")
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
    year of two digits (``05/03/24``) has its ISO dates in its search text (see searchable_text).
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
    return searchable_text(text.lower())


def searchable_text(lowered: str, *, commas_group_nothing: bool = False) -> str:
    """The search text of a lowered text (search_text); the text itself when it holds nothing to drop or add.
    commas_group_nothing: no comma of the text stands between digits (a JSON text's, told by its parse), so
    none groups a number or points its decimals, and each is kept."""
    folded = fold_digits(lowered)
    searchable = _dropped(folded, keep_commas=commas_group_nothing)
    if (not folded.isascii() or "'" in folded) and groups_thousands(folded):  # (ASCII groups with "'" alone)
        # a number grouped so before a decimal comma (41 200,50) is read as 41200.5
        searchable += "\n" + "\n".join(number for _, _, number in grouped_numbers(folded))
    if not commas_group_nothing and writes_pointed(folded):  # 1.234,56, as German points it, is 1234.56
        searchable += "\n" + "\n".join(number for _, _, number in pointed_numbers(folded))
    if may_write_spaced(folded):  # ... and one spaced as French writes it (41 900 €) as 41900
        searchable += "\n" + "\n".join(number for _, _, number in spaced_numbers(folded))
    return searchable + two_digit_year_dates(folded)


def two_digit_year_dates(folded: str) -> str:
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
