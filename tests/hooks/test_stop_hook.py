"""ground hook claude-code / codex: what each stop is answered, and that nothing traps the agent."""

from __future__ import annotations

import json

import pytest
from sessions import (
    SESSION,
    assistant_text,
    claude_code_records,
    codex_records,
    hook_feedback,
    stop_event,
    write_session,
)

from grounding.hooks.run import run_hook

INVENTED = "The sync fails at order_sync_worker.go:110 since build 8812043."
HONEST = "The sync fails at order_sync_worker.go:110; build 8812034 passed."


def _blocked_values(result) -> list[str]:
    assert result.exit_code == 0
    decision = json.loads(result.stdout)
    assert decision["decision"] == "block" and decision["reason"].startswith("[evidence check]")
    return [line.strip('"') for line in decision["reason"].splitlines()[1:]]


@pytest.mark.parametrize("harness", ["claude-code", "codex"])
def test_an_answer_from_what_was_read_is_allowed_and_an_invented_build_blocked(tmp_path, harness):
    records = claude_code_records if harness == "claude-code" else codex_records
    honest = write_session(tmp_path / "honest.jsonl", records(HONEST))
    allowed = run_hook(harness, stop_event(honest))
    assert (allowed.exit_code, allowed.stdout, allowed.stderr) == (0, "", "")
    invented = write_session(tmp_path / "invented.jsonl", records(INVENTED))
    assert _blocked_values(run_hook(harness, stop_event(invented))) == ["8812043"]


@pytest.mark.parametrize("harness", ["claude-code", "codex"])
def test_the_final_message_the_event_carries_is_judged_when_the_file_lags_it(tmp_path, harness):
    records = claude_code_records if harness == "claude-code" else codex_records
    lagging = write_session(tmp_path / "lagging.jsonl", records(None))
    assert _blocked_values(run_hook(harness, stop_event(lagging, last=INVENTED))) == ["8812043"]
    assert run_hook(harness, stop_event(lagging, last=HONEST)).stdout == ""


def _after_one_block(tmp_path, second_answer: str, blocks: int = 1):
    """The session after the hook blocked the invented answer blocks times, ending with second_answer."""
    records = claude_code_records(INVENTED)
    parent = "a2"
    for number in range(blocks):
        reason = json.loads(run_hook("claude-code", stop_event(write_session(tmp_path / "s.jsonl", records))).stdout
                            or '{"reason": "[evidence check] (not blocked)"}')["reason"]
        records.append(hook_feedback(f"f{number}", parent, reason))
        parent = f"r{number}"
        records.append(assistant_text(parent, f"f{number}", f"msg_r{number}", second_answer if number == blocks - 1
                                      else INVENTED))
    return write_session(tmp_path / "s.jsonl", records)


def test_guard_latch_is_the_correction_in_the_file_or_stop_hook_active(tmp_path):
    session = _after_one_block(tmp_path, INVENTED)
    second = run_hook("claude-code", stop_event(session))
    assert second.stdout == "" and "correction was already sent" in second.stderr
    fresh = write_session(tmp_path / "fresh.jsonl", claude_code_records(INVENTED))
    active = run_hook("claude-code", stop_event(fresh, active=True))
    assert active.stdout == "" and "already blocked" in active.stderr


def test_a_revised_answer_that_drops_the_value_is_allowed(tmp_path):
    session = _after_one_block(tmp_path, HONEST)
    assert run_hook("claude-code", stop_event(session, active=True)).stdout == ""
    assert run_hook("claude-code", stop_event(session), posture="rails").stdout == ""


def test_rails_blocks_again_up_to_its_cap(tmp_path):
    session = _after_one_block(tmp_path, INVENTED, blocks=2)
    assert _blocked_values(run_hook("claude-code", stop_event(session, active=True), posture="rails", cap=3)) == [
        "8812043"]
    capped = run_hook("claude-code", stop_event(session, active=True), posture="rails", cap=2)
    assert capped.stdout == "" and "2 of 2 corrections" in capped.stderr


