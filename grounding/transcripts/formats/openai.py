"""OpenAI Chat Completions: ``{"id": ..., "messages": [...]}`` or a bare messages array (SPEC §2)."""

from __future__ import annotations

from grounding.errors import RecordError
from grounding.model import ANSWER, NEITHER, Conversation, Item
from grounding.transcripts.formats.common import (
    arguments_text,
    expect_dict,
    messages_list,
    record_id,
    result_items,
    text_of_block,
    user_text,
)

# Blocks of another format: reading past them would silently drop tool results.
_FOREIGN_BLOCKS = frozenset({"tool_use", "tool_result"})
_HAYSTACK_PARTS = frozenset({"tool_call", "tool_call_result"})  # keyed by their kind, with no "type"


def recognises(record: object) -> bool:
    messages = messages_list(record)
    if not isinstance(messages, list):
        return False
    for m in messages:  # a loop, not all() over a generator: every OpenAI record runs through all its messages
        # OTel GenAI messages also have a role, but keep their text in "parts"
        if not (isinstance(m, dict) and "role" in m and not ("parts" in m and "content" not in m)):
            return False
    return True


def starts_turn(message: dict) -> bool:
    """Whether a message starts a turn: a user's, system's or developer's own text (a tool message names a call
    before it)."""
    return message.get("role") in ("system", "developer", "user")


def read(record: object, source: str, line: int) -> Conversation:
    messages = messages_list(record)
    if not isinstance(messages, list):
        raise RecordError('expected {"messages": [...]} or a bare messages array for OpenAI Chat Completions')
    items: list[Item] = []
    calls: list[tuple[str | None, str | None, str | None]] = []  # (id, arguments, name) of the latest calls
    results_since_calls = 0
    for index, message in enumerate(messages):
        if type(message) is not dict:  # the place is spelled only for the error
            expect_dict(message, f"messages[{index}]")
        role = message.get("role")
        content = message.get("content")
        if role in ("system", "developer", "user"):
            items.append(user_text(_joined_text(content, index)))
        elif role == "assistant":
            found = _calls_of(message)
            if found is None:
                stop = message.get("finish_reason", message.get("stop_reason"))
                items.append(Item(ANSWER, _joined_text(content, index),
                                  stop_reason=stop if isinstance(stop, str) else None))
            else:
                items.append(Item(NEITHER, "", calls=tuple([n for _, _, n in found if isinstance(n, str)]),
                                  work=_joined_text(content, index) if content else ""))
                calls, results_since_calls = found, 0
        elif role in ("tool", "function"):
            tool, arguments = _answered_call(message, calls, results_since_calls)
            results_since_calls += 1
            if type(content) is str:  # one text (most)
                items.extend(result_items(content, arguments=arguments, tool=tool))
            elif isinstance(content, dict):  # JSON lowered from OTel: its numbers are read
                items.extend(result_items(content, arguments=arguments, tool=tool))
            else:
                items.extend(result_items(_part_texts(content, index), arguments=arguments, tool=tool))
        else:
            raise RecordError(
                f"messages[{index}] has role {role!r}; expected system, developer, user, assistant, tool or function"
            )
    return Conversation(source, line, record_id(record), tuple(items), "openai")


def _calls_of(message: dict) -> list[tuple[str | None, str | None, str | None]] | None:
    """The calls an assistant message makes, or None when it makes none (it is an answer)."""
    tool_calls = message.get("tool_calls")
    if isinstance(tool_calls, list) and tool_calls:
        found = []
        for call in tool_calls:
            call = call if isinstance(call, dict) else {}
            function = call.get("function") if isinstance(call.get("function"), dict) else {}
            call_id, arguments = call.get("id"), function.get("arguments")
            found.append((call_id, arguments_text(arguments), function.get("name")))
        return found
    if message.get("function_call") is not None:
        function = message["function_call"] if isinstance(message["function_call"], dict) else {}
        arguments = function.get("arguments")
        return [(None, arguments_text(arguments), function.get("name"))]
    return None


def _answered_call(message: dict, calls: list, position: int) -> tuple[object, str | None]:
    """(tool name, arguments) of the call this tool message answers (SPEC-READINGS §2.5); arguments None if unknown."""
    call_id = message.get("tool_call_id")
    if call_id is not None:
        for known_id, arguments, name in calls:
            if known_id == call_id:
                return name, arguments
    if (call_id is None or (len(calls) == 1 and position == 0)) and position < len(calls):
        return calls[position][2], calls[position][1]
    return message.get("name"), None


def _joined_text(content: object, index: int) -> str:
    if type(content) is str:  # most messages: the text as it stands, no list of parts to build and join
        return content
    return "\n".join(_part_texts(content, index))


def _part_texts(content: object, index: int) -> list[str]:
    if content is None:
        return [""]
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        texts = []
        for part in content:
            if isinstance(part, dict) and part.get("type") in _FOREIGN_BLOCKS:
                raise RecordError(
                    f"messages[{index}].content holds a {part['type']!r} block, which OpenAI Chat Completions "
                    "does not have; this looks like Anthropic Messages (--input-format anthropic)"
                )
            if isinstance(part, dict) and "type" not in part and _HAYSTACK_PARTS & part.keys():
                raise RecordError(
                    f"messages[{index}].content holds a {min(_HAYSTACK_PARTS & part.keys())!r} part, which "
                    "OpenAI Chat Completions does not have; this looks like Haystack's ChatMessage.to_dict() "
                    "(--input-format haystack)"
                )
            text = text_of_block(part)
            if text is not None:
                texts.append(text)
        return texts
    raise RecordError(f"messages[{index}].content must be a string, null or a list of parts")
