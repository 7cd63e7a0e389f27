"""grounding.openai_agents: the gate around an OpenAI Agents SDK run (hooks, an output guardrail, and
run_guarded's revision as a second run), run offline with a scripted model."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("agents", reason="the openai-agents extra is not installed (pip install '.[openai-agents]')")

from agents import Agent, Runner, function_tool, set_tracing_disabled  # noqa: E402
from agents.exceptions import OutputGuardrailTripwireTriggered  # noqa: E402
from agents.items import ModelResponse  # noqa: E402
from agents.models.interface import Model  # noqa: E402
from agents.usage import Usage  # noqa: E402
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText  # noqa: E402
from scripted import INVENTED, ORDER, QUESTION, REAL, corrected, recheck  # noqa: E402

import grounding  # noqa: E402
from grounding.openai_agents import EvidenceCheck, run_guarded_sync  # noqa: E402

SYSTEM = "You answer questions about orders."
set_tracing_disabled(True)  # offline: the SDK would try to export its traces to OpenAI


def _message(text: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(id="msg_1", type="message", role="assistant", status="completed",
                                 content=[ResponseOutputText(type="output_text", text=text, annotations=[])])


class ScriptedModel(Model):
    """Invents an order id; given the correction, calls the tool and answers with what it returned (unless
    stubborn)."""

    def __init__(self, stubborn: bool = False) -> None:
        self.stubborn = stubborn

    async def get_response(self, system_instructions, input, *args, **kwargs) -> ModelResponse:
        items = [{"role": "user", "content": input}] if isinstance(input, str) else input
        texts = [json.dumps(item, default=str) for item in items]
        if any(item.get("type") == "function_call_output" for item in items if isinstance(item, dict)):
            output = [_message(REAL)]
        elif corrected([json.loads(text).get("content", "") or "" for text in texts]) and not self.stubborn:
            output = [ResponseFunctionToolCall(type="function_call", call_id="call_1", name="latest_order",
                                               arguments="{}", id="fc_1", status="completed")]
        else:
            output = [_message(INVENTED)]
        return ModelResponse(output=output, usage=Usage(), response_id=None)

    def stream_response(self, *args, **kwargs):
        raise NotImplementedError


@function_tool
def latest_order() -> str:
    """The customer's latest order."""
    return json.dumps(ORDER)


def _agent(stubborn: bool = False, **kwargs) -> Agent:
    return Agent(name="support", instructions=SYSTEM, model=ScriptedModel(stubborn), tools=[latest_order], **kwargs)


def _recorded(guarded) -> dict:
    """The run as the SDK gives it back for the next turn: its input list (with the agent's instructions)."""
    return {"instructions": SYSTEM, "input": guarded.to_input_list()}


def test_assist_ships_the_invention_flagged(tmp_path):
    guarded = run_guarded_sync(_agent(), QUESTION, posture="assist")
    assert guarded.final_output == INVENTED and [d.action for d in guarded.decisions] == ["flagged"]
    [answer] = recheck(_recorded(guarded), tmp_path)
    assert answer["status"] == "flagged"


def test_guard_reruns_with_the_correction_and_ships_the_grounded_answer(tmp_path):
    guarded = run_guarded_sync(_agent(), QUESTION, posture="guard")
    assert guarded.final_output == REAL
    assert [d.action for d in guarded.decisions] == ["revision-asked", "grounded"] and guarded.decision.revised
    first, revised = recheck(_recorded(guarded), tmp_path)
    assert (first["status"], revised["status"]) == ("flagged", "grounded")
    assert revised["evidence_recheck"] == {"values_named": ["ord-55120"], "after_revision": True}


def test_guard_ships_a_stubborn_revision_flagged_and_the_record_says_so(tmp_path):
    guarded = run_guarded_sync(_agent(stubborn=True), QUESTION, posture="guard")
    assert guarded.final_output == INVENTED and [d.action for d in guarded.decisions] == ["revision-asked", "flagged"]
    _, revised = recheck(_recorded(guarded), tmp_path)
    assert revised["status"] == "flagged" and revised["evidence_recheck"]["after_revision"] is False


def test_rails_refuses_a_stubborn_revision():
    with pytest.raises(grounding.UnsupportedValuesError) as raised:
        run_guarded_sync(_agent(stubborn=True), QUESTION, posture="rails")
    assert [f.text for f in raised.value.values] == ["ORD-55120"] and raised.value.revised


