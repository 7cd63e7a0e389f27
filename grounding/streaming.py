"""A streamed final answer, judged as it arrives: no invented value reaches the user before it is judged.

Every other gate judges the finished answer, when the streamed invention is already on the user's screen.
``session.stream(posture)`` takes the answer piece by piece: ``feed(chunk)`` returns a Release, the text
that may be shown now, and ``finish()`` judges the whole answer (its verdict is ``session.check(answer)``'s,
whatever the chunks) and releases the rest.

What may be shown is judged a *unit* at a time: a line, or a sentence ended by ``.``, ``!`` or ``?`` and a
space (a point after a day's number ends none: ``16. März``), a fenced block whole. A unit is judged when it is
complete, and shown but for what the text after it may still make part of a value: its last number
(``41,200`` before ``million``, ``8:00`` before ``pm``) and a date in words it may still be writing (``Jan.``,
``March 19,``), which are judged again as the start of the next unit. So every span a
reading needs whole (an identifier the stream may still extend, a number and its unit, a date in words,
``path:line``, a computation and its result) is judged whole before any of it is shown. A unit that states a
value its own text does not ground is judged again with all the answer before it (a computation shown on an
earlier line), and only a value that still stands unsupported stops the stream, at the value's first
character. A JSON answer (a structured output) is held whole.

Postures, as the Gate's: ``assist`` shows everything as it arrives and records; ``guard`` stops at the
first unsupported value and hands the correction to send (the user saw only judged text), or, once the
turn's revision is spent, shows the answer as the gate ships it, flagged; ``rails`` stops the same way and
``finish()`` raises UnsupportedValuesError when no revision is left; ``fix`` shows each unit with its
unsupported values masked (``[unverified]``) and goes on.

>>> from grounding import Session
>>> session = Session()
>>> session.extend([{"role": "tool", "content": '{"order": "ORD-4417", "status": "shipped"}'}])
>>> stream = session.stream("guard")
>>> [stream.feed(chunk).text for chunk in ["Order ORD-4417 ha", "s shipped. Tracking: ORD-44", "71.\\n"]]
['', 'Order ORD-4417 has shipped.', ' Tracking: ']
>>> release, verdict = stream.finish()
>>> release.stopped, [finding.text for finding in verdict.unsupported], stream.released
(True, ['ORD-4471'], 'Order ORD-4417 has shipped. Tracking: ')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal, Protocol

from grounding.decisions import Decision, correction, observed
from grounding.errors import OptionError, UnsupportedValuesError
from grounding.fixing import MASK, fix
from grounding.model import Finding, Status, Verdict
from grounding.stream_units import follows_a_day, held_from, opens_or_closes_a_fence

if TYPE_CHECKING:
    from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator

StreamPosture = Literal["assist", "guard", "rails", "fix"]
STREAM_POSTURES: tuple[str, ...] = ("assist", "guard", "rails", "fix")
# where a unit may end: a line's end, or a sentence's point (see _next_unit_end); a class alone, so the
# search runs in C from one candidate to the next
_MAY_END_AT = re.compile(r"[\n.!?]")
_DIGIT = re.compile(r"\d")
_MAY_END = frozenset("\n.!?")
# how a JSON answer starts (or nothing yet), after white space: "[" then a value's start, not a Markdown link's
# text ("[the docs]")
_MAY_BE_JSON = re.compile(r"\s*+(?:\Z|\{|\[\s*(?:\Z|[\[{\"\d\]-]|true|false|null))")


@dataclass(frozen=True, slots=True)
class Release:
    """What one feed (or finish) lets through. text: the answer's next piece to show (under ``fix``, with
    its unsupported values masked); unsupported: every unsupported value found so far (their ``at`` in the
    whole answer); stopped: the stream shows nothing more of this answer; correction: under guard (and
    rails with its revision left), the frame to send the model when it stopped."""

    text: str
    unsupported: tuple[Finding, ...] = ()
    stopped: bool = False
    correction: str | None = None


class Judges(Protocol):
    """What a stream asks of its conversation (a grounding.Session)."""

    revisions_asked: int

    def check(self, answer: object) -> Verdict: ...


class Stream:
    """One streamed answer of one Session's conversation (made by ``Session.stream``); see the module.
    values_need_digits: no shape is declared, so a unit without a digit states no value."""

    def __init__(self, session: Judges, posture: StreamPosture = "guard", *, can_revise: bool = True,
                 on_verdict: Callable[[Decision], None] | None = None, values_need_digits: bool = True) -> None:
        if posture not in STREAM_POSTURES:
            raise OptionError(f"stream(posture={posture!r}): choose one of {', '.join(STREAM_POSTURES)}")
        self.posture = posture
        self._session = session
        self._on_verdict = on_verdict
        self._revisions = session.revisions_asked
        self._can_revise = can_revise
        # guard stops only while it can still ask its revision (after it, the gate ships the answer flagged)
        self._stops = posture == "rails" or (posture == "guard" and can_revise and self._revisions == 0)
        self._holds = self._stops or posture == "fix"  # what arrives waits for its unit's verdict
        self._digits_only = values_need_digits  # (see _unit_verdict)
        self._chunks: list[str] = []  # every chunk fed (joined when a unit is judged: see _answer)
        self._length = 0
        self._line_at = 0  # where the line being received starts in the answer
        self._scanned = 0  # where the search for a unit's end goes on from (the answer before is searched)
        self._judged = 0  # where the next unit starts: the answer before it is judged
        self._fenced = False  # inside a fenced block: its lines end no unit
        self._point = False  # the line ends with a point whose next character has not arrived
        self._example_at: int | None = None  # where the first value written as an example starts: none after shown
        self._idle: Release | None = None  # the Release of a feed that lets nothing through, while it holds
        self._shown = 0  # how much of the answer is released (under fix: of the answer as written)
        self._released: list[str] = []
        self._unsupported: tuple[Finding, ...] = ()
        self._stop: int | None = None  # where the first unsupported value starts, once found
        self._correction: str | None = None
        self._finished: tuple[Release, Verdict] | None = None
        self.decision: Decision | None = None  # the gate's decision, once finished

    def __repr__(self) -> str:
        return f"Stream(posture={self.posture!r}, {self._length} characters fed, {self._shown} released)"

    @property
    def text(self) -> str:
        """Every chunk fed so far: the answer as the model streamed it."""
        return self._answer()

    @property
    def released(self) -> str:
        """Everything released so far, in order: what the user was shown."""
        return "".join(self._released)

    def feed(self, chunk: str) -> Release:
        """Take the answer's next piece; the Release says what may be shown now."""
        if self._finished is not None:
            raise RuntimeError("Stream.feed after finish(): a stream judges one answer; start another")
        if not isinstance(chunk, str):
            raise TypeError(f"Stream.feed takes the answer's text, not {type(chunk).__name__}")
        self._chunks.append(chunk)
        self._length += len(chunk)
        # a unit can end only at a line break or a sentence's point (its space may be what just arrived)
        ends = self._point or not _MAY_END.isdisjoint(chunk)
        if not self._holds:  # nothing is held back: judged for the record alone
            self._shown = self._length
            self._released.append(chunk)
            if ends:
                self._judge_units()
            return self._release(chunk)
        if not ends and self._idle is not None:
            return self._idle  # (most feeds of a few characters: nothing more to judge or show)
        return self._release(self._judge_units() if ends else "")

    def finish(self) -> tuple[Release, Verdict]:
        """Judge the whole answer and release what it allows: the Release of the rest and the verdict, which
        is ``session.check(answer)``'s. Under rails, a refused answer raises UnsupportedValuesError after it
        (its ``release`` is the Release)."""
        if self._finished is None:
            answer = self._answer()
            verdict = self._session.check(answer)
            posture = "assist" if self.posture == "fix" else self.posture  # (fix ships, masked)
            self.decision = observed(posture, verdict, answer, self._revisions, self._can_revise, self._on_verdict)
            self._unsupported, self._idle = verdict.unsupported, None
            self._finished = (self._release(self._last_piece(verdict)), verdict)
        if self.decision is not None and self.decision.action == "refused":
            error = self.decision.verdict
            refused = UnsupportedValuesError(error.unsupported, error.candidates, self.decision.revised)
            refused.release = self._finished[0]
            raise refused
        return self._finished

    # what is released ---------------------------------------------------------------------------------

    def _release(self, text: str) -> Release:
        if not text and self._idle is not None:
            return self._idle  # (most feeds of a few characters: one object, as nothing changed)
        release = Release(text, self._unsupported, self._stop is not None, self._correction)
        if not text:
            self._idle = release
        return release

    def _show(self, end: int) -> str:
        """Release the answer up to end, as written."""
        if end <= self._shown:
            return ""
        piece = self._answer()[self._shown : end]
        self._shown = end
        self._released.append(piece)
        return piece

    def _show_masked(self, end: int, unsupported: tuple[Finding, ...]) -> str:
        """Release the answer up to end with the unsupported values masked (fix)."""
        if end <= self._shown:
            return ""
        piece = masked(self._answer()[self._shown : end], self._shown, unsupported)
        self._shown = end
        self._released.append(piece)
        return piece

    def _show_whole(self, fixed: str) -> str:
        self._shown = self._length
        self._released.append(fixed)
        return fixed

    def _last_piece(self, verdict: Verdict) -> str:
        """What finish releases, by the whole answer's verdict and the gate's decision."""
        assert self.decision is not None
        if self.posture == "fix":
            if not self._shown:  # (a structured output is held whole: masked as a JSON document)
                return self._show_whole(fix(self._answer(), verdict, replacement=MASK))
            return self._show_masked(self._length, verdict.unsupported)
        ships = self.decision.action not in ("revision-asked", "refused")
        if ships:
            self._stop = self._correction = None  # (a value the answer's later text grounds: all of it ships)
            return self._show(self._length)
        self._correction = self.decision.message
        first = first_at(verdict.unsupported)
        if self._stop is None or first < self._stop:
            self._stop = first
        return self._show(self._stop)

    # judging unit by unit ------------------------------------------------------------------------------

    def _judge_units(self) -> str:
        """Judge every unit completed since the last feed; what they release (under assist: nothing more)."""
        pieces = []
        while self._stop is None:
            end = self._next_unit_end()
            if end is None:
                break
            start = self._judged
            held = held_from(self._answer(), start, end)  # (judged again with the next unit, as its start)
            if held == start:
                continue  # all of it may be the start of a value the next unit ends
            verdict = self._unit_verdict(start, end)  # (the held part too: a value invented there stops it now)
            if verdict is None:
                continue  # it reads as cut off inside a value: judged again with the next unit
            # (an unsupported value is shown whole or not at all; masked, it is masked whole)
            held = min([held] + [f.at for f in verdict.unsupported if start <= f.at < held < f.at + len(f.text)])
            if verdict.examples and self._example_at is None:
                # a value written as an example here is unsupported if a later sentence states it: what follows
                # waits for the whole answer's verdict
                self._example_at = min(max(f.at, start) for f in verdict.examples)
            shown = held if self._example_at is None else min(held, self._example_at)
            pieces.append(self._judged_unit(verdict, shown))
            self._judged = held
        return "".join(pieces)

    def _unit_verdict(self, start: int, end: int) -> Verdict | None:
        """The verdict on the unit text[start:end]: alone, or with the answer before it when its verdict may
        hang on it (hangs_on_context); None when the text so far ends inside one of its values."""
        answer = self._answer()
        if self._digits_only and _DIGIT.search(answer, start, end) is None:
            return Verdict(Status.UNCHECKED, 0)  # no value: with no shape declared every value has a digit
        verdict = self._session.check(answer[start:end])
        if hangs_on_context(verdict):
            verdict = self._session.check(answer[:end])
        if any(finding.via == "truncated" for finding in verdict.grounded_via):
            return None  # (the answer's end decides: the value goes on, or the answer was cut there)
        return verdict

    def _judged_unit(self, verdict: Verdict, end: int) -> str:
        """Record what the unit's verdict found and release what it allows, up to end."""
        if verdict.unsupported:
            self._idle = None
            self._unsupported = verdict.unsupported
            # every value not shown yet, this unit's or one held before it (a value of a JSON answer has no place)
            found = tuple(finding for finding in verdict.unsupported if finding.at >= self._shown or finding.at < 0)
            if found and self._stops:
                self._stop = max(first_at(found), self._shown)
                if self.posture == "guard" or (self._revisions == 0 and self._can_revise):
                    self._correction = correction(verdict.unsupported)
                return self._show(min(self._stop, end))
        if self.posture == "fix":
            return self._show_masked(end, self._unsupported)
        return self._show(end) if self._holds else ""

    def _next_unit_end(self) -> int | None:
        """Where the next complete unit ends, or None while it is still arriving (a JSON answer: until the
        end). The answer is searched from where the last search stopped: a line ends one, and so does a
        sentence's point, ``.``, ``!`` or ``?`` with white space after it (which must have arrived: "v1." may
        still become "v1.2") and none before it but a line's start (not a day's: ``16. März``)."""
        answer = self._answer()
        if self._judged == 0 and self._line_at == 0 and _MAY_BE_JSON.match(answer):
            return None  # a structured output, or nothing yet: judged whole, at the finish
        self._point = False
        while True:
            match = _MAY_END_AT.search(answer, self._scanned)
            if match is None:
                self._scanned = len(answer)
                return None
            at = match.start()
            if answer[at] != "\n":
                if at + 1 == len(answer):
                    self._scanned, self._point = at, True  # searched again when its next character arrives
                    return None
                self._scanned = at + 1
                if (answer[at + 1].isspace() and (at == self._line_at or not answer[at - 1].isspace())
                        and not self._fenced and not follows_a_day(answer, at)):
                    return at + 1
                continue
            if opens_or_closes_a_fence(answer, self._line_at):
                self._fenced = not self._fenced
            self._line_at = self._scanned = at + 1
            if not self._fenced:
                return at + 1

    def _answer(self) -> str:
        """The answer fed so far, as one text (its chunks joined once, when asked)."""
        if len(self._chunks) > 1:
            self._chunks[:] = ["".join(self._chunks)]
        return self._chunks[0] if self._chunks else ""


def released(stream: Stream, chunks: Iterable[str]) -> Iterator[str]:
    """The text to show of an answer streamed as chunks: each piece the stream releases, in order, empty ones
    left out. The chunks stop being read once the stream stops; then finish() (under rails it may raise
    UnsupportedValuesError) releases what the whole answer's verdict allows. After it, ``stream.decision``
    holds the gate's decision (its ``message``: the correction to send)."""
    for chunk in chunks:
        release = stream.feed(chunk)
        if release.text:
            yield release.text
        if release.stopped:
            break
    release, _ = stream.finish()
    if release.text:
        yield release.text


async def areleased(stream: Stream, chunks: AsyncIterable[str]) -> AsyncIterator[str]:
    """released, for chunks an async loop receives (a framework's token stream)."""
    async for chunk in chunks:
        release = stream.feed(chunk)
        if release.text:
            yield release.text
        if release.stopped:
            break
    release, _ = stream.finish()
    if release.text:
        yield release.text


async def text_deltas(snapshots: AsyncIterable[str]) -> AsyncIterator[str]:
    """The new text of each snapshot of a growing answer (a framework that streams the whole text so far,
    as pydantic-ai's ``stream_output`` and ``stream_text(delta=False)`` do); a snapshot that rewrites what
    came before (a framework's correction of its own partial output) is refused: what was released cannot
    be taken back."""
    before = ""
    async for snapshot in snapshots:
        if not snapshot.startswith(before):
            raise ValueError("a streamed snapshot rewrote text already fed: stream the answer as deltas")
        if len(snapshot) > len(before):
            yield snapshot[len(before) :]
        before = snapshot


def hangs_on_context(verdict: Verdict) -> bool:
    """True when a unit's verdict, judged alone, may change with the answer before it: a value it leaves
    unsupported (a computation shown on an earlier line may ground it), a value it reads as an example (the
    sentence before a fenced block may present it as output: then it is judged), or one it reads as cut off
    (the answer before it may change what the unit's last token is)."""
    return (verdict.status is Status.FLAGGED or bool(verdict.examples)
            or any(finding.via == "truncated" for finding in verdict.grounded_via))


def first_at(unsupported: tuple[Finding, ...]) -> int:
    """Where the first unsupported value starts (0 for a value of a JSON answer, whose place is not known)."""
    return min(max(finding.at, 0) for finding in unsupported) if unsupported else 0


def masked(piece: str, start: int, unsupported: tuple[Finding, ...]) -> str:
    """piece, the answer's text from start, with the unsupported values masked as grounding.fix masks them in
    the whole answer: wherever their text stands as a whole token, and at their own places."""
    if not unsupported:
        return piece
    # a place outside the piece is one no text stands at (never below 0: that is a JSON answer's leaf)
    moved = tuple(replace(finding, at=finding.at - start if finding.at >= start else len(piece) + 1)
                  for finding in unsupported)
    return fix(piece, Verdict(Status.FLAGGED, len(moved), moved), replacement=MASK)
