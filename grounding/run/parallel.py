"""Judging with --jobs: records, line ranges of a file or whole compressed files sent to worker processes, the
answers collected back in input order."""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from grounding.core.settings import Settings
from grounding.errors import GroundingError
from grounding.model import Conversation, JudgedAnswer, Problem, Record, Summary

# Conversations go to workers in batches (one message each way per batch, not per conversation), a few
# batches handed out or waiting per worker: enough to keep it busy, few enough to bound memory. Each message
# costs the reading process a pickling; 32 conversations a batch instead of 8 took that process's CPU on
# the 50 MB benchmark from 1.2 s to 0.85 s. A batch also ends at 2 MB of records, so large ones stay few.
from grounding.run.judging import judge_event
from grounding.run.located import answers_located
from grounding.transcripts.assembly import Assembler, Event, Skipped, groups_every_record
from grounding.transcripts.files import (
    can_read_in_ranges,
    can_read_whole,
    count_lines,
    line_ranges,
    read_range,
    read_records,
)
from grounding.transcripts.records import loads
from grounding.transcripts.remote import StorageOptions

if TYPE_CHECKING:
    from grounding.run.workers import Workers

_BATCH = 32
_BATCH_BYTES = 2 << 20
_BATCHES_PER_JOB = 3
_worker_state: tuple[Settings, bool, Assembler, StorageOptions | None] | None = None
_READ_IN_WORKER = object()  # stands for a conversation a worker read from its record
# A range is about this size: a few per worker and file, so that a small file is shared too, and at most a
# few megabytes, so that memory stays bounded (each worker holds what its range's answers come to).
_RANGE_BYTES = 2 << 20
_MIN_RANGE_BYTES = 64 << 10
_RANGES_PER_JOB = 4
# Near a file's end ranges are this small, so that the workers run out of work at about the same time.
_TAIL_RANGE_BYTES = 256 << 10
# What a worker says of each record of its range, in order: (what, line, size, payload).
_LINE_PROBLEM = 0  # the line could not be read as a record: payload is the Problem
_UNREAD = 1  # a record no reader could read: payload is the Problem (or the Skipped file of no format)
_JUDGED = 2  # a conversation: payload is its judged answers
_GROUPED = 3  # a record of a conversation spread over records: payload is its bytes, grouped here
_WHOLE = -1  # the end of a "range" that is a whole file (compressed, or in object storage), read by one worker



def _start_worker(settings: Settings, explain: bool, input_format: str | None,
                  storage_options: StorageOptions | None = None) -> None:
    global _worker_state
    _worker_state = (settings, explain, Assembler(input_format), storage_options)


def _judge_in_worker(event: Event | Record) -> tuple[Event | None, list[JudgedAnswer]]:
    """Judge a conversation, or read a deferred record first; a record that cannot be read comes back as its Problem."""
    assert _worker_state is not None
    settings, explain, assembler, _ = _worker_state
    if isinstance(event, Record):
        event = assembler.read_alone(replace(event, value=loads(event.raw)))
        if isinstance(event, (Problem, Skipped)):
            return event, []
    return None, judge_event(event, settings, explain)


def _judge_batch(events: list[Event | Record]) -> list[tuple[Event | None, list[JudgedAnswer]]]:
    return [_judge_in_worker(event) for event in events]


def _in_workers(
    events: Iterator[Event | Record], settings: Settings, explain: bool, workers: int, input_format: str | None,
    engine: Engine | None = None,
) -> Iterator[tuple[Event, list[JudgedAnswer]]]:
    with _started(engine, workers, (settings, explain, input_format)) as processes:
        pending: deque[tuple[list[Event | Record], object]] = deque()
        for batch in _batches(events, _BATCH, _BATCH_BYTES):
            judged = [event for event in batch if _judged_elsewhere(event)]
            pending.append((batch, processes.apply_async(_judge_batch, (judged,)) if judged else None))
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


class TaskLost(GroundingError):
    """An engine lost a task (a Dask cluster whose workers died with it): what it held is reported as an
    error of its file, and the run goes on."""


