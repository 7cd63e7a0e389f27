"""smolagents' memory as the OpenAI Chat messages it stands for: a history as smolagents holds it.

An agent's memory is read as ``agent.write_memory_to_messages()`` gives it (``ChatMessage``s with the roles
system, user, assistant, tool-call and tool-response) or as its steps (``agent.memory.steps``: each step's
own messages). A tool-call message's calls are read from the text smolagents writes (``Calling tools:``
and the calls' list), and the tool-response after it is their result. The final answer is never evidence:
the observation of a call to ``final_answer`` (a ToolCallingAgent's tool, or a CodeAgent's code that calls
it) is the answer itself, and read as a result it would ground any invention in it; a step that is the
final answer is left out whole. Duck-typed: smolagents is never imported.

    verdict = grounding.check_answer(agent.write_memory_to_messages(), agent.run(task))

and, in the loop, the gate as a final-answer check:
``final_answer_checks=[final_answer_check(grounding.Gate("guard"))]``.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from typing import Any

from grounding.errors import RecordError
from grounding.frames import is_framework_frame
from grounding.integrations.base import Framework

FRAMEWORK = Framework("smolagents", ("smolagents",), extra="smolagents")

_FINAL_ANSWER = "final_answer"


def history_messages(history: list, first: int = 0) -> list[dict]:
    """history (smolagents' ChatMessages, or memory steps, or plain dicts among them) as OpenAI Chat
    messages; first: the index of history's first element in the whole history, for the error naming one."""
    messages: list = []
    for at, element in enumerate(history, first):
        if not FRAMEWORK.owns(element) or hasattr(element, "role"):  # a message
            messages.append(element)
        elif hasattr(element, "to_messages"):  # a memory step: its own messages, unless it is the final answer
            if not getattr(element, "is_final_answer", False):
                messages += element.to_messages()
        else:
            raise RecordError(f"messages[{at}] is a smolagents {type(element).__name__}, which ground cannot read "
                              "as a message: pass agent.write_memory_to_messages() or agent.memory.steps")
    return _lowered(messages)


def _lowered(messages: list) -> list[dict]:
    lowered: list[dict] = []
    calls: list[dict] = []  # the calls of the last tool-call message
    for message in messages:
        if not FRAMEWORK.owns(message):
            lowered.append(message)  # a dict the loop wrote itself
            continue
        role = getattr(message.role, "value", message.role)
        text = _text(message.content)
        if role == "tool-call":
            calls = _calls(text)
            lowered.append({"role": "assistant", "content": None, "tool_calls": calls} if calls
                           else {"role": "assistant", "content": text})
        elif role == "tool-response":
            if any(_FINAL_ANSWER in call["function"]["name"] + call["function"]["arguments"] for call in calls) \
                    and not is_framework_frame(text):  # a check's error (the gate's own frame) is kept
                continue  # the final answer's own observation: the answer, never its evidence
            answered = {"tool_call_id": calls[0]["id"]} if len(calls) == 1 and calls[0]["id"] else {}
            lowered.append({"role": "tool", "content": text, **answered})
        else:
            lowered.append({"role": role, "content": text})
    return lowered


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [part.get("text") for part in content if isinstance(part, dict)]
        return "\n".join(text for text in texts if isinstance(text, str))
    return ""


def _calls(text: str) -> list[dict]:
    """The calls a tool-call message's text lists (``Calling tools:\\n[{'id': …, 'function': {…}}]``, the
    list's Python form), as OpenAI calls; none when the text is not that."""
    body = text.removeprefix("Calling tools:").strip()
    try:
        listed = ast.literal_eval(body)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return []
    calls = []
    for call in listed if isinstance(listed, list) else []:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            return []
        arguments = function.get("arguments")
        calls.append({"id": call.get("id"), "type": "function",
                      "function": {"name": str(function.get("name")),
                                   "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments)}})
    return calls


def final_answer_check(gate: Any) -> Callable[..., bool]:  # noqa: ANN401 (a grounding.Gate)
    """The gate (a grounding.Gate) as one of an agent's ``final_answer_checks`` (smolagents runs each on
    the final answer, with the agent's memory): a grounded answer passes; under ``guard`` and ``rails`` a
    flagged one fails the check with the gate's correction as its error, which smolagents shows the model as
    the step's error, so it gets one more step with its tools (the latch reads that error back: one
    revision a task); after it, ``guard`` passes the answer flagged and ``rails`` fails it again
    (UnsupportedValuesError: smolagents goes on until max_steps). ``assist`` records and passes.

        agent = ToolCallingAgent(tools=[...], model=model,
                                 final_answer_checks=[final_answer_check(grounding.Gate("guard"))])
    """

    def grounded_in_evidence(final_answer: object, memory: Any, agent: Any = None) -> bool:  # noqa: ANN401
        steps = [memory.system_prompt, *memory.steps] if getattr(memory, "system_prompt", None) else memory.steps
        decision = gate.decide(history_messages(list(steps)), final_answer)
        if decision.action == "revision-asked":
            raise ValueError(decision.message)
        decision.raise_if_refused()
        return True

    return grounded_in_evidence
