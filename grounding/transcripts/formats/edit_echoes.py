"""What a file-editing tool's result echoes of the agent's own input is not evidence (issue 48, §9.26).

Claude Code's ``Edit``, ``MultiEdit``, ``Write`` and ``NotebookEdit`` answer with the edited file's lines
around the change (``     12→new line``): the lines the agent typed into the call, said back. Read as a
tool result they would ground whatever the agent wrote, an example value it made up included. Each echoed
line keeps its line number (a ``path:line`` the agent cites after an edit was read there) and loses the
text the agent typed; the lines the file held around the change stay as read.
"""

from __future__ import annotations

import re

import orjson

EDITING_TOOLS = frozenset({"Edit", "MultiEdit", "Write", "NotebookEdit"})
_NUMBERED_LINE = re.compile(r"^(\s*\d+→)(.*)$", re.MULTILINE)
_TYPED_KEYS = ("new_string", "content", "new_source")


def without_echo(result: str, arguments: str | None) -> str:
    """result with the text of every numbered line the call's input holds taken out (its number kept)."""
    typed = _typed(arguments)
    if not typed:
        return result

    def unechoed(line: re.Match) -> str:
        text = line.group(2).strip()
        return line.group(1) if text and text in typed else line.group(0)

    return _NUMBERED_LINE.sub(unechoed, result)


def _typed(arguments: str | None) -> str:
    """The text the call's input wrote into the file, its pieces joined by newlines ("" when none)."""
    if not arguments:
        return ""
    try:
        value = orjson.loads(arguments)
    except orjson.JSONDecodeError:
        return ""
    if not isinstance(value, dict):
        return ""
    pieces = [value.get(key) for key in _TYPED_KEYS]
    edits = value.get("edits")
    if isinstance(edits, list):
        pieces += [edit.get("new_string") for edit in edits if isinstance(edit, dict)]
    return "\n".join(piece for piece in pieces if isinstance(piece, str))
