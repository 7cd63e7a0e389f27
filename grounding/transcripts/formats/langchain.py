"""LangChain messages: ``messages_to_dict`` items, ``dumpd`` constructors, or flat ``model_dump`` dicts.

A ToolMessage's ``artifact`` was never sent to the model: not evidence.
``additional_kwargs.tool_calls`` repeats ``tool_calls`` in OpenAI's shape.
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
    text_of_parts,
    user_text,
)

_TYPES = {"system": "system", "human": "user", "user": "user", "ai": "assistant", "assistant": "assistant",
          "tool": "tool", "function": "tool", "chat": "user", "developer": "system"}
_CLASS_TYPES = {"SystemMessage": "system", "HumanMessage": "human", "AIMessage": "ai", "ToolMessage": "tool",
                "FunctionMessage": "function", "ChatMessage": "chat", "AIMessageChunk": "ai",
                "ToolMessageChunk": "tool", "HumanMessageChunk": "human", "SystemMessageChunk": "system"}


def recognises(record: object) -> bool:
    return every_message(record, lambda message: unpack(message) is not None)


def starts_turn(message: dict) -> bool:
    """Whether a message starts a turn: a human's or system's message (a tool message names a call before it)."""
    unpacked = unpack(message)
    return unpacked is not None and _TYPES.get(unpacked[0]) in ("system", "user")


def read(record: object, source: str, line: int) -> Conversation:
    messages = messages_list(record)
    if not messages:
        raise RecordError("expected LangChain messages (messages_to_dict items or dumpd constructors)")
    items: list[Item] = []
    ledger = CallLedger()
    for index, raw in enumerate(messages):
        unpacked = unpack(raw)
        if unpacked is None:
            raise RecordError(f"messages[{index}] is not a LangChain message")
        kind, data = unpacked
        role = _TYPES.get(kind)
        content = data.get("content")
        if role == "system" or role == "user":
            items.append(user_text(text_of_parts(content)))
        elif role == "assistant":
            made = calls(data)
            if made:
                ledger.add_turn(made)
                items.append(calls_item(made))
            else:
                items.append(Item(Kind.ANSWER, text_of_parts(content)))
        elif role == "tool":
            call = ledger.call_for(data.get("tool_call_id"), data.get("name"))
            items.extend(result_items(content, is_error=data.get("status") == "error", arguments=call.arguments, tool=call.name))
        else:
            raise RecordError(f"messages[{index}] has type {kind!r}; expected system, human, ai or tool")
    conversation_id = record.get("id") if isinstance(record, dict) else None
    return Conversation(source, line, None if conversation_id is None else str(conversation_id), tuple(items), "langchain")


def unpack(message: object) -> tuple[str, dict] | None:
    """(type, fields) of one serialised message, whichever of the three spellings it uses."""
    if not isinstance(message, dict):
        return None
    if message.get("lc") == 1 and message.get("type") == "constructor" and isinstance(message.get("kwargs"), dict):
        path = message.get("id")
        kind = _CLASS_TYPES.get(path[-1]) if isinstance(path, list) and path else None
        return (kind, message["kwargs"]) if kind else None
    if isinstance(message.get("data"), dict) and message.get("type") in _TYPES:
        return message["type"], message["data"]
    if message.get("type") in _TYPES and "content" in message and "role" not in message:
        return message["type"], message
    return None


def calls(data: dict) -> list[tuple[object, object, str | None]]:
    calls = data.get("tool_calls")
    if isinstance(calls, list) and calls:
        return [(c.get("id"), c.get("name"), arguments_text(c.get("args"))) for c in calls if isinstance(c, dict)]
    raw = (data.get("additional_kwargs") or {}).get("tool_calls") if isinstance(data.get("additional_kwargs"), dict) else None
    if isinstance(raw, list) and raw:
        found = []
        for call in raw:
            function = call.get("function") if isinstance(call, dict) and isinstance(call.get("function"), dict) else {}
            found.append((call.get("id") if isinstance(call, dict) else None, function.get("name"),
                          arguments_text(function.get("arguments"))))
        return found
    return []


__all__ = ["RecordError", "expect_dict", "read", "recognises"]
