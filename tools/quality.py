"""Measure verdict quality on real transcripts, in both directions.

    python -m tools.quality [--corpus DIR] [--no-derived] [--split dev|dev2]

On ``dev.jsonl`` and ``dev2.jsonl`` it prints answers judged, values
examined, answers and values flagged, and values grounded per ``via``; on
their ``.injected`` twins (one value of each final answer changed so it
appears nowhere) how many of the mutated values are flagged; and how often a
value one digit away from a value an answer copied is explained by a formula
(§9.20: kept under 1%). ``tests/test_corpus_quality.py`` pins these numbers,
so a change that removes accusations by examining fewer values, or that stops
catching inventions, fails.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import orjson

from grounding.core.answer.announcing import announcing_words, numbers_before
from grounding.core.answer.candidates import numbers_written, read_answer
from grounding.core.engine import check_conversation
from grounding.core.judge import judge_answer
from grounding.core.evidence import announced
from grounding.core.evidence.derive import CHANCE_BOUND, find_formula
from grounding.core.evidence.forms import ReadOptions, is_iso_date
from grounding.core.evidence.index import EvidenceIndex
from grounding.core.settings import Settings, build_settings
from grounding.core.text import date_offsets
from grounding.core.text.normalise import decimals_written, is_number, normalise
from grounding.core.text.values import NUMBER
from grounding.model import ANSWER, EVIDENCE, EXEMPT, Status, Summary
from grounding.transcripts.formats import read_record

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
        if final is not None and any(mutated in (f.value, normalise(f.text)) for f in final.unsupported):
            result.mutated_flagged += 1
        else:
            result.missed.append((conversation.id or "?", record["injected"]["mutated"]))
    return result


@dataclass
class ChanceMeasurement:
    """How often a value one digit away from a value an answer copied is explained by a formula (§9.20)."""

    tried: int = 0
    explained: int = 0
    dates_tried: int = 0  # the same for dates, explained as a stated offset from a date read (§9.19)
    dates_explained: int = 0
    announced_tried: int = 0  # the same for values in a clause announcing a computation (§9.23's wider search)
    announced_explained: int = 0
    examples: list[tuple[str, str, str]] = field(default_factory=list)  # (conversation, value, formula)

    @property
    def share(self) -> float:
        return self.explained / self.tried if self.tried else 0.0

    @property
    def announced_share(self) -> float:
        return self.announced_explained / self.announced_tried if self.announced_tried else 0.0


def one_digit_away(value: str) -> list[str]:
    """Every spelling of value with one digit raised by one (9 wraps to 0), a leading digit never made 0.

    >>> one_digit_away("1209.4")
    ['2209.4', '1309.4', '1219.4', '1200.4', '1209.5']
    """
    found = []
    for at, character in enumerate(value):
        if character.isdigit():
            digit = (int(character) + 1) % 10
            if at == 0 and digit == 0:
                continue
            found.append(value[:at] + str(digit) + value[at + 1 :])
    return found


def _index_before(items, stop, settings: Settings) -> EvidenceIndex:
    """The evidence of items read until stop(item) holds, as the engine reads it."""
    index = EvidenceIndex(ReadOptions(settings.min_digits, bool(settings.shapes)))
    for item in items:
        if stop(item):
            break
        if item.kind is EVIDENCE:
            index.see_result(item.text, is_error=item.is_error, arguments=item.call_arguments,
                             document=item.document, tool=item.tool)
        elif item.kind is EXEMPT:
            index.see_exempt(item.text)
    return index


def measure_chance(path: Path, settings: Settings) -> ChanceMeasurement:
    """Each final answer's numbers that a tool result holds, each changed by one digit where the change is
    read nowhere: how many of those changed values the derived search explains."""
    result = ChanceMeasurement()
    for _record, conversation in _conversations(path):
        if conversation.unjudgeable is not None:
            continue
        final = None
        for item in conversation.items:
            if item.kind is ANSWER:
                final = item
        if final is None:
            continue
        index = _index_before(conversation.items, lambda item, final=final: item is final, settings)
        answer = read_answer(final.text, settings)
        named = numbers_written(answer)
        before = None  # what an announced computation may take (§9.23), read for the first announced value
        offsets = date_offsets.stated_offsets("\n".join(answer.segments)) | index.stated_offsets()
        for candidate in answer.candidates:
            if is_iso_date(candidate.value) and index.is_any_form(candidate.value):
                for changed in one_digit_away(candidate.value):
                    if date_offsets.offset_from(changed, 0) is None or index.is_any_form(changed):
                        continue  # no date, or read after all
                    result.dates_tried += 1
                    formula = date_offsets.find_offset(changed, offsets, index.is_any_form)
                    if formula is not None:
                        result.dates_explained += 1
                        result.examples.append((conversation.id or "?", changed, formula))
            if candidate.kind is not NUMBER or not index.has_number(Decimal(candidate.value).copy_abs()):
                continue
            announces = announcing_words(candidate, answer) is not None
            if announces and before is None:
                before = announced.Before(index, "\n".join(answer.segments))
            for changed in one_digit_away(candidate.value.lstrip("-")):
                magnitude = Decimal(changed)
                if index.has_number(magnitude) or index.is_any_form(changed):
                    continue  # read after all: no typo of anything
                result.tried += 1
                own = named - {Decimal(candidate.value).copy_abs()} | {magnitude}
                formula = find_formula(magnitude, index, own)
                if formula is not None:
                    result.explained += 1
                    result.examples.append((conversation.id or "?", changed, formula))
                if announces:
                    result.announced_tried += 1
                    if formula is None:
                        formula, _ = announced.formula_for(magnitude, decimals_written(candidate.text), before,
                                                           numbers_before(candidate, answer), own)
                    if formula is not None:
                        result.announced_explained += 1
                        result.examples.append((conversation.id or "?", changed, f"{formula} (announced)"))
    return result


_CONVERTED = re.compile(r" (?:m|ft|km|mi|kg|lb|cm|in|l|gal|°C|°F) \* ")  # how a unit conversion's formula reads
# The families of computations of verdict quality VI, told by how their formulas read
FAMILIES = (
    ("dates relative to a stated today", lambda formula: formula.endswith("(today)")),
    ("operands of the records named", lambda formula: formula.endswith("(operands of the records the answer names)")),
    ("percentages", lambda formula: "* 100" in formula or "/ 100" in formula),
    ("means", lambda formula: "(mean of " in formula),
    ("chains", lambda formula: formula.count(" = ") >= 2),
    ("unit conversions", lambda formula: _CONVERTED.search(formula) is not None),
)


@dataclass
class FamilyMeasurement:
    """Values one character off a value an answer copied, judged in the answer's place: how many each
    family of verdict quality VI explains (its chance, measured on operands it was never meant to fit)."""

    tried: int = 0
    explained: dict[str, int] = field(default_factory=lambda: {name: 0 for name, _ in FAMILIES})
    examples: list[tuple[str, str, str]] = field(default_factory=list)


def measure_families(path: Path, settings: Settings) -> FamilyMeasurement:
    """Each final answer's numbers and dates that were read, each changed by one digit where the change is
    read nowhere, the answer judged again with the change in its place: which family explains it."""
    result = FamilyMeasurement()
    for _record, conversation in _conversations(path):
        if conversation.unjudgeable is not None:
            continue
        finals = [item for item in conversation.items if item.kind is ANSWER]
        if not finals:
            continue
        final = finals[-1]
        index = _index_before(conversation.items, lambda item, final=final: item is final, settings)
        for candidate in read_answer(final.text, settings).candidates:
            if not (candidate.kind is NUMBER or is_iso_date(candidate.value)) or not index.is_any_form(candidate.value):
                continue
            for changed in one_digit_away(candidate.text):
                value = normalise(changed)
                if not value or index.is_any_form(value) or (candidate.kind is NUMBER and index.has_number(
                        Decimal(value).copy_abs() if is_number(value) else Decimal(0))):
                    continue
                result.tried += 1
                verdict = judge_answer(final.text.replace(candidate.text, changed), index, settings)
                formula = next((f.formula for f in verdict.grounded_via if f.value == value and f.formula), None)
                family = next((name for name, holds in FAMILIES if formula and holds(formula)), None)
                if family is not None:
                    result.explained[family] += 1
                    result.examples.append((conversation.id or "?", changed, formula))
    return result


def measure_shuffled(path: Path, settings: Settings) -> FamilyMeasurement:
    """Each final answer judged against the evidence of the next conversation (operands shuffled: none was
    meant to fit it): how many of its numbers and dates each family explains, by coincidence alone."""
    result = FamilyMeasurement()
    conversations = [conversation for _record, conversation in _conversations(path)
                     if conversation.unjudgeable is None and any(item.kind is ANSWER for item in conversation.items)]
    for at, conversation in enumerate(conversations):
        final = [item for item in conversation.items if item.kind is ANSWER][-1]
        other = conversations[(at + 1) % len(conversations)]
        index = _index_before(other.items, lambda item: item.kind is ANSWER, settings)
        verdict = judge_answer(final.text, index, settings)
        result.tried += verdict.candidates
        for finding in verdict.grounded_via:
            family = next((name for name, holds in FAMILIES if finding.formula and holds(finding.formula)), None)
            if family is not None:
                result.explained[family] += 1
                result.examples.append((conversation.id or "?", finding.text, finding.formula or ""))
    return result


def _write_families(out, title: str, families: FamilyMeasurement) -> None:
    out.write(f"{title} ({families.tried} values)\n")
    for name, _ in FAMILIES:
        explained = families.explained[name]
        share = explained / families.tried if families.tried else 0.0
        out.write(f"  {name:<34}{explained:>5}/{families.tried} ({share:.2%}; bound {CHANCE_BOUND:.0%})\n")
    for conversation, value, formula in families.examples:
        out.write(f"  explained: {conversation}: {value}: {formula}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="folder holding dev.jsonl and dev2.jsonl")
    parser.add_argument("--no-derived", action="store_true", help="measure with §9.7, §9.9 and §9.19 off")
    parser.add_argument("--split", action="append", help="which splits to measure (default: dev and dev2)")
    args = parser.parse_args(argv)
    missing = [name for split in args.split or ["dev", "dev2"] for name in (f"{split}.jsonl", f"{split}.injected.jsonl")
               if not (args.corpus / name).exists()]
    if missing:  # the maintainers' corpora sit beside the repository, not in a clone of it
        print(f"tools.quality measures the maintainers' real corpora, and {args.corpus} has no "
              f"{', '.join(missing)}: put the shared/ folder beside the repository, or name a folder with "
              "--corpus (the tests measure the in-repository sample, tests/data/real)", file=sys.stderr)
        return 2
    settings = build_settings(derived=not args.no_derived)
    for split in args.split or ["dev", "dev2"]:
        _report(split, args.corpus, settings, args.no_derived)
    return 0


def _report(split: str, corpus: Path, settings: Settings, no_derived: bool) -> None:
    dev = measure_dev(corpus / f"{split}.jsonl", settings)
    injected = measure_injected(corpus / f"{split}.injected.jsonl", settings)
    out = sys.stdout
    out.write(f"{split}.jsonl ({'derived off' if no_derived else 'derived on'})\n")
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
    out.write(f"{split}.injected.jsonl\n"
              f"  mutated values flagged    {injected.mutated_flagged}/{injected.lines} ({share:.1%})\n")
    for conversation, value in injected.missed:
        out.write(f"  missed: {conversation}: {value}\n")
    if not no_derived:
        chance = measure_chance(corpus / f"{split}.jsonl", settings)
        out.write(f"derived search against chance (§9.20), on {split}.jsonl\n"
                  f"  values one digit off a copied value, explained by a formula: "
                  f"{chance.explained}/{chance.tried} ({chance.share:.2%}; bound {CHANCE_BOUND:.0%})\n"
                  f"  values one digit off a copied value in a clause announcing a computation (§9.23), "
                  f"explained by a formula: {chance.announced_explained}/{chance.announced_tried} "
                  f"({chance.announced_share:.2%}; bound {CHANCE_BOUND:.0%})\n"
                  f"  dates one digit off a copied date, explained by a stated offset: "
                  f"{chance.dates_explained}/{chance.dates_tried}\n")
        for conversation, value, formula in chance.examples:
            out.write(f"  explained: {conversation}: {value}: {formula}\n")
        path = corpus / f"{split}.jsonl"
        _write_families(out, f"families of computation against chance, on {split}.jsonl: values and dates one "
                        "digit off a copied one, judged in its place", measure_families(path, settings))
        _write_families(out, f"families of computation on shuffled operands, on {split}.jsonl: each final answer "
                        "judged against the next conversation's evidence", measure_shuffled(path, settings))


if __name__ == "__main__":
    raise SystemExit(main())
