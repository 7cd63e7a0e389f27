"""Readers: one module per transcript format, each lowering a record to the neutral model.

Detection is per record, in this order: Anthropic Messages (a top-level
``system``, or content blocks of type ``tool_use``/``tool_result``), then
OpenAI Chat Completions (``{"messages": [...]}`` or a bare messages array).
"""

from __future__ import annotations

from collections.abc import Callable

from grounding.model import Conversation
from grounding.readers import anthropic, openai
from grounding.readers.common import RecordError

Reader = Callable[[object, str, int], Conversation]

READERS: dict[str, Reader] = {
    "anthropic": anthropic.read,
    "openai": openai.read,
}
DETECTION_ORDER = ("anthropic", "openai")
_RECOGNISERS = {"anthropic": anthropic.recognises, "openai": openai.recognises}


def read_record(record: object, source: str, line: int, input_format: str | None = None) -> Conversation:
    """Lower one parsed record to a Conversation, detecting its format unless one is forced."""
    if input_format is not None:
        return READERS[input_format](record, source, line)
    for name in DETECTION_ORDER:
        if _RECOGNISERS[name](record):
            return READERS[name](record, source, line)
    raise RecordError(_unrecognised(record))


def _unrecognised(record: object) -> str:
    if isinstance(record, dict):
        keys = ", ".join(repr(key) for key in list(record)[:8]) or "none"
        return (
            f"not a conversation in a known format (keys seen: {keys}); expected "
            "{\"messages\": [...]} (OpenAI Chat Completions or Anthropic Messages) or a bare messages array"
        )
    return (
        f"not a conversation in a known format (a JSON {type(record).__name__}); expected "
        "{\"messages\": [...]} or a bare messages array"
    )


__all__ = ["DETECTION_ORDER", "READERS", "RecordError", "read_record"]
