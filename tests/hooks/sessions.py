"""Claude Code and Codex session files as the harnesses write them, and their stop events."""

from __future__ import annotations

import json
from pathlib import Path

SESSION = "5b1c0c7e-1d2f-4c55-9a51-0c1de3a0f7aa"
RESULT = "order_sync_worker.go:110: return fmt.Errorf(\"sync %s: %w\", orderID, err)\nbuild 8812034 passed\n"


def claude_code_records(answer: str | None, result: str = RESULT, cwd: str = "/srv/app") -> list[dict]:
    """A user's question, one Bash call and its result, then the final answer (None: the file stops at the
    result, as one the harness has not finished writing)."""
    base = {"sessionId": SESSION, "cwd": cwd, "isSidechain": False, "version": "2.1.38"}
    records = [
        {**base, "type": "user", "uuid": "u1", "parentUuid": None,
         "message": {"role": "user", "content": "Why does the sync fail?"}},
        {**base, "type": "assistant", "uuid": "a1", "parentUuid": "u1", "message": {
            "id": "msg_1", "role": "assistant", "stop_reason": None,
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                         "input": {"command": "grep -n Errorf ."}}]}},
        {**base, "type": "user", "uuid": "u2", "parentUuid": "a1", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": result}]},
         "toolUseResult": {"stdout": result, "stderr": ""}},
    ]
    if answer is not None:
        records.append(assistant_text("a2", "u2", "msg_2", answer))
    return records


def assistant_text(uuid: str, parent: str, message_id: str, text: str) -> dict:
    return {"sessionId": SESSION, "cwd": "/srv/app", "isSidechain": False, "type": "assistant", "uuid": uuid,
            "parentUuid": parent, "message": {"id": message_id, "role": "assistant", "stop_reason": None,
                                              "content": [{"type": "text", "text": text}]}}


def hook_feedback(uuid: str, parent: str, reason: str, command: str = "ground hook claude-code") -> dict:
    """The record Claude Code writes when a Stop hook blocks: a meta user message quoting the reason."""
    return {"sessionId": SESSION, "cwd": "/srv/app", "isSidechain": False, "type": "user", "uuid": uuid,
            "parentUuid": parent, "isMeta": True,
            "message": {"role": "user", "content": f"Stop hook feedback:\n[{command}]: {reason}"}}


def codex_records(answer: str | None, cwd: str = "/srv/app") -> list[dict]:
    """A Codex rollout: session metadata, the user's turn, one shell call and its output, the answer."""
    output = json.dumps({"output": RESULT, "metadata": {"exit_code": 0, "duration_seconds": 0.1}})
    stamp = "2026-11-30T10:00:00.000Z"
    records = [
        {"timestamp": stamp, "type": "session_meta", "payload": {"id": SESSION, "cwd": cwd, "cli_version": "0.77.0"}},
        {"timestamp": stamp, "type": "response_item", "payload": {
            "type": "message", "role": "user", "content": [{"type": "input_text", "text": "Why does the sync fail?"}]}},
        {"timestamp": stamp, "type": "response_item", "payload": {
            "type": "function_call", "name": "shell", "call_id": "call_1",
            "arguments": json.dumps({"command": ["bash", "-lc", "grep -n Errorf ."]})}},
        {"timestamp": stamp, "type": "response_item", "payload": {
            "type": "function_call_output", "call_id": "call_1", "output": output}},
    ]
    if answer is not None:
        records.append({"timestamp": stamp, "type": "response_item", "payload": {
            "type": "message", "role": "assistant", "content": [{"type": "output_text", "text": answer}]}})
    return records


def write_session(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def stop_event(transcript: Path | str | None, *, event: str = "Stop", active: bool = False, last: str | None = None,
               cwd: str | None = None, **more: object) -> bytes:
    """The JSON a harness sends its Stop hook on standard input."""
    payload = {"session_id": SESSION, "transcript_path": None if transcript is None else str(transcript),
               "cwd": cwd or "/srv/app", "permission_mode": "default", "hook_event_name": event,
               "stop_hook_active": active, **more}
    if last is not None:
        payload["last_assistant_message"] = last
    return json.dumps(payload).encode()
