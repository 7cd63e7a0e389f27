"""One run of the hook: the event in, the harness's answer out, and nothing that can trap the agent.

Whatever goes wrong (standard input that is not an event, a configuration error, a session file that
cannot be read, a fault of the engine) is said on standard error and logged, and the stop is **allowed**
with exit status 0: a broken hook must never keep a user's agent from stopping. The harness reads a block
from standard output (``{"decision": "block", "reason": …}``, exit 0); exit status 2 (which Claude Code
reads as a block) is never used.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import orjson

from grounding.errors import GroundingError
from grounding.hooks.payload import PayloadError, StopEvent, parse
from grounding.hooks.session_file import SessionUnreadable, ended_turn
from grounding.hooks.stop import RAILS_CAP, Outcome, decide


@dataclass(frozen=True, slots=True)
class HookResult:
    """What the hook process writes and how it exits."""

    exit_code: int
    stdout: str  # the harness's JSON, or "" to allow
    stderr: str  # what a user sees in the harness's verbose output; "" when there is nothing to say


def run_hook(harness: str, raw: bytes, *, posture: str = "guard", log: str | None = None, cap: int = RAILS_CAP,
             config: Path | None = None) -> HookResult:
    """The hook's answer to the stop event raw (its standard input)."""
    event: StopEvent | None = None
    try:
        event = parse(raw, harness)
        outcome = _outcome(event, posture, cap, config)
    except (PayloadError, SessionUnreadable, GroundingError) as error:
        outcome = Outcome(False, f"not judged, allowed: {error}")
    except Exception as error:  # noqa: BLE001 - a hook fault must allow the stop, never trap the agent
        outcome = Outcome(False, f"not judged, allowed: the hook failed ({type(error).__name__}: {error})")
    quiet = outcome.verdict is not None and not outcome.verdict.unsupported  # judged, nothing to say
    said = [] if quiet else [f"ground hook {harness}: {outcome.note}"]
    if log is not None:
        try:
            with open(log, "ab") as stream:
                stream.write(orjson.dumps(_log_entry(harness, posture, event, outcome)) + b"\n")
        except OSError as error:
            said.append(f"ground hook {harness}: cannot write the log {log}: {error.strerror or error}")
    stdout = orjson.dumps({"decision": "block", "reason": outcome.reason}).decode() if outcome.block else ""
    return HookResult(0, stdout, "\n".join(said))


def _outcome(event: StopEvent, posture: str, cap: int, config: Path | None) -> Outcome:
    from grounding.library import Options
    from grounding.options.config import resolve

    resolved = resolve({}, config, start=Path(event.cwd) if event.cwd else None)
    options = Options.of(resolved.values)
    turn = ended_turn(event, options.max_record_bytes)
    if turn is None:
        return Outcome(False, "no final answer in the session file: nothing to judge")
    return decide(event, turn, options, posture, cap)


def _log_entry(harness: str, posture: str, event: StopEvent | None, outcome: Outcome) -> dict:
    verdict = outcome.verdict
    return {
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "harness": harness,
        "event": event.event if event else None,
        "session": event.session_id if event else None,
        "transcript": event.judged_file if event else None,
        "posture": posture,
        "action": "block" if outcome.block else "allow",
        "status": verdict.status.value if verdict else None,
        "candidates": verdict.candidates if verdict else None,
        "unsupported": [finding.text for finding in verdict.unsupported] if verdict else [],
        "note": outcome.note,
    }
