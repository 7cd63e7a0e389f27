"""Dates relative to a stated "today" (verdict quality VI): where the system or the user's text states the
current date ("Today's date is Monday, 2025-03-10"), or a clock tool gave it (``get-current-date``), "last
Friday", "next Wednesday", "the start of this month" name dates computed from it. The phrases count where
the answer or the user's text writes them; the date must be the one the phrase names (either reading where
usage differs: "next Friday" is the first Friday after today or the Friday of next week). Offsets in days
("three weeks ago", "in 10 days") are §9.19's (date_offsets), from any date read, a stated today among them.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta
from functools import lru_cache

from grounding.core.text.dates import ISO_DATE_WRITTEN
from grounding.core.text.month_dates import prose_dates
from grounding.core.text.patterns import LazyPattern

_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_PHRASE = LazyPattern(
    re.compile,
    r"\b(?:(?P<which>last|next|this|coming|past|previous)\s+(?P<day>" + "|".join(_DAYS) + r")"
    r"|(?:the\s+)?(?P<edge>start|beginning|end)\s+of\s+(?:the\s+)?(?P<when>this|last|next|current|previous)?"
    r"\s*(?P<period>week|month))\b",
    re.IGNORECASE,
)
# "next Friday" as the answer's other languages write it (German, French, Spanish, Portuguese, Italian,
# Dutch, Polish, Estonian): which (next, last, this) before or after the day's name, read as the English phrase
_OTHER_DAYS = {
    "monday": "montag lundi lunes segunda-feira segunda lunedì lunedi maandag poniedziałek esmaspäeval esmaspäev",
    "tuesday": "dienstag mardi martes terça-feira terça martedì martedi dinsdag wtorek teisipäeval teisipäev",
    "wednesday": "mittwoch mercredi miércoles miercoles quarta-feira quarta mercoledì mercoledi woensdag środa środę "
                 "kolmapäeval kolmapäev",
    "thursday": "donnerstag jeudi jueves quinta-feira quinta giovedì giovedi donderdag czwartek neljapäeval neljapäev",
    "friday": "freitag vendredi viernes sexta-feira sexta venerdì venerdi vrijdag piątek reedel reede",
    "saturday": "samstag sonnabend samedi sábado sabado sabato zaterdag sobota sobotę laupäeval laupäev",
    "sunday": "sonntag dimanche domingo domenica zondag niedziela niedzielę pühapäeval pühapäev",
}
_OTHER_WHICH = {
    "next": "nächste nächsten nächster nächstes kommende kommenden kommender prochain prochaine próximo próxima "
            "proximo proxima prossimo prossima volgende przyszły przyszłą przyszłym następny następną järgmisel järgmine",
    "last": "letzte letzten letzter vergangene vergangenen vergangener dernier dernière pasado pasada passado "
            "passada scorso scorsa vorige afgelopen zeszły zeszłą ubiegły ubiegłą eelmisel eelmine möödunud",
    "this": "diese diesen dieser ce cette este esta questo questa deze ten tę",
}
_DAY_IN_ENGLISH = {name: day for day, names in _OTHER_DAYS.items() for name in names.split()}
_WHICH_IN_ENGLISH = {word: which for which, words in _OTHER_WHICH.items() for word in words.split()}
_OTHER_PHRASE = LazyPattern(
    lambda days, which: re.compile(
        rf"(?<!\w)(?:(?P<which>{which})\s+(?P<day>{days})|(?P<day2>{days})\s+(?P<which2>{which}))(?!\w)", re.IGNORECASE),
    "|".join(sorted(map(re.escape, _DAY_IN_ENGLISH), key=len, reverse=True)),
    "|".join(sorted(map(re.escape, _WHICH_IN_ENGLISH), key=len, reverse=True)),
)
# "today" in English and in the answer's other languages (heute, aujourd'hui, hoy, hoje, oggi, vandaag, dziś,
# täna): a date written just after it is the current date
_TODAY = LazyPattern(re.compile, r"\b(?:today|current\s+(?:date|time)|heute|heutige[snr]?\s+datum|aujourd'hui|"
                                 r"hoy|hoje|oggi|vandaag|dzisiaj|dziś|täna)(?!\w)", re.IGNORECASE)
_REACH = 60  # characters after "today" its date may be written in ("Today's date is Monday, 2025-03-10")
Phrase = tuple[str, str]  # ("last", "friday"), ("start", "this month"): a phrase's reading, lower case


@lru_cache(maxsize=256)
def phrases_in(text: str) -> frozenset[Phrase]:
    """The relative phrases text writes (memoised: an answer's dates each ask it of the same text, and an
    app's prompt repeats in every conversation).

    >>> sorted(phrases_in("Last Friday, and from the start of this month to the end of last week"))
    [('end', 'last week'), ('last', 'friday'), ('start', 'this month')]
    >>> sorted(phrases_in("nächsten Freitag; vendredi dernier; el próximo lunes; w przyszły piątek; deze zondag"))
    [('last', 'friday'), ('next', 'friday'), ('next', 'monday'), ('this', 'sunday')]
    """
    found = set()
    for match in _PHRASE.finditer(text):
        if match.group("day"):
            found.add((match.group("which").lower(), match.group("day").lower()))
        else:
            edge = "start" if match.group("edge").lower() in ("start", "beginning") else "end"
            when = (match.group("when") or "this").lower()
            when = {"current": "this", "previous": "last"}.get(when, when)
            found.add((edge, f"{when} {match.group('period').lower()}"))
    for match in _OTHER_PHRASE.finditer(text):
        which, day = match.group("which") or match.group("which2"), match.group("day") or match.group("day2")
        found.add((_WHICH_IN_ENGLISH[which.lower()], _DAY_IN_ENGLISH[day.lower()]))
    return frozenset(found)


def todays_in(text: str) -> set[str]:
    """The ISO dates text states as the current date: written within a short reach after "today" or "current
    date" ("now" and "as of" precede other dates too often).

    >>> sorted(todays_in("You are a bot. Today's date is Monday, 2025-03-10. Orders since 2024-01-01."))
    ['2025-03-10']
    >>> sorted(todays_in("The current date is March 3, 2025.")), todays_in("Now book 2025-04-01.")
    (['2025-03-03'], set())
    >>> sorted(todays_in("Heute ist Montag, der 2025-04-07.")), sorted(todays_in("Hoy es 7 de abril de 2025."))
    (['2025-04-07'], ['2025-04-07'])
    """
    found: set[str] = set()
    for match in _TODAY.finditer(text):
        reach = text[match.end() : match.end() + _REACH]
        written: list[tuple[int, str]] = [(d.start, d.iso) for d in prose_dates(reach) if d.iso is not None]
        iso = ISO_DATE_WRITTEN.search(reach)
        if iso is not None:
            written.append((iso.start(), iso.group()))
        first = min(written, default=None)  # the date written first after the word
        if first is not None and _valid(first[1]):
            found.add(first[1])
    return found


# A clock tool's name, as one token: get-current-date, current_time, getCurrentDate, now_date
_CLOCK = LazyPattern(re.compile, r"[a-z_-]*(?:current|now|today)[a-z_-]*(?:date|time)[a-z_-]*", re.IGNORECASE)
_NAME = LazyPattern(re.compile, r"[A-Za-z_-]+")
_ARGUMENTS_LOOKED_AT = 1000  # a router's arguments naming the tool it calls are short


def is_clock(tool: str, arguments: str | None = None) -> bool:
    """True when a tool's name says it tells the current date or time (``get-current-date``), or its call's
    short arguments name such a tool (a router's ``execute-tool`` with ``"tool_name": "get-current-date"``).

    >>> is_clock("get-current-date"), is_clock("getCurrentTime"), is_clock("get_current_weather")
    (True, True, False)
    >>> is_clock("execute-tool", '{"tool_name": "get-current-date"}'), is_clock("search", '{"date": "today"}')
    (True, False)
    """
    if _names_clock(tool):
        return True
    if arguments is None or len(arguments) > _ARGUMENTS_LOOKED_AT or not _may_name_clock(arguments.lower()):
        return False
    return any(map(_names_clock, _NAME.findall(arguments)))


def _may_name_clock(lowered: str) -> bool:
    """Told without a pattern for most names and arguments: they write no clock word."""
    return ("date" in lowered or "time" in lowered) and ("current" in lowered or "now" in lowered or
                                                          "today" in lowered)


def _names_clock(name: str) -> bool:
    return _may_name_clock(name.lower()) and _CLOCK.fullmatch(name) is not None


def dates_in(text: str) -> set[str]:
    """The dates a text writes, ISO or in prose with a year (a clock's answer: ``2025-07-22``).

    >>> sorted(dates_in('{"now": "2025-07-22T10:03:00+08:00"}')), sorted(dates_in("Tuesday, July 22, 2025"))
    (['2025-07-22'], ['2025-07-22'])
    """
    found = {match.group() for match in ISO_DATE_WRITTEN.finditer(text) if _valid(match.group())}
    return found | {d.iso for d in prose_dates(text) if d.iso is not None}


def named_dates(phrase: Phrase, today: str) -> set[str]:
    """The dates a phrase names from today (ISO).

    >>> sorted(named_dates(("last", "friday"), "2025-03-10")), sorted(named_dates(("next", "wednesday"), "2025-03-10"))
    (['2025-03-07'], ['2025-03-12', '2025-03-19'])
    >>> sorted(named_dates(("start", "this month"), "2025-03-10"))
    ['2025-03-01']
    >>> sorted(named_dates(("end", "last month"), "2025-03-10"))
    ['2025-02-28']
    """
    now = date.fromisoformat(today)
    which, what = phrase
    if what in _DAYS:
        weekday = _DAYS.index(what)
        monday = now - timedelta(days=now.weekday())
        this_week = monday + timedelta(days=weekday)
        after = now + timedelta(days=(weekday - now.weekday()) % 7 or 7)
        before = now - timedelta(days=(now.weekday() - weekday) % 7 or 7)
        days = {"last": {before, this_week - timedelta(days=7)}, "past": {before}, "previous": {before},
                "next": {after, this_week + timedelta(days=7)}, "coming": {after}, "this": {this_week}}[which]
    else:
        when, period = what.split()
        shift = {"this": 0, "last": -1, "next": 1}[when]
        if period == "week":
            monday = now - timedelta(days=now.weekday()) + timedelta(weeks=shift)
            days = {monday if which == "start" else monday + timedelta(days=6)}
        else:
            year, month = divmod(now.year * 12 + now.month - 1 + shift, 12)
            last = calendar.monthrange(year, month + 1)[1]
            days = {date(year, month + 1, 1 if which == "start" else last)}
    return {day.isoformat() for day in days}


def _valid(iso: str) -> bool:
    try:
        date.fromisoformat(iso)
    except ValueError:
        return False
    return True


def find_relative(iso: str, phrases: set[Phrase], todays: set[str]) -> str | None:
    """How iso is a date a phrase names from a stated today, or None.

    >>> find_relative("2025-03-07", {("last", "friday")}, {"2025-03-10"})
    '2025-03-07 = last friday from 2025-03-10 (today)'
    """
    for today in sorted(todays):
        for phrase in sorted(phrases):
            if iso in named_dates(phrase, today):
                named = f"{phrase[0]} {phrase[1]}" if phrase[1] in _DAYS else f"the {phrase[0]} of {phrase[1]}"
                return f"{iso} = {named} from {today} (today)"
    return None
