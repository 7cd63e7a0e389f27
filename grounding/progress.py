"""A progress bar on standard error for long runs: files, records, MB/s — never on standard output.

Shown only when standard error is an interactive terminal and ``CI`` is not
set (rich would otherwise animate into logs); ``--no-progress`` and
``--quiet`` turn it off.
"""

from __future__ import annotations

import os
import sys
import time

from grounding.inputs import Problem, Record


class Progress:
    def __init__(self, display: object | None) -> None:
        self._display = display
        self._task = None
        self._records = 0
        self._bytes = 0
        self._sources: set[str] = set()
        self._started = time.monotonic()
        self._last = 0.0

    @classmethod
    def start(cls, *, enabled: bool) -> Progress:
        if not enabled or os.environ.get("CI") or not sys.stderr.isatty() or os.environ.get("GROUND_NO_PROGRESS"):
            return cls(None)
        from rich.console import Console
        from rich.progress import Progress as Bar
        from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn

        bar = Bar(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True)
        bar.start()
        progress = cls(bar)
        progress._task = bar.add_task("reading", total=None)
        return progress

    def advance(self, record: Record | Problem) -> None:
        if self._display is None:
            return
        self._records += 1
        self._bytes += getattr(record, "size", 0)
        self._sources.add(record.source)
        now = time.monotonic()
        if now - self._last < 0.1:
            return
        self._last = now
        rate = self._bytes / 1e6 / max(now - self._started, 1e-6)
        self._display.update(self._task, description=(
            f"{len(self._sources)} files, {self._records} records, {rate:.1f} MB/s"))

    def stop(self) -> None:
        if self._display is not None:
            self._display.stop()
            self._display = None
