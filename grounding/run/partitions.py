"""A run cut into partitions that can be judged apart (grounding.dask's bag): one per input file, and one of
the traces whose records lie in several files, put together from what the file partitions set aside.

Each partition gives its answers, in the order one process judges them, its problems and the summary of
what it read; the partitions' summaries added up are the summary of the whole run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, fields

from grounding.model import Conversation, JudgedAnswer, Problem, Record, Summary
from grounding.run.judging import judge_event
from grounding.run.located import answers_located
from grounding.run.runner import tallied
from grounding.transcripts.assembly import Assembler, Event
from grounding.transcripts.files import read_records
from grounding.transcripts.remote import StorageOptions


@dataclass
class Partition:
    answers: list[JudgedAnswer] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    summary: Summary = field(default_factory=Summary)
    spread: list[Record] = field(default_factory=list)  # trace records, for the partition of the traces
    adjust: Callable | None = field(default=None, repr=False, compare=False)  # see judge_file

Adjust = Callable[[JudgedAnswer], JudgedAnswer] | None


def judge_file(path: str, settings: object, input_format: str | None = None, explain: bool = False,
               max_record_bytes: int | None = None, storage_options: StorageOptions | None = None,
               adjust: Adjust = None) -> Partition:
    """One file judged as one process judges it, but for its trace records, set aside; adjust rewrites an
    answer before it is counted (a rule not selected takes its findings out)."""
    part, assembler, places = Partition(adjust=adjust), Assembler(input_format), {}
    part.summary.files = 1
    for record in read_records(path, max_record_bytes, storage_options):
        part.summary.records += 1
        if isinstance(record, Problem):
            _count(part, record, settings, explain)
        elif assembler.spans_files(record):
            part.spread.append(record)
        else:
            for event in assembler.feed(record):
                if record.document is not None and isinstance(event, Conversation):
                    event = answers_located(event, record.document, places)
                _count(part, event, settings, explain)
    for event in assembler.end_of_source(path):
        _count(part, event, settings, explain)
    return part


def judge_spread(spread: list[list[Record]], settings: object, input_format: str | None = None,
                 explain: bool = False, adjust: Adjust = None) -> Partition:
    """The trace records the file partitions set aside (in their order), put together and judged."""
    part, assembler = Partition(adjust=adjust), Assembler(input_format)
    for records in spread:
        for record in records:
            for event in assembler.feed(record):
                _count(part, event, settings, explain)
    for event in assembler.finish():
        _count(part, event, settings, explain)
    return part


def _count(part: Partition, event: Event, settings: object, explain: bool) -> None:
    """What run.runner.judge_inputs does with an event, into the partition."""
    answers = judge_event(event, settings, explain)  # none unless it is a conversation
    for found in tallied(event, answers, part.summary, part.adjust):
        (part.problems if isinstance(found, Problem) else part.answers).append(found)


def added(summaries: list[Summary]) -> Summary:
    """The summaries of partitions added up: the summary of the run."""
    total = Summary()
    for summary in summaries:
        for name in (spec.name for spec in fields(Summary)):
            mine = getattr(total, name)
            if isinstance(mine, Counter):
                mine.update(getattr(summary, name))
            elif isinstance(mine, dict):  # (Summary.written: the first partition's spelling of a value)
                for key, value in getattr(summary, name).items():
                    mine.setdefault(key, value)
            else:
                setattr(total, name, mine + getattr(summary, name))
    return total
