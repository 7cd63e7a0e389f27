"""``--output-format junit``: one test case per judged answer, one suite per file.

``classname`` is the file and ``name`` the conversation and turn, unique per
file (GitLab keeps only the first of duplicate names).
"""

from __future__ import annotations

from typing import TextIO
from xml.sax.saxutils import escape, quoteattr

from grounding.model import JudgedAnswer, Problem, Status, Summary, shown_shape
from grounding.reporters.escape import xml_text
from grounding.reporters.summary import counted


class JunitReporter:
    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out, self.err = out, err
        self.suites: dict[str, list[str]] = {}
        self.failures: dict[str, int] = {}
        self.errors: dict[str, int] = {}

    def answer(self, judged: JudgedAnswer) -> None:
        verdict = judged.verdict
        conversation = judged.conversation if judged.conversation is not None else f"line {judged.line}"
        name = f"{conversation} turn {judged.turn}"
        attributes = f"classname={_attr(judged.source)} name={_attr(name)} file={_attr(judged.source)} line=\"{judged.line}\""
        body = ""
        if verdict.status is Status.FLAGGED:
            values = ", ".join(f"{f.text} ({shown_shape(f.value, f.shape)})" for f in verdict.unsupported)
            count = len(verdict.unsupported)
            message = (f"GR001 {counted(count, 'value')} {'appears' if count == 1 else 'appear'} in no tool result "
                       f"read before {'it' if count == 1 else 'them'}: {values}")
            body = f"<failure message={_attr(message)} type=\"unsupported-value\">{escape(xml_text(judged.text))}</failure>"
            self.failures[judged.source] = self.failures.get(judged.source, 0) + 1
        elif verdict.status is Status.CONTRACT_UNMET:
            contract = verdict.contract
            message = f"GR002 contract unmet at {contract.stage}: {contract.error}"
            body = f"<failure message={_attr(message)} type=\"contract-unmet\">{escape(xml_text(judged.text))}</failure>"
            self.failures[judged.source] = self.failures.get(judged.source, 0) + 1
        elif verdict.status in (Status.UNJUDGEABLE, Status.TRUNCATED, Status.REFUSED, Status.UNCHECKED):
            label = "cannot judge" if verdict.status is Status.UNJUDGEABLE else verdict.status.value
            body = f"<skipped message={_attr(label + ': ' + (verdict.reason or ''))}/>"
        self.suites.setdefault(judged.source, []).append(f"    <testcase {attributes}>{body}</testcase>")

    def problem(self, problem: Problem) -> None:
        where = problem.source if problem.line is None else f"{problem.source}:{problem.line}"
        self.errors[problem.source] = self.errors.get(problem.source, 0) + 1
        self.suites.setdefault(problem.source, []).append(
            f"    <testcase classname={_attr(problem.source)} name={_attr('record ' + where)}>"
            f"<error message={_attr(problem.message)}/></testcase>"
        )

    def finish(self, summary: Summary) -> None:
        total = sum(len(cases) for cases in self.suites.values())
        out = self.out
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        out.write(f'<testsuites name="ground" tests="{total}" failures="{sum(self.failures.values())}" '
                  f'errors="{sum(self.errors.values())}">\n')
        for source, cases in self.suites.items():
            out.write(f"  <testsuite name={_attr(source)} tests=\"{len(cases)}\" "
                      f"failures=\"{self.failures.get(source, 0)}\" errors=\"{self.errors.get(source, 0)}\">\n")
            out.write("\n".join(cases) + "\n")
            out.write("  </testsuite>\n")
        out.write("</testsuites>\n")


def _attr(text: str) -> str:
    """An XML attribute value: quoted, and holding nothing XML 1.0 forbids."""
    return quoteattr(xml_text(text))
