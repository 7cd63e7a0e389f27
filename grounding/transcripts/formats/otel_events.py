"""OpenTelemetry GenAI event conventions (≤ v1.36): OTLP JSON log records named ``gen_ai.*``.

Each model call (span) logs the whole history as events, then a
``gen_ai.choice``. Events are grouped by trace, then by span: one span is one
model call.
"""

from __future__ import annotations

from grounding.model import Conversation
from grounding.transcripts.formats.calls import ModelCall, conversation_from_calls
from grounding.transcripts.formats.otlp import any_value

_ROLES = {"gen_ai.system.message": "system", "gen_ai.user.message": "user",
          "gen_ai.assistant.message": "assistant", "gen_ai.tool.message": "tool"}


def recognises(record: object) -> bool:
    return isinstance(record, dict) and isinstance(record.get("resourceLogs"), list)


def entries(record: dict) -> list[tuple[str, dict]]:
    found = []
    for resource in record.get("resourceLogs") or []:
        for scope in (resource or {}).get("scopeLogs") or []:
            for log in (scope or {}).get("logRecords") or []:
                if not isinstance(log, dict):
                    continue
                attributes = {a.get("key"): any_value(a.get("value")) for a in log.get("attributes") or []
                              if isinstance(a, dict)}
                name = log.get("eventName") or attributes.get("event.name")
                if isinstance(name, str) and (name in _ROLES or name == "gen_ai.choice"):
                    body = any_value(log.get("body"))
                    found.append((str(log.get("traceId")), {
                        "span": log.get("spanId"), "time": int(log.get("timeUnixNano") or 0), "name": name,
                        "body": body if isinstance(body, dict) else {"content": body},
                    }))
    return found


def assemble(events: list[dict], source: str, line: int, trace_id: str, lines: list[int] | None = None) -> Conversation:
    """One conversation from a trace's log events, by span (lines: not used; answers take the trace's)."""
    by_span: dict[object, list[dict]] = {}
    for event in events:
        by_span.setdefault(event["span"], []).append(event)
    calls = []
    for span_events in by_span.values():
        span_events.sort(key=lambda e: e["time"])
        call = ModelCall(span_events[0]["time"])
        for event in span_events:
            body = event["body"]
            if event["name"] == "gen_ai.choice":
                message = body.get("message") if isinstance(body.get("message"), dict) else {}
                call.outputs.append(_message("assistant", message))
            else:
                role = _ROLES[event["name"]]
                call.inputs.append(_message(role, body))
                if role in ("user", "tool") and "content" not in body:
                    call.captured = False
        calls.append(call)
    return conversation_from_calls(calls, source, line, trace_id, "otel-genai-events")


def _message(role: str, body: dict) -> dict:
    message: dict = {"role": role, "content": body.get("content")}
    if role == "tool":
        message["tool_call_id"] = body.get("id")
    if isinstance(body.get("tool_calls"), list) and body["tool_calls"]:
        message["tool_calls"] = body["tool_calls"]
    return message
