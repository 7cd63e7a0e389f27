"""--output-format otlp: the verdicts as OpenTelemetry gen_ai.evaluation.result log records in OTLP JSON,
loaded with the OpenTelemetry protobuf definitions (opentelemetry-proto) as a receiver loads them, and, for
answers read from a trace, attached to the span of the model call that wrote them (issue 50, point 3)."""

from __future__ import annotations

import base64
import json

import pytest
from conftest import REPO
from typer.testing import CliRunner

from grounding.cli.app import app

pytest.importorskip("opentelemetry.proto", reason="opentelemetry-proto is in the test extra")

from google.protobuf import json_format  # noqa: E402
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest  # noqa: E402

TRACE, CALL_SPAN, ANSWER_SPAN = "5b8efff798038103d269b633813fc60c", "eee19b7ec3c1b174", "eee19b7ec3c1b175"


def _report(*paths: str) -> tuple[dict, ExportLogsServiceRequest]:
    result = CliRunner().invoke(app, ["check", *paths, "--output-format", "otlp"], prog_name="ground")
    assert result.exit_code in (0, 1), result.output
    document = json.loads(result.stdout)
    # OTLP/JSON writes trace and span ids in hex where protobuf's JSON mapping has base64: a receiver
    # turns them back, as this does, before the message is parsed
    for record in _records(document):
        for key in ("traceId", "spanId"):
            if key in record:
                record[key] = base64.b64encode(bytes.fromhex(record[key])).decode()
    return document, json_format.Parse(json.dumps(document), ExportLogsServiceRequest())


def _records(document: dict) -> list[dict]:
    return [record for resource in document["resourceLogs"] for scope in resource["scopeLogs"]
            for record in scope["logRecords"]]


def _attributes(record) -> dict:
    return {a.key: json_format.MessageToDict(a.value) for a in record.attributes}


def test_each_answer_is_an_evaluation_event_a_receiver_loads(monkeypatch):
    monkeypatch.chdir(REPO)
    _, message = _report("fixtures/support_bot.jsonl")
    [resource] = message.resource_logs
    assert resource.resource.attributes[0].value.string_value == "ground"
    records = resource.scope_logs[0].log_records
    assert [record.event_name for record in records] == ["gen_ai.evaluation.result"] * 3
    found = [_attributes(record) for record in records]
    assert [a["gen_ai.evaluation.score.label"]["stringValue"] for a in found] == ["grounded", "flagged", "derived"]
    assert [a["gen_ai.evaluation.score.value"].get("doubleValue", 0) for a in found] == [1, 0, 1]
    assert all(a["gen_ai.evaluation.name"]["stringValue"] == "ground.evidence" for a in found)
    flagged = found[1]
    values = [v["stringValue"] for v in flagged["ground.unsupported"]["arrayValue"]["values"]]
    assert values and flagged["gen_ai.evaluation.explanation"]["stringValue"].endswith(", ".join(values))
    assert records[1].severity_text == "WARN" and not records[0].trace_id  # read from no trace: no span


def _span(span_id: str, start: int, inputs: list, outputs: list) -> dict:
    attributes = [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
                  {"key": "gen_ai.input.messages", "value": {"stringValue": json.dumps(inputs)}},
                  {"key": "gen_ai.output.messages", "value": {"stringValue": json.dumps(outputs)}}]
    return {"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": TRACE, "spanId": span_id,
                                                          "startTimeUnixNano": str(start), "attributes": attributes}]}]}]}


def test_an_answer_read_from_a_trace_is_attached_to_the_span_that_wrote_it(tmp_path):
    user = {"role": "user", "parts": [{"type": "text", "content": "port?"}]}
    call = {"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "show", "arguments": {}}]}
    result = {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": {"port": "fc1/3"}}]}
    answer = {"role": "assistant", "parts": [{"type": "text", "content": "fc1/3 and fc1/4"}], "finish_reason": "stop"}
    path = tmp_path / "trace.jsonl"
    path.write_text(json.dumps(_span(CALL_SPAN, 1, [user], [call])) + "\n"
                    + json.dumps(_span(ANSWER_SPAN, 2, [user, call, result], [answer])) + "\n")
    document, message = _report(str(path))
    [record] = message.resource_logs[0].scope_logs[0].log_records
    assert record.trace_id == bytes.fromhex(TRACE) and record.span_id == bytes.fromhex(ANSWER_SPAN)
    assert _records(json.loads(json.dumps(document)))[0]["traceId"]  # written, in hex in the report itself
    assert _attributes(record)["gen_ai.evaluation.explanation"]["stringValue"] == "not read in any tool result: fc1/4"


def test_an_answer_not_judged_for_evidence_carries_no_score_and_says_why(monkeypatch):
    monkeypatch.chdir(REPO)
    _, message = _report("fixtures/server_state.jsonl")
    found = [_attributes(record) for record in message.resource_logs[0].scope_logs[0].log_records]
    unjudgeable = [a for a in found if a["gen_ai.evaluation.score.label"]["stringValue"] == "unjudgeable"]
    assert unjudgeable and all("gen_ai.evaluation.score.value" not in a for a in unjudgeable)
    assert all(a["gen_ai.evaluation.explanation"]["stringValue"] for a in unjudgeable)
