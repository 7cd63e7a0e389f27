"""The ``ground`` command: parse options, read inputs, call the engine, render, exit."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Optional

import typer

from grounding import __version__
from grounding.errors import GroundingError
from grounding.exit_codes import ExitCode, exit_code
from grounding.inputs import Problem, check_readable
from grounding.readers import FORMAT_DESCRIPTIONS, FORMAT_NAMES, resolve_format
from grounding.report import Summary
from grounding.reporters import OutputFormat, make_reporter
from grounding.runner import judge_inputs
from grounding.settings import Settings, build_settings

HELP = """Check that the values in an agent's final answers were read, not invented.

Every number, identifier and name in an assistant's final answer must appear in
a tool result the conversation had already read. ground is a fabrication
detector, not a correctness judge: a false claim built from real values passes.
"""

app = typer.Typer(no_args_is_help=True, add_completion=False, help=HELP, rich_markup_mode=None)


def _version(value: bool) -> None:
    if value:
        print(f"ground {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[
        Optional[bool], typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = None,
) -> None:
    """Check that the values in an agent's final answers were read, not invented."""


@app.command()
def check(
    inputs: Annotated[list[str], typer.Argument(metavar="FILE", help="Transcript files (JSON Lines or .json), or - for standard input.")],
    output_format: Annotated[
        OutputFormat, typer.Option("--output-format", "--format", help="How to report: full (terminal) or json.")
    ] = OutputFormat.FULL,
    shape: Annotated[
        Optional[list[str]],
        typer.Option("--shape", metavar="NAME=REGEX", help="Declare a value shape (repeatable); matched against a whole token, any case."),
    ] = None,
    exempt: Annotated[
        Optional[list[str]], typer.Option("--exempt", metavar="VALUE", help="A value never flagged (repeatable).")
    ] = None,
    exempt_regex: Annotated[
        Optional[list[str]],
        typer.Option("--exempt-regex", metavar="REGEX", help="Values matching this are never flagged (repeatable)."),
    ] = None,
    min_digits: Annotated[int, typer.Option("--min-digits", metavar="N", help="Digits a bare number needs to be examined.")] = 4,
    no_derived: Annotated[
        bool, typer.Option("--no-derived", help="Do not explain numbers by arithmetic over read numbers (§9.7, §9.9).")
    ] = False,
    fail_on_derived: Annotated[
        bool, typer.Option("--fail-on-derived", help="Exit 1 when an answer holds a derived value.")
    ] = False,
    fail_on_example: Annotated[
        bool, typer.Option("--fail-on-example", help="Exit 1 when an example value is reported.")
    ] = False,
    exit_zero: Annotated[bool, typer.Option("--exit-zero", help="Exit 0 even when answers are flagged.")] = False,
    input_format: Annotated[
        Optional[str], typer.Option("--input-format", metavar="NAME", help=f"Force a transcript format: {', '.join(FORMAT_NAMES)}.")
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List grounded answers too.")] = False,
) -> None:
    """Judge every final answer in the given transcripts.

    Every number and identifier in a final answer must appear in a tool result
    read before it. A fabrication detector, not a correctness judge: a false
    claim built from real values passes.

    Exit status: 0 no answer flagged, 1 an answer flagged, 2 a usage error or
    no record could be read.
    """
    try:
        settings = build_settings(
            shape,
            exempt,
            exempt_regex,
            min_digits,
            derived=not no_derived,
            fail_on_derived=fail_on_derived,
            fail_on_example=fail_on_example,
            exit_zero=exit_zero,
        )
        if input_format is not None:
            resolve_format(input_format)
        check_readable(inputs)
    except GroundingError as error:
        _fail(error)
    code = _run(inputs, settings, output_format, input_format, verbose)
    raise typer.Exit(int(code))


@app.command()
def formats() -> None:
    """List the transcript formats ground reads, in the order it tries them on each record."""
    for name in FORMAT_NAMES:
        print(f"{name:<18} {FORMAT_DESCRIPTIONS[name]}")


def _run(
    inputs: list[str], settings: Settings, output_format: OutputFormat, input_format: str | None, verbose: bool
) -> ExitCode:
    reporter = make_reporter(output_format, sys.stdout, sys.stderr, verbose=verbose)
    summary = Summary()
    try:
        for event in judge_inputs(inputs, settings, summary, input_format):
            if isinstance(event, Problem):
                reporter.problem(event)
            else:
                reporter.answer(event)
    except GroundingError as error:
        _fail(error)
    except KeyboardInterrupt:
        reporter.finish(summary)
        return ExitCode.INTERRUPTED
    reporter.finish(summary)
    sys.stdout.flush()
    return exit_code(summary, settings)


def _fail(error: Exception) -> None:
    print(f"error: {error}", file=sys.stderr)
    raise typer.Exit(int(ExitCode.ERROR))


def main() -> None:
    """Console-script entry point: a closed downstream pipe ends the run quietly."""
    try:
        app()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)
