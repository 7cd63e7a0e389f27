"""An answer argument is read for its text, or refused; it is never judged grounded unread (issue 49's fail
closed): an answer with no text is an EmptyAnswerError in every entry point, a framework's object the library
has no reader for is a TypeError naming it (never judged as its whole JSON: its uuids and timestamps are no
claims), and an object whose fields the JSON form would leave out is refused.

The framework stand-ins below are shaped as the frameworks' own classes are (their module, their fields and
the attribute their text is in), checked against haystack-ai 2.x, llama-index-core 0.14, autogen-agentchat
0.7, google-adk 1.x, crewai 1.x and dspy 3.x; the adapters' own tests use the real classes."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging

import pytest
from pydantic import BaseModel, create_model
from scripted import INVENTED, ORDER, QUESTION, REAL

import grounding
from grounding.errors import EmptyAnswerError

HISTORY = [{"role": "user", "content": QUESTION}, {"role": "tool", "content": json.dumps(ORDER)}]


def _entry_points() -> list:
    session = grounding.Session()
    session.extend(HISTORY)
    return [
        pytest.param(lambda answer: grounding.check_answer(HISTORY, answer), id="check_answer"),
        pytest.param(lambda answer: asyncio.run(grounding.acheck_answer(HISTORY, answer)), id="acheck_answer"),
        pytest.param(lambda answer: grounding.Gate("guard").decide(HISTORY, answer), id="Gate.decide"),
        pytest.param(lambda answer: asyncio.run(grounding.Gate("rails").adecide(HISTORY, answer)), id="Gate.adecide"),
        pytest.param(lambda answer: session.check(answer), id="Session.check"),
        pytest.param(lambda answer: grounding.Gate("assist").decide(session, answer), id="Gate.decide(session)"),
    ]


@pytest.mark.parametrize("judge", _entry_points())
@pytest.mark.parametrize("answer", ["", "  \n\t", None], ids=["empty", "blank", "None"])
def test_an_answer_with_no_text_is_never_judged(judge, answer):
    with pytest.raises(EmptyAnswerError, match="no text to judge"):
        judge(answer)


def test_no_text_is_a_type_error_as_any_argument_that_is_no_answer():
    assert issubclass(EmptyAnswerError, TypeError) and issubclass(EmptyAnswerError, grounding.GroundingError)
    assert grounding.EmptyAnswerError is EmptyAnswerError


def test_a_langchain_message_that_only_calls_tools_is_no_answer():
    pytest.importorskip("langchain_core", reason="langchain is not installed (the langchain extra brings it)")
    from langchain_core.messages import AIMessage

    calling = AIMessage("", tool_calls=[{"name": "get_last_order", "args": {}, "id": "call_1"}])
    with pytest.raises(EmptyAnswerError, match="AIMessage with no text"):
        grounding.check_answer(HISTORY, calling)
    with pytest.raises(EmptyAnswerError):
        grounding.Gate("guard").decide(HISTORY, AIMessage(""))
    assert grounding.check_answer(HISTORY, AIMessage(INVENTED)).status.value == "flagged"  # text: judged


def test_an_anthropic_message_is_read_for_its_text_blocks_alone():
    pytest.importorskip("anthropic", reason="the anthropic SDK is not installed (the test extra brings it)")
    from anthropic.types import Message

    def message(*blocks: dict) -> Message:
        return Message.model_validate({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude",
                                       "content": list(blocks), "stop_reason": "end_turn", "stop_sequence": None,
                                       "usage": {"input_tokens": 1, "output_tokens": 1}})

    thinking = {"type": "thinking", "thinking": "maybe ORD-99999", "signature": "s"}
    calling = {"type": "tool_use", "id": "toolu_1", "name": "get_last_order", "input": {"order": "ORD-77777"}}
    verdict = grounding.check_answer(HISTORY, message(thinking, {"type": "text", "text": INVENTED}))
    assert [finding.value for finding in verdict.unsupported] == ["ord-55120"]  # not the thought's id
    with pytest.raises(EmptyAnswerError):
        grounding.check_answer(HISTORY, message(thinking, calling))


@dataclasses.dataclass(frozen=True)
class _Private:
    _role: str
    _content: str


def test_an_object_whose_fields_its_json_leaves_out_is_refused_not_judged_empty():
    with pytest.raises(TypeError, match="_role, _content are private"):
        grounding.check_answer(HISTORY, _Private("assistant", INVENTED))

    @dataclasses.dataclass
    class Public:
        order: str

    assert grounding.check_answer(HISTORY, Public("ORD-55120")).status.value == "flagged"  # an app's output


# --- the frameworks' answer objects, as their own classes are shaped --------------------------------------


def _stand_in(module: str, name: str, **fields: object) -> type:
    """A pydantic model named and placed as a framework's class (fields: name -> (type, default))."""
    model = create_model(name, **fields)  # type: ignore[call-overload]
    model.__module__ = module
    return model


