"""The clause a value of an answer is written in: what its words present it as (SPEC §9.23, §9.25).

A clause ends at a sentence's end, a semicolon or a line break (a decimal point is followed by a digit). In
a JSON answer a leaf's clause begins with the key it is written under: ``"total_after_discount": 1813``
says what ``1813`` is as the words before it in prose would.
"""

from __future__ import annotations

import regex

from grounding.core.answer.candidates import Answer, Occurrence
from grounding.core.text.patterns import LazyPattern

_CLAUSE_END = LazyPattern(regex.compile, r"[.!?;](?=\s|$)|\n|\\n")
_WORD = LazyPattern(regex.compile, r"[^\W\d_]+")


def clause_of(answer: Answer, occurrence: Occurrence) -> tuple[str, int, int]:
    """(text, start, end): the text an occurrence is written in and its clause's span there."""
    text = answer.segments[occurrence.segment]
    start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, occurrence.start)), default=0)
    end = _CLAUSE_END.search(text, occurrence.start)
    return text, start, end.start() if end else len(text)


def words_before(answer: Answer, occurrence: Occurrence, count: int) -> list[str]:
    """The last count words (lower case, ``refund_id`` is two) before an occurrence in its clause, the key
    of its JSON leaf first.

    >>> from grounding.core.settings import Settings
    >>> from grounding.core.answer.candidates import read_answer
    >>> answer = read_answer("Done. Your refund reference is ref_ORD55120_x", Settings())
    >>> words_before(answer, answer.candidates[0].occurrences[0], 3)
    ['refund', 'reference', 'is']
    >>> answer = read_answer('{"refund_id": "ORD55120_x"}', Settings())
    >>> words_before(answer, answer.candidates[0].occurrences[0], 3)
    ['refund', 'id']
    """
    text, start, _ = clause_of(answer, occurrence)
    key = answer.keys[occurrence.segment] if answer.keys else ""
    words = _WORD.findall(key.lower()) + _WORD.findall(text[start : occurrence.start].lower())
    return words[-count:]
