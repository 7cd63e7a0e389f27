"""Computations the answer announces (SPEC §9.23): a wider search than §9.7's, kept as honest by the same
chance bound (§9.20).

When the answer says a value is a total, a difference, a new balance or a weekly cost, the search may
combine up to three numbers read anywhere before it (tool results and the user's text), multiply or divide
by a count the conversation states in words (``a week`` is 7, ``both`` 2), and take a result one
character from an operand when the answer writes both operands itself (``the rent of 1,450 rises by 10 …
the new amount is 1,460``). A wider search hits more values by chance, so the formulas' results near the
value are counted as ``derive`` counts them, over every family tried here: a formula is taken only when
fewer than one value in a hundred nearby is some formula's result. Counting stops at LIMIT combinations;
a value it cannot tell is left unexplained.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal

from grounding.core.evidence.counts import counts_in_words
from grounding.core.evidence.derive import CHANCE_BOUND, is_one_off
from grounding.core.evidence.index import EvidenceIndex
from grounding.core.text.normalise import spell

LIMIT = 30_000  # combinations looked at while counting; past it the value stays unexplained
# Three operands are combined only among this many numbers: among more, three-number sums lie near almost
# any value (60 numbers make 34,220 sums of three), and the chance bound would refuse them anyway.
FEW = 60
FACTORS = range(2, 15)  # the counts a multiple or a share may take: 2 to 12, and 14 (a fortnight)
_NEIGHBOURHOOD = 10  # nearby: within a tenth of the value (as derive counts)
_LEAST_NEIGHBOURHOOD = 50  # …and at least this many steps of the written precision each side
_LONGEST = 24  # characters an operand may have to be added as an integer


@dataclass(frozen=True, slots=True)
class Pool:
    """Numbers read, scaled to integers at one precision: ascending, each with the spelling shown."""

    places: int
    values: list[int]
    spelled: dict[int, str]

    def shown(self, scaled: int) -> str:
        return self.spelled.get(scaled) or spell(Decimal(scaled).scaleb(-self.places))

    def among(self, magnitudes: Iterable[Decimal]) -> Pool:
        """The pool's numbers that are among magnitudes (the numbers an answer names)."""
        wanted = {int(scaled) for scaled in (m.scaleb(self.places) for m in magnitudes) if scaled % 1 == 0}
        values = [value for value in self.values if value in wanted]
        return Pool(self.places, values, {value: self.spelled[value] for value in values})


def pool_of(numbers: Iterable[str], least_places: int) -> Pool | None:
    """The positive numbers (canonical spellings: digits and a point) as a Pool at least_places decimals or
    more; None when one is too long to add as an integer. Scaled from the digits as written, in C: no
    Decimal is made for the hundreds of numbers a conversation reads."""
    split = [(spelling, *spelling.partition(".")[::2]) for spelling in numbers if len(spelling) <= _LONGEST]
    places = max(least_places, max(map(len, (fraction for _, _, fraction in split)), default=0))
    spelled: dict[int, str] = {}
    for spelling, whole, fraction in split:
        try:
            scaled = int(whole + fraction.ljust(places, "0"))
        except ValueError:  # (not digits and a point: no number the index spells)
            continue
        if scaled > 0:
            spelled.setdefault(scaled, spelling)
    return Pool(places, sorted(spelled), spelled)


@dataclass(frozen=True, slots=True)
class Target:
    """The value asked about, scaled as the pool is, with the step its written precision takes."""

    value: int
    step: int
    spelled: str
    named: frozenset[int]  # numbers the answer writes before it, scaled: a named pair may be one character off
    near_read: bool  # one character from a number read (as a typo of it would be)


def target_of(magnitude: Decimal, decimals: int, pool: Pool, named_before: Iterable[Decimal],
              near_read: bool) -> Target | None:
    scaled = magnitude.scaleb(pool.places)
    if scaled != scaled.to_integral_value():
        return None
    step = 10 ** max(pool.places - max(decimals, 0), 0)
    named = frozenset(int(v.scaleb(pool.places)) for v in named_before if v.scaleb(pool.places) % 1 == 0)
    return Target(int(scaled), step, spell(magnitude), named, near_read)


def one_character_off(spelled: str) -> list[str]:
    """Every number spelled like spelled (canonically) but for one digit, a leading digit never made 0.

    >>> sorted(one_character_off("12"))[:4], sorted(one_character_off("1.5"))[:3], "1" in one_character_off("1.5")
    (['10', '11', '13', '14'], ['0.5', '1', '1.1'], True)
    """
    near = [spelled[:at] + digit + spelled[at + 1 :] for at, character in enumerate(spelled) if character.isdigit()
            for digit in "0123456789"
            if digit != character and not (at == 0 and digit == "0" and spelled[1:2].isdigit())]
    return [spelling.rstrip("0").rstrip(".") for spelling in near] if "." in spelled else near


