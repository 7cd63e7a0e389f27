"""Numbers written as other languages group and point them (issue 53): ``1.234,56`` and ``1.234.567,89``
(a point groups the thousands, a comma marks the decimals), ``1'234.56`` and ``41 200`` (an apostrophe,
a no-break or narrow no-break space groups them), ``41.200`` (a point that may group the thousands).

The tokens cut such a number where a comma or space stands (``1.234,56`` is ``1.234`` and ``56``), so the
piece an answer's candidate holds would be judged as another number. Each occurrence of a candidate is
looked at where it stands: the whole number written around it is read as the one it spells, and the
candidate is grounded when that number was read. Only whole groups of three digits are joined, so two
numbers side by side (``in 2024, 41 orders``) are never read as one.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

import regex

from grounding.core.text.patterns import LazyPattern

# a point-grouped number with decimal comma; an apostrophe- or no-break-space-grouped one with either decimal
# mark; a point-grouped whole number (41.200, 1.234.567: the reading a decimal would not have)
_LOCALE_NUMBER = LazyPattern(
    regex.compile,
    r"(?<![\d.,'\u00a0\u202f])(?:"
    r"(?P<pointed>\d{1,3}(?:\.\d{3})+),(?P<decimals>\d+)"
    r"|(?P<spaced>\d{1,3}(?:['\u2019\u00a0\u202f]\d{3})+)(?:[.,](?P<spaced_decimals>\d+))?"
    r"|(?P<whole>\d{1,3}(?:\.\d{3})+)"
    r")(?![\d]|[.,]\d)",
)


_AFTER = ".,;:!?)\"'"


def locale_readings(text: str, start: int, end: int) -> list[Decimal]:
    """The numbers that the locale-written number standing around text[start:end] reads as (none when none
    stands there).

    >>> locale_readings("suma 1.234,56 €", 5, 10), locale_readings("Total: 1'250'000 CHF", 9, 16)
    ([Decimal('1234.56')], [Decimal('1250000')])
    >>> locale_readings("Es sind 41.200 Kunden.", 8, 14), locale_readings("in 2024, 41 orders", 3, 7)
    ([Decimal('41200')], [])
    """
    while end > start and text[end - 1] in _AFTER:  # an occurrence may end with the sentence's punctuation
        end -= 1
    window_start = max(0, start - 24)
    for match in _LOCALE_NUMBER.finditer(text, window_start, min(len(text), end + 24)):
        if match.start() <= start and end <= match.end():
            return [_number(match)]
    return []


def _number(match: regex.Match) -> Decimal:
    if match.group("pointed"):
        spelled = match.group("pointed").replace(".", "") + "." + match.group("decimals")
    elif match.group("spaced"):
        digits = "".join(ch for ch in match.group("spaced") if ch.isdigit())
        decimals = match.group("spaced_decimals")
        spelled = digits + ("." + decimals if decimals else "")
    else:
        spelled = match.group("whole").replace(".", "")
    try:
        return Decimal(spelled)
    except InvalidOperation:  # pragma: no cover - the pattern spells only digits and one point
        return Decimal(0)
