"""Judge one final answer against the index read before it (SPEC §7.1).

Each candidate is tried route by route; the first that holds decides and is
the ``via`` the report shows. A value grounded plainly has no ``via``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

import regex

from grounding.core.answer import announcing, arithmetic, examples, labels, masks
from grounding.core.answer.candidates import Answer, Candidate, read_answer
from grounding.core.answer.clauses import words_before
from grounding.core.answer.code_notation import code_location
from grounding.core.answer.cut_off import cut_off_fragment
from grounding.core.answer.shown_earlier import ShownEarlier
from grounding.core.evidence import announced
from grounding.core.evidence.code_reads import name_of
from grounding.core.evidence.derive import BOUND_NOTE, exact_formula, find_formula, named_formula
from grounding.core.evidence.percentages import percent_formula
from grounding.core.evidence.index import EvidenceIndex
from grounding.core.settings import Settings
from grounding.core.text import date_offsets, relative_dates
from grounding.core.text.percents import written_as_percent
from grounding.core.text.normalise import canonical, decimals_written, is_number, lookup_forms, normalise, spell
from grounding.core.text.units import written_before_words
from grounding.core.text.values import COMPOSITE_JOINER, IDENTIFIER, NUMBER, RANGE, Kind, range_ends
from grounding.model import COMPUTED_VIA, Finding, Verdict, status_of

_ISO_DATE = regex.compile(r"(\d{4})-(\d{2})-(\d{2})")
_HEX = regex.compile(r"[0-9a-f]*[0-9][0-9a-f]*")
_WILDCARD_VERSION = regex.compile(r"(\d+(?:\.\d+)*)\.[x*]")
_DIGIT = regex.compile(r"\d")
_REFERENCE_WORD = regex.compile(r"[A-Za-z][A-Za-z_-]{2,}")  # a resource's name: Order, customers, line-items
_PATH = regex.compile(r"~?/?(?:[\w.-]+/)+[\w.-]*")  # a/b, /a/b/, ~/a/b.txt: a folder or more, then a name
_LOOKED_FOR_TOGETHER = 8  # values not said verbatim from which the pieces are searched for all at once
_YEARS = range(1900, 2101)


def judge_answer(text: str, index: EvidenceIndex, settings: Settings, shown: ShownEarlier | None = None) -> Verdict:
    """Judge one final answer against the evidence read before it (and the work the assistant showed before
    it, for arithmetic that checks: §9.24)."""
    answer = read_answer(text, settings)
    judging = None  # made for the first value not said verbatim (most answers have none)
    unsupported, grounded_via, example_values = [], [], []
    # route 1 at its cheapest (most values are copied): grounded plainly
    pending = [candidate for candidate in answer.candidates if not index.says_verbatim(candidate.value)]
    if len(pending) >= _LOOKED_FOR_TOGETHER:  # many values said nowhere: each piece searched once for them all
        index.look_for([form for candidate in pending for form in lookup_forms(candidate.value)])
    for candidate in pending:
        if judging is None:
            judging = _Judging.of(answer, index, settings, shown)
        finding = _route(candidate, judging)
        if finding is None:
            continue  # grounded plainly
        if finding.via == "example":
            example_values.append(Finding(candidate.value, candidate.shape, candidate.text, at=candidate.at))
        elif finding.via is None:
            unsupported.append(finding)
        else:
            grounded_via.append(finding)
    return Verdict(status_of(unsupported, grounded_via), len(answer.candidates), tuple(unsupported),
                   tuple(grounded_via), tuple(example_values))


@dataclass(frozen=True, slots=True)
class _Judging:
    """What every route may ask while one answer is judged: the answer, the evidence, the settings, and the
    answer's computations and examples (read once, the first time a value is not said verbatim)."""

    answer: Answer
    index: EvidenceIndex
    settings: Settings
    work: arithmetic.Computations | None
    examples: examples.Examples
    shown: ShownEarlier | None
    before: list = field(default_factory=list)  # what an announced computation may take, once read (§9.23)
    derived: dict = field(default_factory=dict)  # values judged derived so far: a later chain's links
    records: list = field(default_factory=list)  # the numbers of the records its values identify, once read

    @classmethod
    def of(cls, answer: Answer, index: EvidenceIndex, settings: Settings, shown: ShownEarlier | None) -> _Judging:
        work = arithmetic.Computations(answer, _ReadOperands(index), settings.min_digits) if settings.derived else None
        return cls(answer, index, settings, work, examples.Examples(answer), shown)


