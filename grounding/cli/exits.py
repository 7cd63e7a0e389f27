"""How the command line fails and exits: an error's one line and exit status 2, SIGTERM as an interrupt, the
encoding test of a standard stream. Kept apart from checking (the run itself) so that the commands load
without the engine."""

from __future__ import annotations

import sys

import typer

from grounding.options.exit_codes import ExitCode


def stdout_unwritable(error: OSError) -> str:
    return f"cannot write the report to standard output ({error.strerror or error})"


def _fail(error: Exception) -> None:
    print(f"error: {error}", file=sys.stderr)
    raise typer.Exit(int(ExitCode.ERROR))


class Terminated(KeyboardInterrupt):
    """SIGTERM: the run stops as at Ctrl-C (its report closed, whole), and exits 143."""


def _is_utf8(stream: object) -> bool:
    return (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "") in ("utf8", "utf8sig")
