"""From records to conversations: one record each, or records grouped by session or trace.

Most formats hold a conversation in one record and it is judged as soon as it
is read. Claude Code and Codex CLI write one record per message, grouped by
session in one file: a file's sessions are judged when the file ends. OTLP span files are
not ordered and a trace may be spread over many lines: traces are judged at
the end of input. On standard input, a stream that may not end (``tail -f``),
a trace is judged as soon as it is complete: when its root span ends (a span
ends after its children, and an exporter sends each span as it ends), or, with
``--flush-after``, after that many seconds with no new span of it. A span that
arrives for a trace already judged is reported, never judged as a new trace.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from grounding.errors import NotATranscript
from grounding.model import NOT_A_TRANSCRIPT, Conversation, Problem, Record
from grounding.transcripts.folders import Found
from grounding.transcripts.formats import (
    RecordError,
    agents_sdk,
    claude_code,
    codex_cli,
    langfuse,
    langsmith,
    otel_events,
    otlp,
    read_record,
    resolve_format,
)
from grounding.transcripts.records import exact_value
from grounding.transcripts.subagents import ParentSessions, joined


@dataclass(frozen=True, slots=True)
class Skipped:
    """A record read and accounted for that holds no conversation of its own."""

    source: str
    line: int
    reason: str


Event = Conversation | Problem | Skipped


# Formats whose conversations are spread over the records of one session in one file: (name, module).
SESSION_FORMATS = (
    ("claude-code", claude_code),
    ("codex-cli", codex_cli),
)
_SESSION_LABELS = {"claude-code": "Claude Code", "codex-cli": "Codex CLI"}

# Formats whose conversations are spread over records of one trace: (name, module), tried in this order.
TRACE_FORMATS = (
    ("otel-genai", otlp),  # OTLP spans; OpenInference spans are told apart per span
    ("otel-genai-events", otel_events),
    ("openai-agents", agents_sdk),
    ("langsmith", langsmith),
    ("langfuse", langfuse),
)
_TRACE_ALIASES = {"openinference": "otel-genai"}


# A record of an unexpected shape can trip a reader in ways no check foresaw (a list where a name
# belongs); it becomes that record's error, never a crash of the whole run.
READER_FAULTS = (TypeError, AttributeError, KeyError, IndexError, ValueError)


def _fault(source: str, line: int, error: Exception) -> Problem:
    return Problem(source, line, f"the record has a shape no reader expected ({type(error).__name__}: {error})")


def _unread(record: Record, error: RecordError) -> Problem | Skipped:
    """What a record no reader took is: in a .json document found by searching a folder (a schema, a
    package.json beside the transcripts), a file skipped as no transcript; elsewhere the record's error."""
    if isinstance(error, NotATranscript) and isinstance(record.source, Found) and record.document is not None:
        return Skipped(record.source, record.line, NOT_A_TRANSCRIPT)
    return Problem(record.source, record.line, str(error))


def groups_every_record(input_format: str | None) -> bool:
    """True when a format named on the command line (or an alias of one) spreads every conversation over
    records."""
    canonical = resolve_format(input_format) if input_format else None
    forced = _TRACE_ALIASES.get(canonical, canonical)
    return forced in dict(SESSION_FORMATS) or forced in dict(TRACE_FORMATS)


