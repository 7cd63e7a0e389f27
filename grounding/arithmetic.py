"""Arithmetic the answer shows (SPEC §9.9). Stub until §9.9 lands."""

from __future__ import annotations

from decimal import Decimal

from grounding.candidates import Answer
from grounding.evidence import EvidenceIndex
from grounding.settings import Settings


class Computations:
    def __init__(self, answer: Answer, index: EvidenceIndex, settings: Settings) -> None:
        pass

    def stated(self, magnitude: Decimal) -> tuple[str, str] | None:
        return None

    def is_refuted(self, magnitude: Decimal) -> bool:
        return False
