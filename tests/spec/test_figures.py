"""The figures setting (issue 53, point 4): numbers with a unit of measure, a percent sign or a scale word
are values at any length, checked against read numbers, their conversions and the derivations of §9.7; off
by default, where the seed's default stands (a figure under the digit bar is prose)."""

import json

import pytest

import grounding

FIGURES = grounding.Options(figures=True)


def judged(evidence, answer, options=FIGURES):
    return grounding.check_answer([{"role": "tool", "content": json.dumps(evidence)}], answer, options)


def flagged(evidence, answer, options=FIGURES):
    return [finding.text for finding in judged(evidence, answer, options).unsupported]


ARRAY = {"used_tb": 24.8, "total_tb": 31.1}


def test_off_by_default_a_figure_under_the_digit_bar_is_prose():
    verdict = judged(ARRAY, "The array is 53.2% used with 6.3 TB free.", grounding.Options())
    assert verdict.candidates == 0


def test_a_percentage_and_a_size_are_examined_and_a_difference_read_derives_one():
    verdict = judged(ARRAY, "The array is 53.2% used with 6.3 TB free.")
    assert [f.text for f in verdict.unsupported] == ["53.2%"]  # invented: 24.8 / 31.1 is 79.7%
    assert [(f.text, f.formula) for f in verdict.grounded_via] == [("6.3 TB", "6.3 = 31.1 - 24.8")]


@pytest.mark.parametrize(
    ("evidence", "answer"),
    [
        ({"revenue": 50000000}, "Revenue was $50 million."),  # a scale word: the magnitude
        ({"revenue": 54987000}, "Revenue was $55 million."),  # rounded at the precision written
        ({"revenue": 55000000}, "Revenue was $55M."),  # a currency amount glued to a scale letter
        ({"revenue": 5000000}, "Umsatz: 5 Mio. Euro."),  # another language's scale word
        ({"revenue": 4500000}, "Total: 45 lakh rupees."),
        ({"share": 0.532}, "It is 53.2% used."),  # percent from a fraction read
        ({"took_s": 1.2}, "It took 1200 ms."),  # a unit of time converted
        ({"latency_ms": 120}, "Latency is 120 ms."),
        ({"height_m": 650}, "It stands at 650 m (about 2,133 feet)."),  # a conversion with its unit in its text
        ({"var_pct": 1.57}, "VaR: 1,57 % al día."),  # a decimal comma before the percent sign: one number
    ],
)
def test_a_figure_read_converted_or_rounded_is_grounded(evidence, answer):
    assert flagged(evidence, answer) == []


@pytest.mark.parametrize(
    ("evidence", "answer", "reported"),
    [
        ({"revenue": 50000000}, "Revenue was $55 million.", ["$55 million"]),  # an invented magnitude
        ({"revenue": 50000000}, "Revenue was $55M.", ["$55M"]),
        ({"revenue": 5000000}, "Umsatz: 7 Mio. Euro.", ["7 Mio"]),
        ({"latency_ms": 120}, "Latency is 120 ms and 45% CPU.", ["45%"]),
        ({"share": 0.532}, "It is 53.9% used.", ["53.9%"]),  # a read fraction with a digit changed
        ({"var_pct": 1.57}, "VaR: 1,67 % al día.", ["1,67 %"]),  # (its piece "67 %" was a figure of its own)
    ],
)
def test_an_invented_figure_is_flagged_as_written(evidence, answer, reported):
    assert flagged(evidence, answer) == reported


def test_a_count_of_things_and_a_bare_number_stay_under_the_digit_bar():
    assert judged({"x": 1}, "We had 3 issues in 47 rooms over 12 steps.").candidates == 0
    # min-digits examines counts where a team wants it (182 visits where the days read sum to 149)
    days = {"visits_by_day": [40, 52, 57]}
    assert flagged(days, "182 visits from social media.", grounding.Options(figures=True, min_digits=3)) == ["182"]


def test_a_number_a_decimal_comma_cut_is_read_whole_before_a_scale_word():
    # "1,5 Millionen" is 1.5 million, written to the hundred thousand; its "5" alone is not five million
    assert flagged({"age": 1500000}, "Die Felsen sind 1,5 Millionen Jahre alt.") == []
    assert flagged({"age": 1540000}, "Die Felsen sind 1,5 Millionen Jahre alt.") == []  # rounded
    assert flagged({"age": 1700000}, "Die Felsen sind 1,5 Millionen Jahre alt.") == ["1,5 Millionen"]
    assert flagged({"age": 5000000}, "Die Felsen sind 1,5 Millionen Jahre alt.") == ["1,5 Millionen"]


@pytest.mark.parametrize(
    ("answer", "reported"),
    [
        ("182 visits from social media.", ["182"]),  # the days read sum to 149: an invented aggregate
        ("149 visits from social media.", []),  # derived: the days' total
        ("52 visits on Tuesday, 3 issues.", ["3"]),  # a read count grounds; one read nowhere is flagged
        ("Step 3 shows 149 visits in 2 of the days.", []),  # no counted noun after 3 or 2: prose
        ("It took 3 days and 120 ms.", []),  # a duration and a measure are figures, not counts
    ],
)
def test_count_min_digits_examines_the_counts_a_team_asks_for_and_no_other_short_number(answer, reported):
    days = {"visits_by_day": [40, 52, 57]}
    assert flagged(days, answer, grounding.Options(count_min_digits=1)) == reported
    assert judged(days, answer, grounding.Options()).candidates <= 1  # by default counts stay prose


def test_count_min_digits_never_examines_less_than_min_digits():
    days = {"visits_by_day": [40, 52, 57]}
    answer = "1820 visits and 182 visits."
    assert flagged(days, answer, grounding.Options(count_min_digits=6)) == ["1820"]  # min-digits' bar still holds
    assert flagged(days, answer, grounding.Options(count_min_digits=3, exempt=["182"])) == ["1820"]
