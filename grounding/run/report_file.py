"""Files a run writes (the report, a baseline): checked before any input is read, written whole or not at all.

A file is written to a temporary file beside its target and renamed into place once complete, so a run
that fails or is stopped never leaves half a file, nor replaces the one already there. A target that is
one of the run's inputs is refused: writing it would destroy the transcript before it is read.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TextIO

from grounding.errors import OptionError


def check_target(option: str, path: str, inputs: Iterable[str]) -> None:
    """Raise OptionError when path cannot be written as a whole file, or is one of the inputs."""
    if os.path.isdir(path):
        raise OptionError(f"{option} {path}: is a folder; name a file, e.g. {os.path.join(path, 'report.txt')}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise OptionError(f"{option} {path}: no such folder {folder}; create it first")
    if not os.access(folder, os.W_OK):
        raise OptionError(f"{option} {path}: the folder {folder} is not writable")
    for given in inputs:
        if given != "-" and _same_file(path, given):
            raise OptionError(f"{option} {path}: is one of the inputs; writing it would destroy the transcript "
                              "(name another file)")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): compare where they would be
        return os.path.realpath(a) == os.path.realpath(b)


class AtomicFile:
    """A text file written beside its target and renamed onto it by commit(); discard() leaves no trace.

    Only a regular file (or a new one) is replaced so: a target that is a device, a pipe or a terminal
    (``-o /dev/stdout``) is written in place, as renaming onto it would replace the device itself; a
    symbolic link's target is replaced, not the link.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._temporary: str | None = None
        if os.path.exists(path) and not os.path.isfile(path):
            self.stream: TextIO = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed by commit
            return
        self._target = os.path.realpath(path)
        folder, name = os.path.split(self._target)
        import tempfile  # (a run that writes no report file starts without it)

        # a hidden name with no transcript suffix: a folder being read never picks it up as an input
        descriptor, self._temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=folder)
        self.stream = os.fdopen(descriptor, "w", encoding="utf-8")

    def commit(self) -> None:
        self.stream.close()
        if self._temporary is None:
            return
        if os.path.exists(self._target):  # keep the mode of the file replaced; mkstemp makes it 0600
            os.chmod(self._temporary, os.stat(self._target).st_mode & 0o7777)
        else:
            os.chmod(self._temporary, 0o666 & ~_umask())
        os.replace(self._temporary, self._target)

    def discard(self) -> None:
        if not self.stream.closed:
            try:
                self.stream.close()
            except OSError:  # what could not be written is dropped with the file
                pass
        if self._temporary is not None:
            try:
                os.unlink(self._temporary)
            except FileNotFoundError:
                pass


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
