"""Derived values: a number that is simple arithmetic over read numbers (SPEC §9.7), when that is likelier
than chance (§9.20).

Operands are the numbers the evidence spells (§9.18). A derived value does not
ground silently: the verdict shows it with its formula.

A conversation that reads many numbers has sums and differences near almost
any value, so a formula that happens to give a value proves nothing there. The
formulas' results near the value are counted (within a tenth of it, at the
precision the answer wrote it): a formula is taken only when fewer than one
value in a hundred nearby is some formula's result, so a value one digit away
from a read one (a typo, an invention) is explained by chance less than 1% of
the time. Counting stops at SEARCH_LIMIT pairs: a value it cannot tell is left
unexplained, never taken as a match.
"""

from __future__ import annotations

import bisect
from decimal import Decimal

from grounding.core.evidence.index import EvidenceIndex
from grounding.core.evidence.operands import MULTIPLES, may_combine
from grounding.core.text.normalise import exponent_of, spell

CHANCE_BOUND = 0.01  # the share of nearby values some formula may give before a formula proves nothing
_NEIGHBOURHOOD = 10  # nearby: within a tenth of the value
_LEAST_NEIGHBOURHOOD = 50  # …and at least this many steps of the value's precision each side
SEARCH_LIMIT = 200_000  # operand pairs looked at when counting; past it the value stays unexplained


BOUND_NOTE = f"the derived search stopped at its bound of {SEARCH_LIMIT:,} operand pairs"


def find_formula(
    magnitude: Decimal, index: EvidenceIndex, named: frozenset[Decimal] = frozenset(), bounded: set | None = None,
    dense: set | None = None,
) -> str | None:
    """The first formula over operands that gives magnitude and beats chance, or None.

    Tried in order: a collection's total, a sum of two different operands, a
    difference, a whole multiple (2–12, smallest first) by a count the
    conversation states. Over every operand read first; then over the operands
    the answer itself names (named: the numbers it writes), whose formulas are
    far fewer, so a formula among them may beat chance where one among
    everything read cannot. A magnitude whose chance could not be told within SEARCH_LIMIT is added to
    bounded (never taken as a match: the caller reports it); one that some formula gives, but not likelier
    than chance among everything read, to dense (a smaller pool of operands may still tell it).
    """
    if magnitude <= 0:
        return None
    total = index.totals().formula(magnitude)
    if total is not None:
        return total  # one total per collection read: no neighbourhood of them to count
    formula = exact_formula(magnitude, index)
    if formula is None:
        return None
    found = index.sorted_scaled_operands()
    if found is None:
        return None  # too long to count with integers: not likelier than chance, as far as can be told
    places, operands = found
    counts = index.stated_counts()
    chance = beats_chance(magnitude, places, operands, counts)
    if chance:
        return formula
    if chance is None and bounded is not None:
        bounded.add(magnitude)
    if dense is not None:
        dense.add(magnitude)
    return named_formula(magnitude, index, named)


def named_formula(magnitude: Decimal, index: EvidenceIndex, named: frozenset[Decimal]) -> str | None:
    """find_formula's second search: over the operands among named alone, the chance counted among them."""
    spelled = index.operands_spelled()
    pool = {value: spelled[value] for value in named if value in spelled}
    # the counts a multiple may take are asked only when one could give the value (reading them reads every text)
    factors = [k for k in MULTIPLES if (magnitude / k) in pool and (magnitude / k) * k == magnitude]
    counts = index.stated_counts() if factors else set()
    formula = _formula_among(magnitude, pool, counts)
    if formula is None:
        return None
    found = index.sorted_scaled_operands()
    if found is None:
        return None
    places = found[0]
    scaled = sorted(int(value.scaleb(places)) for value in pool)
    return formula if beats_chance(magnitude, places, scaled, counts) else None


