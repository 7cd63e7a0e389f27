"""SPEC §9 rules 9–13: arithmetic the answer shows, prose dates, masks, examples, composites."""

import pytest
from conftest import judge, unsupported, via

CHARGES = {"line": "MOB-66120", "line_rental": 318, "roaming": 274, "device_instalment": 509}


# §9.9 arithmetic the answer shows
@pytest.mark.parametrize(
    ("results", "answer", "user", "expected_unsupported", "expected_via"),
    [
        ([CHARGES], "$318 + $274 + $509 = $1,101", None, [], {"1101": "stated"}),
        ([CHARGES], "$318 + $274 + $509 = $1,111", None, ["1111"], {}),  # wrong arithmetic
        ([{"total": 2040}], "$2,040 + insurance $135 = $2,175", None, ["2175"], {}),  # $135 read nowhere
        ([{"total": 2040}], "$2,040 - $300 = $1,740", "I have a $300 voucher", [], {"1740": "stated"}),
        ([{"a": 1215, "b": 95}], "$1,215 + $95 = $1,310 per driver × 2 = $2,620", None, [],
         {"1310": "stated", "2620": "stated"}),
        ([{"a": 960, "b": 125}], "$960 + $125 = $1,085 per month, so $3,255 for 3 months", None, [],
         {"1085": "stated", "3255": "stated"}),
        # refuted: §9.7 may not use 2000 + 571 for a value whose written equation fails
        ([{"x": 2000, "y": 571, "a": 1734, "b": 827}], "$1,734 + $827 = $2,571", None, ["2571"], {}),
        ([{"fare": 634}], "$634 per passenger, $1,902 for 3 passengers", None, [], {"1902": "stated"}),
        ([{"price": 2183.6}], "$2,183.60 + $200 = $2,384", "add the $200 upgrade", [], {"2384": "stated"}),
    ],
)
def test_stated(results, answer, user, expected_unsupported, expected_via):
    verdict = judge(*results, answer=answer, **({"user": user} if user else {}))
    assert unsupported(verdict) == expected_unsupported
    assert {k: v for k, v in via(verdict).items() if v in ("stated", "listed-total")} == expected_via


def test_stated_formula_is_shown():
    verdict = judge(CHARGES, answer="$318 + $274 + $509 = $1,101")
    assert verdict.grounded_via[0].formula == "1101 = 318 + 274 + 509"
    assert verdict.status.value == "derived"


def test_operand_under_min_digits_must_still_be_read():
    assert unsupported(judge({"total": 2040}, answer="$2,040 + $135 = $2,175")) == ["2175"]


def test_listed_total_below_a_list():
    answer = "- V-5501: $842.15\n- V-5502: $319.40\n- V-5503: $207.65\n\nTotal due: $1,369.20"
    verdict = judge({"v": [842.15, 319.4, 207.65], "ids": ["V-5501", "V-5502", "V-5503"]}, answer=answer)
    assert via(verdict) == {"1369.2": "listed-total"} and unsupported(verdict) == []


def test_listed_total_that_does_not_add_up_is_flagged():
    answer = "- V-5501: $842.15\n- V-5502: $319.40\n- V-5503: $207.65\n\nTotal due: $1,396.20"
    assert unsupported(judge({"v": [842.15, 319.4, 207.65], "ids": ["V-5501", "V-5502", "V-5503"]}, answer=answer)) == ["1396.2"]


def test_listed_total_on_one_line():
    verdict = judge(CHARGES, answer="Rental $318, roaming $274, device $509, total $1,101")
    assert via(verdict) == {"1101": "listed-total"}


def test_bold_label_is_not_a_mask_and_total_is_listed():
    answer = "Business prices per passenger:\n- $297\n- $385\n- $416\n**Total:** $1,098"
    verdict = judge({"p": [297, 385, 416], "q": 1}, answer=answer)
    assert via(verdict) == {"1098": "listed-total"}


# §9.10 dates in prose
@pytest.mark.parametrize(
    ("evidence", "answer", "user", "system", "expected_unsupported", "expected_via"),
    [
        ({"pickup": "2027-07-09"}, "July 9, 2027", None, None, [], {}),
        ({"pickup": "2027-07-09"}, "July 10, 2027", None, None, ["2027-07-10"], {}),
        ({"x": 1}, "2027-07-09", "on July 9?", "Today is 2027-06-30.", [], {"2027-07-09": "prose-date"}),
        ({"x": 1}, "2027-07-09", "on July 9?", None, ["2027-07-09"], {}),  # no year anywhere
        ("Departs 23 October 2026", "2026-10-23", None, None, [], {"2026-10-23": "prose-date"}),
        # a month name with the punctuation after it ("October," as the text's run is cut) was never tried
        ("Departs 23 October, 2026", "2026-10-23", None, None, [], {"2026-10-23": "prose-date"}),
        ("Departs 23 Oct., 2026", "2026-10-23", None, None, [], {"2026-10-23": "prose-date"}),
        ("Departs 23 October, 2026", "2026-10-24", None, None, ["2026-10-24"], {}),
        ({"d": "2025-10-23"}, "2026-10-23", None, None, ["2026-10-23"], {}),  # another year lends no month-day
    ],
)
def test_prose_dates(evidence, answer, user, system, expected_unsupported, expected_via):
    kwargs = {k: v for k, v in (("user", user), ("system", system)) if v}
    verdict = judge(evidence, answer=answer, **kwargs)
    assert unsupported(verdict) == expected_unsupported
    assert {k: v for k, v in via(verdict).items() if k in expected_via} == expected_via


