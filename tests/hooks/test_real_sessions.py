"""The hook driven with real recorded sessions (../shared/corpus): every stop of an honest session allowed,
and the injected twin's last answers blocked on exactly the value changed."""

from __future__ import annotations

import json

import pytest
from conftest import SHARED, needs_shared
from sessions import stop_event

from grounding.hooks.run import run_hook
from tools.inject_coding import default_sessions, main

pytestmark = needs_shared
CODEX = SHARED / "corpus" / "formats" / "real" / "codex-cli"


def _session_id(path) -> str | None:
    for line in path.read_text().splitlines():
        found = json.loads(line).get("sessionId")
        if found:
            return found
    return None


def _event(path, **more) -> bytes:
    return json.loads(stop_event(path, **more)) | {"session_id": _session_id(path)}


@pytest.mark.parametrize("session", default_sessions(), ids=lambda path: path.name)
def test_every_stop_of_a_real_session_is_allowed(session):
    result = run_hook("claude-code", json.dumps(_event(session)).encode())
    assert (result.exit_code, result.stdout) == (0, ""), result.stderr


def test_the_injected_twins_last_answers_are_blocked_on_the_value_changed(tmp_path):
    assert main([str(tmp_path)]) == 0
    blocked = {}
    for twin in json.loads((tmp_path / "injected.json").read_text()):
        result = run_hook("claude-code", json.dumps(_event(tmp_path / twin["file"])).encode())
        if result.stdout:
            blocked[twin["file"]] = json.loads(result.stdout)["reason"]
            assert twin["mutated"] in blocked[twin["file"]]
    # coverage-test-fix's changed answer is not its last one: the stop judges the last
    assert sorted(blocked) == ["agent-aac57f5.jsonl", "hello-world-script.jsonl",
                               "stop-hook-reflection-first-stop.jsonl", "subagent.jsonl"]


def test_a_real_codex_rollout_judges_the_message_the_event_carries():
    """The rollout stops after a tool output; the event's message is judged, a path under the session's
    working directory read as the relative path the tool printed (docs/AGENTS.md)."""
    [rollout] = CODEX.glob("rollout-*.jsonl")
    meta = json.loads(rollout.read_text().splitlines()[0])["payload"]
    event = stop_event(rollout, cwd=meta["cwd"], session_id=meta["id"])
    assert "no final answer" in run_hook("codex", event).stderr
    honest = f"The agent guide is {meta['cwd']}/docs/AGENTS.md."
    assert run_hook("codex", stop_event(rollout, last=honest, cwd=meta["cwd"])).stdout == ""
    invented = f"The agent guide is {meta['cwd']}/docs/v2/AGENTS.md."
    reason = json.loads(run_hook("codex", stop_event(rollout, last=invented, cwd=meta["cwd"])).stdout)["reason"]
    assert "/docs/v2/AGENTS.md" in reason