Counts = Callable[[], set[int]]  # the counts a multiple or a share may take, read only when one could apply


def announced_formula(target: Target, pool: Pool, counts: Counts) -> tuple[str | None, bool]:
    """The first formula over pool that gives the target and beats chance, and whether the count stopped
    at its bound (the value is then left unexplained and the caller says so)."""
    formula = _first_formula(target, pool, counts)
    if formula is None:
        return None, False
    chance = _beats_chance(target, pool, counts)
    return (formula if chance else None), chance is None


def _first_formula(target: Target, pool: Pool, counts: Counts) -> str | None:
    """In order: x + y, x - y, k × x, x ÷ k, x + y + z, x + y - z, x - y - z (different operands each)."""
    for used, text in _formulas(target, pool, counts):
        if _allowed(target, pool, used):
            return f"{target.spelled} = {text}"
    return None


def _formulas(target: Target, pool: Pool, counts: Counts) -> Iterator[tuple[tuple[int, ...], str]]:
    m, values, shown = target.value, pool.values, pool.shown
    present = set(values)
    step = target.step
    for x in values:
        y = m - x
        if y > x and y in present:
            yield (x, y), f"{shown(y)} + {shown(x)}"
    for y in values:
        if m + y in present:
            yield (m + y, y), f"{shown(m + y)} - {shown(y)}"
    multiples = [k for k in FACTORS if m % k == 0 and m // k in present]
    for k in sorted(counts().intersection(multiples)) if multiples else ():
        yield (m // k,), f"{k} * {shown(m // k)}"
    spans = {k: _share_span(values, k, m, step) for k in FACTORS}
    shares = [k for k, (low, high) in spans.items() if low < high]
    for k in sorted(counts().intersection(shares)) if shares else ():  # a share or an average, to the precision
        for x in values[slice(*spans[k])]:  # the answer writes
            if _rounds_to(x, k, target):
                yield (x,), f"{shown(x)} / {k}"
    if len(values) > FEW:
        return
    looked = 0
    for i, x in enumerate(values):
        for y in values[i + 1 :]:
            looked += 1
            if looked > LIMIT:
                return
            if x + y >= m:
                break
            z = m - x - y
            if z > y and z in present:
                yield (x, y, z), f"{shown(x)} + {shown(y)} + {shown(z)}"
    for i, x in enumerate(values):
        for y in values[i + 1 :]:
            z = x + y - m
            if z > 0 and z != x and z != y and z in present:
                yield (x, y, z), f"{shown(x)} + {shown(y)} - {shown(z)}"
            if m + x + y in present:
                yield (m + x + y, x, y), f"{shown(m + x + y)} - {shown(x)} - {shown(y)}"
            looked += 1
            if looked > LIMIT:
                return


def _share_span(values: list[int], k: int, m: int, step: int) -> tuple[int, int]:
    """Where the values lie that, divided by k, may round to m (values ascending): a slice of them."""
    low, high = k * (2 * m - step) // 2, -(-k * (2 * m + step) // 2)
    return bisect.bisect_left(values, low), bisect.bisect_right(values, high)


def _rounds_to(x: int, k: int, target: Target) -> bool:
    """x ÷ k is the target to its written precision (within half a step)."""
    return abs(2 * x - 2 * k * target.value) <= k * target.step


def _allowed(target: Target, pool: Pool, used: tuple[int, ...]) -> bool:
    """§9.7's refusal of a result one character from an operand, widened with the search to any number read
    (a near-copy of a read number is what a typo looks like, and a wider search explains more of them by
    chance); lifted only when the answer writes both operands of a two-operand formula before the value."""
    if len(used) == 2 and target.named.issuperset(used):
        return True
    return not target.near_read and not any(is_one_off(target.spelled, pool.shown(operand)) for operand in used)


def _beats_chance(target: Target, pool: Pool, counts: Counts) -> bool | None:
    """True when fewer than CHANCE_BOUND of the values near the target, at its step, are the result of some
    formula tried here; None when that could not be told within LIMIT combinations."""
    m, step, values = target.value, target.step, pool.values
    width = max(m // _NEIGHBOURHOOD, _LEAST_NEIGHBOURHOOD * step)
    low, high = max(m - width, step), m + width
    allowed = CHANCE_BOUND * ((high - low) // step + 1)
    results: set[int] = set()
    looked = 0
    for result in _results_near(low, high, values, counts(), step):
        if result is None:
            looked += 1
            if looked > LIMIT:
                return None
            continue
        if result % step == 0:
            results.add(result)
            if len(results) > allowed:
                return False
    return True


def _results_near(low: int, high: int, values: list[int], counts: set[int], step: int) -> Iterator[int | None]:
    """Every result in [low, high] of the formulas _formulas tries, a None for each combination looked at
    (so the caller can stop counting)."""
    span = bisect.bisect_left, bisect.bisect_right
    for i, x in enumerate(values):
        if x > high:
            break
        for y in values[max(i + 1, span[0](values, low - x)) : span[1](values, high - x)]:
            yield x + y
        yield None
    for y in values:
        for x in values[span[0](values, y + low) : span[1](values, y + high)]:
            yield x - y
        yield None
    for k in counts:
        for x in values[span[0](values, -(-low // k)) : span[1](values, high // k)]:
            yield k * x
        for x in values[span[0](values, k * low) : span[1](values, k * high)]:
            yield (2 * x + k * step) // (2 * k * step) * step  # x ÷ k, rounded to the step
    for i, x in enumerate(values if len(values) <= FEW else ()):  # three operands: x + y + z, x + y - z, x - y - z
        for y in values[i + 1 :]:
            yield None
            s = x + y
            for z in values[span[0](values, low - s) : span[1](values, high - s)]:
                if z > y:
                    yield s + z
            for z in values[span[0](values, s - high) : span[1](values, s - low)]:
                if z != x and z != y:
                    yield s - z
            for w in values[span[0](values, s + low) : span[1](values, s + high)]:
                yield w - s


class Before:
    """What an announced computation may take in one answer, read when a value first asks (§9.23): every
    operand read and every number the user's and the app's texts write (§5.2 lends them to no other rule),
    and every count the conversation states, in words too."""

    __slots__ = ("_answer_text", "_counts", "_index", "_pools", "numbers")

    def __init__(self, index: EvidenceIndex, answer_text: str) -> None:
        self.numbers = index.numbers_anywhere()
        self._index = index
        self._answer_text = answer_text
        self._counts: set[int] | None = None
        self._pools: dict[int, Pool | None] = {}

    def counts(self) -> set[int]:
        if self._counts is None:
            stated = self._index.stated
            self._counts = self._index.stated_counts() | stated.counts_in_words() | counts_in_words(self._answer_text)
        return self._counts

    def pool(self, least_places: int) -> Pool | None:
        if least_places not in self._pools:
            self._pools[least_places] = pool_of(self.numbers, least_places)
        return self._pools[least_places]


def formula_for(magnitude: Decimal, decimals: int, before: Before, named_before: frozenset[Decimal],
                named: frozenset[Decimal]) -> tuple[str | None, bool]:
    """The announced formula giving magnitude over the numbers read before, or over the numbers the answer
    itself names when everything read is too dense to beat chance; and whether a count stopped at its
    bound."""
    numbers = before.numbers
    near_read = not numbers.isdisjoint(one_character_off(spell(magnitude)))
    # near a number read, only a pair the answer writes may give it (_allowed): no other pool need be made
    pool = pool_of(numbers.intersection(map(spell, named)), max(decimals, 0)) if near_read else before.pool(
        max(decimals, 0))
    target = None if pool is None else target_of(magnitude, decimals, pool, named_before, near_read)
    if pool is None or target is None:
        return None, False
    formula, bounded = announced_formula(target, pool, before.counts)
    if formula is not None:
        return formula, False
    own = pool.among(named)
    if not own.values:
        return None, bounded
    formula, _ = announced_formula(target, own, before.counts)
    return formula, bounded and formula is None


def chained_formula(magnitude: Decimal, decimals: int, before: Before, named_before: frozenset[Decimal],
                    named: frozenset[Decimal], links: dict[Decimal, str]) -> tuple[str | None, bool]:
    """The announced formula giving magnitude where the operands may also be links: numbers the answer
    writes before it that are themselves derived (each with its formula), as in "you paid $2,100; the new
    fare is $212 … after the $75 credit the refund due is $1,813" (1813 = 2100 - 212 - 75, 212 = 2 * 106).
    As formula_for: over the numbers read and the links, else over the numbers read that the answer names
    and the links, the chance bound counted over the pool searched. A value one character from a number
    read is never a chain's (a typo looks like that)."""
    numbers = before.numbers
    if not numbers.isdisjoint(one_character_off(spell(magnitude))):
        return None, False
    linked = {spell(link): formula for link, formula in links.items()}
    pool = pool_of(numbers.union(linked), max(decimals, 0))
    target = None if pool is None else target_of(magnitude, decimals, pool, named_before, False)
    if pool is None or target is None:
        return None, False
    formula, bounded = announced_formula(target, pool, before.counts)
    if formula is None:
        own = pool.among(named | links.keys())
        formula = announced_formula(target, own, before.counts)[0] if own.values else None
    if formula is None:
        return None, bounded
    used = [linked[operand] for operand in formula.split(" = ", 1)[1].split() if operand in linked]
    return (f"{formula} ({'; '.join(used)})" if used else formula), False