class Engine(Protocol):
    """What runs the workers: this machine's processes (run.workers.Workers), or a Dask cluster
    (grounding.dask.DaskEngine). workers(count, initializer, initargs) is a context manager with
    apply_async(function, arguments) -> a task whose get() is its result, and map(function, items)."""

    def workers(self, count: int, initializer: Callable[..., None], initargs: tuple) -> Workers: ...

    def size(self) -> int: ...  # the tasks it runs at once


def _started(engine: Engine | None, count: int, initargs: tuple) -> Workers:
    if engine is not None:
        return engine.workers(count, _start_worker, initargs)
    from grounding.run.workers import Workers  # multiprocessing: ~4 ms of start-up a run of one process never needs

    return Workers(count, _start_worker, initargs)


def _in_ranges(files: list[str], input_format: str | None) -> bool:
    """Whether the workers read the inputs themselves: plain JSON Lines files in ranges, compressed ones whole
    (decompressing is most of reading one: in the reading process it capped the whole run)."""
    return (
        bool(files)
        and not groups_every_record(input_format)
        and all(can_read_in_ranges(path) or can_read_whole(path) for path in files)
    )


def _judge_range(path: str, start: int, end: int, limit: int | None) -> tuple[list[tuple], int | None]:
    """Read and judge a range of a file, saying what became of each record (see _LINE_PROBLEM ...), its lines
    numbered from the range's first; and how many lines the range holds (None: it could not be read)."""
    assert _worker_state is not None
    settings, explain, assembler, storage_options = _worker_state
    said: list[tuple] = []
    whole = end == _WHOLE
    records = read_records(path, limit, storage_options) if whole else read_range(path, start, end, limit)
    places: dict = {}  # in a .json document: where the last answer located was found (run.located)
    while True:
        try:
            record = next(records)
        except StopIteration as finished:
            return said, 0 if whole else finished.value  # a whole file's lines are numbered from its first
        if isinstance(record, Problem):
            said.append((_LINE_PROBLEM, record.line, 0, record))
        elif assembler.groups(record):
            if record.document is not None:  # a document's spans: its answers are located where it is read
                return None, 0
            said.append((_GROUPED, record.line, record.size, record.raw))
        else:
            event = assembler.read_alone(record)
            if isinstance(event, (Problem, Skipped)):
                said.append((_UNREAD, record.line, record.size, event))
            else:
                if record.document is not None:
                    event = answers_located(event, record.document, places)
                said.append((_JUDGED, record.line, record.size, judge_event(event, settings, explain)))


def _ranges_in_workers(
    files: list[str],
    summary: Summary,
    settings: Settings,
    explain: bool,
    workers: int,
    input_format: str | None,
    on_record: Callable[[Record | Problem], None] | None,
    limit: int | None,
    engine: Engine | None = None,
    storage_options: StorageOptions | None = None,
) -> Iterator[tuple[Event | object, list[JudgedAnswer]]]:
    assembler = Assembler(input_format)
    with _started(engine, workers, (settings, explain, input_format, storage_options)) as processes:
        pending: deque[tuple[str, int, int, object]] = deque()  # (file, range, its result; None: the file ends)
        before = _LinesBefore()
        for path in files:
            summary.files += 1
            for start, end in _ranges_of(path, workers):
                pending.append((path, start, end, processes.apply_async(_judge_range, (path, start, end, limit))))
                if len(pending) >= workers * _BATCHES_PER_JOB:
                    yield from _range_collected(*pending.popleft(), assembler, processes, summary, on_record, before,
                                                (limit, storage_options))
            pending.append((path, 0, 0, None))
        while pending:
            yield from _range_collected(*pending.popleft(), assembler, processes, summary, on_record, before,
                                        (limit, storage_options))
        yield from _judged_by(processes, list(assembler.finish()))


