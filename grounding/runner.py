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
from grounding.inputs import Problem, Record, expand, loads, read_records
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
                yield replace(record, value=None)
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


def _in_workers(
    events: Iterator[Event | Record], settings: Settings, explain: bool, workers: int, input_format: str | None
) -> Iterator[tuple[Event, list[JudgedAnswer]]]:
    import multiprocessing

    window = workers * _WINDOW_PER_JOB
    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    with context.Pool(workers, initializer=_start_worker, initargs=(settings, explain, input_format)) as pool:
        pending: list[tuple[Event | Record, object]] = []
        for event in events:
            judged_elsewhere = isinstance(event, (Conversation, Record))
            future = pool.apply_async(_judge_in_worker, (event,)) if judged_elsewhere else None
            pending.append((event, future))
            if len(pending) >= window:
                yield _collected(*pending.pop(0))
        for event, future in pending:
            yield _collected(event, future)


def _collected(event: Event | Record, future: object) -> tuple[Event, list[JudgedAnswer]]:
    if future is None:
        return event, []
    problem, answers = future.get()
    if problem is not None:
        return problem, []
    return (event if isinstance(event, Conversation) else _READ_IN_WORKER), answers


_READ_IN_WORKER = object()  # stands for a conversation a worker read from its record