@dataclasses.dataclass
class _TextContent:
    text: str


@dataclasses.dataclass
class HaystackChatMessage:  # haystack.dataclasses.ChatMessage: private fields, text in .texts
    _role: str
    _content: list

    @property
    def texts(self) -> list[str]:
        return [part.text for part in self._content if isinstance(part, _TextContent)]


HaystackChatMessage.__module__ = "haystack.dataclasses.chat_message"


class _Block(BaseModel):
    block_type: str = "text"
    text: str | None = None


LlamaChatMessage = _stand_in("llama_index.core.base.llms.types", "ChatMessage", role=(str, "assistant"),
                             blocks=(list[_Block], []))
AgentOutput = _stand_in("llama_index.core.agent.workflow.workflow_events", "AgentOutput",
                        response=(LlamaChatMessage, ...), current_agent_name=(str, "agent"), tool_calls=(list, []))
TextMessage = _stand_in("autogen_agentchat.messages", "TextMessage", id=(str, "6b1f0c2e-1d7a-4d8e-9b1a-3c5e7f9a2b4d"),
                        source=(str, "assistant"), created_at=(str, "2026-12-04T10:00:00Z"), content=(str, ...))
ToolCallRequestEvent = _stand_in("autogen_agentchat.messages", "ToolCallRequestEvent", source=(str, "assistant"),
                                 content=(list, []))
TaskResult = _stand_in("autogen_agentchat.base", "TaskResult", messages=(list, []), stop_reason=(str | None, None))


class _Part(BaseModel):
    text: str | None = None
    thought: bool | None = None


Content = _stand_in("google.genai.types", "Content", role=(str, "model"), parts=(list[_Part], []))
Event = _stand_in("google.adk.events.event", "Event", id=(str, "e-1f3a9c"), author=(str, "support"),
                  invocation_id=(str, "e-4417"), timestamp=(float, 1764842400.0), content=(Content | None, None))
CrewOutput = _stand_in("crewai.crews.crew_output", "CrewOutput", raw=(str, ...), tasks_output=(list, []),
                       token_usage=(dict, {"total_tokens": 4417}))


class Prediction:  # dspy.Prediction: the module's outputs, a ReAct trajectory's observations among them
    __module__ = "dspy.primitives.prediction"

    def __init__(self, **store: object) -> None:
        self._store = store

    def keys(self) -> list[str]:
        return list(self._store)


def _text(answer: str) -> dict[str, object]:
    """answer in each framework's answer object, keyed by what it is."""
    return {
        "haystack ChatMessage": HaystackChatMessage("assistant", [_TextContent(answer)]),
        "llama_index ChatMessage": LlamaChatMessage(blocks=[_Block(text=answer)]),
        "llama_index AgentOutput": AgentOutput(response=LlamaChatMessage(blocks=[_Block(text=answer)])),
        "autogen TextMessage": TextMessage(content=answer),
        "adk Event": Event(content=Content(parts=[_Part(text="Looking up ORD-99999?", thought=True),
                                                  _Part(text=answer)])),
        "genai Content": Content(parts=[_Part(text=answer)]),
        "crewai CrewOutput": CrewOutput(raw=answer),
    }


