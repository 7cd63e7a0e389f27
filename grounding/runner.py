"""One run over the inputs: read records, assemble conversations, judge answers, keep the tally.

The CLI and the tests drive the same generator, so what a test measures is
what a user gets. With ``jobs`` > 1 conversations are judged in worker
processes, a bounded window at a time, and come back in input order: the
output is the same, byte for byte, as with one process.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from grounding.assembly import Assembler, Event, Skipped
from grounding.engine import JudgedAnswer, check_conversation
from grounding.explain import explain_answer
from grounding.inputs import Problem, Record, expand, loads, read_records
from grounding.model import Conversation
from grounding.report import Summary
from grounding.settings import Settings

Adjust = Callable[[JudgedAnswer], JudgedAnswer]
# Conversations go to workers in batches (one message each way per batch, not per conversation), a few
# batches in flight per worker: enough to keep it busy, few enough to bound memory. Each message costs the
# pool's threads in the reading process; 32 conversations a batch instead of 8 took that process's CPU on
# the 50 MB benchmark from 1.2 s to 0.85 s. A batch also ends at 2 MB of records, so large ones stay few.
_BATCH = 32
_BATCH_BYTES = 2 << 20
_BATCHES_PER_JOB = 3


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
    workers = jobs if jobs > 0 else (os.cpu_count() or 1)
    events = _events(paths, summary, input_format, on_record, max_record_bytes, defer=workers > 1)
    if workers > 1:
        judged = _in_workers(events, settings, explain, workers, input_format)
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
    defer: bool = False,
) -> Iterator[Event | Record]:
    """Conversations, problems and skipped records in input order; with defer, a one-record conversation
    is passed on as its Record, to be read where it is judged (a worker parses its line again, which is
    cheaper than sending it the parsed record)."""
    assembler = Assembler(input_format)
    for path in expand(list(paths)):
        summary.files += 1
        for record in read_records(path, max_record_bytes):
            summary.records += 1
            if on_record is not None:
                on_record(record)
            if isinstance(record, Problem):
                yield record
            elif defer and record.raw is not None and not assembler.groups(record):
                yield Record(record.source, record.line, None, record.size, record.raw)  # parsed again where judged
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

_worker_state: tuple[Settings, bool, Assembler] | None = None


def _start_worker(settings: Settings, explain: bool, input_format: str | None) -> None:
    global _worker_state
    _worker_state = (settings, explain, Assembler(input_format))


def _judge_in_worker(event: Event | Record) -> tuple[Event | None, list[JudgedAnswer]]:
    """Judge a conversation, or read a deferred record first; a record that cannot be read comes back as its Problem."""
    assert _worker_state is not None
    settings, explain, assembler = _worker_state
    if isinstance(event, Record):
        event = assembler.read_alone(replace(event, value=loads(event.raw)))
        if isinstance(event, Problem):
            return event, []
    return None, _judge(event, settings, explain)


def _judge_batch(events: list[Event | Record]) -> list[tuple[Event | None, list[JudgedAnswer]]]:
    return [_judge_in_worker(event) for event in events]


def _in_workers(
    events: Iterator[Event | Record], settings: Settings, explain: bool, workers: int, input_format: str | None
) -> Iterator[tuple[Event, list[JudgedAnswer]]]:
    import multiprocessing

    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    with context.Pool(workers, initializer=_start_worker, initargs=(settings, explain, input_format)) as pool:
        pending: deque[tuple[list[Event | Record], object]] = deque()
        for batch in _batches(events, _BATCH, _BATCH_BYTES):
            judged = [event for event in batch if _judged_elsewhere(event)]
            pending.append((batch, pool.apply_async(_judge_batch, (judged,)) if judged else None))
            if len(pending) >= workers * _BATCHES_PER_JOB:
                yield from _collected(*pending.popleft())
        while pending:
            yield from _collected(*pending.popleft())


def _batches(events: Iterator[Event | Record], size: int, max_bytes: int) -> Iterator[list[Event | Record]]:
    """Events in order, a batch ending at size events or max_bytes of records, whichever comes first."""
    batch: list[Event | Record] = []
    held = 0
    for event in events:
        batch.append(event)
        held += event.size if isinstance(event, Record) else 0
        if len(batch) >= size or held >= max_bytes:
            yield batch
            batch, held = [], 0
    if batch:
        yield batch


def _judged_elsewhere(event: Event | Record) -> bool:
    return isinstance(event, (Conversation, Record))


def _collected(batch: list[Event | Record], future: object) -> Iterator[tuple[Event, list[JudgedAnswer]]]:
    """The batch's events in order, each judged one with what its worker found."""
    results = iter(future.get() if future is not None else ())
    for event in batch:
        if not _judged_elsewhere(event):
            yield event, []
            continue
        problem, answers = next(results)
        if problem is not None:
            yield problem, []
        else:
            yield (event if isinstance(event, Conversation) else _READ_IN_WORKER), answers


_READ_IN_WORKER = object()  # stands for a conversation a worker read from its record
