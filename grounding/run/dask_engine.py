"""run.parallel's Engine on a Dask cluster (the ``dask`` extra): the workers of a run are the cluster's, and
``cluster()`` connects to a running one or starts one here. Below the library, which chooses it for
``--engine dask``; ``grounding.dask`` builds its bag and its ``run`` on it."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

try:
    from dask.distributed import Client, LocalCluster
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("grounding.dask needs Dask: pip install 'ground-evidence[dask]'") from error

from grounding.errors import InputError
from grounding.run.parallel import TaskLost

_state_lock = threading.Lock()
_started_for: str | None = None  # the run whose initializer this worker process last ran


def _in_worker(run: str, setup: tuple[Callable[..., None], tuple], function: Callable, arguments: tuple) -> object:
    """function(*arguments) in a Dask worker, after the run's initializer (once per run and process; a
    worker's threads take turns, as the state the initializer sets is the process's)."""
    global _started_for
    with _state_lock:
        if _started_for != run:
            initializer, initargs = setup
            initializer(*initargs)
            _started_for = run
        return function(*arguments)


class _Task:
    def __init__(self, future: Any) -> None:
        self.future = future

    def get(self) -> object:
        try:
            return self.future.result()
        except Exception as error:  # noqa: BLE001 - the cluster's own (KilledWorker, a lost connection, …)
            if type(error).__module__.startswith("grounding"):
                raise  # the task's own error, raised where one process would raise it
            raise TaskLost(f"the Dask cluster lost the task ({type(error).__name__}: {error})") from None


class _ClusterWorkers:
    """The run.workers.Workers interface, on a Dask client."""

    def __init__(self, client: Client, initializer: Callable[..., None], initargs: tuple) -> None:
        self.client = client
        self.run = uuid.uuid4().hex
        self.setup = (initializer, initargs)
        self.futures: list[Any] = []

    def apply_async(self, function: Callable, arguments: tuple) -> _Task:
        future = self.client.submit(_in_worker, self.run, self.setup, function, arguments, pure=False)
        self.futures.append(future)
        return _Task(future)

    def map(self, function: Callable, items: Iterable) -> list:
        return [task.get() for task in [self.apply_async(function, (item,)) for item in items]]

    def __enter__(self) -> _ClusterWorkers:
        return self

    def __exit__(self, kind: object, error: object, traceback: object) -> None:
        self.client.cancel([future for future in self.futures if not future.done()])


class DaskEngine:
    """run.parallel's Engine on a Dask client: the workers of a run are the cluster's."""

    def __init__(self, client: Client) -> None:
        self.client = client

    def workers(self, count: int, initializer: Callable[..., None], initargs: tuple) -> _ClusterWorkers:
        return _ClusterWorkers(self.client, initializer, initargs)

    def size(self) -> int:
        """The tasks the cluster runs at once (its workers' threads): how many are kept in flight."""
        return max(1, sum(self.client.nthreads().values()))


@contextmanager
def cluster(scheduler: str | None = None, workers: int | None = None) -> Iterator[DaskEngine]:
    """An engine on the cluster at scheduler (an address), or on one started here with workers processes of
    one thread each (the default: one per core), closed when done."""
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="15s")
        except OSError as error:
            raise InputError(f"--scheduler {scheduler}: cannot connect to a Dask scheduler there ({error})") from None
        with client:
            yield DaskEngine(client)
        return
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as local, \
            Client(local) as client:
        yield DaskEngine(client)
