"""Units an answer converts a number read into (verdict quality VI): "650 meters above sea level (about 2,133
feet)" is 650 × 3.28084 rounded. The answer must write the unit it converts into after the value; the
operand is any number read (or one the answer names), converted by the fixed factor from each unit that
converts into it, at the precision written (rounded or cut), under the same chance bound as percentages.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction

from grounding.core.evidence.announced import Pool
from grounding.core.evidence.percentages import slots
from grounding.core.text.patterns import LazyPattern

# The unit words an answer writes after a value, each with the unit it names
_WORDS = {
    "ft": "ft", "feet": "ft", "foot": "ft", "m": "m", "meters": "m", "metres": "m", "meter": "m", "metre": "m",
    "mi": "mi", "miles": "mi", "mile": "mi", "km": "km", "kilometers": "km", "kilometres": "km",
    "lb": "lb", "lbs": "lb", "pounds": "lb", "kg": "kg", "kilograms": "kg", "in": "in", "inches": "in",
    "cm": "cm", "centimeters": "cm", "centimetres": "cm", "gal": "gal", "gallons": "gal", "l": "l",
    "liters": "l", "litres": "l", "°f": "F", "fahrenheit": "F", "°c": "C", "celsius": "C",
}  # fmt: skip
_UNIT_AFTER = LazyPattern(re.compile, r"\s?(°\s?[fc]\b|[a-z]+\b)", re.IGNORECASE)
# (into: (from, factor, offset, how it is shown)): value = x * factor + offset
_FACTORS: dict[str, tuple[tuple[str, Fraction, Fraction, str], ...]] = {
    "ft": (("m", Fraction("3.28084"), Fraction(0), "{x} m * 3.28084"),),
    "m": (("ft", Fraction("0.3048"), Fraction(0), "{x} ft * 0.3048"),),
    "mi": (("km", Fraction("0.621371"), Fraction(0), "{x} km * 0.621371"),),
    "km": (("mi", Fraction("1.609344"), Fraction(0), "{x} mi * 1.609344"),),
    "lb": (("kg", Fraction("2.20462"), Fraction(0), "{x} kg * 2.20462"),),
    "kg": (("lb", Fraction("0.453592"), Fraction(0), "{x} lb * 0.453592"),),
    "in": (("cm", Fraction("0.393701"), Fraction(0), "{x} cm * 0.393701"),),
    "cm": (("in", Fraction("2.54"), Fraction(0), "{x} in * 2.54"),),
    "gal": (("l", Fraction("0.264172"), Fraction(0), "{x} l * 0.264172"),),
    "l": (("gal", Fraction("3.78541"), Fraction(0), "{x} gal * 3.78541"),),
    "F": (("C", Fraction(9, 5), Fraction(32), "{x} °C * 9/5 + 32"),),
    "C": (("F", Fraction(5, 9), Fraction(-160, 9), "({x} °F - 32) * 5/9"),),
}


def unit_after(text: str, end: int) -> str | None:
    """The unit an answer writes right after a value that ends at end, or None.

    >>> unit_after("about 2,133 feet", 11), unit_after("72°F today", 2), unit_after("2,133 people", 5)
    ('ft', 'F', None)
    """
    match = _UNIT_AFTER.match(text, end)
    if match is None:
        return None
    return _WORDS.get(match.group(1).lower().replace(" ", ""))


class Converted:
    """x * factor + offset for each unit that converts into the unit written, over a pool (percentages.Family)."""

    def __init__(self, pool: Pool, places: int, unit: str) -> None:
        self.pool, self.places = pool, places
        self.factors = _FACTORS.get(unit, ())

    def _results(self) -> Iterator[tuple[tuple[int, int], str]]:
        unit = 10**self.pool.places
        for x in self.pool.values:
            for _source, factor, offset, shown in self.factors:
                value = Fraction(x, unit) * factor + offset
                if value > 0:
                    yield slots(value.numerator, value.denominator, self.places), shown.format(x=self.pool.shown(x))

    def giving(self, target: int) -> str | None:
        return next((formula for found, formula in self._results() if target in found), None)

    def near(self, low: int, high: int) -> Iterator[tuple[int, int]]:
        return (found for found, _ in self._results())