def _formula_among(magnitude: Decimal, pool: dict[Decimal, str], counts: set[int]) -> str | None:
    """exact_formula over a few operands (those an answer names), by value: a sum, a difference, a multiple."""
    target = spell(magnitude)
    ordered = sorted(pool)
    for x in ordered:
        y = magnitude - x
        if x > y > 0 and y in pool and _not_neighbours(target, pool[x], pool[y]):
            return f"{target} = {pool[x]} + {pool[y]}"
    for y in ordered:
        x = magnitude + y
        if x in pool and _not_neighbours(target, pool[x], pool[y]):
            return f"{target} = {pool[x]} - {pool[y]}"
    for k in sorted(counts):
        x = magnitude / k
        if x * k == magnitude and x in pool and _not_neighbours(target, pool[x]):
            return f"{target} = {k} * {pool[x]}"
    return None


def exact_formula(magnitude: Decimal, index: EvidenceIndex) -> str | None:
    """A sum, a difference or a multiple by a count stated that gives magnitude over operands read, chance
    not counted: find_formula counts it; a link of an announced chain needs only this (its chain's result
    is counted with it among the operands)."""
    target = spell(magnitude)
    sums, differences, multiples = may_combine(magnitude, index.scaled_operands())
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
        for subtrahend, value in index.operands().items():
            minuend = spelled.get(magnitude + value)
            if minuend is not None and _not_neighbours(target, minuend, subtrahend):
                return f"{target} = {minuend} - {subtrahend}"
    counts = index.stated_counts()
    for k in MULTIPLES if multiples else ():
        if k not in counts:
            continue
        x = magnitude / k
        if x * k == magnitude and spelled.get(x) is not None and _not_neighbours(target, spelled[x]):
            return f"{target} = {k} * {spelled[x]}"
    return None


def beats_chance(magnitude: Decimal, places: int, operands: list[int], counts: set[int]) -> bool | None:
    """True when fewer than CHANCE_BOUND of the values near magnitude, at the precision it is written, are
    the result of some formula over operands (ascending, scaled by 10**places; see the module's text);
    None when that could not be told within SEARCH_LIMIT operand pairs."""
    target = magnitude.scaleb(places)
    if target != target.to_integral_value():
        return False
    m = int(target)
    step = 10 ** max(places + min(exponent_of(magnitude), 0), 0)
    width = max(m // _NEIGHBOURHOOD, _LEAST_NEIGHBOURHOOD * step)
    low, high = max(m - width, step), m + width  # (a magnitude is positive)
    allowed = CHANCE_BOUND * ((high - low) // step + 1)
    results: set[int] = set()

    def add(result: int, *used: int) -> None:
        # a result one character off an operand it is made from is never taken (_not_neighbours): no chance
        if result % step == 0 and result not in results:
            shown = _shown(result, places)
            if _not_neighbours(shown, *(_shown(operand, places) for operand in used)):
                results.add(result)

    looked = 0
    for i, x in enumerate(operands):  # sums x + y, y > x
        if x > high:
            break
        ys = operands[max(i + 1, bisect.bisect_left(operands, low - x)) : bisect.bisect_right(operands, high - x)]
        looked += len(ys)
        for y in ys:
            add(x + y, x, y)
        if len(results) > allowed:
            return False
        if looked > SEARCH_LIMIT:
            return None
    for y in operands:  # differences x - y
        xs = operands[bisect.bisect_left(operands, y + low) : bisect.bisect_right(operands, y + high)]
        looked += len(xs)
        for x in xs:
            add(x - y, x, y)
        if len(results) > allowed:
            return False
        if looked > SEARCH_LIMIT:
            return None
    for k in counts:  # multiples k * x
        for x in operands[bisect.bisect_left(operands, -(-low // k)) : bisect.bisect_right(operands, high // k)]:
            add(k * x, x)
    return len(results) <= allowed


def _shown(scaled: int, places: int) -> str:
    """An operand or result scaled by 10**places, spelled as the index spells numbers."""
    return str(scaled) if not places else spell(Decimal(scaled).scaleb(-places))


def _not_neighbours(target: str, *operands: str) -> bool:
    """False when an operand looks like a typo of the target: same length, one character off."""
    return not any(is_one_off(target, operand) for operand in operands)


def is_one_off(a: str, b: str) -> bool:
    """True when a and b have the same length and differ in exactly one character."""
    return len(a) == len(b) and sum(1 for x, y in zip(a, b, strict=True) if x != y) == 1
