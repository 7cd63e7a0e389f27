"""Measure verdict quality on real transcripts, in both directions.

    python -m grounding.quality [--corpus DIR] [--no-derived]

On ``dev.jsonl`` it prints answers judged, values examined, answers and
values flagged, and values grounded per ``via``; on ``dev.injected.jsonl``
(one value of each final answer changed so it appears nowhere) how many of
the mutated values are flagged. ``tests/test_corpus_quality.py`` pins these
numbers, so a change that removes accusations by examining fewer values, or
that stops catching inventions, fails.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from grounding.engine import check_conversation
from grounding.normalise import normalise
from grounding.readers import read_record
from grounding.report import Summary
from grounding.settings import Settings, build_settings
from grounding.verdict import Status

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "real"


@dataclass
class Measurement:
    """The run's Summary over every answer, plus what only the final answers show."""

    summary: Summary = field(default_factory=Summary)
    final_answers: int = 0
    final_candidates: int = 0
    final_flagged: int = 0
    flagged_finals: list[tuple[str, list[str]]] = field(default_factory=list)

    conversations = property(lambda self: self.summary.conversations)
    answers = property(lambda self: self.summary.answers)
    candidates = property(lambda self: self.summary.candidates)
    flagged_answers = property(lambda self: self.summary.flagged)
    flagged_values = property(lambda self: self.summary.unsupported)
    derived_answers = property(lambda self: self.summary.derived)
    examples = property(lambda self: self.summary.examples)
    via = property(lambda self: self.summary.via)


@dataclass
class InjectedMeasurement:
    lines: int = 0
    mutated_flagged: int = 0
    missed: list[tuple[str, str]] = field(default_factory=list)


def _conversations(path: Path):
    with path.open("rb") as stream:
        for number, line in enumerate(stream, start=1):
            record = orjson.loads(line)
            yield record, read_record(record, str(path), number)


def measure_dev(path: Path, settings: Settings) -> Measurement:
    result = Measurement()
    for _record, conversation in _conversations(path):
        result.summary.conversations += 1
        answers = list(check_conversation(conversation, settings))
        for judged in answers:
            result.summary.count(judged)
        if answers:
            final = answers[-1].verdict
            result.final_answers += 1
            result.final_candidates += final.candidates
            if final.status is Status.FLAGGED:
                result.final_flagged += 1
                result.flagged_finals.append((conversation.id or "?", [f.text for f in final.unsupported]))
    return result


def measure_injected(path: Path, settings: Settings) -> InjectedMeasurement:
    result = InjectedMeasurement()
    for record, conversation in _conversations(path):
        result.lines += 1
        mutated = normalise(record["injected"]["mutated"])
        answers = list(check_conversation(conversation, settings))
        final = answers[-1].verdict if answers else None
        if final is not None and any(f.value == mutated for f in final.unsupported):
            result.mutated_flagged += 1
        else:
            result.missed.append((conversation.id or "?", record["injected"]["mutated"]))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="folder holding dev.jsonl")
    parser.add_argument("--no-derived", action="store_true", help="measure with §9.7 and §9.9 off")
    args = parser.parse_args(argv)
    settings = build_settings(derived=not args.no_derived)
    dev = measure_dev(args.corpus / "dev.jsonl", settings)
    injected = measure_injected(args.corpus / "dev.injected.jsonl", settings)
    out = sys.stdout
    out.write(f"dev.jsonl ({'derived off' if args.no_derived else 'derived on'})\n")
    rows = [
        ("conversations", dev.conversations),
        ("answers judged", dev.answers),
        ("values examined", dev.candidates),
        ("answers flagged", dev.flagged_answers),
        ("values flagged", dev.flagged_values),
        ("answers derived", dev.derived_answers),
        ("examples", dev.examples),
        ("final answers", dev.final_answers),
        ("final: values examined", dev.final_candidates),
        ("final: answers flagged", dev.final_flagged),
    ]
    rows += [(f"via {name}", count) for name, count in sorted(dev.via.items())]
    for label, value in rows:
        out.write(f"  {label:<26}{value:>8}\n")
    for conversation, values in dev.flagged_finals:
        out.write(f"  flagged final answer: {conversation}: {', '.join(values)}\n")
    share = injected.mutated_flagged / injected.lines if injected.lines else 0.0
    out.write(f"dev.injected.jsonl\n  mutated values flagged    {injected.mutated_flagged}/{injected.lines} ({share:.1%})\n")
    for conversation, value in injected.missed:
        out.write(f"  missed: {conversation}: {value}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
