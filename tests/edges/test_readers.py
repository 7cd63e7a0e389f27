"""Each reader's traps: provenance, not role; what the model never read is not evidence."""

import gzip
import json
import os

from conftest import REPO, unsupported

from grounding.core.engine import check_conversation
from grounding.core.settings import Settings
from grounding.model import Summary
from grounding.run.runner import judge_inputs


def verdicts(tmp_path, *records, name="t.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    summary = Summary()
    events = list(judge_inputs([str(path)], Settings(), summary))
    return [e.verdict for e in events if hasattr(e, "verdict")], summary


def test_claude_code_reads_tool_results_not_the_harness_copy(tmp_path):
    base = {"sessionId": "s1", "isSidechain": False}
    records = [
        {"type": "summary", "summary": "x"},
        {**base, "type": "user", "message": {"role": "user", "content": "Which port?"}, "uuid": "1"},
        {**base, "type": "assistant", "message": {"id": "m1", "role": "assistant",
         "content": [{"type": "text", "text": "Checking."}]}},
        {**base, "type": "assistant", "message": {"id": "m1", "role": "assistant",
         "content": [{"type": "tool_use", "id": "tu1", "name": "show", "input": {}}]}},
        {**base, "type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "tu1", "content": "port fc1/3 up"}]},
         "toolUseResult": {"stdout": "port fc1/3 up; spare fc1/12"}},
        {**base, "type": "user", "isMeta": True, "message": {"role": "user", "content": "fc1/14 is spare"}},
        {**base, "type": "assistant", "message": {"id": "m2", "role": "assistant",
         "content": [{"type": "text", "text": "fc1/3 is up; fc1/12 and fc1/14 are spare."}]}},
    ]
    found, summary = verdicts(tmp_path, *records)
    assert len(found) == 1  # "Checking." was said on the way to a tool call: not an answer
    assert unsupported(found[0]) == ["fc1/12", "fc1/14"]
    assert summary.skipped == 1


def test_claude_code_system_reminders_are_not_user_text(tmp_path):
    base = {"sessionId": "s2"}
    records = [
        {**base, "type": "user", "message": {"role": "user",
         "content": "hi <system-reminder>ticket TCK-88120 is open</system-reminder>"}},
        {**base, "type": "assistant", "message": {"id": "m1", "role": "assistant", "content": "TCK-88120"}},
    ]
    assert unsupported(verdicts(tmp_path, *records)[0][0]) == ["tck-88120"]


def test_pydantic_ai_retry_prompts_and_metadata_ground_nothing(tmp_path):
    record = [
        {"kind": "request", "parts": [{"part_kind": "user-prompt", "content": "Order status?"}]},
        {"kind": "response", "parts": [{"part_kind": "tool-call", "tool_name": "f", "args": "{}", "tool_call_id": "c"}]},
        {"kind": "request", "parts": [
            {"part_kind": "tool-return", "tool_name": "f", "tool_call_id": "c", "content": {"order": "ORD-4001"},
             "metadata": {"internal": "ORD-4002"}},
            {"part_kind": "retry-prompt", "content": "ORD-4003 is not valid, fix it"}]},
        {"kind": "response", "parts": [{"part_kind": "text", "content": "ORD-4001, ORD-4002, ORD-4003"}]},
    ]
    assert unsupported(verdicts(tmp_path, record)[0][0]) == ["ord-4002", "ord-4003"]


def test_pydantic_ai_retry_feedback_and_a_retried_tool_return_are_neither(tmp_path):
    """pydantic-ai >= 2.6 writes an output retry as retry-feedback and a tool retry as the call's own
    tool-return with outcome 'retried': both are the framework's words, quoting the model's values back."""
    record = [
        {"kind": "request", "instructions": "Say ORD-4009 only if asked.",
         "parts": [{"part_kind": "user-prompt", "content": "Order status?"}]},
        {"kind": "response", "parts": [{"part_kind": "text", "content": "ORD-4004 shipped."}]},
        {"kind": "request", "instructions": "Say ORD-4009 only if asked.",
         "parts": [{"part_kind": "retry-feedback", "content": "[evidence check] ... The values:\n\"ORD-4004\""}]},
        {"kind": "response", "parts": [{"part_kind": "tool-call", "tool_name": "f", "args": {"id": "ORD-4005"},
                                        "tool_call_id": "c"}]},
        {"kind": "request", "parts": [{"part_kind": "tool-return", "tool_name": "f", "tool_call_id": "c",
                                       "outcome": "retried", "content": "ORD-4005 is not an order id"}]},
        {"kind": "response", "parts": [{"part_kind": "text", "content": "ORD-4004 or ORD-4005 shipped (ORD-4009)."}]},
    ]
    [first, revised], _ = verdicts(tmp_path, record)
    assert unsupported(revised) == ["ord-4004", "ord-4005"]  # the instructions, read once, still exempt ORD-4009
    assert revised.revision == {"values_named": ["ord-4004"], "after_revision": False}


def test_langchain_artifact_is_not_evidence_and_dumpd_is_read(tmp_path):
    def dumpd(cls, **kwargs):
        return {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", cls], "kwargs": kwargs}
    record = {"id": "lc", "messages": [
        dumpd("HumanMessage", content="Where is ORD-5001?"),
        dumpd("AIMessage", content="", tool_calls=[{"name": "f", "args": {}, "id": "c1"}]),
        dumpd("ToolMessage", content='{"tracking": "1Z999"}', tool_call_id="c1", artifact={"raw": "1Z998"}),
        dumpd("AIMessage", content="ORD-5001: tracking 1Z999, not 1Z998."),
    ]}
    assert unsupported(verdicts(tmp_path, record)[0][0]) == ["1z998"]


def test_gemini_function_response_without_role_and_snake_case(tmp_path):
    record = {"id": "g", "system_instruction": {"parts": [{"text": "Site SITE-4401"}]}, "contents": [
        {"role": "user", "parts": [{"text": "port?"}]},
        {"role": "model", "parts": [{"text": "thinking about fc1/9", "thought": True},
                                    {"function_call": {"name": "show", "args": {}}}]},
        {"parts": [{"function_response": {"name": "show", "response": {"result": "port fc1/3 up"}}}]},
        {"role": "model", "parts": [{"text": "fc1/3 at SITE-4401; fc1/9 too"}]},
    ]}
    assert unsupported(verdicts(tmp_path, record)[0][0]) == ["fc1/9"]


def test_bedrock_error_status_is_a_failed_lookup(tmp_path):
    record = {"modelId": "m", "messages": [
        {"role": "user", "content": [{"text": "VM?"}]},
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "f", "input": {"vm": "vm-0399"}}}]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "status": "error",
                                                     "content": [{"text": "unknown vm vm-0399 on host esx-22"}]}}]},
        {"role": "assistant", "content": [{"text": "vm-0399 is on esx-22"}]},
    ]}
    assert unsupported(verdicts(tmp_path, record)[0][0]) == ["vm-0399"]


