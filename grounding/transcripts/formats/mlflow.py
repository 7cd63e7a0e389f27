"""MLflow traces: ``{"info": {...}, "data": {"spans": [...]}}``, one record per trace.

Span inputs and outputs are JSON strings in ``mlflow.spanInputs`` /
``mlflow.spanOutputs`` (sometimes encoded twice); chat spans are those whose
``mlflow.spanType`` is ``CHAT_MODEL`` or ``LLM``.
"""

from __future__ import annotations

import json

from grounding.errors import RecordError
from grounding.model import Conversation
from grounding.transcripts.formats.calls import ModelCall, conversation_from_calls
from grounding.transcripts.formats.messages import as_chat_messages, output_message

_CHAT_TYPES = frozenset({"CHAT_MODEL", "LLM"})


def recognises(record: object) -> bool:
    return (isinstance(record, dict) and isinstance(record.get("info"), dict)
            and isinstance(record.get("data"), dict) and isinstance(record["data"].get("spans"), list))


def read(record: object, source: str, line: int) -> Conversation:
    if not recognises(record):
        raise RecordError('expected an MLflow trace {"info": {...}, "data": {"spans": [...]}}')
    info, spans = record["info"], record["data"]["spans"]
    calls = []
    for order, span in enumerate(spans):
        attributes = span.get("attributes") if isinstance(span, dict) else None
        if not isinstance(attributes, dict) or _decoded(attributes.get("mlflow.spanType")) not in _CHAT_TYPES:
            continue
        raw_input = _decoded(attributes.get("mlflow.spanInputs"))
        inputs = as_chat_messages(raw_input) or []
        outputs = output_message(_decoded(attributes.get("mlflow.spanOutputs")))
        start = span.get("start_time_unix_nano") or span.get("start_time_ns") or span.get("start_time") or order
        calls.append(ModelCall(start, inputs, outputs, captured=raw_input is not None))
    trace_id = str(info.get("trace_id") or info.get("request_id"))
    return conversation_from_calls(calls, source, line, trace_id, "mlflow")


def _decoded(value: object) -> object:
    """JSON text decoded, twice when it was encoded twice (``"\\"TOOL\\""``)."""
    for _ in range(2):
        if not isinstance(value, str):
            return value
        try:
            value = json.loads(value)
        except ValueError:
            return value
    return value
