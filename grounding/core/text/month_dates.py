"""Dates written with a month's name (SPEC §9.10), in English and other languages, and as Chinese, Japanese
and Korean write them: ``23 October 2026`` is read as ``2026-10-23``, ``16. März`` as the 16th of March.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import regex

from grounding.core.text.dates import in_calendar
from grounding.core.text.patterns import LazyPattern

ENGLISH_MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
    "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
# The month names of German, French, Spanish, Portuguese, Italian, Dutch, Polish (as dates write them, the
# genitive, and the nominative) and Estonian: written in lower case inside a sentence, so read in it too
# (English names are not: "may" and "march" are words).
_OTHER_MONTHS = (
    ("januar", "janvier", "enero", "janeiro", "gennaio", "januari", "stycznia", "styczeń", "jaanuar"),
    ("februar", "février", "febrero", "fevereiro", "febbraio", "februari", "lutego", "luty", "veebruar"),
    ("märz", "mars", "marzo", "março", "maart", "marca", "marzec", "märts"),
    ("avril", "abril", "aprile", "kwietnia", "kwiecień", "aprill"),
    ("mai", "mayo", "maio", "maggio", "mei", "maja", "maj"),
    ("juni", "juin", "junio", "junho", "giugno", "czerwca", "czerwiec", "juuni"),
    ("juli", "juillet", "julio", "julho", "luglio", "lipca", "lipiec", "juuli"),
    ("août", "agosto", "augustus", "sierpnia", "sierpień"),
    ("septiembre", "setembro", "settembre", "września", "wrzesień"),
    ("oktober", "octobre", "octubre", "outubro", "ottobre", "października", "październik", "oktoober"),
    ("novembre", "noviembre", "novembro", "listopada", "listopad"),
    ("dezember", "décembre", "diciembre", "dezembro", "dicembre", "grudnia", "grudzień", "detsember"),
)
# Dutch writes four months as English does, in lower case ("8 april 2025"): read so after a day, as the other
# languages' names are (English's own stay capitalised: "march", "may" are words)
_DUTCH_AS_ENGLISH = {"april": 4, "september": 9, "november": 11, "december": 12}
OTHER_MONTHS = {name: number for number, names in enumerate(_OTHER_MONTHS, 1) for name in names} | _DUTCH_AS_ENGLISH
MONTHS = {**ENGLISH_MONTHS, **OTHER_MONTHS}
# Every spelling of a month name the prose-date pattern takes, as written
MONTH_SPELLINGS = frozenset(
    [spelled for name in MONTHS for spelled in (name.capitalize(), name.upper())] + list(OTHER_MONTHS))
# Every month name the pattern takes begins with one of these (Sept with Sep, MAY with MAY).
# What a text must hold to be searched for a month-name date, tested first (most texts have none): the
# first three letters of an English name as the pattern takes it (Sept with Sep, MAY with MAY), one search
# in C; or another language's name as the word after a day (its lower-case starts, "mar", "set", "dic",
# begin too many English words).
_MONTH_STARTS = tuple({spelled[:3] for spelled in MONTH_SPELLINGS
                       if spelled.lower() in ENGLISH_MONTHS and not spelled.islower()})
_ANY_MONTH_START = re.compile("|".join(map(re.escape, sorted(_MONTH_STARTS))))  # one search, not one per start
_OTHER_MONTH_RUNS = frozenset(spelled for spelled in MONTH_SPELLINGS if spelled.lower() in OTHER_MONTHS
                              and (spelled.islower() or spelled.lower() not in ENGLISH_MONTHS))
_ENGLISH_SPELLINGS = MONTH_SPELLINGS - _OTHER_MONTH_RUNS
# the words after a day in another language's date ("16. März", "24 de junho"): one of them must be a month's
_WORD_AFTER_A_DAY = re.compile(r"\d\.?\s+(?:de\s+)?([^\W\d_]{3,})")
_ORDINAL = r"(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(?:de\s+)?(?P<year>(?:19|20)\d{2})(?!\p{Nd}))?"  # "de 2024": Spanish, Portuguese


def _prose_date_pattern(other_languages: bool) -> LazyPattern:
    """The month-name date pattern; without other_languages, English's alone, for a text that writes no other
    language's month after a day (their spellings' lists cost ~10 ms to compile; most runs never need them)."""
    day_first_months = r"\L<month>" if other_languages else r"\L<english>"
    # the other languages' day first: "16. März", "24 de junho" (an English "1. January" is a list's item)
    other_day_first = (rf"|(?P<day3>\d{{1,2}})\.?\s+(?:de\s+)?(?P<month3>\L<other>)(?![\p{{L}}\p{{Nd}}]){_YEAR}"
                       if other_languages else "")
    return LazyPattern(
        lambda pattern: regex.compile(pattern, english=sorted(_ENGLISH_SPELLINGS), **(
            {"month": sorted(MONTH_SPELLINGS), "other": sorted(_OTHER_MONTH_RUNS)} if other_languages else {})),
        # month first in English alone (the other languages put the day first): at every position, the shortest list
        rf"(?<![\p{{L}}\p{{Nd}}])(?:"
        rf"(?P<month>\L<english>)\.?\s+(?P<day>\d{{1,2}}){_ORDINAL}(?![\p{{L}}\p{{Nd}}]){_YEAR}"
        rf"|(?P<day2>\d{{1,2}}){_ORDINAL}\s+(?P<month2>{day_first_months})\.?(?![\p{{L}}\p{{Nd}}]){_YEAR}"
        rf"{other_day_first}"
        # ... and German's months spelled as English's, with their year: "7. April 2025" is a date, not an item
        rf"|(?P<day4>\d{{1,2}})\.\s+(?P<month4>\L<english>)\s+(?P<year>(?:19|20)\d{{2}})(?!\p{{Nd}})"
        rf")(?![\p{{L}}\p{{Nd}}])"
    )


# Compiled when a text first names a month (English's: ~3 ms): a run over ids and amounts alone never does.
_PROSE_DATE = _prose_date_pattern(other_languages=True)
_ENGLISH_PROSE_DATE = _prose_date_pattern(other_languages=False)
# Every word the day-first alternatives may take as a month: the whole run of letters after a day, its ordinal
# or point, and "de" (a letter after a month fails the pattern). None another language's: English's suffices.
_RUN_AFTER_A_DAY = LazyPattern(regex.compile, r"\d(?:st|nd|rd|th|\.)?\s+(?:de\s+)?(\p{L}+)")


def _prose_date_pattern_for(text: str) -> LazyPattern:
    return _ENGLISH_PROSE_DATE if _OTHER_MONTH_RUNS.isdisjoint(_RUN_AFTER_A_DAY.findall(text)) else _PROSE_DATE


# A month-name date begins with an English month's first letters (English writes the month first) or a day's
# number, of one or two digits (every language may write the day first); it is looked for in the _DATE_REACH
# characters before where the text is held from only: no date's beginning is longer ("Wednesday" is no part of
# one; "16 de septiembre de " is 20).
_DIGIT_RUN = re.compile(r"\d+")
_DATE_REACH = 48


def date_held_from(text: str, start: int, end: int, held: int) -> int:
    r"""held, or the start of a month-name date in text[start:end] that goes on past held, or that the text after
    end may still go on writing (``Jan.``, ``March 19,``, ``5 de``, ``5 January``: more text would make it a
    date, or a longer one): where a streamed answer holds its text back from (grounding.streaming), so that a
    date is released whole, once the rest of it has arrived. The date pattern itself is asked (a partial match).

    >>> [date_held_from(t, 0, len(t), len(t)) for t in ("ships Jan.", "ships Jan. 5, 2025 by truck.", "on 5\n")]
    [6, 28, 3]
    >>> date_held_from("ships on March 19, 2025.", 0, 24, 18), date_held_from("el 5 de\n", 0, 8, 8)
    (9, 3)
    """
    low = max(start, held - _DATE_REACH)  # (held <= end: a date that may go on past end begins after it too)
    months = [month.start() for month in _ANY_MONTH_START.finditer(text, low, held)]
    days = [run.start() for run in _DIGIT_RUN.finditer(text, low, held) if run.end() - run.start() <= 2]
    for at in sorted(months + days):
        written = _PROSE_DATE.match(text, at, end, partial=True)  # (None for most: no date begins there)
        if written is not None and (written.partial or written.end() > held
                                    or _PROSE_DATE.fullmatch(text, at, end, partial=True)):
            return at
    return held


@dataclass(frozen=True, slots=True)
class ProseDate:
    """A month-name date found in text; year is None when none was written."""

    start: int
    end: int
    month: int
    day: int
    year: int | None

    @property
    def month_day(self) -> str:
        return f"{self.month:02d}-{self.day:02d}"

    @property
    def iso(self) -> str | None:
        return None if self.year is None else f"{self.year:04d}-{self.month_day}"


def prose_dates(text: str) -> Iterator[ProseDate]:
    """Yield the month-name dates written in text (§9.10), in English and the languages of _OTHER_MONTHS
    (``16. März 2025``, ``24 de junho de 2024``, ``le 3 août``), and the dates of Chinese, Japanese and Korean
    (``2025年3月16日``, ``2025년 3월 16일``), in order.

    >>> [d.iso or d.month_day for d in prose_dates("Monday, May 26, 2024 and 14 March, and may 3")]
    ['2024-05-26', '03-14']
    >>> [d.iso or d.month_day for d in prose_dates("Sonntag, 16. März 2025; 24 de junho de 2024; le 3 août")]
    ['2025-03-16', '2024-06-24', '08-03']
    >>> [d.iso or d.month_day for d in prose_dates("am 7. April 2025; 1. January; 2. August")]
    ['2025-04-07']
    >>> [d.iso or d.month_day for d in prose_dates("op 8 april 2025, 3 september; April 5, 2025; in april")]
    ['2025-04-08', '09-03', '2025-04-05']
    >>> [d.iso or d.month_day for d in prose_dates("发货 2025年3月16日，3月18日到；2025년 3월 16일; ２０２５年３月１６日")]
    ['2025-03-16', '03-18', '2025-03-16', '2025-03-16']
    """
    named = _named_month_dates(text)
    if "月" not in text and "월" not in text:
        yield from named  # (most texts)
        return
    found = [*named]
    for match in _CJK_DATE.finditer(text):
        month, day = int(match.group("month")), int(match.group("day"))
        if in_calendar(month, day):
            year = match.group("year")
            found.append(ProseDate(match.start(), match.end(), month, day, int(year) if year else None))
    yield from sorted(found, key=lambda date: date.start)


# A date as Chinese, Japanese and Korean write it: year (or none), month and day, each with its character
_CJK_DATE = re.compile(r"(?<!\d)(?:(?P<year>\d{4})\s*[年년]\s*)?(?P<month>\d{1,2})\s*[月월]\s*"
                       r"(?P<day>\d{1,2})\s*[日일号號]")


def _named_month_dates(text: str) -> Iterator[ProseDate]:
    if _ANY_MONTH_START.search(text) is None and not any(
            word.lower() in OTHER_MONTHS for word in _WORD_AFTER_A_DAY.findall(text)):
        return  # rules out most texts faster than the pattern can
    for match in _prose_date_pattern_for(text).finditer(text):
        groups = match.groupdict()  # (English's pattern has no third alternative)
        month_name = groups["month"] or groups["month2"] or groups.get("month3") or groups["month4"]
        day = int(groups["day"] or groups["day2"] or groups.get("day3") or groups["day4"])
        month = MONTHS[month_name.lower()]
        if not in_calendar(month, day):
            continue
        year = groups["year"]
        yield ProseDate(match.start(), match.end(), month, day, int(year) if year else None)
