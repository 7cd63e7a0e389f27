"""Check conversations: grow each one's evidence index as it advances and judge every final answer."""

from __future__ import annotations

from collections.abc import Iterator
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
    evidence = index(ReadOptions(settings.min_digits, bool(settings.shapes)))
    evidence.stated.cwd = conversation.cwd
    contract = settings.contracts.for_conversation(conversation.id) if settings.contracts else None
    attempts: list[Attempt] = []  # earlier attempts at the current answer, each re-asked by a schema check
    previous: Verdict | None = None  # the last answer's verdict, for an evidence re-ask that follows it
    named_back: list[str] | None = None  # values an "[evidence check" frame named back to the model
    # the tool calls of the current turn (since the last user or system text), kept only when a rule reads them
    ledger = _Ledger() if settings.required_tools or settings.code_tool is not None else None
    items = conversation.items
    worked: list[int] = []  # where the assistant wrote words of its own (§9.24), read when an answer asks
    shown = ShownEarlier(items, worked) if settings.derived else None
    turn = results_read = 0  # answers judged, tool results read
    for position, item in enumerate(items):
        if ledger is not None:
            ledger.see(item)
        if shown is not None and (item.work or item.call_arguments or item.kind is ANSWER):
            worked.append(position)
        if item.kind is EVIDENCE:
            results_read += 1
            evidence.see_result(item.text, is_error=item.is_error, arguments=item.call_arguments,
                                document=item.document)
        elif item.kind is EXEMPT:
            evidence.see_exempt(item.text)
        elif item.kind is NEITHER and previous is not None and is_evidence_check(item.text):
            named_back = _named_back(item.text, previous)
        elif item.kind is ANSWER:
            if contract is not None and _reasked(items, position):
                from grounding.core.contract import Attempt

                stage, error = contract.judge(item.text)
                attempts.append(Attempt(len(attempts) + 1, "retried", stage, error))
                continue
            if shown is not None:
                shown.before(position)
            verdict = _verdict(item, evidence, settings, contract, attempts, shown)
            if ledger is not None:
                verdict = ledger.check(item.text, verdict, settings)
            attempts = []
            if named_back is not None:
                still = {f.value for f in verdict.unsupported}
                verdict = replace(verdict, revision={"values_named": named_back,
                                                     "after_revision": not (still & set(named_back))})
                named_back = None
            if verdict.status is Status.FLAGGED and not results_read and verdict.reason is None:
                verdict = replace(verdict, reason=NO_RESULT_READ)  # the hint a user needs: nothing was read
            previous = verdict
            yield JudgedAnswer(conversation.source, item.line or conversation.line, conversation.id, turn, item.text,
                               verdict, conversation.input_format)
            turn += 1


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


def _reasked(items: tuple[Item, ...], position: int) -> bool:
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