def test_the_guardrail_never_trips_under_assist_and_records_the_decision():
    seen = []
    check = EvidenceCheck("assist", on_verdict=seen.append)
    result = Runner.run_sync(_agent(output_guardrails=[check.guardrail]), QUESTION, hooks=check.hooks)
    assert result.final_output == INVENTED and [d.action for d in seen] == ["flagged"]
    [guardrail] = result.output_guardrail_results
    assert guardrail.output.output_info.action == "flagged" and not guardrail.output.tripwire_triggered


def test_the_guardrail_trips_under_rails_on_a_plain_run():
    check = EvidenceCheck("rails")
    with pytest.raises(OutputGuardrailTripwireTriggered):
        Runner.run_sync(_agent(output_guardrails=[check.guardrail]), QUESTION, hooks=check.hooks)


def test_the_guardrail_judges_against_what_the_model_read():
    check = EvidenceCheck("rails")
    agent = Agent(name="support", instructions=SYSTEM, model=ScriptedModel(), tools=[latest_order],
                  output_guardrails=[check.guardrail])
    corrected_input = [{"role": "user", "content": QUESTION},
                       {"role": "user", "content": grounding.EVIDENCE_CHECK_FRAME_PREFIX + " look it up"}]
    result = Runner.run_sync(agent, corrected_input, hooks=check.hooks)
    assert result.final_output == REAL
    assert result.output_guardrail_results[0].output.output_info.action == "grounded"


def test_a_run_without_the_hooks_gets_a_warning_and_no_decision(caplog):
    import logging

    seen = []
    check = EvidenceCheck("rails", on_verdict=seen.append)
    with caplog.at_level(logging.WARNING, logger="grounding.openai_agents"):
        result = Runner.run_sync(_agent(output_guardrails=[check.guardrail]), QUESTION)  # no hooks=
    [guardrail] = result.output_guardrail_results
    assert guardrail.output.output_info is None and not guardrail.output.tripwire_triggered and seen == []
    assert "pass hooks=check.hooks" in caplog.text


def test_runs_that_end_early_leave_nothing_captured_behind():
    import gc

    from agents.exceptions import MaxTurnsExceeded

    check = EvidenceCheck("assist")
    looping = Agent(name="support", instructions=SYSTEM, model=_Looping(), tools=[latest_order],
                    output_guardrails=[check.guardrail])
    for _ in range(20):
        with pytest.raises(MaxTurnsExceeded):
            Runner.run_sync(looping, QUESTION, hooks=check.hooks, max_turns=1)
    gc.collect()
    Runner.run_sync(_agent(output_guardrails=[check.guardrail]), QUESTION, hooks=check.hooks)
    assert check.hooks.inputs == {}  # the one that reached the guardrail was read; the ended runs were dropped


def test_the_apps_own_hooks_see_every_event_through_the_checks():
    from agents import RunHooks

    class Counting(RunHooks):
        def __init__(self):
            self.events = []

        async def on_llm_start(self, context, agent, system_prompt, input_items):
            self.events.append("llm_start")

        async def on_tool_end(self, context, agent, tool, result):
            self.events.append("tool_end")

        async def on_agent_end(self, context, agent, output):
            self.events.append("agent_end")

    mine = Counting()
    check = EvidenceCheck("assist", hooks=mine)
    corrected_input = [{"role": "user", "content": QUESTION},
                       {"role": "user", "content": grounding.EVIDENCE_CHECK_FRAME_PREFIX + " look it up"}]
    result = Runner.run_sync(_agent(output_guardrails=[check.guardrail]), corrected_input, hooks=check.hooks)
    assert result.output_guardrail_results[0].output.output_info.action == "grounded"
    assert mine.events == ["llm_start", "tool_end", "llm_start", "agent_end"]


class _Looping(Model):
    """Calls the tool at every turn: a run that only ends at max_turns."""

    async def get_response(self, *args, **kwargs) -> ModelResponse:
        return ModelResponse(output=[ResponseFunctionToolCall(type="function_call", call_id="call_1",
                                                              name="latest_order", arguments="{}", id="fc_1",
                                                              status="completed")], usage=Usage(), response_id=None)

    def stream_response(self, *args, **kwargs):
        raise NotImplementedError


