"""pydantic-ai message history (``ModelMessagesTypeAdapter`` JSON): requests and responses of parts.

Tool returns live in *requests*, beside user prompts; retry prompts and retry
feedback are the library's own words (neither evidence nor exempt, SPEC §2);
``metadata`` was never sent to the model. ``instructions`` ride on every request
but are one system prompt: each is read when it first appears or changes, so a
retry's request is not a new user turn.
"""

from __future__ import annotations

from grounding.errors import RecordError
from grounding.model import Conversation, Item, Kind
from grounding.transcripts.formats.common import (
    CallLedger,
    arguments_text,
    calls_item,
    every_message,
    expect_dict,
    messages_list,
    result_items,
    user_text,
)

_EXEMPT_PARTS = frozenset({"system-prompt", "user-prompt", "instruction", "instructions"})
_RESULT_PARTS = frozenset({"tool-return", "builtin-tool-return"})
_CALL_PARTS = frozenset({"tool-call", "builtin-tool-call"})
_RETRY_PARTS = frozenset({"retry-prompt", "retry-feedback"})


def recognises(record: object) -> bool:
    return every_message(record, _is_message)


def _is_message(m: object) -> bool:
    return isinstance(m, dict) and m.get("kind") in ("request", "response") and isinstance(m.get("parts"), list)


def starts_turn(message: dict) -> bool:
    """Whether a message starts a turn: a request of prompts only (a tool return names a call before it)."""
    parts = message.get("parts")
    return message.get("kind") == "request" and isinstance(parts, list) and bool(parts) and all(
        isinstance(part, dict) and part.get("part_kind") in _EXEMPT_PARTS for part in parts)


def read(record: object, source: str, line: int) -> Conversation:
    messages = messages_list(record)
    if not messages:
        raise RecordError("expected a list of pydantic-ai messages (kind: request | response)")
    items: list[Item] = []
    ledger = CallLedger()
    conversation_id = record.get("id") if isinstance(record, dict) else None
    instructions = None
    for index, raw in enumerate(messages):
        message = expect_dict(raw, f"messages[{index}]")
        conversation_id = conversation_id or message.get("conversation_id")
        if isinstance(message.get("instructions"), str) and message["instructions"] != instructions:
            instructions = message["instructions"]
            items.append(user_text(instructions))
        parts = [p for p in message.get("parts", []) if isinstance(p, dict)]
        if message.get("kind") == "response":
            items.extend(_response(parts, ledger))
        else:
            items.extend(_request(parts, ledger))
    return Conversation(source, line, None if conversation_id is None else str(conversation_id), tuple(items), "pydantic-ai")


def _request(parts: list[dict], ledger: CallLedger) -> list[Item]:
    items = []
    for part in parts:
        kind = part.get("part_kind")
        if kind in _EXEMPT_PARTS:
            content = part.get("content")
            texts = [content] if isinstance(content, str) else [c for c in content or [] if isinstance(c, str)]
            items.extend(user_text(text) for text in texts)
        elif kind in _RETRY_PARTS or (kind in _RESULT_PARTS and part.get("outcome") == "retried"):
            content = part.get("content")
            items.append(Item(Kind.NEITHER, content if isinstance(content, str) else arguments_text(content) or ""))
        elif kind in _RESULT_PARTS:
            call = ledger.call_for(part.get("tool_call_id"), part.get("tool_name"))
            failed = part.get("outcome") in ("failed", "denied")
            items.extend(result_items(part.get("content"), is_error=failed, arguments=call.arguments, tool=call.name))
    return items


def _response(parts: list[dict], ledger: CallLedger) -> list[Item]:
    calls = [
        (p.get("tool_call_id"), p.get("tool_name"), arguments_text(p.get("args")))
        for p in parts
        if p.get("part_kind") in _CALL_PARTS
    ]
    results = [item for p in parts if p.get("part_kind") in _RESULT_PARTS for item in result_items(p.get("content"))]
    if calls:
        ledger.add_turn(calls)
        return [calls_item(calls), *results]
    text = "\n".join(p["content"] for p in parts if p.get("part_kind") == "text" and isinstance(p.get("content"), str))
    return [*results, Item(Kind.ANSWER, text)]


__all__ = ["RecordError", "read", "recognises"]