class Assembler:
    def __init__(self, input_format: str | None = None) -> None:
        self.input_format = resolve_format(input_format) if input_format else None
        self._sessions: dict[tuple[str, str, str], list[tuple[int, dict]]] = {}  # (source, format, key)
        # per file, every session record's id and its parent's (skipped records too: they sit in the chain)
        self._ids: dict[str, dict[str, str | None]] = {}
        self._traces: dict[tuple[str, str], tuple[str, int, list[object]]] = {}
        self._lines: dict[tuple[str, str], list[int]] = {}  # the line of each of a trace's entries
        self._last_seen: dict[tuple[str, str], float] = {}  # a streamed trace's last span, for --flush-after
        self._judged: set[tuple[str, str]] = set()  # streamed traces judged before the input ended
        self._parents = ParentSessions()  # Claude Code sessions read, for the sub-agents' files that continue them
        self._waiting: list[tuple[list[tuple[int, dict]], str, Conversation]] = []  # sub-agents before their parent

    def feed(self, record: Record) -> list[Event]:
        """The events a record completes (a record of a grouped format may complete none yet)."""
        try:
            return list(self._feed(record))
        except READER_FAULTS as error:
            return [_fault(record.source, record.line, error)]

    def _feed(self, record: Record) -> Iterator[Event]:
        value, source, line = record.value, record.source, record.line
        forced = _TRACE_ALIASES.get(self.input_format, self.input_format)
        for name, module in SESSION_FORMATS:
            if forced == name or (forced is None and module.recognises(value)):
                yield from self._session_record(name, module, exact_value(record), source, line)
                return
        for name, module in TRACE_FORMATS:
            if forced == name or (forced is None and module.recognises(value)):
                yield from self._trace_record(name, module, exact_value(record), source, line)
                return
        try:
            yield read_record(exact_value(record), source, line, forced)
        except RecordError as error:
            yield _unread(record, error)

    def groups(self, record: Record) -> bool:
        """True when the record belongs to a conversation spread over several records (it must stay here)."""
        if self.input_format is not None:
            return groups_every_record(self.input_format)
        value = record.value
        try:
            return any(module.recognises(value) for _, module in (*SESSION_FORMATS, *TRACE_FORMATS))
        except READER_FAULTS:  # a shape no recogniser expected: kept here, where feed reports it as one process does
            return True

    def spans_files(self, record: Record) -> bool:
        """True when the record belongs to a trace, whose records may lie in several files (a session's lie in
        one)."""
        forced = _TRACE_ALIASES.get(self.input_format, self.input_format)
        if forced is not None:
            return forced in dict(TRACE_FORMATS)
        try:
            return any(module.recognises(record.value) for _, module in TRACE_FORMATS)
        except READER_FAULTS:
            return False  # fed where it is read, which reports it

    def read_alone(self, record: Record) -> Event:
        """A one-record conversation read in a worker process: the record's own reader, its faults reported."""
        try:
            return read_record(exact_value(record), record.source, record.line, self.input_format)
        except RecordError as error:
            return _unread(record, error)
        except READER_FAULTS as error:
            return _fault(record.source, record.line, error)

    def end_of_source(self, source: str) -> Iterator[Event]:
        """A file ended: its sessions are complete."""
        modules = dict(SESSION_FORMATS)
        ids = self._ids.pop(source, {})
        keys = [key for key in self._sessions if key[0] == source]
        if any(key[1] == "claude-code" for key in keys):
            self._parents.keep([record for key in keys for record in self._sessions[key]], ids)
        for key in keys:
            records = self._sessions.pop(key)
            try:
                conversation = modules[key[1]].assemble(records, source, ids)
                if key[1] == "claude-code" and conversation.unjudgeable is not None:
                    joined_one = self._joined(records, source)
                    if joined_one is None:
                        self._waiting.append((records, source, conversation))  # its parent may come later
                        continue
                    conversation = joined_one
                yield conversation
            except RecordError as error:
                yield Problem(source, records[0][0], str(error))
            except READER_FAULTS as error:
                yield _fault(source, records[0][0], error)

    def finish(self) -> Iterator[Event]:
        """The input ended: every trace is complete, and every sub-agent's file is joined to its parent
        session or, its parent not given, unjudgeable."""
        for records, source, conversation in self._waiting:
            yield self._joined(records, source) or conversation
        self._waiting = []
        for key in list(self._traces):
            yield self._assembled(key)

    def _joined(self, records: list[tuple[int, dict]], source: str) -> Conversation | None:
        """A Claude Code conversation that continues a record of another file, joined to that file's session
        when it was read (subagents.py); None when it was not (yet)."""
        context = self._parents.context_of(records)
        if context is None:
            return None
        parents = claude_code.assemble(context, source, self._parents.parents)
        return joined(parents, claude_code.assemble(records, source))

    def silent(self, seconds: float, now: float) -> list[Event]:
        """The streamed traces with no new span for seconds: judged as complete (--flush-after)."""
        silent = [key for key, seen in self._last_seen.items() if now - seen >= seconds]
        return [self._assembled(key, judged=True) for key in silent]

    def pending(self) -> int:
        """Traces read but not judged yet (their input has not ended)."""
        return len(self._traces)

    def _assembled(self, key: tuple[str, str], *, judged: bool = False) -> Event:
        name, trace_id = key
        source, line, entries = self._traces.pop(key)
        lines = self._lines.pop(key)
        self._last_seen.pop(key, None)
        if judged:
            self._judged.add(key)
        try:
            return dict(TRACE_FORMATS)[name].assemble(entries, source, line, trace_id, lines)
        except RecordError as error:
            return Problem(source, line, f"trace {trace_id}: {error}")
        except READER_FAULTS as error:
            return _fault(source, line, error)

    def _session_record(self, name: str, module, value: object, source: str, line: int) -> Iterator[Event]:
        label = _SESSION_LABELS[name]
        if not isinstance(value, dict):
            yield Problem(source, line, f"a {label} record must be a JSON object")
            return
        record_id = value.get("uuid")
        if isinstance(record_id, str):
            parent = value.get("parentUuid")
            self._ids.setdefault(source, {})[record_id] = parent if isinstance(parent, str) else None
        key = module.group_key(value)
        if key is None:
            yield Skipped(source, line, f"{label} {value.get('type')!r} record: no message to read")
            return
        self._sessions.setdefault((source, name, key), []).append((line, value))

    def _trace_record(self, name: str, module, value: object, source: str, line: int) -> Iterator[Event]:
        if not isinstance(value, dict):
            yield Problem(source, line, f"a record of the {name} format must be a JSON object")
            return
        streamed = source == "-"
        try:
            found = module.entries(value)
            ended = module.ended_traces(value) if streamed and hasattr(module, "ended_traces") else []
        except RecordError as error:
            yield Problem(source, line, str(error))
            return
        if not found:
            yield Skipped(source, line, f"{name} record with no model call in it")
        now = time.monotonic() if streamed else 0.0
        for trace_id, entry in found:
            key = (name, trace_id)
            if key in self._judged:
                yield Problem(source, line, f"trace {trace_id}: a span arrived after the trace was judged as "
                                            "complete; it was not read (raise --flush-after, or check the file)")
                continue
            if key not in self._traces:
                self._traces[key] = (source, line, [])
                self._lines[key] = []
            self._traces[key][2].append(entry)
            self._lines[key].append(line)
            if streamed:
                self._last_seen[key] = now
        for trace_id in ended:
            if (name, trace_id) in self._traces:
                yield self._assembled((name, trace_id), judged=True)
