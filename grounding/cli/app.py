"""The ``ground`` command: parse options, read inputs, call the engine, render, exit."""


import gc
import inspect
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Annotated, NoReturn, Optional

import orjson
import typer

from grounding import __version__
from grounding.cli.config import Resolved, describe, resolve
from grounding.cli.environment import report_environment
from grounding.cli.exit_codes import ExitCode, exit_code, failing_reason, failures, vacuous
from grounding.cli.options import command_line, with_options
from grounding.cli.progress import Progress
from grounding.cli.rules import selection, without_ignored
from grounding.core.settings import Settings, build_settings, shape_table
from grounding.core.text.normalise import normalise
from grounding.errors import GroundingError
from grounding.model import ALL_CODES, JudgedAnswer, Problem, Summary
from grounding.reporters import OutputFormat, Reporter, ReportOptions, make_reporter
from grounding.reporters.summary import counted, empty_run_message, statistics_lines, summary_line
from grounding.run.baseline import Baseline
from grounding.run.baseline import write as write_baseline_file
from grounding.run.report_file import AtomicFile, check_target
from grounding.run.runner import judge_inputs
from grounding.transcripts.files import check_readable, expand, known_size
from grounding.transcripts.formats import FORMAT_DESCRIPTIONS, FORMAT_NAMES, resolve_format

HELP = """Check that the values in an agent's final answers were read, not invented.

Every number, identifier and name in an assistant's final answer must appear in
a tool result the conversation had already read. ground is a fabrication
detector, not a correctness judge: a false claim built from real values passes.
"""

class _Command(typer.core.TyperCommand):
    """A command whose usage line writes a required repeated argument as POSIX does (FILE...), not typer's
    {FILE...}, and whose summary in the command list is its first sentence, whole."""

    def collect_usage_pieces(self, ctx: object) -> list[str]:
        return [piece[1:-1] if piece.startswith("{") and piece.endswith("}") else piece
                for piece in super().collect_usage_pieces(ctx)]

    def get_short_help_str(self, limit: int = 45) -> str:
        return super().get_short_help_str(limit=200)


app = typer.Typer(no_args_is_help=True, add_completion=False, help=HELP, rich_markup_mode=None)


