"""The readings of verdict quality VI (docs/reading-values.md), one block each: what each grounds, and what
it still refuses. The invention each reading could let through is written here and must stay flagged."""

import pytest
from conftest import judge, openai_record, unsupported, verdict_of, via

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
        ("Plan: refund_ORD55120_then_close.", [], {"refund_ord55120_then_close": "label"}),
        ("Charged credit_card_7815826.", [], {}),  # read whole
        ("Step two: use_credit_card_7815826_then_close.", [], {"use_credit_card_7815826_then_close": "label"}),
        # refused: a read id or number recombined into a reference
        ("Your refund reference is refund_ref_ORD55120.", ["refund_ref_ord55120"], {}),
        ("Your user id is user_maria_lopez_4471.", ["user_maria_lopez_4471"], {}),
        ('{"confirmation_number": "refund_order_ORD55120"}', ["refund_order_ord55120"], {}),
        ("I charged credit_card_4471.", ["credit_card_4471"], {}),  # a family read, other digits
        ("Linked to account maria_lopez_4471.", ["maria_lopez_4471"], {}),
        ("Plan: retry_with_credit_card_7781_first.", ["retry_with_credit_card_7781_first"], {}),
        # a label that ends with its value has an identifier's shape: a name, then its number
        ("Plan: refund_order_ORD55120 then close the case.", ["refund_order_ord55120"], {}),
        ("Created account user_maria_lopez_4471.", ["user_maria_lopez_4471"], {}),
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
        ("The latest is '2025-03-", [], {"2025-03": "truncated"}),  # (a hyphen ends no value)
        ('Order {"id": "ORD-551', [], {"ord-551": "truncated"}),
        ("Files: reports/2025-03-", [], {"reports/2025-03": "truncated"}),
        # refused: a finished value at the end, a fragment nothing read begins with, a cut value not last
        ("Your order is ORD-5512", ["ord-5512"], {}),
        ("Your order is ORD-5512.", ["ord-5512"], {}),
        ("Files: reports/2026-", ["reports/2026"], {}),
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


# Percentages, means and scaling ----------------------------------------------------------------------------

_READINGS = {"readings": [1210.5, 1340.25, 1180.0, 1275.75, 1295.0]}


@pytest.mark.parametrize(
    ("evidence", "user", "answer", "expected_unsupported", "expected_formula"),
    [
        ({"visits": [{"week": 1, "count": 6}, {"week": 2, "count": 10}]}, "how did visits change?",
         "Visits rose from 6 to 10, a 66.67% increase.", [], "66.67 = (10 - 6) / 6 * 100"),
        ({"before": 6, "after": 10}, "hi", "a 66.66% increase", [], "66.66 = (10 - 6) / 6 * 100"),  # cut
        ({"spent": 1250, "budget": 4000}, "hi", "You have used 31.25 percent of the budget.", [],
         "31.25 = 1250 / 4000 * 100"),
        ({"threshold": 25.0}, "flag anything 5% over the threshold", "5% over the 25.0 threshold is 26.25.", [],
         "26.25 = 25 * (100 + 5) / 100"),
        (_READINGS, "hi", "The average of the five readings is 1260.3.", [],
         "1260.3 = (1210.5 + 1340.25 + 1180 + 1275.75 + 1295) / 5 (mean of 5 numbers)"),
        # refused: wrong arithmetic, a percentage nobody stated, a percent change of numbers never read
        ({"before": 6, "after": 10}, "hi", "a 66.76% increase", ["66.76"], None),
        ({"threshold": 25.0}, "flag anything over the threshold", "5% over the 25.0 threshold is 26.25.",
         ["26.25"], None),
        ({"before": 6, "after": 10}, "hi", "from 7 to 10, a 42.86% increase", ["42.86"], None),
        (_READINGS, "hi", "The average of the five readings is 1261.3.", ["1261.3"], None),
    ],
)
def test_percentages_means_and_scaling(evidence, user, answer, expected_unsupported, expected_formula):
    verdict = judge(evidence, answer=answer, user=user)
    assert unsupported(verdict) == expected_unsupported
    assert [finding.formula for finding in verdict.grounded_via] == ([expected_formula] if expected_formula else [])


