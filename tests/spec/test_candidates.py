"""SPEC §4: which answer tokens are values, and how they are labelled."""

import pytest

from grounding.core.answer.candidates import read_answer
from grounding.core.settings import build_settings


def values(answer, **options):
    settings = build_settings(options.get("shapes"), options.get("exempt"), options.get("exempt_regex"),
                              options.get("min_digits", 4))
    return [(c.value, c.shape) for c in read_answer(answer, settings).candidates]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("892 CRC errors, 3 issues, po1, a1, B7, q3", []),  # small numbers and short ids are prose
        ("5120 and 6144 but not 512", [("5120", "number"), ("6144", "number")]),
        ("16384MB and 64GB", [("16384", "number")]),  # a number with a unit is judged on its number
        ("24/7 support, 12/24 hours", []),  # ratios are never values
        ("99/100, 3.5/5, 4.0/5.0, 120/80, 1/2/3", []),  # short parts: a rating, score or reading (§9.16)
        ("2048/4096", [("2048/4096", "identifier")]),  # a part of min_digits: a value
        ("Booking 7RTQSK", [("7rtqsk", "identifier")]),  # rtqsk is not a unit (§9.2)
        ("Code 4XGCCM", [("4xgccm", "identifier")]),
        ("48-port switch, 32g, 47th, 20/month, 100mb/s", []),  # units, under the digit bar
        ("41200iops", [("41200", "number")]),
        ("MTR-55-10492, mtr-55-10492 and 3,481.27 (3481.27)", [("mtr-55-10492", "identifier"), ("3481.27", "number")]),
        ("0xef0101 7.0.3 ucsb-b200-m5 08:15", [("0xef0101", "identifier"), ("7.0.3", "identifier"),
                                               ("ucsb-b200-m5", "identifier"), ("08:15", "identifier")]),
        ("$12.30 and 13.1 and 48.25", [("48.25", "number")]),  # decimals count; trailing zeros do not
        ("0042", [("0042", "number")]),  # zero padding counts as written
        ("Units 1100-1180 over 10-14 days", [("1100-1180", "identifier")]),  # a range is one value; 10-14 is prose
        ("Zip 94105-1234", [("94105-1234", "identifier")]),  # N >= M: not a range
        ("Monday, May 26, 2024", [("2024-05-26", "identifier")]),  # a prose date with a year is one value
        ("see you March 14", []),  # a yearless prose date is not a value
        ("5862-K", [("5862-k", "identifier")]),  # a one-letter unit may not follow a hyphen
    ],
)
def test_candidates(answer, expected):
    assert values(answer) == expected


def test_declared_shape_labels_and_needs_no_digit():
    assert values("Ticket H-88129 for team ALPHA", shapes=["hold=h-\\d{5}", "team=alpha"]) == [
        ("h-88129", "hold"), ("alpha", "team")]


def test_exempt_literal_and_pattern_are_never_candidates():
    assert values("v9.35.0 build-1234 4096MB 5555", exempt=["v9.35.0", "4096"], exempt_regex=["build-\\d+"]) == [
        ("5555", "number")]


def test_min_digits_moves_the_bar():
    assert values("port 443 and 8080", min_digits=3) == [("443", "number"), ("8080", "number")]


def test_one_value_one_candidate_keeps_first_text():
    answer = read_answer("Total $1,475.00, again 1475", build_settings())
    assert [(c.value, c.text, len(c.occurrences)) for c in answer.candidates] == [("1475", "$1,475.00", 2)]


def test_json_answer_reads_leaves_not_keys():
    # §9.5: keys are labels; number literals keep their written decimals
    answer = read_answer('{"step_3_meter": "MTR-55-10492", "kwh": 3481.270}', build_settings())
    assert [(c.value, c.text) for c in answer.candidates] == [("mtr-55-10492", "MTR-55-10492"), ("3481.27", "3481.270")]


def test_fenced_json_answer_is_json():
    answer = read_answer('```json\n{"order": "W6402718"}\n```', build_settings())
    assert answer.is_json and [c.value for c in answer.candidates] == ["w6402718"]


def test_broken_json_answer_is_text():
    answer = read_answer('{"step_1": "W6402718",}', build_settings())
    assert not answer.is_json and [c.value for c in answer.candidates] == ["step_1", "w6402718"]


@pytest.mark.parametrize(
    ("answer", "shown"),
    [
        ("It ran at :1712000000 exactly.", "1712000000"),  # a colon before a number is not the value's
        ("Dates from 2026- onward.", "2026"),  # nor a hyphen after one
        ("The ID is ORD-4471.", "ORD-4471"),  # a sentence's point, as before
        ("See order_sync_worker_test.go:40-77 for it.", "order_sync_worker_test.go:40-77"),  # never cut at "_"
    ],
)
def test_a_value_is_shown_as_the_answer_wrote_it_and_where(answer, shown):
    # issue 54: reports showed ":1712000000" and "2026-", fragments the value leaves out
    [candidate] = read_answer(answer, build_settings()).candidates
    assert candidate.text == shown and answer[candidate.at : candidate.at + len(shown)] == shown
