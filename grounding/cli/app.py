"""The ``ground`` console script (``grounding.cli.app:main``).

``ground --version`` is answered before the command line's libraries load: a stop hook or a pre-commit
run that asks it pays the interpreter and this package's face, not typer and the engine. Every other
command is grounding.cli.commands' (``app`` and its other names are read from there on first use).
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn


def main() -> NoReturn:
    """Console-script entry point."""
    if sys.argv[1:] in (["--version"], ["-V"]):
        from grounding import __version__

        try:
            print(f"ground {__version__}", flush=True)
        except BrokenPipeError:  # the reader left (``ground --version | true``): quietly, as every command
            os._exit(1)
        raise SystemExit(0)
    from grounding.cli.commands import main as run

    run()


def __getattr__(name: str) -> object:
    """app, the commands and their helpers: grounding.cli.commands', loaded on first use. (Not a dunder:
    the import system asks for ``__path__`` of every module it imports from.)"""
    if name.startswith("__"):
        raise AttributeError(f"module 'grounding.cli.app' has no attribute {name!r}")
    from grounding.cli import commands

    return getattr(commands, name)
