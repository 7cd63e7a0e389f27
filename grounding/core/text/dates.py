"""Dates and times read in parts (SPEC §9.1), 12-hour times and durations; dates written with a month's name
(§9.10) are month_dates'.

A tool result's ``2024-05-14T16:03:16Z`` grounds ``2024-05-14``, ``2024``,
``16:03`` and ``4:03pm``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import regex

from grounding.core.text.patterns import LazyPattern

_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
# Minutes may be one digit (7:0, as a program printing hours writes them, §9.14)
_TIME = r"(\d{1,2}):(\d{1,2})(?::(\d{2})(?:\.\d+)?)?(z|[-+]\d{1,2}(?::?\d{2})?)?"
_DATE_TIME = re.compile(r"(\d{4})-(\d{2})-(\d{2})[t_]" + _TIME)
# An ISO date written in text or inside a longer token, not part of a longer number (reports/2025-03-07/x)
ISO_DATE_WRITTEN = re.compile(r"(?<![0-9])[0-9]{4}-[01][0-9]-[0-3][0-9](?![0-9])")
_TIME_ONLY = re.compile(_TIME)
# Two times, or two dates, joined (§9.15): the first time has no seconds (after seconds "-05:00" is an
# offset), and the second date may leave out the year and month it shares with the first (2025-03-07/08).
_TIME_RANGE = re.compile(r"(\d{1,2}:\d{1,2})[-/](\d{1,2}:\d{1,2}(?::\d{2})?)")
_DATE_RANGE = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[-/](\d{4})-(\d{2})-(\d{2})|/(?:(\d{2})-)?(\d{2}))")
# A time an answer writes, and the meridiem after it (§9.14)
_CLOCK = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2}))?(?:([ap])\.?m\.?)?")
_MERIDIEM_AFTER = re.compile(r"[ \t]?([ap])\.?m(?![a-z])\.?", re.IGNORECASE)
_DURATION = re.compile(r"(\d{1,2})h(\d{1,2})m")
_NOON = LazyPattern(regex.compile, r"(?<![\p{L}\p{Nd}])(noon|midnight)(?![\p{L}\p{Nd}])", regex.IGNORECASE)
_TWELVE_HOUR = LazyPattern(
    regex.compile, r"(?<![\d:.])(\d{1,2})(?::(\d{2})(?::(\d{2}))?)?\s*([ap])\.?m\b\.?", regex.IGNORECASE
)
_DAY_MARKER = LazyPattern(regex.compile, r"[-+]\d{1,2}")
# A time, or a range of two, standing as a token with no AM/PM after it (§9.21)
_BARE_TIME = LazyPattern(
    regex.compile,
    r"(?<![\w:.\-/])\d{1,2}:\d{1,2}(?::\d{2})?(?:[-/]\d{1,2}:\d{1,2}(?::\d{2})?)?(?![\w:]|\.\d|\s*[ap]\.?m\b)",
    regex.IGNORECASE,
)
_DAYS_IN_MONTH = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)

def date_parts(value: str) -> Iterator[str]:
    """Yield what a date, date-time or time grounds beyond itself (§9.1).

    >>> sorted(set(date_parts("2027-07-04t16:20:00z")))
    ['04:20', '04:20pm', '16:20', '16:20:00', '2027', '2027-07-04', '4:20', '4:20pm']
    >>> sorted(set(date_parts("03:00:00+1")))
    ['03:00', '03:00+1', '03:00:00', '03:00am', '3:00', '3:00+1', '3:00:00', '3:00am']
    >>> sorted({f for f in date_parts("7:0-15:30") if f[:2] in ("07", "15")})
    ['07:00', '07:00am', '15:30']
    >>> sorted(set(date_parts("2025-03-07/08")))
    ['2025', '2025-03-07', '2025-03-08']
    """
    ends = range_ends(value)
    if ends is not None:
        for end in ends:
            yield end
            yield from date_parts(end)
        return
    match = _DATE_TIME.fullmatch(value)
    if match:
        year, month, day = match.group(1, 2, 3)
        if not _valid_date(int(year), int(month), int(day)):
            return
        yield f"{year}-{month}-{day}"
        yield year
        yield from _time_forms(*match.group(4, 5, 6, 7))
        return
    match = _DATE.fullmatch(value)
    if match:
        if _valid_date(*(int(part) for part in match.groups())):
            yield match.group(1)
        return
    match = _TIME_ONLY.fullmatch(value)
    if match:
        hour, minute, second, offset = match.groups()
        if second is None and offset is not None and offset[0] == "-":
            offset = None  # after a time without seconds "-" starts a range's end, never an offset
        yield from _time_forms(hour, minute, second, offset)


def in_calendar(month: int, day: int) -> bool:
    """Whether a month has that day (any year's: 29 February is one)."""
    return 1 <= month <= 12 and 1 <= day <= _DAYS_IN_MONTH[month - 1]


def range_ends(value: str) -> tuple[str, str] | None:
    """The two ends of a range of times or of dates (§9.15), the second date written out whole; None when
    value is no such range.

    >>> range_ends("10:30-19:30"), range_ends("2025-03-07/08"), range_ends("16:03:16-05:00")
    (('10:30', '19:30'), ('2025-03-07', '2025-03-08'), None)
    """
    match = _TIME_RANGE.fullmatch(value)
    if match is not None:
        return match.group(1), match.group(2)
    match = _DATE_RANGE.fullmatch(value)
    if match is None:
        return None
    year, month, day, whole_year, whole_month, whole_day, short_month, short_day = match.groups()
    if whole_year is not None:
        return f"{year}-{month}-{day}", f"{whole_year}-{whole_month}-{whole_day}"
    return f"{year}-{month}-{day}", f"{year}-{short_month or month}-{short_day}"


def duration_as_clock(value: str) -> str | None:
    """A duration written in hours and minutes (``5h59m``) as the H:MM a timetable writes it (``05:59``).

    >>> duration_as_clock("5h59m"), duration_as_clock("12h5m"), duration_as_clock("5h")
    ('5:59', '12:05', None)
    """
    match = _DURATION.fullmatch(value)
    if match is None or int(match.group(2)) > 59:
        return None
    return f"{int(match.group(1))}:{int(match.group(2)):02d}"


def answer_clock(value: str, after: str) -> tuple[str, int] | None:
    """A time an answer writes, as its value to the minute (and to the second when it writes seconds other
    than :00): with a meridiem, spelled with it, which says the time of day as one 24-hour value does. Also
    how many characters of the text after the token its meridiem takes (§9.14). None when the token is its
    own value (``3:30``, ``15:30:16``).

    >>> answer_clock("07:00", " AM to"), answer_clock("3:30pm", ""), answer_clock("12:05", " a.m.")
    (('7:00am', 3), ('3:30pm', 0), ('12:05am', 5))
    >>> answer_clock("3:30", " and") is None
    True
    >>> answer_clock("07:00:00", ""), answer_clock("15:30:16", "")
    (('07:00', 0), None)
    """
    match = _CLOCK.fullmatch(value)
    if match is None:
        return None
    hour, minute, second, meridiem = match.groups()
    taken = 0
    if meridiem is None:
        written = _MERIDIEM_AFTER.match(after)
        if written is None:
            # no half of the day said: to the minute, as written (07:00:00 is 07:00; 3:30 may be either)
            return (f"{hour}:{minute}", 0) if second == "00" else None
        meridiem, taken = written.group(1).lower(), written.end()
    h = int(hour)
    if not 1 <= h <= 12 or int(minute) > 59:
        return None
    if second and second != "00":  # on the 24-hour clock: the index spells no 12-hour time with seconds
        return f"{h % 12 + (12 if meridiem == 'p' else 0):02d}:{minute}:{second}", taken
    # 4:03am, never 04:03: the index also spells 16:03 as 04:03 (a 12-hour time written without am/pm)
    return f"{h}:{minute}{meridiem}m", taken


def _valid_date(year: int, month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= 31


def _time_forms(hour: str, minute: str, second: str | None, offset: str | None) -> Iterator[str]:
    h, m = int(hour), int(minute)
    if h > 24 or m > 59 or (second is not None and int(second) > 60):
        return
    minute = minute.zfill(2)  # 7:5 is 07:05
    yield from time_forms(h, minute, second)
    if offset and _DAY_MARKER.fullmatch(offset):
        yield f"{h:02d}:{minute}{offset}"
        yield f"{h}:{minute}{offset}"


def time_forms(hour: int, minute: str, second: str | None) -> Iterator[str]:
    """The 24-hour, 12-hour and meridiem spellings of one time of day."""
    yield f"{hour:02d}:{minute}"
    yield f"{hour}:{minute}"
    if second is not None:
        yield f"{hour:02d}:{minute}:{second}"
        yield f"{hour}:{minute}:{second}"
    twelve = hour % 12 or 12
    meridiem = "am" if hour < 12 or hour == 24 else "pm"
    for spelled in (f"{twelve}:{minute}", f"{twelve:02d}:{minute}"):
        yield spelled
        yield spelled + meridiem


def halves(value: str) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    """A time (or a range of two) written on its own in a token with no half of the day (§9.21): its forms
    with AM/PM as a morning time (own), the forms of its other half (other), and whether it is written on
    the 24-hour clock (an hour 0 or 13–23), which says the text it stands in keeps to one clock. A time
    with an offset or a day marker is a schedule's, read as written: no halves.

    >>> own, other, _ = halves("3:15")
    >>> sorted(set(own)), sorted(set(other))
    (['03:15am', '3:15am'], ['03:15', '03:15pm', '15:15', '3:15', '3:15pm'])
    >>> halves("15:15"), halves("3:15+1"), halves("2024-05-14t03:15")
    (((), (), True), ((), (), False), ((), (), False))
    >>> "12:30am" in halves("12:30")[1], halves("7:0-15:30"), "1:00pm" in halves("11:0-1:0")[1]
    (True, ((), (), True), False)
    """
    ends = range_ends(value) or (value,)
    matches = [match for match in map(_TIME_ONLY.fullmatch, ends) if match is not None]
    if len(matches) != len(ends):
        return (), (), False
    if any(int(match.group(1)) == 0 or 13 <= int(match.group(1)) <= 23 for match in matches):
        return (), (), True
    if any(match.group(4) for match in matches):
        return (), (), False  # an offset or a day marker: a schedule's clock, read as written
    # Minutes in one digit (7:0-15:30, 11:0-1:0) are a program's print of the 24-hour clock, never a
    # person's 12-hour time: such a token gives its own reading alone, decided by its own form, not by other
    # times of the text it stands in (it closes at 1:0 is one in the morning).
    printed = any(len(match.group(2)) == 1 for match in matches)
    own: list[str] = []
    other: list[str] = []
    for match in matches:
        hour, minute, second = int(match.group(1)), match.group(2), match.group(3)
        if 1 <= hour <= 12 and int(minute) <= 59:
            own.extend(form for form in time_forms(hour, minute.zfill(2), second) if form[-1] == "m")
            if not printed:
                other.extend(time_forms((hour + 12) % 24, minute.zfill(2), second))
    return tuple(own), tuple(other), False


def halves_written(text: str, *, both: bool = True) -> Iterator[str]:
    """halves' forms, its own and (both) its other, of each time text writes without AM/PM after it: in a
    text that writes AM/PM, a time it gives a half keeps that half alone.

    >>> sorted(set(halves_written("opens 8:00 AM, lunch 1:30, T03:15")))
    ['01:30', '01:30am', '01:30pm', '13:30', '1:30', '1:30am', '1:30pm']
    """
    for match in _BARE_TIME.finditer(text):
        own, other, _ = halves(match.group())
        yield from own
        if both:
            yield from other


def twelve_hour_times(text: str) -> Iterator[str]:
    """Yield the forms of every 12-hour time written in text (``3pm`` → ``15:00`` …).

    >>> sorted(set(twelve_hour_times("after 3pm")))
    ['03:00', '03:00pm', '15:00', '3:00', '3:00pm']
    """
    for match in _NOON.finditer(text):
        yield from time_forms(12 if match.group(1).lower() == "noon" else 0, "00", None)
    for match in _TWELVE_HOUR.finditer(text):
        hour = int(match.group(1))
        if not 1 <= hour <= 12:
            continue
        minute = match.group(2) or "00"
        if int(minute) > 59:
            continue
        pm = match.group(4).lower() == "p"
        hour24 = (hour % 12) + (12 if pm else 0)
        yield from time_forms(hour24, minute, match.group(3))
