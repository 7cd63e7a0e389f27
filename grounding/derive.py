"""Derived values: a number that is simple arithmetic over read numbers (SPEC §9.7).

Operands are numbers a tool typed as numbers. A derived value does not
ground silently: the verdict shows it with its formula.
"""

from __future__ import annotations

from decimal import Decimal

from grounding.evidence import spell
from grounding.index import SCALED_LENGTH, SCALED_LIMIT, EvidenceIndex

_MULTIPLES = range(2, 13)


def find_formula(magnitude: Decimal, index: EvidenceIndex) -> str | None:
    """The first formula over operands that gives magnitude, or None.

    Tried in order: a collection's total, a sum of two different operands, a
    difference, a small whole multiple (smallest k first).
    """
    if magnitude <= 0:
        return None
    total = index.total_formula(magnitude)
    if total is not None:
        return total
    target = spell(magnitude)
    sums, differences, multiples = _may_combine(magnitude, index.scaled_operands())
    if not (sums or differences or multiples):
        return None
    spelled = index.operands_spelled()  # an operand is found by value, then spelled as the index spells it
    if sums:
        operands = index.operands()
        for spelling, x in operands.items():
            y = spelled.get(magnitude - x)
            if y is not None and x > operands[y] > 0 and _not_neighbours(target, spelling, y):
                return f"{target} = {spelling} + {y}"
    if differences:
        for spelling, y in index.operands().items():
            x = spelled.get(magnitude + y)
            if x is not None and _not_neighbours(target, x, spelling):
                return f"{target} = {x} - {spelling}"
    for k in _MULTIPLES if multiples else ():
        x = magnitude / k
        if x * k == magnitude and spelled.get(x) is not None and _not_neighbours(target, spelled[x]):
            return f"{target} = {k} * {spelled[x]}"
    return None


def _may_combine(magnitude: Decimal, scaled: tuple[int, set[int]] | None) -> tuple[bool, bool, bool]:
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
        any(m % k == 0 and m // k in operands for k in _MULTIPLES),
    )


def _not_neighbours(target: str, *operands: str) -> bool:
    """False when an operand looks like a typo of the target: same length, one character off."""
    return not any(is_one_off(target, operand) for operand in operands)


def is_one_off(a: str, b: str) -> bool:
    """True when a and b have the same length and differ in exactly one character."""
    return len(a) == len(b) and sum(1 for x, y in zip(a, b, strict=True) if x != y) == 1
