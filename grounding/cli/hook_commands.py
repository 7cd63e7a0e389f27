"""``ground hook``: the stop hook of Claude Code and Codex, and the settings that install it.

A hook command must never trap the agent it runs in: its options are checked here, not by the parser
(whose usage error exits with status 2, which Claude Code reads as a block), and a bad one is said on
standard error with exit status 1, which the harnesses show the user and then let the agent stop.
"""

import shutil
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from grounding.errors import GroundingError
from grounding.hooks import POSTURES, RAILS_CAP

hook_app = typer.Typer(
    no_args_is_help=True, rich_markup_mode=None,
    help="Run ground as a coding agent's stop hook.\n\nThe hook judges each final message of a Claude Code or "
         "Codex session when the agent stops, and blocks a stop whose message states a value the session never "
         "read. 'ground hook install HARNESS' prints the settings that register it.")

_LENIENT = {"ignore_unknown_options": True, "allow_extra_args": True}
_POSTURE_HELP = "assist (never blocks), guard (blocks once per turn) or rails (blocks up to --cap times)."


def _hook(harness: str, ctx: typer.Context, posture: str, log: Optional[str], cap: str, config: Optional[str]) -> None:
    problem = _option_problem(ctx.args, posture, cap, config)
    if problem:
        print(f"ground hook {harness}: {problem}; the stop is allowed", file=sys.stderr)
        raise typer.Exit(1)
    from grounding.hooks.run import run_hook  # (the engine: loaded when a hook runs, not by --help)

    result = run_hook(harness, sys.stdin.buffer.read(), posture=posture, log=log, cap=int(cap),
                      config=Path(config) if config else None)
    if result.stdout:
        print(result.stdout)
    if result.stderr:
        print(result.stderr, file=sys.stderr)
    raise typer.Exit(result.exit_code)


def _option_problem(extra: list[str], posture: str, cap: str, config: Optional[str]) -> str | None:
    if extra:
        return f"unknown option or argument {' '.join(extra)!r} (see ground hook claude-code --help)"
    if posture not in POSTURES:
        return f"--posture {posture!r}: choose one of {', '.join(POSTURES)}"
    if not cap.isdigit() or int(cap) < 1:
        return f"--cap {cap!r}: a whole number of blocks, 1 or more"
    if config and not Path(config).is_file():
        return f"--config {config}: No such file"
    return None


_Posture = Annotated[str, typer.Option("--posture", metavar="POSTURE", help=_POSTURE_HELP)]
_Log = Annotated[Optional[str], typer.Option("--log", metavar="FILE", help="Append one JSON line per stop to FILE.")]
_Cap = Annotated[str, typer.Option("--cap", metavar="N", help="rails: blocks per turn.")]
_Config = Annotated[Optional[str], typer.Option(
    "--config", metavar="FILE",
    help="Read options from FILE [default: ground.toml or [tool.ground] from the session's cwd up].")]


@hook_app.command(name="claude-code", context_settings=_LENIENT)
def claude_code(ctx: typer.Context, posture: _Posture = "guard", log: _Log = None, cap: _Cap = str(RAILS_CAP),
                config: _Config = None) -> None:
    """Judge the turn a Claude Code Stop or SubagentStop hook ends.

    Reads the hook's JSON on standard input, judges the final message against the session's tool results,
    and blocks the stop ({"decision": "block", "reason": ...}) when it states a value the session never
    read. Anything it cannot read allows the stop (said on standard error)."""
    _hook("claude-code", ctx, posture, log, cap, config)


@hook_app.command(name="codex", context_settings=_LENIENT)
def codex(ctx: typer.Context, posture: _Posture = "guard", log: _Log = None, cap: _Cap = str(RAILS_CAP),
          config: _Config = None) -> None:
    """Judge the turn a Codex Stop or SubagentStop hook ends.

    The same contract as claude-code: the hook's JSON on standard input, a block on standard output."""
    _hook("codex", ctx, posture, log, cap, config)


@hook_app.command(name="install")
def install(
    harness: Annotated[str, typer.Argument(metavar="HARNESS", help="claude-code or codex.")],
    write: Annotated[bool, typer.Option("--write", help="Merge the settings into the project's file.")] = False,
    project: Annotated[Path, typer.Option("--project", metavar="DIR",
                                          help="The project folder [default: .].")] = Path("."),
    posture: Annotated[str, typer.Option("--posture", metavar="POSTURE", help=_POSTURE_HELP)] = "guard",
    log: Annotated[Optional[str], typer.Option("--log", metavar="FILE", help="The hook's log file.")] = None,
) -> None:
    """Print the settings that register the hook.

    With --write they are merged into the project's .claude/settings.json (claude-code) or .codex/hooks.json
    (codex), keeping what the file holds."""
    from grounding.hooks.install import SETTINGS_FILES, hook_command, settings_block, write_settings
    from grounding.hooks.payload import HARNESSES  # (here: every other command of the CLI starts without them)

    if harness not in HARNESSES:
        _usage(f"HARNESS {harness!r}: choose one of {', '.join(HARNESSES)}")
    if posture not in POSTURES:
        _usage(f"--posture {posture!r}: choose one of {', '.join(POSTURES)}")
    command = hook_command(harness, posture, log)
    if shutil.which("ground") is None:
        print("warning: ground is not on this PATH; the harness runs the command through its shell, so make "
              "sure ground is on the PATH it sees (or write the full path to it in the command)", file=sys.stderr)
    if not write:
        import orjson

        print(orjson.dumps(settings_block(command), option=orjson.OPT_INDENT_2).decode())
        return
    path = project / SETTINGS_FILES[harness]
    try:
        changed = write_settings(path, harness, command)
    except GroundingError as error:
        _usage(str(error))
    print(f"{path}: {'the hook is registered' if changed else 'already registered; nothing changed'}"
          f" (Stop and SubagentStop run: {command})")


def _usage(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(2)
