"""One run over the inputs: read records, assemble conversations, judge answers, keep the tally.

The CLI and the tests drive the same generator, so what a test measures is
what a user gets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from grounding.assembly import Assembler, Event, Skipped
from grounding.engine import JudgedAnswer, check_conversation
from grounding.explain import explain_answer
from grounding.inputs import Problem, Record, expand, read_records
from grounding.report import Summary
from grounding.settings import Settings


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
) -> Iterator[JudgedAnswer | Problem]:
    """Yield every judged answer and every problem, in input order, counting all in summary.

    on_record sees every record as it is read (progress); adjust may rewrite an
    answer before it is counted (a baseline taking known values out).
    """
    assembler = Assembler(input_format)
    for path in expand(list(paths)):
        summary.files += 1
        for record in read_records(path, max_record_bytes):
            summary.records += 1
            if on_record is not None:
                on_record(record)
            events = [record] if isinstance(record, Problem) else assembler.feed(record)
            yield from _judged(events, settings, summary, adjust, explain)
        yield from _judged(assembler.end_of_source(path), settings, summary, adjust, explain)
    yield from _judged(assembler.finish(), settings, summary, adjust, explain)


def _judged(
    events: Iterable[Event], settings: Settings, summary: Summary, adjust: Adjust | None, explain: bool = False
) -> Iterator[JudgedAnswer | Problem]:
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
                if explain:
                    judged = replace(judged, explanation=tuple(explain_answer(event, judged.turn, judged.verdict, settings)))
                if adjust is not None:
                    judged = adjust(judged)
                summary.count(judged)
                yield judged
