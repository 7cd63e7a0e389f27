"""The one place that decides what CI sees (SPEC-READINGS §7.5)."""

from __future__ import annotations

from enum import IntEnum

from grounding.report import Summary
from grounding.settings import Settings


class ExitCode(IntEnum):
    OK = 0
    FINDINGS = 1
    ERROR = 2  # a usage error, or input given of which not one record could be read
    INTERRUPTED = 130


def exit_code(summary: Summary, settings: Settings) -> ExitCode:
    if summary.errors and summary.conversations == 0 and summary.records == summary.errors + summary.skipped:
        return ExitCode.ERROR
    if settings.exit_zero:
        return ExitCode.OK
    failing = (
        summary.flagged
        or (summary.contract_unmet and not settings.contract_warn_only)
        or (settings.fail_on_unjudgeable and summary.unjudgeable)
        or (settings.fail_on_derived and summary.derived)
        or (settings.fail_on_example and summary.examples)
    )
    return ExitCode.FINDINGS if failing else ExitCode.OK
