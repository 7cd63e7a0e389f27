"""SPEC §9 rules 14-20, one block per rule: what each now grounds, and what it still refuses."""

import pytest
from conftest import judge, unsupported, via

from grounding.core.answer.candidates import read_answer
from grounding.core.evidence import counts
from grounding.core.settings import Settings
from grounding.core.text import date_offsets


def candidates(answer: str) -> list[tuple[str, str]]:
    return [(c.value, c.text) for c in read_answer(answer, Settings()).candidates]


# §9.14 clock times in any spelling ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        ({"hours": "7:0-15:30"}, "Open 7:00 AM to 3:30 PM.", [], {"7:00am": "date-part", "3:30pm": "date-part"}),
        ({"hours": "12:0-19:0"}, "from 12:00 to 19:00", [], {"12:00": "date-part", "19:00": "date-part"}),
        ({"slot": "15:30:00"}, "closes at 3:30", [], {"3:30": "date-part"}),  # no am/pm: either half
        ({"at": "7:5"}, "at 07:05", [], {"07:05": "date-part"}),  # one-digit minutes
        ({"lunch": "noon"}, "lunch at 12:00 PM", [], {"12:00pm": "date-part"}),
        # refused: another time, the other half of the day, midnight for noon
        ({"hours": "8:0-15:30"}, "opens 8:15 AM", ["8:15am"], {}),
        ({"table": "T-4471", "at": "08:00", "last_seating": "22:00"}, "T-4471 at 8:00 PM", ["8:00pm"], {}),
        ({"t": "2024-05-14T16:03:16Z"}, "at 4:03am", ["4:03am"], {}),
        ({"lunch": "noon"}, "at 12:00 AM", ["12:00am"], {}),
    ],
)
def test_clock_times_in_any_spelling(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_a_time_with_its_meridiem_is_one_value_shown_as_written():
    assert candidates("Open 7:00 AM, 7:00 p.m. and 19:00:00.") == [("7:00am", "7:00 AM"), ("7:00pm", "7:00 p.m"),
                                                                   ("19:00", "19:00:00")]


def test_a_time_with_seconds_of_zero_is_its_minute_and_the_users_7_am_grounds_it():
    assert unsupported(judge({"room": "R-2208"}, answer="Room R-2208 from 07:00:00.", user="from 7 am")) == []
    assert unsupported(judge({"room": "R-2208"}, answer="Room R-2208 from 07:00:30.", user="from 7 am")) == ["07:00:30"]


def test_a_time_without_a_colon_stays_prose():
    assert candidates("Open till 9pm, from noon, at 7") == []


# §9.15 ranges of times and dates -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        ({"start": "09:00", "end": "09:30"}, "09:00-09:30: Standup", [], {"09:00-09:30": "range"}),
        ({"in": "2025-03-07", "out": "2025-03-08"}, "2025-03-07/08", [], {"2025-03-07/08": "range"}),
        ({"in": "2025-03-07", "out": "2025-03-08"}, "2025-03-07/2025-03-08", [], {"2025-03-07/2025-03-08": "range"}),
        ({"h": "10:30-19:30"}, "until 19:30", [], {"19:30": "date-part"}),  # an end, not a UTC offset
        ({"stay": "2025-03-07/08"}, "leaving 2025-03-08", [], {"2025-03-08": "date-part"}),
        # refused: one end no result holds
        ({"start": "09:00", "end": "09:30"}, "09:00-09:45: Standup", ["09:00-09:45"], {}),
        ({"in": "2025-03-07", "out": "2025-03-08"}, "2025-03-07/09", ["2025-03-07/09"], {}),
        ({"h": "10:30-19:30"}, "until 19:45", ["19:45"], {}),
    ],
)
def test_ranges_of_times_and_dates(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_after_seconds_a_minus_starts_a_utc_offset():
    # 16:03:16-05:00 is one time with its offset: 05:00 is not read as a time of its own
    assert unsupported(judge({"t": "16:03:16-05:00"}, answer="at 05:00")) == ["05:00"]


# §9.16 ratings, scores and readings ----------------------------------------------------------------------
def test_ratings_and_readings_are_prose():
    assert candidates("Rating 4.0/5.0, 3.5/5, 7/10, BP 120/80, 3/4 full, 1/2/3") == []


def test_a_part_of_min_digits_or_with_letters_keeps_a_slash_token_a_value():
    assert candidates("2048/4096 and fc1/9") == [("2048/4096", "2048/4096"), ("fc1/9", "fc1/9")]
    assert unsupported(judge({"port": "fc1/3"}, answer="fc1/9")) == ["fc1/9"]


# §9.17 numbers with words --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported"),
    [
        ("aged 21, born in the 17th century", "a 21-year-old, 17th-century manor", []),
        ({"length_miles": 1000}, "a 1000-mile route", []),
        ("a 158-year-old oak", "the 158-year-old oak", []),
        # refused: the number no result holds, and letters first (an identifier)
        ({"length_miles": 1000}, "a 1200-mile route", ["1200"]),
        ("a 158-year-old oak", "the 188-year-old oak", ["188"]),
        ({"rma": "RMA-40213"}, "RMA-40218", ["rma-40218"]),
    ],
)
def test_numbers_with_words(evidence, answer, expected_unsupported):
    assert unsupported(judge(evidence, answer=answer)) == expected_unsupported


