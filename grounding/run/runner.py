"""One run over the inputs: read records, assemble conversations, judge answers, keep the tally.

The CLI and the tests drive the same generator, so what a test measures is
what a user gets. With ``jobs`` > 1 conversations are judged in worker
processes, a bounded window at a time, and come back in input order: the
output is the same, byte for byte, as with one process. Plain JSON Lines
files are cut into ranges of lines that the workers read themselves, and
compressed files, ``.json`` documents and files in object storage are read
whole by a worker each; standard input is read here and passed on.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from grounding.core.settings import Settings
from grounding.model import Conversation, JudgedAnswer, Problem, Record, Summary
from grounding.run.cores import worker_count
from grounding.run.judging import judge_event
from grounding.run.located import answers_located
from grounding.run.parallel import Engine, _in_ranges, _in_workers, _ranges_in_workers
from grounding.transcripts.assembly import Assembler, Event, Skipped
from grounding.transcripts.files import read_records
from grounding.transcripts.folders import expand
from grounding.transcripts.remote import StorageOptions

Adjust = Callable[[JudgedAnswer], JudgedAnswer]


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
    jobs: int | str = 1,
    expanded: bool = False,
    flush_after: float | None = None,
    storage_options: StorageOptions | None = None,
    engine: Engine | None = None,
    stdin_name: str | None = None,
) -> Iterator[JudgedAnswer | Problem]:
    """Yield every judged answer and every problem, in input order, counting all in summary.

    on_record sees every record as it is read (progress); adjust may rewrite an
    answer before it is counted (a baseline taking known values out); expanded says
    paths are files already (folders searched by inputs.expand); storage_options
    reach the file system of a URL's scheme (transcripts.remote); engine runs the
    workers elsewhere than in this machine's processes (grounding.dask); stdin_name
    is what standard input's answers and problems are reported as (where - would be).
    """
    files = list(paths) if expanded else expand(list(paths), storage_options=storage_options)
    workers = engine.size() if engine is not None else worker_count(jobs, files)
    elsewhere = workers > 1 or engine is not None
    if elsewhere and _in_ranges(files, input_format):
        judged = _ranges_in_workers(files, summary, settings, explain, workers, input_format,
                                    on_record, max_record_bytes, engine, storage_options)
    elif elsewhere:
        events = _events(files, summary, input_format, on_record, max_record_bytes, defer=True,
                         flush_after=flush_after, storage_options=storage_options)
        judged = _in_workers(events, settings, explain, workers, input_format, engine)
    else:
        events = _events(files, summary, input_format, on_record, max_record_bytes, flush_after=flush_after,
                         storage_options=storage_options)
        judged = ((event, judge_event(event, settings, explain)) for event in events)
    for event, answers in judged:
        if stdin_name is not None:
            event, answers = _named_stdin(event, answers, stdin_name)
        yield from tallied(event, answers, summary, adjust)


def read_events(paths: Iterable[str], max_record_bytes: int | None = None) -> Iterator[Event]:
    """The conversations, problems and skipped records of files (paths, not folders), in input order, read as
    a run reads them and not judged: what a coding agent's hook reads its session file with."""
    return _events(paths, Summary(), None, None, max_record_bytes)  # (not deferred: no Record comes out)


def _named_stdin(event: object, answers: list[JudgedAnswer], name: str) -> tuple[object, list[JudgedAnswer]]:
    """event and its answers with standard input's source (-) given its name; before the baseline sees them,
    so a baseline written from a pipe matches the file it names."""
    if isinstance(event, Problem) and event.source == "-":
        return replace(event, source=name), answers
    return event, [replace(answer, source=name) if answer.source == "-" else answer for answer in answers]


