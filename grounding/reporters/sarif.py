"""``--output-format sarif``: SARIF 2.1.0 that GitHub code scanning accepts.

The transcript file and line are the physical location; conversation, turn
and value the logical one; a fingerprint of conversation id and normalised
value keeps reruns from duplicating alerts.
"""

from __future__ import annotations

from typing import TextIO

import orjson

from grounding import __version__
from grounding.model import ALL_CODES, RULES, JudgedAnswer, Problem, Summary
from grounding.reporters.escape import path_text
from grounding.reporters.findings import Finding, findings_of

_RULE_INDEX = {rule.code: number for number, rule in enumerate(RULES)}


class SarifReporter:
    def __init__(self, out: TextIO, err: TextIO, *, derived: bool = False, codes: frozenset[str] = ALL_CODES) -> None:
        self.out, self.err = out, err
        self.codes = codes
        self.results: list[dict] = []
        self.notifications: list[dict] = []
        self.derived = derived

    def answer(self, judged: JudgedAnswer) -> None:
        self.results.extend(_result(finding) for finding in findings_of(judged, derived=self.derived, codes=self.codes))

    def problem(self, problem: Problem) -> None:
        self.notifications.append({
            "level": "error",
            "message": {"text": path_text(problem.message)},
            "locations": [_physical(problem.source, problem.line or 1)],
        })

    def finish(self, summary: Summary) -> None:
        driver = {
            "name": "ground",
            "version": __version__,
            "rules": [
                {"id": rule.code, "name": rule.name, "shortDescription": {"text": rule.summary},
                 "defaultConfiguration": {"level": rule.level}}
                for rule in RULES
            ],
        }
        run: dict = {"tool": {"driver": driver}, "results": self.results}
        if self.notifications:
            run["invocations"] = [{"executionSuccessful": True, "toolExecutionNotifications": self.notifications}]
        document = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [run]}
        self.out.write(orjson.dumps(document, option=orjson.OPT_INDENT_2).decode() + "\n")


def _result(finding: Finding) -> dict:
    conversation = finding.conversation if finding.conversation is not None else f"line-{finding.line}"
    location = _physical(finding.source, finding.line)
    location["logicalLocations"] = [{
        "name": finding.value or f"turn {finding.turn}",
        "fullyQualifiedName": f"{conversation}/turn/{finding.turn}" + (f"/{finding.value}" if finding.value else ""),
        "kind": "value",
    }]
    return {
        "ruleId": finding.code,
        "ruleIndex": _RULE_INDEX[finding.code],
        "level": finding.level,
        "message": {"text": f"{finding.message} ({finding.where})"},
        "locations": [location],
        "partialFingerprints": {"groundValue/v1": finding.fingerprint},
        "properties": {"value": finding.value, "text": finding.text, "shape": finding.shape,
                       "conversation": finding.conversation, "turn": finding.turn},
    }


def _physical(source: str, line: int) -> dict:
    uri = "stdin" if source == "-" else path_text(source.replace("\\", "/")).removeprefix("./")
    return {"physicalLocation": {"artifactLocation": {"uri": uri}, "region": {"startLine": max(1, line)}}}
