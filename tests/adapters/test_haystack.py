"""grounding.integrations.haystack: an Agent's ChatMessages read as held (and as their to_dict() form), and
the gate as the Agent's on_exit hook, with Haystack's own Agent, a scripted chat generator (no network)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("haystack", reason="the haystack extra is not installed (pip install '.[haystack]')")

from haystack import component  # noqa: E402
from haystack.components.agents import Agent  # noqa: E402
from haystack.dataclasses import ChatMessage, ToolCall  # noqa: E402
from haystack.tools import Tool  # noqa: E402
from scripted import INVENTED, ORDER, QUESTION, REAL, corrected  # noqa: E402

import grounding  # noqa: E402
from grounding.errors import UnsupportedValuesError  # noqa: E402
from grounding.integrations.haystack import EvidenceCheck  # noqa: E402


@component
class _Scripted:
    """Looks the order up, then answers: the invention first, the real id once corrected (stubborn: the
    invention every time)."""

    def __init__(self, stubborn: bool = False) -> None:
        self.stubborn = stubborn

    @component.output_types(replies=list[ChatMessage])
    def run(self, messages: list[ChatMessage], tools: object = None, **_: object) -> dict:
        if not any(message.tool_call_result for message in messages):
            call = ToolCall(tool_name="latest_order", arguments={"customer": "me"}, id="call_1")
            return {"replies": [ChatMessage.from_assistant(tool_calls=[call])]}
        texts = [message.text or "" for message in messages]
        return {"replies": [ChatMessage.from_assistant(REAL if corrected(texts) and not self.stubborn else INVENTED)]}


_TOOL = Tool(name="latest_order", description="The customer's last order.",
             parameters={"type": "object", "properties": {"customer": {"type": "string"}}},
             function=lambda customer: json.dumps(ORDER))


def _run(stubborn: bool = False, posture: str | None = None, actions: list | None = None) -> dict:
    hooks = None
    if posture:
        gate = grounding.Gate(posture, on_verdict=lambda decision: actions.append(decision.action))
        hooks = {"on_exit": [EvidenceCheck(gate)]}
    agent = Agent(chat_generator=_Scripted(stubborn), tools=[_TOOL], system_prompt="You help customers.",
                  hooks=hooks)
    agent.warm_up()
    return agent.run(messages=[ChatMessage.from_user(QUESTION)])


def test_an_agents_messages_read_as_held_and_as_their_to_dict_form():
    result = _run()
    held, answer = result["messages"][:-1], result["last_message"]
    for history in (held, [message.to_dict() for message in held]):
        verdict = grounding.check_answer(history, answer)
        assert [finding.value for finding in verdict.unsupported] == ["ord-55120"]
        assert grounding.check_answer(history, REAL).status.value == "grounded"
    assert grounding.check_answer(held, REAL, system="You help customers.").status.value == "grounded"


def test_the_on_exit_hook_asks_once_then_the_run_stops_grounded():
    actions: list = []
    result = _run(posture="guard", actions=actions)
    assert actions == ["revision-asked", "grounded"] and result["last_message"].text == REAL


def test_a_stubborn_model_stops_flagged_under_guard_and_raises_under_rails():
    actions: list = []
    result = _run(stubborn=True, posture="guard", actions=actions)
    assert actions == ["revision-asked", "flagged"] and result["last_message"].text == INVENTED
    actions.clear()
    with pytest.raises(Exception) as raised:  # noqa: PT011 (Haystack may wrap it: the cause is ours)
        _run(stubborn=True, posture="rails", actions=actions)
    chain = [raised.value, raised.value.__cause__, raised.value.__context__]
    assert any(isinstance(error, UnsupportedValuesError) for error in chain)
    assert actions == ["revision-asked", "refused"]


def test_the_hook_serialises_with_its_posture():
    hook = EvidenceCheck(grounding.Gate("rails"))
    assert EvidenceCheck.from_dict(hook.to_dict()).gate.posture == "rails"
