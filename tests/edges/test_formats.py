"""Every transcript format lowers to the same conversation: verdicts identical across formats.

The parity corpus (``shared/corpus/formats/parity``) holds 20 conversations
in 10 formats; ``expected.json`` lists each one's final answers.
"""

import json

import pytest
from conftest import SHARED, needs_shared

from grounding.core.settings import Settings
from grounding.model import JudgedAnswer, Problem, Summary
from grounding.run.runner import judge_inputs

PARITY = SHARED / "corpus" / "formats" / "parity"
FORMATS = ["openai-responses", "anthropic", "claude-code", "gemini", "bedrock-converse", "langchain",
           "pydantic-ai", "otel-genai-attributes", "openinference"]
pytestmark = needs_shared


def _paths(name: str) -> list[str]:
    if name == "claude-code":
        return sorted(str(p) for p in (PARITY / "claude-code").glob("*.jsonl"))
    return [str(PARITY / f"{name}.jsonl")]


def _verdicts(name: str) -> tuple[dict, Summary]:
    summary = Summary()
    found = {}
    expected = json.loads((PARITY / "expected.json").read_text())["conversations"]
    session_ids = {v["locate"]["claude-code"]["sessionId"]: k for k, v in expected.items() if "locate" in v}
    for event in judge_inputs(_paths(name), Settings(), summary):
        assert not isinstance(event, Problem), event
        assert isinstance(event, JudgedAnswer)
        conversation = session_ids.get(event.conversation, event.conversation)
        verdict = event.verdict
        found[(conversation, event.turn)] = (
            event.text,
            verdict.status.value,
            verdict.candidates,
            sorted(f.value for f in verdict.unsupported),
            {f.value: f.via for f in verdict.grounded_via},
        )
    return found, summary


@pytest.fixture(scope="module")
def reference():
    return _verdicts("openai-chat")[0]


def test_the_reference_format_lists_the_expected_answers(reference):
    expected = json.loads((PARITY / "expected.json").read_text())["conversations"]
    answers = {(cid, a["n"]): a["text"] for cid, conv in expected.items() for a in conv["answers"]}
    assert {key: value[0] for key, value in reference.items()} == answers


@pytest.mark.parametrize("name", FORMATS)
def test_verdicts_are_identical_to_openai_chat(name, reference):
    found, summary = _verdicts(name)
    assert summary.errors == 0
    assert found.keys() == reference.keys()
    for key, value in reference.items():
        assert found[key] == value, key
