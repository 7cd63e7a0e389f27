"""CrewAI: a task's messages as the OpenAI messages they stand for, and the gate as a Task guardrail.

A task's run is kept as OpenAI Chat dicts (``TaskOutput.messages``). With native tool calling they are
read as they are. In CrewAI's ReAct text mode (a model without function calling) a step is one assistant
message: the model's ``Thought:`` / ``Action:`` / ``Action Input:`` text, to which CrewAI appends
``\\nObservation: <the tool's result>``. Read as it stands, that result is the assistant's own text and
grounds nothing, so a correct answer is flagged; read from any OpenAI list, a model that writes its own
``Observation:`` would ground its invention. So the reading is chosen by the caller, here: each such step
is a call (the ``Action:`` named, its input as arguments) and a result (the text after the last
``Observation:``, the one CrewAI wrote after the model stopped). Duck-typed: CrewAI is never imported.

    verdict = grounding.check_answer(history_messages(task_output.messages), task_output.raw)

and, in the crew, the gate as the task's guardrail:
``Task(..., guardrail=guardrail(grounding.Gate("guard")), guardrail_max_retries=2)``.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from typing import Any

from grounding.errors import EmptyAnswerError
from grounding.frames import is_framework_frame
from grounding.integrations.base import Framework

FRAMEWORK = Framework("CrewAI", ("crewai",), extra="crewai")
log = logging.getLogger("grounding.crewai")
_OBSERVATION = "\nObservation:"
_ACTION = re.compile(r"^Action:[ \t]*(.+?)[ \t]*$", re.MULTILINE)
_ACTION_INPUT = re.compile(r"^Action Input:[ \t]*", re.MULTILINE)


def history_messages(messages: list) -> list:
    """A task's messages with each ReAct step (an assistant text holding an Action and CrewAI's Observation)
    as a call and its result; every other message as it is."""
    read: list = []
    for at, message in enumerate(messages):
        step = _react_step(message, f"react_{at}") if isinstance(message, dict) else None
        read += step if step is not None else [message]
    return read


def _react_step(message: dict, call_id: str) -> list[dict] | None:
    """A ReAct step as [the call, its result], or None when message is not one."""
    text = message.get("content")
    if message.get("role") != "assistant" or not isinstance(text, str) or _OBSERVATION not in text:
        return None
    head, observation = text.rsplit(_OBSERVATION, 1)  # the last: a model's own Observation comes before CrewAI's
    actions = list(_ACTION.finditer(head))
    if not actions:
        return None
    action = actions[-1]
    given = _ACTION_INPUT.search(head, action.end())
    arguments = head[given.end():].strip() if given else ""
    call = {"id": call_id, "type": "function", "function": {"name": action.group(1), "arguments": arguments}}
    return [{"role": "assistant", "content": head[:action.start()].strip() or None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": call_id, "name": action.group(1), "content": observation.strip()}]


def guardrail(gate: Any) -> Callable[[Any], tuple[bool, Any]]:  # noqa: ANN401 (a grounding.Gate)
    """The gate (a grounding.Gate) as a Task's guardrail: CrewAI calls it with the TaskOutput; a grounded
    answer passes. Under ``guard`` and ``rails`` a flagged one fails with the gate's correction, which CrewAI
    sends back to the agent (``Previous attempt failed validation: …``) for another attempt; the latch reads
    it there (one revision a task). After it, ``guard`` passes the answer flagged and ``rails`` raises
    UnsupportedValuesError, which fails the task. ``assist`` records and passes. An answer with no text
    passes undecided (logged): there is nothing to judge.

    A retry starts the agent on fresh messages: the tool results read in the attempts before it are still
    this task's evidence, so the guardrail keeps them until the task's answer passes (per task: a shared
    guardrail tells tasks apart by their description).

        task = Task(description=..., expected_output=..., agent=agent,
                    guardrail=guardrail(grounding.Gate("guard")), guardrail_max_retries=2)
    """
    earlier: dict[str, list] = {}  # a task's attempts so far, while it is being retried
    lock = threading.Lock()

    # no return annotation: CrewAI checks it is the very tuple[bool, Any], and this module's are strings
    def grounded_in_evidence(output: Any):  # noqa: ANN202, ANN401 (a crewai TaskOutput)
        task = str(getattr(output, "description", ""))
        messages = history_messages(list(getattr(output, "messages", None) or []))
        while messages and messages[-1].get("role") == "assistant" and not messages[-1].get("tool_calls"):
            messages.pop()  # the answer itself, as native tool calling keeps it
        with lock:
            history = [*earlier.get(task, []), *messages] if _is_retry(messages) else messages
            earlier[task] = history
        try:
            decision = gate.decide(history, output.raw)
        except EmptyAnswerError as error:
            log.warning("CrewAI task answer not judged: %s", error)
            return True, output
        if decision.action == "revision-asked":
            return False, decision.message
        with lock:
            earlier.pop(task, None)
        decision.raise_if_refused()
        return True, output

    return grounded_in_evidence


def _is_retry(messages: list) -> bool:
    """Whether an attempt is CrewAI's retry of a failed one: its task prompt carries the failure."""
    return any(message.get("role") == "user" and is_framework_frame(str(message.get("content") or ""))
               for message in messages)
