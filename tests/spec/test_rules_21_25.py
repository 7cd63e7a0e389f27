"""SPEC §9 rules 21-25, one block per rule: what each now grounds, and what it still refuses."""

import json

import pytest
from conftest import judge, unsupported, verdict_of, via
from hypothesis import given, settings
from hypothesis import strategies as st

from grounding.core.answer.labels import parts_of
from grounding.core.evidence.counts import counts_in_words

# §9.21 a bare 12-hour time is either half of the day -------------------------------------------------------


@pytest.mark.parametrize(
    ("evidence", "user", "answer", "expected_unsupported", "expected_via"),
    [
        ({"ok": True}, "remind me at 3:15", "I set it for 3:15 PM", [], {"3:15pm": "date-part"}),
        ({"time": "03:15"}, "hi", "at 3:15 PM", [], {"3:15pm": "date-part"}),
        ({"time": "3:15"}, "hi", "at 15:15", [], {"15:15": "date-part"}),
        ({"start": "12:30"}, "hi", "at 12:30 AM", [], {"12:30am": "date-part"}),  # 12:30 is noon or midnight
        ({"slots": ["9:00-11:30"]}, "hi", "from 9:00 PM", [], {"9:00pm": "date-part"}),
        # refused: a time with an hour 13-23 or 0, or with AM/PM, or in a text on the 24-hour clock
        ({"start": "15:15"}, "hi", "at 3:15 AM", ["3:15am"], {}),
        ({"start": "0:30"}, "hi", "at 12:30 PM", ["12:30pm"], {}),
        ("Opens 8:00 AM daily", "hi", "opens at 8:00 PM", ["8:00pm"], {}),
        ({"dep": "06:00:00", "arr": "17:30:00"}, "hi", "departs 6:00 PM", ["6:00pm"], {}),
        ({"at": "2024-05-14T03:15:00"}, "hi", "at 3:15 PM", ["3:15pm"], {}),
        ({"at": "3:15+1"}, "hi", "at 3:15 PM", ["3:15pm"], {}),  # a day marker: a schedule's clock
    ],
)
def test_a_bare_twelve_hour_time_is_either_half(evidence, user, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer, user=user)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_a_bare_time_beside_a_time_with_am_or_pm_is_still_either_half():
    verdict = judge("Opens 8:00 AM, lunch 1:30", answer="Lunch is at 1:30 PM; it opens at 8:00 PM.")
    assert unsupported(verdict) == ["8:00pm"] and via(verdict) == {"1:30pm": "date-part"}


