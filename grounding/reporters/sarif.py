"""``--output-format sarif``: SARIF 2.1.0 that GitHub code scanning accepts.

The transcript file and line are the physical location; conversation, turn
and value the logical one; a fingerprint of conversation id and normalised
value keeps reruns from duplicating alerts.
"""

from __future__ import annotations

from typing import TextIO
from urllib.parse import quote

import orjson

from grounding import __version__
from grounding.model import ALL_CODES, RULES, JudgedAnswer, Problem, Summary, path_text
from grounding.reporters.findings import Finding, findings_of

_RULE_INDEX = {rule.code: number for number, rule in enumerate(RULES)}


_RESULT_INDENT = " " * 8  # a result's depth in the document: runs[0].results[i]
_BATCH = 256  # results written at once: a text write costs ~1 us each


class SarifReporter:
    """Results are written as answers are judged, so memory does not grow with the input; the problems
    met (tool execution notifications, few) come after them, where the document puts them. The bytes are
    those of the whole document dumped at once."""

    def __init__(self, out: TextIO, err: TextIO, *, derived: bool = False, codes: frozenset[str] = ALL_CODES) -> None:
        self.out, self.err = out, err
        self.codes = codes
        self.notifications: list[dict] = []
        self.derived = derived
        self.written = 0  # results written so far
        self._unwritten: list[str] = []
        head = _document([])
        self.out.write(head[: head.index(_RESULTS_KEY) + len(_RESULTS_KEY)])

    def answer(self, judged: JudgedAnswer) -> None:
        for finding in findings_of(judged, derived=self.derived, codes=self.codes):
            lines = orjson.dumps(_result(finding), option=orjson.OPT_INDENT_2).decode().split("\n")
            self._unwritten.append(("[\n" if self.written == 0 else ",\n") + "\n".join(_RESULT_INDENT + line
                                                                                     for line in lines))
            self.written += 1
        if len(self._unwritten) >= _BATCH:
            self._write_results()

    def _write_results(self) -> None:
        self.out.write("".join(self._unwritten))
        self._unwritten.clear()

    def problem(self, problem: Problem) -> None:
        self.notifications.append({
            "level": "error",
            "message": {"text": path_text(problem.message)},
            "locations": [_physical(problem.source, problem.line or 1)],
        })

    def finish(self, summary: Summary) -> None:
        self._write_results()
        self.out.write("\n" + _RESULT_INDENT[:-2] + "]" if self.written else "[]")
        whole = _document(self.notifications)
        self.out.write(whole[whole.index(_RESULTS_KEY) + len(_RESULTS_KEY) + len("[]"):] + "\n")


_RESULTS_KEY = '"results": '


def _document(notifications: list[dict]) -> str:
    """The SARIF document with no results, as orjson indents it: the results are written into it."""
    driver = {
        "name": "ground",
        "version": __version__,
        "rules": [
            {"id": rule.code, "name": rule.name, "shortDescription": {"text": rule.summary},
             "defaultConfiguration": {"level": rule.level}}
            for rule in RULES
        ],
    }
    run: dict = {"tool": {"driver": driver}, "results": []}
    if notifications:
        run["invocations"] = [{"executionSuccessful": True, "toolExecutionNotifications": notifications}]
    document = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [run]}
    return orjson.dumps(document, option=orjson.OPT_INDENT_2).decode()


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
    # SARIF's uri is a URI reference (RFC 3986): a file name's bytes that are not URI characters are
    # percent-encoded (a space as %20, é as %C3%A9, the byte of a name that is not UTF-8 as itself: %E9)
    path = source.replace("\\", "/").removeprefix("./").encode("utf-8", "surrogateescape")
    uri = "stdin" if source == "-" else quote(path, safe="/:@!$&'()*+,;=~")
    return {"physicalLocation": {"artifactLocation": {"uri": uri}, "region": {"startLine": max(1, line)}}}
