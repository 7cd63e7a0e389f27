"""Which files a run reads: paths as given, folders searched for transcripts (sorted, so runs repeat, and
passing over what --exclude names), URLs listed or globbed in their storage."""

from __future__ import annotations

import fnmatch
import os
import stat
from collections.abc import Callable, Sequence

from grounding.errors import InputError
from grounding.transcripts.names import is_transcript_name
from grounding.transcripts.remote import StorageOptions, expand_remote, is_remote


def check_readable(paths: list[str]) -> None:
    """Refuse, before anything is judged, a local path that does not exist (a URL is asked when expanded)."""
    for path in paths:
        if path != "-" and not is_remote(path) and not os.path.exists(path):
            raise InputError(f"{path}: No such file or directory")


# Folders a search of a folder never enters (as ruff's defaults): version control, environments, caches.
# --exclude replaces this list, --extend-exclude adds to it; a file named on the command line is read whatever.
DEFAULT_EXCLUDE = (".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", "node_modules", "__pycache__",
                   ".mypy_cache", ".pytest_cache", ".ruff_cache", "site-packages")


def expand(paths: list[str], *, follow_links: bool = False, storage_options: StorageOptions | None = None,
           exclude: Sequence[str] = DEFAULT_EXCLUDE) -> list[str]:
    """The files to read: files as given, folders searched for transcripts (sorted, so runs repeat), and URLs
    listed or globbed in their storage (transcripts.remote).

    A symbolic link that leads out of a folder given on the command line is
    not followed unless asked: a transcript folder must not read elsewhere. In
    a folder, a file or folder matching an exclude glob (by its name, or its
    path below the folder given) is passed over.
    """
    files: list[str] = []
    for path in paths:
        if is_remote(path):
            files.extend(expand_remote(path, storage_options))
            continue
        if path == "-" or not os.path.isdir(path):
            files.append(path)
            continue
        root = os.path.realpath(path)
        # a folder that cannot be listed is kept as an input: reading it reports it (never skipped unsaid)
        for folder, subfolders, names in os.walk(path, followlinks=follow_links, onerror=_keep_unlisted(files)):
            subfolders[:] = sorted(name for name in subfolders
                                   if not excluded(os.path.join(folder, name), path, exclude))
            for name in sorted(names):
                full = os.path.join(folder, name)
                if not is_transcript_name(name) or excluded(full, path, exclude):
                    continue
                if not follow_links and not os.path.realpath(full).startswith(root + os.sep):
                    continue
                files.append(Found(full) if _is_regular(full) else NotRegular(full))
    return files


def excluded(path: str, top: str, patterns: Sequence[str]) -> bool:
    """Whether a path found below the folder top matches a glob: by its name (``*.schema.json``,
    ``node_modules``) or by its path below top (``fixtures/*.json``, ``archive/**``).

    >>> excluded("logs/archive/a.jsonl", "logs", ["archive/*"]), excluded("logs/a.jsonl", "logs", ["b*"])
    (True, False)
    """
    name = os.path.basename(path)
    below = os.path.relpath(path, top).replace(os.sep, "/")
    return any(fnmatch.fnmatchcase(name, pattern) or fnmatch.fnmatchcase(below, pattern.rstrip("/"))
               for pattern in patterns)


class Found(str):
    """A path found by searching a folder, not named on the command line: a ``.json`` document there that
    is in no transcript format (a schema, a package.json) is skipped and counted, not an error."""


class NotRegular(Found):
    """A path found in a folder that is no regular file (a FIFO, a socket, a device): reading it could block
    the run forever, so it is reported, not read. Named on the command line, it is read (``<(cmd)``)."""


def _is_regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:  # gone, or unreadable: opening it reports why
        return True


def _keep_unlisted(files: list[str]) -> Callable[[OSError], None]:
    def keep(error: OSError) -> None:
        if error.filename is not None:
            files.append(os.fsdecode(error.filename))

    return keep
