"""The logs of the tools people run agents and evaluations with, read as conversations (issue 50): Inspect AI
evaluation logs (.json, and .eval zip archives, one conversation per sample) and OpenHands trajectories.
Each gives the verdicts of the same conversation written as OpenAI Chat messages."""

from __future__ import annotations

import json
import zipfile

from conftest import unsupported

from grounding.core.settings import Settings
from grounding.library import to_conversation
from grounding.model import Problem, Summary
from grounding.run.runner import judge_inputs
from grounding.transcripts.formats import inspect_ai

ORDER = '{"order_id": "ORD-40001", "status": "shipped", "carrier": "UPS"}'
ANSWER = "Order ORD-40001 has shipped with UPS; its tracking number is 1Z999AA10123456785."


def _judged(path) -> tuple[list, list[str], Summary]:
    summary = Summary()
    events = list(judge_inputs([str(path)], Settings(), summary))
    problems = [event.message for event in events if isinstance(event, Problem)]
    return [event for event in events if hasattr(event, "verdict")], problems, summary


def _openai_verdicts(tmp_path, *conversations) -> list[list[str]]:
    path = tmp_path / "reference.jsonl"
    path.write_text("".join(json.dumps({"messages": messages}) + "\n" for messages in conversations))
    return [unsupported(judged.verdict) for judged in _judged(path)[0]]


def _sample(sample_id: int, answer: str, **extra: object) -> dict:
    """An Inspect AI sample as its logs write it: a call names its function, its arguments an object."""
    return {"id": sample_id, "epoch": 1, "input": "Where is my order?", "target": "", "messages": [
        {"id": "m1", "role": "system", "content": "You help customers."},
        {"id": "m2", "role": "user", "content": "Where is my order?", "source": "input"},
        {"id": "m3", "role": "assistant", "source": "generate", "content": [
            {"type": "reasoning", "reasoning": "Maybe it is ORD-99999; I should look."},
            {"type": "text", "text": "Let me look it up."}],
         "tool_calls": [{"id": "toolu_1", "function": "latest_order", "arguments": {"customer": "me"}}]},
        {"id": "m4", "role": "tool", "tool_call_id": "toolu_1", "function": "latest_order", "content": ORDER},
        {"id": "m5", "role": "assistant", "source": "generate", "content": [{"type": "text", "text": answer}]},
    ], "output": {"completion": answer}, "scores": {}, **extra}


OPENAI_FORM = [
    {"role": "system", "content": "You help customers."},
    {"role": "user", "content": "Where is my order?"},
    {"role": "assistant", "content": "Let me look it up.", "tool_calls": [
        {"id": "toolu_1", "type": "function", "function": {"name": "latest_order", "arguments": '{"customer": "me"}'}}]},
    {"role": "tool", "tool_call_id": "toolu_1", "content": ORDER},
]


def _log(*samples: dict) -> dict:
    return {"version": 2, "status": "success", "eval": {"task": "orders", "task_id": "T1"}, "plan": {},
            "results": {}, "stats": {}, "samples": list(samples)}


def test_an_inspect_log_is_one_conversation_per_sample_as_its_openai_form_reads(tmp_path):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(_log(_sample(1, ANSWER), _sample(2, "Order ORD-40001 has shipped."))))
    judged, problems, summary = _judged(path)
    assert problems == [] and [j.conversation for j in judged] == ["orders/1/1", "orders/2/1"]
    assert [j.input_format for j in judged] == ["inspect-ai"] * 2
    expected = _openai_verdicts(tmp_path, [*OPENAI_FORM, {"role": "assistant", "content": ANSWER}],
                                [*OPENAI_FORM, {"role": "assistant", "content": "Order ORD-40001 has shipped."}])
    assert [unsupported(j.verdict) for j in judged] == expected == [["1z999aa10123456785"], []]
    # the call's tool is named (require_tool), and the model's reasoning is neither answer nor evidence
    [first, _] = inspect_ai.one_log_per_sample(json.loads(path.read_text()))
    items = to_conversation(first).items
    assert [item.calls for item in items if item.calls] == [("latest_order",)]
    assert not any("ORD-99999" in item.text for item in items)


