"""The conversation a stop event ends, read from the harness's session file.

The file is read as ``ground check`` reads it (run.runner.read_events: the same readers, a sub-agent's file
joined to its parent session's, SPEC §9.26). The harness writes it as the agent works and may not have written the final message
yet when the hook runs: where the event carries that message and the file does not end with it, the file
is read again for a moment, and the message is judged against whatever the file holds by then.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from pathlib import Path

from grounding.hooks.payload import StopEvent
from grounding.model import ANSWER, Conversation, Problem
from grounding.run.runner import read_events

# How long the hook waits for the harness to write the final message it was sent (reads every step).
SETTLE_SECONDS, SETTLE_STEP = 1.0, 0.1


class SessionUnreadable(Exception):
    """The session file cannot give the conversation the stop ends (the reason is the message)."""


@dataclass(frozen=True, slots=True)
class Turn:
    """The answer a stop ends and the conversation before it."""

    answer: str
    history: Conversation
    problems: tuple[Problem, ...] = ()  # records of the file that could not be read (reported, not fatal)


def ended_turn(event: StopEvent, max_record_bytes: int | None = None) -> Turn | None:
    """The answer the stop ends and its history; None when there is no final answer to judge (the file ends
    with a tool call, an interruption, or nothing the agent wrote). SessionUnreadable when the file is not
    a session this hook can read."""
    conversation, problems = _read(event, max_record_bytes)
    written = _last_answer(conversation)
    deadline = time.monotonic() + SETTLE_SECONDS
    while event.last_message is not None and not _same(written, event.last_message) and time.monotonic() < deadline:
        size = _size(event.judged_file)
        time.sleep(SETTLE_STEP)
        if _size(event.judged_file) != size:
            conversation, problems = _read(event, max_record_bytes)
            written = _last_answer(conversation)
    # the file's answer when it holds the message sent (the event may carry only its last text block)
    answer = written if written is not None and (event.last_message is None or _same(written, event.last_message)) \
        else event.last_message
    if answer is None:
        return None
    items = conversation.items[:-1] if written is not None else conversation.items
    return Turn(answer, replace(conversation, items=items), tuple(problems))


def _read(event: StopEvent, max_record_bytes: int | None) -> tuple[Conversation, list[Problem]]:
    """The conversation of the event's file: the session's main thread, or the sub-agent's own run."""
    target = event.judged_file
    if target is None:
        raise SessionUnreadable("the event names no transcript file (transcript_path is missing or null, or a "
                                "SubagentStop names neither agent_transcript_path nor agent_id)")
    if not os.path.isfile(target):
        raise SessionUnreadable(f"{target}: no such file")
    files = [event.transcript, target] if target != event.transcript and event.transcript else [target]
    conversations: list[Conversation] = []
    problems: list[Problem] = []
    # (a sub-agent whose parent file is gone is read alone: unjudgeable, if it needs it)
    for found in read_events([path for path in files if os.path.isfile(path)], max_record_bytes):
        if isinstance(found, Conversation):
            conversations.append(found)
        elif isinstance(found, Problem):
            problems.append(found)
    own = [c for c in conversations if c.source == target]
    if not own:
        why = "; ".join(p.message for p in problems[:3]) or "no Claude Code or Codex session records in it"
        raise SessionUnreadable(f"{target}: no conversation read ({why})")
    main = [c for c in own if event.session_id is not None and c.id == event.session_id]
    return (main or own)[0], problems


def _last_answer(conversation: Conversation) -> str | None:
    items = conversation.items
    return items[-1].text if items and items[-1].kind is ANSWER else None


def _same(written: str | None, sent: str) -> bool:
    """True when the file's answer is the message sent, or ends with it (whitespace aside)."""
    if written is None:
        return False
    words, sent_words = written.split(), sent.split()
    return bool(sent_words) and words[len(words) - len(sent_words):] == sent_words


def _size(path: str | None) -> int:
    try:
        return Path(path).stat().st_size if path else -1
    except OSError:
        return -1
