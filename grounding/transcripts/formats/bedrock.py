"""AWS Bedrock Converse: content blocks are single-key objects (``text``, ``toolUse``, ``toolResult``).

Like Anthropic, tool results live inside ``role: user`` turns.
"""

from __future__ import annotations

from grounding.errors import RecordError
from grounding.model import Conversation, Item, Kind
from grounding.transcripts.formats.common import (
    CallLedger,
    arguments_text,
    calls_item,
    conversation_id_in,
    expect_dict,
    expect_list,
    result_text,
    user_text,
)

_BEDROCK_KEYS = frozenset({"toolUse", "toolResult", "reasoningContent", "guardContent", "cachePoint"})


def recognises(record: object) -> bool:
    if not isinstance(record, dict):
        return False
    messages = record.get("messages")
    if not isinstance(messages, list):
        message = (record.get("output") or {}).get("message") if isinstance(record.get("output"), dict) else None
        messages = [message] if isinstance(message, dict) else None
    if not messages:
        return False
    blocks = []  # loops, not any()/all() over generators: this runs on every record of every format
    for m in messages:
        content = m.get("content") if isinstance(m, dict) else None
        if isinstance(content, list):
            blocks.extend(content)
    for b in blocks:
        if isinstance(b, dict) and not _BEDROCK_KEYS.isdisjoint(b):
            return True
    if "modelId" not in record:
        return False
    for b in blocks:
        if not isinstance(b, dict) or "type" in b:
            return False
    return True


def read(record: object, source: str, line: int) -> Conversation:
    body = expect_dict(record, "a Bedrock Converse record")
    items: list[Item] = []
    for block in body.get("system") or []:
        if isinstance(block, dict) and isinstance(block.get("text"), str):
            items.append(user_text(block["text"]))
    messages = list(body.get("messages") or [])
    if isinstance(body.get("output"), dict) and isinstance(body["output"].get("message"), dict):
        messages.append(body["output"]["message"])
    ledger = CallLedger()
    for index, raw in enumerate(messages):
        message = expect_dict(raw, f"messages[{index}]")
        blocks = [b for b in expect_list(message.get("content", []), f"messages[{index}].content") if isinstance(b, dict)]
        if message.get("role") == "assistant":
            items.append(_assistant(blocks, ledger))
        else:
            items.extend(_user(blocks, ledger))
    return Conversation(source, line, conversation_id_in(body, "requestMetadata"), tuple(items), "bedrock-converse")


def _assistant(blocks: list[dict], ledger: CallLedger) -> Item:
    calls = [
        (b["toolUse"].get("toolUseId"), b["toolUse"].get("name"), arguments_text(b["toolUse"].get("input")))
        for b in blocks
        if isinstance(b.get("toolUse"), dict)
    ]
    if calls:
        ledger.add_turn(calls)
        return calls_item(calls)
    return Item(Kind.ANSWER, "\n".join(b["text"] for b in blocks if isinstance(b.get("text"), str)))


def _user(blocks: list[dict], ledger: CallLedger) -> list[Item]:
    items = []
    for block in blocks:
        if isinstance(block.get("text"), str):
            items.append(user_text(block["text"]))
        result = block.get("toolResult")
        if isinstance(result, dict):
            call = ledger.call_for(result.get("toolUseId"))
            failed = result.get("status") == "error"
            for part in result.get("content") or []:
                if not isinstance(part, dict):
                    continue
                if "json" in part:
                    items.append(Item(Kind.EVIDENCE, "", is_error=failed, call_arguments=call.arguments, document=part["json"], tool=call.name))
                elif isinstance(part.get("text"), str):
                    items.append(result_text(part["text"], is_error=failed, arguments=call.arguments, tool=call.name))
    return items


__all__ = ["RecordError", "read", "recognises"]
