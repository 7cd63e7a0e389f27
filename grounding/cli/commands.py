"""The ``ground`` command line: its commands and options, reading inputs, calling the engine, rendering, exiting."""


import difflib
import gc
import inspect
import os
import signal
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, NoReturn, Optional

import orjson
import typer

from grounding import __version__
from grounding.cli.exits import Terminated, _fail, _is_utf8, stdout_unwritable
from grounding.cli.flags import HELP_SECTIONS, command_line, with_options
from grounding.cli.hook_commands import hook_app
from grounding.core.settings import shape_table
from grounding.core.text.normalise import normalise
from grounding.errors import GroundingError
from grounding.library import Options
from grounding.model import JudgedAnswer, Problem, Status, Summary
from grounding.options.config import describe, resolve, settings_from
from grounding.options.exit_codes import ExitCode
from grounding.run.baseline import Baseline
from grounding.run.report_file import check_target
from grounding.transcripts.folders import check_readable, expand
from grounding.transcripts.formats import FORMAT_DESCRIPTIONS, FORMAT_NAMES, resolve_format
from grounding.transcripts.remote import is_remote

HELP = """Check that the values in an agent's final answers were read, not invented.

Every number and identifier in an assistant's final answer must appear in a
tool result the conversation had already read; a name with no digit (a person,
a product) is checked only when a --shape declares its form. ground is a
fabrication detector, not a correctness judge: a false claim built from real
values passes.
"""

class _Command(typer.core.TyperCommand):
    """A command whose usage line writes a required repeated argument as POSIX does (FILE...), not typer's
    {FILE...}, and whose summary in the command list is its first sentence, whole."""

    def collect_usage_pieces(self, ctx: object) -> list[str]:
        return [piece[1:-1] if piece.startswith("{") and piece.endswith("}") else piece
                for piece in super().collect_usage_pieces(ctx)]

    def get_short_help_str(self, limit: int = 45) -> str:
        return super().get_short_help_str(limit=200)

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        """An unknown option is said in this CLI's words (a configuration key's: "did you mean"), naming only
        options close to it (``--formt``: ``--format``), not click's loose matches (``--frobnicate``:
        ``--format, --strict``)."""
        try:
            return super().parse_args(ctx, args)
        except Exception as error:  # click's NoSuchOption (typer's copy of click is private: told by its fields)
            if hasattr(error, "possibilities") and isinstance(getattr(error, "option_name", None), str):
                names = [name for param in self.params for name in (*param.opts, *param.secondary_opts)
                         if name.startswith("--")]
                close = difflib.get_close_matches(error.option_name, names, n=3, cutoff=0.8)
                error.possibilities = None
                error.message = f"No such option: {error.option_name}" + (
                    f"; did you mean {' or '.join(close)}?" if close else "")
            raise


class _SectionedCommand(_Command):
    """check: its options in sections (flags.HELP_SECTIONS), as ruff's --help has them, not one flat list."""

    def format_options(self, ctx: typer.Context, formatter: object) -> None:  # typer's own click's formatter
        records = {param.name: param.get_help_record(ctx) for param in self.get_params(ctx)}
        arguments = [records.pop(param.name) for param in self.get_params(ctx)
                     if param.param_type_name == "argument" and records.get(param.name)]
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        for title, names in HELP_SECTIONS:
            rows = [records.pop(name) for name in names if records.get(name)]
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)
        rest = [record for record in records.values() if record]  # --help, and an option no section names
        with formatter.section("Other options"):
            formatter.write_dl(rest)


