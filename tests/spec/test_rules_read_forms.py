"""SPEC §9 rules 1–8: each pins what it now grounds and what it still refuses."""

import pytest
from conftest import judge, unsupported, via


# §9.1 dates and times are read in parts
@pytest.mark.parametrize(
    ("evidence", "answer", "expected_via", "expected_unsupported", "user"),
    [
        ({"eta": "2027-07-04T16:20:00Z"}, "2027-07-04 at 16:20", {"2027-07-04": "date-part", "16:20": "date-part"}, [], None),
        ({"eta": "2027-07-04T16:20:00Z"}, "July 4, 2027 around 4:20 PM", {"4:20pm": "date-part"}, [], None),
        ({"eta": "2027-07-04T16:20:00Z"}, "2027-07-05", {}, ["2027-07-05"], None),
        ({"t": "2024-05-14T16:03:16Z"}, "at 4:03am", {}, ["4:03am"], None),  # never the wrong meridiem
        ({"t": "2024-05-14T16:03:16Z"}, "at 4:03pm", {"4:03pm": "date-part"}, [], None),
        ({"slot": "15:30:00"}, "15:30 or 3:00", {"15:30": "date-part", "3:00": "date-part"}, [], "after 3pm"),
        ({"dep": "03:00:00+1"}, "03:00+1", {"03:00+1": "date-part"}, [], None),  # a day marker stays glued
        ({"d": "2024-05-20"}, "in 2024", {"2024": "date-part"}, [], None),
    ],
)
def test_dates_and_times_in_parts(evidence, answer, expected_via, expected_unsupported, user):
    verdict = judge(evidence, answer=answer, **({"user": user} if user else {}))
    assert unsupported(verdict) == expected_unsupported
    assert {k: v for k, v in via(verdict).items() if k in expected_via} == expected_via


def test_an_invalid_date_is_not_a_date():
    # not a date, so it is cut into components like any identifier; a valid one lends its year as a date part
    assert via(judge({"d": "2024-13-20"}, answer="year 2024")) == {"2024": "component"}


# §9.2 units are units
@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        ({"capacity": "2500l"}, "2500 liters", [], {"2500": "unit"}),
        ({"mem_mb": 16384}, "Memory 16384MB, swap 2560MB", ["2560"], {}),
        ({"annual_usd": 2499}, "$2,499/yr", [], {}),
        ({"booking": "7RTQ5K"}, "Booking 7RTQSK", ["7rtqsk"], {}),  # a tail that is no unit is examined
    ],
)
def test_units(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


# §9.3 rounding and sign are presentation
@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        ({"kwh": 3481.2700000000004}, "3,481.27", [], {"3481.27": "rounded"}),
        ({"x": 1093.448}, "1,093.44", ["1093.44"], {}),  # it rounds to 1093.45
        ({"balance_change": -1840.5}, "$1,840.50", [], {"1840.5": "sign"}),
        ({"total": 1117.4999999999998}, "$1,117.50", [], {"1117.5": "rounded"}),
        ({"w": 2183.6}, "$2,184", [], {"2184": "rounded"}),  # zero decimals count
        ({"w": 2183.6}, "$2,183", ["2183"], {}),
        ({"w": 48.259}, "48.25", ["48.25"], {}),  # cutting digits is not rounding
        ({"refund": 3120}, "-$3,120", [], {"-3120": "sign"}),
    ],
)
def test_rounding_and_sign(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


# §9.4 components of identifiers
@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        ({"pm": "paypal_7702915"}, "PayPal 7702915", [], {"7702915": "component"}),
        ({"gc": "gift_card_5086243"}, "gift card_5086243", [], {"card_5086243": "component"}),
        ({"t": "TCK-550912"}, "TCK-550912-R1", ["tck-550912-r1"], {}),  # the answer's suffix is its own
        ({"o": "ORD-58214-B"}, "ORD-58214", ["ord-58214"], {}),  # a run that drops the end is not a part
        ({"w": "2183.6"}, "2183", ["2183"], {}),  # a number is not cut at its point
        ({"c": "certificate_7504069"}, "Certificate 7504069", [], {"7504069": "component"}),
    ],
)
def test_components(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


# §9.6 failed lookups do not launder
@pytest.mark.parametrize(
    ("arguments", "result", "answer", "expected_unsupported"),
    [
        ({"vm": "vm-prd-app-0399"}, {"error": "no vm named vm-prd-app-0399"}, "vm-prd-app-0399", ["vm-prd-app-0399"]),
        ({"hold": "H-88130"}, {"search": "H-88130", "matches": []}, "H-88130", ["h-88130"]),  # empty result
        ({"flight": "HAT123"}, {"error": "HAT123 full", "alternatives": ["HAT125", "HAT123"]}, "HAT125 not HAT123", ["hat123"]),
        ({"order": "W1234888"}, {"error": "", "response": "order W1234888 shipped"}, "W1234888", []),  # no failure
        ({"flight": "HAT123"}, "Error: flight HAT123 not available", "HAT123", ["hat123"]),
        ({"flight": "HAT123"}, "Errors: none for HAT123", "HAT123", []),  # "Errors:" is not the word error
        ({"date": "2026-10-25"}, "Error: no flights on October 25, 2026", "2026-10-25", ["2026-10-25"]),
    ],
)
def test_failed_lookups(arguments, result, answer, expected_unsupported):
    assert unsupported(judge(result, answer=answer, arguments=arguments)) == expected_unsupported


def test_failed_lookup_with_is_error_keeps_what_it_says_beyond_the_arguments():
    import json

    from conftest import verdict_of
    record = {"id": "t", "messages": [
        {"role": "user", "content": "meter?"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "tu1", "name": "f", "input": {"meter": "MTR-55-10477"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "tu1", "is_error": True,
                                      "content": "meter MTR-55-10477 unknown to head-end HE-03"}]},
        {"role": "assistant", "content": "MTR-55-10477 is unknown to HE-03"}]}
    assert json.dumps(unsupported(verdict_of(record))) == '["mtr-55-10477"]'


