"""What every route of the judge may ask while one answer is judged (SPEC §7.1): the answer, the evidence,
the settings and the answer's work, and the early routes (1–5) that later routes ask of a value's parts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

import regex

from grounding.core.answer import arithmetic, examples
from grounding.core.answer.candidates import Answer, Candidate
from grounding.core.answer.shown_earlier import ShownEarlier
from grounding.core.evidence.derive import find_formula
from grounding.core.evidence.index import EvidenceIndex
from grounding.core.settings import Settings
from grounding.core.text.normalise import canonical, decimals_written, is_number, lookup_forms, normalise, spell
from grounding.core.text.values import NUMBER, RANGE, Kind, range_ends
from grounding.model import COMPUTED_VIA, Finding

ISO_DATE = regex.compile(r"(\d{4})-(\d{2})-(\d{2})")
_YEARS = range(1900, 2101)



@dataclass(frozen=True, slots=True)
class Judging:
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
    dense: set = field(default_factory=set)  # values some formula over everything read gives, but by chance

    @classmethod
    def of(cls, answer: Answer, index: EvidenceIndex, settings: Settings, shown: ShownEarlier | None) -> Judging:
        work = arithmetic.Computations(answer, ReadOperands(index), settings.min_digits) if settings.derived else None
        authored_code = settings.code_blocks == "examples"
        return cls(answer, index, settings, work,
                   examples.Examples(answer, index.stated.holds_lines, authored_code=authored_code), shown)


def found(candidate: Candidate, via: str, formula: str | None = None, matched: str | None = None) -> Finding:
    if via in COMPUTED_VIA:
        return Finding(candidate.value, candidate.shape, candidate.text, via, formula=formula, at=candidate.at)
    return Finding(candidate.value, candidate.shape, candidate.text, via, matched=matched, at=candidate.at)


# what the routes share ----------------------------------------------------------------------------------


def reading_of(value: str, index: EvidenceIndex) -> str | None:
    """Route 2: the best §9 reading among the value's forms: unit, then date part, then component."""
    return index.reading_of(lookup_forms(value))


def magnitude_of(value: str) -> Decimal:
    return abs(Decimal(canonical(value)))


def by_number(candidate: Candidate, index: EvidenceIndex) -> str | None:
    """Routes 3 and 4: sign, then rounding (numbers only)."""
    if candidate.kind is not NUMBER:
        return None
    magnitude = magnitude_of(candidate.value)
    if index.has_number(magnitude):
        return "sign"
    if index.has_number_rounding_to(magnitude, decimals_written(candidate.text)):
        return "rounded"
    return None


def by_range(candidate: Candidate, index: EvidenceIndex) -> str | None:
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
    return by_number(probe, index) is not None or by_range(probe, index) is not None


def reads_as_year(candidate: Candidate) -> bool:
    """A number written as four bare digits from 1900 to 2100: a year, which arithmetic never explains
    (§9.20: ``1962 = 1974 - 12`` is a coincidence, not a reading). ``$2,000`` and ``2000.5`` are amounts."""
    return len(candidate.text) == 4 and candidate.text.isdigit() and int(candidate.text) in _YEARS


@dataclass(frozen=True, slots=True)
class ReadOperands:
    """The evidence's side of a computation the answer shows (arithmetic.Operands)."""

    index: EvidenceIndex

    def is_read(self, magnitude: Decimal, decimals: int) -> bool:
        index = self.index
        return (index.is_any_form(spell(magnitude)) or index.has_number(magnitude)
                or index.has_number_rounding_to(magnitude, decimals))

    def is_derived(self, magnitude: Decimal) -> bool:
        return find_formula(magnitude, self.index) is not None


def neighbour_read(value: str, index: EvidenceIndex) -> bool:
    """True when a spelling one character off value was read (examples.neighbours): a typo of a read value."""
    if not _may_have_read_a_neighbour(value, index):
        return False
    variants = examples.neighbours(value)
    # said verbatim first: a search of the texts seen, where a form may send a huge result through reading
    return any(map(index.says_verbatim, variants)) or any(map(index.is_any_form, variants))


def _may_have_read_a_neighbour(value: str, index: EvidenceIndex) -> bool:
    """False when no spelling one character off value can have been read: a neighbour of an identifier
    (a value with a letter, read as written) holds one half of it whole, the half its changed character is
    not in, and no text seen holds either half. Numbers and dates are read in other spellings too: for them
    every neighbour is looked up."""
    if not any(character.isalpha() for character in value):
        return True
    mentions = index.stated.mentions
    return any(mentions(part[: len(part) // 2]) or mentions(part[len(part) // 2 :])
               for part in examples.typo_parts(value))