app = typer.Typer(no_args_is_help=True, help=HELP, rich_markup_mode=None)  # --install-completion, --show-completion


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
    read before it (names with no digit only where a --shape declares them). A
    fabrication detector, not a correctness judge: a false claim built from real
    values passes.

    Exit status: 0 no answer flagged, 1 an answer flagged, 2 a usage error or
    no record could be read.
    """
    write_baseline = bool(flags["write_baseline"])
    try:
        options = resolve(command_line(flags), flags["config"])
        # what decides the verdicts and the exit status, as the library's; the HTML report shows every value's
        # provenance, so it is judged with explanations
        checked = Options.of(options.values, **({"explain": True} if options["output-format"] == "html" else {}))
        if options["input-format"] is not None:
            resolve_format(options["input-format"])
        if options["output-format"] == "html" and not options["output"] and _is_terminal(sys.stdout):
            raise GroundingError("--format html writes a web page, not terminal text: give -o report.html "
                                 "(or redirect standard output to a file)")
        if options["output-dir"] and (options["output"] or options["output-format"] not in ("full", "json-lines")):
            raise GroundingError("--output-dir writes the JSON Lines report, a file per input file: it takes "
                                 "neither --output nor another --output-format")
        if options["output-dir"] and not is_remote(options["output-dir"]):
            _refuse_inputs_in(options["output-dir"], expand([p for p in inputs if not is_remote(p)]))
        if write_baseline and options["baseline"] is None:
            raise GroundingError("--write-baseline needs --baseline FILE (or baseline in the configuration)")
        known = None if write_baseline or options["baseline"] is None else Baseline.load(Path(options["baseline"]))
        check_readable(inputs)
        if options["output"]:
            check_target("--output", options["output"], expand([p for p in inputs if not is_remote(p)]))
        if write_baseline:
            check_target("--baseline", options["baseline"], expand([p for p in inputs if not is_remote(p)]))
    except GroundingError as error:
        _fail(error)
    from grounding.cli.checking import _run  # (the engine: loaded by the commands that judge, not by --help)

    code = _run(inputs, checked, options, known, write_baseline)
    raise typer.Exit(int(code))


def _is_terminal(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):  # a stream without a terminal, or closed
        return False


def _refuse_inputs_in(folder: str, inputs: list[str]) -> None:
    """--output-dir must hold no input: its partitions would overwrite one, or be read as transcripts next time."""
    target = os.path.realpath(folder)
    for given in inputs:
        if given != "-" and os.path.realpath(given).startswith(target + os.sep):
            raise GroundingError(f"--output-dir {folder}: holds the input {given}; the partitions written there "
                                 "would mix with the transcripts (name another folder)")


_INPUTS = inspect.Parameter("inputs", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Annotated[
    list[str], typer.Argument(metavar="FILE...", help="Transcript files or folders, or - for standard input.")])
app.command(name="check", cls=_SectionedCommand)(with_options(check, [_INPUTS]))


def _shapes_table(specs: list[str] | None) -> dict[str, str] | None:
    """--shape NAME=REGEX options as the configuration's table."""
    return shape_table(specs) if specs else None


class ExplainFormat(str, Enum):
    """What ``ground explain`` writes: its own lines, or one JSON object per answer."""

    FULL = "full"
    JSON = "json"


def _asked_for(event: JudgedAnswer, conversation: str | None, turn: int | None, value: str | None = None) -> bool:
    """Whether ground explain shows an answer: the one asked for; when none is, every answer that writes the
    value asked for, or, with no value either, every flagged one."""
    if conversation is None:
        if value is not None:
            return any(entry.value == value for entry in event.explanation)
        return event.verdict.status is Status.FLAGGED
    return event.conversation == conversation and (turn is None or event.turn == turn)


def _print_explained(event: JudgedAnswer, entries: list, output_format: ExplainFormat) -> None:
    """One answer's explained values: a JSON object, or a line for the answer and one per value."""
    verdict = event.verdict
    if output_format is ExplainFormat.JSON:
        print(orjson.dumps({"conversation": event.conversation, "turn": event.turn, "status": verdict.status.value,
                            "reason": verdict.reason, "contract": verdict.contract.as_json() if verdict.contract else None,
                            "values": [e.as_json() for e in entries]}).decode())
        return
    print(f"{event.source}:{event.line} conversation {event.conversation} turn {event.turn}: {verdict.status.value}")
    if verdict.reason:
        print(f"  not judged for evidence: {verdict.reason}")
    if verdict.contract is not None and verdict.contract.stage:
        print(f"  not judged for evidence: contract unmet at {verdict.contract.stage}: {verdict.contract.error}")
    for entry in entries:
        print(f"  {entry.line()}")