def _route(candidate: Candidate, judging: _Judging) -> Finding | None:
    """None when grounded plainly; else the Finding of the first route that holds, or an unsupported one (the
    value is not said verbatim: judge_answer asked)."""
    if judging.index.is_read_plainly(candidate.value):
        return None
    for route in ROUTES:
        found = route(candidate, judging)
        if found is not None:
            return found
    work = judging.work
    bounded = work is not None and candidate.kind is NUMBER and magnitude_of(candidate.value) in work.bounded
    return Finding(candidate.value, candidate.shape, candidate.text, at=candidate.at,
                   note=BOUND_NOTE if bounded else None)


# the routes, each named after the via it grounds by (SPEC §7.1's order is ROUTES') ---------------------


def _verbatim(candidate: Candidate, judging: _Judging) -> Finding | None:
    """§9.22: the token as the answer wrote it (``12B``, not its reading 12 billion; ``2b`` of
    ``2b-parameter``), read letter for letter: a reading may add routes, never take one away."""
    written = normalise(candidate.text)
    index = judging.index
    if written != candidate.value and index.is_plain(written):  # (as the value, route 1 asked already)
        return _found(candidate, "verbatim")
    head = written_before_words(written)
    return _found(candidate, "verbatim") if head is not None and index.is_plain(head) else None


def _reading(candidate: Candidate, judging: _Judging) -> Finding | None:
    """Route 2 (§9.1, §9.2, §9.4): unit, date-part, component."""
    via = reading_of(candidate.value, judging.index)
    return _found(candidate, via) if via is not None else None


def _sign_or_rounded(candidate: Candidate, judging: _Judging) -> Finding | None:
    """Routes 3 and 4 (§9.3): sign, rounded."""
    via = _by_number(candidate, judging.index)
    return _found(candidate, via) if via is not None else None


def _range(candidate: Candidate, judging: _Judging) -> Finding | None:
    """Route 5 (§9.8, §9.15): range."""
    via = _by_range(candidate, judging.index)
    return _found(candidate, via) if via is not None else None


def _prose_date(candidate: Candidate, judging: _Judging) -> Finding | None:
    """Route 6 (§9.10): an ISO date grounded by a prose date read before it."""
    value, index = candidate.value, judging.index
    match = _ISO_DATE.fullmatch(value)
    if match is None:
        return None
    if index.has_prose_date(value):
        return _found(candidate, "prose-date")
    if index.has_prose_month_day(value) and index.is_any_form(match.group(1)):
        return _found(candidate, "prose-date", matched=f"{value[5:]} (prose) + {match.group(1)}")
    return None


def _masked(candidate: Candidate, judging: _Judging) -> Finding | None:
    """Route 7 (§9.11): every occurrence is masked and a longer read form ends with each visible tail."""
    tails = masks.masked_tails(candidate, judging.answer)
    if tails is None:
        return None
    matched = None
    for tail in tails:
        matched = judging.index.form_ending_with(tail)
        if matched is None:
            return None
    return _found(candidate, "masked", matched=matched)


