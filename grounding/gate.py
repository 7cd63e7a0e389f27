"""The gate in the agent loop: judge a candidate answer before it ships, and decide what happens to it.

Three postures (the seeds' ``names-and-numbers-from-evidence``):

- ``assist`` records and flags: the answer goes out unchanged, its verdict observable;
- ``guard`` names the unsupported values back to the model for one more ordinary turn (the tools still on
  the wire, so it can go and read what it guessed); an answer that still carries them ships flagged;
- ``rails`` makes the same one revision, then refuses: ``Decision.raise_if_refused()`` raises
  UnsupportedValuesError rather than return an answer that still carries them.

One revision per turn, latched, and read from the history itself: the gate counts its own correction
frames since the last user turn, so it holds no state and survives checkpoints, durable execution and
concurrent runs. Every decision is logged (the ``grounding.gate`` logger), handed to ``on_verdict``, and,
when OpenTelemetry is installed and a span is recording, added to it as a ``gen_ai.evaluation.result``
event.

>>> gate = Gate("guard")
>>> history = [{"role": "user", "content": "Where is my order?"},
...            {"role": "tool", "content": '{"order": "ORD-4417", "status": "shipped"}'}]
>>> decision = gate.decide(history, "Order ORD-4471 has shipped.")
>>> decision.action, [finding.value for finding in decision.verdict.unsupported]
('revision-asked', ['ord-4471'])
>>> print(decision.message)
[evidence check] Your answer states values that appear in no tool result read in this conversation. Look each one up with a tool and answer with what it returns, or leave it out. The values:
"ORD-4471"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from grounding.answers import judged_text
from grounding.decisions import CORRECTION, Action, Decision, correction, log, observed
from grounding.errors import EmptyAnswerError
from grounding.library import Options, settings_of, to_conversation, verdict_on
from grounding.model import Conversation, Verdict
from grounding.session import Session, revisions_in
from grounding.worker_threads import off_the_loop

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from grounding.core.settings import Settings

Posture = Literal["assist", "guard", "rails"]
POSTURES: tuple[str, ...] = ("assist", "guard", "rails")
__all__ = ["CORRECTION", "POSTURES", "Action", "Decision", "Gate", "Posture", "correction", "not_judged",
           "revisions_asked"]


class Gate:
    """Judge candidate answers in the loop under one posture (``assist``, ``guard`` or ``rails``).

    options are grounding.Options (None: the defaults) or the core's Settings; on_verdict is called with
    every Decision (an exception it raises is logged on the ``grounding.gate`` logger, and the decision still
    returned: an observer never breaks the answer path).
    """

    def __init__(self, posture: Posture = "assist", options: Options | Settings | None = None,
                 on_verdict: Callable[[Decision], None] | None = None) -> None:
        if posture not in POSTURES:
            from grounding.errors import OptionError

            raise OptionError(f"Gate(posture={posture!r}): choose one of {', '.join(POSTURES)}")
        self.posture = posture
        self.options = options
        self.on_verdict = on_verdict

    def __repr__(self) -> str:
        return f"Gate(posture={self.posture!r})"

    def decide(self, history: object, answer: object, *, format: str | None = None,  # noqa: A002
               system: str | None = None, instructions: str | None = None, can_revise: bool = True) -> Decision:
        """The decision on answer, a candidate final answer not yet in history (a record in any supported
        format, a Conversation, or a list of messages as the loop holds them, SDK objects too). The answer is
        judged against every tool result the history holds; the revision latch is read from the history's
        correction frames. answer is text, an SDK message object or a structured output (see check_answer).
        can_revise False (a streamed answer, which the framework cannot retry): no revision is asked, and a
        flagged answer is decided as a revision that still carries its values would be (guard ships it
        flagged, rails refuses it)."""
        text = judged_text(answer)
        if isinstance(history, Session):
            if format is not None or system is not None or instructions is not None:
                raise TypeError("Gate.decide(session, ...): a Session holds its format, system and instructions; "
                                "pass them to Session()")
            return self._decided(history.check(text), text, history.revisions_asked, can_revise)
        conversation = to_conversation(history, format, system=system, instructions=instructions)
        return self.decide_conversation(conversation, text, can_revise=can_revise)

    async def adecide(self, history: object, answer: object, *, format: str | None = None,  # noqa: A002
                      system: str | None = None, instructions: str | None = None, can_revise: bool = True,
                      executor: Executor | None = None) -> Decision:
        """decide, for an async loop: judged in a worker thread (executor's, or the loop's default
        executor: grounding.worker_threads.off_the_loop), so the event loop goes on serving."""
        return await off_the_loop(executor, self.decide, history, answer, format=format, system=system,
                                  instructions=instructions, can_revise=can_revise)

    def decide_conversation(self, conversation: Conversation, answer: str, *, can_revise: bool = True) -> Decision:
        settings, given = settings_of(self.options)
        verdict = verdict_on(conversation, answer, settings, given)
        return self._decided(verdict, answer, revisions_in(conversation.items), can_revise)

    def _decided(self, verdict: Verdict, answer: str, revisions: int, can_revise: bool) -> Decision:
        """The decision on a verdict, observed: logged, on the current span, handed to on_verdict."""
        return observed(self.posture, verdict, answer, revisions, can_revise, self.on_verdict)


def not_judged(empty: EmptyAnswerError, where: str) -> None:
    """Log, for an adapter, a final answer with no text: no decision is made (it is never called grounded)
    and the framework goes on as it would without the gate."""
    log.warning("%s: no decision: %s", where, empty)


def revisions_asked(conversation: Conversation) -> int:
    """The gate's correction frames since the last user (or system) turn: the revisions spent in this turn."""
    return revisions_in(conversation.items)