def test_a_number_with_words_is_examined_whatever_its_length():
    # (a deliberate reading: a short number with words is a claim, so an invented age is still caught)
    assert candidates("a 21-year-old") == [("21", "21-year-old")]
    assert candidates("bay 12-k") == [("12-k", "12-k")]  # one letter: §9.2's business, an identifier


# §9.18 every number the evidence spells is an operand ---------------------------------------------------
def test_numbers_inside_strings_are_operands():
    verdict = judge({"hotel": "H-51", "price": "Price range: 180.0 - 500.0", "stay": "3 nights"}, answer="$1500")
    assert via(verdict) == {"1500": "derived"}
    assert verdict.grounded_via[0].formula == "1500 = 3 * 500"


def test_a_python_repr_results_numbers_are_operands():
    verdict = judge("{'fare': 634, 'note': 'for 3 passengers'}", answer="$1,902 in all")
    assert via(verdict) == {"1902": "derived"}


def test_a_short_result_the_answer_computed_is_an_operand_later():
    verdict = judge({"rate": 105, "b": 2900, "c": 64},
                    answer="3 nights × €105 = €315 and 10 × €64 = €640, so €315 + €2900 + €640 = €3855")
    assert via(verdict) == {"3855": "stated"}


def test_a_result_followed_by_its_computation_in_brackets_is_stated():
    spent = "rent 3,000, meals 2,500, transport 500, shopping 1,200"
    verdict = judge({"ok": True}, answer="Total expenses: 7,200 CNY (3,000 rent + 2,500 meals + 500 transport + "
                                         "1,200 shopping)", user=spent)
    assert via(verdict) == {"7200": "stated"}
    wrong = judge({"ok": True}, answer="Total: 7,300 CNY (3,000 rent + 2,500 meals + 500 transport + 1,200 shopping)",
                  user="rent 3,000, meals 2,500, transport 500, shopping 1,200")
    assert unsupported(wrong) == ["7300"]


# §9.19 computed dates ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("evidence", "answer", "user", "expected_unsupported", "formula"),
    [
        ({"flight": "2025-03-07"}, "The day after your flight, 2025-03-08.", "Move it.", [],
         "2025-03-08 = 2025-03-07 + 1 day"),
        ({"flight": "2025-03-07"}, "Moved to 2025-03-08.", "Shift it to the next day.", [],
         "2025-03-08 = 2025-03-07 + 1 day"),
        ({"flight": "2025-03-07"}, "Two weeks later: 2025-03-21.", "Move it.", [], "2025-03-21 = 2025-03-07 + 14 days"),
        ({"flight": "2025-03-07"}, "The day before, March 6, 2025.", "Move it.", [], "2025-03-06 = 2025-03-07 - 1 day"),
        # refused: no offset stated, an offset that does not lead there, a weekday name
        ({"flight": "2025-03-07"}, "Moved to 2025-03-09.", "Move it.", ["2025-03-09"], None),
        ({"flight": "2025-03-07"}, "The next day, 2025-03-09.", "Move it.", ["2025-03-09"], None),
        ({"flight": "2025-03-07"}, "Next Wednesday, 2025-03-12.", "Move it.", ["2025-03-12"], None),
    ],
)
def test_computed_dates(evidence, answer, user, expected_unsupported, formula):
    verdict = judge(evidence, answer=answer, user=user)
    assert unsupported(verdict) == expected_unsupported
    assert [f.formula for f in verdict.grounded_via if f.via == "date-offset"] == ([formula] if formula else [])


