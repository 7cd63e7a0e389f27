"""A harness's stop event, as its hook receives it on standard input.

Claude Code and Codex send the same fields for ``Stop`` (``session_id``, ``transcript_path``, ``cwd``,
``hook_event_name``, ``stop_hook_active``, and, in the versions that have it, ``last_assistant_message``);
``SubagentStop`` adds the sub-agent's own transcript (``agent_transcript_path``) and ``agent_id``. Every
field but the transcript is optional here: a harness that sends less is still judged with what it sent.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import orjson

HARNESSES = ("claude-code", "codex")
STOP_EVENTS = ("Stop", "SubagentStop")


class PayloadError(ValueError):
    """Standard input is not a stop event the hook can judge."""


@dataclass(frozen=True, slots=True)
class StopEvent:
    """What the harness said about the stop: where the session is written and what the agent last said."""

    harness: str
    event: str  # "Stop" or "SubagentStop"
    transcript: str | None  # the session's file (the parent's, for a sub-agent)
    agent_transcript: str | None = None  # a sub-agent's own file (SubagentStop)
    agent_id: str | None = None
    session_id: str | None = None
    cwd: str | None = None
    stop_hook_active: bool = False  # the agent is already continuing because a stop hook blocked
    last_message: str | None = None  # the final message, where the harness sends it (the file may lag it)

    @property
    def judged_file(self) -> str | None:
        """The file whose last answer is judged: the session's on Stop; on SubagentStop the sub-agent's own
        (named, or where Claude Code keeps it: ``<session>/subagents/agent-<agent_id>.jsonl``), None when
        the event names neither."""
        if self.event != "SubagentStop":
            return self.transcript
        if self.agent_transcript or not (self.agent_id and self.transcript):
            return self.agent_transcript
        return f"{self.transcript.removesuffix('.jsonl')}/subagents/agent-{self.agent_id}.jsonl"


def parse(raw: bytes, harness: str) -> StopEvent:
    """The stop event in raw (the hook's standard input); PayloadError names what is wrong with it."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        shown = raw[:80].decode("utf-8", "replace")
        raise PayloadError(f"standard input is not JSON ({error}); it starts {shown!r}") from None
    if not isinstance(value, dict):
        raise PayloadError(f"standard input must be the hook's JSON object, not a {type(value).__name__}")
    event = value.get("hook_event_name", "Stop")
    if event not in STOP_EVENTS:
        raise PayloadError(f"hook_event_name {event!r}: this hook judges {' and '.join(STOP_EVENTS)} events "
                           "(register it under those)")
    return StopEvent(
        harness=harness,
        event=event,
        transcript=_path(value, "transcript_path"),
        agent_transcript=_path(value, "agent_transcript_path"),
        agent_id=_text(value, "agent_id"),
        session_id=_text(value, "session_id"),
        cwd=_text(value, "cwd"),
        stop_hook_active=value.get("stop_hook_active") is True,
        last_message=_text(value, "last_assistant_message"),
    )


def _text(value: dict, key: str) -> str | None:
    found = value.get(key)
    return found if isinstance(found, str) and found.strip() else None


def _path(value: dict, key: str) -> str | None:
    found = _text(value, key)
    return os.path.expanduser(found) if found is not None else None  # (a configured path may start with ~)
