"""What a coding session read in code's own notation (SPEC §9.26): line numbers, which ``path:line`` in an
answer cites, and IPv4 addresses written as tuples.

A coding agent that read a file with numbered lines (Claude Code's ``Read``: ``    88→``, ``cat -n``:
``    88<TAB>``), searched it with ``grep -n`` (``src/cache.py:88:``) or read a traceback (``File "x.py",
line 88``) may cite ``src/cache.py:88``. Each such number is kept with the file it belongs to, where the
result or its call says (the call's ``file_path``, the path grep prints, an edit's "The file … has been
updated"); a number whose file is not known is kept for any file.
"""

from __future__ import annotations

import re

_NUMBERED = re.compile(r"^[ \t]*(\d{1,6})(?:→|\t)", re.MULTILINE)
_GREP = re.compile(r"^(?:(?P<path>[^\s:]+):)?(?P<line>\d{1,6})[:-]", re.MULTILINE)
_TRACEBACK = re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d{1,6})')
_FILE_ARGUMENT = re.compile(r'"(?:file_path|filePath|path|notebook_path)"\s*:\s*"(?P<path>[^"]+)"')
_EDITED = re.compile(r"^The file (?P<path>\S+) has been (?:updated|created)")

Mark = tuple[str | None, int]  # (the file's name, or None when not known; the line number)


def line_marks(text: str, arguments: str | None) -> set[Mark]:
    """The line numbers text shows as line numbers, each with its file's name.

    >>> sorted(line_marks("     1→import os\\n     2→x = 1", '{"file_path": "/srv/app/src/cache.py"}'))
    [('cache.py', 1), ('cache.py', 2)]
    >>> sorted(line_marks("src/cache.py:88:    return hit", None)), sorted(line_marks("412:.row {", None))
    ([('cache.py', 88)], [(None, 412)])
    """
    if not any(mark in text for mark in ("→", "\t", ":", "line ")):
        return set()
    known = _FILE_ARGUMENT.search(arguments or "") or _EDITED.search(text)
    file = name_of(known.group("path")) if known else None
    marks: set[Mark] = {(file, int(line)) for line in _NUMBERED.findall(text)}
    for match in _GREP.finditer(text):
        marks.add((name_of(match.group("path")) if match.group("path") else file, int(match.group("line"))))
    marks.update((name_of(path), int(line)) for path, line in _TRACEBACK.findall(text))
    return marks


# An IPv4 address written as a tuple or list of four numbers (Elixir's and Erlang's {127, 0, 0, 1}), and a
# port given beside it (port: 4000, "port" => 4000)
_ADDRESS_TUPLE = re.compile(r"[{\[(]\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*[}\])]")
_PORT_BESIDE = re.compile(r"""[^{}\[\]]{0,40}?\bport["']?\s*(?::|=>?|,)\s*(\d{1,5})\b""")


def addresses(text: str) -> set[str]:
    """The dotted forms of the IPv4 addresses text writes as tuples, with ``:port`` where a port is given
    beside one (§9.26).

    >>> sorted(addresses("config :app, http: [ip: {127, 0, 0, 1}, port: 4000]"))
    ['127.0.0.1', '127.0.0.1:4000']
    """
    found = set()
    for match in _ADDRESS_TUPLE.finditer(text):
        if all(int(part) <= 255 for part in match.groups()):
            dotted = ".".join(str(int(part)) for part in match.groups())
            found.add(dotted)
            port = _PORT_BESIDE.match(text, match.end())
            if port is not None:
                found.add(f"{dotted}:{port.group(1)}")
    return found


def name_of(path: str) -> str:
    """A path's last part: what a mark is keyed by (an answer writes the path from wherever it likes)."""
    return path.rstrip("/").rsplit("/", 1)[-1]
