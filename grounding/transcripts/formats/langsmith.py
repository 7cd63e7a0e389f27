"""LangSmith run export: runs with ``run_type`` and ``dotted_order``, grouped by trace.

An ``llm`` run's ``inputs.messages`` holds the prompt (LangChain serialised
messages or OpenAI messages, often one list per batch item) and its
``outputs.generations`` the reply.
"""

from __future__ import annotations

from grounding.model import Conversation
from grounding.transcripts.formats.calls import ModelCall, conversation_from_calls
from grounding.transcripts.formats.messages import as_chat_messages, output_message


def recognises(record: object) -> bool:
    return isinstance(record, dict) and "run_type" in record and ("dotted_order" in record or "trace_id" in record)


def ended_traces(record: dict) -> list[str]:
    """The trace whose root run (no parent) ends with this record: on a stream it is complete."""
    if record.get("parent_run_id") is None and record.get("end_time") and (record.get("trace_id") or record.get("id")):
        return [str(record.get("trace_id") or record.get("id"))]
    return []


def entries(record: dict) -> list[tuple[str, dict]]:
    return [(str(record.get("trace_id") or record.get("id")), record)] if record.get("run_type") == "llm" else []


def assemble(runs: list[dict], source: str, line: int, trace_id: str, lines: list[int] | None = None) -> Conversation:
    calls = []
    for run, run_line in zip(runs, lines or [0] * len(runs)):
        inputs = as_chat_messages(run.get("inputs")) or []
        outputs = output_message(run.get("outputs")) if run.get("outputs") is not None else []
        calls.append(ModelCall(str(run.get("dotted_order") or run.get("start_time") or ""), inputs, outputs,
                               captured=run.get("inputs") is not None, line=run_line))
    return conversation_from_calls(calls, source, line, trace_id, "langsmith")
