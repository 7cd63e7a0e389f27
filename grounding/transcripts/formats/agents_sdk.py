"""OpenAI Agents SDK trace spans: ``{"object": "trace.span", "span_data": {...}}``, grouped by trace.

Only ``generation`` spans (Chat Completions models) carry a model call's input
and output. With the default Responses models the exported ``response`` spans
hold a response id and nothing else: the answer and its evidence are not in
the record, and the trace is unjudgeable, never a pass.
"""

from __future__ import annotations

from grounding.model import Conversation
from grounding.transcripts.formats.calls import ModelCall, conversation_from_calls
from grounding.transcripts.formats.messages import as_chat_messages, output_message


def recognises(record: object) -> bool:
    return isinstance(record, dict) and record.get("object") in ("trace.span", "trace")


def entries(record: dict) -> list[tuple[str, dict]]:
    if record.get("object") != "trace.span" or not isinstance(record.get("span_data"), dict):
        return []
    return [(str(record.get("trace_id")), record)]


def assemble(spans: list[dict], source: str, line: int, trace_id: str, lines: list[int] | None = None) -> Conversation:
    calls = []
    for span, span_line in zip(spans, lines or [0] * len(spans)):
        data = span["span_data"]
        if data.get("type") == "generation":
            inputs = as_chat_messages(data.get("input")) or []
            outputs = output_message(data.get("output"))
            calls.append(ModelCall(str(span.get("started_at") or ""), inputs, outputs,
                                   captured=bool(inputs or outputs), line=span_line))
    missing = None
    if not calls:
        kinds = sorted({str(span["span_data"].get("type")) for span in spans})
        missing = (f"trace {trace_id} holds no generation span (only {', '.join(kinds)}): "
                   "the model's input and output were not exported")
    return conversation_from_calls(calls, source, line, trace_id, "openai-agents", missing)
