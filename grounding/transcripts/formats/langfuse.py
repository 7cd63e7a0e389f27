"""Langfuse trace export: observations (``GENERATION``, ``TOOL``, …) with ``traceId``, grouped by trace.

A generation's ``input`` is what the integration logged (OpenAI messages, a
LangChain dump, sometimes a JSON string in blob exports). A payload Langfuse
left out as too large makes the trace unjudgeable.
"""

from __future__ import annotations

import json

from grounding.model import Conversation
from grounding.transcripts.formats.calls import ModelCall, conversation_from_calls
from grounding.transcripts.formats.messages import as_chat_messages, output_message

_TYPES = frozenset({"SPAN", "GENERATION", "EVENT", "AGENT", "TOOL", "CHAIN", "RETRIEVER", "EVALUATOR",
                    "EMBEDDING", "GUARDRAIL"})


def recognises(record: object) -> bool:
    if not isinstance(record, dict):
        return False
    if isinstance(record.get("observations"), list):
        return True
    return record.get("type") in _TYPES and ("traceId" in record or "trace_id" in record)


def entries(record: dict) -> list[tuple[str, dict]]:
    observations = record["observations"] if isinstance(record.get("observations"), list) else [record]
    found = []
    for observation in observations:
        if isinstance(observation, dict) and observation.get("type") == "GENERATION":
            trace = observation.get("traceId") or observation.get("trace_id")
            found.append((str(trace), observation))
    return found


def assemble(generations: list[dict], source: str, line: int, trace_id: str,
             lines: list[int] | None = None) -> Conversation:
    calls = []
    for generation, generation_line in zip(generations, lines or [0] * len(generations)):
        raw_input, raw_output = _decoded(generation.get("input")), _decoded(generation.get("output"))
        inputs = as_chat_messages(raw_input) or []
        outputs = output_message(raw_output) if raw_output is not None else []
        start = generation.get("startTime") or generation.get("start_time") or ""
        calls.append(ModelCall(str(start), inputs, outputs, captured=raw_input is not None, line=generation_line))
    return conversation_from_calls(calls, source, line, trace_id, "langfuse")


def _decoded(value: object) -> object:
    if isinstance(value, str) and value[:1] in ("[", "{"):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value
