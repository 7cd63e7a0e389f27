"""Haystack ``ChatMessage.to_dict()`` lists: ``role`` with ``content`` a list of parts keyed by their kind
(``{"text": …}``, ``{"tool_call": {tool_name, arguments, id}}``, ``{"tool_call_result": {result, origin,
error}}``, ``{"reasoning": …}``), beside ``meta`` and ``name``. The form a Haystack pipeline serialises its
messages in; the OpenAI reader would pass over parts it does not know, and lose every tool result."""

from __future__ import annotations

from grounding.errors import RecordError
from grounding.model import Conversation
from grounding.transcripts.formats import openai
from grounding.transcripts.formats.common import arguments_text, every_message, messages_list

_WRAPPED = frozenset({"tool_call", "tool_call_result", "reasoning", "image", "file"})  # a part keyed by its kind


def recognises(record: object) -> bool:
    return every_message(record, _is_message) and any(_holds_wrapped_part(m) or "meta" in m
                                                      for m in messages_list(record) or ())


def _is_message(m: object) -> bool:
    if not (isinstance(m, dict) and "role" in m and isinstance(m.get("content"), list)):
        return False
    for part in m["content"]:  # each part keyed by its kind alone: no OpenAI or Anthropic "type"
        if not (isinstance(part, dict) and "type" not in part and ("text" in part or _WRAPPED & part.keys())):
            return False
    return True


def _holds_wrapped_part(message: dict) -> bool:
    return any(_WRAPPED & part.keys() for part in message["content"])


def read(record: object, source: str, line: int) -> Conversation:
    messages = messages_list(record)
    if not isinstance(messages, list):
        raise RecordError("expected a list of Haystack ChatMessage dicts (ChatMessage.to_dict())")
    lowered: list[dict] = []
    for index, message in enumerate(messages):
        if not _is_message(message):
            raise RecordError(f"messages[{index}] is not a Haystack ChatMessage dict: expected role and content, a "
                              "list of parts each keyed by its kind (text, tool_call, tool_call_result, reasoning)")
        lowered += _openai_messages(message, index)
    conversation = openai.read({"id": record.get("id") if isinstance(record, dict) else None,
                                "messages": lowered}, source, line)
    return Conversation(conversation.source, line, conversation.id, conversation.items, "haystack")


def _openai_messages(message: dict, index: int) -> list[dict]:
    """One Haystack message as OpenAI Chat messages: a tool message holds one result per call it answers."""
    parts = message["content"]
    texts = "\n".join(part["text"] for part in parts if isinstance(part.get("text"), str))
    role = message["role"]
    if role == "tool":
        results = [part["tool_call_result"] for part in parts if isinstance(part.get("tool_call_result"), dict)]
        if not results:
            raise RecordError(f"messages[{index}] is a tool message without a tool_call_result part")
        return [_result_message(result) for result in results]
    calls = [part["tool_call"] for part in parts if isinstance(part.get("tool_call"), dict)]
    if role == "assistant" and calls:
        return [{"role": "assistant", "content": texts or None, "tool_calls": [
            {"id": call.get("id"), "type": "function",
             "function": {"name": call.get("tool_name"), "arguments": arguments_text(call.get("arguments"))}}
            for call in calls]}]
    return [{"role": role, "content": texts}]


def _result_message(result: dict) -> dict:
    """A tool_call_result part as the tool message it is: its result (a text, or a list of text and image
    parts), answering the call its origin names."""
    origin = result.get("origin") if isinstance(result.get("origin"), dict) else {}
    content = result.get("result")
    if isinstance(content, list):  # Haystack 2.18+: a result may be parts (text, image)
        content = "\n".join(part["text"] for part in content
                             if isinstance(part, dict) and isinstance(part.get("text"), str))
    return {"role": "tool", "tool_call_id": origin.get("id"), "name": origin.get("tool_name"),
            "content": content if isinstance(content, str) else arguments_text(content) or ""}
