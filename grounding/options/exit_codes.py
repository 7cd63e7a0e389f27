"""The one place that decides what CI sees (SPEC-READINGS §7.5)."""

from __future__ import annotations

from enum import IntEnum

from grounding.core.settings import Settings
from grounding.model import Status, Summary, Verdict
from grounding.reporters.summary import counted


class ExitCode(IntEnum):
    OK = 0
    FINDINGS = 1
    ERROR = 2  # a usage error, or input given of which not one record could be read
    INTERRUPTED = 130
    TERMINATED = 143  # SIGTERM, what a CI system sends a job it cancels: 128 + 15, as a shell reports it


def exit_code(summary: Summary, settings: Settings, *, strict: bool = False, stale_fails: bool = False) -> ExitCode:
    """The exit status of a judged run: 2 when nothing could be read, nothing was judged, or (strict) any
    record could not be read; else 0 under --exit-zero; else 1 when something fails the run (failures) or a
    stale baseline entry does under --stale-baseline-fails; else 0."""
    if summary.errors and summary.conversations == 0 and summary.records == summary.errors + summary.skipped:
        return ExitCode.ERROR
    if vacuous(summary, settings) or (strict and summary.errors):
        return ExitCode.ERROR
    if settings.exit_zero:
        return ExitCode.OK
    return ExitCode.FINDINGS if failures(summary, settings) or stale_fails else ExitCode.OK


def vacuous(summary: Summary, settings: Settings) -> bool:
    """A run that judged no answer: a misconfigured gate (wrong format, wrong folder) must not stay green."""
    return summary.answers == 0 and not settings.allow_empty


def failures(summary: Summary, settings: Settings) -> list[str]:
    """What fails the run, each with the option that makes it fail: the summary says it, the exit code obeys it."""
    reasons = []
    if summary.flagged:
        reasons.append(counted(summary.flagged, "answer") + " flagged")
    if summary.contract_unmet and not settings.contract_warn_only and "GR002" in settings.rules:
        reasons.append(counted(summary.contract_unmet, "answer") + " contract-unmet")
    if settings.fail_on_unjudgeable and summary.unjudgeable and "GR003" in settings.rules:
        reasons.append(counted(summary.unjudgeable, "answer") + " unjudgeable (--fail-on-unjudgeable)")
    if settings.fail_on_derived and summary.derived and "GR006" in settings.rules:
        reasons.append(counted(summary.derived, "answer") + " derived (--fail-on-derived)")
    if settings.fail_on_example and summary.examples:
        reasons.append(counted(summary.examples, "example") + " (--fail-on-example)")
    if settings.fail_on_unchecked and summary.unchecked:
        reasons.append(counted(summary.unchecked, "answer") + " unchecked (--fail-on-unchecked)")
    return reasons



def failing_reason(verdict: Verdict, settings: Settings) -> str | None:
    """Why this answer fails the run (None when it does not): the option that makes it fail, if any."""
    if settings.exit_zero:
        return None
    status = verdict.status
    if status is Status.FLAGGED:
        return "flagged"
    if status is Status.CONTRACT_UNMET and not settings.contract_warn_only and "GR002" in settings.rules:
        return "contract unmet"
    if status is Status.UNJUDGEABLE and settings.fail_on_unjudgeable and "GR003" in settings.rules:
        return "--fail-on-unjudgeable"
    if status is Status.DERIVED and settings.fail_on_derived and "GR006" in settings.rules:
        return "--fail-on-derived"
    if verdict.examples and settings.fail_on_example:
        return "--fail-on-example"
    if status is Status.UNCHECKED and settings.fail_on_unchecked:
        return "--fail-on-unchecked"
    return None
