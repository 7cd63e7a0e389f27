"""Judging on a Dask cluster (the ``dask`` extra): ``ground check … --engine dask --scheduler ADDR`` connects
to a running one, ``--engine dask --workers N`` starts one on this machine. Library users pass a client:

    from dask.distributed import Client
    import grounding.dask

    with Client("tcp://scheduler:8786") as client:
        result = grounding.dask.run(["s3://logs/2026/11/"], grounding.Options(jobs=0), client=client)
        answers, summary = grounding.dask.answers(["s3://logs/2026/11/"])  # a bag, for a pipeline of one's own
        flagged = answers.filter(lambda a: a.verdict.status.value == "flagged").compute()

The cluster runs what ``--jobs`` runs in this machine's processes, and the output is the same, byte for
byte, in the same order: each plain JSON Lines file is cut into ranges of lines and each compressed or
remote one is read whole by a worker (which must reach the files: a shared folder, or object storage); a
record of a conversation spread over records (span exports, sessions) comes back to be put together where
the inputs are listed (spans of one trace may lie in several files), and the conversations put together
are judged on the cluster. A task the cluster loses (its workers died) is reported as an error for its
file, never dropped.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

try:
    from dask.distributed import Client, LocalCluster
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("grounding.dask needs Dask: pip install 'ground-evidence[dask]'") from error

from grounding.errors import InputError
from grounding.run.parallel import TaskLost

if TYPE_CHECKING:
    from grounding.library import Options, RunResult

__all__ = ["DaskEngine", "answers", "cluster", "run"]

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


def answers(paths: str | Iterable[str], options: Options | None = None) -> tuple[Any, Any]:
    """The judged answers of paths as a dask bag, and the run's Summary as a dask delayed, for pipelines of
    one's own (compute them on the client of one's cluster). The bag has a partition per input file, in
    order, and a last one of the traces whose records may lie in several files, put together from what the
    file partitions set aside: computed, it is the answers of ``grounding.run(paths, options)`` in their
    order (the baseline aside: it is the command line's)."""
    import dask.bag
    from dask import delayed

    from grounding.library import default_options
    from grounding.run.partitions import added
    from grounding.transcripts.folders import expand

    options = options if options is not None else default_options()
    listed = [paths] if isinstance(paths, str) else list(paths)
    files = expand(listed, storage_options=options.storage_options, exclude=options.excluded)
    parts = [delayed(_file_part, pure=False)(path, options) for path in files]
    spread = delayed(_spread_part, pure=False)([delayed(_spread_of)(part) for part in parts], options)
    every = [*parts, spread]
    bag = dask.bag.from_delayed([delayed(_answers_of)(part) for part in every])
    return bag, delayed(added)([delayed(_summary_of)(part) for part in every])


def _file_part(path: str, options: Options) -> object:
    from grounding.library import adjusting
    from grounding.run.partitions import judge_file

    return judge_file(path, options.settings, options.input_format, options.explain, options.max_record_bytes,
                      options.storage_options, adjusting(options))


def _spread_part(spread: list, options: Options) -> object:
    from grounding.library import adjusting
    from grounding.run.partitions import judge_spread

    return judge_spread(spread, options.settings, options.input_format, options.explain, adjusting(options))


def _spread_of(part: Any) -> list:
    return part.spread


def _answers_of(part: Any) -> list:
    return part.answers


def _summary_of(part: Any) -> Any:
    return part.summary


def run(paths: str | Iterable[str], options: Options | None = None, *, client: Client) -> RunResult:
    """grounding.run on the cluster client is connected to: the same answers, summary and exit status."""
    from grounding.library import run as run_here

    return run_here(paths, options, engine=DaskEngine(client))
