"""Conversations rebuilt from model calls: one record per call, each repeating the history before it.

OTel spans, OpenInference spans, LangSmith runs, Langfuse generations and
Agents SDK generation spans all log each model call with its whole input. The
calls of one trace, in start order, become one OpenAI Chat Completions
conversation: each call adds the messages its input has beyond what earlier
calls showed, then its output. Every tool result is read once and every final
answer judged once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from grounding.model import Conversation
from grounding.transcripts.formats import openai
from grounding.transcripts.formats.common import answers_at_lines, text_of_parts


@dataclass
class ModelCall:
    start: object  # anything that orders calls: nanoseconds, an ISO time, a dotted order
    inputs: list[dict] = field(default_factory=list)  # OpenAI Chat Completions messages
    outputs: list[dict] = field(default_factory=list)
    conversation_id: object = None
    captured: bool = True  # False when the call was logged without its messages
    line: int = 0  # the line of the record that holds the call (0: not known)
    span: tuple[str, str] | None = None  # (trace id, span id) of the call, in a trace that names them


def conversation_from_calls(
    calls: list[ModelCall], source: str, line: int, trace_id: str, input_format: str, extra_unjudgeable: str | None = None
) -> Conversation:
    ordered = sorted(calls, key=lambda call: (str(type(call.start)), call.start))
    messages: list[dict] = []
    conversation_id = None
    for call in ordered:
        conversation_id = conversation_id or call.conversation_id
        messages.extend(call.inputs[_already_seen(messages, call.inputs) :])
        messages.extend(call.outputs)
    conversation = openai.read({"id": conversation_id or trace_id, "messages": messages}, source, line)
    written = [(call.line, text_of_parts(message.get("content")), call.span) for call in ordered
               if call.line or call.span
               for message in call.outputs if isinstance(message, dict) and message.get("role") == "assistant"]
    items = answers_at_lines(conversation.items, written)
    missing = sum(1 for call in ordered if not call.captured)
    unjudgeable = extra_unjudgeable or (
        f"{missing} of {len(ordered)} model calls of trace {trace_id} were recorded without their messages "
        "(content capture is off): the evidence cannot be known"
        if missing else None
    )
    return Conversation(conversation.source, line, conversation.id, items, input_format, unjudgeable)


def _already_seen(messages: list[dict], inputs: list[dict]) -> int:
    """How many of a call's input messages earlier calls already showed (the history it repeats).

    When the history was truncated or compacted, only what follows its last
    assistant message is new: an answer is never judged twice.
    """
    if inputs[: len(messages)] == messages[: len(inputs)]:
        return min(len(messages), len(inputs))
    return max((i + 1 for i, m in enumerate(inputs) if m.get("role") == "assistant"), default=0)
