"""OpenHands trajectories: a JSON list of events (``id``, ``source``), each an action (``action``, ``args``)
or an observation (``observation``, ``content``, ``cause``: the id of the action it answers).

A user's ``message`` action is the user's text and a ``system`` action the system prompt; an agent's
``message`` action (``args.content``) or ``finish`` action (``args.final_thought``, else its ``thought``,
else the event's ``message``) is an answer. Every other action is a call (named by its
``tool_call_metadata.function_name``, else the action; its ``thought`` the text beside it; consecutive
calls one turn) and the observation that names it as its cause is its result. The runtime's own events
(``agent_state_changed``, ``null`` observations, ``change_agent_state``) are left out. An ``edit``
observation is a unified diff: its added lines are the agent's own text said back, and ground nothing.
"""

from __future__ import annotations

import json

from grounding.errors import RecordError
from grounding.model import Conversation
from grounding.transcripts.formats import openai
from grounding.transcripts.formats.common import arguments_text

_RUNTIME = frozenset({"agent_state_changed", "null", "change_agent_state"})
_ANSWERS = frozenset({"message", "finish"})


def recognises(record: object) -> bool:
    if not (isinstance(record, list) and record):
        return False
    for event in record:  # a loop: most records fail at their first element
        if not (isinstance(event, dict) and "source" in event and ("action" in event or "observation" in event)):
            return False
    return True


def read(record: object, source: str, line: int) -> Conversation:
    if not recognises(record):
        raise RecordError("expected an OpenHands trajectory: a list of events, each with source and an action or "
                          "an observation")
    messages: list[dict] = []
    calls: dict[object, str] = {}  # an action's event id -> the call id its observation answers
    for event in record:
        kind = event.get("action", event.get("observation"))
        if kind in _RUNTIME:
            continue
        if "observation" in event:
            call_id = calls.get(event.get("cause"))
            messages.append({"role": "tool", "tool_call_id": call_id, "name": kind, "content": _observed(event)})
        else:
            message = _action(event, kind, calls)
            if message.get("tool_calls") and messages and _open_calls(messages[-1]):
                messages[-1]["tool_calls"] += message["tool_calls"]  # one turn's calls, one assistant message
            else:
                messages.append(message)
    conversation = openai.read({"messages": messages}, source, line)
    return Conversation(source, line, None, conversation.items, "openhands")


def _action(event: dict, kind: object, calls: dict) -> dict:
    args = event.get("args") if isinstance(event.get("args"), dict) else {}
    said = args.get("content") if isinstance(args.get("content"), str) else event.get("message") or ""
    if event.get("source") == "user" and kind == "message":
        return {"role": "user", "content": said}
    if kind == "system":
        return {"role": "system", "content": said}
    if kind in _ANSWERS:
        if kind == "finish":
            said = next((text for text in (args.get("final_thought"), args.get("thought"), event.get("message"))
                         if isinstance(text, str) and text), "")
        return {"role": "assistant", "content": said}
    metadata = event.get("tool_call_metadata") if isinstance(event.get("tool_call_metadata"), dict) else {}
    call_id = str(metadata.get("tool_call_id") or f"event_{event.get('id')}")
    calls[event.get("id")] = call_id
    arguments = {key: value for key, value in args.items() if key != "thought"}
    thought = args.get("thought")
    return {"role": "assistant", "content": thought if isinstance(thought, str) and thought else None,
            "tool_calls": [{"id": call_id, "type": "function", "function": {
                "name": str(metadata.get("function_name") or kind), "arguments": arguments_text(arguments)}}]}


def _open_calls(message: dict) -> bool:
    """Whether message is an assistant's calls that no result has followed yet."""
    return message.get("role") == "assistant" and bool(message.get("tool_calls"))


def _observed(event: dict) -> str:
    content = event.get("content")
    text = content if isinstance(content, str) else json.dumps(content, default=str)
    if event.get("observation") == "edit":
        return "\n".join(line for line in text.splitlines() if not (line.startswith("+") and not
                                                                     line.startswith("+++")))
    return text