# Chained computations --------------------------------------------------------------------------------------

_FARE = {"paid": 2100, "fare_per_passenger": 106, "passengers": 2, "credit": 75}


@pytest.mark.parametrize(
    ("answer", "expected_unsupported", "expected_formula"),
    [
        ("You paid $2,100. The new fare is $212 for both of you. After the $75 credit, the refund due is $1,813.",
         [], "1813 = 2100 - 75 - 212 (212 = 2 * 106)"),
        ('{"subtotal": 1900, "discount": 87, "total_after_discount": 1813}', [], "1813 = 1900 - 87"),
        # refused: a link that is no computation over what was read, or a chain that does not add up
        ("You paid $2,100. The new fare is $213 for both of you. After the $75 credit, the refund due is $1,812.",
         ["1812"], None),
        ("You paid $2,100. The new fare is $212 for both of you. After the $75 credit, the refund due is $1,823.",
         ["1823"], None),
    ],
)
def test_chained_computations(answer, expected_unsupported, expected_formula):
    evidence = _FARE if "subtotal" not in answer else {"subtotal": 1900, "discount": 87}
    verdict = judge(evidence, answer=answer, user="I want a refund")
    assert unsupported(verdict) == expected_unsupported
    assert [finding.formula for finding in verdict.grounded_via] == ([expected_formula] if expected_formula else [])


def test_a_json_key_announces_a_computation_as_words_before_it_would():
    evidence = {"room": 420, "tax": 38.5, "fee": 515.25}
    assert [f.formula for f in judge(evidence, answer='{"total_due": 973.75}').grounded_via] == [
        "973.75 = 38.5 + 420 + 515.25"]
    assert unsupported(judge(evidence, answer='{"due": 973.75}')) == ["973.75"]  # no key announces it


# Operands from the records the answer names -----------------------------------------------------------------


def _catalogue():
    items = [{"item_id": str(4400 + i), "price": 1500 + (i * 613) % 2500, "stock": 1 + (i * 37) % 90}
             for i in range(40)]
    items[10]["price"], items[17]["price"] = 2087, 3327
    return {"items": items}


@pytest.mark.parametrize(
    ("answer", "expected_unsupported", "expected_formula"),
    [
        ("Swapping item 4410 for item 4417 costs $1,240 more.", [],
         "1240 = 3327 - 2087 (operands of the records the answer names)"),
        # refused: the ids name other records, or the arithmetic is wrong
        ("Swapping item 4410 for item 4418 costs $1,240 more.", ["1240"], None),
        ("Swapping item 4410 for item 4417 costs $1,250 more.", ["1250"], None),
    ],
)
def test_operands_from_the_records_the_answer_names(answer, expected_unsupported, expected_formula):
    verdict = judge(_catalogue(), answer=answer)
    assert unsupported(verdict) == expected_unsupported
    assert [finding.formula for finding in verdict.grounded_via] == ([expected_formula] if expected_formula else [])


def test_without_the_records_the_catalogue_is_too_dense_to_tell():
    # the same value with no id named: among every price read, a difference near 1240 is chance
    assert unsupported(judge(_catalogue(), answer="The swap costs $1,240 more.")) == ["1240"]


# Dates relative to a stated "today" ------------------------------------------------------------------------

_TODAY = "You are a helpful assistant. Today's date is Monday, 2025-03-10."


