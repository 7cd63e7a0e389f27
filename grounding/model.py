"""Every value that crosses a folder (DESIGN.md): the neutral conversation model every reader lowers its
records to (SPEC §2), the records and problems read, the judge's verdicts (§7), the finding codes, and the
run's tally.

Past the readers nothing knows which transcript format a conversation came
from: it is an ordered list of items, each evidence, exempt text, a final
answer, or something the model typed that grounds nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum


def by_position(self: object) -> tuple:
    """``__reduce__`` for a slots dataclass: its fields by position. (The default looks the fields up again
    for every object; with --jobs that made pickling records and verdicts a third of the reading's work.)"""
    return type(self), tuple(getattr(self, name) for name in self.__slots__)


# conversations ------------------------------------------------------------------------------------------

class Kind(Enum):
    """What one item of a conversation is to the check (SPEC §2): what it read, what it was told, what it
    answered, or none of these."""

    EVIDENCE = "evidence"  # a tool result: the model read it
    EXEMPT = "exempt"  # the user's text, a system or developer prompt
    ANSWER = "answer"  # an assistant message with no tool calls: judged
    NEITHER = "neither"  # tool calls, framework corrections: ground nothing


# The members as plain names, for code run per message: in Python 3.11 ``Kind.EVIDENCE`` costs five times a
# global's look-up (EnumType defines __getattr__, so every attribute of the class takes the slow path).
EVIDENCE, EXEMPT, ANSWER, NEITHER = Kind.EVIDENCE, Kind.EXEMPT, Kind.ANSWER, Kind.NEITHER

# Stop reasons after which an answer's text is not a finished answer (Item.stop_reason), across formats.
STOPS_TRUNCATED = frozenset({"max_tokens", "length", "model_context_window_exceeded", "max_output_tokens"})
STOPS_REFUSED = frozenset({"refusal", "content_filter", "safety", "recitation"})


@dataclass(slots=True)  # not frozen: one per message, and a frozen __init__ costs ~6x (a setattr per field)
class Item:
    """One piece of a conversation, in order."""

    kind: Kind
    text: str
    is_error: bool = False  # the transport marked this tool result as failed
    call_arguments: str | None = None  # arguments of the call this result answers (§2.5)
    document: object = None  # a tool result a format already holds as JSON (an object or array), else None
    tool: str | None = None  # the name of the tool whose result this is, when the record says
    stop_reason: str | None = None  # why the model stopped writing this answer, when the record says
    calls: tuple[str, ...] = ()  # the tools an assistant turn called (the tool-call ledger)
    line: int = 0  # the line of the record that holds it, where a conversation spans lines (0: the conversation's)
    span: tuple[str, str] | None = None  # (trace id, span id) of the traced model call that wrote this answer
    # the assistant's own words with it: text beside its tool calls, its reasoning (§9.24). Read for arithmetic
    # that checks, never as evidence
    work: str = ""


@dataclass(slots=True)  # not frozen: one per record, and a frozen __init__ costs ~6x (a setattr per field)
class Conversation:
    """One conversation as read from one record of a transcript."""

    source: str  # the path as given, or "-"
    line: int  # 1-based line of the record
    id: str | None
    items: tuple[Item, ...]
    input_format: str
    unjudgeable: str | None = None  # why the evidence cannot be known (content not captured, server-side state)
    cwd: str | None = None  # the working directory a coding session's records state (§9.26: paths against it)


# records read -------------------------------------------------------------------------------------------

@dataclass(slots=True)  # not frozen: one per line, and a frozen __init__ costs ~6x (a setattr per field)
class Record:
    source: str
    line: int
    value: object
    size: int = 0  # bytes the record took in the input (progress, MB/s)
    raw: bytes | None = None  # the line as read, so a worker process can parse it again cheaply
    # False: parsed by orjson alone, its numbers not checked yet (see exact_value); raw is then the line
    exact: bool = True
    document: bytes | None = None  # the whole .json document this record is (part of): where its answers are

    __reduce__ = by_position


@dataclass(frozen=True, slots=True)
class Problem:
    source: str
    line: int | None
    message: str

    def to_dict(self) -> dict:  # as the JSON report writes it
        return {"source": path_text(self.source), "line": self.line, "message": self.message}


# verdicts -----------------------------------------------------------------------------------------------

class Status(Enum):
    """An answer's verdict: grounded, derived (a value computed from read ones) or flagged when judged for
    evidence; otherwise why it was not judged so."""

    GROUNDED = "grounded"
    DERIVED = "derived"
    FLAGGED = "flagged"
    UNJUDGEABLE = "unjudgeable"  # the evidence is not in the record: never reported as grounded
    CONTRACT_UNMET = "contract-unmet"  # the answer failed its output schema: not judged for evidence
    TRUNCATED = "truncated"  # the model stopped at a limit: a stop is not an answer
    REFUSED = "refused"  # the model declined (refusal, content filter)
    UNCHECKED = "unchecked"  # judged, but it states no value to look up: nothing was checked, never a pass


# The statuses every answer may get, as plain names (see Kind above: a member's look-up is slow in 3.11).
GROUNDED, DERIVED, FLAGGED = Status.GROUNDED, Status.DERIVED, Status.FLAGGED


COMPUTED_VIA = frozenset({"derived", "stated", "listed-total", "date-offset", "shown-earlier"})


@dataclass(frozen=True, slots=True)
class NearMiss:
    """A read value close to an unsupported one (explain): a typo of it, or a neighbour of an invention."""

    value: str  # as read, normalised
    distance: int  # edits from the unsupported value
    where: str  # "line 4, item 3 (tool result of lookup_order)", then " at /order/id": the JSON pointer
    pointer: str | None = None  # the JSON pointer alone, when the result is JSON
    text: str | None = None  # as the item writes it, where its text spells the value (a case apart)

    def to_dict(self) -> dict:
        return {"value": self.value, "distance": self.distance, "where": self.where, "pointer": self.pointer,
                "text": self.text}


@dataclass(frozen=True, slots=True)
class Finding:
    """One value of the answer and, when a §9 rule grounded it, how."""

    value: str
    shape: str
    text: str
    via: str | None = None
    formula: str | None = None  # derived, stated, listed-total, date-offset, shown-earlier
    matched: str | None = None  # masked, composite, prose-date; shown-earlier: where the work was written
    at: int = -1  # where text starts in the answer, for showing it in context (-1: not known, a JSON answer)
    note: str | None = None  # of an unsupported value: a search that stopped at its bound (derive.SEARCH_LIMIT)
    nearest: tuple[NearMiss, ...] = ()  # of an unsupported value, with explain: the closest read values

    __reduce__ = by_position

    def to_dict(self) -> dict:
        """The finding as the JSON report writes it (the fields that say nothing are left out)."""
        entry = {"value": self.value, "shape": self.shape, "text": self.text}
        if self.via is not None:
            entry["via"] = self.via
        if self.formula is not None:
            entry["formula"] = self.formula
        if self.matched is not None:
            entry["matched"] = self.matched
        if self.note is not None:
            entry["note"] = self.note
        if self.nearest:
            entry["nearest"] = [near.to_dict() for near in self.nearest]
        return entry


@dataclass(frozen=True, slots=True)  # a result a caller keeps: frozen (~1 µs an answer, under 0.2% of judging)
class Verdict:
    status: Status
    candidates: int
    unsupported: tuple[Finding, ...] = ()
    grounded_via: tuple[Finding, ...] = ()
    examples: tuple[Finding, ...] = ()
    reason: str | None = None  # why an answer is unjudgeable, truncated, refused or unchecked
    contract: object = None  # grounding.core.contract.ContractResult when the answer was judged under a schema
    revision: dict | None = None  # after an "[evidence check" re-ask: the values named back, and whether fixed

    __reduce__ = by_position

    @property
    def derived_values(self) -> int:
        return sum(1 for finding in self.grounded_via if finding.via in COMPUTED_VIA)

    def to_dict(self) -> dict:
        """The verdict as the JSON report writes it in an answer's object."""
        return self.as_json(())

    def as_json(self, explanation: Sequence) -> dict:
        """to_dict, with an answer's --explain entries where the report puts them."""
        entry = {
            "status": self.status.value,
            "candidates": self.candidates,
            "unsupported": [finding.to_dict() for finding in self.unsupported],
            "evidence_truncated": False,  # the index has no ceiling (SPEC-READINGS §5.5)
            "grounded_via": [finding.to_dict() for finding in self.grounded_via],
            "examples": [finding.to_dict() for finding in self.examples],
        }
        if self.reason is not None:
            entry["reason"] = self.reason
        if explanation:
            entry["explain"] = [e.as_json() for e in explanation]
        if self.contract is not None:
            entry["contract"] = self.contract.as_json()
        if self.revision is not None:
            entry["evidence_recheck"] = self.revision
        return entry


def status_of(unsupported: Sequence[Finding], grounded_via: Sequence[Finding]) -> Status:
    """The status of an answer judged for evidence: flagged with an unsupported value, else derived when a value
    was computed, else grounded (the judge's, and a baseline's once it takes findings out)."""
    if unsupported:
        return FLAGGED
    return DERIVED if any(finding.via in COMPUTED_VIA for finding in grounded_via) else GROUNDED


def with_findings(verdict: Verdict, unsupported: tuple[Finding, ...], examples: tuple[Finding, ...]) -> Verdict:
    """The verdict with fewer unsupported values or examples (a baseline's, an ignored rule's): an answer left
    with no unsupported value is grounded, or derived when a value was computed, and loses a flagged
    answer's reason."""
    status, reason = verdict.status, verdict.reason
    if status is Status.FLAGGED and not unsupported:
        status, reason = status_of(unsupported, verdict.grounded_via), None
    return replace(verdict, status=status, unsupported=unsupported, examples=examples, reason=reason)


# What a report calls an identifier that is a date or a clock time (a label only: no rule reads it)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:t\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)?"
                   r"|\d{1,2}/\d{1,2}/\d{2,4}")