class ContractModel(Model):
    """The contract's story (scripted.contract_reply): prose, then invented JSON, then the real JSON."""

    def __init__(self, stubborn: bool = False) -> None:
        self.stubborn = stubborn

    async def get_response(self, system_instructions, input, *args, **kwargs) -> ModelResponse:
        from scripted import contract_reply

        items = [{"role": "user", "content": input}] if isinstance(input, str) else input
        texts = [json.dumps(item, default=str) for item in items]
        read = any(item.get("type") == "function_call_output" for item in items if isinstance(item, dict))
        reply = contract_reply(texts, read, self.stubborn)
        output = [ResponseFunctionToolCall(type="function_call", call_id="call_1", name="latest_order",
                                           arguments="{}", id="fc_1", status="completed")] if reply is None \
            else [_message(reply)]
        return ModelResponse(output=output, usage=Usage(), response_id=None)

    def stream_response(self, *args, **kwargs):
        raise NotImplementedError


def test_a_contract_reasks_the_shape_then_the_gate_the_values_each_a_run(tmp_path):
    from scripted import REAL_JSON, SCHEMA

    agent = Agent(name="support", instructions=SYSTEM, model=ContractModel(), tools=[latest_order])
    guarded = run_guarded_sync(agent, QUESTION, posture="guard", contract=grounding.Contract(SCHEMA, retries=1))
    assert guarded.final_output == REAL_JSON
    assert [d.action for d in guarded.decisions] == ["retry", "revision-asked", "passed"]
    assert [row.outcome for row in guarded.decisions[0].attempts] == ["retried"]
    statuses = [a["status"] for a in recheck(_recorded(guarded), tmp_path)]
    assert statuses == ["unchecked", "flagged", "grounded"]  # prose states no value; the invention; the real id


def test_a_contract_whose_reasks_are_spent_gives_the_canned_value_or_raises_and_trips_the_guardrail():
    from scripted import CANNED, SCHEMA

    agent = Agent(name="support", instructions=SYSTEM, model=ContractModel(stubborn=True), tools=[latest_order])
    guarded = run_guarded_sync(agent, QUESTION, contract=grounding.Contract(SCHEMA, retries=1, canned=CANNED))
    assert json.loads(guarded.final_output) == CANNED and guarded.decision.tier == "canned"
    with pytest.raises(grounding.OutputSchemaError):
        run_guarded_sync(agent, QUESTION, contract=grounding.Contract(SCHEMA))
    check = EvidenceCheck("assist", contract=grounding.Contract(SCHEMA))
    plain = Agent(name="support", instructions=SYSTEM, model=ContractModel(stubborn=True), tools=[latest_order],
                  output_guardrails=[check.guardrail])
    with pytest.raises(OutputGuardrailTripwireTriggered):
        Runner.run_sync(plain, QUESTION, hooks=check.hooks)


# Runner.run_streamed: each response's text judged as it streams (grounding.streaming) -------------------

STREAMED = "Your last order ORD-40001 has shipped.\nIts parcel is ORD-55120, arriving Monday.\n"
SDKScriptedModel = pytest.importorskip("agents.testing").ScriptedModel


class _FiveAtATime(SDKScriptedModel):
    """The scripted model, its text streamed five characters at a time (as a provider's deltas arrive)."""

    async def stream_response(self, *args, **kwargs):
        async for event in super().stream_response(*args, **kwargs):
            if event.type != "response.output_text.delta":
                yield event
                continue
            for at in range(0, len(event.delta), 5):
                yield event.model_copy(update={"delta": event.delta[at : at + 5]})


def _streamed_run(answer: str, posture: str, input_items=QUESTION) -> tuple[list[str], object, object]:
    import asyncio

    from agents.testing import assistant_message, function_call

    from grounding.openai_agents import StreamCheck

    steps = [[function_call("latest_order", "{}", call_id="c1")], [assistant_message(answer)]]
    agent = Agent(name="support", instructions=SYSTEM, model=_FiveAtATime(steps), tools=[latest_order])

    async def go():
        result = Runner.run_streamed(agent, input_items)
        check = StreamCheck(result, posture)
        return [text async for text in check], check, result

    return asyncio.run(go())


def test_run_streamed_never_shows_the_invented_value_and_cancels_the_run():
    shown, check, result = _streamed_run(STREAMED, "guard")
    assert "".join(shown) == "Your last order ORD-40001 has shipped.\nIts parcel is "
    assert check.decision.action == "revision-asked" and "ORD-55120" in check.decision.message
    assert len(check.streams) == 1


def test_run_streamed_ships_a_grounded_answer_whole_and_assist_records_an_invention():
    shown, check, _ = _streamed_run(REAL, "guard")
    assert "".join(shown) == REAL and check.decision.action == "grounded"
    shown, check, _ = _streamed_run(STREAMED, "assist")
    assert "".join(shown) == STREAMED and check.decision.action == "flagged"
