"""The judge's routes for computed values (SPEC §9.7, §9.9, §9.19, §9.23, §9.24, and the readings of verdict
quality VI): a computation the answer writes or showed before it, a formula over operands read (the
records the answer names, percentages, means, chains), a date offset or a date relative to a stated today.
"""

from __future__ import annotations

from decimal import Decimal

from grounding.core.answer import announcing, masks
from grounding.core.answer.candidates import Candidate
from grounding.core.evidence import announced, conversions
from grounding.core.evidence.derive import exact_formula, find_formula, named_formula
from grounding.core.evidence.percentages import family_formula, percent_formula
from grounding.core.judging import ISO_DATE, Judging, ReadOperands, found, magnitude_of, reads_as_year
from grounding.core.text import date_offsets, relative_dates
from grounding.core.text.normalise import decimals_written, spell
from grounding.core.text.percents import written_as_percent
from grounding.core.text.values import IDENTIFIER, NUMBER
from grounding.model import Finding


def computed(candidate: Candidate, judging: Judging) -> Finding | None:
    """Routes 9 and 10 (§9.7, §9.9, §9.23, §9.24): a computation the answer writes (stated, listed-total), one
    the assistant wrote before it (shown-earlier), then a formula over operands (derived): over everything
    read, a collection's mean, the records the answer names, the wider search (and its chains) for a value
    the answer announces as computed, a percentage, a unit conversion."""
    work = judging.work
    if work is None or candidate.kind is not NUMBER or masks.all_masked(candidate, judging.answer):
        return None
    magnitude = magnitude_of(candidate.value)
    stated = work.stated(magnitude)
    if stated is not None:
        return found(candidate, *stated)
    if work.is_refuted(magnitude) or reads_as_year(candidate):
        return None
    shown = judging.shown
    if shown is not None:
        earlier = shown.stated(magnitude, ReadOperands(judging.index), judging.settings)
        if earlier is not None:
            return Finding(candidate.value, candidate.shape, candidate.text, "shown-earlier", formula=earlier[0],
                           matched=earlier[1], at=candidate.at)
        if shown.refutes(magnitude, ReadOperands(judging.index), judging.settings):
            return None
    formula = find_formula(magnitude, judging.index, work.named, work.bounded, judging.dense)
    if formula is None:
        formula = judging.index.totals().mean_formula(magnitude, max(decimals_written(candidate.text), 0))
    if formula is None and magnitude in judging.dense:  # a formula over everything read, too likely by chance
        formula = _through_records(magnitude, judging)
    if formula is None and announcing.announcing_words(candidate, judging.answer) is not None:
        formula = _announced(candidate, magnitude, judging) or _chained(candidate, magnitude, judging)
    if formula is None:
        formula = _percentage(candidate, magnitude, judging)
    if formula is None:
        formula = _converted(candidate, magnitude, judging)
    if formula is None:
        return None
    judging.derived[magnitude] = formula  # a link of later chains
    return found(candidate, "derived", formula)


def _through_records(magnitude: Decimal, judging: Judging) -> str | None:
    """A formula over the numbers the answer writes and those of the records its values identify (an item
    id beside its price: evidence/records.py), the chance counted among them (derive.named_formula)."""
    work = judging.work
    assert work is not None  # (computed asked)
    if not judging.records:  # read once per answer, the first time a value asks
        ids = frozenset(candidate.value for candidate in judging.answer.candidates if _names_a_record(candidate))
        judging.records.append(frozenset(judging.index.stated.record_numbers(ids)))
    numbers = judging.records[0]
    formula = named_formula(magnitude, judging.index, work.named | numbers) if numbers - work.named else None
    return None if formula is None else f"{formula} (operands of the records the answer names)"


def _names_a_record(candidate: Candidate) -> bool:
    """An identifier, or a whole number written as digits alone (``item 4410``): what a record's id looks like;
    not an amount, a date or a time, which most records of a result share."""
    return candidate.kind is IDENTIFIER or (candidate.kind is NUMBER and candidate.text.isdigit())


def _before(judging: Judging) -> announced.Before:
    """What the wider searches may take (§9.23), read once per answer, the first time one asks."""
    if not judging.before:
        judging.before.append(announced.Before(judging.index, "\n".join(judging.answer.segments)))
    return judging.before[0]


