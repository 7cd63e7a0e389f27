"""Histories as agent loops hold them, as the records the readers take: the converters of the in-loop half.

A loop holds its history in its SDK's own objects: an OpenAI or LiteLLM message object appended as the SDK's
docs do (``messages.append(completion.choices[0].message)``), the Responses API's output items
(``input += response.output``), Anthropic content blocks (``{"role": "assistant", "content":
response.content}``), LangChain messages (``state["messages"]``), pydantic-ai messages
(``result.all_messages()``), Haystack ChatMessages (an Agent's ``result["messages"]``, as the OpenAI form
they write), LlamaIndex ChatMessages (a pydantic model: its dump), AutoGen's messages and events (a
``TaskResult`` or its messages, an agent's model context), Google ADK's ``session.events`` and Gen AI
``Content`` lists (as the generateContent request they make), smolagents' memory, a DSPy ReAct trajectory,
Inspect AI's ChatMessages (each framework's converter in grounding.integrations). Each is turned
into the JSON its SDK writes (``model_dump(mode="json")``, ``messages_to_dict``, ``ModelMessagesTypeAdapter``),
never guessed at: an element no converter knows is a RecordError naming where it is and what it is. A bare
list that is Anthropic's ``messages=``, the Responses API's ``input=`` or Gemini's ``contents=`` is put in
its format's document, with ``system=`` / ``instructions=`` beside it; beside any other list, ``system=``
is a system message of the list's own format.

>>> as_record([{"role": "user", "content": "hi"}], system="Be brief.", format="anthropic")
{'messages': [{'role': 'user', 'content': 'hi'}], 'system': 'Be brief.'}
>>> as_record([object()])
Traceback (most recent call last):
    ...
grounding.errors.RecordError: messages[0] is a object, which ground cannot read as a message: pass dicts, or the SDK's own message objects (pydantic models, LangChain or pydantic-ai messages)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from decimal import Decimal

from grounding.answers import answer_text  # noqa: F401 (its earlier home: grounding.history.answer_text)
from grounding.errors import RecordError

_ANTHROPIC_BLOCKS = frozenset({"tool_use", "tool_result", "server_tool_use", "web_search_tool_result", "thinking"})
_RESPONSES_ITEMS = frozenset({"function_call", "function_call_output", "message", "reasoning", "input_text",
                              "output_text", "web_search_call", "file_search_call", "computer_call"})
_JSON_SCALARS = frozenset({str, int, float, bool, type(None)})
_SCALARS = (str, int, float, bool, type(None), Decimal)  # a record parsed exactly keeps numbers as Decimal


def as_record(history: object, *, format: str | None = None, system: str | None = None,  # noqa: A002
              instructions: str | None = None) -> object:
    """history (a record, a list of messages as a loop holds them) as plain JSON values a reader takes."""
    if isinstance(history, (str, bytes)):
        return history
    if isinstance(history, dict):
        from grounding.integrations.dspy import is_trajectory, openai_messages

        if is_trajectory(history):  # a DSPy ReAct trajectory: its steps as calls and results
            return _in_document(openai_messages(history), format, system, instructions)
        return plain(history, "history")
    if _module(history).startswith("autogen_agentchat") and isinstance(getattr(history, "messages", None), list):
        history = history.messages  # a TaskResult: the run's messages
    if not isinstance(history, (list, tuple)):
        if callable(getattr(history, "model_dump", None)):
            return plain(history, "history")
        raise RecordError(f"history is a {type(history).__name__}: pass a record (a dict, its JSON text) or a list "
                          "of messages")
    log = _inspect_log(history, format)
    if log is not None:
        said = system if system is not None else instructions
        if said is not None:
            log["samples"][0]["messages"].insert(0, {"role": "system", "content": said})
        return log
    messages = history_messages(list(history))
    return _in_document(messages, format, system, instructions)


def _inspect_log(history: list | tuple, format: str | None) -> dict | None:  # noqa: A002
    """Inspect AI's ChatMessages (a task state's) as the log of one sample its reader takes (a call names its
    function, its arguments an object: read as OpenAI messages, the call's tool would be lost)."""
    if format not in (None, "inspect-ai") or not history:
        return None
    for message in history:
        if not _module(message).startswith("inspect_ai"):
            return None
    return {"eval": {}, "samples": [{"messages": [plain(message, f"messages[{at}]") for at, message in
                                                  enumerate(history)]}]}


def plain(value: object, where: str) -> object:
    """value with every SDK object in it as the JSON its SDK writes; anything else unknown is a RecordError
    naming where it is (where: the name of value itself, as ``messages[3]``)."""
    try:
        return _plain(value)
    except _Unreadable as unreadable:
        why = unreadable.why or ("which ground cannot read as a message: pass dicts, or the SDK's own message "
                                 "objects (pydantic models, LangChain or pydantic-ai messages)")
        raise RecordError(f"{_path(value, unreadable.value, where)} is a {type(unreadable.value).__name__}, "
                          f"{why}") from None
    except RecursionError:  # a reference cycle, or nesting no JSON document has
        raise RecordError(f"{where} is nested too deep to read (over {_DEEPEST} levels), or holds itself (a "
                          "reference cycle): pass the history as the JSON its SDK writes") from None


class _Unreadable(Exception):
    def __init__(self, value: object, why: str = "") -> None:
        self.value, self.why = value, why


# An integer longer than this has no decimal text in Python (its default int_max_str_digits is 4300)
_LONGEST_INT_BITS = 14_000
_DEEPEST = 900  # roughly where Python's own recursion limit stops a walk


def _plain(value: object) -> object:
    """value itself when it holds only JSON values (nothing is copied: a history is read on every decision),
    else a copy with each SDK object converted."""
    kind = type(value)
    if kind is int and value.bit_length() > _LONGEST_INT_BITS:
        raise _Unreadable(value, f"of more than {_LONGEST_INT_BITS * 3 // 10} digits, which has no text to read: "
                                 "pass it as a string")
    if isinstance(value, Decimal) and not value.is_finite():
        return str(value)  # NaN, sNaN, Infinity: read as the word they are (a signalling NaN raises when compared)
    if kind in _JSON_SCALARS or isinstance(value, _SCALARS):
        return value
    if kind is dict or isinstance(value, dict):
        copied = None
        for at, (key, item) in enumerate(value.items()):
            converted = _plain(item)
            if copied is None and (converted is not item or not isinstance(key, str)):
                copied = dict(itertools.islice(value.items(), at))  # the items before: text keys, unchanged
            if copied is not None:
                copied[_key(value, key)] = converted
        return value if copied is None else copied
    if isinstance(value, (list, tuple)):
        items = [_plain(item) for item in value]
        return value if kind is list and all(new is old for new, old in zip(items, value)) else items
    if _module(value).startswith("langchain_core"):
        from langchain_core.messages import messages_to_dict

        return messages_to_dict([value])[0]
    if _module(value).startswith("haystack") and callable(getattr(value, "to_openai_dict_format", None)):
        # Haystack's ChatMessage: its fields are private, and its to_dict() a shape of its own; the OpenAI
        # form it writes is the one its OpenAI generator sends (a call without an id allowed, as read)
        return _plain(value.to_openai_dict_format(require_tool_call_ids=False))
    dump = getattr(value, "model_dump", None)
    if callable(dump):  # a pydantic model: OpenAI, LiteLLM and Anthropic SDK objects
        return _plain(dump(mode="json", exclude_none=True))
    raise _Unreadable(value)


def _key(mapping: dict, key: object) -> str:
    """A mapping's key as JSON writes it: text as it is, a number or a boolean as its text (pandas'
    DataFrame.to_dict() keys rows by int)."""
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, (bool, int, float, Decimal)):
        return "null" if key is None else str(key).lower() if isinstance(key, bool) else str(key)
    raise _Unreadable(mapping, f"whose key {key!r} is a {type(key).__name__}: JSON keys are text")


