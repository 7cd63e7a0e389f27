"""One run over the inputs: read records, assemble conversations, judge answers, keep the tally.

The CLI and the tests drive the same generator, so what a test measures is
what a user gets. With ``jobs`` > 1 conversations are judged in worker
processes, a bounded window at a time, and come back in input order: the
output is the same, byte for byte, as with one process.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from grounding.assembly import Assembler, Event, Skipped
from grounding.engine import JudgedAnswer, check_conversation
from grounding.explain import explain_answer
from grounding.inputs import Problem, Record, expand, read_records
from grounding.model import Conversation
from grounding.report import Summary
from grounding.settings import Settings

Adjust = Callable[[JudgedAnswer], JudgedAnswer]
_WINDOW_PER_JOB = 16  # conversations in flight per worker: enough to keep it busy, few enough to bound memory


def judge_inputs(
    paths: Iterable[str],
    settings: Settings,
    summary: Summary,
    input_format: str | None = None,
    *,
    on_record: Callable[[Record | Problem], None] | None = None,
    adjust: Adjust | None = None,
    explain: bool = False,
    max_record_bytes: int | None = None,
    jobs: int = 1,
) -> Iterator[JudgedAnswer | Problem]:
    """Yield every judged answer and every problem, in input order, counting all in summary.

    on_record sees every record as it is read (progress); adjust may rewrite an
    answer before it is counted (a baseline taking known values out).
    """
    events = _events(paths, summary, input_format, on_record, max_record_bytes)
    workers = jobs if jobs > 0 else (os.cpu_count() or 1)
    if workers > 1:
        judged = _in_workers(events, settings, explain, workers)
    else:
        judged = ((event, _judge(event, settings, explain)) for event in events)
    for event, answers in judged:
        if isinstance(event, Problem):
            summary.errors += 1
            yield event
        elif isinstance(event, Skipped):
            summary.skipped += 1
            summary.skipped_reasons[event.reason] += 1
        else:
            summary.conversations += 1
            for answer in answers:
                if adjust is not None:
                    answer = adjust(answer)
                summary.count(answer)
                yield answer


def _events(
    paths: Iterable[str],
    summary: Summary,
    input_format: str | None,
    on_record: Callable[[Record | Problem], None] | None,
    max_record_bytes: int | None,
) -> Iterator[Event]:
    assembler = Assembler(input_format)
    for path in expand(list(paths)):
        summary.files += 1
        for record in read_records(path, max_record_bytes):
            summary.records += 1
            if on_record is not None:
                on_record(record)
            if isinstance(record, Problem):
                yield record
            else:
                yield from assembler.feed(record)
        yield from assembler.end_of_source(path)
    yield from assembler.finish()


def _judge(event: Event, settings: Settings, explain: bool) -> list[JudgedAnswer]:
    if not isinstance(event, Conversation):
        return []
    answers = list(check_conversation(event, settings))
    if explain:
        answers = [replace(a, explanation=tuple(explain_answer(event, a.turn, a.verdict, settings))) for a in answers]
    return answers


# worker processes --------------------------------------------------------------------------------------------

_worker_settings: tuple[Settings, bool] | None = None


def _start_worker(settings: Settings, explain: bool) -> None:
    global _worker_settings
    _worker_settings = (settings, explain)


def _judge_in_worker(conversation: Conversation) -> list[JudgedAnswer]:
    assert _worker_settings is not None
    return _judge(conversation, *_worker_settings)


def _in_workers(
    events: Iterator[Event], settings: Settings, explain: bool, workers: int
) -> Iterator[tuple[Event, list[JudgedAnswer]]]:
    import multiprocessing

    window = workers * _WINDOW_PER_JOB
    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    with context.Pool(workers, initializer=_start_worker, initargs=(settings, explain)) as pool:
        pending: list[tuple[Event, object]] = []
        for event in events:
            future = pool.apply_async(_judge_in_worker, (event,)) if isinstance(event, Conversation) else None
            pending.append((event, future))
            if len(pending) >= window:
                first, future = pending.pop(0)
                yield first, future.get() if future is not None else []
        for event, future in pending:
            yield event, future.get() if future is not None else []
