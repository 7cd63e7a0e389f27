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


# With figures on (issue 53): the units of data, time and the percent sign, and what converts into each
_FIGURE_WORDS = {
    "%": "%", "percent": "%", "pct": "%", "tb": "tb", "tib": "tb", "gb": "gb", "gib": "gb", "mb": "mb",
    "mib": "mb", "kb": "kb", "kib": "kb", "ms": "ms", "s": "s", "sec": "s", "secs": "s", "second": "s",
    "seconds": "s", "min": "min", "mins": "min", "minute": "min", "minutes": "min", "h": "h", "hr": "h",
    "hrs": "h", "hour": "h", "hours": "h",
}  # fmt: skip
_K, _KI = Fraction(1000), Fraction(1024)
_FIGURE_FACTORS: dict[str, tuple[tuple[str, Fraction, Fraction, str], ...]] = {
    "%": (("fraction", Fraction(100), Fraction(0), "{x} * 100"),),
    "tb": (("gb", 1 / _K, Fraction(0), "{x} GB / 1000"), ("gb", 1 / _KI, Fraction(0), "{x} GB / 1024")),
    "gb": (("tb", _K, Fraction(0), "{x} TB * 1000"), ("tb", _KI, Fraction(0), "{x} TB * 1024"),
           ("mb", 1 / _K, Fraction(0), "{x} MB / 1000"), ("mb", 1 / _KI, Fraction(0), "{x} MB / 1024")),
    "mb": (("gb", _K, Fraction(0), "{x} GB * 1000"), ("gb", _KI, Fraction(0), "{x} GB * 1024"),
           ("kb", 1 / _K, Fraction(0), "{x} KB / 1000"), ("kb", 1 / _KI, Fraction(0), "{x} KB / 1024")),
    "kb": (("mb", _K, Fraction(0), "{x} MB * 1000"), ("mb", _KI, Fraction(0), "{x} MB * 1024")),
    "ms": (("s", _K, Fraction(0), "{x} s * 1000"),),
    "s": (("ms", 1 / _K, Fraction(0), "{x} ms / 1000"), ("min", Fraction(60), Fraction(0), "{x} min * 60")),
    "min": (("s", Fraction(1, 60), Fraction(0), "{x} s / 60"), ("h", Fraction(60), Fraction(0), "{x} h * 60")),
    "h": (("min", Fraction(1, 60), Fraction(0), "{x} min / 60"),),
}
_UNIT_AT_END = LazyPattern(re.compile, r"(%|[^\W\d_]+)\Z")


def unit_written(written: str, figures: bool) -> str | None:
    """The unit a figure's own text ends with (with figures on, a figure's text takes its unit: ``2,133
    feet``), and, with figures on, the units of data and time and the percent sign (``6.3 TB``, ``53.2%``).

    >>> unit_written("2,133 feet", True), unit_written("6.3 TB", True), unit_written("53.2%", True)
    ('ft', 'tb', '%')
    >>> unit_written("120ms", True), unit_written("41200", True), unit_written("6.3 TB", False)
    ('ms', None, None)
    """
    match = _UNIT_AT_END.search(written)
    if match is None:
        return None
    word = match.group(1).lower()
    return _WORDS.get(word) or (_FIGURE_WORDS.get(word) if figures else None)


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
    """x * factor + offset for each unit that converts into the unit written, over a pool (percentages.Family);
    figures: the units of data and time and the percent sign too."""

    def __init__(self, pool: Pool, places: int, unit: str, figures: bool = False) -> None:
        self.pool, self.places = pool, places
        self.factors = _FACTORS.get(unit, ()) + (_FIGURE_FACTORS.get(unit, ()) if figures else ())

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
