"""The derived-value search (SPEC §9.7) rules values out in C first; it finds what trying everything finds.

Each shortcut is pinned against the straightforward search it skips: every
collection added up exactly, every pair of operands tried in order.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from grounding import json_exact
from grounding.core.evidence import derive, verbatim
from grounding.core.evidence.forms import Forms, ReadOptions
from grounding.core.evidence.index import EvidenceIndex
from grounding.core.evidence.reading import examine_result, read_examined, read_numbers, read_string_numbers
from grounding.core.evidence.totals import Totals
from grounding.core.text.normalise import spell

# fast = reference, over many generated cases: run by CI (.ci/run) and by `pytest -m slow`, not by default
pytestmark = pytest.mark.slow

_members = st.one_of(
    st.integers(min_value=-(10**6), max_value=10**6),
    st.integers(min_value=-(10**400), max_value=10**400),  # past a float's range
    st.floats(min_value=-1e7, max_value=1e7, allow_nan=False).map(lambda x: round(x, 2)),
    st.floats(allow_nan=False, allow_infinity=False),
    st.decimals(allow_nan=False, allow_infinity=False, places=3, min_value=-(10**20), max_value=10**20),
)
_collections = st.lists(
    st.tuples(st.lists(_members, min_size=0, max_size=6), st.sampled_from([None, "fee", "amount"])),
    max_size=5,
)


def _every_total(collections: list[tuple[list, str | None]]) -> dict[Decimal, str]:
    """Every collection added up exactly, the first with a total keeping it (the search before shortcuts)."""
    totals: dict[Decimal, str] = {}
    for members, key in collections:
        spellings = [json_exact.number_spelling(member).lstrip("-") for member in members]
        if len(spellings) < 2:
            continue
        total = sum((Decimal(s) for s in spellings), Decimal(0))
        if total not in totals:
            addends = " + ".join(spellings[:6]) + (" + …" if len(spellings) > 6 else "")
            label = f"total of {len(spellings)} numbers" if key is None else f"total of {key!r} over {len(spellings)} items"
            totals[total] = f"{spell(total)} = {addends} ({label})"
    return totals


@given(_collections, st.integers(0, 6), st.sampled_from([0, 1, -1]), st.decimals(allow_nan=False,
                                                                                   allow_infinity=False, places=2))
@example([([0.1, 0.2], None), ([Decimal("0.3"), 0], "fee")], 0, 0, Decimal(0))
@example([([10**400, 1], None)], 0, 0, Decimal(0))
@example([([5e-324] * 100, None)], 0, 0, Decimal(0))  # subnormal: '5e-324' is not the float's value
def test_a_total_is_found_as_adding_up_every_collection_finds_it(collections, pick, nudge, other):
    every = _every_total(collections)
    totals = Totals(collections)
    asked = list(every)
    if asked:
        exact = asked[pick % len(asked)]
        asked.append(exact + nudge * Decimal("0.01"))  # a near miss must not pass for the total
    asked.append(abs(other))
    for magnitude in asked:
        if magnitude > 0:
            assert totals.formula(magnitude) == every.get(magnitude)


@given(st.lists(st.from_regex(r"-?[0-9]{1,4}(\.[0-9]{1,3})?|-?0|[a-z]{1,5}|-?[0-9]e[0-9]", fullmatch=True)))
def test_the_literals_not_spelled_as_the_index_spells_them_are_those_is_canonical_rejects(literals):
    assert verbatim.not_canonical(literals) == [literal for literal in literals if not verbatim.is_canonical(literal)]


def _every_pair(magnitude: Decimal, index: EvidenceIndex) -> str | None:
    """exact_formula without its shortcuts: every operand tried in order for a sum, then a difference, then
    every count stated."""
    target = spell(magnitude)
    operands = index.operands()
    spelled = {value: spelling for spelling, value in operands.items() if verbatim.is_canonical(spelling)}
    for spelling, x in operands.items():
        y = spelled.get(magnitude - x)
        if y is not None and x > operands[y] > 0 and derive._not_neighbours(target, spelling, y):
            return f"{target} = {spelling} + {y}"
    for spelling, y in operands.items():
        x = spelled.get(magnitude + y)
        if x is not None and derive._not_neighbours(target, x, spelling):
            return f"{target} = {x} - {spelling}"
    for k in sorted(index.stated_counts()):
        x = magnitude / k
        if x * k == magnitude and spelled.get(x) is not None and derive._not_neighbours(target, spelled[x]):
            return f"{target} = {k} * {spelled[x]}"
    return None


_operand = st.one_of(
    st.integers(0, 5000).map(str),
    st.decimals(min_value=0, max_value=10**6, places=2, allow_nan=False).map(lambda d: spell(d)),
    st.sampled_from(["007", "12.50", "0.0", "1200", "800", "2000"]),  # spellings the index does not write
    # past what integers tell for Decimal arithmetic (28 digits): long, or with many decimals
    st.sampled_from(["123456789012345678901234567", "0.00000000000000000001", "99999999999999999999999.5",
                     "0.3333333333333333333333333333", "1.0000000000000000000001"]),
)


@given(st.lists(_operand, min_size=0, max_size=12), st.lists(_operand, max_size=3), st.integers(0, 50),
       st.integers(0, 50), st.integers(2, 12), st.sets(st.integers(2, 12), max_size=4))
@example(["1200", "800", "007", "7"], [], 0, 1, 2, {2})
@example(["99999999999999999999999.5", "0.00000000000000000001"], [], 0, 1, 2, {2})
@example(["0.3333333333333333333333333333", "5"], [], 0, 1, 3, {3})
@example(["0.5", "1.25"], [], 0, 1, 2, set())  # operands written with different decimals
def test_a_formula_is_found_as_trying_every_pair_of_operands_finds_it(first, later, i, j, k, counts):
    index = EvidenceIndex()
    index.see_exempt(" ".join(f"{count} items" for count in sorted(counts)))  # the counts stated (§9.20)
    index.add(Forms(operands=set(first), numbers=set(first)))
    values = [Decimal(s) for s in first] or [Decimal(1)]
    x, y = values[i % len(values)], values[j % len(values)]
    asked = [x + y, abs(x - y), x * k, x + y + Decimal("0.01"), x + y + Decimal("0.001"), Decimal(17),
             Decimal(123456789012345678901234), Decimal(2) / 3]
    for magnitude in asked:
        if magnitude > 0:
            assert derive.exact_formula(magnitude, index) == _every_pair(magnitude, index)
    index.add(Forms(operands=set(later), numbers=set(later)))  # operands that arrive after a question
    for magnitude in asked:
        if magnitude > 0:
            assert derive.exact_formula(magnitude, index) == _every_pair(magnitude, index)


def _beats_chance_trying_everything(magnitude: Decimal, places: int, operands: list[int], counts: set[int]) -> bool:
    """beats_chance without its shortcuts: every formula's result worked out, those near magnitude counted."""
    m = magnitude.scaleb(places)
    if m != m.to_integral_value():
        return False
    m = int(m)
    step = 10 ** max(places + min(magnitude.normalize().as_tuple().exponent, 0), 0)
    width = max(m // 10, 50 * step)
    made = [(x + y, (x, y)) for x in operands for y in operands if y > x]
    made += [(x - y, (x, y)) for x in operands for y in operands if x > y]
    made += [(k * x, (x,)) for k in counts for x in operands]

    def shown(v):
        return derive._shown(v, places)

    low, high = max(m - width, step), m + width
    near = {r for r, used in made if low <= r <= high and r % step == 0
            and derive._not_neighbours(shown(r), *map(shown, used))}
    return len(near) <= 0.01 * ((high - low) // step + 1)


@given(st.lists(st.integers(1, 3000), max_size=40, unique=True), st.integers(1, 6000), st.integers(0, 2),
       st.sets(st.integers(2, 12), max_size=3))
@example(list(range(1003, 1400, 7)), 2338, 0, set())  # many fares: sums everywhere near 2338
@example([122, 121, 243, 2787], 2544, 0, {2, 3})
def test_the_chance_of_a_formula_is_counted_as_working_out_every_formula_counts_it(operands, target, places, counts):
    scaled = sorted(operand * 10**places for operand in operands)
    magnitude = Decimal(target)
    assert derive.beats_chance(magnitude, places, scaled, counts) == _beats_chance_trying_everything(
        magnitude, places, scaled, counts)


def test_a_value_among_many_read_numbers_is_not_explained_by_a_coincidental_sum():
    fares = list(range(1003, 1400, 7))
    assert not derive.beats_chance(Decimal(2338), 0, fares, set())
    assert derive.beats_chance(Decimal(2544), 0, [121, 122, 243, 2787], {2, 3})


_scalars = st.one_of(st.integers(-50, 5000), st.floats(0, 1e4).map(lambda x: round(x, 2)), st.sampled_from(["a", "7"]),
                     st.none())
_documents = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from(["fee", "n", "rows", "x"]), inner,
                                                               max_size=4),
    max_leaves=30,
)


