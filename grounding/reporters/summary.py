"""The run's tally in words: the summary line every human-facing output ends with, the --statistics lines,
and why an empty run fails."""

from __future__ import annotations

from grounding.model import NOT_A_TRANSCRIPT, Summary


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
    if summary.unchecked:  # judged, but nothing held against a tool result: never counted as a pass
        parts.append(counted(summary.unchecked, "answer") + " unchecked")
    if summary.examples:
        parts.append(counted(summary.examples, "example"))
    if summary.errors:
        parts.append(counted(summary.errors, "record") + " with errors")
    not_transcripts = summary.skipped_reasons.get(NOT_A_TRANSCRIPT, 0)
    if summary.skipped > not_transcripts:
        parts.append(counted(summary.skipped - not_transcripts, "record") + " skipped (no conversation of their own)")
    if not_transcripts:
        parts.append(counted(not_transcripts, "file") + " skipped (in no transcript format)")
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
    lines += [f"  {count:>6}  {summary.written.get(value, value)}"
              for value, count in summary.unsupported_values.most_common(top)] or ["  (none)"]
    if summary.via:
        lines.append("values grounded by a reading other than as written (via):")
        lines += [f"  {count:>6}  {via}" for via, count in summary.via.most_common()]
    return lines