def _path(value: object, target: object, where: str) -> str:
    """Where target sits in value, written as a reader would index it: ``messages[1].content[0]``."""
    if value is target:
        return where
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, (list, tuple)) else ()
    for key, item in items:
        found = _path(item, target, f"{where}.{key}" if isinstance(value, dict) else f"{where}[{key}]")
        if found:
            return found
    return ""


def history_messages(history: list, first: int = 0) -> list:
    """The messages of a history as plain JSON values (a list of JSON values alone is itself); first: the
    index of its first message in the whole history, for the error that names one (a Session's later turns)."""
    if _only_json(history):  # the common case, told in C: a list of dicts as the loop wrote them
        return history
    if history and all(_module(message).startswith("pydantic_ai") for message in history):
        from pydantic_ai.messages import ModelMessagesTypeAdapter

        return ModelMessagesTypeAdapter.dump_python(history, mode="json")
    for integration in _converters():
        if any(integration.FRAMEWORK.owns(message) for message in history):
            history = integration.history_messages(history, first)
    return [plain(message, f"messages[{at}]") for at, message in enumerate(history, first)]


def _converters() -> tuple:
    """The frameworks whose histories hold objects that are not messages (events, memory steps, a run's
    messages and events), each read into messages by its integration, in this order (grounding.integrations)."""
    from grounding.integrations import autogen, google_adk, llama_index, smolagents

    return google_adk, llama_index, smolagents, autogen


