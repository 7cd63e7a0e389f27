"""What the gate decides about one judged answer, and how a decision is observed: the Decision, the
posture's rule (one revision per turn, latched), the correction frame sent back to the model, and the
decision logged, put on the current OpenTelemetry span and handed to ``on_verdict``. The Gate (gate.py)
and the streamed answer (streaming.py) both decide through it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Literal

from grounding.errors import UnsupportedValuesError
from grounding.fixing import MASK, fix
from grounding.frames import EVIDENCE_CHECK_FRAME_PREFIX
from grounding.model import Finding, Status, Verdict

Action = Literal["grounded", "unchecked", "revision-asked", "flagged", "refused", "unjudgeable"]

# The correction's authored sentence; the quoted values follow it, and nothing authored comes after them.
CORRECTION = (f"{EVIDENCE_CHECK_FRAME_PREFIX} Your answer states values that appear in no tool result read in "
              "this conversation. Look each one up with a tool and answer with what it returns, or leave it out. "
              "The values:")
log = logging.getLogger("grounding.gate")
# a library says nothing until its app configures logging
logging.getLogger("grounding").addHandler(logging.NullHandler())


@dataclass(frozen=True, slots=True)
class Decision:
    """What the gate decided about one candidate answer.

    action: ``grounded`` (ship it), ``unchecked`` (ship it: it states no value to look up, so nothing was
    checked), ``revision-asked`` (send message to the model as one more turn),
    ``flagged`` (ship it, flagged), ``refused`` (do not ship it), ``unjudgeable`` (the evidence could not be
    read: a tool result over ``max_record_bytes``, turns held by the API; it ships, never as grounded, and
    the verdict's reason says why). revised: a revision was already spent in
    this turn when the answer was judged.
    """

    action: Action
    verdict: Verdict
    message: str | None = None
    revised: bool = False
    answer: str = ""  # the candidate's text, as judged

    def fixed(self, replacement: str = MASK) -> str:
        """The answer with its unsupported values masked (replacement "" removes them): what a loop that must
        ship something can ship in place of a flagged or refused answer (grounding.fixing.fix)."""
        return fix(self.answer, self.verdict, replacement=replacement)

    @property
    def unsupported(self) -> tuple[Finding, ...]:
        return self.verdict.unsupported

    def to_dict(self) -> dict:
        """The decision as JSON-ready values: its action, whether a revision was spent, the correction sent (or
        None) and the verdict as the JSON report writes it."""
        return {"action": self.action, "revised": self.revised, "message": self.message, "answer": self.answer,
                "verdict": self.verdict.to_dict()}

    def raise_if_refused(self) -> None:
        """Raise UnsupportedValuesError when the answer is refused; do nothing otherwise."""
        if self.action == "refused":
            raise UnsupportedValuesError(self.verdict.unsupported, self.verdict.candidates, self.revised)


def observed(posture: str, verdict: Verdict, answer: str, revisions: int, can_revise: bool,
             on_verdict: Callable[[Decision], None] | None) -> Decision:
    """The decision on a verdict under posture, observed: logged, on the current span, handed to on_verdict
    (an exception it raises is logged, and the decision still returned)."""
    decision = decision_on(posture, verdict, answer, revisions, can_revise)
    _observe(decision)
    if on_verdict is not None:
        try:
            on_verdict(decision)
        except Exception:  # noqa: BLE001 - a metrics sink that fails must not lose the decision
            log.exception("on_verdict %r failed; the decision (%s) is returned all the same", on_verdict,
                          decision.action)
    return decision


def decision_on(posture: str, verdict: Verdict, answer: str, revisions: int, can_revise: bool = True) -> Decision:
    revised = revisions > 0
    if verdict.status is Status.UNJUDGEABLE:
        return Decision("unjudgeable", verdict, revised=revised, answer=answer)
    if verdict.status is Status.UNCHECKED:  # it ships, as a grounded one would, but is never called grounded
        return Decision("unchecked", verdict, revised=revised, answer=answer)
    if verdict.status is not Status.FLAGGED:
        return Decision("grounded", verdict, revised=revised, answer=answer)
    if posture == "assist":
        return Decision("flagged", verdict, revised=revised, answer=answer)
    if not revised and can_revise:
        return Decision("revision-asked", verdict, correction(verdict.unsupported), False, answer)
    return Decision("flagged" if posture == "guard" else "refused", verdict, revised=revised, answer=answer)


def correction(unsupported: tuple[Finding, ...]) -> str:
    """The frame sent back to the model: the authored sentence, then each value as the answer wrote it,
    quoted, one per line."""
    quoted = dict.fromkeys('"' + finding.text.replace('"', "'") + '"' for finding in unsupported)
    return "\n".join((CORRECTION, *quoted))


def _observe(decision: Decision) -> None:
    values = [finding.text for finding in decision.verdict.unsupported]
    level = logging.INFO if decision.action in ("grounded", "unchecked") else logging.WARNING
    if log.isEnabledFor(level):
        log.log(level, "evidence check: %s (%d values examined%s)", decision.action, decision.verdict.candidates,
                f"; unsupported: {', '.join(values)}" if values else "",
                extra={"grounding_action": decision.action, "grounding_unsupported": values})
    _otel_event(decision, values)


@cache
def _opentelemetry_trace() -> object | None:
    """OpenTelemetry's trace API, or None when it is not installed (asked once: a failed import is not kept)."""
    try:
        from opentelemetry import trace
    except ImportError:
        return None
    return trace


def _otel_event(decision: Decision, values: list[str]) -> None:
    """A gen_ai.evaluation.result event on the current span, when OpenTelemetry is installed and recording."""
    trace = _opentelemetry_trace()
    if trace is None:
        return
    span = trace.get_current_span()
    if not span.is_recording():
        return
    attributes = {"gen_ai.evaluation.name": "ground.evidence", "gen_ai.evaluation.score.label": decision.action}
    if values:
        attributes["gen_ai.evaluation.explanation"] = "unsupported: " + ", ".join(values)
    span.add_event("gen_ai.evaluation.result", attributes=attributes)
