"""grounding.langchain: the gate as a LangChain v1 agent middleware and as a LangGraph node, run offline with
a scripted chat model."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("langchain.agents", reason="the langchain extra is not installed (pip install '.[langchain]')")

from langchain.agents import create_agent  # noqa: E402
from langchain_core.language_models import BaseChatModel  # noqa: E402
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage, messages_to_dict  # noqa: E402
from langchain_core.outputs import ChatGeneration, ChatResult  # noqa: E402
from langchain_core.tools import tool  # noqa: E402
from scripted import INVENTED, ORDER, QUESTION, REAL, corrected, recheck  # noqa: E402

import grounding  # noqa: E402
from grounding.langchain import EvidenceGate, gate_node  # noqa: E402

SYSTEM = "You answer questions about orders. Customer since 2019, account ACC-77310."


class ScriptedChatModel(BaseChatModel):
    """Invents an order id; given the correction, calls the tool and answers with what it returned (unless
    stubborn). It records the system prompts it was sent."""

    stubborn: bool = False
    systems: list = []

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools, **kwargs):
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        self.systems.extend(m.content for m in messages if m.type == "system")
        texts = [m.content for m in messages if isinstance(m.content, str)]
        if any(m.type == "tool" for m in messages):
            reply = AIMessage(content=REAL)
        elif corrected(texts) and not self.stubborn:
            reply = AIMessage(content="", tool_calls=[{"name": "latest_order", "args": {}, "id": "call_1"}])
        else:
            reply = AIMessage(content=INVENTED)
        return ChatResult(generations=[ChatGeneration(message=reply)])


@tool
def latest_order() -> dict:
    """The customer's latest order."""
    return ORDER


def _run(posture: str, stubborn: bool = False, decisions: list | None = None, **gate) -> dict:
    on_verdict = decisions.append if decisions is not None else None
    model = ScriptedChatModel(stubborn=stubborn, systems=[])
    agent = create_agent(model, tools=[latest_order], system_prompt=SYSTEM,
                         middleware=[EvidenceGate(posture, on_verdict=on_verdict, **gate)])
    return agent.invoke({"messages": [{"role": "user", "content": QUESTION}]})


def _answers(result: dict) -> list[str]:
    return [m.content for m in result["messages"] if isinstance(m, AIMessage) and not m.tool_calls]


def test_assist_ships_the_invention_flagged(tmp_path):
    decisions = []
    result = _run("assist", decisions=decisions)
    assert _answers(result) == [INVENTED] and [d.action for d in decisions] == ["flagged"]
    [answer] = recheck(messages_to_dict(result["messages"]), tmp_path)
    assert answer["status"] == "flagged" and answer["format"] == "langchain"


def test_guard_sends_one_visible_correction_and_ships_the_grounded_answer(tmp_path):
    decisions = []
    result = _run("guard", decisions=decisions)
    assert _answers(result) == [INVENTED, REAL] and [d.action for d in decisions] == ["revision-asked", "grounded"]
    assert result["grounding_system_prompt"] == SYSTEM
    first, revised = recheck(messages_to_dict(result["messages"]), tmp_path)
    assert (first["status"], revised["status"]) == ("flagged", "grounded")
    assert revised["evidence_recheck"] == {"values_named": ["ord-55120"], "after_revision": True}


def test_guard_ships_a_stubborn_revision_flagged_and_the_record_says_so(tmp_path):
    decisions = []
    result = _run("guard", stubborn=True, decisions=decisions)
    assert _answers(result) == [INVENTED, INVENTED] and [d.action for d in decisions] == ["revision-asked", "flagged"]
    _, revised = recheck(messages_to_dict(result["messages"]), tmp_path)
    assert revised["status"] == "flagged" and revised["evidence_recheck"]["after_revision"] is False


def test_rails_refuses_a_stubborn_revision():
    with pytest.raises(grounding.UnsupportedValuesError) as raised:
        _run("rails", stubborn=True)
    assert [f.text for f in raised.value.values] == ["ORD-55120"]


