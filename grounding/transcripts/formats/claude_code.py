"""Claude Code session JSONL: one record per line, grouped by ``sessionId`` into one conversation.

Each record carries one Anthropic message (often one content block of it: an
assistant turn with text and a tool call is several records sharing
``message.id``). Tool results are ``tool_result`` blocks in ``type: "user"``
records; ``toolUseResult`` is the harness's own copy (it may hold more than
the model saw): not evidence. An editing tool's result echoes the lines the
agent typed: those are its own words (edit_echoes.py). Meta records and system reminders are the
harness's words: neither evidence nor exempt. ``progress`` records repeat a
sub-agent's messages and are not read twice. The git branch each record
names (``gitBranch``) is the session's metadata: stated, as a system prompt.
"""

from __future__ import annotations

import re

from grounding.model import Conversation, Item, Kind
from grounding.transcripts.formats.common import CallLedger, arguments_text, calls_item, result_items, user_text
from grounding.transcripts.formats.edit_echoes import EDITING_TOOLS, without_echo

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


def assemble(records: list[tuple[int, dict]], source: str, ids: dict[str, str | None] | None = None) -> Conversation:
    """One conversation from its records, in file order, along the branch that was kept. ids maps every
    record id of the file to its parent's: a conversation whose first message continues a record not in the
    file (a compaction or a resumed session, whose context is in the parent session's file) cannot be
    judged here."""
    context_elsewhere = _context_elsewhere(records[0][1], ids)
    if ids:
        records = _kept_branch(records, ids)
    items: list[Item] = []
    ledger = CallLedger()
    turn_texts: list[str] = []
    turn_thoughts: list[str] = []  # its thinking blocks: work shown (§9.24), never an answer
    turn_calls: list[tuple[object, object, str | None]] = []
    turn_id: object = None
    turn_line = 0  # the line of the turn's first text: where its answer is reported

    def close_turn() -> None:
        nonlocal turn_texts, turn_thoughts, turn_calls, turn_id, turn_line
        if turn_id is None:
            return
        if turn_calls:
            ledger.add_turn(turn_calls)
            items.append(calls_item(turn_calls, work="\n".join(turn_thoughts + turn_texts)))
        else:
            items.append(Item(Kind.ANSWER, "\n".join(turn_texts), line=turn_line, work="\n".join(turn_thoughts)))
        turn_texts, turn_thoughts, turn_calls, turn_id, turn_line = [], [], [], None, 0

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
                elif block.get("type") == "thinking" and isinstance(block.get("thinking"), str):
                    turn_thoughts.append(block["thinking"])
                elif block.get("type") == "tool_use":
                    turn_calls.append((block.get("id"), block.get("name"), arguments_text(block.get("input"))))
            continue
        close_turn()
        items.extend(_user_items(record, blocks, ledger))
    close_turn()
    first = records[0][1]
    cwd = next((record["cwd"] for _, record in records if isinstance(record.get("cwd"), str)), None)
    branches = dict.fromkeys(record["gitBranch"] for _, record in records
                             if isinstance(record.get("gitBranch"), str) and record["gitBranch"].strip())
    if branches:  # the harness's own record of the session's git branch: stated, as a system prompt is
        items.insert(0, Item(Kind.EXEMPT, "git branch: " + ", ".join(branches)))
    return Conversation(source, records[0][0], str(first.get("sessionId")), tuple(items), "claude-code",
                        unjudgeable=context_elsewhere, cwd=cwd)


def _kept_branch(records: list[tuple[int, dict]], parents: dict[str, str | None]) -> list[tuple[int, dict]]:
    """The records less the turns a user abandoned (an edited prompt, a rewind). parentUuid makes a tree:
    a tool result hangs from its call, parallel calls from each other, so a node with several children is
    no fork by itself. A fork is a record on the path to the last message with two or more children that
    each start a turn (a user's text, or a new assistant message); the children off that path, and all
    below them, were left behind. Where there is no such fork every record is kept."""
    by_id = {record["uuid"]: record for _, record in records if isinstance(record.get("uuid"), str)}
    last = records[-1][1].get("uuid")
    on_path: set[str] = set()
    while isinstance(last, str) and last not in on_path:
        on_path.add(last)
        last = parents.get(last)
    children: dict[str, list[str]] = {}
    for child, parent in parents.items():
        if parent is not None:
            children.setdefault(parent, []).append(child)
    left: list[str] = []
    for node in on_path:
        starts = [child for child in children.get(node, ())
                  if child in by_id and _starts_a_turn(by_id[child], by_id.get(node))]
        if len(starts) > 1:
            left += [child for child in starts if child not in on_path]
    if not left:
        return records
    abandoned: set[str] = set()
    while left:
        node = left.pop()
        if node not in abandoned:
            abandoned.add(node)
            left.extend(children.get(node, ()))
    return [(line, record) for line, record in records if record.get("uuid") not in abandoned]


def _starts_a_turn(record: dict, parent: dict | None) -> bool:
    """A user's own text, or an assistant message other than its parent's (not a result, not a block of the
    same message)."""
    message = record["message"]
    if record.get("type") == "user":
        content = message.get("content")
        blocks = content if isinstance(content, list) else []
        return not any(isinstance(b, dict) and b.get("type") == "tool_result" for b in blocks)
    parent_message = parent.get("message") if parent is not None else None
    return not (isinstance(parent_message, dict) and parent_message.get("id") == message.get("id"))


def _context_elsewhere(first: dict, ids: dict[str, str | None] | None) -> str | None:
    """Why a conversation cannot be judged from this file: its first message follows one that is not here."""
    parent = first.get("parentUuid")
    if ids is None or not isinstance(parent, str) or parent in ids:
        return None
    what = "a sub-agent's file" if first.get("isSidechain") else "a session"
    return (f"{what} that continues a conversation not in this file (its first message follows record "
            f"{parent}): the evidence it was written from is in the parent session's file; give that file in "
            "the same run to judge it")


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
            if call.name in EDITING_TOOLS:  # the agent's own lines, said back
                content = without_echo(content, call.arguments) if isinstance(content, str) else [
                    {**b, "text": without_echo(b["text"], call.arguments)} if isinstance(b.get("text"), str) else b
                    for b in content]
            items.extend(result_items(content, is_error=block.get("is_error") is True, arguments=call.arguments, tool=call.name))
    return items