def test_an_inspect_attachment_is_read_where_it_is_referred_to(tmp_path):
    sample = _sample(1, ANSWER, attachments={"abc123": ORDER})
    sample["messages"][3]["content"] = "attachment://abc123"
    path = tmp_path / "log.json"
    path.write_text(json.dumps(_log(sample)))
    [judged], _, _ = _judged(path)
    assert unsupported(judged.verdict) == ["1z999aa10123456785"]  # ORD-40001 read from the attachment


def test_an_inspect_eval_archive_reads_as_its_json_log(tmp_path):
    archive = tmp_path / "run.eval"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as built:
        built.writestr("header.json", json.dumps({k: v for k, v in _log().items() if k != "samples"}))
        built.writestr("samples/1_epoch_1.json", json.dumps(_sample(1, ANSWER)))
        built.writestr("samples/2_epoch_1.json", "{not json")
        built.writestr("summaries.json", "[]")
    judged, problems, summary = _judged(archive)
    assert [j.conversation for j in judged] == ["orders/1/1"]
    assert [unsupported(j.verdict) for j in judged] == [["1z999aa10123456785"]]
    assert len(problems) == 1 and "samples/2_epoch_1.json" in problems[0] and summary.errors == 1


def test_an_inspect_sample_over_the_record_limit_is_refused_before_it_is_decompressed(tmp_path):
    archive = tmp_path / "run.eval"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as built:
        built.writestr("header.json", json.dumps({"eval": {"task": "orders"}}))
        built.writestr("samples/1_epoch_1.json", json.dumps(_sample(1, ANSWER, metadata={"pad": "x" * 200_000})))
    summary = Summary()
    events = list(judge_inputs([str(archive)], Settings(), summary, max_record_bytes=100_000))
    [problem] = [event.message for event in events if isinstance(event, Problem)]
    assert "over the limit of 100000" in problem and summary.answers == 0


def _event(event_id: int, source: str, **fields: object) -> dict:
    return {"id": event_id, "timestamp": "2025-01-01T00:00:00", "source": source, **fields}


def _trajectory(answer: str, *, finish: bool = False) -> list[dict]:
    """An OpenHands run: the user's request, a command and its output, a file edit, then the answer."""
    closing = (_event(9, "agent", action="finish", message=answer, args={"final_thought": answer, "outputs": {}})
               if finish else _event(9, "agent", action="message", message=answer,
                                     args={"content": answer, "wait_for_response": True}))
    return [
        _event(0, "environment", observation="agent_state_changed", content="", extras={"agent_state": "init"}),
        _event(1, "user", action="message", message="Where is my order?", args={"content": "Where is my order?"}),
        _event(3, "agent", action="run", message="Running command: orders latest",
               args={"command": "orders latest", "thought": "Let me look it up."},
               tool_call_metadata={"function_name": "execute_bash", "tool_call_id": "toolu_1"}),
        _event(4, "agent", observation="run", cause=3, content=ORDER, message="Command executed",
               extras={"metadata": {"exit_code": 0}}),
        _event(5, "agent", action="edit", args={"path": "/workspace/notes.md", "thought": "Noting it."}),
        _event(6, "agent", observation="edit", cause=5, content=(
            "--- /workspace/notes.md\n+++ /workspace/notes.md\n@@ -1 +1,2 @@\n warehouse WH-7781\n"
            "+tracking 1Z999AA10123456785")),
        closing,
    ]


def test_an_openhands_trajectory_reads_as_its_openai_form(tmp_path):
    for finish in (False, True):
        path = tmp_path / "trajectory.json"
        path.write_text(json.dumps(_trajectory(ANSWER, finish=finish)))
        judged, problems, _ = _judged(path)
        assert problems == [] and [j.input_format for j in judged] == ["openhands"]
        # the tracking number the agent wrote into a file itself is said back in the edit's diff: not read
        assert [unsupported(j.verdict) for j in judged] == [["1z999aa10123456785"]]
        items = to_conversation(json.loads(path.read_text())).items
        assert [item.calls for item in items if item.calls] == [("execute_bash",), ("edit",)]
    path.write_text(json.dumps(_trajectory("Order ORD-40001 has shipped from WH-7781.")))
    assert [unsupported(j.verdict) for j in _judged(path)[0]] == [[]]  # the diff's context line is read


