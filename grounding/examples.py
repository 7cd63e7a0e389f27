"""Examples are not claims (SPEC §9.12). Stub until §9.12 lands."""

from __future__ import annotations

from grounding.candidates import Answer, Candidate
from grounding.evidence import EvidenceIndex


def is_example(candidate: Candidate, answer: Answer, index: EvidenceIndex) -> bool:
    return False
