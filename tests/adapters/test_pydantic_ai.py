"""grounding.pydantic_ai: the gate as a pydantic-ai capability, run offline with a scripted FunctionModel."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("pydantic_ai", reason="the pydantic-ai extra is not installed (pip install '.[pydantic-ai]')")

from pydantic_ai import Agent  # noqa: E402
from pydantic_ai.messages import ModelMessagesTypeAdapter, ModelResponse, TextPart, ToolCallPart  # noqa: E402
from pydantic_ai.models.function import FunctionModel  # noqa: E402
from scripted import INVENTED, ORDER, QUESTION, REAL, corrected, recheck  # noqa: E402

import grounding  # noqa: E402
from grounding.pydantic_ai import EvidenceGate, output_validator  # noqa: E402


def _model(stubborn: bool = False) -> FunctionModel:
    def respond(messages, info):
        parts = [part for message in messages for part in message.parts]
        texts = [part.content for part in parts if isinstance(getattr(part, "content", None), str)]
        if any(part.part_kind == "tool-return" for part in parts):
            return ModelResponse(parts=[TextPart(REAL)])
        if corrected(texts) and not stubborn:
            return ModelResponse(parts=[ToolCallPart("latest_order", {})])
        return ModelResponse(parts=[TextPart(INVENTED)])

    return FunctionModel(respond)


def _agent(posture: str, stubborn: bool = False, decisions: list | None = None, **gate) -> Agent:
    on_verdict = decisions.append if decisions is not None else None
    agent = Agent(_model(stubborn), capabilities=[EvidenceGate(posture, on_verdict=on_verdict, **gate)],
                  retries={"output": 1})

    @agent.tool_plain
    def latest_order() -> dict:
        return ORDER

    return agent


def _recorded(result) -> list:
    return ModelMessagesTypeAdapter.dump_python(result.all_messages(), mode="json")


def test_assist_ships_the_invention_flagged(tmp_path):
    decisions = []
    result = _agent("assist", decisions=decisions).run_sync(QUESTION)
    assert result.output == INVENTED and [d.action for d in decisions] == ["flagged"]
    [answer] = recheck(_recorded(result), tmp_path)
    assert answer["status"] == "flagged" and answer["format"] == "pydantic-ai"


def test_guard_asks_one_revision_and_ships_the_grounded_answer(tmp_path):
    decisions = []
    result = _agent("guard", decisions=decisions).run_sync(QUESTION)
    assert result.output == REAL and [d.action for d in decisions] == ["revision-asked", "grounded"]
    first, revised = recheck(_recorded(result), tmp_path)
    assert first["status"] == "flagged"
    assert revised["status"] == "grounded"
    assert revised["evidence_recheck"] == {"values_named": ["ord-55120"], "after_revision": True}


def test_guard_ships_a_stubborn_revision_flagged_and_the_record_says_so(tmp_path):
    decisions = []
    result = _agent("guard", stubborn=True, decisions=decisions).run_sync(QUESTION)
    assert result.output == INVENTED and [d.action for d in decisions] == ["revision-asked", "flagged"]
    # the correction quoted ORD-55120 back: read from pydantic-ai's own record it must not exempt the repeat
    _, revised = recheck(_recorded(result), tmp_path)
    assert revised["status"] == "flagged" and [u["value"] for u in revised["unsupported"]] == ["ord-55120"]
    assert revised["evidence_recheck"]["after_revision"] is False


def test_rails_refuses_a_stubborn_revision():
    with pytest.raises(grounding.UnsupportedValuesError) as raised:
        _agent("rails", stubborn=True).run_sync(QUESTION)
    assert [f.text for f in raised.value.values] == ["ORD-55120"] and raised.value.revised


def test_rails_ships_a_revision_that_read_the_value():
    assert _agent("rails").run_sync(QUESTION).output == REAL


def test_options_reach_the_capability():
    agent = _agent("rails", stubborn=True, options=grounding.Options(exempt=["ORD-55120"]))
    assert agent.run_sync(QUESTION).output == INVENTED


def test_the_output_validator_form_gates_alike():
    agent = Agent(_model(), retries={"output": 1})
    agent.tool_plain(lambda: ORDER, name="latest_order")
    agent.output_validator(output_validator("guard"))
    assert agent.run_sync(QUESTION).output == REAL


def _streaming(stubborn: bool = False) -> FunctionModel:
    from pydantic_ai.models.function import DeltaToolCall

    async def stream(messages, info):
        parts = [part for message in messages for part in message.parts]
        texts = [part.content for part in parts if isinstance(getattr(part, "content", None), str)]
        if any(part.part_kind == "tool-return" for part in parts):
            text = REAL
        elif corrected(texts) and not stubborn:
            yield {0: DeltaToolCall(name="latest_order", json_args="{}")}
            return
        else:
            text = INVENTED
        for at in range(0, len(text), 6):  # a half-written id on the way: ORD-55 ...
            yield text[at:at + 6]

    return FunctionModel(stream_function=stream)


async def _stream_output(result: Any) -> str:
    shown = [text async for text in result.stream_output()]
    assert len(shown) > 1  # it was streamed
    return await result.get_output()


async def _stream_text(result: Any) -> str:
    shown = [text async for text in result.stream_text(delta=True, debounce_by=None)]
    assert len(shown) > 1
    return await result.get_output()


async def _get_output(result: Any) -> str:
    return await result.get_output()


READS = [_stream_output, _stream_text, _get_output]


def _streamed(posture: str, decisions: list, read_stream: Any = _stream_output) -> str:
    import asyncio

    agent = Agent(_streaming(), capabilities=[EvidenceGate(posture, on_verdict=decisions.append)],
                  retries={"output": 1})

    @agent.tool_plain
    def latest_order() -> dict:
        return ORDER

    async def read() -> str:
        async with agent.run_stream(QUESTION) as result:
            return await read_stream(result)

    return asyncio.run(read())


@pytest.mark.parametrize("read_stream", READS)
@pytest.mark.parametrize(("posture", "action"), [("assist", "flagged"), ("guard", "flagged")])
def test_a_stream_is_judged_once_on_its_final_output_and_ships_flagged(posture, action, read_stream):
    """However the stream is read (stream_text() and get_output() alone validate no partial output: guard
    asked a revision pydantic-ai cannot make, and the run ended in UnexpectedModelBehavior)."""
    decisions: list = []
    assert _streamed(posture, decisions, read_stream) == INVENTED
    assert [d.action for d in decisions] == [action]  # never a partial output: one decision
    assert [f.text for f in decisions[0].unsupported] == ["ORD-55120"]


@pytest.mark.parametrize("read_stream", READS)
def test_rails_refuses_a_streamed_invention_it_cannot_ask_to_revise(read_stream):
    decisions: list = []
    with pytest.raises(grounding.UnsupportedValuesError):
        _streamed("rails", decisions, read_stream)
    assert [d.action for d in decisions] == ["refused"]


def test_an_async_run_judges_off_the_event_loop():
    import asyncio
    import threading

    threads: list = []
    agent = Agent(_model(), capabilities=[EvidenceGate("guard", on_verdict=lambda d: threads.append(threading.get_ident()))],
                  retries={"output": 1})

    @agent.tool_plain
    def latest_order() -> dict:
        return ORDER

    async def run():
        return threading.get_ident(), await agent.run(QUESTION)

    loop_thread, result = asyncio.run(run())
    assert result.output == REAL and len(threads) == 2 and loop_thread not in threads


def _contract_agent(contract, decisions: list | None = None, stubborn: bool = False) -> Agent:
    from scripted import contract_reply

    def respond(messages, info):
        parts = [part for message in messages for part in message.parts]
        texts = [part.content for part in parts if isinstance(getattr(part, "content", None), str)]
        reply = contract_reply(texts, any(part.part_kind == "tool-return" for part in parts), stubborn)
        return ModelResponse(parts=[ToolCallPart("latest_order", {}) if reply is None else TextPart(reply)])

    on_verdict = decisions.append if decisions is not None else None
    agent = Agent(FunctionModel(respond), retries={"output": 3},
                  capabilities=[EvidenceGate("guard", on_verdict=on_verdict, contract=contract)])

    @agent.tool_plain
    def latest_order() -> dict:
        return ORDER

    return agent


def test_a_contract_reasks_the_shape_then_the_gate_the_values(tmp_path):
    from scripted import REAL_JSON, SCHEMA

    decisions = []
    result = _contract_agent(grounding.Contract(SCHEMA, retries=1), decisions).run_sync(QUESTION)
    assert result.output == REAL_JSON
    assert [d.action for d in decisions] == ["revision-asked", "grounded"]  # the gate's, on schema-valid JSON
    statuses = [answer["status"] for answer in recheck(_recorded(result), tmp_path)]
    assert statuses == ["unchecked", "flagged", "grounded"]  # prose states no value; the invention; the real id


def test_a_contract_whose_reasks_are_spent_ships_the_canned_value_or_raises():
    from scripted import CANNED, SCHEMA

    canned = _contract_agent(grounding.Contract(SCHEMA, canned=CANNED), stubborn=True).run_sync(QUESTION)
    assert json.loads(canned.output) == CANNED
    with pytest.raises(grounding.OutputSchemaError) as raised:
        _contract_agent(grounding.Contract(SCHEMA, retries=1), stubborn=True).run_sync(QUESTION)
    assert raised.value.stage == "json-parse" and raised.value.raw_output == "Your last order has shipped."
    assert [row.outcome for row in raised.value.attempts] == ["retried", "exhausted"]


# run_stream: the answer judged as it streams (grounding.streaming) ------------------------------------------

STREAMED = "Your last order ORD-40001 has shipped.\nIts parcel is ORD-55120, arriving Monday.\n"


def _streaming_agent() -> Agent:
    """A model that calls the tool, then streams an answer with an invented parcel id, five characters at a
    time; given the gate's correction, it streams the grounded answer."""
    from pydantic_ai.models.function import DeltaToolCall

    async def stream(messages, info):
        parts = [part for message in messages for part in message.parts]
        texts = [part.content for part in parts if isinstance(getattr(part, "content", None), str)]
        if not any(part.part_kind == "tool-return" for part in parts):
            yield {0: DeltaToolCall(name="latest_order", json_args="{}", tool_call_id="c1")}
            return
        answer = REAL if corrected(texts) else STREAMED
        for at in range(0, len(answer), 5):
            yield answer[at : at + 5]

    agent = Agent(FunctionModel(_model(), stream_function=stream))

    @agent.tool_plain
    def latest_order() -> dict:
        return ORDER

    return agent