def tallied(event: object, answers: list[JudgedAnswer], summary: Summary,
            adjust: Adjust | None) -> list[JudgedAnswer | Problem]:
    """What a run reports of an event and its judged answers, counted in summary: a problem; nothing for a
    skipped record; a conversation's answers, each rewritten by adjust first."""
    if isinstance(event, Problem):
        summary.errors += 1
        return [event]
    if isinstance(event, Skipped):
        summary.skipped += 1
        summary.skipped_reasons[event.reason] += 1
        return []
    summary.conversations += 1
    if adjust is not None:
        answers = [adjust(answer) for answer in answers]
    for answer in answers:
        summary.count(answer)
    return answers


def _events(
    paths: Iterable[str],
    summary: Summary,
    input_format: str | None,
    on_record: Callable[[Record | Problem], None] | None,
    max_record_bytes: int | None,
    defer: bool = False,
    flush_after: float | None = None,
    storage_options: StorageOptions | None = None,
) -> Iterator[Event | Record]:
    """Conversations, problems and skipped records in input order; with defer, a one-record conversation
    is passed on as its Record, to be read where it is judged (a worker parses its line again, which is
    cheaper than sending it the parsed record). With flush_after, a trace streamed on standard input with no
    new span for that many seconds is judged as complete."""
    assembler = Assembler(input_format)
    yield from _assembled(paths, summary, assembler, on_record, max_record_bytes, defer, flush_after,
                          storage_options)


def _assembled(
    paths: Iterable[str],
    summary: Summary,
    assembler: Assembler,
    on_record: Callable[[Record | Problem], None] | None,
    max_record_bytes: int | None,
    defer: bool,
    flush_after: float | None,
    storage_options: StorageOptions | None,
) -> Iterator[Event | Record]:
    for path in paths:
        summary.files += 1
        places: dict = {}  # in a .json document: where the last answer located was found
        records = read_records(path, max_record_bytes, storage_options)
        if path == "-" and flush_after:
            records = with_silences(records, flush_after)
        for record in records:
            if record is None:  # a pause in the stream: the traces silent for flush_after are complete
                events = assembler.silent(flush_after, time.monotonic())
                summary.unfinished = assembler.pending()
                yield from events
                continue
            summary.records += 1
            if on_record is not None:
                on_record(record)
            if isinstance(record, Problem):
                yield record
            elif defer and record.raw is not None and not assembler.groups(record):
                yield Record(record.source, record.line, None, record.size, record.raw)  # parsed again where judged
            elif record.document is not None:
                for event in assembler.feed(record):
                    yield answers_located(event, record.document, places) if isinstance(event, Conversation) else event
            else:
                events = assembler.feed(record)
                summary.unfinished = assembler.pending()  # what an interrupted run leaves not judged
                yield from events
        yield from assembler.end_of_source(path)
    yield from assembler.finish()


_END = object()


def with_silences(records: Iterator[Record | Problem], seconds: float) -> Iterator[Record | Problem | None]:
    """The records of a stream, read in a thread, and None whenever the stream has been silent for a while
    (a quarter of seconds, at most one second), so that silent traces can be judged while input waits."""
    found: queue.Queue = queue.Queue(maxsize=1024)

    def read() -> None:
        try:
            for record in records:
                found.put(record)
        except BaseException as error:  # raised again where the records are used
            found.put(error)
        found.put(_END)

    threading.Thread(target=read, name="ground-stdin", daemon=True).start()
    tick = min(max(seconds / 4, 0.05), 1.0)
    while True:
        try:
            item = found.get(timeout=tick)
        except queue.Empty:
            yield None
            continue
        if item is _END:
            return
        if isinstance(item, BaseException):
            raise item
        yield item





















# workers reading ranges of files ------------------------------------------------------------------------------
#
# When every input is a plain JSON Lines file, the reading process does not read records at all: it cuts
# each file into ranges of whole lines, and a worker reads, judges and reports a range. Parsing every record
# here only to pass most of them on (and sending their bytes through a pipe) was most of this process's
# work, and on two cores it competes with the workers. A record that belongs to a conversation spread over
# several records comes back as its bytes and is grouped here, in input order, as one process would.
















