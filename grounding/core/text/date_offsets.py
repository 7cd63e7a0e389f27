"""Computed dates (SPEC §9.19): a date the answer writes that is a stated offset from a date read.

"The day after your flight, 2025-03-08" after a tool said ``2025-03-07`` is
``derived``: ``2025-03-08 = 2025-03-07 + 1 day``. Only the offsets the answer
or the user's text states are tried, so an unread date with no such words stays
unsupported; weekday names ("next Wednesday") are no offset. The user's words
count from any earlier turn, not only the last: an agent asked in one turn to
"move it to the next day" writes that date again in the turns after.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date, timedelta

import regex

from grounding.core.text.patterns import LazyPattern

_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fourteen": 14, "thirty": 30,
}  # fmt: skip
# one to three in the other languages ("in einer Woche", "il y a deux jours", "tra tre giorni")
_OTHER_NUMBER_WORDS = {
    **{word: 1 for word in "ein eine einer einem einen une un una uno uma um een jeden jedną jedna üks ühe".split()},
    **{word: 2 for word in "zwei deux dos dois due twee dwa dwie kaks kahe".split()},
    **{word: 3 for word in "drei trois tres três tre drie trzy kolm kolme".split()},
}
_N = r"(?P<n>\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|thirty)"
_DAYS_WEEKS = r"(?P<unit>days?|weeks?)"
_ENGLISH_OFFSETS = LazyPattern(
    regex.compile,
    r"\b(?:(?P<next>tomorrow|the\s+(?:next|following)\s+day|the\s+day\s+after)"
    r"|(?P<previous>yesterday|the\s+(?:previous|prior)\s+day|the\s+day\s+before)"
    rf"|in\s+{_N}\s+{_DAYS_WEEKS}"
    rf"|{_N}\s+{_DAYS_WEEKS}\s+(?P<direction>later|after|afterwards|before|earlier|prior|ago)"
    rf"|(?P<by>by)\s+{_N}\s+{_DAYS_WEEKS})\b",
    regex.IGNORECASE,
)
_ENGLISH_WORDS = ("tomorrow", "yesterday", "day", "week")  # one of them is in every English offset
# The same in German, French, Spanish, Portuguese, Italian, Dutch, Polish, Estonian: the day after and
# before, two days on and back, "in N days / weeks". German's "morgen" (a capital Morgen begins a sentence
# too, but "Guten Morgen" is a greeting), Spanish "mañana" ("la mañana" is the morning). Left out: French
# "hier" (German's "here") and Estonian "homme" (French's "man").
_WEEKS = ("week", "weeks", "woche", "wochen", "semaine", "semaines", "semana", "semanas", "settimana",
          "settimane", "weken", "tydzień", "tygodnie", "tygodni", "nädala", "nädalat")
_OTHER_UNIT = ("(?P<unit>tage?n?|jours?|d[ií]as?|giorn[oi]|dag(?:en)?|dni|dzień|päeva|" + "|".join(_WEEKS[2:]) + ")")
_OTHER = {
    "next": r"(?<!guten\s)(?<!jeden\s)morgen|demain|(?<!la\s)(?<!esta\s)mañana|amanhã|domani|jutro",
    "previous": "gestern|ayer|ontem|ieri|gisteren|wczoraj|eile",
    "next2": (r"übermorgen|après-demain|pasado\s+mañana|depois\s+de\s+amanhã|dopodomani|overmorgen|pojutrze"
              "|ülehomme"),
    "previous2": r"vorgestern|avant-hier|anteayer|anteontem|l'altro\s+ieri|eergisteren|przedwczoraj|üleeile",
}
_OTHER_N = r"(?P<n>\d{1,3}|" + "|".join(sorted(_OTHER_NUMBER_WORDS, key=len, reverse=True)) + ")"
_OTHER_OFFSETS = LazyPattern(
    regex.compile,
    r"\b(?:" + "|".join(f"(?P<{name}>{words})" for name, words in _OTHER.items())
    + rf"|(?:in|dans|en|em|tra|fra|over|za|binnen|innerhalb\s+von)\s+{_OTHER_N}\s+{_OTHER_UNIT}"
    # "N days ago": before the number (vor, il y a, hace, há) or after the days (fa, geleden, temu, tagasi);
    # Estonian's "N days on" after them (pärast)
    + rf"|(?P<back>vor|il\s+y\s+a|hace|há)\s+{_OTHER_N}\s+{_OTHER_UNIT}"
    + rf"|{_OTHER_N}\s+{_OTHER_UNIT}\s+(?:(?P<back2>fa|geleden|temu|tagasi)|pärast))\b",
    regex.IGNORECASE,
)
# one of these is in every offset _OTHER_OFFSETS reads (lower case)
_OTHER_WORDS = ("morgen", "demain", "mañana", "amanhã", "domani", "jutro", "gestern", "ayer", "ontem", "ieri", "avant-hier",
                "gisteren", "wczoraj", "eile", "ülehomme", "üleeile", "pojutrze", "anteayer", "anteontem", "tag",
                "jour", "día", "dia", "giorn", "dag", "dni", "dzień", "päev", "woche", "semaine", "semana",
                "settiman", "weken", "tydzień", "tygodni", "nädal")
_BACKWARDS = frozenset({"before", "earlier", "prior", "ago"})


def stated_offsets(text: str) -> set[int]:
    """The day offsets text states, signed.

    >>> sorted(stated_offsets("Tomorrow, or the day before; in 3 days, two weeks later, a week earlier."))
    [-7, -1, 1, 3, 14]
    >>> sorted(stated_offsets("delay it by one day")), stated_offsets("next Wednesday")
    ([-1, 1], set())
    >>> sorted(stated_offsets("Morgen (2025-04-08); demain; übermorgen; gestern; in 3 Tagen; dans 2 semaines"))
    [-1, 1, 2, 3, 14]
    >>> sorted(stated_offsets("vor 3 Tagen; il y a deux jours; 4 giorni fa; in einer Woche; 5 päeva pärast"))
    [-4, -3, -2, 5, 7]
    """
    found = set()
    lowered = text.lower()  # most texts state no offset: one pass for each word, in C, rules them out
    patterns = [pattern for pattern, words in ((_ENGLISH_OFFSETS, _ENGLISH_WORDS), (_OTHER_OFFSETS, _OTHER_WORDS))
                if any(word in lowered for word in words)]
    for match in (match for pattern in patterns for match in pattern.finditer(text)):
        named = match.groupdict()
        if named.get("next2") or named.get("previous2"):
            found.add(2 if named.get("next2") else -2)
        elif named.get("next"):
            found.add(1)
        elif named.get("previous"):
            found.add(-1)
        else:
            n = match.group("n").lower()
            unit = match.group("unit").lower()
            count = _NUMBER_WORDS.get(n) or _OTHER_NUMBER_WORDS.get(n) or int(n)
            days = count * (7 if unit in _WEEKS else 1)
            if named.get("by"):
                found.update((days, -days))  # "delay it by one day", "move it back by a week": either way
            else:
                backwards = (named.get("direction") or "").lower() in _BACKWARDS or named.get("back") or named.get("back2")
                found.add(-days if backwards else days)
    found.discard(0)
    return found


def offset_from(iso: str, offset: int) -> str | None:
    """The ISO date that iso is offset days after, or None when iso is no valid date.

    >>> offset_from("2025-03-01", 1), offset_from("2025-02-30", 1)
    ('2025-02-28', None)
    """
    try:
        day = date.fromisoformat(iso)
        return (day - timedelta(days=offset)).isoformat()
    except (ValueError, OverflowError):
        return None


def formula(iso: str, base: str, offset: int) -> str:
    """How the verdict shows a computed date.

    >>> formula("2025-03-08", "2025-03-07", 1), formula("2025-03-01", "2025-03-15", -14)
    ('2025-03-08 = 2025-03-07 + 1 day', '2025-03-01 = 2025-03-15 - 14 days')
    """
    days = abs(offset)
    return f"{iso} = {base} {'+' if offset > 0 else '-'} {days} day{'s' if days != 1 else ''}"


def find_offset(iso: str, offsets: Iterable[int], is_read: Callable[[str], bool]) -> str | None:
    """The formula of iso as a date read (is_read) plus one of offsets, smallest offset first.

    >>> find_offset("2025-03-08", stated_offsets("Move it to the next day."), {"2025-03-07"}.__contains__)
    '2025-03-08 = 2025-03-07 + 1 day'
    """
    for offset in sorted(offsets, key=lambda days: (abs(days), days)):
        base = offset_from(iso, offset)
        if base is not None and is_read(base):
            return formula(iso, base, offset)
    return None