def _ranges_of(path: str, workers: int) -> Iterator[tuple[int, int]]:
    """(start, end) of the ranges a file is judged in: a few per worker, at most _RANGE_BYTES, and within the
    last range per worker, as small as _TAIL_RANGE_BYTES; a compressed or remote file is one, (0, _WHOLE)."""
    if not can_read_in_ranges(path):
        yield 0, _WHOLE
        return
    total = os.path.getsize(path)
    size = min(_RANGE_BYTES, max(_MIN_RANGE_BYTES, total // (workers * _RANGES_PER_JOB)))
    tail = total - size * workers  # past here, the pieces are not put together
    start = None
    for begin, end in line_ranges(path, min(size, _TAIL_RANGE_BYTES)):
        if start is None:
            start = begin
        if end - start >= size or end > tail:
            yield start, end
            start = None
    if start is not None:
        yield start, end


class _LinesBefore:
    """How many lines of each file come before the range being collected: a worker numbers a range's lines
    from 1 (it knows not how many lines come before it without reading them), and ranges are collected in
    order."""

    def __init__(self) -> None:
        self.counted: dict[str, int] = {}

    def number(self, path: str, lines: int | None, start: int, end: int) -> int:
        """The lines before this range; the range's lines are counted in (read here if it could not be)."""
        before = self.counted.get(path, 0)
        self.counted[path] = before + (lines if lines is not None else count_lines(path, start, end))
        return before


def _range_collected(
    path: str,
    start: int,
    end: int,
    future: object,
    assembler: Assembler,
    processes: Workers,
    summary: Summary,
    on_record: Callable[[Record | Problem], None] | None,
    lines_before: _LinesBefore,
    reading: tuple[int | None, StorageOptions | None],
) -> Iterator[tuple[Event | object, list[JudgedAnswer]]]:
    """What became of each record of a range, in order, numbered in the file; at a file's end, its Claude Code
    sessions. reading is (max_record_bytes, storage_options), for a document read here."""
    if future is None:
        yield from _judged_by(processes, list(assembler.end_of_source(path)))
        return
    try:
        said, lines = future.get()
    except TaskLost as lost:  # never a silently smaller report: the range is an error of its file
        where = "the file" if end == _WHOLE else f"bytes {start} to {end}"
        said, lines = [(_LINE_PROBLEM, None, 0, Problem(path, None, f"{where} not judged: {lost}"))], 0
    if said is None:  # a document of spans or sessions: read here, as one process reads it
        yield from _read_here(path, assembler, processes, summary, on_record, reading)
        return
    before = lines_before.number(path, lines, start, end)
    for what, line, size, payload in said:
        summary.records += 1
        if line is not None:
            line += before
        if what == _JUDGED:
            if before:  # (answers are frozen results: each is remade at its line in the file)
                payload = [replace(answer, line=answer.line + before) for answer in payload]
        elif what != _GROUPED and payload.line is not None:
            payload = replace(payload, line=payload.line + before)
        if on_record is not None:
            on_record(payload if what == _LINE_PROBLEM else Record(path, line, None, size))
        if what == _JUDGED:
            yield _READ_IN_WORKER, payload
        elif what == _GROUPED:
            yield from _judged_by(processes, assembler.feed(Record(path, line, loads(payload), size, payload)))
        else:
            yield payload, []


def _read_here(path: str, assembler: Assembler, processes: Workers, summary: Summary,
               on_record: Callable[[Record | Problem], None] | None,
               reading: tuple[int | None, StorageOptions | None]) -> Iterator[tuple[Event, list[JudgedAnswer]]]:
    """A document read by this process, its answers located in it, its conversations judged by the workers."""
    places: dict = {}
    for record in read_records(path, *reading):
        summary.records += 1
        if on_record is not None:
            on_record(record)
        if isinstance(record, Problem):
            yield record, []
            continue
        events = [answers_located(event, record.document, places) if isinstance(event, Conversation) else event
                  for event in assembler.feed(record)]
        yield from _judged_by(processes, events)


def _judged_by(processes: Workers, events: list[Event]) -> Iterator[tuple[Event, list[JudgedAnswer]]]:
    """Events assembled here, in order, their conversations judged by the workers."""
    conversations = [event for event in events if isinstance(event, Conversation)]
    if not conversations:  # most records of a spread conversation assemble nothing yet
        yield from ((event, []) for event in events)
        return
    batches = [conversations[at : at + _BATCH] for at in range(0, len(conversations), _BATCH)]
    judged = iter([answers for batch in processes.map(_judge_batch, batches) for _, answers in batch])
    for event in events:
        yield event, (next(judged) if isinstance(event, Conversation) else [])