@given(st.lists(st.dictionaries(st.sampled_from(["fee", "n", "rows"]), _documents, max_size=3), min_size=1,
                max_size=4) | _documents.filter(lambda d: isinstance(d, (dict, list))))
@example([{"fee": 1}, {"fee": 2, "rows": [{"n": 3}, {"n": 4}]}])
@example({"a": [{"fee": 1}, {"fee": 2}], "b": [[1, 2], {"x": [{"n": 5}, {"n": 6}]}]})
@example({"limit": 429, "note": "12ms, 1.5e3 and 2025-03-08", "n": [1.50, -0.0, 1e300]})
def test_the_collections_found_visiting_containers_are_those_a_whole_reading_finds(document):
    # (the strings' numbers are read from the text between its quotes; a compact text writes ":429" as one run)
    for text in (json.dumps(document), json.dumps(document, separators=(",", ":"))):
        _agrees_with_a_whole_reading(text)


def _agrees_with_a_whole_reading(text: str) -> None:
    examined = examine_result(text, ReadOptions(), False, None, None)
    whole = read_examined(examined, ReadOptions())
    numbers = read_numbers(examined, ReadOptions())
    in_strings = read_string_numbers(examined, ReadOptions())
    assert numbers is not None
    assert numbers.collections == whole.collections  # the same collections, in the same order
    assert numbers.operands | in_strings.operands == whole.operands  # those of its strings too (§9.18)
    assert numbers.numbers == numbers.operands  # the numbers it holds as numbers


