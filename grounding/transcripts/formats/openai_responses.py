"""OpenAI Responses API: ``instructions``, ``input`` items and ``output`` items.

An assistant message directly followed by ``function_call`` items is one
model turn that called tools: not a final answer. ``phase: "commentary"``
text is not a final answer either.
"""

from __future__ import annotations

from grounding.errors import RecordError
from grounding.model import Conversation, Item, Kind
from grounding.transcripts.formats.common import (
    RESPONSE_ALONE,
    CallLedger,
    calls_item,
    conversation_id_in,
    expect_dict,
    result_items,
    text_of_parts,
    user_text,
)

_ITEM_TYPES = frozenset({"function_call", "function_call_output", "reasoning", "custom_tool_call",
                         "custom_tool_call_output", "mcp_call", "web_search_call", "file_search_call"})
_CALLS = frozenset({"function_call", "custom_tool_call"})
_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output"})


def recognises(record: object) -> bool:
    if not isinstance(record, dict):
        return False
    if record.get("object") == "response":
        return True
    for key in ("input", "output"):  # loops, not any() over a generator: this runs on every record
        items = record.get(key)
        if isinstance(items, list):
            for i in items:
                if isinstance(i, dict) and (i.get("type") in _ITEM_TYPES or _has_response_parts(i)):
                    return True
    return False


def _has_response_parts(item: dict) -> bool:
    content = item.get("content")
    return isinstance(content, list) and any(
        isinstance(p, dict) and p.get("type") in ("input_text", "output_text") for p in content
    )


def starts_turn(entry: dict) -> bool:
    """Whether an input item starts a turn: a user's, system's or developer's message (an output names its call)."""
    return entry.get("type", "message") == "message" and entry.get("role") in ("system", "developer", "user")


def read(record: object, source: str, line: int) -> Conversation:
    body = expect_dict(record, "an OpenAI Responses record")
    if body.get("object") == "response" and "input" not in body:
        raise RecordError(RESPONSE_ALONE)  # as every provider's response alone: the input it read is elsewhere
    items: list[Item] = []
    if isinstance(body.get("instructions"), str):
        items.append(user_text(body["instructions"]))
    sequence = [i for key in ("input", "output") if isinstance(body.get(key), list) for i in body[key]]
    if isinstance(body.get("input"), str):
        items.append(user_text(body["input"]))
    ledger = CallLedger()
    pending_calls: list[tuple[object, object, str | None]] = []
    for position, raw in enumerate(sequence):
        entry = expect_dict(raw, f"item {position}")
        kind = entry.get("type", "message")
        if kind in _CALLS:
            pending_calls.append((entry.get("call_id"), entry.get("name"), entry.get("arguments") or entry.get("input")))
            nxt = sequence[position + 1] if position + 1 < len(sequence) else None
            if not (isinstance(nxt, dict) and nxt.get("type") in _CALLS):
                ledger.add_turn(pending_calls)
                items.append(calls_item(pending_calls))
                pending_calls = []
        elif kind in _OUTPUTS:
            call = ledger.call_for(entry.get("call_id"))
            items.extend(result_items(entry.get("output"), arguments=call.arguments, tool=call.name))
        elif kind == "mcp_call" and entry.get("output") is not None:
            items.extend(result_items(entry.get("output"), arguments=entry.get("arguments")))
        elif kind == "message":
            items.append(_message(entry, sequence, position))
        elif kind == "reasoning":
            items.append(Item(Kind.NEITHER, "", work=_reasoning_text(entry)))
    unjudgeable = None
    for key in ("previous_response_id", "conversation"):
        if body.get(key):
            unjudgeable = (f"{key} {body[key]!r}: the earlier turns, and their tool results, are held by the "
                           "API and not in this record")
    return Conversation(source, line, conversation_id_in(body, "metadata"), tuple(items), "openai-responses", unjudgeable=unjudgeable)


def _reasoning_text(entry: dict) -> str:
    """A reasoning item's summary and its reasoning text, where the record keeps them (§9.24's work shown)."""
    parts = [part for key in ("summary", "content") if isinstance(entry.get(key), list) for part in entry[key]]
    return "\n".join(part["text"] for part in parts if isinstance(part, dict) and isinstance(part.get("text"), str))


def _message(entry: dict, sequence: list, position: int) -> Item:
    role = entry.get("role")
    text = text_of_parts(entry.get("content"))
    if role != "assistant":
        return user_text(text)
    nxt = sequence[position + 1] if position + 1 < len(sequence) else None
    if isinstance(nxt, dict) and nxt.get("type") in _CALLS:
        return Item(Kind.NEITHER, "", work=text)  # text said on the way to a tool call
    if entry.get("phase") == "commentary":
        return Item(Kind.NEITHER, "", work=text)
    return Item(Kind.ANSWER, text)


__all__ = ["RecordError", "read", "recognises"]
