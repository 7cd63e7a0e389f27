"""``--output-format json``: exactly one JSON document on stdout (the contract of issue 2).

Answers are written as they are judged (a batch at a time), so memory does not grow with the
input; the summary comes last for the same reason (key order carries no
meaning in JSON).
"""

from __future__ import annotations

from typing import TextIO

import orjson

from grounding import __version__
from grounding.model import JudgedAnswer, Problem, Summary, path_text

_BATCH = 256
# The report's layout version (grounding/schemas/report.schema.json): raised when a field changes meaning
# or goes; a field may be added within a version.
SCHEMA_VERSION = 2  # 2: the status unchecked and the summary's unchecked count


def problem_json(problem: Problem) -> dict:
    return {"source": path_text(problem.source), "line": problem.line, "message": path_text(problem.message)}


class JsonReporter:
    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out = out
        self.problems: list[dict] = []
        self.first = True
        self._unwritten: list[bytes] = []  # answers are written a batch at a time: a text write costs ~1 us each
        head = orjson.dumps({"tool": "ground", "schema_version": SCHEMA_VERSION, "version": __version__}).decode()
        self.out.write(head[:-1] + ',"answers":[')

    def answer(self, judged: JudgedAnswer) -> None:
        self._unwritten.append(orjson.dumps(judged.to_dict()))
        if len(self._unwritten) >= _BATCH:
            self._write_answers()

    def _write_answers(self) -> None:
        if self._unwritten:
            self.out.write(("" if self.first else ",") + "\n" + b",\n".join(self._unwritten).decode())
            self.first = False
            self._unwritten = []

    def problem(self, problem: Problem) -> None:
        self.problems.append(problem_json(problem))

    def finish(self, summary: Summary) -> None:
        self._write_answers()
        tail = orjson.dumps({"errors": self.problems, "summary": summary.as_json()}).decode()
        self.out.write("\n]," + tail[1:] + "\n")
