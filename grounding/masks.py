"""Masked values: ``ending in 4821``, ``****4821``, ``xxxx-2847`` (SPEC §9.11). Stub until §9.11 lands."""

from __future__ import annotations

from grounding.candidates import Answer, Candidate
from grounding.evidence import EvidenceIndex


def masked_match(candidate: Candidate, answer: Answer, index: EvidenceIndex) -> tuple[str | None, str | None]:
    return None, None


def all_masked(candidate: Candidate, answer: Answer) -> bool:
    return False
