"""The coding-agent sessions' injected twin (tools/inject_coding.py, built as dev.injected.jsonl is): one
read value of a final answer changed by one digit, a spelling found nowhere else in the session. Every one
must be flagged, and the sessions themselves must not be."""

import json

from conftest import needs_shared

from grounding.core.settings import Settings
from grounding.model import JudgedAnswer, Summary
from grounding.run.runner import judge_inputs
from tools.inject_coding import default_sessions, main

pytestmark = needs_shared


def _flagged(path) -> list[str]:
    return [finding.text for event in judge_inputs([str(path)], Settings(), Summary())
            if isinstance(event, JudgedAnswer) for finding in event.verdict.unsupported]


def test_every_injected_value_in_a_coding_answer_is_flagged(tmp_path):
    assert main([str(tmp_path)]) == 0
    made = json.loads((tmp_path / "injected.json").read_text())
    # a line number, two paths under the session's folder, a version, an issue id
    assert len(made) == 5
    for twin in made:
        flagged = _flagged(tmp_path / twin["file"])
        assert any(twin["mutated"].lower() in text.lower() for text in flagged), (twin, flagged)


def test_no_answer_of_the_coding_sessions_is_flagged():
    assert {str(path.name): _flagged(path) for path in default_sessions() if _flagged(path)} == {}