def test_the_system_prompt_is_exempt_text_for_the_gate():
    """ACC-77310 is in the system prompt only, which is not in the agent state: the middleware keeps it."""
    from langchain_core.messages import HumanMessage, ToolMessage

    from grounding.langchain import decide

    state = _run("guard")
    assert state["grounding_system_prompt"] == SYSTEM
    history = [HumanMessage(QUESTION), AIMessage("", tool_calls=[{"name": "latest_order", "args": {}, "id": "c1"}]),
               ToolMessage('{"order_id": "ORD-40001", "status": "shipped"}', tool_call_id="c1"),
               AIMessage("Account ACC-77310: your last order ORD-40001 has shipped.")]
    gate = grounding.Gate("rails")
    assert decide(gate, history, state["grounding_system_prompt"]).action == "grounded"
    assert decide(gate, history).action == "revision-asked"
    assert decide(gate, history[:2]) is None  # tool calls are not an answer


def test_the_node_routes_a_hand_built_graph():
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode

    model = ScriptedChatModel(systems=[])

    def call_model(state: MessagesState) -> dict:
        return {"messages": [model.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("model", call_model)
    graph.add_node("tools", ToolNode([latest_order]))
    graph.add_node("evidence", gate_node("guard"), destinations=("model", "tools", "__end__"))
    graph.add_edge(START, "model")
    graph.add_edge("model", "evidence")
    graph.add_edge("tools", "model")
    result = graph.compile().invoke({"messages": [{"role": "user", "content": QUESTION}]})
    assert _answers(result) == [INVENTED, REAL]


def test_an_async_run_gates_alike():
    import asyncio

    agent = create_agent(ScriptedChatModel(systems=[]), tools=[latest_order], system_prompt=SYSTEM,
                         middleware=[EvidenceGate("guard")])
    result = asyncio.run(agent.ainvoke({"messages": [{"role": "user", "content": QUESTION}]}))
    assert _answers(result) == [INVENTED, REAL] and result["grounding_system_prompt"] == SYSTEM


def test_an_async_run_judges_off_the_event_loop():
    import asyncio
    import threading

    threads = []
    agent = create_agent(ScriptedChatModel(systems=[]), tools=[latest_order], system_prompt=SYSTEM,
                         middleware=[EvidenceGate("guard", on_verdict=lambda d: threads.append(threading.get_ident()))])

    async def run():
        loop_thread = threading.get_ident()
        result = await agent.ainvoke({"messages": [{"role": "user", "content": QUESTION}]})
        return loop_thread, result

    loop_thread, result = asyncio.run(run())
    assert _answers(result) == [INVENTED, REAL] and threads and loop_thread not in threads


class ContractChatModel(BaseChatModel):
    """The contract's story (scripted.contract_reply): prose, then invented JSON, then the real JSON."""

    stubborn: bool = False

    @property
    def _llm_type(self) -> str:
        return "scripted-contract"

    def bind_tools(self, tools, **kwargs):
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        from scripted import contract_reply

        texts = [m.content for m in messages if isinstance(m.content, str)]
        reply = contract_reply(texts, any(m.type == "tool" for m in messages), self.stubborn)
        message = (AIMessage(content="", tool_calls=[{"name": "latest_order", "args": {}, "id": "call_1"}])
                   if reply is None else AIMessage(content=reply, response_metadata={"finish_reason": "stop"}))
        return ChatResult(generations=[ChatGeneration(message=message)])


def _contract_run(contract, stubborn: bool = False, decisions: list | None = None) -> dict:
    on_verdict = decisions.append if decisions is not None else None
    agent = create_agent(ContractChatModel(stubborn=stubborn), tools=[latest_order],
                         middleware=[EvidenceGate("guard", on_verdict=on_verdict, contract=contract)])
    return agent.invoke({"messages": [{"role": "user", "content": QUESTION}]})


def test_a_contract_reasks_the_shape_then_the_gate_the_values(tmp_path):
    from scripted import INVENTED_JSON, PROSE, REAL_JSON, SCHEMA

    decisions = []
    result = _contract_run(grounding.Contract(SCHEMA, retries=1), decisions=decisions)
    assert _answers(result) == [PROSE, INVENTED_JSON, REAL_JSON]  # each attempt a visible turn
    assert [d.action for d in decisions] == ["revision-asked", "grounded"]
    frames = [m.content for m in result["messages"] if m.type == "human"][1:]
    assert "(attempt 1 of 2)" in frames[0] and frames[1].startswith(grounding.EVIDENCE_CHECK_FRAME_PREFIX)
    statuses = [a["status"] for a in recheck({"messages": messages_to_dict(result["messages"])}, tmp_path)]
    assert statuses == ["unchecked", "flagged", "grounded"]  # prose states no value; the invention; the real id


def test_a_contract_whose_reasks_are_spent_ships_the_canned_value_in_the_answers_place_or_raises():
    from scripted import CANNED, SCHEMA

    result = _contract_run(grounding.Contract(SCHEMA, retries=1, canned=CANNED), stubborn=True)
    assert json.loads(_answers(result)[-1]) == CANNED and len(_answers(result)) == 2
    with pytest.raises(grounding.OutputSchemaError, match="json-parse"):
        _contract_run(grounding.Contract(SCHEMA), stubborn=True)


def test_the_callback_observes_every_final_answer_and_changes_nothing(caplog):
    from langchain_core.messages import HumanMessage, ToolMessage

    from grounding.langchain import EvidenceCallback

    decisions = []
    handler = EvidenceCallback(on_verdict=decisions.append)
    agent = create_agent(ScriptedChatModel(systems=[]), tools=[latest_order])
    result = agent.invoke({"messages": [{"role": "user", "content": QUESTION}]}, config={"callbacks": [handler]})
    assert _answers(result) == [INVENTED]  # observed, not changed
    assert [d.action for d in decisions] == ["flagged"] and handler.last is decisions[-1]
    call = AIMessage(content="", tool_calls=[{"name": "latest_order", "args": {}, "id": "call_1"}])
    sent = [HumanMessage(QUESTION), call, ToolMessage(json.dumps(ORDER), tool_call_id="call_1")]
    ScriptedChatModel(systems=[]).invoke(sent, config={"callbacks": [handler]})  # a model called alone, too
    assert handler.last.action == "grounded" and not handler._sent  # nothing held after the call ends


# StreamCheck: a graph's answer judged token by token as it streams (grounding.streaming) ---------------

STREAMED = "Your last order ORD-40001 has shipped.\nIts parcel is ORD-55120, arriving Monday.\n"


class StreamingChatModel(ScriptedChatModel):
    """Calls the tool, then streams an answer five characters at a time (given the correction: the
    grounded one), as a provider's tokens arrive."""

    answer: str = STREAMED

    def _stream(self, messages, stop=None, run_manager=None, **kwargs):
        from langchain_core.messages import AIMessageChunk
        from langchain_core.outputs import ChatGenerationChunk

        texts = [m.content for m in messages if isinstance(m.content, str)]
        if not any(m.type == "tool" for m in messages):
            call = {"name": "latest_order", "args": "{}", "id": "call_1", "index": 0}
            yield ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=[call]))
            return
        answer = REAL if corrected(texts) else self.answer
        for at in range(0, len(answer), 5):
            piece = AIMessageChunk(content=answer[at : at + 5])
            if run_manager is not None:
                run_manager.on_llm_new_token(piece.content, chunk=ChatGenerationChunk(message=piece))
            yield ChatGenerationChunk(message=piece)


