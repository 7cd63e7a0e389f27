"""Claude Code session JSONL: one record per line, grouped by ``sessionId`` into one conversation.

Each record carries one Anthropic message (often one content block of it: an
assistant turn with text and a tool call is several records sharing
``message.id``). Tool results are ``tool_result`` blocks in ``type: "user"``
records; ``toolUseResult`` is the harness's own copy (it may hold more than
the model saw): not evidence. Meta records and system reminders are the
harness's words: neither evidence nor exempt. ``progress`` records repeat a
sub-agent's messages and are not read twice.
"""

from __future__ import annotations

import re

from grounding.model import Conversation, Item, Kind
from grounding.readers.common import CallLedger, arguments_text, calls_item, result_items, user_text

_TYPES = frozenset({"user", "assistant", "system", "summary", "queue-operation", "file-history-snapshot", "progress"})
_REMINDER = re.compile(r"<system-reminder>.*?</system-reminder>", re.DOTALL)


def recognises(record: object) -> bool:
    return (
        isinstance(record, dict)
        and isinstance(record.get("type"), str)
        and record["type"] in _TYPES
        and ("sessionId" in record or record.get("type") in ("summary", "file-history-snapshot"))
        and "messages" not in record
    )


def group_key(record: dict) -> str | None:
    """The conversation a record belongs to; None for records that carry no message."""
    if record.get("type") not in ("user", "assistant") or not isinstance(record.get("message"), dict):
        return None
    session = str(record.get("sessionId"))
    return session + "/sidechain/" + str(record.get("agentId")) if record.get("isSidechain") else session


def assemble(records: list[tuple[int, dict]], source: str, ids: set[str] | None = None) -> Conversation:
    """One conversation from its records, in file order. ids holds every record id of the file: a
    conversation whose first message continues a record not in the file (a compaction or a resumed
    session, whose context is in the parent session's file) cannot be judged here."""
    items: list[Item] = []
    ledger = CallLedger()
    turn_texts: list[str] = []
    turn_calls: list[tuple[object, object, str | None]] = []
    turn_id: object = None
    turn_line = 0  # the line of the turn's first text: where its answer is reported

    def close_turn() -> None:
        nonlocal turn_texts, turn_calls, turn_id, turn_line
        if turn_id is None:
            return
        if turn_calls:
            ledger.add_turn(turn_calls)
            items.append(calls_item(turn_calls))
        else:
            items.append(Item(Kind.ANSWER, "\n".join(turn_texts), line=turn_line))
        turn_texts, turn_calls, turn_id, turn_line = [], [], None, 0

    for line, record in records:
        message = record["message"]
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else [
            b for b in content or [] if isinstance(b, dict)]
        if record.get("type") == "assistant":
            if message.get("id") != turn_id:
                close_turn()
                turn_id = message.get("id", object())
            for block in blocks:
                if block.get("type") == "text" and isinstance(block.get("text"), str):
                    turn_texts.append(block["text"])
                    turn_line = turn_line or line
                elif block.get("type") == "tool_use":
                    turn_calls.append((block.get("id"), block.get("name"), arguments_text(block.get("input"))))
            continue
        close_turn()
        items.extend(_user_items(record, blocks, ledger))
    close_turn()
    first = records[0][1]
    return Conversation(source, records[0][0], str(first.get("sessionId")), tuple(items), "claude-code",
                        unjudgeable=_context_elsewhere(first, ids))


def _context_elsewhere(first: dict, ids: set[str] | None) -> str | None:
    """Why a conversation cannot be judged from this file: its first message follows one that is not here."""
    parent = first.get("parentUuid")
    if ids is None or not isinstance(parent, str) or parent in ids:
        return None
    what = "a sub-agent's file" if first.get("isSidechain") else "a session"
    return (f"{what} that continues a conversation not in this file (its first message follows record "
            f"{parent}): the evidence it was written from is in the parent session's file, and a file is judged "
            "on its own")


def _user_items(record: dict, blocks: list[dict], ledger: CallLedger) -> list[Item]:
    items = []
    meta = record.get("isMeta") is True
    for block in blocks:
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            text = _REMINDER.sub(" ", block["text"])
            items.append(Item(Kind.NEITHER, text) if meta else user_text(text))
        elif block.get("type") == "tool_result":
            call = ledger.call_for(block.get("tool_use_id"))
            content = block.get("content")
            if isinstance(content, list):
                content = [b for b in content if isinstance(b, dict) and b.get("type") == "text"] or ""
            items.extend(result_items(content, is_error=block.get("is_error") is True, arguments=call.arguments, tool=call.name))
    return items
