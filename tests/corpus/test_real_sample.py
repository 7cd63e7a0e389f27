"""Pinned figures on the in-repository sample of real transcripts (tests/data/real), in both directions, so a
fresh clone measures real data too: answers accused and values examined, and every injected value caught
with the derived search on and off. The full corpora's figures are tests/test_corpus_quality.py's."""

import pytest
from conftest import SAMPLE

from grounding.core.settings import build_settings
from tools.quality import measure_dev, measure_injected


@pytest.fixture(scope="module")
def sample():
    return measure_dev(SAMPLE / "sample.jsonl", build_settings())


def test_the_sample_s_counts_are_pinned(sample):
    assert (sample.conversations, sample.answers, sample.final_answers) == (18, 47, 18)
    assert (sample.candidates, sample.final_candidates) == (77, 33)  # values examined: must not fall
    assert (sample.flagged_answers, sample.flagged_values, sample.derived_answers) == (0, 0, 0)


def test_the_sample_s_routes_are_pinned(sample):
    assert dict(sample.via) == {"component": 1, "date-part": 9}


@pytest.mark.parametrize("derived", [True, False])
def test_every_injected_value_of_the_sample_is_flagged(derived):
    injected = measure_injected(SAMPLE / "sample.injected.jsonl", build_settings(derived=derived))
    assert injected.missed == [] and (injected.mutated_flagged, injected.lines) == (18, 18)
