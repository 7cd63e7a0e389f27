"""Google ADK's session events as the Gen AI Contents they carry: a history as ADK holds it.

``session.events`` holds one ``Event`` per turn; each event's ``content`` (a Gen AI ``Content``: text,
``function_call`` and ``function_response`` parts) is the message, read as the generateContent request it
makes (format gemini). An event with no content (a state change, an agent transfer) carries nothing to read.
The reading is duck-typed (ADK is never imported for it); the adapter, ``after_model_callback``, imports it.

    session = await runner.session_service.get_session(app_name=..., user_id=..., session_id=...)
    verdict = grounding.check_answer(session.events[:-1], session.events[-1])

and, in the loop, the gate on each final answer: ``LlmAgent(..., after_model_callback=after_model_callback(
grounding.Gate("guard")))``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from grounding.errors import EmptyAnswerError
from grounding.integrations.base import Framework

FRAMEWORK = Framework("Google ADK", ("google.adk",), extra="google-adk")
log = logging.getLogger("grounding.google_adk")


def history_messages(history: list, first: int = 0) -> list:  # noqa: ARG001 (every converter's signature)
    """history with each ADK event as its content, the events without one left out; other elements as they are."""
    contents = [getattr(message, "content", None) if FRAMEWORK.owns(message) else message for message in history]
    return [content for content in contents if content is not None]


def after_model_callback(gate: Any, *, mask: bool = True) -> Callable[[Any, Any], Any]:  # noqa: ANN401 (a Gate)
    """The gate (a grounding.Gate) as an LlmAgent's ``after_model_callback``: a model response that calls no
    tool is judged against the session's events so far. ADK lets this callback replace the response, not
    send the model back for another turn, so no revision is asked: a grounded answer goes out as it is;
    under ``guard`` a flagged one goes out with its unsupported values masked (``Decision.fixed()``; with
    mask False, unchanged and flagged); under ``rails`` it is refused (UnsupportedValuesError out of the
    run). ``assist`` records and lets it go. A response with no text goes out undecided (logged).

        agent = LlmAgent(name="support", model=..., tools=[...],
                         after_model_callback=after_model_callback(grounding.Gate("guard")))
    """

    def grounded_in_evidence(callback_context: Any, llm_response: Any) -> Any:  # noqa: ANN401
        parts = list(getattr(llm_response.content, "parts", None) or [])
        if not parts or any(getattr(part, "function_call", None) for part in parts):
            return None
        try:
            decision = gate.decide(callback_context.session.events, llm_response.content, can_revise=False)
        except EmptyAnswerError as error:
            log.warning("ADK model response not judged: %s", error)
            return None
        decision.raise_if_refused()
        if decision.action != "flagged" or gate.posture != "guard" or not mask:
            return None
        from google.adk.models.llm_response import LlmResponse
        from google.genai import types

        return LlmResponse(content=types.Content(role="model", parts=[types.Part.from_text(text=decision.fixed())]))

    return grounded_in_evidence
