"""Worker processes for ``--jobs``: each runs one task at a time, sent down its own pipe.

The reading process hands out tasks and collects their results itself, as it waits for the one it needs
next: there are no helper threads. multiprocessing.Pool keeps three (handing out tasks, collecting
results, minding the workers); on the 50 MB benchmark they took ~65 ms of the reading process's CPU, on
two cores the workers need. A worker holds one task at a time, so it is always reading its pipe when a
task is written to it, and neither end can block the other however large a task or a result is.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable
from multiprocessing.connection import Connection, wait
from typing import Self

from grounding.errors import GroundingError


def _die_with(parent: int) -> None:
    """End this worker when the reading process ends, however it ends (SIGKILL included): a worker left
    behind would hold the caller's pipes open, and the caller would never see the end of the output. On
    Linux the kernel sends the signal (PR_SET_PDEATHSIG); the parent may have died before it was asked."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the daemon flag and the closed pipe end it instead
        return
    if os.getppid() != parent:
        os._exit(1)


_PR_SET_PDEATHSIG = 1


class WorkerDied(GroundingError):
    """A worker process ended before it sent back the result of its task."""


class Workers:
    """count worker processes, each started with initializer(*initargs); use as a context manager."""

    def __init__(self, count: int, initializer: Callable[..., None], initargs: tuple) -> None:
        context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
        self._processes: dict[Connection, multiprocessing.process.BaseProcess] = {}  # each worker, by its pipe
        self._holding: dict[Connection, int | None] = {}  # each worker's pipe, and the task it holds
        parent = os.getpid()
        for _ in range(count):
            mine, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs, initializer, initargs, parent), daemon=True)
            process.start()
            theirs.close()
            self._processes[mine] = process
            self._holding[mine] = None
        self._waiting: deque[tuple[int, Callable, tuple]] = deque()  # tasks no worker holds yet
        self._results: dict[int, tuple[bool, object]] = {}  # results not asked for yet, by task
        self._tasks = 0

    def apply_async(self, function: Callable, arguments: tuple) -> Task:
        """Hand out function(*arguments) (as soon as a worker is free); its Task gives the result."""
        task = self._tasks
        self._tasks += 1
        self._waiting.append((task, function, arguments))
        self._hand_out()
        return Task(self, task)

    def map(self, function: Callable, items: Iterable) -> list:
        tasks = [self.apply_async(function, (item,)) for item in items]
        return [task.get() for task in tasks]

    def result(self, task: int) -> object:
        """The result of a task, waiting for it (and collecting others' meanwhile); a worker's error is raised."""
        while task not in self._results:
            self._collect()
        done, value = self._results.pop(task)
        if not done:
            raise value
        return value

    def _hand_out(self) -> None:
        for connection, held in self._holding.items():
            if not self._waiting:
                return
            if held is None:
                task, function, arguments = self._waiting.popleft()
                connection.send((function, arguments))
                self._holding[connection] = task

    def _collect(self) -> None:
        busy = [connection for connection, held in self._holding.items() if held is not None]
        for connection in wait(busy):
            try:
                result = connection.recv()
            except EOFError:
                process = self._processes[connection]
                process.join(timeout=5)  # it has ended: its exit code says how
                raise WorkerDied(
                    f"a worker process ended before finishing its work (exit code {process.exitcode})"
                ) from None
            self._results[self._holding[connection]] = result
            self._holding[connection] = None
        self._hand_out()

    def close(self) -> None:
        """Let the workers finish and end (every result collected)."""
        for connection in self._holding:
            try:
                connection.send(None)
            except OSError:  # it has ended already
                pass
        for process in self._processes.values():
            process.join(timeout=5)
        self.terminate()

    def terminate(self) -> None:
        for process in self._processes.values():
            if process.is_alive():
                process.terminate()
        for process in self._processes.values():
            process.join()
        for connection in self._holding:
            connection.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: object, error: object, traceback: object) -> None:
        if kind is None:
            self.close()
        else:  # interrupted, or an error: what the workers hold is not wanted
            self.terminate()


class Task:
    """A task handed to Workers; get() is its result."""

    __slots__ = ("_number", "_workers")

    def __init__(self, workers: Workers, number: int) -> None:
        self._workers, self._number = workers, number

    def get(self) -> object:
        return self._workers.result(self._number)


def _serve(connection: Connection, initializer: Callable[..., None], initargs: tuple, parent: int) -> None:
    """A worker: run each task read from the pipe and send its result back, until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the reading process's to handle: it ends us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the command's handler, if the process was forked
    _die_with(parent)
    initializer(*initargs)
    while True:
        try:
            task = connection.recv()
        except EOFError:  # the reading process is gone
            return
        if task is None:
            return
        function, arguments = task
        try:
            result = (True, function(*arguments))
        except Exception as error:  # noqa: BLE001 - sent back and raised there, where it is reported
            result = (False, error)
        connection.send(result)
