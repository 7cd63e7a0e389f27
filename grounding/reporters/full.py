"""``--output-format full``: each flagged answer with its values highlighted in context, then a summary.

A line is a run of parts, each plain text or (text, style). On a terminal rich renders them in colour; to a
file or a pipe, where rich would only strip the styles, the plain text is written directly, as rich would
write it: rendering every line through rich took a third of a run's time on a large file. Values are
written as they were typed (no markup, no emoji codes) on both paths. Where no terminal is possible rich is
not even imported (~11 ms of start-up).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from grounding.model import (
    ALL_CODES,
    COMPUTED_VIA,
    Finding,
    JudgedAnswer,
    Problem,
    Status,
    Summary,
    Verdict,
    code_of,
    shown_shape,
)
from grounding.reporters.escape import visible
from grounding.reporters.streams import is_regular_file
from grounding.reporters.summary import counted, summary_line

_CONTEXT = 40
_WHITESPACE = re.compile(r"\s+")
_SHOWN = (Status.FLAGGED, Status.UNJUDGEABLE, Status.CONTRACT_UNMET, Status.TRUNCATED, Status.REFUSED)
# The rule an answer's status is reported under, when the status is a finding of its own.
_STATUS_RULES = {Status.CONTRACT_UNMET: "GR002", Status.UNJUDGEABLE: "GR003", Status.TRUNCATED: "GR004",
                 Status.REFUSED: "GR005"}
# shown by default, briefly: a computed value and an example need a look
_DERIVED, _EXAMPLE = code_of("derived-value"), code_of("example")
# Errors shown per input file: a file of another format gives one per line; the rest are counted.
ERRORS_SHOWN_PER_FILE = 10
_STYLES = {Status.FLAGGED: "bold red", Status.DERIVED: "yellow", Status.GROUNDED: "green",
           Status.CONTRACT_UNMET: "bold red"}

_LINES_HELD_FOR_A_FILE = 1024

Part = str | tuple[str, str]

if TYPE_CHECKING:
    from rich.console import Console


class _Lines:
    """Writes lines of parts to one stream: through rich on a terminal, as plain text elsewhere."""

    def __init__(self, stream: TextIO, terminal_forced: bool = False) -> None:
        self.stream = stream
        self._console: Console | None = None
        self._pending: list[str] = []  # plain lines not written yet: a report writes once per answer
        # a regular file is read when the run ends: written in blocks of lines, not once per answer
        self._hold = _LINES_HELD_FOR_A_FILE if is_regular_file(stream) else 0
        self.plain = not _may_be_terminal(stream, terminal_forced) or not (self.console.is_terminal or self.console.is_jupyter)

    @property
    def console(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(file=self.stream, highlight=False, soft_wrap=True, emoji=False)
        return self._console

    def line(self, *parts: Part) -> None:
        text = "".join([part[0] if type(part) is tuple else part for part in parts])
        if visible(text) is not text:  # a control or a bidirectional mark from the transcript: shown escaped
            parts = tuple((visible(part[0]), part[1]) if type(part) is tuple else visible(part) for part in parts)
            text = "".join([part[0] if type(part) is tuple else part for part in parts])
        if self.plain:
            if "\t" not in text:
                self._pending.append(text + "\n")
                return
            # rich renders a tab by the cells before it (wide characters count two): such a line goes through it
            self._write_pending()
        from rich.text import Text

        self.console.print(Text.assemble(*parts))

    def flush(self, *, final: bool = False) -> None:
        """Write the lines so far and flush: with PYTHONUNBUFFERED (common in CI images) every write to
        standard output is a system call, so an answer's lines are written as one; to a regular file, many
        answers' lines are."""
        if final or len(self._pending) >= self._hold:
            self._write_pending()
            self.stream.flush()

    def _write_pending(self) -> None:
        if self._pending:
            self.stream.write("".join(self._pending))
            self._pending.clear()


