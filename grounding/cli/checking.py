"""One `ground check` run from resolved options: the reporter and the report file, the baseline, the summary and
the exit status."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from typing import Any, TextIO

import typer

from grounding.cli.environment import report_environment
from grounding.cli.exits import Terminated, _fail, _is_utf8, stdout_unwritable
from grounding.cli.output_dir import SUMMARY_NAME, OutputDir
from grounding.cli.progress import Progress
from grounding.core.settings import Settings
from grounding.errors import GroundingError
from grounding.library import Options, engine_for, judged
from grounding.model import Problem, Summary
from grounding.options.config import Resolved
from grounding.options.exit_codes import ExitCode, exit_code, failing_reason, failures, vacuous
from grounding.reporters import OutputFormat, Reporter, ReportOptions, make_reporter
from grounding.reporters.summary import counted, empty_run_message, statistics_lines, summary_line
from grounding.run.baseline import Baseline
from grounding.run.baseline import write as write_baseline_file
from grounding.run.declared_shapes import DeclaredShapes
from grounding.run.report_file import AtomicFile
from grounding.transcripts.files import known_size
from grounding.transcripts.folders import expand


def _run(inputs: list[str], checked: Options, options: Resolved, known: Baseline | None, write: bool) -> ExitCode:
    settings = checked.settings
    output_format = OutputFormat(options["output-format"])
    if output_format.value in _UTF8_FORMATS and not options["output"] and not _is_utf8(sys.stdout):
        sys.stdout.reconfigure(encoding="utf-8")
    try:
        files = expand(inputs, storage_options=checked.storage_options, exclude=checked.excluded)  # a URL's may fail
    except GroundingError as error:
        _fail(error)
    report_file = _report_file(options["output"])
    progress = Progress.start(enabled=options["progress"] and not options["quiet"], total_bytes=known_size(files))
    reporter = _reporter(output_format, options, checked, progress, report_file)
    summary = Summary()
    collected: list = []
    shapes = DeclaredShapes(settings)
    try:
        with engine_for(checked) as engine:  # a Dask cluster is connected to, or started, for the run
            for event in judged(files, checked, summary, known, on_record=progress.advance, engine=engine):
                if isinstance(event, Problem):
                    reporter.problem(event)
                    continue
                shapes.see(event)
                if write:
                    collected.append(event)  # a baseline run writes the baseline, not the report
                else:
                    reporter.answer(event)
    except GroundingError as error:  # a run that cannot go on leaves no half report file, and the old one stands
        progress.stop()
        _abandon(reporter, summary, report_file, error)
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
    if options["output-dir"] and not options["quiet"]:
        print(f"{summary_line(summary)}; {counted(reporter.parts, 'partition')} and {SUMMARY_NAME} written to "
              f"{options['output-dir']}", file=sys.stderr)
    if not options["quiet"]:
        for warning in shapes.warnings(summary.answers):
            print(warning, file=sys.stderr)
    return _finish(summary, settings, options, known, write, collected, files)


def _reporter(output_format: OutputFormat, options: Resolved, checked: Options, progress: Progress,
              report_file: AtomicFile | None) -> Reporter | OutputDir:
    """What the run's answers go to: the report in its format (on standard output or in --output's file), or
    --output-dir's partitions."""
    if options["output-dir"]:  # the JSON Lines report, one file per input file, and a summary.json
        try:
            return OutputDir(options["output-dir"], checked.storage_options)
        except GroundingError as error:
            _fail(error)
    out = progress.guard(report_file.stream if report_file else _StandardOutput(sys.stdout))
    shown = ReportOptions(verbose=bool(options["verbose"]), quiet=bool(options["quiet"]),
                          failing=partial(failing_reason, settings=checked.settings), codes=checked.settings.rules,
                          **report_environment())
    try:
        return make_reporter(output_format, out, progress.guard(sys.stderr), shown)
    except ReportUnwritable as error:  # a report that writes its head at once (SARIF) onto a full disk
        progress.stop()
        _fail(error)


def _abandon(reporter: Reporter | OutputDir, summary: Summary, report_file: AtomicFile | None,
             error: GroundingError) -> None:
    """A run that cannot go on: a report file or folder is left as the previous run left it; a report on
    standard output is closed whole (what a pipe has read stays a valid document), unless it is what failed."""
    if report_file is not None:
        report_file.discard()
    elif isinstance(reporter, OutputDir):
        reporter.discard()
    elif not isinstance(error, ReportUnwritable):
        reporter.finish(summary)


def _close_report(reporter: Reporter | OutputDir, summary: Summary, report_file: AtomicFile | None) -> None:
    """Write the report's end; a report file is then put in place whole, or not at all."""
    if report_file is None:
        try:
            reporter.finish(summary)
        except GroundingError as error:  # standard output or --output-dir refused the report's end
            if isinstance(reporter, OutputDir):
                reporter.discard()
            _fail(error)
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
        try:
            count = write_baseline_file(options["baseline"], collected)
        except OSError as error:  # a full disk, a quota: the old baseline stands (written whole or not at all)
            _fail(GroundingError(f"--baseline {options['baseline']}: cannot write the baseline "
                                 f"({error.strerror or error}); an older baseline there is left as it was"))
        terminal_report = options["output-format"] in ("full", "concise") and not options["output"]
        if not options["quiet"] and not terminal_report:  # (a report on the terminal ends with the line already)
            print(summary_line(summary), file=sys.stderr)
        print(f"wrote {counted(count, 'baseline entry', 'baseline entries')} to {options['baseline']}", file=sys.stderr)
        return ExitCode.OK
    stale = known.stale(files) if known is not None else []
    if known is not None and known.suppressed:
        print(f"{counted(known.suppressed, 'unsupported value')} in the baseline not reported", file=sys.stderr)
    if stale:
        print(f"{counted(len(stale), 'baseline entry', 'baseline entries')} stale (no longer found), e.g. "
              f"{stale[0][0]} turn {stale[0][1]} {stale[0][2]}", file=sys.stderr)
    code = exit_code(summary, settings, strict=bool(options["strict"]),
                     stale_fails=bool(stale) and bool(options["stale-baseline-fails"]))
    reasons = failures(summary, settings)
    # the summary line already says what was flagged: this line is for a run failed by an option's rule too
    if code is ExitCode.FINDINGS and any("(--" in reason for reason in reasons) and not options["quiet"]:
        print("the run fails: " + ", ".join(reasons), file=stream)
    return code


class ReportUnwritable(GroundingError):
    """Standard output refused the report (a full disk, a quota): the run's error, said once."""


class _StandardOutput:
    """Standard output as the report's stream: a write or flush the OS refuses is a ReportUnwritable naming
    the reason (it was a traceback, and exit 1, the code for a flagged answer). A reader that left
    (BrokenPipeError) still ends the run quietly."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._refused(self._stream.write, text)

    def flush(self) -> None:
        self._refused(self._stream.flush)

    @staticmethod
    def _refused(call: Callable[..., Any], *args: object) -> Any:  # noqa: ANN401 (what call returns)
        try:
            return call(*args)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise ReportUnwritable(stdout_unwritable(error)) from None

    def __getattr__(self, name: str) -> object:  # isatty, fileno, encoding…: the stream's own
        return getattr(self._stream, name)


# Formats whose documents declare (or, for JSON, must be) UTF-8: written so on standard output whatever its
# encoding, as an escape there would make them invalid.
_UTF8_FORMATS = frozenset({"json", "json-lines", "sarif", "junit", "gitlab", "html", "otlp"})
