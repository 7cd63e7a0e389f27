"""Figures (issue 53, the ``figures`` setting): a number written with a unit of measure, a percent sign or a
scale word is a claim whatever its length ("53.2% used", "6.3 TB free", "120 ms", "$55M"), where a bare
number under the digit bar, or a count of things ("3 issues", "47 rooms"), stays prose unless min-digits
says otherwise.
"""

from __future__ import annotations

import re

from grounding.core.text.units import MEASURES, split_unit

_MEASURE_AFTER = re.compile(r"[ \t\u00a0\u202f]?(%|[^\W\d_]+(?!\w))")
_CURRENCY_FIRST = frozenset("$€£¥₹")
# a currency amount glued to a scale letter, as finance writes it: $55M, €1.2mn, $12k (a bare "55m" is metres)
_SCALE_LETTER = re.compile(r"(\d[\d,]*(?:\.\d+)?)(k|m|mn)")
_LETTER_EXPONENT = {"k": 3, "m": 6, "mn": 6}


def measure_after(text: str, end: int) -> int | None:
    """Where the unit of measure or the percent sign written right after a number that ends at end ends, or
    None (a count's noun, a word that is no unit).

    >>> [measure_after(t, 3) for t in ["6.3 TB free", "120ms", "6.3 times"]]
    [6, 5, None]
    >>> [measure_after(t, 2) for t in ["45 %", "45% of", "45 percent", "47 issues"]]
    [4, 3, 10, None]
    """
    match = _MEASURE_AFTER.match(text, end)
    if match is None:
        return None
    unit = match.group(1)
    return match.end() if unit == "%" or unit.lower() in MEASURES else None  # ("percent" is one)


def is_measured(value: str) -> bool:
    """True when a normalised token is a number glued to a unit of measure (``6.3tb``, ``120ms``).

    >>> [is_measured(v) for v in ["6.3tb", "120ms", "2,349/mo", "47rooms", "3rd", "4xgccm"]]
    [True, True, True, False, False, False]
    """
    number = split_unit(value)
    if number is None:
        return False
    unit = value[len(number):].lstrip("-/").split("/")[0]
    return unit in MEASURES


def currency_scaled(written: str, value: str) -> tuple[str, int] | None:
    """(number, power of ten) of a currency amount glued to a scale letter (``$55M`` is 55 million), or None.

    >>> currency_scaled("$55M", "55m"), currency_scaled("€1.2mn", "1.2mn"), currency_scaled("55m", "55m")
    (('55', 6), ('1.2', 6), None)
    """
    if written[:1] not in _CURRENCY_FIRST:
        return None
    match = _SCALE_LETTER.fullmatch(value)
    return None if match is None else (match.group(1), _LETTER_EXPONENT[match.group(2)])
