"""Judge one final answer against the index read before it (SPEC §7.1).

Each candidate is tried route by route; the first that holds decides and is
the ``via`` the report shows. A value grounded plainly has no ``via``.
"""

from __future__ import annotations

from collections.abc import Callable

from grounding.core import computed_routes as computed
from grounding.core import identifier_routes as notation
from grounding.core.answer import masks
from grounding.core.answer.candidates import Candidate, read_answer
from grounding.core.answer.locale_numbers import locale_readings
from grounding.core.answer.shown_earlier import ShownEarlier
from grounding.core.evidence.derive import BOUND_NOTE
from grounding.core.evidence.index import EvidenceIndex
from grounding.core.judging import (
    ISO_DATE,
    Judging,
    by_number,
    by_range,
    found,
    magnitude_of,
    neighbour_read,
    reading_of,
)
from grounding.core.settings import Settings
from grounding.core.text.normalise import lookup_forms, normalise
from grounding.core.text.numeric_dates import numeric_dates
from grounding.core.text.units import CJK_SCALES, SPACE_GROUPS, scale_word_after, written_before_words
from grounding.core.text.values import DECLARED, NUMBER
from grounding.model import Finding, Verdict, status_of

_LOOKED_FOR_TOGETHER = 8  # values not said verbatim from which the pieces are searched for all at once


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
            judging = Judging.of(answer, index, settings, shown)
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


def _route(candidate: Candidate, judging: Judging) -> Finding | None:
    """None when grounded plainly; else the Finding of the first route that holds, or an unsupported one (the
    value is not said verbatim: judge_answer asked)."""
    if judging.index.is_read_plainly(candidate.value):
        return None
    if candidate.kind is DECLARED and " " in candidate.value and judging.index.phrases.say(candidate.value):
        return None  # a phrase a declared shape matches (a name), written in a text read
    for route in ROUTES:
        found = route(candidate, judging)
        if found is not None:
            return found
    work = judging.work
    bounded = work is not None and candidate.kind is NUMBER and magnitude_of(candidate.value) in work.bounded
    return Finding(candidate.value, candidate.shape, candidate.text, at=candidate.at,
                   note=BOUND_NOTE if bounded else None)


# the routes, each named after the via it grounds by (SPEC §7.1's order is ROUTES') ---------------------


def _verbatim(candidate: Candidate, judging: Judging) -> Finding | None:
    """§9.22: the token as the answer wrote it (``12B``, not its reading 12 billion; ``2b`` of
    ``2b-parameter``; ``148.51`` of ``$148.51 billion``), read letter for letter: a reading may add routes,
    never take one away."""
    written = normalise(candidate.text)
    index = judging.index
    if written != candidate.value and index.is_plain(written):  # (as the value, route 1 asked already)
        return found(candidate, "verbatim")
    head = written_before_words(written)
    if head is None and (" " in written or not written.isascii()):  # a number with a scale word: as written
        number = written.split(" ", 1)[0] if " " in written else written.rstrip(CJK_SCALES)  # (5500万)
        head = number if scale_word_after(written, len(number)) is not None else None
    return found(candidate, "verbatim") if head is not None and index.is_plain(head) else None


def _reading(candidate: Candidate, judging: Judging) -> Finding | None:
    """Route 2 (§9.1, §9.2, §9.4): unit, date-part, component."""
    via = reading_of(candidate.value, judging.index)
    return found(candidate, via) if via is not None else None


def _sign_or_rounded(candidate: Candidate, judging: Judging) -> Finding | None:
    """Routes 3 and 4 (§9.3): sign, rounded."""
    via = by_number(candidate, judging.index)
    return found(candidate, via) if via is not None else None


def _range(candidate: Candidate, judging: Judging) -> Finding | None:
    """Route 5 (§9.8, §9.15): range."""
    via = by_range(candidate, judging.index)
    return found(candidate, via) if via is not None else None


def _prose_date(candidate: Candidate, judging: Judging) -> Finding | None:
    """Route 6 (§9.10): an ISO date grounded by a prose date read before it."""
    value, index = candidate.value, judging.index
    match = ISO_DATE.fullmatch(value)
    if match is None:
        return None
    if index.has_prose_date(value):
        return found(candidate, "prose-date")
    if index.has_prose_month_day(value) and index.is_any_form(match.group(1)):
        return found(candidate, "prose-date", matched=f"{value[5:]} (prose) + {match.group(1)}")
    return None


def _date_order(candidate: Candidate, judging: Judging) -> Finding | None:
    """A numeric date written in another order (``24.06.2024``, ``06/24/2024``) grounded when one of the
    ISO dates it can be was read, plainly, as a date part or in prose."""
    index = judging.index
    for iso in numeric_dates(candidate.value):
        if index.is_plain(iso) or reading_of(iso, index) is not None or index.has_prose_date(iso):
            return found(candidate, "date")
    return None


def _locale_number(candidate: Candidate, judging: Judging) -> Finding | None:
    """A number written as another language groups and points it (``1.234,56``, ``1'234.56``, ``41.200``),
    of which the candidate is a piece or the whole: grounded when every occurrence reads as a number read."""
    if not candidate.occurrences or judging.answer.is_json or not _DIGITS_AND_MARKS.issuperset(candidate.text):
        return None
    for occurrence in candidate.occurrences:
        text = judging.answer.segments[occurrence.segment]
        readings = locale_readings(text, occurrence.start, occurrence.end)
        if not any(judging.index.has_number(reading) for reading in readings):
            return None
    return found(candidate, "locale")


def _side_by_side(candidate: Candidate, judging: Judging) -> Finding | None:
    """A run of digit groups plain spaces may join into one number (``41 900``) may also be numbers side by side
    (``rooms 101 202``): grounded, as its tokens are written (§9.22), when each of them was read."""
    text = candidate.text
    if " " not in text or SPACE_GROUPS.fullmatch(text) is None:  # (a decimal comma after them: one number)
        return None
    index = judging.index
    return found(candidate, "verbatim") if all(index.is_plain(part) for part in text.split(" ")) else None


def _masked(candidate: Candidate, judging: Judging) -> Finding | None:
    """Route 7 (§9.11): every occurrence is masked and a longer read form ends with each visible tail."""
    tails = masks.masked_tails(candidate, judging.answer)
    if tails is None:
        return None
    matched = None
    for tail in tails:
        matched = judging.index.form_ending_with(tail)
        if matched is None:
            return None
    return found(candidate, "masked", matched=matched)


def _example(candidate: Candidate, judging: Judging) -> Finding | None:
    """Route 11 (§9.12): an example, unless one of its neighbours was read (then it looks like a typo)."""
    if judging.examples.written_as_example(candidate) and not neighbour_read(candidate.value, judging.index):
        return found(candidate, "example")
    return None


_DIGITS_AND_MARKS = frozenset("0123456789.,'")  # what a locale number's piece is written with


ROUTES: tuple[Callable[[Candidate, Judging], Finding | None], ...] = (
    _verbatim, _reading, _sign_or_rounded, _range, _prose_date, _date_order, _locale_number, _side_by_side, _masked,
    notation.label, notation.code_location, notation.path, notation.reference, notation.repository_link,
    notation.hash_prefix, notation.version_range, notation.address, notation.same_url, notation.composite,
    computed.computed, computed.date_offset, _example, notation.truncated,
)


