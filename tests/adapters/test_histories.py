"""Histories as each SDK's own docs build them, with its real objects, judged as their dict form is
(grounding.history); an element no converter knows is an error naming where it is and what it is."""

from __future__ import annotations

import json

import pytest
from scripted import INVENTED, ORDER, QUESTION, REAL

import grounding
from grounding.errors import RecordError

RESULT = json.dumps(ORDER)
ARGUMENTS = json.dumps({"customer": "me"})


def _same(history: object, plain: object, **keywords: object) -> None:
    """The SDK history and its dict form give one verdict, on a grounded answer and on an invented one."""
    for answer, status in ((REAL, "grounded"), (INVENTED, "flagged")):
        held = grounding.check_answer(history, answer, **keywords)
        written = grounding.check_answer(plain, answer, **keywords)
        assert held.status.value == written.status.value == status
        assert held.to_dict() == written.to_dict()


def test_an_openai_chat_history_with_the_sdk_message_appended():
    pytest.importorskip("openai", reason="the openai SDK is not installed (the openai-agents extra brings it)")
    from openai.types.chat import ChatCompletion

    call = {"id": "call_1", "type": "function", "function": {"name": "get_last_order", "arguments": ARGUMENTS}}
    completion = ChatCompletion.model_validate({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-5",
        "choices": [{"index": 0, "finish_reason": "tool_calls",
                     "message": {"role": "assistant", "content": None, "tool_calls": [call]}}]})
    messages = [{"role": "system", "content": "You help with orders."}, {"role": "user", "content": QUESTION}]
    messages.append(completion.choices[0].message)  # as the SDK's docs do
    messages.append({"role": "tool", "tool_call_id": "call_1", "content": RESULT})
    plain = [*messages[:2], {"role": "assistant", "content": None, "tool_calls": [call]}, messages[3]]
    _same(messages, plain)
    final = ChatCompletion.model_validate({
        "id": "chatcmpl-2", "object": "chat.completion", "created": 2, "model": "gpt-5",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": REAL}}]})
    assert grounding.check_answer(messages, final.choices[0].message).status.value == "grounded"  # its text
    with pytest.raises(TypeError, match=r"completion.choices\[0\].message"):
        grounding.check_answer(messages, final)  # a whole response is no answer (its id is no claim)


def test_a_litellm_history_with_the_sdk_message_appended():
    pytest.importorskip("litellm", reason="litellm is not installed (the test extra brings it)")
    import litellm

    call = {"id": "call_1", "type": "function", "function": {"name": "get_last_order", "arguments": ARGUMENTS}}
    response = litellm.ModelResponse(model="gpt-5", choices=[{"index": 0, "finish_reason": "tool_calls",
                                     "message": {"role": "assistant", "content": None, "tool_calls": [call]}}])
    messages = [{"role": "system", "content": "You help with orders."}, {"role": "user", "content": QUESTION}]
    messages.append(response.choices[0].message)  # as LiteLLM's docs do
    messages.append({"role": "tool", "tool_call_id": "call_1", "content": RESULT})
    plain = [*messages[:2], {"role": "assistant", "content": None, "tool_calls": [call]}, messages[3]]
    _same(messages, plain)
    final = litellm.ModelResponse(model="gpt-5", choices=[{"index": 0, "finish_reason": "stop",
                                  "message": {"role": "assistant", "content": REAL}}])
    assert grounding.check_answer(messages, final.choices[0].message).status.value == "grounded"  # its text
    with pytest.raises(TypeError, match=r"completion.choices\[0\].message"):
        grounding.check_answer(messages, final)  # a whole response is no answer
    session = grounding.Session()
    session.extend(messages)
    assert session.check(final.choices[0].message).status.value == "grounded"


def test_an_openai_responses_input_list_with_the_output_items_added():
    pytest.importorskip("openai", reason="the openai SDK is not installed (the openai-agents extra brings it)")
    from openai.types.responses import Response

    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_last_order",
            "arguments": ARGUMENTS, "status": "completed"}
    response = Response.model_validate({
        "id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-5", "output": [item],
        "parallel_tool_calls": True, "tool_choice": "auto", "tools": []})
    inputs: list = [{"role": "user", "content": QUESTION}]
    inputs += response.output  # as the SDK's docs do
    inputs.append({"type": "function_call_output", "call_id": "call_1", "output": RESULT})
    plain = {"instructions": "You help with orders.", "input": [inputs[0], item, inputs[2]]}
    _same(inputs, plain, instructions="You help with orders.")


def test_an_anthropic_history_with_the_sdk_content_blocks():
    pytest.importorskip("anthropic", reason="the anthropic SDK is not installed (the test extra brings it)")
    from anthropic.types import Message

    block = {"type": "tool_use", "id": "toolu_1", "name": "get_last_order", "input": {"customer": "me"}}
    message = Message.model_validate({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude", "content": [block],
        "stop_reason": "tool_use", "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}})
    result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": RESULT}]}
    messages = [{"role": "user", "content": QUESTION}, {"role": "assistant", "content": message.content}, result]
    plain = {"system": "You help with orders.",
             "messages": [messages[0], {"role": "assistant", "content": [block]}, result]}
    _same(messages, plain, system="You help with orders.")
    conversation = grounding.library.to_conversation(messages, system="You help with orders.")
    [evidence] = [item for item in conversation.items if item.kind is grounding.Kind.EVIDENCE]
    assert evidence.tool == "get_last_order"  # the tool's name, read from the SDK block (it was lost)
    answered = Message.model_validate({
        "id": "msg_2", "type": "message", "role": "assistant", "model": "claude",
        "content": [{"type": "text", "text": REAL}], "stop_reason": "end_turn", "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1}})
    assert grounding.check_answer(messages, answered).status.value == "grounded"


def test_a_langchain_message_list():
    pytest.importorskip("langchain_core", reason="the langchain extra is not installed")
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage, messages_to_dict

    messages = [SystemMessage("You help with orders."), HumanMessage(QUESTION),
                AIMessage("", tool_calls=[{"name": "get_last_order", "args": {"customer": "me"}, "id": "call_1"}]),
                ToolMessage(RESULT, tool_call_id="call_1", name="get_last_order")]
    _same(messages, messages_to_dict(messages))
    assert grounding.check_answer(messages, AIMessage(REAL)).status.value == "grounded"


def test_a_pydantic_ai_message_list():
    pytest.importorskip("pydantic_ai", reason="the pydantic-ai extra is not installed")
    from pydantic_ai.messages import (
        ModelMessagesTypeAdapter,
        ModelRequest,
        ModelResponse,
        ToolCallPart,
        ToolReturnPart,
        UserPromptPart,
    )

    messages = [ModelRequest(parts=[UserPromptPart(QUESTION)]),
                ModelResponse(parts=[ToolCallPart("get_last_order", {"customer": "me"}, tool_call_id="call_1")]),
                ModelRequest(parts=[ToolReturnPart("get_last_order", ORDER, tool_call_id="call_1")])]
    _same(messages, ModelMessagesTypeAdapter.dump_python(messages, mode="json"))


def test_an_element_no_converter_knows_is_an_error_naming_its_place_and_type():
    history = [{"role": "user", "content": QUESTION}, {"role": "tool", "content": [RESULT, object()]}]
    with pytest.raises(RecordError, match=r"messages\[1\]\.content\[1\] is a object"):
        grounding.check_answer(history, REAL)
    with pytest.raises(RecordError, match=r"messages\[0\] is a set"):
        grounding.check_answer([{"x"}], REAL)


def test_a_reader_hint_names_the_library_keyword_not_the_cli_flag():
    history = [{"role": "user", "content": QUESTION},
               {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "n", "input": {}}]},
               {"role": "user", "content": "plain"}]
    verdict = grounding.check_answer(history, REAL)  # Anthropic blocks: read as Anthropic, no hint needed
    assert verdict.status.value == "flagged"
    with pytest.raises(RecordError) as raised:
        grounding.check_answer(history, REAL, format="openai")
    assert "--input-format" not in str(raised.value)


@pytest.mark.parametrize("answer", [None, 42, object()])
def test_an_answer_that_is_no_text_message_or_structured_output_is_a_type_error(answer):
    with pytest.raises(TypeError):
        grounding.check_answer([{"role": "user", "content": QUESTION}], answer)
    with pytest.raises(TypeError):
        grounding.Gate("guard").decide([{"role": "user", "content": QUESTION}], answer)


def test_a_structured_output_is_still_judged_as_its_json():
    history = [{"role": "user", "content": QUESTION}, {"role": "tool", "content": RESULT}]
    assert grounding.check_answer(history, {"order": "ORD-40001"}).status.value == "grounded"
    assert grounding.check_answer(history, {"order": "ORD-55120"}).status.value == "flagged"


SYSTEM = "You help customers. Our returns line is 0800-555-0142."
ANSWERS = ((REAL, "grounded", []), (INVENTED, "flagged", ["ord-55120"]),
           ("Call 0800-555-0142 to return it.", "grounded", []))  # the system prompt's own words are exempt


def _system_is_read_in_the_lists_own_format(history: list, **keywords: object) -> None:
    for answer, status, unsupported in ANSWERS:
        for verdict in (grounding.check_answer(history, answer, system=SYSTEM, **keywords),
                        _session(history, **keywords).check(answer)):
            assert (verdict.status.value, [finding.value for finding in verdict.unsupported]) == (status, unsupported)


def _session(history: list, **keywords: object) -> grounding.Session:
    session = grounding.Session(system=SYSTEM, **keywords)
    session.extend(history)
    return session


def test_system_beside_langchain_messages_is_a_langchain_system_message():
    pytest.importorskip("langchain_core", reason="langchain is not installed (the langchain extra brings it)")
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    history = [HumanMessage(QUESTION), AIMessage("", tool_calls=[{"name": "get_last_order", "args": {}, "id": "c1"}]),
               ToolMessage(RESULT, tool_call_id="c1")]
    _system_is_read_in_the_lists_own_format(history)  # was: an OpenAI dict first, and the list unreadable


def test_system_beside_pydantic_ai_messages_is_a_system_prompt_part():
    pytest.importorskip("pydantic_ai", reason="pydantic-ai is not installed (the pydantic-ai extra brings it)")
    from pydantic_ai.messages import ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart, UserPromptPart

    history = [ModelRequest(parts=[UserPromptPart(QUESTION)]),
               ModelResponse(parts=[ToolCallPart("get_last_order", {}, "c1")]),
               ModelRequest(parts=[ToolReturnPart("get_last_order", RESULT, "c1")])]
    _system_is_read_in_the_lists_own_format(history)


def test_system_beside_llamaindex_messages_is_a_llamaindex_system_message():
    """LlamaIndex ChatMessage.model_dump() as its memory holds it: read with an OpenAI system dict first,
    the read order id itself was flagged."""
    history = [{"role": "user", "blocks": [{"block_type": "text", "text": QUESTION}], "additional_kwargs": {}},
               {"role": "assistant", "blocks": [{"block_type": "tool_call", "tool_call_id": "c1",
                                                 "tool_name": "get_last_order", "tool_kwargs": {}}],
                "additional_kwargs": {}},
               {"role": "tool", "blocks": [{"block_type": "text", "text": RESULT}],
                "additional_kwargs": {"tool_call_id": "c1"}}]
    _system_is_read_in_the_lists_own_format(history)
    _system_is_read_in_the_lists_own_format(history, format="llamaindex")


def test_system_beside_haystack_to_dict_messages_is_a_haystack_system_message():
    call = {"tool_name": "get_last_order", "arguments": {}, "id": "c1", "extra": None}
    history = [{"role": "user", "meta": {}, "name": None, "content": [{"text": QUESTION}]},
               {"role": "assistant", "meta": {}, "name": None, "content": [{"tool_call": call}]},
               {"role": "tool", "meta": {}, "name": None,
                "content": [{"tool_call_result": {"result": RESULT, "origin": call, "error": False}}]}]
    _system_is_read_in_the_lists_own_format(history)
    _system_is_read_in_the_lists_own_format(history, format="haystack")


def test_system_beside_a_list_it_cannot_be_put_in_is_refused_never_misread():
    records = [{"type": "session_meta", "payload": {"id": "s1"}}]
    with pytest.raises(RecordError, match="system= cannot be put in a bare list of codex-cli messages"):
        grounding.check_answer(records, REAL, system=SYSTEM, format="codex-cli")


def test_a_list_of_gemini_contents_is_the_request_it_makes_with_system_as_its_instruction():
    """Google ADK's session.events and a list of Gen AI Contents: their contents, read as the generateContent
    request they make (a bare list of Contents was no known format; system= was refused)."""
    contents = [{"role": "user", "parts": [{"text": QUESTION}]},
                {"role": "model", "parts": [{"function_call": {"name": "get_last_order", "args": {}}}]},
                {"role": "user", "parts": [{"function_response": {"name": "get_last_order", "response": ORDER}}]}]
    for answer, status, unsupported in ANSWERS:
        verdict = grounding.check_answer(contents, answer, system=SYSTEM)
        assert (verdict.status.value, [f.value for f in verdict.unsupported]) == (status, unsupported)
    assert grounding.check_answer(contents, REAL).to_dict() == grounding.check_answer({"contents": contents},
                                                                                     REAL).to_dict()


def test_a_history_that_holds_itself_or_nests_past_any_json_is_a_record_error():
    """R42: a reference cycle (or nesting ~1,000 deep) raised RecursionError, not the promised RecordError."""
    cyclic = [{"role": "user", "content": QUESTION}, {"role": "tool", "content": RESULT}]
    cyclic[0]["self"] = cyclic[0]
    with pytest.raises(RecordError, match=r"messages\[0\] is nested too deep to read .* reference cycle"):
        grounding.check_answer(cyclic, REAL)
    deep: object = "ORD-40001"
    for _ in range(5_000):
        deep = {"a": deep}
    with pytest.raises(RecordError, match=r"messages\[1\] is nested too deep"):
        grounding.Session().extend([{"role": "user", "content": QUESTION}, {"role": "tool", "content": deep}])
    nested: object = "ORD-40001"
    for _ in range(500):  # deep, and still read
        nested = {"a": nested}
    verdict = grounding.check_answer([{"role": "user", "content": QUESTION}, {"role": "tool", "content": nested}], REAL)
    assert verdict.status.value == "grounded"


def test_a_structured_result_keyed_by_numbers_is_read_as_json_writes_it():
    """R43: pandas' DataFrame.to_dict() keys rows by int: the core met an int key (AttributeError)."""
    rows = {"order_id": {0: "ORD-40001", 1: "ORD-40002"}, "status": {0: "shipped", 1: "pending"}}
    history = [{"role": "user", "content": QUESTION}, {"role": "tool", "content": rows}]
    assert grounding.check_answer(history, REAL).status.value == "grounded"
    assert grounding.check_answer(history, INVENTED).status.value == "flagged"
    with pytest.raises(RecordError, match=r"messages\[1\]\.content is a dict, whose key \(1, 2\) is a tuple"):
        grounding.check_answer([{"role": "user", "content": QUESTION}, {"role": "tool", "content": {(1, 2): "x"}}],
                               REAL)


def test_a_number_with_no_text_or_a_signalling_nan_in_a_result_is_read_or_named():
    """R44: Decimal('sNaN') raised InvalidOperation, a 5,000-digit int ValueError, from the core."""
    from decimal import Decimal

    def history(value: object) -> list:
        return [{"role": "user", "content": QUESTION}, {"role": "tool", "content": {"a": value, "b": 1200}}]

    assert grounding.check_answer(history(Decimal("sNaN")), "The total is 2400.").status.value == "flagged"
    assert grounding.check_answer(history(Decimal("sNaN")), "It is 1200.").status.value == "grounded"
    with pytest.raises(RecordError, match=r"messages\[1\]\.content\.a is a int, of more than 4200 digits"):
        grounding.check_answer(history(10 ** 5000), "The total is 2400.")


class _HaystackMessage:
    """Haystack's ChatMessage as an Agent holds it (checked against haystack-ai 2.x): private fields, and
    the OpenAI form its OpenAI generator sends written by to_openai_dict_format."""

    __module__ = "haystack.dataclasses.chat_message"

    def __init__(self, openai: dict) -> None:
        self._openai = openai

    def to_openai_dict_format(self, require_tool_call_ids: bool = True) -> dict:
        if require_tool_call_ids and self._openai.get("role") == "tool" and "tool_call_id" not in self._openai:
            raise ValueError("`ToolCall` must have a non-null `id` attribute to be used with OpenAI.")
        return dict(self._openai)


def test_a_haystack_agents_messages_are_read_as_the_openai_form_they_write():
    call = {"id": "call_1", "type": "function", "function": {"name": "get_last_order", "arguments": ARGUMENTS}}
    plain = [{"role": "system", "content": "You help with orders."}, {"role": "user", "content": QUESTION},
             {"role": "assistant", "tool_calls": [call]},
             {"role": "tool", "tool_call_id": "call_1", "content": RESULT}]
    _same([_HaystackMessage(message) for message in plain], plain)  # was: messages[0] is a ChatMessage
    no_id = [plain[1], {"role": "tool", "content": RESULT}]  # a call without an id is still read
    assert grounding.check_answer([_HaystackMessage(m) for m in no_id], REAL).status.value == "grounded"


def _autogen(kind_name: str, module: str = "autogen_agentchat.messages", **fields: object) -> object:
    """An AutoGen message or event shaped as the real class is (checked against autogen-agentchat 0.7)."""
    kind = type(kind_name, (), {"__module__": module})
    made = kind()
    made.__dict__.update(fields)
    return made


def _call(**fields: object) -> object:
    return _autogen("FunctionCall", "autogen_core._types", **fields)


def _result(**fields: object) -> object:
    return _autogen("FunctionExecutionResult", "autogen_core.models._types", **fields)


def test_an_autogen_runs_messages_and_model_context_are_read_as_held():
    """TaskResult.messages and an agent's model context were 'not a conversation in a known format'."""
    call = {"id": "call_1", "type": "function", "function": {"name": "get_last_order", "arguments": ARGUMENTS}}
    plain = [{"role": "user", "content": QUESTION}, {"role": "assistant", "content": None, "tool_calls": [call]},
             {"role": "tool", "tool_call_id": "call_1", "name": "get_last_order", "content": RESULT}]
    run = [_autogen("TextMessage", source="user", content=QUESTION),
           _autogen("ThoughtEvent", source="support", content="I should look up ORD-55120."),  # shown, not evidence
           _autogen("ToolCallRequestEvent", source="support",
                    content=[_call(id="call_1", name="get_last_order", arguments=ARGUMENTS)]),
           _autogen("ToolCallExecutionEvent", source="support",
                    content=[_result(call_id="call_1", name="get_last_order", content=RESULT, is_error=False)])]
    _same(run, plain)
    context = [_autogen("UserMessage", "autogen_core.models._types", source="user", content=QUESTION),
               _autogen("AssistantMessage", "autogen_core.models._types", source="support",
                        content=[_call(id="call_1", name="get_last_order", arguments=ARGUMENTS)]),
               _autogen("FunctionExecutionResultMessage", "autogen_core.models._types",
                        content=[_result(call_id="call_1", name="get_last_order", content=RESULT, is_error=False)])]
    _same(context, plain)
    session = grounding.Session()
    session.extend(run)
    assert session.check(INVENTED).status.value == "flagged" and session.check(REAL).status.value == "grounded"
    with pytest.raises(RecordError, match=r"messages\[0\] is an AutoGen MemoryContent"):
        grounding.check_answer([_autogen("MemoryContent", "autogen_core.memory", content="x")], REAL)


def test_google_adk_session_events_are_read_as_held():
    """ADK's session.events (checked against google-adk 1.x): each Event's content is a Gen AI Content; an
    event with none (a state change) carries nothing. They were 'not a conversation in a known format'."""
    from pydantic import BaseModel

    class Content(BaseModel):
        role: str
        parts: list[dict]

    class Event:
        def __init__(self, author: str, content: Content | None) -> None:
            self.author, self.content = author, content

    Content.__module__, Event.__module__ = "google.genai.types", "google.adk.events.event"
    events = [Event("user", Content(role="user", parts=[{"text": QUESTION}])),
              Event("support", Content(role="model", parts=[{"function_call": {"name": "get_last_order", "args": {}}}])),
              Event("support", None),
              Event("support", Content(role="user", parts=[{"function_response": {"name": "get_last_order",
                                                                                   "response": ORDER}}]))]
    plain = {"contents": [event.content.model_dump() for event in events if event.content is not None]}
    _same(events, plain)
    session = grounding.Session()
    session.extend(events)
    assert session.check(INVENTED).status.value == "flagged" and session.check(REAL).status.value == "grounded"


class _Role:
    def __init__(self, value: str) -> None:
        self.value = value


class _SmolMessage:
    """smolagents' ChatMessage as write_memory_to_messages() gives it (checked against smolagents 1.x)."""

    __module__ = "smolagents.models"

    def __init__(self, role: str, text: str) -> None:
        self.role, self.content, self.tool_calls = _Role(role), [{"type": "text", "text": text}], None


class _SmolStep:
    __module__ = "smolagents.memory"

    def __init__(self, messages: list, is_final_answer: bool = False) -> None:
        self._messages, self.is_final_answer = messages, is_final_answer

    def to_messages(self) -> list:
        return list(self._messages)


def _calling(call_id: str, name: str, arguments: object) -> _SmolMessage:
    listed = [{"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}]
    return _SmolMessage("tool-call", f"Calling tools:\n{listed!r}")


@pytest.mark.parametrize("agent", ["tool-calling", "code"])
def test_smolagents_memory_is_read_as_held_and_the_final_answer_is_never_evidence(agent):
    """write_memory_to_messages() and memory.steps were refused; read with the final_answer call's
    observation (the answer itself), an invented value in it was grounded by it."""
    if agent == "code":
        looked_up = _calling("call_1", "python_interpreter", "r = get_last_order(customer='me')\nprint(r)")
        final = _calling("call_2", "python_interpreter", f"final_answer({INVENTED!r})")
        observed = f"Observation:\nExecution logs:\nLast output from code snippet:\n{INVENTED}"
    else:
        looked_up = _calling("call_1", "get_last_order", {"customer": "me"})
        final = _calling("call_2", "final_answer", {"answer": INVENTED})
        observed = f"Observation:\n{INVENTED}"
    before = [_SmolMessage("system", "You help with orders."), _SmolMessage("user", f"New task:\n{QUESTION}"),
              looked_up, _SmolMessage("tool-response", f"Observation:\n{RESULT}")]
    answered = [final, _SmolMessage("tool-response", observed)]
    steps = [_SmolStep(before[:2]), _SmolStep(before[2:]), _SmolStep(answered, is_final_answer=True)]
    for history in ([*before, *answered], steps):
        assert grounding.check_answer(history, INVENTED).status.value == "flagged"
        assert grounding.check_answer(history, REAL).status.value == "grounded"
    session = grounding.Session()
    session.extend([*before, *answered])
    assert [f.value for f in session.check(INVENTED).unsupported] == ["ord-55120"]


def test_a_dspy_react_trajectory_is_read_as_its_calls_and_results():
    """prediction.trajectory (thought_i, tool_name_i, tool_args_i, observation_i; checked against dspy 3.x)
    was 'not a conversation in a known format'. The closing finish step calls no tool."""
    trajectory = {"thought_0": "Look the order up.", "tool_name_0": "get_last_order",
                  "tool_args_0": {"customer": "me"}, "observation_0": RESULT,
                  "thought_1": "I have it.", "tool_name_1": "finish", "tool_args_1": {}, "observation_1": "Completed."}
    call = {"id": "step_0", "type": "function", "function": {"name": "get_last_order", "arguments": ARGUMENTS}}
    plain = [{"role": "assistant", "content": "Look the order up.", "tool_calls": [call]},
             {"role": "tool", "tool_call_id": "step_0", "name": "get_last_order", "content": RESULT}]
    _same(trajectory, plain)
    structured = {**trajectory, "observation_0": ORDER}  # a tool that returned a dict
    assert grounding.check_answer(structured, REAL).status.value == "grounded"
    with pytest.raises(RecordError):  # a dict with other keys is no trajectory: a record, in no format
        grounding.check_answer({"tool_name_0": "get_last_order", "answer": REAL}, REAL)


def test_llamaindex_tool_call_results_are_read_as_their_calls_and_results():
    """A FunctionAgent's ToolCallResult events (checked against llama-index-core 0.14) were 'not a
    conversation in a known format'; a streamed delta is in what follows; another event is refused."""
    module = "llama_index.core.agent.workflow.workflow_events"
    output = type("ToolOutput", (), {"__module__": "llama_index.core.tools.types", "content": RESULT})()
    result = type("ToolCallResult", (), {"__module__": module})()
    result.__dict__.update(tool_name="get_last_order", tool_kwargs={"customer": "me"}, tool_id="call_1",
                           tool_output=output, return_direct=False)
    streamed = type("AgentStream", (), {"__module__": module})()
    user = {"role": "user", "blocks": [{"block_type": "text", "text": QUESTION}], "additional_kwargs": {}}
    call = {"id": "call_1", "type": "function", "function": {"name": "get_last_order", "arguments": ARGUMENTS}}
    plain = [{"role": "user", "content": QUESTION}, {"role": "assistant", "content": None, "tool_calls": [call]},
             {"role": "tool", "tool_call_id": "call_1", "content": RESULT}]
    _same([user, streamed, result], plain)
    other = type("AgentSetup", (), {"__module__": module})()
    with pytest.raises(RecordError, match=r"messages\[1\] is a LlamaIndex AgentSetup"):
        grounding.check_answer([user, other], REAL)


def _react(text: str) -> dict:
    return {"role": "assistant", "content": text}


def test_crewai_react_steps_are_calls_and_results_only_where_crewai_wrote_them():
    """CrewAI's ReAct text mode keeps a step as one assistant text with CrewAI's Observation appended (read
    with grounding.integrations.crewai, chosen by the caller). A model that writes its own Observation
    before CrewAI's reads nothing from it: an id it invented there stays flagged."""
    from grounding.integrations.crewai import history_messages

    step = 'Thought: look it up\nAction: latest_order\nAction Input: {"customer": "me"}'
    history = [{"role": "user", "content": QUESTION}, _react(f"{step}\nObservation: {RESULT}")]
    read = history_messages(history)
    assert read[1]["tool_calls"][0]["function"] == {"name": "latest_order", "arguments": '{"customer": "me"}'}
    assert grounding.check_answer(read, REAL).status.value == "grounded"
    assert grounding.check_answer(history, REAL).status.value == "flagged"  # the step read as the model's text
    faked = [history[0], _react(f"{step}\nObservation: your order is ORD-55120\nObservation: {RESULT}")]
    verdict = grounding.check_answer(history_messages(faked), INVENTED)
    assert [finding.value for finding in verdict.unsupported] == ["ord-55120"]
    # an Observation in prose, with no Action before it, is the model's own text
    prose = [history[0], _react(f"Observation: {RESULT}"), {"role": "tool", "content": "{}"}]
    assert history_messages(prose) == prose
