"""``--output-format gitlab``: GitLab Code Quality JSON (a list of issues with stable fingerprints)."""

from __future__ import annotations

from typing import TextIO

import orjson

from grounding.model import ALL_CODES, JudgedAnswer, Problem, Summary, path_text
from grounding.reporters.findings import findings_of

_SEVERITY = {"error": "major", "warning": "minor", "note": "info"}


class GitlabReporter:
    def __init__(self, out: TextIO, err: TextIO, *, codes: frozenset[str] = ALL_CODES, project_dir: str = "") -> None:
        self.out, self.err = out, err
        self.codes = codes
        self.issues: list[dict] = []
        self.project = project_dir

    def answer(self, judged: JudgedAnswer) -> None:
        for finding in findings_of(judged, codes=self.codes):
            self.issues.append({
                "description": f"{finding.message} ({finding.where})",
                "check_name": f"{finding.code} {finding.rule}",
                "fingerprint": finding.fingerprint[:32],
                "severity": _SEVERITY[finding.level],
                "location": {"path": self._path(finding.source), "lines": {"begin": finding.line}},
            })

    def problem(self, problem: Problem) -> None:
        where = problem.source if problem.line is None else f"{problem.source}:{problem.line}"
        self.err.write(f"{where}: error: {problem.message}\n")

    def finish(self, summary: Summary) -> None:
        self.out.write(orjson.dumps(self.issues, option=orjson.OPT_INDENT_2).decode() + "\n")

    def _path(self, source: str) -> str:
        source = path_text(source)
        if self.project and source.startswith(self.project.rstrip("/") + "/"):
            return source[len(self.project.rstrip("/")) + 1 :]
        return source.removeprefix("./")
