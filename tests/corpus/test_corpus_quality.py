"""Measured rates on the real corpus, pinned in both directions.

False accusations must not come back, and the values examined must not fall:
a change that silences the gate by looking at less fails here too. When a
rule change moves these numbers on purpose, update them and say why in the
commit.
"""

import pytest
from conftest import SHARED, needs_shared

from grounding.core.evidence.derive import CHANCE_BOUND
from grounding.core.settings import build_settings
from tools.quality import FAMILIES, measure_chance, measure_dev, measure_families, measure_injected, measure_shuffled

CORPUS = SHARED / "corpus" / "real"
pytestmark = needs_shared


@pytest.fixture(scope="module")
def dev():
    return measure_dev(CORPUS / "dev.jsonl", build_settings())


def test_dev_counts_are_pinned(dev):
    assert (dev.conversations, dev.answers, dev.final_answers) == (209, 1303, 209)
    # values examined: must not fall (2150 before §9.14 read "07:00 AM" and "07:00 PM" as two values)
    assert dev.candidates == 2157
    assert dev.final_candidates == 307
    # 26 answers before §9.19: users who asked to move a flight "to the next day" or "by one day" got the
    # date a day after the one read, in that answer and in the turns after it
    # 6 before §9.24: the $17,021 the model summed in a think call's arguments, then stated
    assert (dev.flagged_answers, dev.flagged_values) == (5, 5)
    assert dev.derived_answers == 23 and dev.examples == 0


def test_dev_no_final_answer_is_flagged(dev):
    # $17,021, flagged before §9.24: the model summed four reservations' read prices in a think call's
    # arguments ("Total cost = $402 + $306 + $308 + $16005 = $17021"), arithmetic that checks, then stated it
    assert dev.flagged_finals == []


def test_dev_routes_are_pinned(dev):
    assert dict(dev.via) == {
        "component": 14, "date-part": 568, "date-offset": 34, "derived": 2, "listed-total": 2, "masked": 7,
        "prose-date": 14, "shown-earlier": 1, "sign": 8,
    }


@pytest.mark.parametrize("derived", [True, False])
def test_every_injected_value_is_flagged(derived):
    injected = measure_injected(CORPUS / "dev.injected.jsonl", build_settings(derived=derived))
    assert injected.missed == []
    assert (injected.mutated_flagged, injected.lines) == (78, 78)


@pytest.fixture(scope="module")
def dev2():
    return measure_dev(CORPUS / "dev2.jsonl", build_settings())


def test_dev2_counts_are_pinned(dev2):
    assert (dev2.conversations, dev2.answers, dev2.final_answers) == (382, 405, 382)
    # values examined: 544 before rules 14-20. Ratings with their scale (§9.16) are no values (-7); "10K+"
    # and "800M+" say "or more" of a short number (-2); "4:30 PM" and "4:30 AM" are two values now, and
    # "$577B" is examined as 577 billion (+6); 541 before a number with a scale word is the number it scales
    # to: "₩436.58 trillion" and "436.58T" in one answer are one value now, where "436.58" and "436.58T" were
    # two (-2; no value is left unexamined: a number under min_digits as written, "1.5 million", stays prose)
    assert dev2.candidates == 539
    # 49 before: ratings, clock times, "158-year-old", "21 million", "$400.4B", "2,000+" no longer accused;
    # two years and two coincidental sums no longer explained by arithmetic (§9.20); train numbers printed
    # after an escaped line break ("\nG101") read, and journey times written 5h59m where a timetable says
    # 05:59 (210 values flagged before)
    # 176 before §9.25: "Ave/59th" (an address, "5th Ave/59th St") is a list of short parts, no value
    # 175 before dates relative to today: "next Wednesday (July 23, 2025)" after get-current-date said 2025-07-22
    # (45, 174) before unit conversions: "650 meters above sea level (approximately 2,133 feet)" after "650m"
    # (44, 173) before scale words: financial figures written "$148.51 billion" from 148514996224 read are
    # rounded now (one answer no longer flagged); (43, 158) before a range of grouped numbers ("¥930-1,076")
    # was read as the range of its ends; (42, 156) before code the answer authors held examples (a Mermaid
    # chart and a React component the model wrote: 34 values)
    # (40, 122) before dates as Chinese, Japanese and Korean write them: a calendar tool's "2025年1月15日" grounds
    # the answer's "January 15, 2025" (four false accusations in one answer, by prose-date now)
    assert (dev2.flagged_answers, dev2.flagged_values) == (39, 118)


