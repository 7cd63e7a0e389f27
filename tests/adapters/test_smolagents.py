"""grounding.smolagents: an agent's memory read as held, and the gate as a final-answer check, with
smolagents' own agents and a scripted model (no network)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("smolagents", reason="the smolagents extra is not installed (pip install '.[smolagents]')")

from scripted import INVENTED, ORDER, QUESTION, REAL, corrected  # noqa: E402
from smolagents import CodeAgent, Model, ToolCallingAgent, tool  # noqa: E402
from smolagents.models import ChatMessage, ChatMessageToolCall, ChatMessageToolCallFunction, MessageRole  # noqa: E402
from smolagents.monitoring import LogLevel  # noqa: E402

import grounding  # noqa: E402
from grounding.smolagents import final_answer_check  # noqa: E402


@tool
def latest_order(customer: str) -> str:
    """The customer's last order.

    Args:
        customer: who is asking
    """
    return json.dumps(ORDER)


def _texts(messages: list) -> list[str]:
    return [json.dumps(m.dict() if hasattr(m, "dict") else m, default=str) for m in messages]


class _Calling(Model):
    """A ToolCallingAgent's model: looks the order up, then answers (stubborn: the invention every time;
    otherwise the invention first, the real id once corrected)."""

    def __init__(self, stubborn: bool = False) -> None:
        super().__init__(model_id="scripted")
        self.stubborn = stubborn

    def generate(self, messages: list, **_: object) -> ChatMessage:
        texts = _texts(messages)
        if not any("ORD-40001" in text for text in texts):
            name, arguments = "latest_order", {"customer": "me"}
        else:
            name, arguments = "final_answer", {"answer": REAL if corrected(texts) and not self.stubborn else INVENTED}
        call = ChatMessageToolCall(id=f"call_{len(messages)}", type="function",
                                   function=ChatMessageToolCallFunction(name=name, arguments=arguments))
        return ChatMessage(role=MessageRole.ASSISTANT, content=None, tool_calls=[call])


class _Coding(Model):
    """A CodeAgent's model: code that looks the order up and prints it, then code that calls final_answer."""

    def generate(self, messages: list, **_: object) -> ChatMessage:
        texts = _texts(messages)
        if not any("ORD-40001" in text for text in texts):
            code = "r = latest_order(customer='me')\nprint(r)"
        else:
            code = f"final_answer({(REAL if corrected(texts) else INVENTED)!r})"
        return ChatMessage(role=MessageRole.ASSISTANT, content=f"Thought: next.\n<code>\n{code}\n</code>")


def _agent(kind: str, checks: list | None = None, stubborn: bool = False) -> object:
    if kind == "code":
        return CodeAgent(tools=[latest_order], model=_Coding(), verbosity_level=LogLevel.OFF, max_steps=5,
                         final_answer_checks=checks or [])
    return ToolCallingAgent(tools=[latest_order], model=_Calling(stubborn), verbosity_level=LogLevel.OFF,
                            max_steps=5, final_answer_checks=checks or [])


@pytest.mark.parametrize("kind", ["tool-calling", "code"])
def test_the_memory_as_held_never_grounds_the_final_answer_by_its_own_observation(kind):
    agent = _agent(kind)
    answer = agent.run(QUESTION)
    assert answer == INVENTED
    for history in (agent.write_memory_to_messages(), agent.memory.steps):
        verdict = grounding.check_answer(history, answer)
        assert [finding.value for finding in verdict.unsupported] == ["ord-55120"]
        assert grounding.check_answer(history, REAL).status.value == "grounded"


@pytest.mark.parametrize("kind", ["tool-calling", "code"])
def test_guard_asks_one_revision_through_the_check_and_ships_the_grounded_answer(kind):
    decisions: list = []
    gate = grounding.Gate("guard", on_verdict=decisions.append)
    agent = _agent(kind, [final_answer_check(gate)])
    assert agent.run(QUESTION) == REAL
    assert [d.action for d in decisions] == ["revision-asked", "grounded"]


def test_a_stubborn_model_gets_one_revision_then_guard_ships_it_flagged():
    decisions: list = []
    agent = _agent("tool-calling", [final_answer_check(grounding.Gate("guard", on_verdict=decisions.append))],
                   stubborn=True)
    assert agent.run(QUESTION) == INVENTED
    assert [d.action for d in decisions] == ["revision-asked", "flagged"]  # the latch read the check's error