# §9.22 what is written the same is read the same ----------------------------------------------------------


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        ({"addr": "SUITE 7C, BLDG 12B"}, "Suite 7C, Building 12B", [], {"12000000000": "verbatim"}),
        ({"params": "2B"}, "a 2B-parameter model", [], {"2b-parameter": "verbatim"}),
        ("The 1980s and 1990s", "the 1980s", [], {"1980": "verbatim"}),
        # refused: a token the evidence does not hold letter for letter, and that no reading grounds
        ({"addr": "SUITE 7C, BLDG 12B"}, "Building 13B", ["13000000000"], {}),
        ({"params": "2B"}, "a 3B-parameter model", ["3b-parameter"], {}),
    ],
)
def test_a_token_written_as_read_is_grounded_whatever_it_reads_as(evidence, answer, expected_unsupported,
                                                                  expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


_TOKENS = st.builds(
    lambda number, tail: f"{number}{tail}",
    st.integers(min_value=1, max_value=999_999),
    st.sampled_from(["B", "M", "K", "C", "x", "GB", "th", "s", "p", "am", "-inch", "-parameter", "x-zoom"]),
)


@settings(max_examples=150, deadline=None)
@given(_TOKENS, st.sampled_from(['{"v": "%s"}', "Listed: %s today", '{"items": ["%s", "n/a"]}']))
def test_any_token_copied_from_a_tool_result_is_grounded(token, template):
    verdict = judge(template % token, answer=f"It is {token} here.")
    assert verdict.unsupported == ()


# §9.23 computations the answer announces ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("steps", "user", "answer", "expected_unsupported", "expected_formula"),
    [
        ([{"rent": 1450}, {"increase": 10}], "hi", "The rent of 1,450 rises by 10; the new amount is 1,460.", [],
         "1460 = 1450 + 10"),
        ([{"per_day": 42.5}], "hi", "Weekly cost: $297.50", [], "297.5 = 7 * 42.5"),
        ([{"a": 642.10}, {"b": 385.00}, {"c": 241.30}], "hi", "In total you paid $1,268.40", [],
         "1268.4 = 241.3 + 385 + 642.1"),
        ([{"balance": 500}, {"payment": 132.45}], "hi", "Your remaining balance is $367.55.", [], "367.55 = 500 - 132.45"),
        ([{"price": 1450}], "My budget is 2,000 and I pay 75 to ship", "You have 475 left after both, 525 before shipping", [],
         None),
        ([{"total": 1000}], "book three nights", "That is $333.33 per night.", [], "333.33 = 1000 / 3"),
        ([{"fare": 1299}], "for both of us", "The combined fare is $2,598.", [], "2598 = 2 * 1299"),
        # refused: a neighbour of a read number whose operands the answer does not write, wrong arithmetic,
        # no announcing words, a year
        ([{"rent": 1450}, {"increase": 10}], "hi", "The new amount is 1,460.", ["1460"], None),
        ([{"rent": 1450}, {"increase": 10}], "hi", "The rent of 1,450 rises by 10; the new amount is 1,470.",
         ["1470"], None),
        ([{"a": 642.10}, {"b": 385.00}, {"c": 241.30}], "hi", "You paid $1,268.40", ["1268.4"], None),
        ([{"a": 642.10}, {"b": 385.00}, {"c": 241.30}], "hi", "In total you paid $1,268.50", ["1268.5"], None),
        ([{"total": 1000}], "book three nights", "That is $333.34 per night.", ["333.34"], None),
        ([{"from": 1990}, {"years": 34}], "hi", "In total that makes 2024.", ["2024"], None),
    ],
)
def test_computations_the_answer_announces(steps, user, answer, expected_unsupported, expected_formula):
    verdict = judge(*steps, answer=answer, user=user)
    assert unsupported(verdict) == expected_unsupported
    if expected_formula is not None:
        assert [f.formula for f in verdict.grounded_via if f.via == "derived"] == [expected_formula]


def test_counts_in_words_are_factors_only_an_announced_computation_takes():
    assert counts_in_words("weekly, a fortnight, a dozen, both, a pair, two nights") == {7, 14, 12, 2}
    # without announcing words, §9.20 asks for a count stated as a count: "a week" is none
    assert unsupported(judge({"per_day": 42.5}, answer="It costs $297.50 for a week.")) == ["297.5"]


# §9.24 work shown earlier in the conversation --------------------------------------------------------------------


def _with_work(work: str | None, arguments: dict, answer: str) -> dict:
    """The user names the increase (user text lends no operand to §9.7), a tool reads the rent, and the
    assistant writes work beside a call before it answers."""
    return {"messages": [
        {"role": "user", "content": "Raise my rent by 50 please."},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c0", "type": "function", "function": {"name": "get_rent", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c0", "content": json.dumps({"rent": 1450.0})},
        {"role": "assistant", "content": work, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "set_rent", "arguments": json.dumps(arguments)}}]},
        {"role": "tool", "tool_call_id": "c1", "content": json.dumps({"ok": True})},
        {"role": "assistant", "content": answer},
    ]}


