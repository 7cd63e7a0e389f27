"""One assembled event judged: the step a run takes per conversation, in this process or in a worker."""

from __future__ import annotations

from dataclasses import replace

from grounding.core.engine import check_conversation
from grounding.core.settings import Settings
from grounding.model import Conversation, JudgedAnswer
from grounding.transcripts.assembly import Event


def judge_event(event: Event, settings: Settings, explain: bool) -> list[JudgedAnswer]:
    """The judged answers of one assembled event (none unless it is a conversation), with their explanations
    under --explain: the same in this process and in a worker."""
    if not isinstance(event, Conversation):
        return []
    answers = list(check_conversation(event, settings))
    if explain:
        from grounding.core.explain import explain_answers, with_near_misses  # --explain only

        explained = explain_answers(event, {a.turn: a.verdict for a in answers}, settings)
        answers = [replace(a, verdict=with_near_misses(a.verdict, explained[a.turn]),
                           explanation=tuple(explained[a.turn])) for a in answers]
    return answers
