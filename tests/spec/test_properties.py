"""Invariants that must hold for every input, not just the examples we thought of."""

import json
import re

from conftest import judge
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from grounding.core.evidence.verbatim import is_canonical
from grounding.core.text.normalise import normalise, normalise_once
from grounding.core.text.tokens import token_texts
from grounding.core.text.values import classify_once, classify_plainly

_ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789"
identifiers = st.builds(
    lambda head, sep, tail: f"{head}{sep}{tail}",
    st.text(_ALNUM, min_size=1, max_size=6),
    st.sampled_from(["-", "_", "/", ".", ":", ""]),
    st.text("0123456789", min_size=1, max_size=8),
)
numbers = st.one_of(
    st.integers(min_value=-(10**25), max_value=10**25),
    st.decimals(min_value=-(10**9), max_value=10**9, allow_nan=False, allow_infinity=False, places=3),
)
fast = settings(suppress_health_check=[HealthCheck.too_slow])


@fast
@given(identifiers)
def test_an_identifier_copied_from_a_tool_result_is_never_flagged(value):
    verdict = judge({"id": value, "note": f"see {value}"}, answer=f"The record is {value}.")
    assert verdict.unsupported == ()


@fast
@given(numbers)
def test_a_number_copied_from_a_tool_result_is_never_flagged(n):
    written = f"{n:,}" if isinstance(n, int) else f"{n:,.3f}"
    verdict = judge(f'{{"amount": {n}}}', answer=f"The amount is {written} today.")
    assert verdict.unsupported == ()


@fast
@given(st.text(min_size=0, max_size=40))
def test_normalisation_is_idempotent(text):
    for token in token_texts(text):
        once = normalise(token)
        assert normalise(once) == once


@fast
@given(st.one_of(st.text(min_size=0, max_size=12), st.text("abcxyzABC0123456789-_./:$%#@+,()", max_size=12)))
def test_what_the_verbatim_search_takes_for_normal_is_left_as_it_is_by_normalise(value):
    # the index skips normalising these (see EvidenceIndex.says_verbatim)
    if is_canonical(value):
        assert normalise(value) == value


@fast
@given(st.one_of(st.text(max_size=12), st.text("aZ09٣ \t.,-+$:%()'\"", max_size=12), identifiers),
       st.integers(min_value=1, max_value=6))
@example("Ab1. ", 4)
@example("00", 1)
@example("9,000.50", 4)
@example("90.0 ", 1)
@example("0.90%", 1)
@example("24/7", 1)
@example("16384mb", 4)
@example("2026-01-05t10:45:38z", 4)
def test_the_answer_side_shortcuts_agree_with_normalise_and_classify(token, min_digits):
    # candidates reads an answer's tokens with these, which skip the memo for the commonest spellings; with no
    # shape declared every token it reads holds a digit, and so does its value
    assert normalise_once(token) == normalise(token)
    value = normalise(token)
    assert not value or bool(re.search(r"\d", value)) == bool(re.search(r"\d", token))  # digits stay digits
    if re.search(r"\d", value):
        assert classify_once(value, min_digits) == classify_plainly(value, min_digits)[0]


@fast
@given(
    st.lists(st.one_of(identifiers, numbers.map(str)), max_size=6),
    st.lists(st.one_of(identifiers, numbers.map(str)), max_size=6),
)
def test_flagged_values_come_from_the_answer_and_never_outnumber_candidates(read, written):
    answer = " and ".join(written)
    verdict = judge({"values": read}, answer=answer)
    assert verdict.candidates >= len(verdict.unsupported)
    for finding in verdict.unsupported:
        assert finding.text in answer
        assert finding.value not in {normalise(v) for v in read}


@fast
@given(st.lists(identifiers, min_size=1, max_size=5), identifiers)
def test_the_verdict_does_not_depend_on_tool_result_order(values, answer_value):
    first = judge({"a": values}, answer=f"{answer_value} {' '.join(values)}")
    second = judge({"a": list(reversed(values))}, answer=f"{answer_value} {' '.join(values)}")
    assert first == second


@fast
@given(st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=10)),
                    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
                    max_leaves=12),
       st.text(max_size=60))
def test_any_json_tool_result_and_any_answer_is_judged_without_error(document, answer):
    verdict = judge(json.dumps(document), answer=answer)
    assert verdict.candidates >= len(verdict.unsupported) + len(verdict.examples) + 0