def _stream_checked(posture: str, answer: str = STREAMED, messages=None) -> tuple[list[str], object]:
    from grounding.langchain import StreamCheck

    agent = create_agent(StreamingChatModel(systems=[], answer=answer), tools=[latest_order], system_prompt=SYSTEM)
    check = StreamCheck(agent, {"messages": messages or [{"role": "user", "content": QUESTION}]}, posture,
                        system=SYSTEM)

    async def go():
        return [text async for text in check]

    return asyncio.run(go()), check


def test_a_streamed_graph_never_shows_the_invented_value():
    shown, check = _stream_checked("guard")
    assert "".join(shown) == "Your last order ORD-40001 has shipped.\nIts parcel is "
    assert check.decision.action == "revision-asked" and "ORD-55120" in check.decision.message


def test_a_streamed_graph_shows_a_grounded_answer_whole_and_assist_records():
    shown, check = _stream_checked("guard", REAL)
    assert "".join(shown) == REAL and check.decision.action == "grounded"
    shown, check = _stream_checked("assist")
    assert "".join(shown) == STREAMED and check.decision.action == "flagged"


def test_a_chat_models_own_astream_through_the_stream():
    # the plain loop: the model's astream, its chunks' text fed to a stream over the messages it was sent
    model = StreamingChatModel(systems=[])
    messages = [HumanMessage(QUESTION),
                AIMessage(content="", tool_calls=[{"name": "latest_order", "args": {}, "id": "call_1"}]),
                ToolMessage(json.dumps(ORDER), tool_call_id="call_1")]
    stream = grounding.stream(messages, "guard")

    async def go():
        return [text async for text in grounding.areleased(stream, (c.content async for c in model.astream(messages)))]

    assert "".join(asyncio.run(go())) == "Your last order ORD-40001 has shipped.\nIts parcel is "