def _announced(candidate: Candidate, magnitude: Decimal, judging: Judging) -> str | None:
    """§9.23: the wider search for a value the answer announces as a computation."""
    work = judging.work
    assert work is not None  # (computed asked)
    formula, bounded = announced.formula_for(magnitude, decimals_written(candidate.text), _before(judging),
                                             announcing.numbers_before(candidate, judging.answer), work.named)
    if bounded:
        work.bounded.add(magnitude)
    return formula


def _chained(candidate: Candidate, magnitude: Decimal, judging: Judging) -> str | None:
    """An announced computation over numbers read and links: the numbers the answer writes before the value
    that are themselves derived (a value judged derived before it, or a shorter number §9.7 derives)."""
    work, index = judging.work, judging.index
    assert work is not None  # (computed asked)
    before = _before(judging)
    named_before = announcing.numbers_before(candidate, judging.answer)
    links = {}
    for written in sorted(named_before):
        if written == magnitude or spell(written) in before.numbers:
            continue
        link = judging.derived.get(written) or index.totals().formula(written) or exact_formula(written, index)
        if link is not None:
            links[written] = link
    if not links:
        return None
    formula, bounded = announced.chained_formula(magnitude, decimals_written(candidate.text), before, named_before,
                                                 work.named, links)
    if bounded:
        work.bounded.add(magnitude)
    return formula


def _percentage(candidate: Candidate, magnitude: Decimal, judging: Judging) -> str | None:
    """A percent change or share written as a percentage, or a number read scaled by a percentage the
    conversation states (evidence/percentages.py): over the numbers read, else over those the answer
    names."""
    segments, work = judging.answer.segments, judging.work
    assert work is not None  # (computed asked)
    as_percent = any(written_as_percent(segments[o.segment], o.end) for o in candidate.occurrences)
    stated = judging.index.stated.percentages() if not as_percent else ()
    if not (as_percent or stated):
        return None
    decimals = decimals_written(candidate.text)
    pool = _before(judging).pool(max(decimals, 0))
    if pool is None:
        return None
    own = pool.among(work.named)  # tried first, so the formula shown is over numbers the answer names
    formula = percent_formula(magnitude, decimals, own, stated, as_percent) if own.values else None
    return formula or percent_formula(magnitude, decimals, pool, stated, as_percent)


def date_offset(candidate: Candidate, judging: Judging) -> Finding | None:
    """§9.19: a date that is an offset the answer or the user's text states from a date read or exempt
    ("the day after", "in 3 days"); or a date a phrase names from a stated today ("last Friday")."""
    work, index = judging.work, judging.index
    if work is None or ISO_DATE.fullmatch(candidate.value) is None:
        return None
    formula = date_offsets.find_offset(candidate.value, work.stated_offsets | index.stated_offsets(), index.is_any_form)
    if formula is None and (todays := index.stated.todays()):
        phrases = index.stated.relative_phrases() | relative_dates.phrases_in("\n".join(judging.answer.segments))
        formula = relative_dates.find_relative(candidate.value, phrases, todays)
    return None if formula is None else found(candidate, "date-offset", formula)


def _converted(candidate: Candidate, magnitude: Decimal, judging: Judging) -> str | None:
    """A number read converted into the unit the answer writes after the value (evidence/conversions.py): over
    the numbers the answer names, then over every number read. With figures on, a figure's own unit of data
    or time or its percent sign (``6.3 TB``, ``53.2%``) converts too."""
    segments, work, figures = judging.answer.segments, judging.work, judging.settings.figures
    assert work is not None  # (computed asked)
    unit = next(filter(None, (conversions.unit_after(segments[o.segment], o.end) for o in candidate.occurrences)),
                None)
    if unit is None and figures:
        unit = conversions.unit_written(candidate.text, figures)
    if unit is None:
        return None
    decimals = decimals_written(candidate.text)
    pool = _before(judging).pool(max(decimals, 0))
    if pool is None:
        return None
    own = pool.among(work.named)
    formula = _conversion(magnitude, decimals, own, unit, figures) if own.values else None
    return formula or _conversion(magnitude, decimals, pool, unit, figures)


def _conversion(magnitude: Decimal, decimals: int, pool: announced.Pool, unit: str, figures: bool) -> str | None:
    return family_formula(magnitude, decimals, lambda places: conversions.Converted(pool, places, unit, figures))
