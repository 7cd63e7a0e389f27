"""``--output-format full``: each flagged answer with its values highlighted in context, then a summary."""

from __future__ import annotations

import re
from typing import TextIO

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from grounding.engine import JudgedAnswer
from grounding.inputs import Problem
from grounding.report import Summary, summary_line
from grounding.verdict import Finding, Status

_CONTEXT = 40
_WHITESPACE = re.compile(r"\s+")


class FullReporter:
    def __init__(self, out: TextIO, err: TextIO, *, verbose: bool = False, quiet: bool = False) -> None:
        self.quiet = quiet
        self.out = Console(file=out, highlight=False, soft_wrap=True)
        self.err = Console(file=err, highlight=False, soft_wrap=True)
        self.verbose = verbose

    def answer(self, judged: JudgedAnswer) -> None:
        verdict = judged.verdict
        shown = (Status.FLAGGED, Status.UNJUDGEABLE, Status.CONTRACT_UNMET, Status.TRUNCATED, Status.REFUSED)
        if verdict.status not in shown and not self.verbose:
            return
        style = {Status.FLAGGED: "bold red", Status.DERIVED: "yellow", Status.GROUNDED: "green",
                 Status.CONTRACT_UNMET: "bold red"}.get(verdict.status, "magenta")
        where = f"{judged.source}:{judged.line}"
        conversation = judged.conversation if judged.conversation is not None else "-"
        self.out.print(
            f"[bold]{escape(where)}[/] conversation {escape(conversation)} turn {judged.turn}: "
            f"[{style}]{verdict.status.value}[/] ({_count(verdict.candidates, 'value')} examined)"
            + (f" [dim]\\[{judged.input_format}][/]" if self.verbose else "")
        )
        if verdict.reason:
            label = "cannot judge" if verdict.status is Status.UNJUDGEABLE else "not an answer"
            self.out.print(f"  [magenta]{label}:[/] {escape(verdict.reason)}")
        if verdict.revision is not None:
            fixed = "grounded them" if verdict.revision["after_revision"] else "did not ground them all"
            named = ", ".join(verdict.revision["values_named"]) or "no value"
            self.out.print(f"  [dim]after an evidence re-ask naming {escape(named)}: the revision {fixed}[/]")
        if verdict.contract is not None and verdict.contract.stage and not verdict.contract.attempts:
            self.out.print(f"  [red]contract unmet[/] at {verdict.contract.stage}: {escape(verdict.contract.error or '')}")
        if verdict.contract is not None:
            for attempt in verdict.contract.attempts:
                detail = f" at {attempt.stage}: {attempt.error}" if attempt.stage else ""
                self.out.print(f"  [dim]attempt {attempt.attempt}[/] {attempt.outcome}{escape(detail)}")
        for finding in verdict.unsupported:
            self.out.print(f"  [red]unsupported[/] {escape(finding.text)} ({finding.shape})")
            self.out.print(Text("    ") + _in_context(judged.text, finding.text, "bold red"))
        for finding in verdict.grounded_via:
            self.out.print(f"  [dim]{finding.via}[/] {escape(finding.text)}{escape(_how(finding))}")
        for finding in verdict.examples:
            self.out.print(f"  [cyan]example[/] {escape(finding.text)} (not a claim; never fails the answer)")
        for explanation in judged.explanation:
            self.out.print(f"  [blue]explain[/] {escape(explanation.line())}")
        self.out.file.flush()  # a finding shows as soon as it is made, also at the head of a long pipe

    def problem(self, problem: Problem) -> None:
        where = problem.source if problem.line is None else f"{problem.source}:{problem.line}"
        self.err.print(f"[bold red]error:[/] {escape(where)}: {escape(problem.message)}")

    def finish(self, summary: Summary) -> None:
        if self.quiet:
            return
        style = "bold red" if summary.flagged else "bold green"
        self.out.print(f"[{style}]{escape(summary_line(summary))}[/]")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _how(finding: Finding) -> str:
    detail = finding.formula or finding.matched
    return f": {detail}" if detail else ""


def _in_context(text: str, written: str, style: str) -> Text:
    """The answer text around the first place value is written, with the value highlighted."""
    at = text.find(written)
    if at < 0:
        at = text.lower().find(written.lower())
    if at < 0:
        return Text(_one_line(text[: 2 * _CONTEXT]))
    start, end = max(0, at - _CONTEXT), min(len(text), at + len(written) + _CONTEXT)
    shown = Text("…" if start else "")
    shown.append(_one_line(text[start:at]))
    shown.append(text[at : at + len(written)], style=style)
    shown.append(_one_line(text[at + len(written) : end]))
    if end < len(text):
        shown.append("…")
    return shown


def _one_line(text: str) -> str:
    return _WHITESPACE.sub(" ", text)
