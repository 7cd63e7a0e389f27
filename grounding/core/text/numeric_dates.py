"""Numeric dates in the orders other than ISO's (issue 53): day first (``24.06.2024``, ``24/6/2024``), month
first (``06-24-2024``), year first (``2024/06/24``), and, where they were read, years of two digits
(``24/06/24``)."""

from __future__ import annotations

import re

from grounding.core.text.dates import in_calendar

_DAY_OR_MONTH_FIRST = re.compile(r"(\d{1,2})([/.-])(\d{1,2})\2((?:19|20)\d{2})")
_DAY_OR_MONTH_FIRST_SHORT = re.compile(r"(\d{1,2})([/.])(\d{1,2})\2(\d{2})")  # a year of two digits: 24/06/24
_YEAR_FIRST = re.compile(r"((?:19|20)\d{2})([/.])(\d{1,2})\2(\d{1,2})")
# what a token must hold to be tried as one (a cheap test before the patterns)
NUMERIC_DATE_HINT = re.compile(r"\d[/.-]\d{1,2}[/.-]\d")


def numeric_dates(value: str, *, two_digit_year: bool = False) -> tuple[str, ...]:
    """The ISO dates a numeric date written in another order is: ``24/6/2024`` and ``24.06.2024`` day first,
    ``06-24-2024`` month first, ``2024/06/24`` year first; both, where both orders are dates
    (``03/04/2025``). A year is written whole, unless two_digit_year (what was read: a user's ``24/06/24``,
    day or month first, its year in 2000-2069 or 1970-1999, as POSIX reads ``%y``).

    >>> numeric_dates("24.06.2024"), numeric_dates("03/04/2025"), numeric_dates("2024/6/24"), numeric_dates("1.2.3")
    (('2024-06-24',), ('2025-04-03', '2025-03-04'), ('2024-06-24',), ())
    >>> numeric_dates("24/06/24"), numeric_dates("24/06/24", two_digit_year=True), numeric_dates("12.5.98", two_digit_year=True)
    ((), ('2024-06-24',), ('1998-05-12', '1998-12-05'))
    """
    match = _YEAR_FIRST.fullmatch(value)
    if match is not None:
        year, month, day = int(match.group(1)), int(match.group(3)), int(match.group(4))
        return (f"{year:04d}-{month:02d}-{day:02d}",) if in_calendar(month, day) else ()
    match = _DAY_OR_MONTH_FIRST.fullmatch(value)
    if match is None and two_digit_year:
        match = _DAY_OR_MONTH_FIRST_SHORT.fullmatch(value)
    if match is None:
        return ()
    first, second, year = int(match.group(1)), int(match.group(3)), int(match.group(4))
    if len(match.group(4)) == 2:
        year += 2000 if year < 70 else 1900
    found = [f"{year:04d}-{month:02d}-{day:02d}" for day, month in ((first, second), (second, first))
             if in_calendar(month, day)]
    return tuple(dict.fromkeys(found))
