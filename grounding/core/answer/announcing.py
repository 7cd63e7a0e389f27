"""Values the answer announces as computed (SPEC §9.23): its clause says total, difference, remaining,
refund, per night… The evidence side widens its search for these (grounding.core.evidence.announced).
"""

from __future__ import annotations

from decimal import Decimal

import regex

from grounding.core.answer.candidates import Answer, Candidate, numbers_in
from grounding.core.answer.clauses import clause_of
from grounding.core.text.patterns import LazyPattern

_ANNOUNCING = LazyPattern(
    regex.compile,
    r"\b(?:totals?|in\s+total|in\s+all|altogether|combined|sum|difference|more\s+than|less\s+than|increase"
    r"|increased\s+by|decrease|decreased\s+by|rises\s+by|new\s+amount|new\s+balance|new\s+total|remaining|left"
    r"|after|saving|savings|refund|per\s+person|per\s+night|per\s+day|each|weekly|monthly|average)\b",
    regex.IGNORECASE,
)


def announcing_words(candidate: Candidate, answer: Answer) -> str | None:
    """The word that announces the candidate as a computation, in the clause of one of its occurrences; None
    when no clause of it announces one.

    >>> from grounding.core.answer.candidates import read_answer
    >>> from grounding.core.settings import Settings
    >>> answer = read_answer("Fare 1,450. In total you paid $1,268.40; ok", Settings())
    >>> [announcing_words(c, answer) for c in answer.candidates]
    [None, 'In total']
    >>> answer = read_answer('{"total_after_discount": 1813, "order": "W4410022"}', Settings())
    >>> [announcing_words(c, answer) for c in answer.candidates]
    ['total', None]
    """
    for occurrence in candidate.occurrences:
        found = _ANNOUNCING.search(*clause_of(answer, occurrence))
        if found is None and answer.keys:  # a JSON leaf's key announces as the words before it would
            found = _ANNOUNCING.search(answer.keys[occurrence.segment].replace("_", " ").replace("-", " "))
        if found is not None:
            return found.group()
    return None


def numbers_before(candidate: Candidate, answer: Answer) -> frozenset[Decimal]:
    """The magnitude of every number the answer writes before the candidate's first occurrence: the
    operands it names itself (§9.23's neighbour exception)."""
    if not candidate.occurrences:
        return frozenset()
    first = candidate.occurrences[0]
    return numbers_in((*answer.segments[: first.segment], answer.segments[first.segment][: first.start]))