def _zstd_archive(path, members: dict[str, bytes]) -> None:
    """A zip whose members are zstd-compressed (method 93), as Inspect writes a .eval where the zstandard
    package is installed: written stored, then its headers' method and sizes set as a zstd writer's are."""
    import struct

    import zstandard

    packed = {name: zstandard.ZstdCompressor().compress(data) for name, data in members.items()}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as built:
        for name, data in packed.items():
            built.writestr(name, data)
    raw = bytearray(path.read_bytes())
    entry = struct.unpack_from("<I", raw, raw.rindex(b"PK\x05\x06") + 16)[0]  # the central directory
    while raw[entry:entry + 4] == b"PK\x01\x02":
        names, extra, comment, local = struct.unpack_from("<HHH", raw, entry + 28) + struct.unpack_from(
            "<I", raw, entry + 42)
        size = len(members[raw[entry + 46:entry + 46 + names].decode()])
        for header, method_at, size_at in ((entry, 10, 24), (local, 8, 22)):  # central, then local header
            struct.pack_into("<H", raw, header + method_at, 93)
            struct.pack_into("<I", raw, header + size_at, size)
        entry += 46 + names + extra + comment
    path.write_bytes(bytes(raw))


def test_an_inspect_archive_of_zstd_members_is_read(tmp_path):
    archive = tmp_path / "run.eval"
    _zstd_archive(archive, {"header.json": json.dumps({"eval": {"task": "orders"}}).encode(),
                            "samples/1_epoch_1.json": json.dumps(_sample(1, ANSWER, metadata={"pad": "x" * 5000})).encode()})
    judged, problems, _ = _judged(archive)
    assert problems == [] and [unsupported(j.verdict) for j in judged] == [["1z999aa10123456785"]]
    summary = Summary()  # over the limit by its header's size: refused before a byte is decompressed
    assert archive.stat().st_size < 3000
    events = list(judge_inputs([str(archive)], Settings(), summary, max_record_bytes=3000))
    assert summary.answers == 0 and any("over the limit of 3000" in e.message for e in events if isinstance(e, Problem))


def _gemini_cli(answer: str, *, result: object = None) -> dict:
    """A Gemini CLI session file: the user's question, the model's call recorded with its result, the answer."""
    returned = result if result is not None else [
        {"functionResponse": {"id": "run_1", "name": "run_shell_command", "response": {"output": ORDER}}}]
    return {"sessionId": "5e1c-77", "projectHash": "ab12", "startTime": "2026-01-01T00:00:00Z",
            "lastUpdated": "2026-01-01T00:01:00Z", "messages": [
                {"id": "1", "timestamp": "t", "type": "user", "content": "Where is my order?"},
                {"id": "2", "timestamp": "t", "type": "info", "content": "Switched to ORD-55120 mode"},
                {"id": "3", "timestamp": "t", "type": "gemini", "content": "Let me look.", "toolCalls": [
                    {"id": "run_1", "name": "run_shell_command", "args": {"command": "orders latest"},
                     "result": returned, "status": "success", "timestamp": "t", "resultDisplay": "(shown)"}],
                 "thoughts": [{"subject": "Guess", "description": "maybe ORD-99999"}]},
                {"id": "4", "timestamp": "t", "type": "gemini", "content": answer, "model": "gemini-2.5-pro"},
            ]}


def test_a_gemini_cli_session_file_reads_as_its_openai_form(tmp_path):
    path = tmp_path / "session-2026-01-01T00-00-5e1c.json"
    path.write_text(json.dumps(_gemini_cli(ANSWER)))
    judged, problems, _ = _judged(path)
    assert problems == [] and [(j.input_format, j.conversation) for j in judged] == [("gemini-cli", "5e1c-77")]
    expected = _openai_verdicts(tmp_path, [*OPENAI_FORM, {"role": "assistant", "content": ANSWER}])
    assert [unsupported(j.verdict) for j in judged] == expected == [["1z999aa10123456785"]]
    items = to_conversation(json.loads(path.read_text())).items
    assert [item.calls for item in items if item.calls] == [("run_shell_command",)]
    # the CLI's own notes and the model's thoughts ground nothing; a result written as text parts is read
    path.write_text(json.dumps(_gemini_cli("It is ORD-55120, or ORD-99999.")))
    assert [unsupported(j.verdict) for j in _judged(path)[0]] == [["ord-55120", "ord-99999"]]
    path.write_text(json.dumps(_gemini_cli("Order ORD-40001 has shipped.", result=[{"text": ORDER}])))
    assert [unsupported(j.verdict) for j in _judged(path)[0]] == [[]]


