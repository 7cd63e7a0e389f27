"""Measured rates on the real corpus, pinned in both directions.

False accusations must not come back, and the values examined must not fall:
a change that silences the gate by looking at less fails here too. When a
rule change moves these numbers on purpose, update them and say why in the
commit.
"""

import pytest
from conftest import SHARED

from grounding.quality import measure_dev, measure_injected
from grounding.settings import build_settings

CORPUS = SHARED / "corpus" / "real"
pytestmark = pytest.mark.skipif(not (CORPUS / "dev.jsonl").exists(), reason="shared/corpus/real is not beside the repo")


@pytest.fixture(scope="module")
def dev():
    return measure_dev(CORPUS / "dev.jsonl", build_settings())


def test_dev_counts_are_pinned(dev):
    assert (dev.conversations, dev.answers, dev.final_answers) == (209, 1303, 209)
    assert dev.candidates == 2150  # values examined: must not fall
    assert dev.final_candidates == 307
    assert (dev.flagged_answers, dev.flagged_values) == (26, 40)
    assert dev.derived_answers == 2 and dev.examples == 0


def test_dev_only_the_invented_total_is_flagged_among_final_answers(dev):
    # $17,021: a sum over five reservations the model worked out in a tool call and never wrote down
    assert dev.flagged_finals == [("tau1-gpt-4o-airline/34", ["$17,021"])]


def test_dev_routes_are_pinned(dev):
    assert dict(dev.via) == {
        "component": 14, "date-part": 561, "derived": 2, "listed-total": 2, "masked": 7, "prose-date": 14, "sign": 8,
    }


@pytest.mark.parametrize("derived", [True, False])
def test_every_injected_value_is_flagged(derived):
    injected = measure_injected(CORPUS / "dev.injected.jsonl", build_settings(derived=derived))
    assert injected.missed == []
    assert (injected.mutated_flagged, injected.lines) == (78, 78)