@pytest.mark.parametrize(
    ("work", "arguments", "answer", "expected_unsupported", "expected_via"),
    [
        ("amount: 1500.0 (1450.0 + 50.0 increase)", {}, "Updated to 1500.0.", [], {"1500": "shown-earlier"}),
        (None, {"note": "1450 + 50 = 1500"}, "Updated to 1,500.", [], {"1500": "shown-earlier"}),
        ("1450 + 50 = 1500", {}, "Updated to 1,500; the old rent was 1,450.", [], {"1500": "shown-earlier"}),
        # refused: a number only stated or passed to a tool, wrong arithmetic, an operand never read
        ("I will set it to 1500.", {"amount": 1500.0}, "Updated to 1500.0.", ["1500"], {}),
        ("1450 + 60 = 1500", {}, "Updated to 1,500.", ["1500"], {}),
        ("1450 + 70 = 1520", {}, "Updated to 1,520.", ["1520"], {}),
    ],
)
def test_work_shown_earlier(work, arguments, answer, expected_unsupported, expected_via):
    verdict = verdict_of(_with_work(work, arguments, answer))
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_work_shown_earlier_says_where_it_was_written():
    verdict = verdict_of(_with_work(None, {"note": "1450 + 50 = 1500"}, "Updated to 1,500."))
    [finding] = verdict.grounded_via
    assert (finding.formula, finding.matched) == ("1500 = 1450 + 50", "the arguments of its call to set_rent")


def test_anthropic_thinking_is_work_shown_but_never_evidence():
    def record(thinking: str) -> dict:
        return {"system": "Agent.", "messages": [
            {"role": "user", "content": "Raise my rent by 50."},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "get_rent", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": '{"rent": 1450}'}]},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": thinking, "signature": "x"},
                                              {"type": "text", "text": "The new rent is 1,500."}]},
        ]}
    assert via(verdict_of(record("1450 + 50 = 1500"))) == {"1500": "shown-earlier"}
    assert unsupported(verdict_of(record("So the rent becomes 1500."))) == ["1500"]


# §9.25 labels built from grounded parts ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        ({"voucher_id": "8812034"}, '{"step": "apply_voucher_8812034_first"}', [],
         {"apply_voucher_8812034_first": "label"}),
        ({"order": "W4410022"}, "Queued refund_W4410022_order.", [], {"refund_w4410022_order": "label"}),
        ({"seat": "14C"}, "Booked seat_14c_upgrade.", [], {"seat_14c_upgrade": "label"}),
        ({"chip": "m2", "ram": "24GB"}, "The m2/24gb/1tb model", [], {"m2/24gb/1tb": "label"}),
        ({"cpu": "i9", "ram": "16GB"}, "An i9/16gb build", [], {"i9/16gb": "label"}),
        ({"zoom": "12x"}, "a 12x-zoom lens", [], {"12": "verbatim"}),  # the "12x" read
        # refused: an ungrounded value part, reported in the label's place; capitals and "-" stay whole
        ({"voucher_id": "8812034"}, "Next: apply_voucher_8812039_first", ["8812039"], {}),
        ({"id": "ORD-55120"}, "Return ORD-55120-RTN", ["ord-55120-rtn"], {}),
        ({"id": "55120"}, "Return ORD_55120_RTN", ["ord_55120_rtn"], {}),
        # a label ending with its value is shaped as an identifier (verdict quality VI): judged whole
        ({"order": "W4410022"}, "Queued refund_order_W4410022.", ["refund_order_w4410022"], {}),
        ({"ram": "24GB"}, "The m2/24gb/2048gb model", ["2048"], {}),  # (a part under min_digits is prose)
        ({"zoom": "12x"}, "a 30x-zoom lens", ["30"], {}),
    ],
)
def test_labels_built_from_grounded_parts(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_an_ungrounded_part_is_reported_where_the_answer_wrote_it():
    answer = "Next: apply_voucher_8812039_first"
    [finding] = judge({"voucher_id": "8812034"}, answer=answer).unsupported
    assert (finding.text, answer[finding.at : finding.at + len(finding.text)]) == ("8812039", "8812039")


def test_what_is_a_label_and_what_is_not():
    assert [p for p, _ in parts_of("refund_order_W4410022", 4)] == ["refund", "order", "W4410022"]
    assert parts_of("gift_5086243", 4) is None  # one word: an identifier
    assert parts_of("ORD_55120_RTN", 4) is None  # capitals: an identifier
    assert parts_of("2048/4096", 4) is None  # no unit: values joined (§9.13, §9.16)
    assert parts_of("fc1/9", 4) is None
