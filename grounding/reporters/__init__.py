"""One reporter per output format, all alike: each streams answers as they are judged."""

from __future__ import annotations

from enum import Enum
from typing import Protocol, TextIO

from grounding.engine import JudgedAnswer
from grounding.inputs import Problem
from grounding.report import Summary


class OutputFormat(str, Enum):
    FULL = "full"
    JSON = "json"


class Reporter(Protocol):
    def answer(self, judged: JudgedAnswer) -> None: ...
    def problem(self, problem: Problem) -> None: ...
    def finish(self, summary: Summary) -> None: ...


def make_reporter(output_format: OutputFormat, out: TextIO, err: TextIO, *, verbose: bool = False) -> Reporter:
    if output_format is OutputFormat.JSON:
        from grounding.reporters.json_report import JsonReporter

        return JsonReporter(out, err)
    from grounding.reporters.full import FullReporter

    return FullReporter(out, err, verbose=verbose)
