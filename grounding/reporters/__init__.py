"""One reporter per output format, all alike: each streams answers as they are judged."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from importlib import import_module
from typing import Protocol, TextIO

from grounding.engine import JudgedAnswer
from grounding.inputs import Problem
from grounding.report import Summary
from grounding.verdict import Verdict


class OutputFormat(str, Enum):
    FULL = "full"
    CONCISE = "concise"
    JSON = "json"
    JSON_LINES = "json-lines"
    SARIF = "sarif"
    JUNIT = "junit"
    GITHUB = "github"
    GITLAB = "gitlab"


class Reporter(Protocol):
    def answer(self, judged: JudgedAnswer) -> None: ...
    def problem(self, problem: Problem) -> None: ...
    def finish(self, summary: Summary) -> None: ...


# Why an answer fails the run, or None (grounding.exit_codes.failing_reason with the run's settings).
Failing = Callable[[Verdict], "str | None"]


def _full(out: TextIO, err: TextIO, verbose: bool, quiet: bool = False, failing: Failing | None = None) -> Reporter:
    from grounding.reporters.full import FullReporter

    return FullReporter(out, err, verbose=verbose, quiet=quiet, failing=failing)


def _simple(module: str, name: str) -> Callable[[TextIO, TextIO, bool], Reporter]:
    """Import a reporter only when it is used: start-up stays light."""

    def make(out: TextIO, err: TextIO, verbose: bool) -> Reporter:
        return getattr(import_module(f"grounding.reporters.{module}"), name)(out, err)

    return make


REPORTERS: dict[OutputFormat, Callable[[TextIO, TextIO, bool], Reporter]] = {
    OutputFormat.FULL: _full,
    OutputFormat.CONCISE: _simple("concise", "ConciseReporter"),
    OutputFormat.JSON: _simple("json_report", "JsonReporter"),
    OutputFormat.JSON_LINES: _simple("json_lines", "JsonLinesReporter"),
    OutputFormat.SARIF: _simple("sarif", "SarifReporter"),
    OutputFormat.JUNIT: _simple("junit", "JunitReporter"),
    OutputFormat.GITHUB: _simple("github", "GithubReporter"),
    OutputFormat.GITLAB: _simple("gitlab", "GitlabReporter"),
}


def make_reporter(
    output_format: OutputFormat, out: TextIO, err: TextIO, *, verbose: bool = False, quiet: bool = False,
    failing: Failing | None = None,
) -> Reporter:
    if output_format is OutputFormat.FULL:
        return _full(out, err, verbose, quiet, failing)
    return REPORTERS[output_format](out, err, verbose)
