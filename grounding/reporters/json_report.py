"""``--output-format json``: exactly one JSON document on stdout (the contract of issue 2).

Answers are written as they are judged, so memory does not grow with the
input; the summary comes last for the same reason (key order carries no
meaning in JSON).
"""

from __future__ import annotations

from typing import TextIO

import orjson

from grounding import __version__
from grounding.engine import JudgedAnswer
from grounding.inputs import Problem
from grounding.report import Summary
from grounding.verdict import Finding


def finding_json(finding: Finding) -> dict:
    entry = {"value": finding.value, "shape": finding.shape, "text": finding.text}
    if finding.via is not None:
        entry["via"] = finding.via
    if finding.formula is not None:
        entry["formula"] = finding.formula
    if finding.matched is not None:
        entry["matched"] = finding.matched
    return entry


def answer_json(judged: JudgedAnswer) -> dict:
    verdict = judged.verdict
    return {
        "source": judged.source,
        "line": judged.line,
        "conversation": judged.conversation,
        "turn": judged.turn,
        "status": verdict.status.value,
        "format": judged.input_format,
        "candidates": verdict.candidates,
        "unsupported": [finding_json(f) for f in verdict.unsupported],
        "evidence_truncated": False,  # the index has no ceiling (SPEC-READINGS §5.5)
        "grounded_via": [finding_json(f) for f in verdict.grounded_via],
        "examples": [finding_json(f) for f in verdict.examples],
        **({"reason": verdict.reason} if verdict.reason is not None else {}),
        **({"explain": [e.as_json() for e in judged.explanation]} if judged.explanation else {}),
        **({"contract": verdict.contract.as_json()} if verdict.contract is not None else {}),
        **({"evidence_recheck": verdict.revision} if verdict.revision is not None else {}),
    }


def problem_json(problem: Problem) -> dict:
    return {"source": problem.source, "line": problem.line, "message": problem.message}


class JsonReporter:
    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out = out
        self.problems: list[dict] = []
        self.first = True
        head = orjson.dumps({"tool": "ground", "version": __version__}).decode()
        self.out.write(head[:-1] + ',"answers":[')

    def answer(self, judged: JudgedAnswer) -> None:
        self.out.write(("" if self.first else ",") + "\n" + orjson.dumps(answer_json(judged)).decode())
        self.first = False

    def problem(self, problem: Problem) -> None:
        self.problems.append(problem_json(problem))

    def finish(self, summary: Summary) -> None:
        tail = orjson.dumps({"errors": self.problems, "summary": summary.as_json()}).decode()
        self.out.write("\n]," + tail[1:] + "\n")
