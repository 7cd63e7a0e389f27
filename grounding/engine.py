"""Check conversations: grow each one's evidence index as it advances and judge every final answer."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from grounding.evidence import EvidenceIndex, ReadOptions, read_exempt, read_tool_result
from grounding.judge import judge_answer
from grounding.model import Conversation, Kind
from grounding.settings import Settings
from grounding.verdict import Status, Verdict


@dataclass(frozen=True, slots=True)
class JudgedAnswer:
    """One final answer, where it was, and its verdict."""

    source: str
    line: int
    conversation: str | None
    turn: int
    text: str
    verdict: Verdict
    input_format: str = ""  # the transcript format the conversation was read from
    explanation: tuple = ()  # with --explain: one grounding.explain.Explanation per candidate


def check_conversation(conversation: Conversation, settings: Settings) -> Iterator[JudgedAnswer]:
    """Judge each final answer against everything read before it (SPEC §2.2).

    The index is built once and extended as the conversation advances, never
    rebuilt per answer.
    """
    if conversation.unjudgeable is not None:
        yield from _unjudgeable(conversation)
        return
    index = EvidenceIndex()
    index.forms.min_digits = settings.min_digits
    options = ReadOptions(settings.min_digits, keep_words=bool(settings.shapes))
    turn = 0
    for item in conversation.items:
        if item.kind is Kind.EVIDENCE:
            index.add(
                read_tool_result(
                    item.text, options, is_error=item.is_error, arguments=item.call_arguments, document=item.document
                )
            )
        elif item.kind is Kind.EXEMPT:
            index.add(read_exempt(item.text, options))
        elif item.kind is Kind.ANSWER:
            verdict = judge_answer(item.text, index, settings)
            yield JudgedAnswer(
                conversation.source, conversation.line, conversation.id, turn, item.text, verdict, conversation.input_format
            )
            turn += 1


def _unjudgeable(conversation: Conversation) -> Iterator[JudgedAnswer]:
    """Every answer of a conversation whose evidence is not in the record; at least one entry, so it is seen."""
    verdict = Verdict(Status.UNJUDGEABLE, 0, reason=conversation.unjudgeable)
    answers = [item.text for item in conversation.items if item.kind is Kind.ANSWER] or [""]
    for turn, text in enumerate(answers):
        yield JudgedAnswer(
            conversation.source, conversation.line, conversation.id, turn, text, verdict, conversation.input_format
        )
