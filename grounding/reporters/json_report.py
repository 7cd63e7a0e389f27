"""``--output-format json``: exactly one JSON document on stdout (the contract of issue 2).

Answers are written as they are judged (a batch at a time), so memory does not grow with the
input; the summary comes last for the same reason (key order carries no
meaning in JSON).
"""

from __future__ import annotations

from typing import TextIO

import orjson

from grounding import __version__
from grounding.model import Finding, JudgedAnswer, Problem, Summary
from grounding.reporters.escape import path_text

_BATCH = 256


def finding_json(finding: Finding) -> dict:
    entry = {"value": finding.value, "shape": finding.shape, "text": finding.text}
    if finding.via is not None:
        entry["via"] = finding.via
    if finding.formula is not None:
        entry["formula"] = finding.formula
    if finding.matched is not None:
        entry["matched"] = finding.matched
    if finding.note is not None:
        entry["note"] = finding.note
    return entry


def answer_json(judged: JudgedAnswer) -> dict:
    verdict = judged.verdict
    entry = {
        "source": path_text(judged.source),
        "line": judged.line,
        "conversation": judged.conversation,
        "turn": judged.turn,
        "status": verdict.status.value,
        "format": judged.input_format,
        "candidates": verdict.candidates,
        "unsupported": list(map(finding_json, verdict.unsupported)),
        "evidence_truncated": False,  # the index has no ceiling (SPEC-READINGS §5.5)
        "grounded_via": list(map(finding_json, verdict.grounded_via)),
        "examples": list(map(finding_json, verdict.examples)),
    }
    if verdict.reason is not None:
        entry["reason"] = verdict.reason
    if judged.explanation:
        entry["explain"] = [e.as_json() for e in judged.explanation]
    if verdict.contract is not None:
        entry["contract"] = verdict.contract.as_json()
    if verdict.revision is not None:
        entry["evidence_recheck"] = verdict.revision
    return entry


def problem_json(problem: Problem) -> dict:
    return {"source": path_text(problem.source), "line": problem.line, "message": path_text(problem.message)}


class JsonReporter:
    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out = out
        self.problems: list[dict] = []
        self.first = True
        self._unwritten: list[bytes] = []  # answers are written a batch at a time: a text write costs ~1 us each
        head = orjson.dumps({"tool": "ground", "version": __version__}).decode()
        self.out.write(head[:-1] + ',"answers":[')

    def answer(self, judged: JudgedAnswer) -> None:
        self._unwritten.append(orjson.dumps(answer_json(judged)))
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
