"""OpenTelemetry spans in OTLP JSON: GenAI attribute conventions and OpenInference (SPEC §2 via formats.md §9–§10).

One span per model call, each repeating the history before it; a trace's
spans may be spread over many lines, in any order. Spans are grouped by trace
id until the end of input, ordered by start time, and lowered to one OpenAI
Chat Completions conversation: each span adds the messages its input has
beyond what earlier spans showed, then its output. So every tool result is
read once and every final answer judged once.
"""

from __future__ import annotations

import json
import re

from grounding.errors import RecordError
from grounding.model import Conversation
from grounding.transcripts.formats.calls import ModelCall, conversation_from_calls

_OPENINFERENCE_INDEX = re.compile(r"^llm\.(input|output)_messages\.(\d+)\.message\.(.+)$")


def recognises(record: object) -> bool:
    return isinstance(record, dict) and isinstance(record.get("resourceSpans"), list)


def spans(record: dict) -> list[dict]:
    """Every span of one TracesData record, with its attributes decoded to plain values."""
    found = []
    for resource in _dicts(record.get("resourceSpans")):
        for scope in _dicts(resource.get("scopeSpans")):
            for span in _dicts(scope.get("spans")):
                if isinstance(span, dict):
                    attributes = {a.get("key"): any_value(a.get("value")) for a in span.get("attributes") or []
                                  if isinstance(a, dict)}
                    found.append({"traceId": span.get("traceId"), "spanId": span.get("spanId"),
                                  "start": int(span.get("startTimeUnixNano") or 0), "attributes": attributes})
    return found


def any_value(value: object) -> object:
    """Decode an OTLP ``AnyValue`` to a plain value."""
    if not isinstance(value, dict):
        return value
    if "stringValue" in value:
        return value["stringValue"]
    if "intValue" in value:
        return int(value["intValue"])
    if "doubleValue" in value:
        return value["doubleValue"]
    if "boolValue" in value:
        return value["boolValue"]
    if "arrayValue" in value:
        return [any_value(v) for v in (value["arrayValue"] or {}).get("values") or []]
    if "kvlistValue" in value:
        return {kv.get("key"): any_value(kv.get("value")) for kv in (value["kvlistValue"] or {}).get("values") or []}
    return None


_MODEL_CALLS = frozenset({"chat", "text_completion", "generate_content"})


def kind_of(span: dict) -> str | None:
    """Which convention a model-call span follows; None for spans that are not model calls."""
    attributes = span["attributes"]
    if "openinference.span.kind" in attributes:
        return "openinference" if attributes["openinference.span.kind"] == "LLM" else None
    if "gen_ai.input.messages" in attributes or "gen_ai.output.messages" in attributes:
        return "otel-genai"
    if attributes.get("gen_ai.operation.name") in _MODEL_CALLS:
        return "otel-genai"  # a model call whose content was not captured
    return None


def has_content(span: dict) -> bool:
    attributes = span["attributes"]
    return any(key.startswith(("gen_ai.input.messages", "gen_ai.output.messages", "llm.input_messages",
                               "llm.output_messages")) for key in attributes)


def assemble(trace: list[dict], source: str, line: int, trace_id: str, lines: list[int] | None = None) -> Conversation:
    """One conversation from the model-call spans of one trace (lines: the line of each span's record)."""
    calls, input_format = [], "otel-genai"
    for span, span_line in zip(trace, lines or [0] * len(trace)):
        kind = kind_of(span)
        if kind is None:
            continue
        input_format = kind
        inputs, outputs, conversation_id = _messages_of(span, kind)
        named = (str(span["traceId"]), str(span["spanId"])) if span.get("traceId") and span.get("spanId") else None
        calls.append(ModelCall(span["start"], inputs, outputs, conversation_id, has_content(span), span_line, named))
    return conversation_from_calls(calls, source, line, trace_id, input_format)


def _messages_of(span: dict, input_format: str) -> tuple[list[dict], list[dict], object]:
    if input_format == "openinference":
        inputs, outputs = _openinference(span)
        found_id = span["attributes"].get("session.id")
    else:
        inputs, outputs = _genai(span)
        found_id = span["attributes"].get("gen_ai.conversation.id")
    return inputs, outputs, found_id