_ASCII_DIGITS = frozenset("0123456789")
_TIME = re.compile(r"\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?: ?[ap]\.?m\.?)?(?:z|[+-]\d{2}:?\d{2})?")


def shown_shape(value: str, shape: str) -> str:
    """The shape a report shows a person: an identifier that is a date or a clock time is called so. The
    JSON contract keeps SPEC §4's shape (``identifier``); no rule reads this label.

    >>> [shown_shape(v, "identifier") for v in ["2024-05-20", "2024-05-20t14:00:00z", "14:00", "2:30 pm",
    ...                                         "03/01/2023", "ord-5512"]]
    ['date', 'date', 'time', 'time', 'date', 'identifier']
    """
    if shape == "identifier" and value[:1] in _ASCII_DIGITS:
        if _DATE.fullmatch(value):
            return "date"
        if _TIME.fullmatch(value):
            return "time"
    return shape


@dataclass(frozen=True, slots=True)  # a result a caller keeps: frozen, as Verdict
class JudgedAnswer:
    """One final answer, where it was, and its verdict."""

    source: str
    line: int
    conversation: str | None
    turn: int
    text: str
    verdict: Verdict
    input_format: str = ""  # the transcript format the conversation was read from
    explanation: tuple = ()  # with --explain: one grounding.core.explain.Explanation per candidate
    span: tuple[str, str] | None = None  # (trace id, span id) of the model call that wrote it, read from a trace

    __reduce__ = by_position

    def to_dict(self) -> dict:
        """The answer's object in the JSON report (``ground check --format json``), key for key."""
        verdict = self.verdict.as_json(self.explanation)
        return {"source": path_text(self.source), "line": self.line, "conversation": self.conversation,
                "turn": self.turn, "status": verdict.pop("status"), "format": self.input_format, **verdict}


