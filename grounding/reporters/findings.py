"""What the CI formats report: one finding per unsupported value, example, or unjudgeable answer.

A finding's fingerprint is built from the file (relative), the conversation id
(or, without one, the line), the turn and the normalised value — never from a
line number alone — so a rerun on a grown log does not report the same value
as new, and the same value in two turns or two files is two findings.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass

from grounding.model import ALL_CODES, BY_NAME, JudgedAnswer, Status, shown_shape


@dataclass(frozen=True, slots=True)
class Finding:
    rule: str
    source: str
    line: int
    conversation: str | None
    turn: int
    value: str  # normalised ("" for an unjudgeable answer)
    text: str  # as written
    shape: str
    message: str

    @property
    def level(self) -> str:
        return BY_NAME[self.rule].level

    @property
    def code(self) -> str:
        return BY_NAME[self.rule].code

    @property
    def fingerprint(self) -> str:
        """The finding's identity across runs: its rule, file (as a path relative to where the run is), its
        conversation (or, without an id, its line) and turn, and its value; no line number when there is an id,
        so a rerun on a grown log does not report the same value as new."""
        owner = self.conversation if self.conversation is not None else f"line {self.line}"
        where = self.source if self.source == "-" else _relative(self.source)
        key = f"{self.rule}\0{where}\0{owner}\0{self.turn}\0{self.value}"
        return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()

    @property
    def where(self) -> str:
        conversation = self.conversation if self.conversation is not None else "-"
        return f"conversation {conversation} turn {self.turn}"


def _relative(path: str) -> str:
    try:
        return os.path.relpath(path).replace(os.sep, "/")
    except ValueError:  # another drive (Windows)
        return path.replace(os.sep, "/")


def findings_of(judged: JudgedAnswer, *, derived: bool = False, codes: frozenset[str] = ALL_CODES) -> Iterator[Finding]:
    """The findings of one answer whose rules are selected (codes): unsupported values, examples, unjudgeable,
    and derived values if asked."""
    for finding in _findings(judged, derived):
        if finding.code in codes:
            yield finding


def _findings(judged: JudgedAnswer, derived: bool) -> Iterator[Finding]:
    verdict = judged.verdict
    common = (judged.source, judged.line, judged.conversation, judged.turn)
    if verdict.status is Status.UNJUDGEABLE:
        yield Finding("unjudgeable", *common, "", "", "", f"cannot judge: {verdict.reason}")
        return
    if verdict.status in (Status.TRUNCATED, Status.REFUSED):
        yield Finding(verdict.status.value, *common, "", "", "", verdict.reason or verdict.status.value)
        return
    if verdict.status is Status.CONTRACT_UNMET:
        contract = verdict.contract
        tries = f" ({len(contract.attempts)} attempts)" if len(contract.attempts) > 1 else ""
        yield Finding("contract-unmet", *common, "", "", "", f"contract unmet at {contract.stage}: {contract.error}{tries}")
        return
    for value in verdict.unsupported:
        yield Finding("unsupported-value", *common, value.value, value.text, value.shape,
                      f"{value.text} ({shown_shape(value.value, value.shape)}) appears in no tool result read before it")
    for value in verdict.examples:
        yield Finding("example", *common, value.value, value.text, value.shape,
                      f"{value.text} is written as an example, not a claim")
    if derived:
        for value in verdict.grounded_via:
            if value.formula is not None:
                yield Finding("derived-value", *common, value.value, value.text, value.shape,
                              f"{value.text} was computed: {value.formula}")
