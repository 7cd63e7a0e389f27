"""Anthropic Messages: ``{"system": ..., "messages": [...]}`` with content blocks (SPEC §2).

The trap: tool results live inside ``role: user`` turns. They are evidence;
the user's own ``text`` blocks beside them are exempt.
"""

from __future__ import annotations

from grounding.errors import RecordError
from grounding.model import ANSWER, Conversation, Item
from grounding.transcripts.formats.common import (
    arguments_text,
    calls_item,
    expect_dict,
    expect_list,
    record_id,
    result_text,
    user_text,
)

_ANTHROPIC_BLOCKS = frozenset({"tool_use", "tool_result", "thinking", "redacted_thinking", "image", "document"})


def recognises(record: object) -> bool:
    if not isinstance(record, dict) or not isinstance(record.get("messages"), list):
        return False
    if "system" in record:
        return True
    for message in record["messages"]:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list) and any(
            isinstance(block, dict) and block.get("type") in _ANTHROPIC_BLOCKS for block in content
        ):
            return True
    return False


def starts_turn(message: dict) -> bool:
    """Whether a message starts a turn: a user message with no tool result (a result names the call before it)."""
    content = message.get("content")
    return message.get("role") == "user" and not (isinstance(content, list) and any(
        isinstance(block, dict) and block.get("type") == "tool_result" for block in content))


def read(record: object, source: str, line: int) -> Conversation:
    body = expect_dict(record, "an Anthropic Messages record")
    messages = body.get("messages")
    if not isinstance(messages, list):
        raise RecordError('expected {"messages": [...]} for Anthropic Messages')
    items: list[Item] = [user_text(text) for text in _system_texts(body.get("system"))]
    calls: dict[str, tuple[object, str | None]] = {}
    for index, message in enumerate(messages):
        if type(message) is not dict:  # the place is spelled only for the error
            expect_dict(message, f"messages[{index}]")
        role = message.get("role")
        blocks = _blocks(message.get("content"), index)
        if role == "user":
            items.extend(_user_items(blocks, calls))
        elif role == "assistant":
            item = _assistant_item(blocks, calls)
            stop = message.get("stop_reason")
            if item.kind is ANSWER and isinstance(stop, str):
                item = Item(ANSWER, item.text, stop_reason=stop, work=item.work)
            items.append(item)
        else:
            raise RecordError(f"messages[{index}] has role {role!r}; expected user or assistant")
    return Conversation(source, line, record_id(record), tuple(items), "anthropic")


def _system_texts(system: object) -> list[str]:
    if system is None:
        return []
    if isinstance(system, str):
        return [system]
    return [block["text"] for block in expect_list(system, "system") if _is_text_block(block)]


def _blocks(content: object, index: int) -> list[dict]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if content is None:
        return []
    if type(content) is not list:
        expect_list(content, f"messages[{index}].content")
    return [block for block in content if isinstance(block, dict)]


def _user_items(blocks: list[dict], calls: dict[str, tuple[object, str | None]]) -> list[Item]:
    items = []
    for block in blocks:
        if _is_text_block(block):
            items.append(user_text(block["text"]))
        elif block.get("type") == "tool_result":
            name, arguments = calls.get(block.get("tool_use_id"), (None, None)) if isinstance(
                block.get("tool_use_id"), str) else (None, None)
            is_error = block.get("is_error") is True
            for text in _result_texts(block.get("content")):
                items.append(result_text(text, is_error=is_error, arguments=arguments,
                                         tool=name if isinstance(name, str) else None))
    return items


def _assistant_item(blocks: list[dict], calls: dict[str, tuple[object, str | None]]) -> Item:
    texts, made_calls, names, thoughts = [], False, [], []
    for block in blocks:
        if _is_text_block(block):
            texts.append(block["text"])
        elif block.get("type") == "thinking" and isinstance(block.get("thinking"), str):
            thoughts.append(block["thinking"])
        elif block.get("type") == "tool_use":
            made_calls = True
            names.append((None, block.get("name"), None))
            if isinstance(block.get("id"), str):
                calls[block["id"]] = (block.get("name"), arguments_text(block.get("input")))
    if made_calls:
        return calls_item(names, work="\n".join(thoughts + texts))
    return Item(ANSWER, "\n".join(texts), work="\n".join(thoughts))


def _result_texts(content: object) -> list[str]:
    if content is None:
        return [""]
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [block["text"] for block in content if _is_text_block(block)]
    return []


def _is_text_block(block: object) -> bool:
    return isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str)
