"""Message lists as loggers write them, turned into OpenAI Chat Completions messages.

Span and run exports (LangSmith, Langfuse, Agents SDK, MLflow) log a model
call's input as whatever the integration had: OpenAI messages, LangChain
serialised messages, often nested one level (``[[...]]``) or under
``messages``. This module recognises those and nothing else.
"""

from __future__ import annotations

from grounding.transcripts.formats import langchain
from grounding.transcripts.formats.common import arguments_text

_ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
_LANGCHAIN_ROLES = {"system": "system", "human": "user", "user": "user", "ai": "assistant", "assistant": "assistant",
                    "tool": "tool", "function": "tool", "chat": "user", "developer": "system"}


def as_chat_messages(value: object) -> list[dict] | None:
    """OpenAI messages from a logged message list, or None when value is not one."""
    if isinstance(value, dict):
        for key in ("messages", "input", "inputs"):
            if key in value:
                return as_chat_messages(value[key])
        single = as_chat_message(value)
        return [single] if single else None
    if not isinstance(value, list) or not value:
        return None
    if all(isinstance(item, list) for item in value):  # LangSmith: one list per prompt in a batch
        return as_chat_messages(value[0])
    converted = [as_chat_message(item) for item in value]
    return converted if all(converted) else None


def as_chat_message(item: object) -> dict | None:
    if not isinstance(item, dict):
        return None
    if item.get("role") in _ROLES:
        return item
    unpacked = langchain.unpack(item)
    if unpacked is None:
        return None
    kind, data = unpacked
    role = _LANGCHAIN_ROLES.get(kind)
    message: dict = {"role": role, "content": data.get("content")}
    if role == "assistant":
        calls = langchain.calls(data)
        if calls:
            message["tool_calls"] = [
                {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
                for call_id, name, arguments in calls
            ]
    elif role == "tool":
        message["tool_call_id"] = data.get("tool_call_id")
    return message


def output_message(value: object) -> list[dict]:
    """The assistant message(s) a logged model output holds: a message, choices, or LangChain generations."""
    if isinstance(value, str):
        return [{"role": "assistant", "content": value}]
    if isinstance(value, list):
        found = as_chat_messages(value)
        return found or []
    if not isinstance(value, dict):
        return []
    if isinstance(value.get("choices"), list) and value["choices"]:
        choice = value["choices"][0]
        message = choice.get("message") if isinstance(choice, dict) else None
        return [message] if isinstance(message, dict) else []
    generations = value.get("generations")
    if isinstance(generations, list) and generations:
        first = generations[0][0] if isinstance(generations[0], list) and generations[0] else generations[0]
        if isinstance(first, dict):
            message = as_chat_message(first.get("message")) if first.get("message") else None
            return [message] if message else [{"role": "assistant", "content": first.get("text", "")}]
    single = as_chat_message(value)
    if single:
        return [single]
    if isinstance(value.get("content"), str):
        return [{"role": "assistant", "content": value["content"]}]
    return []


__all__ = ["arguments_text", "as_chat_message", "as_chat_messages", "output_message"]
