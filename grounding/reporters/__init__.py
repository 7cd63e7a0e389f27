"""One reporter per output format, all alike: each streams answers as they are judged."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from importlib import import_module
from typing import Protocol, TextIO

from grounding.model import ALL_CODES, JudgedAnswer, Problem, Summary, Verdict


class OutputFormat(str, Enum):
    FULL = "full"
    CONCISE = "concise"
    JSON = "json"
    JSON_LINES = "json-lines"
    SARIF = "sarif"
    JUNIT = "junit"
    GITHUB = "github"
    GITLAB = "gitlab"
    HTML = "html"
    OTLP = "otlp"


class Reporter(Protocol):
    def answer(self, judged: JudgedAnswer) -> None: ...
    def problem(self, problem: Problem) -> None: ...
    def finish(self, summary: Summary) -> None: ...


# Why an answer fails the run, or None (grounding.options.exit_codes.failing_reason with the run's settings).
Failing = Callable[[Verdict], "str | None"]


@dataclass(frozen=True, slots=True)
class ReportOptions:
    """What every reporter may be told: the full report reads them all, the others the rules selected."""

    verbose: bool = False
    quiet: bool = False
    failing: Failing | None = None
    codes: frozenset[str] = ALL_CODES  # the rules --select / --ignore leave: only their findings are shown
    terminal_forced: bool = False  # the environment may make rich take a stream that is no tty for a terminal
    step_summary: str | None = None  # GitHub's step-summary file (GITHUB_STEP_SUMMARY)
    project_dir: str = ""  # GitLab's project folder (CI_PROJECT_DIR): finding paths are relative to it


def _full(out: TextIO, err: TextIO, options: ReportOptions) -> Reporter:
    from grounding.reporters.full import FullReporter

    return FullReporter(out, err, verbose=options.verbose, quiet=options.quiet, failing=options.failing,
                        codes=options.codes, terminal_forced=options.terminal_forced)


def _simple(module: str, name: str, *told: str) -> Callable[[TextIO, TextIO, ReportOptions], Reporter]:
    """Import a reporter only when it is used: start-up stays light. It is told the options it names: codes
    by a reporter that lists findings (the JSON reports hold every answer whole), quiet by one that ends
    with a summary line, failing by one that lists the derived values of an answer --fail-on-derived fails."""

    def make(out: TextIO, err: TextIO, options: ReportOptions) -> Reporter:
        reporter = getattr(import_module(f"grounding.reporters.{module}"), name)
        return reporter(out, err, **{option: getattr(options, option) for option in told})

    return make


REPORTERS: dict[OutputFormat, Callable[[TextIO, TextIO, ReportOptions], Reporter]] = {
    OutputFormat.FULL: _full,
    OutputFormat.CONCISE: _simple("concise", "ConciseReporter", "codes", "quiet", "failing"),
    OutputFormat.JSON: _simple("json_report", "JsonReporter"),
    OutputFormat.JSON_LINES: _simple("json_lines", "JsonLinesReporter"),
    OutputFormat.SARIF: _simple("sarif", "SarifReporter", "codes"),
    OutputFormat.JUNIT: _simple("junit", "JunitReporter"),
    OutputFormat.GITHUB: _simple("github", "GithubReporter", "codes", "quiet", "failing", "step_summary"),
    OutputFormat.GITLAB: _simple("gitlab", "GitlabReporter", "codes", "project_dir"),
    OutputFormat.HTML: _simple("html", "HtmlReporter"),
    OutputFormat.OTLP: _simple("otlp", "OtlpReporter"),
}


def make_reporter(output_format: OutputFormat, out: TextIO, err: TextIO,
                  options: ReportOptions = ReportOptions()) -> Reporter:
    return REPORTERS[output_format](out, err, options)
