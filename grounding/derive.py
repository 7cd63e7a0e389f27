"""Derived values: a number that is simple arithmetic over read numbers (SPEC §9.7).

Operands are numbers a tool typed as numbers. A derived value does not
ground silently: the verdict shows it with its formula.
"""

from __future__ import annotations

from decimal import Decimal

from grounding.evidence import spell
from grounding.index import EvidenceIndex

_MULTIPLES = range(2, 13)


def find_formula(magnitude: Decimal, index: EvidenceIndex) -> str | None:
    """The first formula over operands that gives magnitude, or None.

    Tried in order: a collection's total, a sum of two different operands, a
    difference, a small whole multiple (smallest k first).
    """
    if magnitude <= 0:
        return None
    total = index.totals().get(magnitude)
    if total is not None:
        return total
    target = spell(magnitude)
    operands = index.operands()
    for spelling, x in operands.items():
        y = magnitude - x
        if y > 0 and x > y and spell(y) in operands and _not_neighbours(target, spelling, spell(y)):
            return f"{target} = {spelling} + {spell(y)}"
    for spelling, y in operands.items():
        x = magnitude + y
        if spell(x) in operands and _not_neighbours(target, spell(x), spelling):
            return f"{target} = {spell(x)} - {spelling}"
    for k in _MULTIPLES:
        x = magnitude / k
        if x * k == magnitude and spell(x) in operands and _not_neighbours(target, spell(x)):
            return f"{target} = {k} * {spell(x)}"
    return None


def _not_neighbours(target: str, *operands: str) -> bool:
    """False when an operand looks like a typo of the target: same length, one character off."""
    return not any(is_one_off(target, operand) for operand in operands)


def is_one_off(a: str, b: str) -> bool:
    """True when a and b have the same length and differ in exactly one character."""
    return len(a) == len(b) and sum(1 for x, y in zip(a, b, strict=True) if x != y) == 1