def _in_document(messages: list, format: str | None, system: str | None,  # noqa: A002
                 instructions: str | None) -> object:
    """A bare list in the document of its format: Anthropic's {system, messages}, the Responses API's
    {instructions, input}; an OpenAI list gets system as its first message."""
    kind = format or _kind(messages)
    if kind == "anthropic":
        return {"messages": messages, **({"system": system} if system is not None else {})}
    if kind in ("openai-responses", "responses"):
        return {"input": messages, **({"instructions": instructions} if instructions is not None else {})}
    if kind == "gemini":  # ADK's events, a list of Gen AI Contents: the generateContent request they make
        said = system if system is not None else instructions
        instruction = {"system_instruction": {"parts": [{"text": said}]}} if said is not None else {}
        return {"contents": messages, **instruction}
    if system is not None or instructions is not None:
        said = system if system is not None else instructions
        return [_system_message(messages, kind, said), *messages]  # type: ignore[arg-type] (one is set)
    return messages


def _system_message(messages: list, kind: str | None, text: str) -> dict:
    """text as a system message in the list's own format (by its name, else by its messages' shape): an
    OpenAI system dict put before LangChain, LlamaIndex or Haystack messages would hide their format from detection."""
    shape = kind or next((_shape(message) for message in messages if isinstance(message, dict)), "openai")
    if shape == "langchain":
        return {"type": "system", "data": {"content": text}}
    if shape in ("pydantic-ai", "pydantic_ai"):
        return {"kind": "request", "parts": [{"part_kind": "system-prompt", "content": text}]}
    if shape == "llamaindex":
        return {"role": "system", "blocks": [{"block_type": "text", "text": text}]}
    if shape == "haystack":
        return {"role": "system", "meta": {}, "name": None, "content": [{"text": text}]}
    if shape in ("openai", "openai-chat", "chat", "litellm"):
        return {"role": "system", "content": text}
    raise RecordError(f"system= cannot be put in a bare list of {shape or 'these'} messages: put the system prompt "
                      "in the history as its own format writes it, or pass the format's whole record")


def _shape(message: dict) -> str | None:
    """The format a bare list's message is written in, by the fields only that format's messages have."""
    if isinstance(message.get("data"), dict) or message.get("lc") == 1 or (
            "type" in message and "content" in message and "role" not in message):
        return "langchain"
    if message.get("kind") in ("request", "response") and "parts" in message:
        return "pydantic-ai"
    if "role" in message and ("blocks" in message or "additional_kwargs" in message):
        return "llamaindex"
    if "role" in message and "meta" in message and isinstance(message.get("content"), list):
        return "haystack"
    if "role" in message and "content" in message:
        return "openai"
    return None


def _kind(messages: Sequence) -> str | None:
    """Which document a bare list is the messages of, by the items and blocks only that format has."""
    for message in messages:
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind in ("function_call", "function_call_output") or (kind in _RESPONSES_ITEMS and "role" not in message):
            return "openai-responses"
        if isinstance(message.get("parts"), list) and message.get("role") in ("user", "model"):
            return "gemini"
        content = message.get("content")
        if isinstance(content, list) and any(isinstance(block, dict) and block.get("type") in _ANTHROPIC_BLOCKS
                                             for block in content):
            return "anthropic"
    return None


def _only_json(value: object) -> bool:
    """Whether value holds JSON's own values alone (dicts with string keys, lists, strings, numbers of 64 bits,
    booleans, None): orjson writes nothing else without being told how (dataclasses, subclasses and
    datetimes passed through to no default), so a value it writes needs no converting. (Walking a 20-message
    history in Python cost a tenth of a decision.)"""
    import orjson

    try:
        orjson.dumps(value, option=orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
                     | orjson.OPT_PASSTHROUGH_SUBCLASS)
    except TypeError:
        return False
    return True


def _module(value: object) -> str:
    return type(value).__module__ or ""