def _version(value: bool) -> None:
    if value:
        print(f"ground {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[
        Optional[bool], typer.Option("--version", "-V", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = None,
) -> None:
    """Check that the values in an agent's final answers were read, not invented."""


def check(inputs: list[str], **flags: object) -> None:
    """Judge every final answer in the given transcripts.

    Every number and identifier in a final answer must appear in a tool result
    read before it. A fabrication detector, not a correctness judge: a false
    claim built from real values passes.

    Exit status: 0 no answer flagged, 1 an answer flagged, 2 a usage error or
    no record could be read.
    """
    write_baseline = bool(flags["write_baseline"])
    try:
        options = resolve(command_line(flags), flags["config"])
        settings = replace(_settings(options), straightforward=bool(flags["straightforward"]))
        if options["input-format"] is not None:
            resolve_format(options["input-format"])
        if write_baseline and options["baseline"] is None:
            raise GroundingError("--write-baseline needs --baseline FILE (or baseline in the configuration)")
        known = None if write_baseline or options["baseline"] is None else Baseline.load(Path(options["baseline"]))
        check_readable(inputs)
        if options["output"]:
            check_target("--output", options["output"], expand(inputs))
        if write_baseline:
            check_target("--baseline", options["baseline"], expand(inputs))
    except GroundingError as error:
        _fail(error)
    code = _run(inputs, settings, options, known, write_baseline)
    raise typer.Exit(int(code))


_INPUTS = inspect.Parameter("inputs", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Annotated[
    list[str], typer.Argument(metavar="FILE...", help="Transcript files or folders, or - for standard input.")])
app.command(name="check", cls=_Command)(with_options(check, [_INPUTS]))


def _settings(options: Resolved) -> Settings:
    """Settings from the resolved options (command line over configuration over defaults)."""
    settings = build_settings(
        [f"{name}={regex}" for name, regex in options["shapes"].items()],
        options["exempt"],
        options["exempt-regex"],
        options["min-digits"],
        derived=options["derived"],
        fail_on_derived=options["fail-on-derived"],
        fail_on_example=options["fail-on-example"],
        exit_zero=options["exit-zero"],
    )
    contracts = None
    if options["schema"] or options["schema-for"]:
        from grounding.cli.schemas import load_contracts  # a run without a schema never needs it

        contracts = load_contracts(options["schema"], options["schema-for"])
    return replace(settings, contracts=contracts, contract_warn_only=bool(options["contract-warn-only"]),
                   fail_on_unjudgeable=bool(options["fail-on-unjudgeable"]), allow_empty=bool(options["allow-empty"]),
                   rules=selection(options["select"], options["ignore"]),
                   required_tools=tuple(options["require-tool"]), code_tool=options["code-needs-execution"])


def _shapes_table(specs: list[str] | None) -> dict[str, str] | None:
    """--shape NAME=REGEX options as the configuration's table."""
    return shape_table(specs) if specs else None


@app.command(name="explain", cls=_Command)
def explain_command(
    inputs: Annotated[list[str], typer.Argument(metavar="FILE...", help="Transcript files or folders, or -.")],
    conversation: Annotated[str, typer.Option("--conversation", metavar="ID", help="The conversation to explain.")],
    turn: Annotated[Optional[int], typer.Option("--turn", metavar="K", help="Only answer K (0-based).")] = None,
    value: Annotated[Optional[str], typer.Option("--value", metavar="V", help="Only this value.")] = None,
    output_format: Annotated[
        Optional[OutputFormat], typer.Option("--output-format", "--format", help="full (default) or json.")
    ] = None,
    shape: Annotated[
        Optional[list[str]],
        typer.Option("--shape", metavar="NAME=REGEX", help="Declare a value shape (repeatable), as for check."),
    ] = None,
    exempt: Annotated[
        Optional[list[str]], typer.Option("--exempt", metavar="VALUE", help="A value never flagged (repeatable).")
    ] = None,
    config: Annotated[Optional[Path], typer.Option("--config", metavar="FILE", help="Read options from FILE.")] = None,
) -> None:
    """For every value of an answer: where it was read (file line, item, tool result or user text, JSON
    pointer), or, when it was not, the nearest values that were read."""
    try:
        options = resolve({"shapes": _shapes_table(shape), "exempt": exempt}, config)
        settings = _settings(options)
        check_readable(inputs)
    except GroundingError as error:
        _fail(error)
    wanted = None if value is None else normalise(value)
    shown = 0
    values_seen: list[str] = []
    for event in judge_inputs(inputs, settings, Summary(), options["input-format"], explain=True):
        if isinstance(event, Problem) or event.conversation != conversation or (turn is not None and event.turn != turn):
            continue
        shown += 1
        values_seen += [e.text for e in event.explanation]
        entries = [e for e in event.explanation if wanted is None or e.value == wanted]
        if not entries and wanted is not None:
            continue
        if output_format is OutputFormat.JSON:
            print(orjson.dumps({"conversation": event.conversation, "turn": event.turn,
                                "status": event.verdict.status.value, "reason": event.verdict.reason,
                                "contract": event.verdict.contract.as_json() if event.verdict.contract else None,
                                "values": [e.as_json() for e in entries]}).decode())
        else:
            print(f"{event.source}:{event.line} conversation {event.conversation} turn {event.turn}: "
                  f"{event.verdict.status.value}")
            if event.verdict.reason:
                print(f"  not judged for evidence: {event.verdict.reason}")
            if event.verdict.contract is not None and event.verdict.contract.stage:
                print(f"  not judged for evidence: contract unmet at {event.verdict.contract.stage}: "
                      f"{event.verdict.contract.error}")
            for entry in entries:
                print(f"  {entry.line()}")
    where = f"--conversation {conversation!r}" + (f" --turn {turn}" if turn is not None else "")
    if not shown:
        _fail(GroundingError(f"{where}: no such answer in the input"))
    if wanted is not None and not any(normalise(text) == wanted for text in values_seen):
        listed = ", ".join(dict.fromkeys(values_seen)) or "none"
        _fail(GroundingError(f"--value {value!r}: not a value of {where} (its values: {listed})"))


@app.command(name="config", cls=_Command)
def show_config(
    config: Annotated[Optional[Path], typer.Option("--config", metavar="FILE", help="Read FILE instead of searching.")] = None,
) -> None:
    """Print the resolved configuration and where each value came from."""
    try:
        resolved = resolve({}, config)
    except GroundingError as error:
        _fail(error)
    for line in describe(resolved):
        print(line)


@app.command(cls=_Command)
def formats() -> None:
    """List the transcript formats ground reads, in the order it tries them on each record."""
    for name in FORMAT_NAMES:
        print(f"{name:<18} {FORMAT_DESCRIPTIONS[name]}")


def _run(inputs: list[str], settings: Settings, options: Resolved, known: Baseline | None, write: bool) -> ExitCode:
    output_format = OutputFormat(options["output-format"])
    if output_format.value in _UTF8_FORMATS and not options["output"] and not _is_utf8(sys.stdout):
        sys.stdout.reconfigure(encoding="utf-8")
    files = expand(inputs)
    report_file = _report_file(options["output"])
    progress = Progress.start(enabled=options["progress"] and not options["quiet"], total_bytes=known_size(files))
    out = progress.guard(report_file.stream if report_file else sys.stdout)
    shown = ReportOptions(verbose=bool(options["verbose"]), quiet=bool(options["quiet"]),
                          failing=partial(failing_reason, settings=settings), codes=settings.rules,
                          **report_environment())
    reporter = make_reporter(output_format, out, progress.guard(sys.stderr), shown)
    summary = Summary()
    collected: list = []
    try:
        adjust = _adjustment(known, settings)
        events = judge_inputs(files, settings, summary, options["input-format"], on_record=progress.advance,
                              adjust=adjust, explain=bool(options["explain"]),
                              max_record_bytes=options["max-record-bytes"], jobs=options["jobs"], expanded=True,
                              flush_after=options["flush-after"])
        for event in events:
            if isinstance(event, Problem):
                reporter.problem(event)
            elif write:
                collected.append(event)  # a baseline run writes the baseline, not the report
            else:
                reporter.answer(event)
    except GroundingError as error:  # a run that cannot go on leaves no half report file, and the old one stands
        progress.stop()
        if report_file is not None:
            report_file.discard()
        else:
            reporter.finish(summary)  # what a pipe has read stays a whole document (valid JSON, SARIF, …)
        _fail(error)
    except OSError as error:
        if report_file is None or isinstance(error, BrokenPipeError):  # not the report's (reading errors are
            raise  # the records' problems), or a reader that left: main ends quietly
        progress.stop()
        report_file.discard()
        _fail(_unwritable(options["output"], error))
    except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM (Terminated): the report of what was judged, closed
        progress.stop()
        reporter.finish(summary)
        if report_file is not None:
            _commit(report_file)  # a complete report of what was judged before the interruption
        unfinished = f"; {counted(summary.unfinished, 'trace')} not complete, not judged" if summary.unfinished else ""
        how = "terminated" if isinstance(stop, Terminated) else "interrupted"
        print(summary_line(summary) + f" ({how}{unfinished})", file=sys.stderr)
        return ExitCode.TERMINATED if isinstance(stop, Terminated) else ExitCode.INTERRUPTED
    except BaseException:
        if report_file is not None:
            report_file.discard()
        raise
    progress.stop()
    _close_report(reporter, summary, report_file)
    if report_file is not None and not options["quiet"]:
        print(f"{summary_line(summary)}; report written to {options['output']}")
    return _finish(summary, settings, options, known, write, collected, files)


def _close_report(reporter: Reporter, summary: Summary, report_file: AtomicFile | None) -> None:
    """Write the report's end; a report file is then put in place whole, or not at all."""
    if report_file is None:
        reporter.finish(summary)
        return
    try:
        reporter.finish(summary)
    except OSError as error:
        if isinstance(error, BrokenPipeError):
            raise
        report_file.discard()
        _fail(_unwritable(report_file.path, error))
    _commit(report_file)


def _report_file(path: str | None) -> AtomicFile | None:
    if path is None:
        return None
    try:
        return AtomicFile(path)
    except OSError as error:
        _fail(_unwritable(path, error))


def _commit(report_file: AtomicFile) -> None:
    try:
        report_file.commit()
    except OSError as error:
        report_file.discard()
        _fail(_unwritable(report_file.path, error))


def _unwritable(path: str, error: OSError) -> GroundingError:
    return GroundingError(f"--output {path}: cannot write the report ({error.strerror or error}); "
                          "an older report there is left as it was")


def _adjustment(known: Baseline | None, settings: Settings) -> Callable[[JudgedAnswer], JudgedAnswer] | None:
    """What rewrites an answer before it is counted: the baseline takes known values out, an ignored rule
    its findings."""
    if settings.rules == ALL_CODES:
        return None if known is None else known.apply

    def adjust(judged: JudgedAnswer) -> JudgedAnswer:
        if known is not None:
            judged = known.apply(judged)
        verdict = without_ignored(judged.verdict, settings.rules)
        return judged if verdict is judged.verdict else replace(judged, verdict=verdict)

    return adjust


def _finish(summary: Summary, settings: Settings, options: Resolved, known: Baseline | None, write: bool,
            collected: list, files: list[str]) -> ExitCode:
    human = options["output-format"] in ("full", "concise") and not options["output"] and not write
    stream = sys.stdout if human else sys.stderr
    if options["statistics"]:
        print("\n".join(statistics_lines(summary)), file=stream)
    if vacuous(summary, settings):
        print("error: " + empty_run_message(summary), file=sys.stderr)
        return ExitCode.ERROR
    if write:
        count = write_baseline_file(options["baseline"], collected)
        if not options["quiet"]:
            print(summary_line(summary), file=sys.stderr)
        print(f"wrote {counted(count, 'baseline entry', 'baseline entries')} to {options['baseline']}", file=sys.stderr)
        return ExitCode.OK
    code = exit_code(summary, settings)
    if known is not None:
        stale = known.stale(files)
        if known.suppressed:
            print(f"{counted(known.suppressed, 'unsupported value')} in the baseline not reported", file=sys.stderr)
        if stale:
            print(f"{counted(len(stale), 'baseline entry', 'baseline entries')} stale (no longer found), e.g. "
                  f"{stale[0][0]} turn {stale[0][1]} {stale[0][2]}", file=sys.stderr)
            if options["stale-baseline-fails"] and code is ExitCode.OK and not settings.exit_zero:
                code = ExitCode.FINDINGS
    if options["strict"] and summary.errors:
        code = ExitCode.ERROR
    reasons = failures(summary, settings)
    # the summary line already says what was flagged: this line is for a run failed by an option's rule too
    if code is ExitCode.FINDINGS and any("(--" in reason for reason in reasons) and not options["quiet"]:
        print("the run fails: " + ", ".join(reasons), file=stream)
    return code


def _fail(error: Exception) -> None:
    print(f"error: {error}", file=sys.stderr)
    raise typer.Exit(int(ExitCode.ERROR))


def main() -> NoReturn:
    """Console-script entry point: a closed downstream pipe ends the run quietly."""
    # A run allocates millions of short-lived objects and makes almost no reference cycles: the cyclic
    # collector running every 700 allocations cost ~15 % of a run; the objects of start-up are never garbage.
    gc.set_threshold(100_000, 50, 100)
    gc.freeze()
    _usable_streams()
    signal.signal(signal.SIGTERM, _terminate)
    code: object = 0
    try:
        app()
    except SystemExit as done:
        code = done.code
    except BrokenPipeError:
        code = 1
    _exit_at_once(code)


class Terminated(KeyboardInterrupt):
    """SIGTERM: the run stops as at Ctrl-C (its report closed, whole), and exits 143."""


def _terminate(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends the process at once
    raise Terminated


def _usable_streams() -> None:
    """Standard streams every run can write to. A closed one (``2>&-``) is Python's None: writing to it
    would fail the run, or (print(file=None)) land on standard output; it becomes the null device. A
    console that cannot encode a character (PYTHONIOENCODING=ascii, a cp1252 console) gets an escape for
    it, not a traceback; a machine format's standard output is UTF-8 whatever the console (see _run)."""
    for name in ("stdin", "stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "r" if name == "stdin" else "w", encoding="utf-8"))  # noqa: SIM115
    for stream in (sys.stdout, sys.stderr):
        if not _is_utf8(stream) and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def _is_utf8(stream: object) -> bool:
    return (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "") in ("utf8", "utf8sig")


# Formats whose documents declare (or, for JSON, must be) UTF-8: written so on standard output whatever its
# encoding, as an escape there would make them invalid.
_UTF8_FORMATS = frozenset({"json", "json-lines", "sarif", "junit", "gitlab"})


def _exit_at_once(code: object) -> NoReturn:
    """End the process as sys.exit(code) would, without the interpreter's teardown: freeing one by one what
    a run leaves (modules, memos) cost ~1 % of a 50 MB run, and the system frees it all at once. Every file
    a run writes is closed by then (see _run): only standard output and error are flushed here."""
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader left before the last lines: quietly, as above
        code = 1
    try:
        sys.stderr.flush()
    except OSError:
        pass  # nowhere left to say anything
    os._exit(code)
