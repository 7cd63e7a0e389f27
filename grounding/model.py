"""The neutral conversation model every reader lowers its records to (SPEC §2).

Past the readers nothing knows which transcript format a conversation came
from: it is an ordered list of items, each evidence, exempt text, a final
answer, or something the model typed that grounds nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from grounding.frames import is_framework_frame


class Kind(Enum):
    EVIDENCE = "evidence"  # a tool result: the model read it
    EXEMPT = "exempt"  # the user's text, a system or developer prompt
    ANSWER = "answer"  # an assistant message with no tool calls: judged
    NEITHER = "neither"  # tool calls, framework corrections: ground nothing


# The members as plain names, for code run per message: in Python 3.11 ``Kind.EVIDENCE`` costs five times a
# global's look-up (EnumType defines __getattr__, so every attribute of the class takes the slow path).
EVIDENCE, EXEMPT, ANSWER, NEITHER = Kind.EVIDENCE, Kind.EXEMPT, Kind.ANSWER, Kind.NEITHER

# Stop reasons after which an answer's text is not a finished answer (Item.stop_reason), across formats.
STOPS_TRUNCATED = frozenset({"max_tokens", "length", "model_context_window_exceeded", "max_output_tokens"})
STOPS_REFUSED = frozenset({"refusal", "content_filter", "safety", "recitation"})


@dataclass(slots=True)  # not frozen: one per message, and a frozen __init__ costs ~6x (a setattr per field)
class Item:
    """One piece of a conversation, in order."""

    kind: Kind
    text: str
    is_error: bool = False  # the transport marked this tool result as failed
    call_arguments: str | None = None  # arguments of the call this result answers (§2.5)
    document: object = None  # a tool result a format already holds as JSON (an object or array), else None
    tool: str | None = None  # the name of the tool whose result this is, when the record says
    stop_reason: str | None = None  # why the model stopped writing this answer, when the record says
    calls: tuple[str, ...] = ()  # the tools an assistant turn called (the tool-call ledger)
    line: int = 0  # the line of the record that holds it, where a conversation spans lines (0: the conversation's)


@dataclass(slots=True)  # not frozen: one per record, and a frozen __init__ costs ~6x (a setattr per field)
class Conversation:
    """One conversation as read from one record of a transcript."""

    source: str  # the path as given, or "-"
    line: int  # 1-based line of the record
    id: str | None
    items: tuple[Item, ...]
    input_format: str
    unjudgeable: str | None = None  # why the evidence cannot be known (content not captured, server-side state)


def is_framework_correction(text: str) -> bool:
    """True for user text a framework wrote to quote the model's values back (§2.3; grounding.frames)."""
    return is_framework_frame(text)