def path_text(path: str) -> str:
    """A file name as a report can encode it: the bytes of a name that is not UTF-8 (which Python holds as
    lone surrogates) shown as escapes; every other name unchanged.

    >>> path_text("logs/caf" + chr(0xDCE9) + ".jsonl")
    'logs/caf\\\\xe9.jsonl'
    """
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return path


# finding codes ------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    name: str
    level: str  # SARIF's: error, warning, note
    summary: str


RULES: tuple[Rule, ...] = (
    Rule("GR001", "unsupported-value", "error", "A value in a final answer appears in no tool result read before it."),
    Rule("GR002", "contract-unmet", "error",
         "The answer does not meet its output schema (json-parse or schema-validate)."),
    Rule("GR003", "unjudgeable", "warning", "The evidence the answer was written from is not in the record."),
    Rule("GR004", "truncated", "warning", "The model stopped at a limit: the text is not a finished answer."),
    Rule("GR005", "refused", "warning", "The model declined to answer."),
    Rule("GR006", "derived-value", "note", "A value computed from read values, shown with its formula."),
    Rule("GR007", "example", "note", "A value written as an example or a format hint, not as a claim."),
)
BY_NAME = {rule.name: rule for rule in RULES}
ALL_CODES = frozenset(rule.code for rule in RULES)