def _text(text: str) -> dict:
    return {"type": "text", "text": text}


ENVIRONMENT = "<environment_details>\n# Current Time\n12/5/2026, 7:00:00 AM (UTC)\n# Ticket TCK-88120 open\n</environment_details>"


def _cline(answer: str) -> list[dict]:
    """A Cline task history: the task, a command written as XML, its result as user text, the completion."""
    return [
        {"role": "user", "content": [_text("<task>\nWhere is my order?\n</task>"), _text(ENVIRONMENT)]},
        {"role": "assistant", "content": [_text(
            "<thinking>\nMaybe ORD-99999; let me check.\n</thinking>\n\n<execute_command>\n<command>orders latest"
            "</command>\n<requires_approval>false</requires_approval>\n</execute_command>")]},
        {"role": "user", "content": [_text("[execute_command for 'orders latest'] Result:"),
                                     _text(f"Command executed.\nOutput:\n{ORDER}"), _text(ENVIRONMENT)]},
        {"role": "assistant", "content": [_text(
            f"<thinking>Done.</thinking>\n<attempt_completion>\n<result>\n{answer}\n</result>\n</attempt_completion>")]},
    ]


def test_a_cline_task_history_reads_its_xml_tools_and_their_results(tmp_path):
    path = tmp_path / "api_conversation_history.json"
    path.write_text(json.dumps(_cline(ANSWER)))
    judged, problems, _ = _judged(path)
    assert problems == [] and [j.input_format for j in judged] == ["cline"]
    assert [unsupported(j.verdict) for j in judged] == [["1z999aa10123456785"]]  # ORD-40001 read from the result
    items = to_conversation(json.loads(path.read_text())).items
    assert [item.calls for item in items if item.calls] == [("execute_command",)]
    assert [item.text for item in items if item.kind.value == "answer"] == [ANSWER]
    # the model's thinking and the extension's environment details ground nothing
    path.write_text(json.dumps(_cline("It is ORD-99999, see TCK-88120.")))
    assert [unsupported(j.verdict) for j in _judged(path)[0]] == [["ord-99999", "tck-88120"]]


def test_a_roo_code_file_block_and_the_users_feedback(tmp_path):
    history = _cline(ANSWER)
    history[1]["content"] = [_text("<read_file>\n<path>orders.json</path>\n</read_file>")]
    history[2]["content"] = [_text(f"<file><path>orders.json</path>\n<content>\n1 | {ORDER}\n</content>\n</file>"),
                             _text(ENVIRONMENT)]
    history += [{"role": "user", "content": [_text("[attempt_completion] Result:"), _text(
                    "The user has provided feedback on the results.\n<feedback>\nand order ORD-51234?\n</feedback>")]},
                {"role": "assistant", "content": [_text(
                    "<attempt_completion>\n<result>\nORD-51234 is not in the file.\n</result>\n</attempt_completion>")]}]
    path = tmp_path / "api_conversation_history.json"
    path.write_text(json.dumps(history))
    judged, problems, _ = _judged(path)
    # the file's order id read; the id the user asked about is the user's own (exempt)
    assert problems == [] and [unsupported(j.verdict) for j in judged] == [["1z999aa10123456785"], []]


def test_native_tool_calls_in_a_cline_history(tmp_path):
    history = [
        {"role": "user", "content": [_text("<task>\nWhere is my order?\n</task>"), _text(ENVIRONMENT)]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "execute_command",
                                           "input": {"command": "orders latest"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": ORDER},
                                     _text(ENVIRONMENT)]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_2", "name": "attempt_completion",
                                           "input": {"result": ANSWER}}]},
    ]
    path = tmp_path / "api_conversation_history.json"
    path.write_text(json.dumps(history))
    judged, problems, _ = _judged(path)
    assert problems == [] and [unsupported(j.verdict) for j in judged] == [["1z999aa10123456785"]]
