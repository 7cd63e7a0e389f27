"""The readings of verdict quality VI (docs/reading-values.md), one block each: what each grounds, and what
it still refuses. The invention each reading could let through is written here and must stay flagged."""

import pytest
from conftest import judge, unsupported, via

from grounding.core.answer.labels import id_spans, parts_of, presented_as_reference

# A label presented as a reference is judged whole (§9.25's guard) ------------------------------------------

_CARDS = {"user_id": "maria_lopez_9921", "zip": "4471", "payment_methods": ["credit_card_7815826"],
          "order_id": "ORD55120", "card": {"last_four": "7781"}}


@pytest.mark.parametrize(
    ("answer", "expected_unsupported", "expected_via"),
    [
        # the labels a model coins for its own structure are still judged by parts
        ('{"steps": ["apply_voucher_7815826_first", "option_b_morning"]}', [],
         {"apply_voucher_7815826_first": "label"}),
        ("Plan: refund_order_ORD55120 then close the case.", [], {"refund_order_ord55120": "label"}),
        ("Charged credit_card_7815826.", [], {}),  # read whole
        ("Step two: use_credit_card_7815826_then_close.", [], {"use_credit_card_7815826_then_close": "label"}),
        # refused: a read id or number recombined into a reference
        ("Your refund reference is refund_ref_ORD55120.", ["refund_ref_ord55120"], {}),
        ("Your user id is user_maria_lopez_4471.", ["user_maria_lopez_4471"], {}),
        ('{"confirmation_number": "refund_order_ORD55120"}', ["refund_order_ord55120"], {}),
        ("I charged credit_card_4471.", ["credit_card_4471"], {}),  # a family read, other digits
        ("Linked to account maria_lopez_4471.", ["maria_lopez_4471"], {}),
        ("Plan: retry_with_credit_card_7781_first.", ["retry_with_credit_card_7781_first"], {}),
    ],
)
def test_a_label_presented_as_a_reference_is_judged_whole(answer, expected_unsupported, expected_via):
    verdict = judge(_CARDS, answer=answer, user="I need a refund")
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_what_presents_a_label_as_a_reference():
    assert presented_as_reference(parts_of("order_ref_ORD55120", 4), [])
    assert presented_as_reference(parts_of("refund_order_ORD55120", 4), ["confirmation", "number", "is"])
    assert not presented_as_reference(parts_of("refund_order_ORD55120", 4), ["the", "plan", "is"])
    assert [span for _, span in id_spans(parts_of("apply_gift_card_5086243_first", 4))] == [
        "apply_gift_card_5086243", "gift_card_5086243", "card_5086243"]


# A time's half is decided by how that time is written, not by other times of its text ----------------------


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        # a program's print (minutes in one digit) is the 24-hour clock: 1:0 is one in the morning
        ({"hours": {"Mon": "11:0-1:0"}}, "Open 11:00 AM until 1:00 AM.", [], {"11:00am": "date-part",
                                                                            "1:00am": "date-part"}),
        ({"hours": {"Mon": "11:0-1:0"}}, "Open until 01:00.", [], {"01:00": "date-part"}),
        ({"slots": ["9:00-11:30"]}, "from 9:00 PM", [], {"9:00pm": "date-part"}),  # a person's time: either half
        # refused: the afternoon of a printed time, whatever other times of the text say
        ({"hours": {"Mon": "11:0-1:0"}, "reviews": [{"time": "09:15"}, {"time": "10:40"}]}, "Open until 1:00 pm.",
         ["1:00pm"], {}),
        ({"hours": {"Mon": "11:0-1:0"}}, "Open until 13:00.", ["13:00"], {}),
    ],
)
def test_a_printed_time_is_on_the_24_hour_clock(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


# Text an answer escapes, and a date inside a read path -----------------------------------------------------

_REPORTS = {"files": ["reports/2025-03-07/summary.png"]}


@pytest.mark.parametrize(
    ("answer", "expected_unsupported", "expected_via"),
    [
        (r'Saved: {"path": "out\nreports/2025-03-07/summary.png"}', [], {}),  # \n is a line break, not "n"
        ("The report of 2025-03-07 is ready.", [], {"2025-03-07": "component"}),
        ("The report of March 7, 2025 is ready.", [], {"2025-03-07": "component"}),
        # refused: another date, or another path, escaped or not
        ("The report of 2025-03-08 is ready.", ["2025-03-08"], {}),
        (r'Saved: {"path": "out\nreports/2025-03-08/summary.png"}', ["reports/2025-03-08/summary.png"], {}),
        ("The report of 2025-03-07b is ready.", ["2025-03-07b"], {}),
    ],
)
def test_escapes_and_a_date_inside_a_path(answer, expected_unsupported, expected_via):
    verdict = judge(_REPORTS, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_an_unescaped_answer_keeps_its_offsets():
    answer = r'Saved: {"path": "out\nORD-55121"}'
    [finding] = judge({"id": "ORD-55120"}, answer=answer).unsupported
    assert answer[finding.at : finding.at + len(finding.text)] == "ORD-55121"


# An answer cut off inside its last value -------------------------------------------------------------------

_READ = {"reports": ["reports/2025-03-07/summary.png", "2025-03-09"], "id": "ORD-55120"}


@pytest.mark.parametrize(
    ("answer", "expected_unsupported", "expected_via"),
    [
        ("The latest is '2025-03-", [], {"2025-03-": "truncated"}),
        ('Order {"id": "ORD-551', [], {"ord-551": "truncated"}),
        ("Files: reports/2025-03-", [], {"reports/2025-03-": "truncated"}),
        # refused: a finished value at the end, a fragment nothing read begins with, a cut value not last
        ("Your order is ORD-5512", ["ord-5512"], {}),
        ("Your order is ORD-5512.", ["ord-5512"], {}),
        ("Files: reports/2026-", ["reports/2026-"], {}),
        ("See 'ORD-551 and the rest.", ["ord-551"], {}),
        ("Order ORD-55120 and 'ORD-9", ["ord-9"], {}),
    ],
)
def test_an_answer_cut_off_inside_a_value_read(answer, expected_unsupported, expected_via):
    verdict = judge(_READ, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_a_cut_off_value_names_the_value_it_begins():
    [finding] = judge(_READ, answer="The latest is '2025-03-").grounded_via
    assert finding.matched == "2025-03-09"