def test_prose_date_matched_shows_month_day_and_year():
    verdict = judge({"x": 1}, answer="2027-07-09", user="on July 9?", system="Today is 2027-06-30.")
    assert verdict.grounded_via[-1].matched == "07-09 (prose) + 2027"


# §9.11 masked values
@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        ({"pm": "paypal_5517720"}, "PayPal account ending in 7720", [], {"7720": "masked"}),
        ({"card": "card_0093318"}, "card ••••3318", [], {"3318": "masked"}),
        ({"pm": "paypal_5517720"}, "ending in 7729", ["7729"], {}),
        ({"x": 193}, "Mastercard ending in 2316", ["2316"], {}),  # never 12 × 193
        ({"id": "9006825"}, "**6825** points", ["6825"], {}),  # bold, not a mask
        ({"acct": "ACCT-55512847"}, "XXXX-XXXX-2847", [], {"xxxx-xxxx-2847": "masked"}),
        ({"amount": 1234.5}, "ending in 4.5", [], {}),  # under the bar: not a candidate at all
    ],
)
def test_masked(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_a_value_also_written_plainly_is_a_claim():
    assert unsupported(judge({"pm": "paypal_5517720"}, answer="ending in 7720; you have 7720 points")) == ["7720"]


def test_masked_tail_never_matches_an_amount():
    assert unsupported(judge({"amount": 12847.5}, answer="card ending in 8475")) == ["8475"]


# §9.12 examples are not claims
@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_examples"),
    [
        ({"x": 1}, "Quote it (e.g., #R0000000)", [], ["r0000000"]),
        ({"x": 1}, "for example “CASE-40017”", [], ["case-40017"]),
        ({"case": "CASE-51120"}, "Open cases such as CASE-40017", ["case-40017"], []),  # unquoted: a claim
        ({"case": "CASE-51120"}, "cases such as “CASE-40017”.", [], ["case-40017"]),
        ({"x": 1}, "for example, 30309 or 30312", [], ["30309", "30312"]),
        ({"rating": "IP66"}, "e.g. IP6500", [], ["ip6500"]),
        ({"hats": ["HAT035", "HAT066"]}, "(e.g., HAT035+HAT096)", ["hat035+hat096"], []),  # a neighbour of HAT066
        ({"d": "2024-05-26"}, "e.g. 2024-05-27", ["2024-05-27"], []),
        ({"x": 1}, "it looks like M05KNL is yours", ["m05knl"], []),  # not a trigger
        ({"x": 1}, "Your reference looks like Q1234567", [], ["q1234567"]),  # a placeholder needs no trigger
        ({"x": 1}, "Order ORD-77777 is on its way", ["ord-77777"], []),  # short runs are claims
    ],
)
def test_examples(evidence, answer, expected_unsupported, expected_examples):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported
    assert sorted(f.value for f in verdict.examples) == expected_examples


def test_examples_never_change_the_status():
    assert judge({"x": 1}, answer="e.g. #R0000000").status.value == "grounded"


# §9.13 composites
@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        ({"a": "TRK-5501", "b": "TRK-5502"}, "TRK-5501+TRK-5502", [], {"trk-5501+trk-5502": "composite"}),
        ({"a": "TRK-5501", "b": "TRK-5502"}, "TRK-5501+TRK-5509", ["trk-5501+trk-5509"], {}),
        ({"p": "ge1/3"}, "ge1/7", ["ge1/7"], {}),  # parts that are no values never ground the whole
        ({"a": "HAT035", "b": "HAT066"}, "HAT035/HAT066", [], {"hat035/hat066": "composite"}),
        ({"p": ["fc1/3", "fc1/9x"]}, "fc1/9", ["fc1/9"], {}),
    ],
)
def test_composites(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_composite_matched_parts():
    verdict = judge({"a": "HAT035", "b": "HAT066"}, answer="HAT035/HAT066")
    assert verdict.grounded_via[0].matched == "hat035 / hat066"
