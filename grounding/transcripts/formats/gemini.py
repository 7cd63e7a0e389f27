"""Google Gemini ``generateContent`` bodies: ``contents[].parts`` (REST camelCase or SDK snake_case).

Function responses sit in turns whose role is ``user``, ``function``, ``tool``
or missing: they are classified by part, never by role.
"""

from __future__ import annotations

from grounding.errors import RecordError
from grounding.model import Conversation, Item, Kind
from grounding.transcripts.formats.common import (
    CallLedger,
    arguments_text,
    calls_item,
    expect_dict,
    expect_list,
    result_items,
    user_text,
)

_MODEL_ROLES = frozenset({"model", "assistant"})
# SDKs wrap a tool's non-object return in one key; the value is what the model read.
_WRAPPER_KEYS = frozenset({"output", "result", "return_value"})


def recognises(record: object) -> bool:
    if not isinstance(record, dict):
        return False
    contents = record.get("contents")
    # a response alone ({"candidates": […]}) holds only the reply: it is reported as an API response
    return isinstance(contents, list) and bool(contents) and all(isinstance(c, dict) and "parts" in c for c in contents)


def read(record: object, source: str, line: int) -> Conversation:
    body = expect_dict(record, "a Gemini record")
    items: list[Item] = []
    system = _get(body, "systemInstruction", "system_instruction")
    if isinstance(system, dict):
        items.extend(user_text(text) for text in _texts(system.get("parts")))
    elif isinstance(system, str):
        items.append(user_text(system))
    contents = list(body.get("contents") or [])
    contents += [c["content"] for c in body.get("candidates") or [] if isinstance(c, dict) and isinstance(c.get("content"), dict)]
    ledger = CallLedger()
    for index, raw in enumerate(contents):
        turn = expect_dict(raw, f"contents[{index}]")
        parts = expect_list(turn.get("parts", []), f"contents[{index}].parts")
        role = str(turn.get("role") or "").lower()
        if role in _MODEL_ROLES:
            items.extend(_model_turn(parts, ledger))
        else:
            items.extend(_input_turn(parts, ledger))
    return Conversation(source, line, _id(body), tuple(items), "gemini")


def _model_turn(parts: list, ledger: CallLedger) -> list[Item]:
    texts, calls, results = [], [], []
    for part in parts:
        if not isinstance(part, dict) or part.get("thought") is True:
            continue  # reasoning is neither evidence nor answer
        call = _get(part, "functionCall", "function_call")
        if isinstance(call, dict):
            calls.append((call.get("id"), call.get("name"), arguments_text(call.get("args"))))
        elif isinstance(part.get("text"), str):
            texts.append(part["text"])
        executed = _get(part, "codeExecutionResult", "code_execution_result")
        if isinstance(executed, dict):
            results.extend(result_items(executed.get("output")))
    if calls:
        ledger.add_turn(calls)
        return [calls_item(calls), *results]
    return [*results, Item(Kind.ANSWER, "\n".join(texts))]


def _input_turn(parts: list, ledger: CallLedger) -> list[Item]:
    items = []
    for part in parts:
        if not isinstance(part, dict):
            continue
        response = _get(part, "functionResponse", "function_response")
        if isinstance(response, dict):
            call = ledger.call_for(response.get("id"), response.get("name"))
            items.extend(result_items(_unwrapped(response.get("response")), arguments=call.arguments, tool=call.name))
        elif isinstance(part.get("text"), str):
            items.append(user_text(part["text"]))
    return items


def _unwrapped(response: object) -> object:
    if isinstance(response, dict) and len(response) == 1:
        (key, value), = response.items()
        if key in _WRAPPER_KEYS:
            return value
    return response


def _texts(parts: object) -> list[str]:
    if not isinstance(parts, list):
        return []
    return [part["text"] for part in parts if isinstance(part, dict) and isinstance(part.get("text"), str)]


def _get(node: dict, camel: str, snake: str) -> object:
    return node.get(camel, node.get(snake))


def _id(body: dict) -> str | None:
    value = body.get("id")
    return None if value is None else str(value)


__all__ = ["RecordError", "read", "recognises"]