def _composite(candidate: Candidate, judging: _Judging) -> Finding | None:
    """Route 8 (§9.13): every ``+``/``/`` part of an identifier is a grounded value."""
    if candidate.kind is not IDENTIFIER or not COMPOSITE_JOINER.search(candidate.value):
        return None
    parts = COMPOSITE_JOINER.split(candidate.value)
    if len(parts) < 2 or not all(parts):
        return None
    settings = judging.settings
    values = []  # every part that is no value fails the route: told before any is looked up (lookups read)
    for part in parts:
        value = normalise(part)
        if settings.is_exempt(value):
            continue
        classified = settings.classify(value)
        if classified is None:
            return None
        values.append((classified, part))
    for classified, part in values:
        if not grounded_by_early_routes(classified.value, classified.kind, part, judging.index):
            return None
    joiner = " + " if "+" in candidate.value else " / "
    return _found(candidate, "composite", matched=joiner.join(parts))


def _label(candidate: Candidate, judging: _Judging) -> Finding | None:
    """§9.25: a snake_case label or a list of attributes, judged by its value parts alone (words and short
    codes are prose); the first part not grounded is reported in the label's place."""
    if candidate.shape != "identifier":
        return None
    settings = judging.settings
    written = candidate.text
    if "/" in written and "_" not in written and candidate.occurrences:  # a list of attributes written with spaces
        first = candidate.occurrences[0]
        written += labels.unit_after(judging.answer.segments[first.segment][first.end : first.end + 8])
    parts = labels.parts_of(written, settings.min_digits)
    if parts is None or _is_reference(candidate, parts, judging):
        return None
    for part, offset in parts:
        classified = settings.classify(normalise(part))
        if classified is None or judging.index.says_verbatim(classified.value):
            continue
        if not grounded_by_early_routes(classified.value, classified.kind, part, judging.index):
            at = candidate.at + offset if candidate.at >= 0 else -1
            return Finding(classified.value, classified.shape, part, at=at)
    return _found(candidate, "label")


def _is_reference(candidate: Candidate, parts: list[tuple[str, int]], judging: _Judging) -> bool:
    """§9.25's guard: a label written as a reference, or coining an identifier of a family read, is judged
    whole (labels.presented_as_reference, labels.id_spans)."""
    if "_" not in candidate.text:
        return False  # a list of attributes
    answer, index = judging.answer, judging.index
    if any(labels.presented_as_reference(parts, words_before(answer, occurrence, labels.WORDS_BEFORE))
           for occurrence in candidate.occurrences):
        return True
    return any(index.reads_id_family(prefix) and not index.says_verbatim(span)
               for prefix, span in labels.id_spans(parts))


def _code_location(candidate: Candidate, judging: _Judging) -> Finding | None:
    """§9.26: ``path:line``, ``path:line:col``, ``path#L12-L40``: the path was read (holds_path: in a result or
    a call's arguments, the end of a longer one, below the working directory) and each line number was read
    as a line number of that file."""
    if candidate.kind is not IDENTIFIER:
        return None
    cited = code_location(candidate.text)
    if cited is None:
        return None
    path, lines = cited
    stated = judging.index.stated
    if not stated.holds_path(path):
        return None
    marks, name = stated.line_marks(), name_of(path)
    if all((name, line) in marks or (None, line) in marks for line in lines):
        return _found(candidate, "line", matched=path)
    return None


def _path(candidate: Candidate, judging: _Judging) -> Finding | None:
    """§9.26: a path (with a digit, so a value) read as written, as the end of a longer one, as a folder a
    read path lies in, or below the session's working directory."""
    written = candidate.text
    if candidate.kind is not IDENTIFIER or "/" not in written or "://" in written or not _PATH.fullmatch(written):
        return None
    return _found(candidate, "path") if judging.index.stated.holds_path(written) else None


