"""The settings that register the hook with a harness, printed or merged into the harness's own file.

Claude Code reads hooks from ``.claude/settings.json`` (a project's; ``~/.claude/settings.json`` for every
project), Codex from ``.codex/hooks.json``. Both take the same shape: under ``hooks``, an event name, a list
of matcher groups, each with its ``hooks`` (``{"type": "command", "command": …, "timeout": …}``). Merging
keeps everything the file holds; a group that already runs ``ground hook`` for this harness is updated in
place, never added twice. The file is replaced whole (a new file renamed over it), so a failed write leaves
the old one as it was.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import orjson

from grounding.errors import GroundingError
from grounding.run.report_file import AtomicFile

SETTINGS_FILES = {"claude-code": Path(".claude/settings.json"), "codex": Path(".codex/hooks.json")}
EVENTS = ("Stop", "SubagentStop")
TIMEOUT_SECONDS = 30  # the harness kills a hook after this; a 5 MB session is judged in well under a second


def hook_command(harness: str, posture: str = "guard", log: str | None = None, program: str = "ground") -> str:
    """The command line the harness runs."""
    words = [program, "hook", harness]
    if posture != "guard":
        words += ["--posture", posture]
    if log:
        words += ["--log", shlex.quote(log)]
    return " ".join(words)


def settings_block(command: str) -> dict:
    """The hooks table that runs command on every stop and sub-agent stop."""
    handler = {"type": "command", "command": command, "timeout": TIMEOUT_SECONDS}
    return {"hooks": {event: [{"hooks": [dict(handler)]}] for event in EVENTS}}


def merged(existing: dict, harness: str, command: str) -> tuple[dict, bool]:
    """existing settings with the hook registered; True when anything changed."""
    settings = dict(existing)
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise GroundingError(f'"hooks" must be a JSON object, not {type(hooks).__name__}: fix it, or register '
                             "the hook by hand with the block printed without --write")
    hooks = dict(hooks)
    changed = False
    for event in EVENTS:
        groups = hooks.get(event, [])
        if not isinstance(groups, list):
            raise GroundingError(f'"hooks.{event}" must be a list of matcher groups, not {type(groups).__name__}')
        groups = [dict(group) if isinstance(group, dict) else group for group in groups]
        ours = [handler for group in groups if isinstance(group, dict)
                for handler in group.get("hooks", []) if _is_ours(handler, harness)]
        for handler in ours:
            if handler.get("command") != command:
                handler["command"], changed = command, True
        if not ours:
            groups.append({"hooks": [{"type": "command", "command": command, "timeout": TIMEOUT_SECONDS}]})
            changed = True
        hooks[event] = groups
    settings["hooks"] = hooks
    return settings, changed


def write_settings(path: Path, harness: str, command: str) -> bool:
    """Register the hook in the settings file at path (created when missing); True when it changed."""
    existing: dict = {}
    if path.exists():
        try:
            existing = orjson.loads(path.read_bytes())
        except orjson.JSONDecodeError as error:
            raise GroundingError(f"{path}: not valid JSON ({error}); it was left as it is: fix it, or add the "
                                 "block printed without --write by hand") from None
        except OSError as error:
            raise GroundingError(f"{path}: cannot read: {error.strerror or error}") from None
        if not isinstance(existing, dict):
            raise GroundingError(f"{path}: must hold a JSON object; it was left as it is")
    settings, changed = merged(existing, harness, command)
    if changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        target = AtomicFile(str(path))  # written beside it and renamed onto it: a failed write keeps the old one
        try:
            target.stream.write(orjson.dumps(settings, option=orjson.OPT_INDENT_2).decode() + "\n")
            target.commit()
        except BaseException:
            target.discard()
            raise
    return changed


def _is_ours(handler: object, harness: str) -> bool:
    if not isinstance(handler, dict) or not isinstance(handler.get("command"), str):
        return False
    words = handler["command"].split()
    return any(words[at:at + 2] == ["hook", harness] and os.path.basename(words[at - 1]).startswith("ground")
               for at in range(1, len(words) - 1))