@pytest.mark.parametrize("kind", list(_text(REAL)))
def test_a_frameworks_answer_object_is_judged_by_its_text_alone(kind):
    assert grounding.check_answer(HISTORY, _text(REAL)[kind]).status.value == "grounded"
    # the invention stays caught, and nothing else the object holds (ids, timestamps, thoughts) is examined
    verdict = grounding.check_answer(HISTORY, _text(INVENTED)[kind])
    assert verdict.status.value == "flagged" and [finding.value for finding in verdict.unsupported] == ["ord-55120"]
    decision = grounding.Gate("guard").decide(HISTORY, _text(INVENTED)[kind])
    assert decision.action == "revision-asked" and decision.message.endswith('"ORD-55120"')


def test_a_read_id_with_a_made_up_suffix_in_a_framework_message_stays_flagged():
    verdict = grounding.check_answer(HISTORY, _text("Your last order ORD-400017 has shipped.")["haystack ChatMessage"])
    assert [finding.value for finding in verdict.unsupported] == ["ord-400017"]


@pytest.mark.parametrize("answer", [
    HaystackChatMessage("assistant", []),  # a ChatMessage that only calls tools
    LlamaChatMessage(blocks=[_Block(block_type="tool_call")]),
    Event(), Event(content=Content(parts=[_Part(text="ORD-55120?", thought=True)])),
    CrewOutput(raw=""),
], ids=["haystack", "llama_index", "adk-no-content", "adk-thought-only", "crewai"])
def test_a_frameworks_message_with_no_text_is_never_judged(answer):
    with pytest.raises(EmptyAnswerError):
        grounding.check_answer(HISTORY, answer)


@pytest.mark.parametrize(("answer", "fix"), [
    (TaskResult(messages=[TextMessage(content=REAL)]), r"result.messages\[-1\]"),
    (ToolCallRequestEvent(), "an event, not a message"),
    (Prediction(trajectory={"observation_0": json.dumps(ORDER)}, answer=INVENTED), "prediction.answer"),
    (_stand_in("langgraph.types", "Command", goto=(str, "model"))(), "cannot read as a message"),
], ids=["autogen TaskResult", "autogen event", "dspy Prediction", "a framework with no reader"])
def test_a_frameworks_object_that_is_no_message_is_a_type_error_naming_it_and_the_fix(answer, fix):
    for judge in (lambda: grounding.check_answer(HISTORY, answer), lambda: grounding.Gate("guard").decide(HISTORY, answer)):
        with pytest.raises(TypeError, match=fix) as raised:
            judge()
        assert type(answer).__name__ in str(raised.value)


def test_an_apps_own_model_subclassing_nothing_of_a_framework_is_a_structured_output():
    Refund = _stand_in("myapp.models", "Refund", order=(str, ...), amount=(float, ...))
    verdict = grounding.check_answer(HISTORY, Refund(order="ORD-40001", amount=4417.0))
    assert verdict.status.value == "flagged" and [finding.value for finding in verdict.unsupported] == ["4417"]


def test_the_langchain_middleware_makes_no_decision_on_a_final_message_with_no_text(caplog):
    pytest.importorskip("langchain_core", reason="langchain is not installed (the langchain extra brings it)")
    from langchain_core.messages import AIMessage, HumanMessage

    from grounding.langchain import decide

    with caplog.at_level(logging.WARNING, logger="grounding.gate"):
        assert decide(grounding.Gate("rails"), [HumanMessage(QUESTION), AIMessage("")]) is None
    assert "no decision" in caplog.text and "no text" in caplog.text