def _reference(candidate: Candidate, judging: _Judging) -> Finding | None:
    """A reference composed from a resource and an id (``Order/ORD-4471``, ``customers/C-2291``), or a base
    URL stated plus such a path: each id part grounded (read, or given by the user), each word a name the
    conversation writes (its prompt, a tool's schema or results), the base a URL it writes."""
    written = candidate.text
    if candidate.kind is not IDENTIFIER or "/" not in written:
        return None
    stated, rest, base = judging.index.stated, written, None
    if "://" in written:
        base = stated.base_url_of(written)
        if base is None:
            return None
        rest = written[len(base) + 1 :]
    parts = rest.strip("/").split("/")
    words = [part for part in parts if part and not _DIGIT.search(part)]
    values = [part for part in parts if _DIGIT.search(part)]
    if not values or not (words or base) or "" in parts:
        return None
    if not all(_REFERENCE_WORD.fullmatch(word) and stated.writes_word(word) for word in words):
        return None
    settings, index = judging.settings, judging.index
    for part in values:
        classified = settings.classify(normalise(part))
        if classified is None or not grounded_by_early_routes(classified.value, classified.kind, part, index):
            return None
    return _found(candidate, "reference", matched=base)


def _hash_prefix(candidate: Candidate, judging: _Judging) -> Finding | None:
    """§9.26: 7 or more hex digits that begin a longer hash read (``9f3c2e1`` after git log's full hash)."""
    value = candidate.value
    if candidate.kind is not IDENTIFIER or not 7 <= len(value) <= 40 or _HEX.fullmatch(value) is None:
        return None
    return _found(candidate, "hash-prefix") if judging.index.stated.holds_hash_starting(value) else None


def _address(candidate: Candidate, judging: _Judging) -> Finding | None:
    """§9.26: an IPv4 address (and port) read as a tuple of four numbers (``{127, 0, 0, 1}``, ``port: 4000``)."""
    if candidate.value[:1].isdigit() and candidate.value.count(".") == 3:
        return _found(candidate, "address") if candidate.value in judging.index.stated.addresses() else None
    return None


def _version_range(candidate: Candidate, judging: _Judging) -> Finding | None:
    """§9.26: a version with a wildcard (``1.4.x``, ``2.*``) is grounded by a read version it matches."""
    match = _WILDCARD_VERSION.fullmatch(candidate.value)
    if match is None or not judging.index.stated.holds_version_under(match.group(1)):
        return None
    return _found(candidate, "version-range")


def _computed(candidate: Candidate, judging: _Judging) -> Finding | None:
    """Routes 9 and 10 (§9.7, §9.9, §9.23, §9.24): a computation the answer writes (stated, listed-total), one
    the assistant wrote before it (shown-earlier), then a formula over operands (derived), wider for a value
    the answer announces as computed."""
    work = judging.work
    if work is None or candidate.kind is not NUMBER or masks.all_masked(candidate, judging.answer):
        return None
    magnitude = magnitude_of(candidate.value)
    stated = work.stated(magnitude)
    if stated is not None:
        return _found(candidate, *stated)
    if work.is_refuted(magnitude) or reads_as_year(candidate):
        return None
    shown = judging.shown
    if shown is not None:
        earlier = shown.stated(magnitude, _ReadOperands(judging.index), judging.settings)
        if earlier is not None:
            return Finding(candidate.value, candidate.shape, candidate.text, "shown-earlier", formula=earlier[0],
                           matched=earlier[1], at=candidate.at)
        if shown.refutes(magnitude, _ReadOperands(judging.index), judging.settings):
            return None
    formula = find_formula(magnitude, judging.index, work.named, work.bounded)
    if formula is None:
        formula = judging.index.mean_formula(magnitude, max(decimals_written(candidate.text), 0))
    if formula is None:
        formula = _through_records(magnitude, judging)
    if formula is None and announcing.announcing_words(candidate, judging.answer) is not None:
        formula = _announced(candidate, magnitude, judging) or _chained(candidate, magnitude, judging)
    if formula is None:
        formula = _percentage(candidate, magnitude, judging)
    if formula is None:
        return None
    judging.derived[magnitude] = formula  # a link of later chains
    return _found(candidate, "derived", formula)