async def _stream_checked(agent: Agent, posture: str, how: str, prompt: str = QUESTION, history=None):
    from grounding.pydantic_ai import stream_of
    from grounding.streaming import text_deltas

    async with agent.run_stream(prompt, message_history=history) as result:
        stream = stream_of(result, posture)
        if how == "stream_text":
            chunks = result.stream_text(delta=True, debounce_by=None)
        else:
            chunks = text_deltas(result.stream_output(debounce_by=None))
        shown = [piece async for piece in grounding.areleased(stream, chunks)]
    return shown, stream, result


@pytest.mark.parametrize("how", ["stream_text", "stream_output"])
def test_run_stream_never_shows_the_invented_value_and_asks_again(how):
    import asyncio

    agent = _streaming_agent()
    shown, stream, result = asyncio.run(_stream_checked(agent, "guard", how))
    assert "".join(shown) == "Your last order ORD-40001 has shipped.\nIts parcel is "
    assert "ORD-55120" not in "".join(shown) and stream.decision.action == "revision-asked"
    # the loop asks again with the correction: the grounded answer streams out whole
    again, stream, _ = asyncio.run(_stream_checked(agent, "guard", how, stream.decision.message, result.all_messages()))
    assert "".join(again) == REAL and stream.decision.action == "grounded"


def test_run_stream_under_assist_shows_everything_and_records():
    import asyncio

    shown, stream, _ = asyncio.run(_stream_checked(_streaming_agent(), "assist", "stream_text"))
    assert "".join(shown) == STREAMED
    assert stream.decision.action == "flagged" and [f.text for f in stream.decision.unsupported] == ["ORD-55120"]
