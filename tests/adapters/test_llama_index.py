"""grounding.integrations.llama_index: a FunctionAgent's memory and events read as held, and the gate on its
final answers, with LlamaIndex's own FunctionAgent and its scripted MockFunctionCallingLLM (no network)."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("llama_index.core", reason="the llama-index extra is not installed (pip install '.[llama-index]')")

from llama_index.core.agent.workflow import FunctionAgent, ToolCallResult  # noqa: E402
from llama_index.core.base.llms.types import ToolCallBlock  # noqa: E402
from llama_index.core.llms import ChatMessage, MessageRole  # noqa: E402
from llama_index.core.llms.mock import MockFunctionCallingLLM  # noqa: E402
from llama_index.core.tools import FunctionTool  # noqa: E402
from llama_index.core.workflow import Context  # noqa: E402
from scripted import INVENTED, ORDER, QUESTION, REAL, corrected  # noqa: E402

import grounding  # noqa: E402
from grounding.errors import UnsupportedValuesError  # noqa: E402
from grounding.integrations.llama_index import evidence_checked  # noqa: E402


def latest_order(customer: str) -> str:
    """The customer's last order."""
    return json.dumps(ORDER)


def _scripted(stubborn: bool):
    """Looks the order up, then answers: the invention first, the real id once corrected (stubborn: the
    invention every time)."""

    def respond(messages: list, **_: object) -> ChatMessage:
        if not any(message.role == MessageRole.TOOL for message in messages):
            call = ToolCallBlock(tool_call_id="call_1", tool_name="latest_order", tool_kwargs={"customer": "me"})
            return ChatMessage(role=MessageRole.ASSISTANT, blocks=[call])
        texts = [message.content or "" for message in messages]
        return ChatMessage(role=MessageRole.ASSISTANT,
                           content=REAL if corrected(texts) and not stubborn else INVENTED)

    return respond


def _run(agent_class: type = FunctionAgent, stubborn: bool = False) -> tuple:
    async def run() -> tuple:
        agent = agent_class(tools=[FunctionTool.from_defaults(latest_order)], system_prompt="You help customers.",
                            llm=MockFunctionCallingLLM(response_generator=_scripted(stubborn)))
        ctx = Context(agent)
        handler = agent.run(user_msg=QUESTION, ctx=ctx)
        events = [event async for event in handler.stream_events()]
        output = await handler
        memory = await ctx.store.get("memory")
        return events, output, await memory.aget_all()

    return asyncio.run(run())


def _gated(posture: str, actions: list) -> type:
    return evidence_checked(FunctionAgent, grounding.Gate(posture, on_verdict=lambda d: actions.append(d.action)))


def test_a_function_agents_memory_and_events_read_as_held():
    events, output, memory = _run()
    verdict = grounding.check_answer(memory[:-1], output)
    assert [finding.value for finding in verdict.unsupported] == ["ord-55120"]
    assert grounding.check_answer(memory[:-1], REAL, grounding.Options(require_tool=["latest_order"])).status.value \
        == "grounded"
    results = [event for event in events if isinstance(event, ToolCallResult)]
    assert grounding.check_answer(results, REAL).status.value == "grounded"
    assert grounding.check_answer(results, INVENTED).status.value == "flagged"


def test_the_gate_asks_once_then_the_run_ends_grounded():
    actions: list = []
    _, output, _ = _run(_gated("guard", actions))
    assert actions == ["revision-asked", "grounded"] and str(output.response.content) == REAL


def test_a_stubborn_model_ends_flagged_under_guard_and_raises_under_rails():
    actions: list = []
    _, output, _ = _run(_gated("guard", actions), stubborn=True)
    assert actions == ["revision-asked", "flagged"] and str(output.response.content) == INVENTED
    actions.clear()
    with pytest.raises(Exception) as raised:  # noqa: PT011 (the workflow may wrap it: the cause is ours)
        _run(_gated("rails", actions), stubborn=True)
    chain = [raised.value, raised.value.__cause__, raised.value.__context__]
    assert any(isinstance(error, UnsupportedValuesError) for error in chain), raised.value
    assert actions == ["revision-asked", "refused"]
