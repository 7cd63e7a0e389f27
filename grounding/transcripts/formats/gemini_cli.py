"""Gemini CLI session files (``~/.gemini/tmp/<project hash>/chats/session-*.json``): ``{sessionId,
projectHash, startTime, lastUpdated, messages}``, each message ``{id, timestamp, type, content}``.

A ``user`` message is the user's text; a ``gemini`` message is the model's, and when it carries
``toolCalls`` each call (``name``, ``args``) is recorded with its ``result`` (Gemini's function-response
parts: the ``output`` of each ``functionResponse``, or their text; else the ``resultDisplay`` the CLI
showed): the calls and their results, then the next message. A ``gemini`` message with no calls is an
answer; its ``thoughts`` are the model's and left out. The CLI's own notes (``info``, ``warning``,
``error``) are neither. The conversation's id is the session's. Not the generateContent API's format
(``gemini``), whose name it shares."""

from __future__ import annotations

from grounding.errors import RecordError
from grounding.model import Conversation
from grounding.transcripts.formats import openai
from grounding.transcripts.formats.common import arguments_text, text_of_parts


def recognises(record: object) -> bool:
    return (isinstance(record, dict) and "sessionId" in record and "projectHash" in record
            and isinstance(record.get("messages"), list))


def read(record: object, source: str, line: int) -> Conversation:
    if not recognises(record):
        raise RecordError("expected a Gemini CLI session file: {sessionId, projectHash, messages: [...]}")
    messages: list[dict] = []
    for index, message in enumerate(record["messages"]):
        if not isinstance(message, dict):
            raise RecordError(f"messages[{index}] must be an object, not {type(message).__name__}")
        kind, text = message.get("type"), text_of_parts(_parts(message.get("content")))
        if kind == "user":
            messages.append({"role": "user", "content": text})
        elif kind == "gemini":
            calls = [call for call in message.get("toolCalls") or () if isinstance(call, dict)]
            if not calls:
                messages.append({"role": "assistant", "content": text})
                continue
            ids = [str(call.get("id") or f"call_{index}_{at}") for at, call in enumerate(calls)]
            messages.append({"role": "assistant", "content": text or None, "tool_calls": [
                {"id": call_id, "type": "function",
                 "function": {"name": call.get("name"), "arguments": arguments_text(call.get("args"))}}
                for call_id, call in zip(ids, calls, strict=True)]})
            messages += [{"role": "tool", "tool_call_id": call_id, "name": call.get("name"), "content": _result(call)}
                         for call_id, call in zip(ids, calls, strict=True)]
    conversation = openai.read({"messages": messages}, source, line)
    return Conversation(source, line, str(record["sessionId"]), conversation.items, "gemini-cli")


def _parts(content: object) -> object:
    """A message's content as text or a list of text parts (a Part alone is a list of one)."""
    return [content] if isinstance(content, dict) else content


def _result(call: dict) -> str:
    """What a call returned: its function responses' output (or their whole response), its text parts; else
    the text the CLI showed for it."""
    result = call.get("result")
    parts = [result] if isinstance(result, (dict, str)) else result if isinstance(result, list) else []
    texts = []
    for part in parts:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and isinstance(part.get("functionResponse"), dict):
            response = part["functionResponse"].get("response")
            output = response.get("output", response.get("error")) if isinstance(response, dict) else response
            texts.append(output if isinstance(output, str) else arguments_text(response) or "")
        elif isinstance(part, dict) and isinstance(part.get("text"), str):
            texts.append(part["text"])
    if texts:
        return "\n".join(texts)
    shown = call.get("resultDisplay")
    return shown if isinstance(shown, str) else ""