@given(_documents, st.lists(_scalars, max_size=3), st.sampled_from(["error", "absence", "text"]))
@example({"fee": [12, 7]}, [12], "error")
@example([3, 4], ["4"], "absence")
def test_a_failed_results_numbers_are_those_a_whole_reading_leaves_after_its_arguments(document, asked, failure):
    # a failed lookup lends nothing its call's arguments spell (§9.6): its numbers are read less those too
    if failure == "error":
        text = json.dumps({"error": "not found", "data": document})
    elif failure == "absence":
        text = json.dumps({"af_absent": True, "checked": ["db"], "looked_for": "x", "data": document})
    else:
        text = "Error: nothing matched " + " ".join(map(str, json_exact.leaves(document)))
    examined = examine_result(text, ReadOptions(), False, json.dumps({"asked": asked}), None)
    assert examined.failed
    numbers = read_numbers(examined, ReadOptions())
    in_strings = read_string_numbers(examined, ReadOptions())
    whole = read_examined(examine_result(text, ReadOptions(), False, json.dumps({"asked": asked}), None), ReadOptions())
    assert numbers.operands == numbers.numbers
    assert numbers.operands | in_strings.operands == whole.operands
    assert numbers.collections == whole.collections


@given(
    st.sets(
        st.one_of(
            st.decimals(min_value=0, max_value=10**12, places=3, allow_nan=False, allow_infinity=False).map(str),
            st.from_regex(r"-?[0-9]{1,20}(\.[0-9]{1,6})?", fullmatch=True),
            st.sampled_from(["1e5", "2.5E3", "007", "12.50", ".5", "-.25", "5."]),
        ),
        max_size=12,
    )
)
@example({"12.5", "7", "0.125"})
@example({"2.5E3"})  # the point's digits as written set the places, an exponent's too
@example({"9999999999999", "0.01"})  # at the float path's bound: 13 characters and 2 places
@example({"99999999999999", "0.01"})  # past it: scaled from the digits
def test_operands_are_scaled_from_their_digits_as_their_values_scale(spellings):
    from grounding.core.evidence.operands import SCALED_LIMIT, scale

    places = max((len(digits) for s in spellings for digits in re.findall(r"\.([0-9]+)", s)), default=0)
    expected = {int(Decimal(s).scaleb(places)) for s in spellings}
    found = scale(spellings)
    if any(len(s) > 24 for s in spellings) or (expected and max(expected) >= SCALED_LIMIT):
        assert found is None
    else:
        assert found == (places, expected)


@given(st.sets(st.text("0123456789.-,$kmG:aZ+%/_#@", min_size=1, max_size=10), max_size=8)
       | st.sets(st.sampled_from(["23502.02,", "-49438.92", "16G", "2026-04-16", "٣٤٥٦", "€1,200", "21-year-old",
                                 "1,2345", "5101,5102", "007", "0.0", "-0", "10k+", "1.2.3"]), max_size=8))
def test_a_texts_numbers_are_read_in_bulk_as_reading_each_token_reads_them(runs):
    from grounding.core.evidence.token_readings import TokenReader, _as_number
    from grounding.core.text.tokens import split_run

    reader = TokenReader(4, False, cache=False)
    one_by_one = set()
    for run in runs:
        for token in split_run(run):
            value = reader._value(token)
            number = _as_number(value) if value is not None else None
            if number is not None:
                one_by_one.add(number[0])
    assert reader.numbers(runs) == one_by_one