def code_of(name: str) -> str:
    return BY_NAME[name].code


# the run's tally ----------------------------------------------------------------------------------------

# Which field of the summary counts the answers of each status: the status's name (contract-unmet: contract_unmet).
_STATUS_COUNTERS = {status: status.value.replace("-", "_") for status in Status}


# The reason a .json file found in a folder is skipped (transcripts.assembly), counted as a file in the summary.
NOT_A_TRANSCRIPT = "a .json file found in a folder, in no transcript format"


@dataclass(slots=True)
class Summary:
    files: int = 0
    records: int = 0
    conversations: int = 0
    answers: int = 0
    grounded: int = 0
    derived: int = 0
    flagged: int = 0
    unjudgeable: int = 0
    contract_unmet: int = 0
    truncated: int = 0
    refused: int = 0
    unchecked: int = 0  # answers that stated no value to look up: nothing was checked
    candidates: int = 0
    unsupported: int = 0
    derived_values: int = 0
    examples: int = 0
    errors: int = 0
    skipped: int = 0  # records read that hold no conversation of their own (Claude Code snapshots, …)
    skipped_reasons: Counter = field(default_factory=Counter)
    unfinished: int = 0  # traces read but not complete when an interrupted run stopped (not in the JSON)
    via: Counter = field(default_factory=Counter)
    unsupported_by_shape: Counter = field(default_factory=Counter)
    unsupported_values: Counter = field(default_factory=Counter)
    written: dict = field(default_factory=dict)  # each unsupported value as an answer first wrote it, to show

    def count(self, answer: JudgedAnswer) -> None:
        verdict = answer.verdict
        self.answers += 1
        counter = _STATUS_COUNTERS[verdict.status]
        setattr(self, counter, getattr(self, counter) + 1)
        self.candidates += verdict.candidates
        self.unsupported += len(verdict.unsupported)
        self.examples += len(verdict.examples)
        if verdict.grounded_via:  # most answers have none, and Counter.update costs a call chain even then
            self.derived_values += verdict.derived_values
            self.via.update(finding.via for finding in verdict.grounded_via)
        for finding in verdict.unsupported:
            self.unsupported_by_shape[finding.shape] += 1
            self.unsupported_values[finding.value] += 1
            self.written.setdefault(finding.value, finding.text)

    def as_json(self) -> dict:
        return {
            "files": self.files,
            "records": self.records,
            "conversations": self.conversations,
            "answers": self.answers,
            "grounded": self.grounded,
            "derived": self.derived,
            "flagged": self.flagged,
            "unjudgeable": self.unjudgeable,
            "contract_unmet": self.contract_unmet,
            "truncated": self.truncated,
            "refused": self.refused,
            "unchecked": self.unchecked,
            "candidates": self.candidates,
            "unsupported": self.unsupported,
            "derived_values": self.derived_values,
            "via": dict(sorted(self.via.items())),
            "examples": self.examples,
            "errors": self.errors,
            "skipped": self.skipped,
            "skipped_reasons": dict(sorted(self.skipped_reasons.items())),
        }
