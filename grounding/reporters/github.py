"""``--output-format github``: workflow commands that annotate the transcript in a GitHub run.

GitHub shows at most 10 error annotations per step and drops the rest
silently: ground writes 10, then a notice saying how many more there are, and
the full list to ``$GITHUB_STEP_SUMMARY`` when it is set.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TextIO

from grounding.model import ALL_CODES, JudgedAnswer, Problem, Summary, Verdict
from grounding.reporters.escape import one_line, visible
from grounding.reporters.findings import Finding, findings_of
from grounding.reporters.summary import summary_line

ANNOTATION_CAP = 10
_LEVELS = {"error": "error", "warning": "warning", "note": "notice"}


class GithubReporter:
    def __init__(self, out: TextIO, err: TextIO, *, step_summary: str | None = None,
                 codes: frozenset[str] = ALL_CODES, quiet: bool = False,
                 failing: Callable[[Verdict], str | None] | None = None) -> None:
        self.out, self.err = out, err
        self.failing = failing
        self.codes = codes
        self.quiet = quiet
        self.step_summary = step_summary
        self.findings: list[Finding] = []
        self.errors_written = 0  # error annotations written, input errors included: GitHub caps them together
        self.input_errors = 0

    def answer(self, judged: JudgedAnswer) -> None:
        derived = self.failing is not None and self.failing(judged.verdict) == "--fail-on-derived"
        for finding in findings_of(judged, derived=derived, codes=self.codes):
            self.findings.append(finding)
            level = _LEVELS[finding.level]
            if level == "error":
                if self.errors_written >= ANNOTATION_CAP:
                    continue
                self.errors_written += 1
            self.out.write(
                f"::{level} file={_property(finding.source)},line={finding.line},title=ground {finding.code} ({finding.rule})"
                f"::{_data(finding.message + ' (' + finding.where + ')')}\n"
            )

    def problem(self, problem: Problem) -> None:
        self.input_errors += 1
        if self.errors_written >= ANNOTATION_CAP:
            return
        self.errors_written += 1
        self.out.write(f"::error file={_property(problem.source)},line={problem.line or 1},title=ground (input)"
                       f"::{_data(problem.message)}\n")

    def finish(self, summary: Summary) -> None:
        errors = sum(1 for f in self.findings if f.level == "error") + self.input_errors
        hidden = errors - self.errors_written
        if hidden > 0:
            where = "the step summary" if self.step_summary else "the full report (--output-format full)"
            self.out.write(f"::notice title=ground::{hidden} more errors were not annotated "
                           f"(GitHub shows {ANNOTATION_CAP} per step); see {where}\n")
        if not self.quiet:
            self.out.write(summary_line(summary) + "\n")
        if self.step_summary:
            with open(self.step_summary, "a", encoding="utf-8") as summary_file:
                summary_file.write(_markdown(self.findings, summary))


def _markdown(findings: list[Finding], summary: Summary) -> str:
    lines = ["## ground", "", summary_line(summary), ""]
    if findings:
        lines += ["| file | line | conversation | turn | value | finding |", "|---|---|---|---|---|---|"]
        for f in findings:
            cells = [f.source, str(f.line), str(f.conversation), str(f.turn), f.text or "—", f"{f.code} {f.rule}"]
            lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n\n"


def _cell(text: str) -> str:
    """A Markdown table cell of the step summary: one line, no HTML, no column break."""
    return html.escape(one_line(text), quote=False).replace("|", "\\|")


def _data(text: str) -> str:
    return visible(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")