# §9.7 derived values are shown, not hidden
@pytest.mark.parametrize(
    ("results", "answer", "expected_unsupported", "expected_via"),
    [
        ([{"amount": 845.12}, {"amount": 1209.4}], "$2,054.52", [], {"2054.52": "derived"}),
        ([{"unit_price": 287.5, "qty": 4}], "$1,150.00", [], {"1150": "derived"}),  # qty states the count
        ([{"total": 2054.52, "rounding": 0.4}], "$2,054.92", ["2054.92"], {}),  # one character off: a typo
        ([{"fare": "634", "seats": "3 seats"}], "$1,902", [], {"1902": "derived"}),  # a string's number (§9.18)
        ([{"fare": 634}], "$1,902", ["1902"], {}),  # 3 × 634, but no count of 3 is stated (§9.20)
        (["fare 634usd for 3 passengers"], "$1,902", [], {"1902": "derived"}),
        ([{"prices": [{"price": 2318}, {"price": 1953}]}], "4271", [], {"4271": "derived"}),  # a collection total
    ],
)
def test_derived(results, answer, expected_unsupported, expected_via):
    verdict = judge(*results, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_derived_formula_is_shown_and_status_is_derived():
    verdict = judge({"amount": 845.12}, {"amount": 1209.4}, answer="$2,054.52")
    assert verdict.status.value == "derived"
    assert verdict.grounded_via[0].formula == "2054.52 = 1209.4 + 845.12"


def test_no_derived_turns_the_rule_off():
    assert unsupported(judge({"amount": 845.12}, {"amount": 1209.4}, answer="$2,054.52", derived=False)) == ["2054.52"]


def test_operands_never_come_from_user_text():
    assert unsupported(judge({"fare": 634}, answer="3171", user="I have 2537 points")) == ["3171"]


# §9.8 tokens, repaired
@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        ({"from_unit": 1100, "to_unit": 1180}, "Units 1100-1180", [], {"1100-1180": "range"}),
        ({"from_unit": 1100, "to_unit": 1180}, "Units 1100-1200", ["1100-1200"], {}),
        ({"site": "Łódź-12"}, "Łódź-14", ["łódź-14"], {}),
        ({"reading": 3481}, "۳۴۸۱", [], {}),
        ({"holds": [88120]}, "Holds 88120,88125", ["88125"], {}),
        ({"esx-r07-u22 (maintenance)": True}, "esx-r07-u22", [], {}),  # keys are tokenised
        ({"dock": 27}, "dock 00027", [], {}),  # zero padding matches its canonical number
        ({"busy": ["0041"]}, "0042", ["0042"], {}),
    ],
)
def test_tokens_repaired(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_shapes_and_exempt_patterns_ignore_case():
    verdict = judge({"x": 1}, answer="H-88129 and BUILD-77", shapes=["hold=H-\\d{5}"], exempt_regex=["build-\\d+"])
    assert [(f.value, f.shape) for f in verdict.unsupported] == [("h-88129", "hold")]


def test_exempt_literal_covers_its_number_with_a_unit():
    assert judge({"x": 1}, answer="4096MB", exempt=["4096"]).candidates == 0