@pytest.mark.parametrize(
    ("user", "answer", "expected_unsupported", "expected_formula"),
    [
        ("show me last Friday's report", "Last Friday (2025-03-07) the report showed no errors.", [],
         "2025-03-07 = last friday from 2025-03-10 (today)"),
        ("what about next Wednesday?", "Next Wednesday is 2025-03-12.", [],
         "2025-03-12 = next wednesday from 2025-03-10 (today)"),
        ("what happened three weeks ago?", "Three weeks ago, on 2025-02-17, the job failed.", [],
         "2025-02-17 = 2025-03-10 - 21 days"),
        ("remind me in 10 days", "I will remind you on 2025-03-20.", [], "2025-03-20 = 2025-03-10 + 10 days"),
        ("orders since the start of this month", "Since 2025-03-01 you placed no orders.", [],
         "2025-03-01 = the start of this month from 2025-03-10 (today)"),
        # refused: wrong arithmetic, and a date no phrase names
        ("show me last Friday's report", "Last Friday (2025-03-06) the report showed no errors.", ["2025-03-06"], None),
        ("show me the report", "On 2025-03-07 the report showed no errors.", ["2025-03-07"], None),
    ],
)
def test_dates_relative_to_a_stated_today(user, answer, expected_unsupported, expected_formula):
    verdict = judge({"ok": True}, answer=answer, user=user, system=_TODAY)
    assert unsupported(verdict) == expected_unsupported
    assert [finding.formula for finding in verdict.grounded_via] == ([expected_formula] if expected_formula else [])


def test_a_relative_phrase_needs_a_stated_today():
    verdict = judge({"ok": True}, answer="Last Friday (2025-03-07) the report showed no errors.",
                    user="show me last Friday's report", system="Orders are listed since 2025-03-10.")
    assert unsupported(verdict) == ["2025-03-07"]


# References composed from a read or given id ---------------------------------------------------------------

_API = "You manage the records at https://api.example.test/v2/ . Resources: Patient, Order, customer."


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        ({"id": "ORD-4471"}, "Created Order/ORD-4471.", [], {"order/ord-4471": "reference"}),
        ({"id": "C-2291"}, "See customers/C-2291 for details.", [], {"customers/c-2291": "reference"}),
        ({"id": "ORD-4471"}, "Fetch https://api.example.test/v2/Order/ORD-4471 to check.", [],
         {"https://api.example.test/v2/order/ord-4471": "reference"}),
        ({"id": "ORD-4471"}, "GET Patient/v2/Order/ORD-4471 now.", [], {"patient/v2/order/ord-4471": "reference"}),
        # refused: a made-up id, a resource nobody named, a base URL nobody gave
        ({"id": "ORD-4471"}, "Created Order/ORD-4472.", ["order/ord-4472"], {}),
        ({"id": "ORD-4471"}, "Created Invoice/ORD-4471.", ["invoice/ord-4471"], {}),
        ({"id": "ORD-4471"}, "Fetch https://api.other.test/v9/Order/ORD-4471 to check.",
         ["https://api.other.test/v9/order/ord-4471"], {}),
        ({"id": "ORD-4471"}, "Fetch https://api.example.test/v2/Order/ORD-4472 to check.",
         ["https://api.example.test/v2/order/ord-4472"], {}),
    ],
)
def test_references_composed_from_a_read_id(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer, system=_API)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_an_id_the_model_only_passed_to_a_tool_composes_no_reference():
    verdict = judge({"ok": True}, answer="Created Order/ORD-4471.", system=_API, arguments={"order_id": "ORD-4471"})
    assert unsupported(verdict) == ["order/ord-4471"]


# Totals over a list broken by headings, and attribute lists written with spaces ----------------------------

_TRIP = {"flights": [{"leg": "out", "price": 1210.0}, {"leg": "back", "price": 980.5}],
         "hotel": {"total": 1350.0, "taxes": 120.25}, "other": [round(100 + i * 37.31, 2) for i in range(80)]}
_SECTIONS = "Your trip:\n\n{0}Flights{1}\n- Outbound: $1,210.00\n- Return: $980.50\n\n{0}Hotel{1}\n- 3 nights: " \
            "$1,350.00\n- Taxes: $120.25\n\nTotal: ${2}"