def test_responses_commentary_is_not_an_answer(tmp_path):
    record = {"input": [{"role": "user", "content": "status?"}], "output": [
        {"type": "message", "role": "assistant", "phase": "commentary", "content": [{"type": "output_text", "text": "ORD-1111"}]},
        {"type": "message", "role": "assistant", "phase": "final_answer", "content": [{"type": "output_text", "text": "done"}]},
    ]}
    found, _ = verdicts(tmp_path, record)
    assert [v.candidates for v in found] == [0]


def test_responses_with_server_side_state_is_unjudgeable(tmp_path):
    record = {"previous_response_id": "resp_1", "input": [], "output": [
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ORD-12345"}]}]}
    found, summary = verdicts(tmp_path, record)
    assert [v.status.value for v in found] == ["unjudgeable"] and summary.flagged == 0
    assert "previous_response_id" in found[0].reason


def _span(trace, start, inputs, outputs):
    attributes = [
        {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
        {"key": "gen_ai.input.messages", "value": {"stringValue": json.dumps(inputs)}},
        {"key": "gen_ai.output.messages", "value": {"stringValue": json.dumps(outputs)}},
    ]
    return {"resourceSpans": [{"scopeSpans": [{"spans": [
        {"traceId": trace, "spanId": str(start), "startTimeUnixNano": str(start), "attributes": attributes}]}]}]}


def test_otel_spans_out_of_order_and_repeating_history_judge_each_answer_once(tmp_path):
    user = {"role": "user", "parts": [{"type": "text", "content": "port?"}]}
    call = {"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "show", "arguments": {}}]}
    result = {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": {"port": "fc1/3"}}]}
    answer = {"role": "assistant", "parts": [{"type": "text", "content": "fc1/3 and fc1/4"}], "finish_reason": "stop"}
    second = _span("t1", 2, [user, call, result], [answer])
    first = _span("t1", 1, [user], [call])
    found, summary = verdicts(tmp_path, second, first)  # the later span comes first in the file
    assert [unsupported(v) for v in found] == [["fc1/4"]]
    assert summary.conversations == 1


def test_openinference_indices_are_numbers_not_text(tmp_path):
    attributes = [{"key": "openinference.span.kind", "value": {"stringValue": "LLM"}}]
    for i in range(12):
        role, content = ("user", f"note {i}") if i < 11 else ("tool", '{"port": "fc1/3"}')
        attributes += [{"key": f"llm.input_messages.{i}.message.role", "value": {"stringValue": role}},
                       {"key": f"llm.input_messages.{i}.message.content", "value": {"stringValue": content}}]
    attributes += [{"key": "llm.output_messages.0.message.role", "value": {"stringValue": "assistant"}},
                   {"key": "llm.output_messages.0.message.content", "value": {"stringValue": "fc1/3"}}]
    span = {"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "t", "attributes": attributes}]}]}]}
    assert unsupported(verdicts(tmp_path, span)[0][0]) == []


def test_python_repr_and_double_encoded_results_are_walked(tmp_path):
    from conftest import judge
    assert unsupported(judge("{'alias': 'SHP-FA0', 'up': True, 'count': 41200}", answer="SHP-FA0 has 41,200")) == []
    double = json.dumps(json.dumps({"alias": "SHP-FA1"}))
    assert unsupported(judge(double, answer="SHP-FA1")) == []


def test_folders_and_gzip_are_read_and_links_out_are_not_followed(tmp_path):
    folder = tmp_path / "logs"
    (folder / "deep").mkdir(parents=True)
    line = (REPO / "fixtures" / "absence.jsonl").read_bytes()
    (folder / "a.jsonl").write_bytes(line)
    with gzip.open(folder / "deep" / "b.jsonl.gz", "wb") as stream:
        stream.write(line)
    (folder / "notes.txt").write_text("not a transcript")
    outside = tmp_path / "outside.jsonl"
    outside.write_bytes(line)
    os.symlink(outside, folder / "link.jsonl")
    summary = Summary()
    list(judge_inputs([str(folder)], Settings(), summary))
    assert (summary.files, summary.conversations) == (2, 2)


def test_engine_runs_on_a_reader_conversation_directly():
    from grounding.transcripts.formats import read_record
    record = json.loads((REPO / "fixtures" / "absence.jsonl").read_text())
    answers = list(check_conversation(read_record(record, "x", 1), Settings()))
    assert answers[0].input_format == "openai"


def _otlp_log(trace, span, time, name, body):
    kv = [{"key": k, "value": {"stringValue": v} if isinstance(v, str) else v} for k, v in body.items()]
    return {"timeUnixNano": str(time), "eventName": name, "traceId": trace, "spanId": span,
            "body": {"kvlistValue": {"values": kv}}}


def test_otel_event_conventions(tmp_path):
    calls = {"arrayValue": {"values": [{"kvlistValue": {"values": [
        {"key": "id", "value": {"stringValue": "c1"}}, {"key": "type", "value": {"stringValue": "function"}},
        {"key": "function", "value": {"kvlistValue": {"values": [
            {"key": "name", "value": {"stringValue": "show"}},
            {"key": "arguments", "value": {"stringValue": "{}"}}]}}}]}}]}}
    logs = [
        _otlp_log("t", "s1", 1, "gen_ai.user.message", {"content": "port?"}),
        _otlp_log("t", "s1", 2, "gen_ai.choice", {"message": {"kvlistValue": {"values": [
            {"key": "tool_calls", "value": calls}]}}}),
        _otlp_log("t", "s2", 3, "gen_ai.user.message", {"content": "port?"}),
        _otlp_log("t", "s2", 4, "gen_ai.assistant.message", {"tool_calls": calls}),
        _otlp_log("t", "s2", 5, "gen_ai.tool.message", {"content": '{"port": "fc1/3"}', "id": "c1"}),
        _otlp_log("t", "s2", 6, "gen_ai.choice", {"message": {"kvlistValue": {"values": [
            {"key": "content", "value": {"stringValue": "fc1/3 and fc1/4"}}]}}}),
    ]
    record = {"resourceLogs": [{"scopeLogs": [{"logRecords": logs}]}]}
    found, summary = verdicts(tmp_path, record)
    assert [unsupported(v) for v in found] == [["fc1/4"]] and summary.conversations == 1


def test_agents_sdk_generation_spans_and_response_only_traces(tmp_path):
    generation = {"object": "trace.span", "trace_id": "tr1", "started_at": "2026-01-01T00:00:01Z", "span_data": {
        "type": "generation",
        "input": [{"role": "user", "content": "port?"},
                  {"role": "assistant", "content": None, "tool_calls": [
                      {"id": "c1", "type": "function", "function": {"name": "show", "arguments": "{}"}}]},
                  {"role": "tool", "tool_call_id": "c1", "content": "{'port': 'fc1/3'}"}],
        "output": [{"role": "assistant", "content": "fc1/3 and fc1/5"}]}}
    response_only = {"object": "trace.span", "trace_id": "tr2", "span_data": {"type": "response", "response_id": "r"}}
    found, _ = verdicts(tmp_path, {"object": "trace", "id": "tr1"}, generation, response_only)
    assert [(v.status.value, unsupported(v)) for v in found] == [("flagged", ["fc1/5"]), ("unjudgeable", [])]


def test_langsmith_llm_runs(tmp_path):
    def lc(cls, **kwargs):
        return {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", cls], "kwargs": kwargs}
    first = {"id": "r2", "trace_id": "r0", "run_type": "llm", "dotted_order": "a.1",
             "inputs": {"messages": [[lc("HumanMessage", content="port?")]]},
             "outputs": {"generations": [[{"message": lc("AIMessage", content="", tool_calls=[
                 {"name": "show", "args": {}, "id": "c1"}])}]]}}
    tool = {"id": "r3", "trace_id": "r0", "run_type": "tool", "dotted_order": "a.2", "outputs": {"output": "x"}}
    second = {"id": "r4", "trace_id": "r0", "run_type": "llm", "dotted_order": "a.3",
              "inputs": {"messages": [[lc("HumanMessage", content="port?"),
                                       lc("AIMessage", content="", tool_calls=[{"name": "show", "args": {}, "id": "c1"}]),
                                       lc("ToolMessage", content='{"port": "fc1/3"}', tool_call_id="c1")]]},
              "outputs": {"generations": [[{"text": "fc1/3 and fc1/6"}]]}}
    found, summary = verdicts(tmp_path, second, tool, first)
    assert [unsupported(v) for v in found] == [["fc1/6"]] and summary.skipped == 1


def test_langfuse_generations_and_omitted_payloads(tmp_path):
    generation = {"id": "o3", "traceId": "tr", "type": "GENERATION", "startTime": "2026-01-01T00:00:03Z",
                  "input": json.dumps([{"role": "user", "content": "port?"},
                                       {"role": "tool", "tool_call_id": "c1", "content": '{"port": "fc1/3"}'}]),
                  "output": {"role": "assistant", "content": "fc1/3 and fc1/7"}}
    omitted = {"id": "o4", "traceId": "tr2", "type": "GENERATION", "input": None, "output": {"content": "fc1/8"}}
    found, _ = verdicts(tmp_path, {"observations": [generation]}, omitted)
    assert [(v.status.value, unsupported(v)) for v in found] == [("flagged", ["fc1/7"]), ("unjudgeable", [])]


def test_mlflow_trace_with_json_encoded_attributes(tmp_path):
    chat = {"name": "chat", "span_id": "a1", "attributes": {
        "mlflow.spanType": json.dumps("CHAT_MODEL"),
        "mlflow.spanInputs": json.dumps({"messages": [
            {"role": "user", "content": "port?"},
            {"role": "tool", "tool_call_id": "c1", "content": '{"port": "fc1/3"}'}]}),
        "mlflow.spanOutputs": json.dumps({"choices": [{"message": {"role": "assistant", "content": "fc1/3, fc1/9"}}]})}}
    record = {"info": {"trace_id": "tr-1"}, "data": {"spans": [chat]}}
    found, _ = verdicts(tmp_path, record)
    assert [unsupported(v) for v in found] == [["fc1/9"]]


def test_llamaindex_chat_messages(tmp_path):
    record = [
        {"role": "user", "additional_kwargs": {}, "blocks": [{"block_type": "text", "text": "port?"}]},
        {"role": "assistant", "additional_kwargs": {"tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "show", "arguments": "{}"}}]}, "blocks": []},
        {"role": "tool", "additional_kwargs": {"tool_call_id": "c1"},
         "blocks": [{"block_type": "text", "text": '{"port": "fc1/3"}'}]},
        {"role": "assistant", "additional_kwargs": {}, "blocks": [{"block_type": "text", "text": "fc1/3 fc1/11"}]},
    ]
    found, _ = verdicts(tmp_path, record)
    assert [unsupported(v) for v in found] == [["fc1/11"]]


def test_llamaindex_tool_call_blocks_are_calls(tmp_path):
    """FunctionAgent writes its calls as ToolCallBlocks (ChatMessage.model_dump() as held by its memory):
    the turn was read as an empty answer and the tool's name lost, so --require-tool failed a correct run."""
    record = [
        {"role": "user", "additional_kwargs": {}, "blocks": [{"block_type": "text", "text": "port?"}]},
        {"role": "assistant", "additional_kwargs": {}, "blocks": [
            {"block_type": "text", "text": "Let me look."},
            {"block_type": "tool_call", "tool_call_id": "c1", "tool_name": "show", "tool_kwargs": {"port": 3}}]},
        {"role": "tool", "additional_kwargs": {"tool_call_id": "c1", "name": "show"},
         "blocks": [{"block_type": "text", "text": '{"port": "fc1/3"}'}]},
        {"role": "assistant", "additional_kwargs": {}, "blocks": [{"block_type": "text", "text": "fc1/3 fc1/11"}]},
    ]
    found, _ = verdicts(tmp_path, record)
    assert [unsupported(v) for v in found] == [["fc1/11"]]
    import grounding

    [judged] = grounding.check(record, grounding.Options(require_tool=["show"]))
    assert judged.verdict.status.value == "flagged"  # the tool was called: only the invention fails


def _haystack(role, *parts):
    """A Haystack ChatMessage.to_dict() (haystack-ai 2.9 and later, 3.x as checked)."""
    return {"role": role, "meta": {}, "name": None, "content": list(parts)}


def test_haystack_to_dict_messages_read_their_calls_and_results(tmp_path):
    """The form a Haystack pipeline serialises ChatMessages in: read as OpenAI, its tool_call_result part was
    passed over and the read id itself accused."""
    call = {"tool_name": "show", "arguments": {"switch": "SW-7741"}, "id": "c1", "extra": None}
    record = [
        _haystack("system", {"text": "You are an SRE agent."}),
        _haystack("user", {"text": "port?"}),
        _haystack("assistant", {"tool_call": call}),
        _haystack("tool", {"tool_call_result": {"result": '{"port": "fc1/3"}', "origin": call, "error": False}}),
        _haystack("assistant", {"text": "fc1/3 fc1/11"}),
    ]
    found, _ = verdicts(tmp_path, record)
    assert [unsupported(v) for v in found] == [["fc1/11"]]  # the read port grounded; the invented one not
    import grounding

    [judged] = grounding.check(record, grounding.Options(require_tool=["show"]))
    assert judged.input_format == "haystack" and judged.verdict.status.value == "flagged"
    # a result written as parts (Haystack 2.18+), and a call's own arguments, which ground nothing
    parts_result = {"result": [{"text": '{"port": "fc1/3"}'}], "origin": call, "error": False}
    record[3] = _haystack("tool", {"tool_call_result": parts_result})
    record[4] = _haystack("assistant", {"text": "fc1/3 on SW-7741"})
    found, _ = verdicts(tmp_path, record)
    assert [unsupported(v) for v in found] == [["sw-7741"]]


def test_a_haystack_part_in_an_openai_list_is_not_passed_over(tmp_path):
    """A list holding one Haystack tool message among OpenAI ones is no format: an error naming the record,
    never the result dropped."""
    record = [{"role": "user", "content": "port?"},
              _haystack("tool", {"tool_call_result": {"result": "fc1/3", "origin": {}, "error": False}}),
              {"role": "assistant", "content": "fc1/3"}]
    found, summary = verdicts(tmp_path, record)
    assert found == [] and summary.errors == 1
