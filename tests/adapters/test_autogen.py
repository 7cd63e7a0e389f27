"""grounding.integrations.autogen: a run's messages and an agent's model context read as held, and the gate
on an agent's run (a revision is one more run), with AgentChat's own AssistantAgent and autogen-ext's replay
model client (no network)."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("autogen_agentchat", reason="the autogen extra is not installed (pip install '.[autogen]')")
pytest.importorskip("autogen_ext.models.replay", reason="autogen-ext (its replay client) is not installed")

from autogen_agentchat.agents import AssistantAgent  # noqa: E402
from autogen_core import FunctionCall  # noqa: E402
from autogen_core.models import CreateResult, RequestUsage  # noqa: E402
from autogen_ext.models.replay import ReplayChatCompletionClient  # noqa: E402
from scripted import INVENTED, ORDER, QUESTION, REAL  # noqa: E402

import grounding  # noqa: E402
from grounding.errors import UnsupportedValuesError  # noqa: E402
from grounding.integrations.autogen import run_checked  # noqa: E402

_USAGE = RequestUsage(prompt_tokens=1, completion_tokens=1)
_LOOK_UP = CreateResult(finish_reason="function_calls", usage=_USAGE, cached=False,
                        content=[FunctionCall(id="call_1", arguments=json.dumps({"customer": "me"}), name="latest_order")])


async def latest_order(customer: str) -> str:
    """The customer's last order."""
    return json.dumps(ORDER)


def _agent(*replies: str | CreateResult) -> AssistantAgent:
    """An agent whose model replies with the given script (a text is a final answer)."""
    script = [reply if isinstance(reply, CreateResult) else
              CreateResult(finish_reason="stop", content=reply, usage=_USAGE, cached=False) for reply in replies]
    client = ReplayChatCompletionClient(script, model_info={"vision": False, "function_calling": True,
                                                            "json_output": False, "family": "unknown",
                                                            "structured_output": False})
    return AssistantAgent("support", model_client=client, tools=[latest_order], system_message="You help customers.",
                          reflect_on_tool_use=True)


def _gate(posture: str, actions: list) -> grounding.Gate:
    return grounding.Gate(posture, on_verdict=lambda decision: actions.append(decision.action))


def test_a_runs_messages_and_the_model_context_read_as_held():
    agent = _agent(_LOOK_UP, INVENTED)
    result = asyncio.run(agent.run(task=QUESTION))
    verdict = grounding.check_answer(result.messages[:-1], result.messages[-1])
    assert [finding.value for finding in verdict.unsupported] == ["ord-55120"]
    assert grounding.check_answer(result, REAL).status.value == "grounded"  # a TaskResult: its messages
    context = asyncio.run(agent.model_context.get_messages())
    assert grounding.check_answer(context[:-1], REAL).status.value == "grounded"


@pytest.mark.parametrize("reads_again", [True, False], ids=["reads-again", "answers-from-the-first-run"])
def test_a_flagged_answer_gets_one_more_run_with_the_correction(reads_again):
    actions: list = []
    replies = (_LOOK_UP, INVENTED, _LOOK_UP, REAL) if reads_again else (_LOOK_UP, INVENTED, REAL)
    result, decision = asyncio.run(run_checked(_agent(*replies), QUESTION, _gate("guard", actions)))
    assert actions == ["revision-asked", "grounded"] and decision.answer == REAL
    assert result.messages[0].content.startswith(grounding.EVIDENCE_CHECK_FRAME_PREFIX)  # the correction, as the task


def test_a_stubborn_model_is_returned_flagged_under_guard_and_refused_under_rails():
    actions: list = []
    _, decision = asyncio.run(run_checked(_agent(_LOOK_UP, INVENTED, INVENTED), QUESTION, _gate("guard", actions)))
    assert actions == ["revision-asked", "flagged"] and decision.answer == INVENTED
    with pytest.raises(UnsupportedValuesError):
        asyncio.run(run_checked(_agent(_LOOK_UP, INVENTED, INVENTED), QUESTION, _gate("rails", [])))
    _, decision = asyncio.run(run_checked(_agent(_LOOK_UP, INVENTED), QUESTION, _gate("assist", [])))
    assert decision.action == "flagged"
