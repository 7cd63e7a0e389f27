"""AutoGen's messages as the OpenAI Chat messages they stand for: a history as AutoGen holds it.

AgentChat keeps a run as messages and events (``TaskResult.messages``): ``TextMessage`` (the user's task,
an agent's answer), ``ToolCallRequestEvent`` (the calls), ``ToolCallExecutionEvent`` (their results);
an agent's model context keeps ``UserMessage``, ``AssistantMessage`` (text, or ``FunctionCall``s) and
``FunctionExecutionResultMessage``. Each is read by its class's name and fields, duck-typed (nothing of
AutoGen is imported), into the OpenAI messages ground reads; one of any other class is a RecordError naming
it, never a guess.

    result = await agent.run(task="Where is my order?")
    verdict = grounding.check_answer(result.messages[:-1], result.messages[-1])
"""

from __future__ import annotations

import json

from grounding.errors import RecordError

_TEXT = frozenset({"TextMessage", "StopMessage", "HandoffMessage", "ToolCallSummaryMessage"})
# what an agent shows along the way and no later answer rests on: its reasoning, its memory queries, its
# streamed pieces (the whole message follows them)
_SHOWN_ONLY = frozenset({"ThoughtEvent", "ModelClientStreamingChunkEvent", "MemoryQueryEvent",
                         "CodeGenerationEvent", "SelectSpeakerEvent", "SelectorEvent"})


def is_autogen(message: object) -> bool:
    return (type(message).__module__ or "").startswith(("autogen_agentchat", "autogen_core"))


def openai_messages(message: object, where: str) -> list[dict]:
    """message as the OpenAI Chat messages it stands for (none for what an agent only shows along the way;
    several for the results of several calls); where: its place, for the error that names it."""
    kind, content = type(message).__name__, getattr(message, "content", None)
    if kind in _SHOWN_ONLY:
        return []
    if kind in _TEXT or (kind == "UserMessage" and isinstance(content, str)):
        speaker = "user" if kind == "UserMessage" or getattr(message, "source", None) == "user" else "assistant"
        return [{"role": speaker, "content": content}]
    if kind == "SystemMessage":
        return [{"role": "system", "content": content}]
    if kind in ("MultiModalMessage", "UserMessage") and isinstance(content, list):  # text and images
        speaker = "user" if kind == "UserMessage" or getattr(message, "source", None) == "user" else "assistant"
        return [{"role": speaker, "content": "\n".join(part for part in content if isinstance(part, str))}]
    if kind == "StructuredMessage":
        return [{"role": "assistant", "content": json.dumps(content.model_dump(mode="json"))}]
    if kind in ("ToolCallRequestEvent", "AssistantMessage"):
        if isinstance(content, str):
            return [{"role": "assistant", "content": content}]
        return [{"role": "assistant", "content": None, "tool_calls": [
            {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
            for call in content]}]
    if kind in ("ToolCallExecutionEvent", "FunctionExecutionResultMessage"):
        return [{"role": "tool", "tool_call_id": result.call_id, "name": getattr(result, "name", None),
                 "content": result.content} for result in content]
    raise RecordError(f"{where} is an AutoGen {kind}, which ground cannot read as a message: pass the run's "
                      "messages (TaskResult.messages) or the model context's")
