"""What every reader shares: small checks on message shapes (the record error is grounding.errors')."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

import orjson

from grounding.errors import RecordError
from grounding.frames import is_framework_frame, is_framework_result
from grounding.model import ANSWER, EVIDENCE, EXEMPT, NEITHER, Item

RESPONSE_ALONE = ("an API response: it holds only the model's reply, not the conversation it read; "
                  "check the request that carries the messages (with the reply appended) instead")


def user_text(text: str) -> Item:
    """User or system text: exempt, unless a framework wrote it (§2.3)."""
    return Item(NEITHER if is_framework_frame(text) else EXEMPT, text)


def arguments_text(arguments: object) -> str | None:
    """A tool call's arguments as text (JSON strings stay as written)."""
    if arguments is None:
        return None
    if isinstance(arguments, str):
        return arguments
    try:
        return orjson.dumps(arguments).decode()
    except TypeError:  # integers past 64 bits, Decimals from an exact parse
        return json.dumps(arguments, default=str)


def messages_list(record: object) -> list | None:
    """A record's messages: ``{"messages": [...]}`` or a bare array; None when it holds no list."""
    if isinstance(record, dict):
        record = record.get("messages")
    return record if isinstance(record, list) else None


def every_message(record: object, is_message: Callable[[object], bool]) -> bool:
    """True when the record holds messages and is_message holds for each (a format's recogniser)."""
    messages = messages_list(record)
    if not messages:
        return False
    for message in messages:  # a loop (not all() over a generator): most records fail at their first message
        if not is_message(message):
            return False
    return True


def expect_list(value: object, where: str) -> list:
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list, not {type(value).__name__}")
    return value


def expect_dict(value: object, where: str) -> dict:
    if not isinstance(value, dict):
        raise RecordError(f"{where} must be an object, not {type(value).__name__}")
    return value


def conversation_id_in(body: dict, metadata_key: str) -> str | None:
    """A conversation id kept in a metadata object (``metadata.conversation_id``), else the record's id."""
    metadata = body.get(metadata_key)
    if isinstance(metadata, dict) and metadata.get("conversation_id") is not None:
        return str(metadata["conversation_id"])
    return record_id(body)


def record_id(record: object) -> str | None:
    if isinstance(record, dict):
        value = record.get("id")
        if value is not None:
            return str(value)
    return None


def result_items(
    content: object, *, is_error: bool = False, arguments: str | None = None, tool: object = None
) -> list[Item]:
    """The tool result(s) a format's result content holds, as evidence items.

    A string is one result (parsed later if it is JSON); an object, or an array
    that is not a list of text blocks, is one result already in JSON form; a list
    of text blocks (or of strings) is one result per block (SPEC-READINGS §2.4).
    """
    name = tool if isinstance(tool, str) else None
    if content is None:
        return [Item(EVIDENCE, "", is_error=is_error, call_arguments=arguments, tool=name)]
    if isinstance(content, str):
        return [result_text(content, is_error=is_error, arguments=arguments, tool=name)]
    if isinstance(content, list) and content and all(text_of_block(block) is not None for block in content):
        return [result_text(text_of_block(block), is_error=is_error, arguments=arguments, tool=name)
                for block in content]
    if isinstance(content, (dict, list)):
        return [Item(EVIDENCE, "", is_error=is_error, call_arguments=arguments, document=content, tool=name)]
    return [Item(EVIDENCE, str(content), is_error=is_error, call_arguments=arguments, tool=name)]


def result_text(text: str, *, is_error: bool = False, arguments: str | None = None, tool: str | None = None) -> Item:
    """A tool result given as text: evidence, unless it is a framework's retry text sent as the tool's answer
    (pydantic-ai sends its tool retries so): that grounds nothing (SPEC §2)."""
    kind = NEITHER if is_framework_result(text) else EVIDENCE
    return Item(kind, text, is_error=is_error, call_arguments=arguments, tool=tool)


Written = list[tuple[int, str, "tuple[str, str] | None"]]  # (line, text, span) of each assistant message


def answers_at_lines(items: tuple[Item, ...], written: Written) -> tuple[Item, ...]:
    """Each answer with the line of the record that wrote it (and the traced span, when there is one): written
    holds (line, text, span) of each assistant message in order, and an answer takes the first not yet taken
    whose text is its own (a format that lowers many records into one conversation knows the lines, the
    conversation model does not)."""
    if not written:
        return items
    placed, at = [], 0
    for item in items:
        if item.kind is ANSWER:
            found = next((n for n in range(at, len(written)) if written[n][1] == item.text), None)
            if found is not None:
                item, at = replace(item, line=written[found][0], span=written[found][2]), found + 1
        placed.append(item)
    return tuple(placed)


_TEXT_BLOCK_TYPES = frozenset({"text", "input_text", "output_text"})


def text_of_block(block: object) -> str | None:
    """The text of a plain string or a text block, in any format's spelling; None for any other block."""
    if isinstance(block, str):
        return block
    if isinstance(block, dict):
        if block.get("type") in _TEXT_BLOCK_TYPES and isinstance(block.get("text"), str):
            return block["text"]
        if block.get("block_type") == "text" and isinstance(block.get("text"), str):
            return block["text"]
    return None


def text_of_parts(parts: object) -> str:
    """The text blocks of a content list joined with a newline (assistant and user text)."""
    if isinstance(parts, str):
        return parts
    if not isinstance(parts, list):
        return ""
    return "\n".join(text for text in map(text_of_block, parts) if text is not None)


class Call(NamedTuple):
    name: object
    arguments: str | None


class CallLedger:
    """The tool calls a conversation made, to find the call a result answers (SPEC-READINGS §2.5).

    By id, nearest turn first (ids repeat in long recordings); failing that, by
    a unique name in the latest turn; failing that, by position in it.
    """

    def __init__(self) -> None:
        self._turns: list[list[tuple[object, object, str | None]]] = []
        self._answered = 0

    def add_turn(self, calls: list[tuple[object, object, object]]) -> None:
        # arguments as text: a record may give them as a JSON value (true, 5, [..]) where a string belongs
        self._turns.append([(call_id, name, arguments if arguments is None or isinstance(arguments, str)
                             else arguments_text(arguments)) for call_id, name, arguments in calls])
        self._answered = 0

    def call_for(self, call_id: object = None, name: object = None) -> Call:
        """The call a result answers: (tool name, arguments); arguments None when no call is known."""
        position, self._answered = self._answered, self._answered + 1
        if call_id is not None:
            for turn in reversed(self._turns):
                for known_id, known_name, arguments in turn:
                    if known_id == call_id:
                        return Call(known_name, arguments)
        latest = self._turns[-1] if self._turns else []
        if name is not None:
            named = [arguments for _, known_name, arguments in latest if known_name == name]
            if len(named) == 1:
                return Call(name, named[0])
        if call_id is None and position < len(latest):
            return Call(latest[position][1], latest[position][2])
        return Call(name, None)


def calls_item(calls: list[tuple[object, object, str | None]], work: str = "") -> Item:
    """An assistant turn that called tools: it grounds nothing, and its calls go to the ledger; work is what
    the assistant wrote beside them (its text, its reasoning: read for arithmetic only, §9.24)."""
    return Item(NEITHER, "", calls=tuple([name for _, name, _ in calls if isinstance(name, str)]), work=work)