def _genai(span: dict) -> tuple[list[dict], list[dict]]:
    attributes = span["attributes"]
    inputs = [_chat_message(m) for m in _json(attributes.get("gen_ai.input.messages")) or []]
    system = _json(attributes.get("gen_ai.system_instructions"))
    if system:
        text = "\n".join(p.get("content", "") for p in system if isinstance(p, dict) and p.get("type") == "text")
        inputs.insert(0, {"role": "system", "content": text})
    outputs = [_chat_message(m) for m in _json(attributes.get("gen_ai.output.messages")) or []]
    return [m for m in inputs if m], [m for m in outputs if m]


def _json(value: object) -> object:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            raise RecordError("a gen_ai message attribute is not valid JSON") from None
    return value


def _chat_message(message: object) -> dict | None:
    """One OTel GenAI ``ChatMessage`` as an OpenAI Chat Completions message."""
    if not isinstance(message, dict):
        return None
    role = message.get("role")
    parts = [p for p in message.get("parts") or [] if isinstance(p, dict)]
    texts = [p.get("content") for p in parts if p.get("type") == "text" and isinstance(p.get("content"), str)]
    if role == "tool":
        for part in parts:
            if part.get("type") == "tool_call_response":
                response = part.get("response", part.get("result"))
                return {"role": "tool", "tool_call_id": part.get("id"), "content": _as_content(response)}
        return {"role": "tool", "content": "\n".join(texts)}
    calls = [
        {"id": p.get("id"), "type": "function",
         "function": {"name": p.get("name"), "arguments": p.get("arguments")}}
        for p in parts if p.get("type") == "tool_call"
    ]
    converted: dict = {"role": role, "content": "\n".join(texts) if texts else None}
    if role == "assistant" and message.get("finish_reason") not in (None, "stop", "tool_call", "tool_calls", "end_turn"):
        converted["finish_reason"] = message["finish_reason"]  # only a stop that is not an answer is kept
    if calls:
        converted["tool_calls"] = calls
    return converted


def _as_content(response: object) -> object:
    if isinstance(response, (dict, str)):
        return response
    if isinstance(response, list) and all(isinstance(b, dict) and b.get("type") == "text" for b in response):
        return response
    return {"output": response} if isinstance(response, list) else str(response)


def _openinference(span: dict) -> tuple[list[dict], list[dict]]:
    tree: dict[str, dict[int, dict]] = {"input": {}, "output": {}}
    for key, value in span["attributes"].items():
        match = _OPENINFERENCE_INDEX.match(key or "")
        if match:
            side, index, path = match.group(1), int(match.group(2)), match.group(3)
            tree[side].setdefault(index, {})[path] = value
    return ([_flat_message(tree["input"][i]) for i in sorted(tree["input"])],
            [_flat_message(tree["output"][i]) for i in sorted(tree["output"])])


def _flat_message(fields: dict) -> dict:
    """One OpenInference message, its flattened keys rebuilt (lists by number, never as text)."""
    message: dict = {"role": fields.get("role")}
    contents: dict[int, str] = {}
    calls: dict[int, dict] = {}
    for path, value in fields.items():
        if path == "content":
            message["content"] = value
        elif path == "tool_call_id":
            message["tool_call_id"] = value
        elif path.startswith("contents."):
            number, _, rest = path[len("contents."):].partition(".")
            if rest == "message_content.text":
                contents[int(number)] = value
        elif path.startswith("tool_calls."):
            number, _, rest = path[len("tool_calls."):].partition(".")
            call = calls.setdefault(int(number), {"type": "function", "function": {}})
            if rest == "tool_call.id":
                call["id"] = value
            elif rest == "tool_call.function.name":
                call["function"]["name"] = value
            elif rest == "tool_call.function.arguments":
                call["function"]["arguments"] = value
    if contents and "content" not in message:
        message["content"] = [{"type": "text", "text": contents[i]} for i in sorted(contents)]
    if calls:
        message["tool_calls"] = [calls[i] for i in sorted(calls)]
    message.setdefault("content", None)
    return message


def ended_traces(record: dict) -> list[str]:
    """The traces whose root span (no parent) ends in this record: on a stream they are complete, as a
    span ends after its children and an exporter sends each span when it ends."""
    ended = []
    for resource in _dicts(record.get("resourceSpans")):
        for scope in _dicts(resource.get("scopeSpans")):
            for span in _dicts(scope.get("spans")):
                if not span.get("parentSpanId") and span.get("endTimeUnixNano") and span.get("traceId"):
                    ended.append(str(span["traceId"]))
    return ended


def entries(record: dict) -> list[tuple[str, dict]]:
    """(trace id, span) for every model-call span of one TracesData record."""
    return [(str(span.get("traceId")), span) for span in spans(record) if kind_of(span)]


def _dicts(value: object) -> list[dict]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []
