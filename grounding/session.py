"""One conversation in the agent loop, judged as it grows: the evidence index kept between decisions.

``check_answer(history, answer)`` reads the whole history again for every answer and judges every answer
it holds: a decision's cost grows with the chat. A Session takes the messages each turn appends and keeps
what it read. Only the current turn's messages are read again (a tool result names the call before it, so
a turn is read whole), and each answer is judged once. A turn's decision costs what its own messages and
its answer cost, never the turns before it.

>>> session = Session()
>>> session.extend([{"role": "user", "content": "Where is my order?"},
...                 {"role": "tool", "content": '{"order": "ORD-4417", "status": "shipped"}'}])
>>> session.check("Order ORD-4417 has shipped.").status.value
'grounded'
>>> session.append({"role": "assistant", "content": "Order ORD-4417 has shipped."})
>>> [finding.value for finding in session.check("It left on 2026-11-02.").unsupported]
['2026-11-02']
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from grounding.answers import judged_text
from grounding.errors import RecordError
from grounding.frames import is_evidence_check
from grounding.history import history_messages
from grounding.library import Options, explained, settings_of, to_conversation, too_large_verdict
from grounding.model import EVIDENCE, EXEMPT, NEITHER, Conversation, Item, Status, Verdict
from grounding.options.table import KEYS
from grounding.worker_threads import off_the_loop

if TYPE_CHECKING:
    from collections.abc import Callable
    from concurrent.futures import Executor

    from grounding.core.engine import Walk
    from grounding.core.settings import Settings
    from grounding.decisions import Decision
    from grounding.streaming import Stream, StreamPosture


class Session:
    """One conversation's history as the loop appends to it, and the verdict on each candidate answer.

    options are grounding.Options (None: the defaults) or the core's Settings; format names the history's
    format (None: detected from each turn's messages); system and instructions go with a bare Anthropic or
    Responses list, as for check_answer. ``extend`` / ``append`` take the messages as the loop holds them
    (dicts, or the SDK objects grounding.history converts); ``check(answer)`` judges a candidate answer
    against every tool result held so far, and leaves the history as it was. Hand a Session to
    ``Gate.decide`` in place of the history. Safe to share between threads (a lock orders the calls);
    one Session is one conversation.
    """

    def __init__(self, options: Options | Settings | None = None, *, format: str | None = None,  # noqa: A002
                 system: str | None = None, instructions: str | None = None) -> None:
        self._settings, given = settings_of(options)
        self._format = format or (given.input_format if given else None)
        self._limit = given.max_record_bytes if given else KEYS["max-record-bytes"].default
        self._explain = bool(given and given.explain)  # near misses on the findings: the history read again
        self._system, self._instructions = system, instructions
        self._messages: list = []  # every message appended, as plain JSON values
        self._start = 0  # where the current turn starts: the window each extend reads again
        self._skip = 0  # the window's first items that its own reading adds, walked before it (never again)
        self._fed = 0  # how many of the window's items are walked (the skipped ones among them)
        self._walk: Walk | None = None
        self._revisions = 0  # the gate's correction frames since the last user turn
        self._stop: Verdict | None = None  # every later answer's verdict, once the evidence cannot be judged
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Session({len(self._messages)} messages)"

    def __len__(self) -> int:
        return len(self._messages)

    def append(self, message: object) -> None:
        """Add one message the loop appended to its history."""
        self.extend([message])

    def extend(self, messages: Iterable[object]) -> None:
        """Add the messages the loop appended to its history, in order. A message that cannot be read is a
        RecordError naming it (``messages[i]``, counted over the whole session), and nothing is added."""
        with self._lock:
            added = history_messages(list(messages), first=len(self._messages))
            self._messages.extend(added)
            try:
                self._read(len(self._messages) - len(added))
            except RecordError:  # a message no reader takes (a role no format has): the session as it was
                del self._messages[len(self._messages) - len(added):]
                raise

    def check(self, answer: object) -> Verdict:
        """The verdict on answer as the conversation's next final answer, judged against every tool result
        held (answer as for check_answer: text, an SDK message, a structured output). The answer is not
        added: append it when the loop keeps it (its verdict is then reused, not judged again)."""
        text = judged_text(answer)
        with self._lock:
            if self._stop is not None:
                return self._stop
            walk = self._walk_now()
            verdict = walk.judge_next(text)
            if self._explain:
                held = Conversation("<session>", 1, None, tuple(walk.items), self._format or "")
                verdict = explained(held, text, verdict, self._settings)
            return verdict

    async def acheck(self, answer: object, *, executor: Executor | None = None) -> Verdict:
        """check, for an async loop: judged in a worker thread (executor's, or the loop's default executor:
        grounding.worker_threads.off_the_loop), so the event loop goes on serving."""
        return await off_the_loop(executor, self.check, answer)

    def stream(self, posture: StreamPosture = "guard", *, can_revise: bool = True,
               on_verdict: Callable[[Decision], None] | None = None) -> Stream:
        """A Stream for the next final answer as it is streamed: ``feed(chunk)`` releases what may be shown,
        ``finish()`` judges it whole (grounding.streaming). The history is the one held now; the answer is
        not added to it (append it when the loop keeps it, as after check)."""
        from grounding.streaming import Stream

        return Stream(self, posture, can_revise=can_revise, on_verdict=on_verdict,
                      values_need_digits=not self._settings.shapes)

    @property
    def revisions_asked(self) -> int:
        """The gate's correction frames since the last user turn: the revisions spent in this turn."""
        return self._revisions

    def _walk_now(self, conversation: Conversation | None = None) -> Walk:
        if self._walk is None:
            from grounding.core.engine import Walk

            start = conversation or Conversation("<session>", 1, None, (), self._format or "")
            self._walk = Walk(start, self._settings)
        return self._walk

    def _read(self, added: int) -> None:
        """Read the current turn's messages again and walk the items not walked yet (added: where the
        messages just appended begin)."""
        if self._stop is not None:  # every later answer is unjudgeable: nothing more is read
            return
        conversation = self._window(self._start)
        items = conversation.items
        if items[self._skip : self._fed] != self._walked(self._fed - self._skip):
            # a reading that changed with what followed it: walk the whole history again
            self._start = self._skip = self._fed = self._revisions = 0
            self._walk, self._stop = None, None
            conversation = self._window(0)
            items = conversation.items
        if conversation.unjudgeable is not None:
            self._stop = Verdict(Status.UNJUDGEABLE, 0, reason=conversation.unjudgeable)
        self._walk_items(items[self._fed :], conversation)
        self._fed = len(items)
        if not self._next_turn(self._turn_start(conversation.input_format)) and added > self._start:
            self._next_turn(added)

    def _next_turn(self, start: int) -> bool:
        """Move the window to start, when its items read from there are the ones walked last (past a few
        that a window's own reading puts first: pydantic-ai's instructions, stated again); whether it moved.
        start is the latest turn's start or, within a turn, where the messages just appended begin (an
        agent's tool call and its result: read from there, they read as they did, so the many calls of one
        turn are not read again at each extend)."""
        if start == self._start:
            return False
        items = self._window(start).items
        for skip in range(len(items)):
            if items[skip:] == self._walked(len(items) - skip):
                self._start, self._skip, self._fed = start, skip, len(items)
                return True
        return False

    def _walked(self, count: int) -> tuple[Item, ...]:
        """The last count items walked."""
        if count <= 0 or self._walk is None:
            return ()
        return tuple(self._walk.items[len(self._walk.items) - count :])

    def _window(self, start: int) -> Conversation:
        window = self._messages[start:]
        first = start == 0  # the system prompt and instructions stand before the first message only
        return to_conversation(window, self._format, "<session>", system=self._system if first else None,
                               instructions=self._instructions if first else None)

    def _walk_items(self, items: Sequence[Item], conversation: Conversation) -> None:
        if self._stop is not None:
            return
        for at, item in enumerate(items):
            if item.kind is EVIDENCE and 4 * len(item.text) > self._limit:
                stop = too_large_verdict(item.text, self._limit)
                if stop is not None:  # not read: the answers after it are unjudgeable, never grounded
                    self._walk_items(items[:at], conversation)
                    self._stop = stop
                    return
        self._revisions = revisions_in(items, self._revisions)
        for _ in self._walk_now(conversation).advance(items):
            pass  # the history's own answers: judged once, for the state the turn carries

    def _turn_start(self, input_format: str) -> int:
        """The latest message that starts a turn (a user's or system's own text), at or after the window's
        start; the window's start when the format says no message does (it is then read whole each time)."""
        from grounding.transcripts.formats import TURN_STARTS

        starts = TURN_STARTS.get(input_format)
        if starts is None:
            return self._start
        for at in range(len(self._messages) - 1, self._start, -1):
            message = self._messages[at]
            if isinstance(message, dict) and starts(message):
                return at
        return self._start


def stream(history: object, posture: StreamPosture = "guard", *, options: Options | Settings | None = None,
           format: str | None = None, system: str | None = None, instructions: str | None = None,  # noqa: A002
           can_revise: bool = True, on_verdict: Callable[[Decision], None] | None = None) -> Stream:
    """A Stream for a history held without a Session: the history (any form check_answer takes as messages)
    is read into one, and its stream returned."""
    session = Session(options, format=format, system=system, instructions=instructions)
    session.extend(history if isinstance(history, list | tuple) else [history])
    return session.stream(posture, can_revise=can_revise, on_verdict=on_verdict)


def revisions_in(items: Iterable[Item], asked: int = 0) -> int:
    """The gate's correction frames since the last user (or system) turn, counting on from asked."""
    for item in items:
        if item.kind is EXEMPT:
            asked = 0
        elif item.kind is NEITHER and is_evidence_check(item.text):
            asked += 1
    return asked
