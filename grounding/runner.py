"""One run over the inputs: read records, assemble conversations, judge answers, keep the tally.

The CLI and the tests drive the same generator, so what a test measures is
what a user gets.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from grounding.assembly import Assembler, Event, Skipped
from grounding.engine import JudgedAnswer, check_conversation
from grounding.inputs import Problem, expand, read_records
from grounding.report import Summary
from grounding.settings import Settings


def judge_inputs(
    paths: Iterable[str], settings: Settings, summary: Summary, input_format: str | None = None
) -> Iterator[JudgedAnswer | Problem]:
    """Yield every judged answer and every problem, in input order, counting all in summary."""
    assembler = Assembler(input_format)
    for path in expand(list(paths)):
        summary.files += 1
        for record in read_records(path):
            summary.records += 1
            yield from _judged([record] if isinstance(record, Problem) else assembler.feed(record), settings, summary)
        yield from _judged(assembler.end_of_source(path), settings, summary)
    yield from _judged(assembler.finish(), settings, summary)


def _judged(events: Iterable[Event], settings: Settings, summary: Summary) -> Iterator[JudgedAnswer | Problem]:
    for event in events:
        if isinstance(event, Problem):
            summary.errors += 1
            yield event
        elif isinstance(event, Skipped):
            summary.skipped += 1
            summary.skipped_reasons[event.reason] += 1
        else:
            summary.conversations += 1
            for judged in check_conversation(event, settings):
                summary.count(judged)
                yield judged
