"""Collection totals (SPEC §9.7) and means: the first collection read whose members add up to a value, or
whose mean is the value at the precision the answer writes it (rounded or cut).

A value is asked about here only after every cheaper route failed, and most
such values (an invented amount) are no total at all. So each collection is
added up once as floats, in C (``math.fsum``); only a collection whose float
total lies within rounding of the value is added up exactly, as the Decimals
of its members' spellings, the way the verdict shows it.
"""

from __future__ import annotations

import bisect
import math
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

from grounding import json_exact
from grounding.core.text.normalise import spell

# fsum rounds once, and a member's float lies within 2**-53 of its spelled value (relative), so a
# collection whose exact total is the value has a float total within ~2**-51 of it; this is far wider.
# The absolute part covers subnormal floats, whose relative precision is less.
_RELATIVE = 1e-12
_ABSOLUTE = 1e-300
_FLOAT_RANGE = 1e300  # a value past this is added up against every collection: a float total may overflow
_SHOWN = 6  # addends a formula writes out


class Totals:
    """The collections of a conversation, in reading order: (members as parsed, the key they share, or None
    for an array of numbers)."""

    def __init__(self, collections: list[tuple[list, str | None]]) -> None:
        self._collections = [entry for entry in collections if len(entry[0]) >= 2]
        floats = sorted((_float_total(members), position) for position, (members, _) in enumerate(self._collections))
        self._floats = [total for total, _ in floats]
        self._positions = [position for _, position in floats]
        means = sorted((total / len(self._collections[position][0]), position) for total, position in floats)
        self._means = [mean for mean, _ in means]
        self._mean_positions = [position for _, position in means]

    def formula(self, magnitude: Decimal) -> str | None:
        """The formula of the first collection whose total is magnitude, or None."""
        target = float(magnitude)
        if target < _FLOAT_RANGE:
            slack = _RELATIVE * target + _ABSOLUTE
            low = bisect.bisect_left(self._floats, target - slack)
            high = bisect.bisect_right(self._floats, target + slack)
            positions: list[int] | range = sorted(self._positions[low:high])
        else:
            positions = range(len(self._collections))
        for position in positions:
            members, key = self._collections[position]
            spellings = [json_exact.number_spelling(member).lstrip("-") for member in members]
            total = sum(map(Decimal, spellings), Decimal(0))
            if total == magnitude:
                addends = " + ".join(spellings[:_SHOWN]) + (" + …" if len(spellings) > _SHOWN else "")
                label = f"total of {len(spellings)} numbers" if key is None else (
                    f"total of {key!r} over {len(spellings)} items")
                return f"{spell(total)} = {addends} ({label})"
        return None


    def mean_formula(self, magnitude: Decimal, decimals: int) -> str | None:
        """The formula of the first collection whose mean, rounded or cut to decimals places, is magnitude
        (one mean per collection: no neighbourhood of them to count), or None."""
        step = Decimal(1).scaleb(-decimals)
        target = float(magnitude)
        if target >= _FLOAT_RANGE:
            return None
        slack = float(step) + _RELATIVE * target + _ABSOLUTE
        low = bisect.bisect_left(self._means, target - slack)
        high = bisect.bisect_right(self._means, target + slack)
        for position in sorted(self._mean_positions[low:high]):
            members, key = self._collections[position]
            spellings = [json_exact.number_spelling(member).lstrip("-") for member in members]
            total = sum(map(Decimal, spellings), Decimal(0))
            mean = total / len(spellings)
            if magnitude in (mean.quantize(step, ROUND_HALF_UP), mean.quantize(step, ROUND_DOWN)):
                addends = " + ".join(spellings[:_SHOWN]) + (" + …" if len(spellings) > _SHOWN else "")
                label = f"mean of {len(spellings)} numbers" if key is None else (
                    f"mean of {key!r} over {len(spellings)} items")
                return f"{spell(magnitude)} = ({addends}) / {len(spellings)} ({label})"
        return None


def _float_total(members: list) -> float:
    try:
        return math.fsum(map(abs, members))
    except OverflowError:  # an integer past a float's range, or a sum past it
        return math.inf
