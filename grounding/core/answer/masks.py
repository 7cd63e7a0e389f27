"""Masked values: ``ending in 4821``, ``****4821``, ``XXXX-XXXX-2847`` (SPEC §9.11).

Digits written as the end of a masked value are grounded when a read value
ends with them. Masked digits are an id fragment: they are never computed.
"""

from __future__ import annotations

import regex

from grounding.core.answer.candidates import Answer, Candidate, Occurrence
from grounding.core.text.patterns import LazyPattern

_PHRASE = LazyPattern(
    regex.compile, r"\b(?:ending(?:\s+(?:in|with))?|ends\s+(?:in|with)|last\s+(?:four|4)|last\s+digits"
    r"|last\s+(?:four|4|three|3|five|5|six|6)\s+digits)"
    r"(?:\s+(?:of|are|is))?[\s:#(\"'“”‘’«»`]*$",
    regex.IGNORECASE,
)
_MASK_RUN = LazyPattern(regex.compile, r"(?:[*•●·∙]{2,}|…|\.{3,})[ \u00a0]?$")
_ASTERISKS = LazyPattern(regex.compile, r"\*{2,}[ \u00a0]?$")
_MASKED_TOKEN = LazyPattern(regex.compile, r"(?:[xX]{3,}|#{2,})(?:[-_.][xX]+)*[-_.]?(?P<tail>.+)")
_DOTTED_TOKEN = LazyPattern(regex.compile, r".*?\.{3,}(?P<tail>.+)")
_DIGITS = LazyPattern(regex.compile, r"\d+")
_HAS_DIGIT = LazyPattern(regex.compile, r"\d")
_LOOKBACK = 48


def masked_tails(candidate: Candidate, answer: Answer) -> list[str] | None:
    """Route 7's claim: the visible tail of every occurrence, when every one is masked; else None (the
    judge asks whether a longer read form ends with each)."""
    tails = []
    for occurrence in candidate.occurrences:
        tail = _tail(candidate, answer.segments[occurrence.segment], occurrence)
        if tail is None:
            return None
        tails.append(tail)
    return tails or None


def all_masked(candidate: Candidate, answer: Answer) -> bool:
    """True when every occurrence shows only the end of a value (then it is never computed)."""
    return bool(candidate.occurrences) and all(
        _tail(candidate, answer.segments[o.segment], o) is not None for o in candidate.occurrences
    )


def _tail(candidate: Candidate, segment: str, occurrence: Occurrence) -> str | None:
    """The visible tail of a masked occurrence, or None when the occurrence is a plain claim."""
    written = segment[occurrence.start : occurrence.end]
    token = _MASKED_TOKEN.fullmatch(written) or _DOTTED_TOKEN.fullmatch(written)
    if token is not None and _HAS_DIGIT.search(token.group("tail")):
        return token.group("tail").lower()
    before = segment[max(0, occurrence.start - _LOOKBACK) : occurrence.start]
    if _DIGITS.fullmatch(candidate.value) and _PHRASE.search(before):
        return candidate.value
    if _MASK_RUN.search(before) and not _is_emphasis(segment, occurrence, before):
        return candidate.value
    return None




def _is_emphasis(segment: str, occurrence: Occurrence, before: str) -> bool:
    """Asterisks that make bold text, not a mask: ``**6825**``, or ``**Total:** $2,384``."""
    if not _ASTERISKS.search(before):
        return False
    if segment[occurrence.end : occurrence.end + 1] == "*":
        return True
    line_start = segment.rfind("\n", 0, occurrence.start) + 1
    run = _ASTERISKS.search(segment, line_start, occurrence.start)
    opened_before = segment[line_start : run.start()] if run else ""
    return opened_before.count("**") % 2 == 1
