"""The evidence gate as a NeMo Guardrails action, for an output rail.

    from nemoguardrails import LLMRails, RailsConfig
    from grounding.nemo import evidence_action

    rails = LLMRails(RailsConfig.from_path("config"))
    rails.register_action(evidence_action("rails"), name="check_evidence")

and, in the config's Colang, an output rail that blocks what the action refuses::

    define subflow check evidence
      $grounded = execute check_evidence
      if not $grounded
        bot inform cannot verify
        stop

The action judges the bot message against what the bot was given to read in this conversation: the return
value of each action the app registered (its own tools: NeMo's system actions are not evidence), the
retrieved chunks (``relevant_chunks``, from the knowledge base or a ``{"role": "context"}`` message), and
the tool messages NeMo groups for tool rails. The user's messages are exempt text. An output rail cannot
ask the model again, so a flagged answer is decided as one that cannot be revised: it ships under
``assist`` and ``guard`` (flagged, its decision logged and handed to ``on_verdict``), and is refused under
``rails`` (the action returns False).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from grounding.integrations.base import Framework

FRAMEWORK = Framework("NeMo Guardrails", ("nemoguardrails",), extra="nemo")

try:
    from nemoguardrails.actions import action
except ImportError as error:  # pragma: no cover - the message is the point
    raise FRAMEWORK.missing("grounding.nemo", "NeMo Guardrails") from error

from grounding.errors import EmptyAnswerError
from grounding.gate import Decision, Gate, Posture, not_judged
from grounding.library import Options

__all__ = ["evidence_action", "history_of"]


def history_of(context: dict | None, events: list[dict] | None) -> list[dict]:
    """The conversation an output rail sees, as OpenAI messages: the user's messages (exempt) and everything
    the bot was given to read (tool results), in the order NeMo recorded them."""
    history: list[dict] = []
    for event in events or []:
        kind = event.get("type")
        if kind == "UtteranceUserActionFinished" and isinstance(event.get("final_transcript"), str):
            history.append({"role": "user", "content": event["final_transcript"]})
        elif (kind == "InternalSystemActionFinished" and not event.get("is_system_action")
              and event.get("return_value") is not None):
            history.append(_tool_message(event.get("action_name"), event["return_value"]))
        elif kind == "UserToolMessages":
            history.extend(_tool_message(m.get("name"), m.get("content")) for m in event.get("tool_messages") or [])
    chunks = (context or {}).get("relevant_chunks")
    if isinstance(chunks, str) and chunks.strip():
        history.append(_tool_message("relevant_chunks", chunks))
    return history


def _tool_message(name: object, value: object) -> dict:
    content = value if isinstance(value, str) else json.dumps(value, default=str)
    return {"role": "tool", "name": name if isinstance(name, str) else None, "content": content}


def evidence_action(posture: Posture = "rails", options: Options | None = None,
                    on_verdict: Callable[[Decision], None] | None = None) -> Callable[..., Awaitable[bool]]:
    """An output-rail action (register it with ``rails.register_action(..., name="check_evidence")``): True
    when the bot message may ship, False when the gate refuses it (``rails``). A system action, so its own
    result is never read as evidence."""
    gate = Gate(posture, options, on_verdict)

    @action(is_system_action=True)
    async def check_evidence(context: dict | None = None, events: list[dict] | None = None, **_: Any) -> bool:
        answer = (context or {}).get("bot_message")
        if not isinstance(answer, str):
            return True  # no bot message to judge (a rail run elsewhere in the flow)
        if not answer.strip():
            not_judged(EmptyAnswerError("the bot message is empty"), "NeMo Guardrails")
            return True  # it states nothing: no decision, never called grounded
        history = history_of(context, events)
        decision = await asyncio.to_thread(gate.decide, history, answer, format="openai", can_revise=False)
        return decision.action != "refused"

    return check_evidence
