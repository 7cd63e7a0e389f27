"""Percentages written in text (``5%``, ``12.5 percent``): what a number read may be scaled by, and whether an
answer writes a number as a percentage."""

from __future__ import annotations

import re
from decimal import Decimal

_PERCENTAGE = re.compile(r"(?<![\w.])(\d{1,3}(?:\.\d+)?)\s?(?:%|percent\b|per cent\b)", re.IGNORECASE)
_WRITTEN_AS_PERCENT = re.compile(r"\s?(?:%|percent\b|per cent\b)", re.IGNORECASE)


def percentages_in(text: str) -> set[Decimal]:
    """The percentages a text states (``5%``, ``12.5 percent``).

    >>> sorted(percentages_in("flag anything 5% over; 12.5 percent off; 2024%x"))
    [Decimal('5'), Decimal('12.5')]
    """
    if "%" not in text and "ercent" not in text and "ERCENT" not in text:
        return set()  # most texts write none: told without the pattern
    return {Decimal(match.group(1)) for match in _PERCENTAGE.finditer(text) if Decimal(match.group(1)) > 0}


def written_as_percent(text: str, end: int) -> bool:
    """True when the number ending at end in text is written as a percentage (``66.67%``, ``12.5 percent``)."""
    return text[end - 1 : end] == "%" or _WRITTEN_AS_PERCENT.match(text, end) is not None
