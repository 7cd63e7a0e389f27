"""What the judge says of one answer (SPEC §7)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from grounding.pickling import by_position


class Status(Enum):
    GROUNDED = "grounded"
    DERIVED = "derived"
    FLAGGED = "flagged"
    UNJUDGEABLE = "unjudgeable"  # the evidence is not in the record: never reported as grounded
    CONTRACT_UNMET = "contract-unmet"  # the answer failed its output schema: not judged for evidence
    TRUNCATED = "truncated"  # the model stopped at a limit: a stop is not an answer
    REFUSED = "refused"  # the model declined (refusal, content filter)


# The statuses every answer may get, as plain names (see grounding.model: a member's look-up is slow in 3.11).
GROUNDED, DERIVED, FLAGGED = Status.GROUNDED, Status.DERIVED, Status.FLAGGED


COMPUTED_VIA = frozenset({"derived", "stated", "listed-total", "date-offset"})


@dataclass(frozen=True, slots=True)
class Finding:
    """One value of the answer and, when a §9 rule grounded it, how."""

    value: str
    shape: str
    text: str
    via: str | None = None
    formula: str | None = None  # derived, stated, listed-total, date-offset
    matched: str | None = None  # masked, composite, prose-date
    at: int = -1  # where text starts in the answer, for showing it in context (-1: not known, a JSON answer)
    note: str | None = None  # of an unsupported value: a search that stopped at its bound (derive.SEARCH_LIMIT)

    __reduce__ = by_position


@dataclass(slots=True)  # not frozen: one per answer, and a frozen __init__ costs ~6x (a setattr per field)
class Verdict:
    status: Status
    candidates: int
    unsupported: tuple[Finding, ...] = ()
    grounded_via: tuple[Finding, ...] = ()
    examples: tuple[Finding, ...] = ()
    reason: str | None = None  # why an answer is unjudgeable, truncated or refused
    contract: object = None  # grounding.core.contract.ContractResult when the answer was judged under a schema
    revision: dict | None = None  # after an "[evidence check" re-ask: the values named back, and whether fixed

    __reduce__ = by_position

    @property
    def derived_values(self) -> int:
        return sum(1 for finding in self.grounded_via if finding.via in COMPUTED_VIA)


def with_findings(verdict: Verdict, unsupported: tuple[Finding, ...], examples: tuple[Finding, ...]) -> Verdict:
    """The verdict with fewer unsupported values or examples (a baseline's, an ignored rule's): an answer left
    with no unsupported value is grounded, or derived when a value was computed, and loses a flagged
    answer's reason."""
    status, reason = verdict.status, verdict.reason
    if status is Status.FLAGGED and not unsupported:
        status = DERIVED if any(finding.via in COMPUTED_VIA for finding in verdict.grounded_via) else GROUNDED
        reason = None
    return replace(verdict, status=status, unsupported=unsupported, examples=examples, reason=reason)
