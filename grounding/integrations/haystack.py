"""Haystack: an Agent's ChatMessages read as held, and the gate as the Agent's ``on_exit`` hook.

An Agent's ``result["messages"]`` are ``ChatMessage`` dataclasses whose fields are private: each is read as
the OpenAI form it writes (``to_openai_dict_format()``, grounding.history); their own serialised form
(``ChatMessage.to_dict()``, as a pipeline saves them) is a transcript format of its own (``haystack``).

    result = agent.run(messages=[ChatMessage.from_user("Where is my order?")])
    verdict = grounding.check_answer(result["messages"][:-1], result["last_message"])

and, in the loop, the gate as the Agent's on_exit hook:
``Agent(..., hooks={"on_exit": [EvidenceCheck(grounding.Gate("guard"))]})``.
"""

from __future__ import annotations

import logging
from typing import Any

from grounding.errors import EmptyAnswerError
from grounding.integrations.base import Framework

FRAMEWORK = Framework("Haystack", ("haystack",), extra="haystack")
log = logging.getLogger("grounding.haystack")


class EvidenceCheck:
    """The gate (a grounding.Gate) as a Haystack Agent's ``on_exit`` hook: when the Agent is about to stop
    on a text reply, the reply is judged against the run's messages. A grounded one stops the run. Under
    ``guard`` and ``rails`` a flagged one keeps the Agent running (``continue_run``) with the gate's
    correction as a user message, its tools still on offer; the latch reads that message back (one revision
    a run). After it, ``guard`` lets the run stop flagged and ``rails`` raises UnsupportedValuesError out of
    the run. ``assist`` records and lets it stop. A stop on a tool's exit condition or a step limit is not
    an answer, and a reply with no text is passed undecided (logged).

    A hook object, as Haystack's Hook protocol has it: it serialises with its gate's posture (its Options,
    if any, are the app's to set again when it is loaded).
    """

    def __init__(self, gate: Any) -> None:  # noqa: ANN401 (a grounding.Gate)
        self.gate = gate

    def run(self, state: Any) -> None:  # noqa: ANN401 (a haystack State)
        if state.data.get("exit_reason") != "text":
            return
        messages = state.data["messages"]
        try:
            decision = self.gate.decide(messages[:-1], messages[-1])
        except EmptyAnswerError as error:
            log.warning("Haystack Agent reply not judged: %s", error)
            return
        if decision.action == "revision-asked":
            from haystack.dataclasses import ChatMessage

            state.set("messages", [ChatMessage.from_user(decision.message)])
            state.set("continue_run", True)
            return
        decision.raise_if_refused()

    def to_dict(self) -> dict[str, Any]:
        return {"type": f"{__name__}.{type(self).__name__}", "init_parameters": {"posture": self.gate.posture}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EvidenceCheck:
        from grounding.gate import Gate

        return cls(Gate(data["init_parameters"]["posture"]))
