"""What the hook answers a stop: allow it, or block it with the evidence check's correction.

Postures as in the library's gate (grounding.gate), counted per turn from the session file itself:

- ``assist`` never blocks: the verdict goes to the log;
- ``guard`` (the default) blocks once per turn: the correction already in the file since the user's last
  message, or the harness's ``stop_hook_active``, is the latch, and the next stop ships flagged;
- ``rails`` blocks again while the turn holds fewer than ``cap`` of its corrections (Claude Code ends a turn
  itself after repeated blocks).

Only a flagged answer is ever blocked: an answer that examined no value (unchecked), one whose evidence is
not in the file (unjudgeable), a cut-off or refused one, all stop as they would without the hook.
"""

from __future__ import annotations

from dataclasses import dataclass

from grounding.gate import correction
from grounding.hooks import POSTURES, RAILS_CAP
from grounding.hooks.payload import StopEvent
from grounding.hooks.session_file import Turn
from grounding.library import Options, settings_of, verdict_on
from grounding.model import Status, Verdict
from grounding.session import revisions_in

__all__ = ["POSTURES", "RAILS_CAP", "Outcome", "decide"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The hook's answer to one stop, and why."""

    block: bool
    note: str  # what was decided, in words, for the log and standard error
    reason: str | None = None  # the correction the agent gets (a block only)
    verdict: Verdict | None = None


def decide(event: StopEvent, turn: Turn, options: Options, posture: str = "guard", cap: int = RAILS_CAP) -> Outcome:
    """The outcome of the stop that ends turn, under posture."""
    settings, given = settings_of(options)
    verdict = verdict_on(turn.history, turn.answer, settings, given)
    if verdict.status is not Status.FLAGGED:
        return Outcome(False, _not_flagged(verdict), verdict=verdict)
    values = ", ".join(dict.fromkeys(finding.text for finding in verdict.unsupported))
    asked = revisions_in(turn.history.items)
    if posture == "assist":
        return Outcome(False, f"flagged, allowed (assist): {values}", verdict=verdict)
    if posture == "guard" and (asked or event.stop_hook_active):
        latch = "a stop hook already blocked this turn" if event.stop_hook_active and not asked else \
            "the correction was already sent in this turn"
        return Outcome(False, f"flagged, allowed ({latch}): {values}", verdict=verdict)
    if posture == "rails" and asked >= cap:
        return Outcome(False, f"flagged, allowed (rails: {asked} of {cap} corrections sent in this turn): {values}",
                       verdict=verdict)
    return Outcome(True, f"flagged, blocked ({posture}): {values}", correction(verdict.unsupported), verdict)


def _not_flagged(verdict: Verdict) -> str:
    if verdict.reason:
        return f"{verdict.status.value}: {verdict.reason}"
    return f"{verdict.status.value} ({verdict.candidates} values examined)"
