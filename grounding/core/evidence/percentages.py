"""Percentages an answer computes (verdict quality VI): a percent change or a share of two numbers read,
and a number read scaled by a percentage the conversation states, each at the precision the answer writes
(rounded or cut: 66.67 and 66.66 for 66.666…).

* ``a 66.67% increase`` after 6 and 10 were read: ``66.67 = (10 - 6) / 6 * 100``; a share, ``a / b * 100``.
* ``5% over the 25.0 threshold is 26.25`` where the user said 5%: ``26.25 = 25 * (100 + 5) / 100``; also
  ``x * (100 - p) / 100`` and ``x * p / 100``.

Ratios of pairs are dense where many numbers were read, so a formula is taken only when it beats chance as
§9.20's do: fewer than one value in a hundred near the value (within a tenth of it, at least 50 steps of
its precision each side) is some formula's result, rounded or cut, over the numbers searched. Values are
in steps of the written precision throughout; a pair's partner is found by bisection, so the pairs that
give nothing near the value are never looked at.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from typing import Protocol

from grounding.core.evidence.announced import Pool
from grounding.core.evidence.derive import CHANCE_BOUND
from grounding.core.text.normalise import spell

_NEIGHBOURHOOD = 10
_LEAST_NEIGHBOURHOOD = 50
_HUNDRED = 100


class Family(Protocol):
    """Formulas over a pool, their results in steps of the written precision, rounded or cut."""

    def giving(self, target: int) -> str | None: ...  # the first formula whose result is the target
    def near(self, low: int, high: int) -> Iterable[tuple[int, ...]]: ...  # the results, at least those near


def percent_formula(magnitude: Decimal, decimals: int, pool: Pool, percents: Iterable[Decimal],
                    as_percent: bool) -> str | None:
    """The first formula giving magnitude (written with decimals places; as_percent: written with %) over
    pool that beats chance, or None."""
    return family_formula(magnitude, decimals, lambda places: _Ratios(pool, places) if as_percent else _Scaled(
        pool, places, tuple(percents)))


def family_formula(magnitude: Decimal, decimals: int, family_at: Callable[[int], Family]) -> str | None:
    """The first formula of a family (made at the places written) giving magnitude, when the family's
    results near it are fewer than the chance bound allows; else None."""
    places = max(decimals, 0)
    scaled = magnitude.scaleb(places)
    if scaled <= 0 or scaled % 1 != 0:
        return None
    target = int(scaled)
    family = family_at(places)
    formula = family.giving(target)
    if formula is None:
        return None
    width = max(target // _NEIGHBOURHOOD, _LEAST_NEIGHBOURHOOD)
    low, high = max(target - width, 1), target + width
    allowed = CHANCE_BOUND * (high - low + 1)
    near: set[int] = set()
    for slots in family.near(low, high):
        near.update(slot for slot in slots if low <= slot <= high)
        if len(near) > allowed:
            return None
    return f"{spell(magnitude)} = {formula}"


def slots(numerator: int, denominator: int, places: int) -> tuple[int, int]:
    """numerator / denominator in steps of 10**-places: cut, and rounded half up."""
    scaled = numerator * 10**places
    return scaled // denominator, (2 * scaled + denominator) // (2 * denominator)


class _Ratios:
    """(b - a) / a * 100 and a / b * 100 over ordered pairs of different numbers of the pool."""

    def __init__(self, pool: Pool, places: int) -> None:
        self.pool, self.places = pool, places
        self.scale = _HUNDRED * 10**places  # a ratio of 1 in steps

    def _partners(self, a: int, low: float, high: float) -> Iterator[tuple[int, str]]:
        """The b giving a result (in steps) within [low, high], each with its kind."""
        values, scale = self.pool.values, self.scale
        for first, last, kind in ((a + low * a / scale, a + high * a / scale, "up"),
                                  (a - high * a / scale, a - low * a / scale, "down"),
                                  (scale * a / high if high > 0 else 0, scale * a / low if low > 0 else 0, "share")):
            for b in values[bisect.bisect_left(values, first * (1 - 1e-12)) : bisect.bisect_right(
                    values, last * (1 + 1e-12))]:
                if b != a and b > 0:
                    yield b, kind

    def _slots(self, a: int, b: int, kind: str) -> tuple[int, int]:
        return slots(_HUNDRED * a, b, self.places) if kind == "share" else slots(
            _HUNDRED * abs(b - a), a, self.places)

    def giving(self, target: int) -> str | None:
        shown = self.pool.shown
        for a in self.pool.values:
            for b, kind in self._partners(a, target - 0.5, target + 1):
                if target in self._slots(a, b, kind):
                    if kind == "share":
                        return f"{shown(a)} / {shown(b)} * 100"
                    big, small = max(a, b), min(a, b)
                    return f"({shown(big)} - {shown(small)}) / {shown(a)} * 100"
        return None

    def near(self, low: int, high: int) -> Iterator[tuple[int, int]]:
        for a in self.pool.values:
            for b, kind in self._partners(a, low - 0.5, high + 1):
                yield self._slots(a, b, kind)


class _Scaled:
    """x * (100 + p) / 100, x * (100 - p) / 100 and x * p / 100 for each percentage p stated."""

    def __init__(self, pool: Pool, places: int, percents: tuple[Decimal, ...]) -> None:
        self.pool, self.places = pool, places
        self.factors = []  # (numerator, denominator, text) of each factor
        for p in percents:
            written = p.as_tuple().exponent  # (a percentage read is finite: an int)
            exponent = -written if isinstance(written, int) and written < 0 else 0
            hundred, p_scaled = _HUNDRED * 10**exponent, int(p.scaleb(exponent))
            for factor, text in ((hundred + p_scaled, f"(100 + {spell(p)})"),
                                 (hundred - p_scaled, f"(100 - {spell(p)})"), (p_scaled, spell(p))):
                if factor > 0:
                    self.factors.append((factor, hundred * 10**pool.places, text))

    def giving(self, target: int) -> str | None:
        for x in self.pool.values:
            for numerator, denominator, text in self.factors:
                if target in slots(x * numerator, denominator, self.places):
                    return f"{self.pool.shown(x)} * {text} / 100"
        return None

    def near(self, low: int, high: int) -> Iterator[tuple[int, int]]:
        for x in self.pool.values:
            for numerator, denominator, _ in self.factors:
                yield slots(x * numerator, denominator, self.places)
