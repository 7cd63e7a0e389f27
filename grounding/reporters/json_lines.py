"""``--output-format json-lines``: one JSON answer object per line, for piping on; problems go to stderr."""

from __future__ import annotations

from typing import TextIO

import orjson

from grounding.model import JudgedAnswer, Problem, Summary
from grounding.reporters.json_report import problem_json
from grounding.reporters.streams import is_regular_file


class JsonLinesReporter:
    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out, self.err = out, err
        self.live = not is_regular_file(out)  # a filter in a pipeline passes each answer on as it is judged

    def answer(self, judged: JudgedAnswer) -> None:
        self.out.write(orjson.dumps(judged.to_dict()).decode() + "\n")
        if self.live:
            self.out.flush()

    def problem(self, problem: Problem) -> None:
        self.err.write(orjson.dumps({"error": problem_json(problem)}).decode() + "\n")

    def finish(self, summary: Summary) -> None:
        self.out.flush()
