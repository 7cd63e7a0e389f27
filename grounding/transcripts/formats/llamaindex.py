"""LlamaIndex ``ChatMessage`` lists: ``role`` with ``blocks[].block_type`` (or legacy ``content``),
``additional_kwargs`` holding the provider's tool calls and ``tool_call_id``, and ``tool_call`` blocks
(``ToolCallBlock``, as FunctionAgent writes its calls)."""

from __future__ import annotations

from grounding.errors import RecordError
from grounding.model import Conversation
from grounding.transcripts.formats import openai
from grounding.transcripts.formats.common import arguments_text, every_message, text_of_parts


def recognises(record: object) -> bool:
    return every_message(record, _is_message)


def _is_message(m: object) -> bool:
    return isinstance(m, dict) and "role" in m and ("blocks" in m or "additional_kwargs" in m)


def read(record: object, source: str, line: int) -> Conversation:
    messages = record.get("messages") if isinstance(record, dict) else record
    if not isinstance(messages, list):
        raise RecordError("expected a list of LlamaIndex ChatMessage objects")
    lowered = []
    for message in messages:
        extra = message.get("additional_kwargs") if isinstance(message.get("additional_kwargs"), dict) else {}
        role = {"chatbot": "assistant", "model": "assistant"}.get(message.get("role"), message.get("role"))
        content = message.get("content")
        if isinstance(message.get("blocks"), list):
            content = text_of_parts(message["blocks"])
        converted = {"role": role, "content": content}
        calls = [*(extra.get("tool_calls") or []), *_call_blocks(message.get("blocks"))]
        if calls:
            converted["tool_calls"] = calls
        if extra.get("tool_call_id") is not None:
            converted["tool_call_id"] = extra["tool_call_id"]
        lowered.append(converted)
    conversation = openai.read({"id": record.get("id") if isinstance(record, dict) else None,
                                "messages": lowered}, source, line)
    return Conversation(conversation.source, line, conversation.id, conversation.items, "llamaindex")


def _call_blocks(blocks: object) -> list[dict]:
    """The tool calls a message makes in its own blocks (``ToolCallBlock``: FunctionAgent's turns), as OpenAI
    calls: without them the turn read as an empty answer, the tool's name lost."""
    if not isinstance(blocks, list):
        return []
    calls = []
    for block in blocks:
        if isinstance(block, dict) and block.get("block_type") == "tool_call":
            calls.append({"id": block.get("tool_call_id"), "type": "function",
                          "function": {"name": block.get("tool_name"),
                                       "arguments": arguments_text(block.get("tool_kwargs")) or "{}"}})
    return calls