class FullReporter:
    """Each answer that fails the run or needs a look, a blank line between answers, then the summary. A
    finding's line starts with its rule's code and name; how a value was grounded is shown with -v (and for
    an answer that fails the run by --fail-on-derived, whose formulas are the reason)."""

    def __init__(self, out: TextIO, err: TextIO, *, verbose: bool = False, quiet: bool = False,
                 failing: Callable[[Verdict], str | None] | None = None, codes: frozenset[str] = ALL_CODES,
                 terminal_forced: bool = False) -> None:
        self.quiet = quiet
        self.failing = failing
        self.codes = codes
        self.out = _Lines(out, terminal_forced)
        self.err = _Lines(err, terminal_forced)
        self.verbose = verbose
        self.shown = 0
        self.errors_per_file: Counter[str] = Counter()

    def answer(self, judged: JudgedAnswer) -> None:
        verdict = judged.verdict
        fails = self.failing(verdict) if self.failing is not None else None
        if not (self._needs_a_look(verdict) or self.verbose or fails is not None):
            return
        line = self.out.line
        if self.shown:
            line("")
        self.shown += 1
        conversation = judged.conversation if judged.conversation is not None else "-"
        line(
            (f"{judged.source}:{judged.line}", "bold"), f" conversation {conversation} turn {judged.turn}: ",
            (verdict.status.value, _STYLES.get(verdict.status, "magenta")),
            f" ({counted(verdict.candidates, 'value')} examined)",
            *((" ", (f"[{judged.input_format}]", "dim")) if self.verbose else ()),
        )
        if fails is not None and fails.startswith("--"):
            line("  ", ("fails the run:", "bold red"), f" {fails}")
        self._status_lines(verdict)
        for finding in verdict.unsupported:
            line("  ", ("GR001 unsupported-value", "red"),
                 f" {finding.text} ({shown_shape(finding.value, finding.shape)})",
                 *(((f" ({finding.note})", "dim"),) if finding.note else ()))
            line("    ", *_in_context(judged.text, finding, "bold red"))
        every_route = self.verbose or fails == "--fail-on-derived"
        for finding in verdict.grounded_via:
            computed = finding.via in COMPUTED_VIA
            if every_route or (computed and _DERIVED in self.codes):
                code = "GR006 derived-value" if computed else "grounded"
                line("  ", (code, "dim"), f" {finding.text} (via {finding.via}){_how(finding)}")
        for finding in verdict.examples:
            line("  ", ("GR007 example", "cyan"), f" {finding.text} (not a claim; never fails the answer)")
        for explanation in judged.explanation:
            line("  ", ("explain", "blue"), f" {explanation.line()}")
        self.out.flush()  # a finding shows as soon as it is made at the head of a pipe or on a terminal

    def _needs_a_look(self, verdict: Verdict) -> bool:
        """An answer shown without -v: one that fails or could not be judged, and (briefly: its computed values
        and examples, not every route) one with a derived value or an example, unless their rule is ignored."""
        if verdict.status in _SHOWN:
            rule = _STATUS_RULES.get(verdict.status)
            return rule is None or rule in self.codes
        return ((verdict.status is Status.DERIVED and _DERIVED in self.codes)
                or (bool(verdict.examples) and _EXAMPLE in self.codes))

    def _status_lines(self, verdict: Verdict) -> None:
        line = self.out.line
        if verdict.reason:
            rule = _STATUS_RULES.get(verdict.status)
            label = f"{rule} {verdict.status.value}" if rule else "note"
            line("  ", (f"{label}:", "magenta"), f" {verdict.reason}")
        if verdict.revision is not None:
            fixed = "grounded them" if verdict.revision["after_revision"] else "did not ground them all"
            named = ", ".join(verdict.revision["values_named"]) or "no value"
            line("  ", (f"after an evidence re-ask naming {named}: the revision {fixed}", "dim"))
        if verdict.contract is not None and verdict.contract.stage and not verdict.contract.attempts:
            line("  ", ("GR002 contract-unmet", "red"),
                 f" at {verdict.contract.stage}: {verdict.contract.error or ''}")
        if verdict.contract is not None:
            for attempt in verdict.contract.attempts:
                detail = f" at {attempt.stage}: {attempt.error}" if attempt.stage else ""
                line("  ", (f"attempt {attempt.attempt}", "dim"), f" {attempt.outcome}{detail}")

    def problem(self, problem: Problem) -> None:
        self.errors_per_file[problem.source] += 1
        if self.errors_per_file[problem.source] > ERRORS_SHOWN_PER_FILE:
            return  # counted, and said at the end
        where = problem.source if problem.line is None else f"{problem.source}:{problem.line}"
        self.out.flush(final=True)  # what came before it first, where both streams go to one file
        self.err.line(("error:", "bold red"), f" {where}: {problem.message}")
        self.err.flush(final=True)

    def finish(self, summary: Summary) -> None:
        self._errors_not_shown()
        if not self.quiet:
            if self.shown:
                self.out.line("")
            self.out.line((summary_line(summary), "bold red" if summary.flagged else "bold green"))
        self.out.flush(final=True)

    def _errors_not_shown(self) -> None:
        capped = [(source, count) for source, count in self.errors_per_file.items() if count > ERRORS_SHOWN_PER_FILE]
        for source, count in capped:
            more = count - ERRORS_SHOWN_PER_FILE
            self.err.line(("error:", "bold red"), f" {source}: and {counted(more, 'more record')} that could not be "
                          "read; if the file is of another format, `ground formats` lists those read")
        if capped:
            self.err.flush(final=True)


def _may_be_terminal(stream: TextIO, forced: bool) -> bool:
    """False when rich would surely take stream for no terminal (see rich's Console.is_terminal): it is no
    tty, and nothing overrides that (forced: the environment may, grounding.cli.environment)."""
    try:
        if stream.isatty():
            return True
    except (AttributeError, ValueError):  # no isatty, or a closed stream: rich says no terminal
        pass
    return forced



def _how(finding: Finding) -> str:
    detail = finding.formula or finding.matched
    return f": {detail}" if detail else ""


def _in_context(text: str, finding: Finding, style: str) -> list[Part]:
    """The answer text around the first place the value is written, with the value highlighted."""
    written = finding.text
    at = finding.at if text[finding.at : finding.at + len(written)] == written else text.find(written)
    if at < 0:
        at = text.lower().find(written.lower())
    if at < 0:
        return [_one_line(text[: 2 * _CONTEXT])]
    start, end = max(0, at - _CONTEXT), min(len(text), at + len(written) + _CONTEXT)
    return [
        ("…" if start else "") + _one_line(text[start:at]),
        (text[at : at + len(written)], style),
        _one_line(text[at + len(written) : end]) + ("…" if end < len(text) else ""),
    ]


def _one_line(text: str) -> str:
    return _WHITESPACE.sub(" ", text)
