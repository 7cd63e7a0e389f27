"""AutoGen: a run's messages as the OpenAI Chat messages they stand for, and the gate on an agent's run.

AgentChat keeps a run as messages and events (``TaskResult.messages``): ``TextMessage`` (the user's task,
an agent's answer), ``ToolCallRequestEvent`` (the calls), ``ToolCallExecutionEvent`` (their results);
an agent's model context keeps ``UserMessage``, ``AssistantMessage`` (text, or ``FunctionCall``s) and
``FunctionExecutionResultMessage``. Each is read by its class's name and fields, duck-typed (nothing of
AutoGen is imported), into the OpenAI messages ground reads; one of any other class is a RecordError naming
it, never a guess.

    result = await agent.run(task="Where is my order?")
    verdict = grounding.check_answer(result.messages[:-1], result.messages[-1])

and, in the loop, the gate on an agent's answer, a revision asked as the agent's next task:
``result, decision = await run_checked(agent, task, grounding.Gate("guard"))``.
"""

from __future__ import annotations

import json
from typing import Any

from grounding.errors import RecordError
from grounding.integrations.base import Framework

FRAMEWORK = Framework("AutoGen", ("autogen_agentchat", "autogen_core"), extra="autogen")

_TEXT = frozenset({"TextMessage", "StopMessage", "HandoffMessage", "ToolCallSummaryMessage"})
# what an agent shows along the way and no later answer rests on: its reasoning, its memory queries, its
# streamed pieces (the whole message follows them)
_SHOWN_ONLY = frozenset({"ThoughtEvent", "ModelClientStreamingChunkEvent", "MemoryQueryEvent",
                         "CodeGenerationEvent", "SelectSpeakerEvent", "SelectorEvent"})


def history_messages(history: list, first: int = 0) -> list:
    """history with each of AutoGen's messages and events as the OpenAI messages it stands for, others as they
    are; first: the index of history's first element in the whole history, for the error naming one."""
    read: list = []
    for at, message in enumerate(history, first):
        read += openai_messages(message, f"messages[{at}]") if FRAMEWORK.owns(message) else [message]
    return read


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


async def run_checked(agent: Any, task: Any, gate: Any) -> tuple[Any, Any]:  # noqa: ANN401 (AutoGen's, a Gate)
    """agent.run(task=task), its answer (the run's last message) judged by the gate (a grounding.Gate)
    against every message of the run: (the TaskResult, the Decision). AgentChat has no hook that can send
    an agent back, so under ``guard`` and ``rails`` a flagged answer is followed by one more run, whose task
    is the gate's correction: the agent keeps its model context between runs, and its tools are still on
    offer. That run's answer is judged against both runs' messages (the latch reads the correction there):
    ``guard`` returns it, flagged if it still is; ``rails`` raises UnsupportedValuesError. ``assist``
    records and returns. An answer with no text raises EmptyAnswerError (there is nothing to judge).

        result, decision = await run_checked(agent, "Where is my order?", grounding.Gate("guard"))
    """
    result = await agent.run(task=task)
    history = list(result.messages)
    decision = gate.decide(history[:-1], history[-1])
    if decision.action == "revision-asked":  # one revision a turn: the gate's latch allows no second
        result = await agent.run(task=decision.message)
        history += result.messages
        decision = gate.decide(history[:-1], history[-1])
    decision.raise_if_refused()
    return result, decision
