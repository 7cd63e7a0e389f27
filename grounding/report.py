"""The run's tally: every record read is counted as judged, failed or skipped."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from grounding.core.engine import JudgedAnswer
from grounding.verdict import Status

# Which field of the summary counts the answers of each status.
_STATUS_COUNTERS = {
    Status.GROUNDED: "grounded",
    Status.DERIVED: "derived",
    Status.FLAGGED: "flagged",
    Status.UNJUDGEABLE: "unjudgeable",
    Status.CONTRACT_UNMET: "contract_unmet",
    Status.TRUNCATED: "truncated",
    Status.REFUSED: "refused",
}


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
    contract_unmet: int = 0
    truncated: int = 0
    refused: int = 0
    candidates: int = 0
    unsupported: int = 0
    derived_values: int = 0
    examples: int = 0
    errors: int = 0
    skipped: int = 0  # records read that hold no conversation of their own (Claude Code snapshots, …)
    skipped_reasons: Counter = field(default_factory=Counter)
    unfinished: int = 0  # traces read but not complete when an interrupted run stopped (not in the JSON)
    via: Counter = field(default_factory=Counter)
    unsupported_by_shape: Counter = field(default_factory=Counter)
    unsupported_values: Counter = field(default_factory=Counter)

    def count(self, answer: JudgedAnswer) -> None:
        verdict = answer.verdict
        self.answers += 1
        counter = _STATUS_COUNTERS[verdict.status]
        setattr(self, counter, getattr(self, counter) + 1)
        self.candidates += verdict.candidates
        self.unsupported += len(verdict.unsupported)
        self.examples += len(verdict.examples)
        if verdict.grounded_via:  # most answers have none, and Counter.update costs a call chain even then
            self.derived_values += verdict.derived_values
            self.via.update(finding.via for finding in verdict.grounded_via)
        for finding in verdict.unsupported:
            self.unsupported_by_shape[finding.shape] += 1
            self.unsupported_values[finding.value] += 1

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
            "contract_unmet": self.contract_unmet,
            "truncated": self.truncated,
            "refused": self.refused,
            "candidates": self.candidates,
            "unsupported": self.unsupported,
            "derived_values": self.derived_values,
            "via": dict(sorted(self.via.items())),
            "examples": self.examples,
            "errors": self.errors,
            "skipped": self.skipped,
            "skipped_reasons": dict(sorted(self.skipped_reasons.items())),
        }


def summary_line(summary: Summary) -> str:
    """The one-line account of a run every human-facing output ends with."""
    parts = [
        counted(summary.conversations, "conversation"),
        counted(summary.answers, "answer") + " judged",
        counted(summary.candidates, "value") + " examined",
        counted(summary.flagged, "answer") + f" flagged ({counted(summary.unsupported, 'unsupported value')})",
    ]
    if summary.unjudgeable:
        parts.append(counted(summary.unjudgeable, "answer") + " unjudgeable")
    if summary.contract_unmet:
        parts.append(counted(summary.contract_unmet, "answer") + " contract-unmet")
    if summary.truncated or summary.refused:
        parts.append(f"{summary.truncated} truncated, {summary.refused} refused")
    if summary.derived:
        parts.append(counted(summary.derived, "answer") + " derived")
    if summary.examples:
        parts.append(counted(summary.examples, "example"))
    if summary.errors:
        parts.append(counted(summary.errors, "record") + " with errors")
    if summary.skipped:
        parts.append(counted(summary.skipped, "record") + " skipped (no conversation of their own)")
    return ", ".join(parts)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """n and its noun, plural unless n is 1: "1 file", "2 files", "2 entries"."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def empty_run_message(summary: Summary) -> str:
    """Why a run that judged no answer fails (exit 2): what was read, what was skipped, what to try."""
    read = f"{counted(summary.files, 'file')} and {counted(summary.records, 'record')} read"
    if summary.errors:
        read += f", {counted(summary.errors, 'record')} with errors"
    if summary.skipped:
        reasons = "; ".join(f"{count} {reason}" for reason, count in sorted(summary.skipped_reasons.items()))
        read += f", {counted(summary.skipped, 'record')} skipped ({reasons})"
    if summary.conversations:
        read += f", {counted(summary.conversations, 'conversation')} with no final answer"
    return (f"no answer judged ({read}): a gate that checks nothing passes nothing. Check the paths and the "
            "format (`ground formats` lists what is read; --input-format forces one), or pass --allow-empty "
            "(allow-empty = true in the configuration) where an empty run is expected")


def statistics_lines(summary: Summary, top: int = 10) -> list[str]:
    """``--statistics``: unsupported values per shape and the most frequent ones across the run."""
    lines = ["unsupported values by shape:"]
    lines += [f"  {count:>6}  {shape}" for shape, count in summary.unsupported_by_shape.most_common()] or ["  (none)"]
    lines.append(f"most frequent unsupported values (top {top}):")
    lines += [f"  {count:>6}  {value}" for value, count in summary.unsupported_values.most_common(top)] or ["  (none)"]
    if summary.via:
        lines.append("values grounded by a §9 reading:")
        lines += [f"  {count:>6}  {via}" for via, count in summary.via.most_common()]
    return lines