def _listed(ids: dict[str, None], what: str, shown: int = 20) -> str:
    """what the input holds, the first few of ids by name: "its conversations: a, b, … (40 in all)"."""
    if not ids:
        return "it holds no conversation with an id"
    names = list(ids)
    more = f", … ({len(names)} in all)" if len(names) > shown else ""
    return f"{what}: {', '.join(names[:shown])}{more}"


@app.command(name="explain", cls=_Command)
def explain_command(
    inputs: Annotated[list[str], typer.Argument(metavar="FILE...", help="Transcript files or folders, or -.")],
    conversation: Annotated[Optional[str], typer.Option(
        "--conversation", metavar="ID", help="The conversation to explain [default: every flagged answer].")] = None,
    turn: Annotated[Optional[int], typer.Option("--turn", metavar="K", help="Only answer K (0-based).")] = None,
    value: Annotated[Optional[str], typer.Option(
        "--value", metavar="V", help="Only this value (without --conversation: every answer writing it).")] = None,
    output_format: Annotated[
        ExplainFormat, typer.Option("--output-format", "--format", help="full (default) or json.")
    ] = ExplainFormat.FULL,
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
    pointer), or, when it was not, the nearest values that were read. Without --conversation, every flagged
    answer is explained."""
    try:
        options = resolve({"shapes": _shapes_table(shape), "exempt": exempt}, config)
        settings = settings_from(options)
        check_readable(inputs)
    except GroundingError as error:
        _fail(error)
    if conversation is None and turn is not None:
        _fail(GroundingError("--turn chooses within one conversation: give --conversation ID too"))
    wanted = None if value is None else normalise(value)
    shown = 0
    values_seen: list[str] = []
    ids: dict[str, None] = {}  # the conversations the input holds, in order: named when the one asked for is not
    from grounding.run.runner import judge_inputs

    for event in judge_inputs(inputs, settings, Summary(), options["input-format"], explain=True):
        if isinstance(event, Problem):
            print(f"error: {event.source}{'' if event.line is None else f':{event.line}'}: {event.message}",
                  file=sys.stderr)
            continue
        if event.conversation is not None:
            ids[event.conversation] = None
        if not _asked_for(event, conversation, turn, wanted):
            continue
        shown += 1
        values_seen += [e.text for e in event.explanation]
        entries = [e for e in event.explanation if wanted is None or e.value == wanted]
        if entries or wanted is None:
            _print_explained(event, entries, output_format)
    _say_what_was_not_found(conversation, turn, value, shown, list(ids), values_seen)


def _say_what_was_not_found(conversation: str | None, turn: int | None, value: str | None, shown: int,
                            ids: list[str], values_seen: list[str]) -> None:
    """ground explain's end: the answer or value asked for that the input does not hold, as a usage error."""
    if conversation is None:
        if value is not None and not shown:
            _fail(GroundingError(f"--value {value!r}: no answer in the input writes it"))
        if not shown:
            print("no answer flagged in the input: nothing to explain (--conversation ID explains any answer)",
                  file=sys.stderr)
        return
    where = f"--conversation {conversation!r}" + (f" --turn {turn}" if turn is not None else "")
    if not shown:
        held = _listed(dict.fromkeys(ids), "its conversations")
        _fail(GroundingError(f"{where}: no such answer in the input ({held})"))
    if value is not None and not any(normalise(text) == normalise(value) for text in values_seen):
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


app.add_typer(hook_app, name="hook")


















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
    except OSError as error:  # a full disk under the report's last lines: said, unless the run said it already
        if code != ExitCode.ERROR:
            print(f"error: {stdout_unwritable(error)}", file=sys.stderr)
        code = int(ExitCode.ERROR)
    try:
        sys.stderr.flush()
    except OSError:
        pass  # nowhere left to say anything
    os._exit(code)
