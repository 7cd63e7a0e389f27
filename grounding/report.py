"""The run's tally: every record read is counted as judged, failed or skipped."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from grounding.engine import JudgedAnswer
from grounding.verdict import Status


@dataclass(slots=True)
class Summary:
    files: int = 0
    records: int = 0
    conversations: int = 0
    answers: int = 0
    grounded: int = 0
    derived: int = 0
    flagged: int = 0
    unjudgeable: int = 0
    candidates: int = 0
    unsupported: int = 0
    derived_values: int = 0
    examples: int = 0
    errors: int = 0
    skipped: int = 0  # records read that hold no conversation of their own (Claude Code snapshots, …)
    skipped_reasons: Counter = field(default_factory=Counter)
    via: Counter = field(default_factory=Counter)

    def count(self, answer: JudgedAnswer) -> None:
        verdict = answer.verdict
        self.answers += 1
        if verdict.status is Status.UNJUDGEABLE:
            self.unjudgeable += 1
        elif verdict.status is Status.FLAGGED:
            self.flagged += 1
        elif verdict.status is Status.DERIVED:
            self.derived += 1
        else:
            self.grounded += 1
        self.candidates += verdict.candidates
        self.unsupported += len(verdict.unsupported)
        self.derived_values += verdict.derived_values
        self.examples += len(verdict.examples)
        self.via.update(finding.via for finding in verdict.grounded_via)

    def as_json(self) -> dict:
        return {
            "files": self.files,
            "records": self.records,
            "conversations": self.conversations,
            "answers": self.answers,
            "grounded": self.grounded,
            "derived": self.derived,
            "flagged": self.flagged,
            "unjudgeable": self.unjudgeable,
            "candidates": self.candidates,
            "unsupported": self.unsupported,
            "derived_values": self.derived_values,
            "via": dict(sorted(self.via.items())),
            "examples": self.examples,
            "errors": self.errors,
            "skipped": self.skipped,
            "skipped_reasons": dict(sorted(self.skipped_reasons.items())),
        }
