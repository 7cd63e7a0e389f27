"""grounding.integrations.google_adk: a session's events read as held, and the gate as an LlmAgent's
after_model_callback, with ADK's own LlmAgent, Runner and in-memory sessions and a scripted model (no network)."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("google.adk", reason="the google-adk extra is not installed (pip install '.[google-adk]')")

from google.adk.agents import LlmAgent  # noqa: E402
from google.adk.models.base_llm import BaseLlm  # noqa: E402
from google.adk.models.llm_response import LlmResponse  # noqa: E402
from google.adk.runners import Runner  # noqa: E402
from google.adk.sessions import InMemorySessionService  # noqa: E402
from google.genai import types  # noqa: E402
from scripted import INVENTED, ORDER, QUESTION, REAL  # noqa: E402

import grounding  # noqa: E402
from grounding.errors import UnsupportedValuesError  # noqa: E402
from grounding.integrations.google_adk import after_model_callback  # noqa: E402


def latest_order(customer: str) -> str:
    """The customer's last order."""
    return json.dumps(ORDER)


class _Scripted(BaseLlm):
    """Looks the order up, then answers (with the invention unless told to answer right)."""

    model: str = "scripted"
    answer: str = INVENTED

    async def generate_content_async(self, llm_request, stream=False):  # noqa: ANN001, ANN201, FBT002
        parts = [part for content in llm_request.contents for part in (content.parts or [])]
        if not any(part.function_response for part in parts):
            part = types.Part(function_call=types.FunctionCall(name="latest_order", args={"customer": "me"}, id="c1"))
        else:
            part = types.Part.from_text(text=self.answer)
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


def _run(answer: str = INVENTED, **callbacks: object) -> list:
    async def run() -> list:
        agent = LlmAgent(name="support", model=_Scripted(answer=answer), instruction="You help customers.",
                         tools=[latest_order], **callbacks)
        service = InMemorySessionService()
        runner = Runner(agent=agent, app_name="shop", session_service=service)
        session = await service.create_session(app_name="shop", user_id="u")
        question = types.Content(role="user", parts=[types.Part.from_text(text=QUESTION)])
        async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=question):
            pass
        return (await service.get_session(app_name="shop", user_id="u", session_id=session.id)).events

    return asyncio.run(run())


def _gate(posture: str, actions: list) -> grounding.Gate:
    return grounding.Gate(posture, on_verdict=lambda decision: actions.append(decision.action))


def test_a_sessions_events_read_as_held():
    events = _run()
    verdict = grounding.check_answer(events[:-1], events[-1])
    assert [finding.value for finding in verdict.unsupported] == ["ord-55120"]
    assert grounding.check_answer(events[:-1], REAL).status.value == "grounded"


def test_the_callback_masks_a_flagged_answer_under_guard_and_passes_a_grounded_one():
    actions: list = []
    events = _run(after_model_callback=after_model_callback(_gate("guard", actions)))
    assert actions == ["flagged"] and events[-1].content.parts[0].text == "Your last order [unverified] has shipped."
    actions.clear()
    events = _run(REAL, after_model_callback=after_model_callback(_gate("guard", actions)))
    assert actions == ["grounded"] and events[-1].content.parts[0].text == REAL


def test_assist_and_unmasked_guard_let_it_go_and_rails_refuses():
    for posture, mask in (("assist", True), ("guard", False)):
        events = _run(after_model_callback=after_model_callback(_gate(posture, []), mask=mask))
        assert events[-1].content.parts[0].text == INVENTED
    with pytest.raises(UnsupportedValuesError):
        _run(after_model_callback=after_model_callback(_gate("rails", [])))