def _through_records(magnitude: Decimal, judging: _Judging) -> str | None:
    """A formula over the numbers the answer writes and those of the records its values identify (an item
    id beside its price: evidence/records.py), the chance counted among them (derive.named_formula)."""
    work = judging.work
    assert work is not None  # (_computed asked)
    if not judging.records:  # read once per answer, the first time a value asks
        ids = frozenset(candidate.value for candidate in judging.answer.candidates)
        judging.records.append(frozenset(judging.index.stated.record_numbers(ids)))
    numbers = judging.records[0]
    formula = named_formula(magnitude, judging.index, work.named | numbers) if numbers - work.named else None
    return None if formula is None else f"{formula} (operands of the records the answer names)"


def _before(judging: _Judging) -> announced.Before:
    """What the wider searches may take (§9.23), read once per answer, the first time one asks."""
    if not judging.before:
        judging.before.append(announced.Before(judging.index, "\n".join(judging.answer.segments)))
    return judging.before[0]


def _announced(candidate: Candidate, magnitude: Decimal, judging: _Judging) -> str | None:
    """§9.23: the wider search for a value the answer announces as a computation."""
    work = judging.work
    assert work is not None  # (_computed asked)
    formula, bounded = announced.formula_for(magnitude, decimals_written(candidate.text), _before(judging),
                                             announcing.numbers_before(candidate, judging.answer), work.named)
    if bounded:
        work.bounded.add(magnitude)
    return formula


def _chained(candidate: Candidate, magnitude: Decimal, judging: _Judging) -> str | None:
    """An announced computation over numbers read and links: the numbers the answer writes before the value
    that are themselves derived (a value judged derived before it, or a shorter number §9.7 derives)."""
    work, index = judging.work, judging.index
    assert work is not None  # (_computed asked)
    before = _before(judging)
    named_before = announcing.numbers_before(candidate, judging.answer)
    links = {}
    for written in sorted(named_before):
        if written == magnitude or spell(written) in before.numbers:
            continue
        link = judging.derived.get(written) or index.total_formula(written) or exact_formula(written, index)
        if link is not None:
            links[written] = link
    if not links:
        return None
    formula, bounded = announced.chained_formula(magnitude, decimals_written(candidate.text), before, named_before,
                                                 work.named, links)
    if bounded:
        work.bounded.add(magnitude)
    return formula


def _percentage(candidate: Candidate, magnitude: Decimal, judging: _Judging) -> str | None:
    """A percent change or share written as a percentage, or a number read scaled by a percentage the
    conversation states (evidence/percentages.py): over the numbers read, else over those the answer
    names."""
    segments, work = judging.answer.segments, judging.work
    assert work is not None  # (_computed asked)
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


def _date_offset(candidate: Candidate, judging: _Judging) -> Finding | None:
    """§9.19: a date that is an offset the answer or the user's text states from a date read or exempt
    ("the day after", "in 3 days")."""
    work, index = judging.work, judging.index
    if work is None or _ISO_DATE.fullmatch(candidate.value) is None:
        return None
    formula = date_offsets.find_offset(candidate.value, work.stated_offsets | index.stated_offsets(), index.is_any_form)
    if formula is None and (todays := index.stated.todays()):
        phrases = index.stated.relative_phrases() | relative_dates.phrases_in("\n".join(judging.answer.segments))
        formula = relative_dates.find_relative(candidate.value, phrases, todays)
    return None if formula is None else _found(candidate, "date-offset", formula)


def _example(candidate: Candidate, judging: _Judging) -> Finding | None:
    """Route 11 (§9.12): an example, unless one of its neighbours was read (then it looks like a typo)."""
    if judging.examples.written_as_example(candidate) and not _neighbour_read(candidate.value, judging.index):
        return _found(candidate, "example")
    return None


def _truncated(candidate: Candidate, judging: _Judging) -> Finding | None:
    """The answer ends inside this value (cut_off) and a value read begins with the fragment: the output
    was cut, not invented."""
    fragment = cut_off_fragment(candidate, judging.answer)
    if fragment is None:
        return None
    read = judging.index.form_starting_with(fragment)
    return _found(candidate, "truncated", matched=read) if read is not None else None


