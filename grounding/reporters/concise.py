"""``--output-format concise``: one line per finding, ``path:line: CODE conversation turn value (shape)``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from grounding.model import ALL_CODES, JudgedAnswer, Problem, Summary, Verdict, shown_shape
from grounding.reporters.escape import one_line
from grounding.reporters.findings import findings_of
from grounding.reporters.streams import is_regular_file
from grounding.reporters.summary import summary_line


class ConciseReporter:
    def __init__(self, out: TextIO, err: TextIO, *, codes: frozenset[str] = ALL_CODES, quiet: bool = False,
                 failing: Callable[[Verdict], str | None] | None = None) -> None:
        self.out, self.err = out, err
        self.failing = failing
        self.codes = codes
        self.quiet = quiet
        self.live = not is_regular_file(out)  # a pipe or a terminal is read as the run goes

    def answer(self, judged: JudgedAnswer) -> None:
        derived = self.failing is not None and self.failing(judged.verdict) == "--fail-on-derived"
        for finding in findings_of(judged, derived=derived, codes=self.codes):
            label = finding.text or finding.message
            shape = f" ({shown_shape(finding.value, finding.shape)})" if finding.shape else ""
            tag = "" if finding.rule == "unsupported-value" else f" [{finding.rule}]"
            self.out.write(one_line(f"{finding.source}:{finding.line}: {finding.code} {finding.where} {label}{shape}{tag}")
                           + "\n")
            if self.live:
                self.out.flush()

    def problem(self, problem: Problem) -> None:
        where = problem.source if problem.line is None else f"{problem.source}:{problem.line}"
        self.err.write(one_line(f"{where}: error: {problem.message}") + "\n")

    def finish(self, summary: Summary) -> None:
        if not self.quiet:
            self.out.write(summary_line(summary) + "\n")
