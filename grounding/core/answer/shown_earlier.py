"""Work the assistant showed before an answer (SPEC §9.24).

An agent often works a sum out in its reasoning, in the text it writes beside a
tool call, or in the call's arguments (``"amount": "1500.0 (1450.0 + 50.0
increase)"``), then states only the result. Those words are read the way §9.9
reads the answer's own written computations: an equation whose operands were
read (or computed by an earlier equation) and whose arithmetic is exact makes
its result ``shown-earlier`` for the answers after it. Nothing else the
assistant wrote grounds anything: a number it only stated, or passed to a tool,
stays unsupported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from grounding.core.answer.arithmetic import Computations, Operands
from grounding.core.answer.candidates import json_leaves, read_answer
from grounding.core.settings import Settings
from grounding.model import ANSWER, EVIDENCE, Item


def _may_compute(text: str) -> bool:
    """False for a text that writes no equation worth lexing: no "=", "+" or "(" (each found in C)."""
    return "=" in text or "+" in text or "(" in text


class ShownEarlier:
    """The assistant's words in one conversation before the answer being judged: its answers, the text and
    reasoning beside its calls (Item.work), its calls' arguments. The conversation's walk only notes where
    they are (worked: positions of items, in order, the engine appends to); each is read, for equations,
    when an answer first needs them."""

    def __init__(self, items: Sequence[Item], worked: list[int]) -> None:
        self._items = items
        self._worked = worked
        self._scanned = 0  # how many of worked are read whole
        self._work_read = -1  # the position whose work (not its answer text) is read: the answer being judged
        self._answer = -1  # the position of the answer being judged
        self._texts: list[tuple[str, str, bool]] = []  # (text, where it was written, a call's arguments)
        self._read: list[tuple[Computations, str]] = []

    def before(self, position: int) -> None:
        """The answer at position is judged next: what was written before it counts, and its own work."""
        self._answer = position

    def withdraw(self, position: int) -> None:
        """The answer judged at position was a candidate the conversation does not hold (Walk.judge_next): the
        item that comes to stand there is read afresh."""
        if self._work_read == position:
            self._work_read = -1

    def _scan(self) -> None:
        worked, items = self._worked, self._items
        while self._scanned < len(worked) and worked[self._scanned] <= self._answer:
            position = worked[self._scanned]
            item = items[position]
            if position != self._work_read:
                if item.work:
                    self._see(item.work, f"the assistant's own words at item {position + 1}", False)
                if item.kind is EVIDENCE and item.call_arguments:
                    self._see(item.call_arguments, f"the arguments of its call to {item.tool or 'a tool'}", True)
            if position == self._answer:
                self._work_read = position  # its text is the answer: read for the answers after it
                return
            if item.kind is ANSWER:
                self._see(item.text, f"the assistant's answer at item {position + 1}", False)
            self._scanned += 1

    def _see(self, text: str, where: str, arguments: bool) -> None:
        if _may_compute(text):  # (a JSON number alone shows no work: arguments are read by their strings)
            self._texts.append((text, where, arguments))

    def stated(self, magnitude: Decimal, operands: Operands, settings: Settings) -> tuple[str, str] | None:
        """(formula, where) of the first equation shown earlier whose result is magnitude, or None."""
        for work, where in self._works(operands, settings):
            found = work.stated(magnitude)
            if found is not None:
                return found[1], where
        return None

    def refutes(self, magnitude: Decimal, operands: Operands, settings: Settings) -> bool:
        """True when an equation shown earlier gives magnitude with arithmetic that does not hold (and none
        that holds gives it): as in the answer's own text (§9.9), §9.7 may not then explain the value."""
        works = self._works(operands, settings)
        return any(work.is_refuted(magnitude) for work, _ in works) and self.stated(magnitude, operands, settings) is None

    def _works(self, operands: Operands, settings: Settings) -> list[tuple[Computations, str]]:
        self._scan()
        for text, where, arguments in self._texts[len(self._read) :]:
            earlier = _Earlier(operands, tuple(self._read))  # the equations before this text, not after it
            leaves = json_leaves(text) if arguments else None  # a call's arguments: their leaves, one a line
            written = text if leaves is None else "\n".join(leaves)
            self._read.append((Computations(read_answer(written, settings), earlier, settings.min_digits), where))
        return self._read


@dataclass(frozen=True, slots=True)
class _Earlier:
    """Operands for one text's equations: read in the evidence, or the result of an equation shown before it."""

    evidence: Operands
    before: tuple[tuple[Computations, str], ...]

    def is_read(self, magnitude: Decimal, decimals: int) -> bool:
        return self.evidence.is_read(magnitude, decimals) or any(
            work.stated(magnitude) is not None for work, _ in self.before)

    def is_derived(self, magnitude: Decimal) -> bool:
        return self.evidence.is_derived(magnitude)