ROUTES: tuple[Callable[[Candidate, _Judging], Finding | None], ...] = (
    _verbatim, _reading, _sign_or_rounded, _range, _prose_date, _masked, _label, _code_location, _path, _reference, _hash_prefix, _version_range, _address, _composite, _computed, _date_offset, _example, _truncated,
)


def _found(candidate: Candidate, via: str, formula: str | None = None, matched: str | None = None) -> Finding:
    if via in COMPUTED_VIA:
        return Finding(candidate.value, candidate.shape, candidate.text, via, formula=formula, at=candidate.at)
    return Finding(candidate.value, candidate.shape, candidate.text, via, matched=matched, at=candidate.at)


# what the routes share ----------------------------------------------------------------------------------


def reading_of(value: str, index: EvidenceIndex) -> str | None:
    """Route 2: the best §9 reading among the value's forms: unit, then date part, then component."""
    return index.reading_of(lookup_forms(value))


def magnitude_of(value: str) -> Decimal:
    return abs(Decimal(canonical(value)))


def _by_number(candidate: Candidate, index: EvidenceIndex) -> str | None:
    """Routes 3 and 4: sign, then rounding (numbers only)."""
    if candidate.kind is not NUMBER:
        return None
    magnitude = magnitude_of(candidate.value)
    if index.has_number(magnitude):
        return "sign"
    if index.has_number_rounding_to(magnitude, decimals_written(candidate.text)):
        return "rounded"
    return None


def _by_range(candidate: Candidate, index: EvidenceIndex) -> str | None:
    """Route 5: both ends of a range grounded plainly, by a reading, or by sign (§9.8)."""
    if candidate.kind is not RANGE:
        return None
    ends = range_ends(candidate.value)
    if ends and all(_end_grounded(normalise(end), index) for end in ends):
        return "range"
    return None


def _end_grounded(end: str, index: EvidenceIndex) -> bool:
    if index.is_plain(end) or reading_of(end, index) is not None:
        return True
    return is_number(end) and index.has_number(magnitude_of(end))  # a time or a date has no sign (§9.15)


def grounded_by_early_routes(value: str, kind: Kind, text: str, index: EvidenceIndex) -> bool:
    """Routes 1–5 for a bare value (composite parts, §9.13)."""
    probe = Candidate(value, "", kind, text)
    if index.is_plain(value) or reading_of(value, index) is not None:
        return True
    return _by_number(probe, index) is not None or _by_range(probe, index) is not None


def reads_as_year(candidate: Candidate) -> bool:
    """A number written as four bare digits from 1900 to 2100: a year, which arithmetic never explains
    (§9.20: ``1962 = 1974 - 12`` is a coincidence, not a reading). ``$2,000`` and ``2000.5`` are amounts."""
    return len(candidate.text) == 4 and candidate.text.isdigit() and int(candidate.text) in _YEARS


@dataclass(frozen=True, slots=True)
class _ReadOperands:
    """The evidence's side of a computation the answer shows (arithmetic.Operands)."""

    index: EvidenceIndex

    def is_read(self, magnitude: Decimal, decimals: int) -> bool:
        index = self.index
        return (index.is_any_form(spell(magnitude)) or index.has_number(magnitude)
                or index.has_number_rounding_to(magnitude, decimals))

    def is_derived(self, magnitude: Decimal) -> bool:
        return find_formula(magnitude, self.index) is not None


def _neighbour_read(value: str, index: EvidenceIndex) -> bool:
    """True when a spelling one character off value was read (examples.neighbours): a typo of a read value."""
    variants = examples.neighbours(value)
    # said verbatim first: a search of the texts seen, where a form may send a huge result through reading
    return any(map(index.says_verbatim, variants)) or any(map(index.is_any_form, variants))