@pytest.mark.parametrize(("opening", "closing"), [("**", "**"), ("### ", ""), ("", ":")])
def test_a_total_over_a_list_in_sections(opening, closing):
    verdict = judge(_TRIP, answer=_SECTIONS.format(opening, closing, "3,660.75"))
    assert [(f.via, f.formula) for f in verdict.grounded_via] == [
        ("listed-total", "3660.75 = 1210 + 980.5 + 1350 + 120.25")]
    assert unsupported(judge(_TRIP, answer=_SECTIONS.format(opening, closing, "3,661.75"))) == ["3661.75"]


@pytest.mark.parametrize(
    ("answer", "expected_unsupported", "expected_via"),
    [
        ("Specs: i7/16 GB/1 TB", [], {"i7/16": "label"}),
        # refused: a port followed by words stays whole
        ("Port fc1/9 in the rack is down", ["fc1/9"], {}),
        ("Port fc1/9 is down", ["fc1/9"], {}),
    ],
)
def test_an_attribute_list_written_with_spaces(answer, expected_unsupported, expected_via):
    verdict = judge({"cpu": "i7", "ram": "16 GB", "port": "fc1/3"}, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_a_clock_tool_states_today():
    record = openai_record({"now": "2025-07-22T10:03:00+08:00"}, answer="Next Wednesday (July 23, 2025) has seats.",
                           user="tickets for next Wednesday")
    record["messages"][1]["tool_calls"][0]["function"]["name"] = "get-current-date"
    assert [f.formula for f in verdict_of(record).grounded_via] == [
        "2025-07-23 = next wednesday from 2025-07-22 (today)"]
    record["messages"][1]["tool_calls"][0]["function"]["name"] = "get_delivery_slot"  # no clock: no today
    assert unsupported(verdict_of(record)) == ["2025-07-23"]


# Units an answer converts a number read into ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_formula"),
    [
        ("Elevation of Denver: 650m above sea level", "Denver is 650 meters up (approximately 2,133 feet).", [],
         "2133 = 650 m * 3.28084"),
        ({"distance_km": 1798}, "The trip is 1,798 km (1,117.2 miles).", [], "1117.2 = 1798 km * 0.621371"),
        ({"temp_c": 1021.5}, "It is 1870.7°F there.", [], "1870.7 = 1021.5 °C * 9/5 + 32"),
        # refused: wrong arithmetic, and a number with no unit written after it
        ("Elevation of Denver: 650m above sea level", "Denver is 650 meters up (approximately 2,134 feet).",
         ["2134"], None),
        ("Elevation of Denver: 650m above sea level", "Denver is 650 meters up; 2,133 people live at the top.",
         ["2133"], None),
    ],
)
def test_units_converted_from_a_number_read(evidence, answer, expected_unsupported, expected_formula):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported
    assert [finding.formula for finding in verdict.grounded_via] == ([expected_formula] if expected_formula else [])


# A number written with a scale word is the number it scales to -----------------------------------------------


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        ({"totalRevenue": 148514996224}, "Total revenue was $148.51 billion.", [], {"148510000000": "rounded"}),
        ({"rev": 148.51}, "Revenue: $148.51 billion.", [], {"148510000000": "verbatim"}),  # as the tool wrote it
        ({"rocks": "about 1.", "next": "5 million years old"}, "Rocks up to 1.5 million years old.", [], {}),  # prose
        # refused: a figure the read number does not round to
        ({"totalRevenue": 148514996224}, "Total revenue was $148.61 billion.", ["148610000000"], {}),
        ({"rev": 148.52}, "Revenue: $148.51 billion.", ["148510000000"], {}),
    ],
)
def test_a_number_with_a_scale_word(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_a_range_of_grouped_numbers_is_the_range_of_its_ends():
    evidence = {"prices": [930, 1076, 1930, 2076]}
    assert via(judge(evidence, answer="First class ¥930-1,076")) == {"930-1076": "range"}
    assert via(judge(evidence, answer="Business ¥1,930-2,076")) == {"1930-2076": "range"}
    assert unsupported(judge(evidence, answer="First class ¥930-1,077")) == ["930-1077"]
