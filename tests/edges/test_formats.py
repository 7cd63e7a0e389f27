"""Every transcript format lowers to the same conversation: verdicts identical across formats.

The parity corpus (``shared/corpus/formats/parity``) holds 20 conversations
in 10 formats; ``expected.json`` lists each one's final answers.
"""

import json

import pytest
from conftest import SHARED, needs_shared

import grounding
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


def _claude_records(path, records):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(record) + "\n" for record in records))


@pytest.mark.parametrize("jobs", [1, 2, "auto"])
def test_a_sub_agents_file_is_joined_to_its_parent_session_given_in_the_same_run(tmp_path, monkeypatch, jobs):
    from grounding.run import cores

    monkeypatch.setattr(cores, "AUTO_MIN_BYTES", 1)  # auto: workers, as for a large input
    monkeypatch.setattr(cores, "usable_cores", lambda: 2)
    parent = [
        {"type": "user", "sessionId": "S1", "uuid": "u1", "parentUuid": None,
         "message": {"role": "user", "content": "Look up order 88123."}},
        {"type": "assistant", "sessionId": "S1", "uuid": "a1", "parentUuid": "u1", "message": {
            "id": "m1", "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "orders 88123"}}]}},
        {"type": "user", "sessionId": "S1", "uuid": "u2", "parentUuid": "a1", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "order 88123: total 4521.75"}]}},
        {"type": "assistant", "sessionId": "S1", "uuid": "a2", "parentUuid": "u2", "message": {
            "id": "m2", "role": "assistant", "content": [{"type": "text", "text": "Order 88123 totals 4521.75."}]}},
    ]
    sub = [
        {"type": "user", "sessionId": "S1", "uuid": "c1", "parentUuid": "a2", "isSidechain": True, "agentId": "x",
         "message": {"role": "user", "content": "Summarise the conversation so far."}},
        {"type": "assistant", "sessionId": "S1", "uuid": "c2", "parentUuid": "c1", "isSidechain": True,
         "agentId": "x", "message": {"id": "m3", "role": "assistant", "content": [
             {"type": "text", "text": "Summary: order 88123 totals 4521.75, not 4521.95."}]}},
    ]
    _claude_records(tmp_path / "S1.jsonl", parent)
    _claude_records(tmp_path / "S1" / "subagents" / "agent-x.jsonl", sub)
    alone = grounding.run([tmp_path / "S1" / "subagents" / "agent-x.jsonl"], jobs=jobs)
    assert [a.verdict.status.value for a in alone.answers] == ["unjudgeable"]
    for order in ([tmp_path / "S1.jsonl", tmp_path / "S1"], [tmp_path / "S1", tmp_path / "S1.jsonl"]):
        answers = {a.source.rsplit("/", 1)[-1]: a.verdict for a in grounding.run(order, jobs=jobs).answers}
        # judged against the parent's tool result; the parent's own answer is not judged again in it
        assert [f.value for f in answers["agent-x.jsonl"].unsupported] == ["4521.95"]
        assert answers["S1.jsonl"].status.value == "grounded" and len(answers) == 2


def _record(uuid, parent, kind, content, **more):
    message = {"role": kind, "content": content}
    if kind == "assistant":
        message["id"] = "m-" + uuid
    return {"type": kind, "sessionId": "S2", "uuid": uuid, "parentUuid": parent, "message": message, **more}


def _call(uuid, parent, message_id, call_id, command):
    record = _record(uuid, parent, "assistant", [{"type": "tool_use", "id": call_id, "name": "Bash",
                                                   "input": {"command": command}}])
    record["message"]["id"] = message_id
    return record


def _result(uuid, parent, call_id, text):
    return _record(uuid, parent, "user", [{"type": "tool_result", "tool_use_id": call_id, "content": text}])


def test_a_compaction_is_joined_at_the_latest_parent_record_with_every_parallel_branch(tmp_path):
    parent = [
        _record("u1", None, "user", "Check both orders."),
        _call("a1", "u1", "m1", "t1", "orders 88123"),  # two parallel calls: one message, two records
        _call("a2", "a1", "m1", "t2", "orders 99456"),
        _result("r1", "a1", "t1", "order 88123: total 4521.75"),  # each result hangs off its own call
        _result("r2", "a2", "t2", "order 99456: total 7310.20"),
        _record("a3", "r2", "assistant", [{"type": "text", "text": "88123: 4521.75; 99456: 7310.20."}]),
        _record("u3", "a3", "user", "And the refund?"),
        _call("a4", "u3", "m4", "t3", "refunds 88123"),
        _result("r3", "a4", "t3", "refund RF-20931 issued"),
    ]
    meta = {"isSidechain": True, "agentId": "acompact-1"}
    compaction = [  # its records hang off several of the parent's, the latest being r3
        _record("c1", "a1", "user", "Summarise.", **meta),
        _record("c2", "r3", "user", "Include the refund.", **meta),
        _record("c3", "c2", "assistant", [{"type": "text", "text":
                "Orders 88123 (4521.75) and 99456 (7310.20); refund RF-20931, not RF-20932."}], **meta),
    ]
    _claude_records(tmp_path / "S2.jsonl", parent)
    _claude_records(tmp_path / "S2" / "subagents" / "agent-acompact-1.jsonl", compaction)
    answers = {a.source.rsplit("/", 1)[-1]: a.verdict for a in grounding.run([tmp_path]).answers}
    assert [f.value for f in answers["agent-acompact-1.jsonl"].unsupported] == ["rf-20932"]