def test_assist_never_blocks_and_logs_every_stop(tmp_path):
    session = write_session(tmp_path / "s.jsonl", claude_code_records(INVENTED))
    log = tmp_path / "hook.log"
    for _ in range(2):
        assert run_hook("claude-code", stop_event(session), posture="assist", log=str(log)).stdout == ""
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(e["action"], e["status"], e["unsupported"], e["session"]) for e in entries] == [
        ("allow", "flagged", ["8812043"], SESSION)] * 2


def test_an_answer_with_no_value_is_allowed_as_unchecked(tmp_path):
    session = write_session(tmp_path / "s.jsonl", claude_code_records("Done: the worker is fixed."))
    log = tmp_path / "hook.log"
    assert run_hook("claude-code", stop_event(session), log=str(log)).stdout == ""
    assert json.loads(log.read_text())["note"].startswith("unchecked")


def test_options_come_from_the_configuration_in_the_sessions_folder(tmp_path):
    session = write_session(tmp_path / "s.jsonl", claude_code_records(INVENTED))
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "ground.toml").write_text('exempt = ["8812043"]\n')
    assert run_hook("claude-code", stop_event(session, cwd=str(project / "src"))).stdout == ""
    (project / "ground.toml").write_text("min-digits = [\n")
    broken = run_hook("claude-code", stop_event(session, cwd=str(project)))
    assert (broken.exit_code, broken.stdout) == (0, "") and "ground.toml" in broken.stderr


@pytest.mark.parametrize(
    ("stdin", "said"),
    [
        (b"", "not JSON"),
        (b"[1, 2]", "JSON object"),
        (b'{"hook_event_name": "PreToolUse", "transcript_path": "x"}', "PreToolUse"),
        (stop_event(None), "names no transcript"),
        (stop_event("/no/such/session.jsonl"), "no such file"),
        (stop_event(None, event="SubagentStop"), "names no transcript"),
    ],
)
def test_what_it_cannot_read_allows_the_stop_and_says_why(stdin, said):
    result = run_hook("claude-code", stdin)
    assert (result.exit_code, result.stdout) == (0, "") and said in result.stderr


def test_a_file_that_is_no_session_allows_the_stop(tmp_path):
    other = tmp_path / "notes.jsonl"
    other.write_text('{"hello": "world"}\nnot json\n')
    result = run_hook("claude-code", stop_event(other))
    assert (result.exit_code, result.stdout) == (0, "") and "no conversation read" in result.stderr


def test_a_session_that_ends_in_a_tool_call_has_nothing_to_judge(tmp_path):
    records = claude_code_records(None)[:2]
    result = run_hook("claude-code", stop_event(write_session(tmp_path / "s.jsonl", records)))
    assert result.stdout == "" and "no final answer" in result.stderr


def test_a_half_written_last_line_is_not_fatal(tmp_path):
    session = write_session(tmp_path / "s.jsonl", claude_code_records(INVENTED))
    with session.open("a") as stream:
        stream.write('{"type": "assistant", "sessionId": "')
    assert _blocked_values(run_hook("claude-code", stop_event(session))) == ["8812043"]


def test_a_sub_agent_stop_judges_the_sub_agents_own_file(tmp_path):
    main = write_session(tmp_path / f"{SESSION}.jsonl", claude_code_records(HONEST))
    agent = [dict(record, isSidechain=True, agentId="a1b2c3") for record in claude_code_records(INVENTED)]
    write_session(tmp_path / SESSION / "subagents" / "agent-a1b2c3.jsonl", agent)
    assert run_hook("claude-code", stop_event(main)).stdout == ""
    assert _blocked_values(run_hook("claude-code", stop_event(main, event="SubagentStop", agent_id="a1b2c3"))) == [
        "8812043"]
    named = stop_event(main, event="SubagentStop", agent_transcript_path=str(
        tmp_path / SESSION / "subagents" / "agent-a1b2c3.jsonl"))
    assert _blocked_values(run_hook("claude-code", named)) == ["8812043"]


def test_the_files_whole_answer_is_judged_when_the_event_carries_its_last_block(tmp_path):
    session = write_session(tmp_path / "s.jsonl", claude_code_records(INVENTED + "\n\nAnything else?"))
    assert _blocked_values(run_hook("claude-code", stop_event(session, last="Anything else?"))) == ["8812043"]
