"""The operands of §9.7 read so far, and the views of them the derived search asks for: by value, spelled as
the index spells numbers, scaled to integers. The set only grows, so each view is worked out again only
when it has grown."""

from __future__ import annotations

import operator
import re
from decimal import Decimal
from itertools import repeat
from typing import Literal

from grounding.core.evidence import verbatim

# Operands (and values) of at most this many characters, scaled below this limit, add and subtract exactly
# in Decimal arithmetic too (28 digits), so integers tell what it would find (grounding.core.evidence.derive).
SCALED_LENGTH = 24
SCALED_LIMIT = 10**27
_DECIMALS = re.compile(r"\.(\d+)")


def scale(spellings: set[str]) -> tuple[int, set[int]] | None:
    longest = max(map(len, spellings), default=0)
    if longest > SCALED_LENGTH:
        return None
    places = max(map(len, _DECIMALS.findall("\n".join(spellings))), default=0)
    try:  # from the digits as written: no Decimal need be made for an operand no search reaches
        if not places:
            scaled = set(map(int, spellings))
        elif longest + places <= _FLOAT_EXACT:
            # every such operand times 10**places lies below 10**15, where a float (two roundings, each within
            # 2**-53) stays within a quarter of it: rounding gives the integer exactly, in C
            scaled = set(map(round, map(operator.mul, map(float, spellings), repeat(10.0**places))))
        else:
            scaled = {int(whole + fraction.ljust(places, "0")) for whole, _, fraction in map(_AT_POINT, spellings)}
    except ValueError:  # not digits and a point (not seen): the values tell
        scaled = set(map(int, map(operator.methodcaller("scaleb", places), map(Decimal, spellings))))
    return (places, scaled) if not scaled or max(scaled) < SCALED_LIMIT else None


_AT_POINT = operator.methodcaller("partition", ".")
_FLOAT_EXACT = 15


class Operands:
    """Views of a growing set of operand spellings (a Forms' operands, shared, not copied)."""

    __slots__ = ("_spellings", "_values", "_by_value", "_spelled", "_scaled", "_scaled_count", "_sorted")

    def __init__(self, spellings: set[str]) -> None:
        self._spellings = spellings
        self._values: dict[str, Decimal] = {}  # every operand's value, worked out once
        self._by_value: dict[str, Decimal] | None = None
        self._spelled: dict[Decimal, str] | None = None
        # False: some operand is too long to scale
        self._scaled: tuple[int, set[int]] | Literal[False] | None = None
        self._scaled_count = 0  # how many operands _scaled was worked out from
        self._sorted: tuple[tuple[int, int], list[int]] | None = None  # with what it was sorted from

    def values(self) -> dict[str, Decimal]:
        """Every operand by spelling, in no particular order."""
        values = self._values
        if len(values) != len(self._spellings):  # the operands only grow, and values holds some of them
            new = self._spellings - values.keys()
            values.update(zip(new, map(Decimal, new)))
            self._by_value = self._spelled = None
        return values

    def by_value(self) -> dict[str, Decimal]:
        """By spelling, in a stable order: by value, then by spelling."""
        values = self.values()
        if self._by_value is None:
            self._by_value = {spelling: value for value, spelling in sorted(zip(values.values(), values))}
        return self._by_value

    def spelled(self) -> dict[Decimal, str]:
        """By value, each spelled as the index spells numbers (``007`` is read as 7, but 7 is not ``007``)."""
        values = self.values()
        if self._spelled is None:
            # a canonical spelling (no zero padding, no trailing zeros) is the one the index spells its value,
            # and a value has only one: so the rest are dropped and each value keeps the spelling left
            canonical = values.keys() - set(verbatim.not_canonical(values))
            self._spelled = dict(zip(map(values.__getitem__, canonical), canonical))
        return self._spelled

    def scaled(self) -> tuple[int, set[int]] | None:
        """(places, every operand times 10**places as an integer), places being the most decimals an operand
        is written with: sums, differences and multiples of operands are then told with integers, which hash
        cheaply (hashing a Decimal with decimals costs a modular power). None when an operand is too long
        for Decimal arithmetic, which rounds past 28 digits, to agree with integers."""
        spellings = self._spellings
        if self._scaled is None or self._scaled_count != len(spellings):  # operands only grow
            self._scaled = scale(spellings) or False
            self._scaled_count = len(spellings)
        return self._scaled or None

    def sorted_scaled(self) -> tuple[int, list[int]] | None:
        """scaled, the integers in ascending order."""
        scaled = self.scaled()
        if scaled is None:
            return None
        places, integers = scaled
        key = (places, len(integers))  # the integers only grow while places stays
        if self._sorted is None or self._sorted[0] != key:
            self._sorted = (key, sorted(integers))
        return places, self._sorted[1]


MULTIPLES = range(2, 13)  # the whole multiples §9.7 tries


def may_combine(magnitude: Decimal, scaled: tuple[int, set[int]] | None) -> tuple[bool, bool, bool]:
    """Whether magnitude may be a sum, a difference, a multiple of operands: told in C over integers (most
    values asked about are none), before the ordered search that picks the formula to show."""
    if scaled is None or len(magnitude.as_tuple().digits) > SCALED_LENGTH:
        return True, True, True  # too long to tell with integers: search
    places, operands = scaled
    target = magnitude.scaleb(places)
    if target != target.to_integral_value():
        return False, False, False  # more decimals than any operand: no sum, difference or multiple of them
    m = int(target)
    if m >= SCALED_LIMIT:
        return True, True, True
    return (
        not operands.isdisjoint(map(m.__sub__, operands)),
        not operands.isdisjoint(map(m.__add__, operands)),
        any(m % k == 0 and m // k in operands for k in MULTIPLES),  # (the counts stated are read if one is)
    )