def test_dev2_routes_are_pinned(dev2):
    assert dict(dev2.via) == {
        # §9.22 asks first for the token as written: 8 values read as a unit or a prose date before
        # ("1980s", "1080p", "158-year-old") are the tool's tokens letter for letter; "1st January 2022" is
        # a prose date again (verbatim 8, prose-date 4 before): a value of several runs is no token, and the
        # search had found it where the runs a text is cut into never did (its via hung on earlier questions)
        # date-offset 2 before dates relative to a clock tool's today ("next Wednesday", 2025-07-23)
        # derived 1 before unit conversions (2,133 feet = 650 m * 3.28084), 2 before scale words ("$104.12
        # billion" was a coincidental sum; rounded now, with 13 more: rounded 28 before); prose-date 5 before
        # CJK dates: 4 dates read from "2025年1月15日", and "2008年8月8日" examined whole (its year alone before)
        "component": 5, "composite": 1, "date-offset": 3, "date-part": 73, "derived": 1, "label": 1, "prose-date": 10,
        # range 6 before "¥930-1,076" was a range of its ends
        "range": 8, "rounded": 42, "sign": 2, "stated": 1, "unit": 6, "verbatim": 7,
    }


@pytest.mark.parametrize("derived", [True, False])
def test_every_injected_value_of_dev2_is_flagged(derived):
    injected = measure_injected(CORPUS / "dev2.injected.jsonl", build_settings(derived=derived))
    assert injected.missed == []
    assert (injected.mutated_flagged, injected.lines) == (46, 46)


@pytest.mark.parametrize(("split", "tried", "explained", "dates", "announced"),
                         [("dev", 179, 0, (270, 6), (49, 0)), ("dev2", 710, 1, (181, 1), (50, 0))])
def test_a_value_one_digit_off_is_explained_by_chance_under_one_percent(split, tried, explained, dates, announced):
    # before §9.20 the search explained 6 of dev's 179 (3.4%) and 89 of dev2's 675 (13.2%)
    chance = measure_chance(CORPUS / f"{split}.jsonl", build_settings())
    assert (chance.tried, chance.explained) == (tried, explained)
    assert chance.share < CHANCE_BOUND
    # the same values where their clause announces a computation (§9.23's wider search): a near-copy of a
    # read number is explained only where the answer writes both operands (without that refusal, dev2's
    # "3001 = 1 + 500 + 2500" beside a read 3000 was: 1 of 50)
    assert (chance.announced_tried, chance.announced_explained) == announced
    assert chance.announced_share < CHANCE_BOUND
    # a date one digit off a read date is a day after it: where a user asked for "the next day" (dev: 6 of
    # 270), such a typo passes as that day; pinned so that it does not grow unseen (dev2 tried 144 before CJK
    # dates were read whole: 37 more dates, one digit off, are tried and none is explained)
    assert (chance.dates_tried, chance.dates_explained) == dates


@pytest.mark.parametrize(("split", "one_off", "shuffled"), [("dev", 451, 307), ("dev2", 1082, 534)])
def test_each_family_of_verdict_quality_vi_explains_under_one_percent_by_chance(split, one_off, shuffled):
    # values one digit off a copied one, judged in its place; and each final answer against the next
    # conversation's evidence (shuffled operands): what chains, record operands, percentages, means and
    # dates relative to a stated today explain there is coincidence. None does on either corpus.
    for measured, tried in ((measure_families, one_off), (measure_shuffled, shuffled)):
        families = measured(CORPUS / f"{split}.jsonl", build_settings())
        assert families.tried == tried
        assert set(families.explained) == {name for name, _ in FAMILIES}
        assert all(explained / tried < CHANCE_BOUND for explained in families.explained.values())
        assert families.explained == {name: 0 for name, _ in FAMILIES}
