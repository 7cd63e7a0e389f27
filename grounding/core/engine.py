"""Check conversations: grow each one's evidence index as it advances and judge every final answer."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from grounding.core.answer.shown_earlier import ShownEarlier
from grounding.core.evidence.failures import result_failed
from grounding.core.evidence.forms import ReadOptions
from grounding.core.evidence.index import EvidenceIndex
from grounding.core.judge import judge_answer
from grounding.core.settings import Settings
from grounding.frames import is_evidence_check, is_schema_check
from grounding.model import (
    ANSWER,
    EVIDENCE,
    EXEMPT,
    NEITHER,
    STOPS_REFUSED,
    STOPS_TRUNCATED,
    Conversation,
    Item,
    JudgedAnswer,
    Status,
    Verdict,
)

if TYPE_CHECKING:  # the contract module is imported only by a run with a contract or a tool-ledger finding
    from grounding.core.contract import Attempt, Contract


# Why a flagged answer had nothing to be grounded by: the conversation holds no tool result before it.
NO_RESULT_READ = "no tool result was read before this answer: every value it states is unsupported"
# Why an answer is unchecked rather than grounded: it examined no value, so nothing was looked up.
NO_VALUE_STATED = "the answer states no value to look up"


def check_conversation(conversation: Conversation, settings: Settings,
                       index: type[EvidenceIndex] = EvidenceIndex) -> Iterator[JudgedAnswer]:
    """Judge each final answer against everything read before it (SPEC §2.2).

    The index is built once and extended as the conversation advances, never
    rebuilt per answer. index is its class: the lazy EvidenceIndex, or the equivalence tests' eager
    reference (tools/reference_index.py), which must give the same verdicts.
    """
    if conversation.unjudgeable is not None:
        yield from _unjudgeable(conversation)
        return
    yield from Walk(conversation, settings, index).advance(conversation.items)


class Walk:
    """One conversation judged as it advances: the evidence read so far and the state of the current turn.
    check_conversation walks a whole record at once; an agent loop's session (grounding.session) advances
    it by the messages each turn appends, and judges a candidate answer with judge_next, so a turn costs
    what its own items cost, never the turns before it."""

    def __init__(self, conversation: Conversation, settings: Settings,
                 index: type[EvidenceIndex] = EvidenceIndex) -> None:
        self.conversation, self.settings = conversation, settings
        self.evidence = index(ReadOptions(settings.min_digits, bool(settings.shapes), bool(settings.phrase_shapes)))
        self.evidence.stated.cwd = conversation.cwd
        self.contract = settings.contracts.for_conversation(conversation.id) if settings.contracts else None
        self.attempts: list[Attempt] = []  # earlier attempts at the current answer, each re-asked by a schema check
        self.previous: Verdict | None = None  # the last answer's verdict, for an evidence re-ask that follows it
        self.named_back: list[str] | None = None  # values an "[evidence check" frame named back to the model
        # the tool calls of the current turn (since the last user or system text), kept only when a rule reads them
        self.ledger = _Ledger() if settings.required_tools or settings.code_tool is not None else None
        self.items: list[Item] = []  # every item walked, in order
        self.worked: list[int] = []  # where the assistant wrote words of its own (§9.24), read when an answer asks
        self.shown = ShownEarlier(self.items, self.worked) if settings.derived else None
        self.turn = self.results_read = 0  # answers judged, tool results read
        self._judged_next: tuple[int, str, Verdict] | None = None  # judge_next's last (position, answer, verdict)

    def advance(self, items: Sequence[Item]) -> Iterator[JudgedAnswer]:
        """Walk items, the conversation's next ones, judging each final answer among them. (A schema check's
        re-ask is seen only when its frame is among the same items as the answer it re-asks.)"""
        evidence, ledger, shown, walked, worked = self.evidence, self.ledger, self.shown, self.items, self.worked
        conversation = self.conversation
        for offset, item in enumerate(items):
            position = len(walked)
            walked.append(item)
            if ledger is not None:
                ledger.see(item)
            if shown is not None and (item.work or item.call_arguments or item.kind is ANSWER):
                worked.append(position)
            if item.kind is EVIDENCE:
                self.results_read += 1
                evidence.see_result(item.text, is_error=item.is_error, arguments=item.call_arguments,
                                    document=item.document, tool=item.tool)
            elif item.kind is EXEMPT:
                evidence.see_exempt(item.text)
            elif item.kind is NEITHER and self.previous is not None and is_evidence_check(item.text):
                self.named_back = _named_back(item.text, self.previous)
            elif item.kind is ANSWER:
                if self.contract is not None and reasked(items, offset):
                    from grounding.core.contract import Attempt

                    stage, error = self.contract.judge(item.text)
                    self.attempts.append(Attempt(len(self.attempts) + 1, "retried", stage, error))
                    continue
                verdict = self._judged(item, position)
                self.attempts, self.named_back, self.previous = [], None, verdict
                yield JudgedAnswer(conversation.source, item.line or conversation.line, conversation.id, self.turn,
                                   item.text, verdict, conversation.input_format, span=item.span)
                self.turn += 1

    def judge_next(self, answer: str) -> Verdict:
        """The verdict on answer as the conversation's next final answer, the walk left as it was: the answer is
        a candidate, in the conversation only when the loop appends it (advance then reuses this verdict)."""
        position = len(self.items)
        self.items.append(Item(ANSWER, answer))
        if self.shown is not None:
            self.worked.append(position)
        try:
            verdict = self._judge(self.items[position], position)
        finally:
            self.items.pop()
            if self.shown is not None:
                self.worked.pop()
                self.shown.withdraw(position)
        self._judged_next = (position, answer, verdict)
        return verdict

    def _judged(self, item: Item, position: int) -> Verdict:
        """The answer's verdict: judge_next's when it judged this very answer here (a plain text, as it took)."""
        last = self._judged_next
        if last is not None and last[0] == position and last[1] == item.text and not item.work \
                and item.stop_reason is None:
            return last[2]
        return self._judge(item, position)

    def _judge(self, item: Item, position: int) -> Verdict:
        """Judge the answer at position (SPEC §2.2), then what the turn adds: the ledger, an evidence re-ask."""
        if self.shown is not None:
            self.shown.before(position)
        verdict = _verdict(item, self.evidence, self.settings, self.contract, self.attempts, self.shown)
        if self.ledger is not None:
            verdict = self.ledger.check(item.text, verdict, self.settings)
        if self.named_back is not None:
            still = {f.value for f in verdict.unsupported}
            verdict = replace(verdict, revision={"values_named": self.named_back,
                                                 "after_revision": not (still & set(self.named_back))})
        if verdict.status is Status.FLAGGED and not self.results_read and verdict.reason is None:
            verdict = replace(verdict, reason=NO_RESULT_READ)  # the hint a user needs: nothing was read
        elif verdict.status is Status.GROUNDED and not verdict.candidates:
            verdict = replace(verdict, status=Status.UNCHECKED, reason=NO_VALUE_STATED)  # examined nothing: no pass
        return verdict


def _verdict(item: Item, index: EvidenceIndex, settings: Settings, contract: Contract | None,
             attempts: list[Attempt], shown: ShownEarlier | None) -> Verdict:
    """Composition, as the seeds order it: a stop is not an answer; then the contract; then the evidence."""
    stop = item.stop_reason
    if stop in STOPS_TRUNCATED or stop in STOPS_REFUSED:
        status = Status.TRUNCATED if stop in STOPS_TRUNCATED else Status.REFUSED
        return Verdict(status, 0, reason=f"the model stopped with {stop!r}: the text is not a finished answer")
    if contract is None:
        return judge_answer(item.text, index, settings, shown)
    from grounding.core.contract import Attempt, ContractResult

    stage, error = contract.judge(item.text)
    outcome = "passed" if stage is None else "exhausted"
    result = ContractResult(stage, error, (*attempts, Attempt(len(attempts) + 1, outcome, stage, error)))
    if stage is not None:
        return Verdict(Status.CONTRACT_UNMET, 0, contract=result)
    return replace(judge_answer(item.text, index, settings, shown), contract=result)


class _Ledger:
    """Each tool call of a turn, classified ok, error or not-run from the record (the seeds' answer validation)."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.results: list[tuple[str | None, bool]] = []

    def see(self, item: Item) -> None:
        if item.kind is EXEMPT:
            self.calls, self.results = [], []
        elif item.calls:
            self.calls.extend(item.calls)
        elif item.kind is EVIDENCE:
            failed = result_failed(item.text, is_error=item.is_error, document=item.document)
            self.results.append((item.tool, failed))

    def outcomes(self) -> list[tuple[str, str]]:
        found = []
        for name in self.calls:
            mine = [failed for tool, failed in self.results if tool == name]
            found.append((name, "not-run" if not mine else "error" if all(mine) else "ok"))
        return found

    def check(self, answer: str, verdict: Verdict, settings: Settings) -> Verdict:
        if verdict.status in (Status.TRUNCATED, Status.REFUSED, Status.UNJUDGEABLE, Status.CONTRACT_UNMET):
            return verdict
        ok = {name for name, outcome in self.outcomes() if outcome == "ok"}
        missing = [name for name in settings.required_tools if name not in ok]
        if settings.code_tool is not None and "```" in answer and settings.code_tool not in ok:
            missing.append(f"{settings.code_tool} (the answer presents code)")
        if not missing:
            return verdict
        calls = ", ".join(f"{name}: {outcome}" for name, outcome in self.outcomes()) or "none"
        error = f"no successful call of {', '.join(missing)} in this turn (calls: {calls})"
        from grounding.core.contract import ContractResult

        attempts = verdict.contract.attempts if isinstance(verdict.contract, ContractResult) else ()
        return Verdict(Status.CONTRACT_UNMET, verdict.candidates, contract=ContractResult("tool-ledger", error, attempts))


def _named_back(text: str, previous: Verdict) -> list[str]:
    """The unsupported values of the previous answer that an evidence re-ask quotes back."""
    lowered = text.lower()
    return [f.value for f in previous.unsupported if f.value in lowered or f.text.lower() in lowered]


def reasked(items: Sequence[Item], position: int) -> bool:
    """True when a schema check re-asks this answer: the next turn is a "[schema check" correction."""
    following = items[position + 1] if position + 1 < len(items) else None
    return following is not None and following.kind is NEITHER and is_schema_check(following.text)


def _unjudgeable(conversation: Conversation) -> Iterator[JudgedAnswer]:
    """Every answer of a conversation whose evidence is not in the record; at least one entry, so it is seen."""
    verdict = Verdict(Status.UNJUDGEABLE, 0, reason=conversation.unjudgeable)
    answers = [item.text for item in conversation.items if item.kind is ANSWER] or [""]
    for turn, text in enumerate(answers):
        yield JudgedAnswer(
            conversation.source, conversation.line, conversation.id, turn, text, verdict, conversation.input_format
        )
