"""OpenAI Codex CLI rollouts (``~/.codex/sessions/**/rollout-*.jsonl``): one session per file.

Each line is ``{"timestamp", "type", "payload"}``. ``session_meta`` carries the session id, the
instructions (exempt), the working directory (``cwd``: a ``path:line`` under it is read relative to it,
as in Claude Code, §9.26) and the git branch and repository (``git``: stated, as the instructions are).
A ``response_item`` payload is an OpenAI Responses item (messages, ``function_call`` /
``function_call_output``, reasoning), read as the Responses reader reads them; an ``event_msg`` of type
``user_message`` is the user's turn (newer rollouts record user turns only so; older ones record them
twice, which exempts the same text twice and changes nothing). Other events (token counts, the agent's
messages again, reasoning summaries) and ``turn_context`` repeat what the items hold: they are skipped,
not read twice. A ``function_call_output`` is often JSON inside a JSON string (``{"output": …, "metadata": …}``):
it is read as any JSON result.
"""

from __future__ import annotations

from dataclasses import replace

from grounding.model import EXEMPT, Conversation, Item
from grounding.transcripts.formats import openai_responses
from grounding.transcripts.formats.common import answers_at_lines, text_of_parts

_TYPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context", "compacted"})


def recognises(record: object) -> bool:
    return (
        isinstance(record, dict)
        and isinstance(record.get("type"), str)
        and record["type"] in _TYPES
        and isinstance(record.get("payload"), dict)
        and "timestamp" in record
    )


def group_key(record: dict) -> str | None:
    """The session a record belongs to (a rollout file holds one); None for a record with nothing to read."""
    kind, payload = record.get("type"), record["payload"]
    if kind == "session_meta" or kind == "response_item":
        return "rollout"
    if kind == "event_msg" and payload.get("type") == "user_message" and isinstance(payload.get("message"), str):
        return "rollout"
    return None


def assemble(records: list[tuple[int, dict]], source: str, ids: dict[str, str | None] | None = None) -> Conversation:
    """One conversation from a rollout's records, in file order (ids: unused, a rollout names no parent)."""
    session_id, instructions, cwd, stated = None, None, None, []
    sequence: list[dict] = []
    lines: list[int] = []
    for line, record in records:
        kind, payload = record["type"], record["payload"]
        if kind == "session_meta":
            session_id = payload.get("id")
            instructions = payload.get("instructions") if isinstance(payload.get("instructions"), str) else None
            cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else cwd
            git = payload.get("git") if isinstance(payload.get("git"), dict) else {}
            stated = [f"{key}: {git[key]}" for key in ("branch", "repository_url") if isinstance(git.get(key), str)]
        elif kind == "event_msg":
            sequence.append({"type": "message", "role": "user",
                             "content": [{"type": "input_text", "text": payload["message"]}]})
            lines.append(line)
        else:
            sequence.append(payload)
            lines.append(line)
    body: dict = {"input": sequence}
    if instructions:
        body["instructions"] = instructions
    conversation = openai_responses.read(body, source, records[0][0])
    spoken = [(lines[at], text_of_parts(entry.get("content")), None) for at, entry in enumerate(sequence)
              if entry.get("type", "message") == "message" and entry.get("role") == "assistant"]
    items = answers_at_lines(conversation.items, spoken)
    if stated:  # the session's git branch and repository, from its metadata: stated, as the instructions are
        items = (Item(EXEMPT, "git " + ", ".join(stated)), *items)
    return replace(conversation, id=None if session_id is None else str(session_id), items=items,
                   input_format="codex-cli", cwd=cwd)
