"""grounding.integrations.crewai: a task's messages read as held (ReAct text steps as calls and results)
and the gate as a Task guardrail, with CrewAI's own Agent, Task and Crew and a scripted LLM (no network)."""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("crewai", reason="the crewai extra is not installed (pip install '.[crewai]')")
os.environ.setdefault("CREWAI_TRACING_ENABLED", "false")
os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")

from crewai import Agent, Crew, Task  # noqa: E402
from crewai.llms.base_llm import BaseLLM  # noqa: E402
from crewai.tools import tool  # noqa: E402
from scripted import INVENTED, ORDER, QUESTION, REAL, corrected  # noqa: E402

import grounding  # noqa: E402
from grounding.integrations.crewai import guardrail, history_messages  # noqa: E402

ARGUMENTS = {"customer": "me"}


@tool("latest_order")
def latest_order(customer: str) -> str:
    """The customer's last order."""
    return json.dumps(ORDER)


class _Scripted(BaseLLM):
    """Looks the order up once a crew (ReAct text, or a native call), then answers: the invention first, the
    real id once corrected (stubborn: the invention every time). A retry is answered without reading again."""

    native: bool = False
    stubborn: bool = False
    looked_up: bool = False

    def call(self, messages, tools=None, callbacks=None, available_functions=None, from_task=None,  # noqa: PLR0913
             from_agent=None, response_model=None, **_: object):
        texts = [messages] if isinstance(messages, str) else [json.dumps(m, default=str) for m in messages]
        if not self.looked_up:
            self.looked_up = True
            if self.native:
                return [{"id": "call_1", "type": "function",
                         "function": {"name": "latest_order", "arguments": json.dumps(ARGUMENTS)}}]
            return f"Thought: I should look the order up.\nAction: latest_order\nAction Input: {json.dumps(ARGUMENTS)}"
        answer = REAL if corrected(texts) and not self.stubborn else INVENTED
        return answer if self.native else f"Thought: I now know the final answer\nFinal Answer: {answer}"

    async def acall(self, *args: object, **kwargs: object):
        return self.call(*args, **kwargs)

    def supports_function_calling(self) -> bool:
        return self.native

    def supports_stop_words(self) -> bool:
        return False

    def get_context_window_size(self) -> int:
        return 100_000


def _crew(llm: _Scripted, check=None) -> Crew:
    agent = Agent(role="support", goal="Answer customers about their orders.", backstory="You help customers.",
                  llm=llm, tools=[latest_order], allow_delegation=False, verbose=False)
    retried = {"guardrail": check, "guardrail_max_retries": 2} if check else {}
    task = Task(description=QUESTION, expected_output="The order's status.", agent=agent, **retried)
    return Crew(agents=[agent], tasks=[task], verbose=False)


def _recording(posture: str, actions: list) -> grounding.Gate:
    return grounding.Gate(posture, on_verdict=lambda decision: actions.append(decision.action))


def test_a_react_tasks_messages_read_as_held():
    output = _crew(_Scripted(model="scripted")).kickoff().tasks_output[0]
    assert output.raw == INVENTED
    read = history_messages(output.messages)
    verdict = grounding.check_answer(read, output.raw)
    assert verdict.status.value == "flagged" and [f.value for f in verdict.unsupported] == ["ord-55120"]
    assert grounding.check_answer(read, REAL).status.value == "grounded"
    # as CrewAI keeps it, the result is inside the assistant's own text: no evidence, the read id accused
    assert grounding.check_answer(output.messages, REAL).status.value == "flagged"


@pytest.mark.parametrize("native", [False, True], ids=["react", "native"])
def test_the_guardrail_asks_once_and_the_retry_keeps_the_tasks_evidence(native):
    actions: list = []
    output = _crew(_Scripted(model="scripted", native=native),
                   guardrail(_recording("guard", actions))).kickoff()
    # the retry answers without reading again: the first attempt's result grounds the real id
    assert actions == ["revision-asked", "grounded"] and output.raw == REAL


def test_a_stubborn_model_ships_flagged_under_guard_and_fails_the_task_under_rails():
    actions: list = []
    output = _crew(_Scripted(model="scripted", stubborn=True),
                   guardrail(_recording("guard", actions))).kickoff()
    assert actions == ["revision-asked", "flagged"] and output.raw == INVENTED  # the latch read CrewAI's retry
    actions.clear()
    with pytest.raises(Exception, match="ORD-55120|unsupported") as raised:
        _crew(_Scripted(model="scripted", stubborn=True),
              guardrail(_recording("rails", actions))).kickoff()
    assert actions == ["revision-asked", "refused"], raised.value


def test_assist_records_and_passes():
    actions: list = []
    output = _crew(_Scripted(model="scripted"), guardrail(_recording("assist", actions))).kickoff()
    assert actions == ["flagged"] and output.raw == INVENTED
