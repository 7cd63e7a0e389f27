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

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from grounding.run.dask_engine import Client, DaskEngine, cluster

if TYPE_CHECKING:
    from grounding.library import Options, RunResult

__all__ = ["DaskEngine", "answers", "cluster", "run"]

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