def test_tomorrow_counts_from_the_date_a_system_prompt_states():
    verdict = judge({"ok": True}, answer="Tomorrow (2025-03-08) works.", system="Today is 2025-03-07.")
    assert via(verdict) == {"2025-03-08": "date-offset"} and verdict.status.value == "derived"


def test_no_derived_turns_computed_dates_off():
    assert unsupported(judge({"flight": "2025-03-07"}, answer="The day after, 2025-03-08.", derived=False)) == [
        "2025-03-08"]


def test_offsets_are_read_as_stated():
    assert date_offsets.stated_offsets("in 3 days, a week earlier, tomorrow") == {3, -7, 1}
    assert date_offsets.stated_offsets("on Monday, next week's plan") == set()


# §9.20 a derivation must beat coincidence ----------------------------------------------------------------
def test_a_multiple_needs_its_factor_stated_as_a_count():
    assert unsupported(judge({"sku": "SKU-880", "price": 300}, answer="Total $2,700.")) == ["2700"]
    assert via(judge({"sku": "SKU-880", "price": 300, "quantity": 9}, answer="Total $2,700.")) == {"2700": "derived"}
    assert via(judge({"price": 300}, answer="Total $2,700.", user="for 9 guests")) == {"2700": "derived"}


def test_a_year_is_never_explained_by_arithmetic():
    assert unsupported(judge({"opened": 1974, "age": 12}, answer="It was founded in 1962.")) == ["1962"]
    assert via(judge({"a": 1500, "b": 462}, answer="Together $1,962.")) == {"1962": "derived"}  # an amount


def test_a_coincidental_sum_among_many_read_numbers_is_refused():
    fares = "Fares: " + ", ".join(str(v) for v in range(1003, 1400, 7))
    assert unsupported(judge(fares, answer="The business fare is 2338.")) == ["2338"]
    assert via(judge("Fares: 1003, 1335", answer="The two fares total 2338.")) == {"2338": "derived"}


def test_operands_the_answer_names_beat_chance_where_everything_read_cannot():
    flights = [{"flight": f"HAT{n:03d}", "price": 100 + 37 * n} for n in range(60)]
    refund = {"payment": 2787}
    answer = "You paid $2,787; the new fare is $243, so the refund is $2,544."
    verdict = judge({"flights": flights}, refund, {"fare": 243}, answer=answer)
    assert via(verdict) == {"2544": "derived"} and verdict.grounded_via[0].formula == "2544 = 2787 - 243"


def test_counts_are_read_from_text_and_documents():
    assert counts.counts_in_text("3 passengers, two adult tickets, qty: 4, 5x") == {2, 3, 4, 5}
    assert counts.counts_in_text("flight 7 at gate 12") == set()
    assert counts.counts_in_document({"nights": 3, "guests": [{"n": "a"}, {"n": "b"}], "rate": 9}) == {2, 3}


# readings of real tool output the rules met on the way -----------------------------------------------------
def test_a_document_printed_inside_a_tools_text_is_read_past_its_escapes():
    # MCP servers print a document's text into a repr: its line breaks are "\n", glued to the next token
    printed = (r"meta=None content=[TextContent(type='text', "
               r"text='Trains\nG101(train_no: 240000G1011G) 06:10\nG103 07:25')]")
    assert unsupported(judge(printed, answer="Take G101 or G103, not G105.")) == ["g105"]


def test_a_duration_in_hours_and_minutes_is_read_as_a_timetable_writes_it():
    timetable = "G101 06:10 -> 12:09 历时：05:59"
    assert unsupported(judge(timetable, answer="G101 takes 5h59m, then 4h29m.")) == ["4:29"]
    assert unsupported(judge("journey 5h59m", answer="It takes 05:59.")) == []
