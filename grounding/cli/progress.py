"""Progress on standard error for long runs — never on standard output, never on a line of the report.

Shown only when standard error is an interactive terminal and ``CI`` is not set, and only once a run has
taken a second; ``--no-progress`` and ``--quiet`` turn it off. Where the size of every input is known (plain files) it is a bar with the bytes
read of the total, the rate and the time left; otherwise (standard input, compressed files) a spinner.

It is drawn on one line with a carriage return, from the thread that reads the inputs, and only there:
a report line written to the same terminal first erases it (``guard`` wraps the report's streams), so
the two never share a line. A background thread that redraws (rich's) cannot promise that.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from typing import TextIO

from grounding.model import Problem, Record
from grounding.reporters.summary import counted

_SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
_ERASE = "\r\x1b[K"
_REDRAW_SECONDS = 0.1
_FIRST_AFTER_SECONDS = 1.0  # a run done sooner shows none: a flash of a bar on a small input is noise
_BAR_CELLS = 20


class Progress:
    def __init__(self, terminal: TextIO | None, total_bytes: int | None = None) -> None:
        self._terminal = terminal
        self._total = total_bytes or None
        self._records = 0
        self._bytes = 0
        self._sources: set[str] = set()
        self._started = time.monotonic()
        self._last = 0.0
        self._drawn = False

    @classmethod
    def start(cls, *, enabled: bool, total_bytes: int | None = None, terminal: TextIO | None = None) -> Progress:
        """A display on terminal (standard error by default), or a silent one where none may be drawn."""
        terminal = terminal or sys.stderr
        if not enabled or os.environ.get("CI") or os.environ.get("GROUND_NO_PROGRESS") or not _isatty(terminal):
            return cls(None)
        return cls(terminal, total_bytes)

    @property
    def shown(self) -> bool:
        return self._terminal is not None

    def advance(self, record: Record | Problem) -> None:
        if self._terminal is None:
            return
        self._records += 1
        self._bytes += getattr(record, "size", 0)
        self._sources.add(record.source)
        now = time.monotonic()
        if now - self._last >= _REDRAW_SECONDS and now - self._started >= _FIRST_AFTER_SECONDS:
            self._last = now
            self._draw(now)

    def line(self, now: float) -> str:
        """The text of the display at time now."""
        elapsed = max(now - self._started, 1e-6)
        rate = self._bytes / elapsed
        files = counted(len(self._sources), "file")
        records = counted(self._records, "record")
        if self._total is None:
            spinner = _SPINNER[int(elapsed * 10) % len(_SPINNER)]
            return f"{spinner} reading {_size(self._bytes)}  {_size(rate)}/s  {_clock(elapsed)}  {files}, {records}"
        done = min(self._bytes / self._total, 1.0)
        filled = int(done * _BAR_CELLS)
        bar = "━" * filled + " " * (_BAR_CELLS - filled)
        left = (self._total - self._bytes) / rate if rate > 0 else 0.0
        return (f"reading [{bar}] {done:4.0%}  {_size(self._bytes)} of {_size(self._total)}  {_size(rate)}/s  "
                f"{_clock(max(left, 0.0))} left  {files}, {records}")

    def clear(self) -> None:
        """Erase the display, so that what is written next starts a clean line."""
        if self._drawn and self._terminal is not None:
            self._terminal.write(_ERASE)
            self._terminal.flush()
            self._drawn = False

    def stop(self) -> None:
        self.clear()
        self._terminal = None

    def guard(self, stream: TextIO) -> TextIO:
        """stream, erasing the display before each write when the display is shown."""
        return stream if self._terminal is None else _Guarded(stream, self)

    def _draw(self, now: float) -> None:
        width = max(shutil.get_terminal_size((80, 24)).columns - 1, 10)  # a wrapped line: erased by no return
        text = self.line(now)
        if len(text) > width:  # whole fields only ("0:00:01 lef" read as a typo)
            text = text[:width].rsplit("  ", 1)[0]
        self._terminal.write(_ERASE + text)
        self._terminal.flush()
        self._drawn = True


class _Guarded:
    """A text stream that erases the progress display before anything is written to it."""

    def __init__(self, stream: TextIO, progress: Progress) -> None:
        self._stream = stream
        self._progress = progress

    def write(self, text: str) -> int:
        if text:
            self._progress.clear()
        return self._stream.write(text)

    def __getattr__(self, name: str) -> object:  # isatty, fileno, flush, encoding…: the stream's own
        return getattr(self._stream, name)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False



def _size(size: float) -> str:
    """Bytes as a person reads them: "812 B", "41.2 kB", "3.8 MB", "1.2 GB"."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size:.0f} B"


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{secs:02d}"
