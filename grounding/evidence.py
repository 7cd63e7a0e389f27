"""The evidence index: every spelling the conversation read before an answer (SPEC §5, §9).

Tool results and exempt text are read once, as the conversation advances,
into ``Forms``; the ``EvidenceIndex`` of a conversation is their union. A
form is held *plainly* or through a §9 reading (unit, date part, component,
prose date), so the verdict can say which route grounded a value.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import chain

import regex

from grounding import jsontext, pyrepr, verbatim
from grounding.dates import prose_dates, twelve_hour_times
from grounding.normalise import lookup_forms, normalise, spell_number
from grounding.token_readings import TokenReader, components_of
from grounding.tokens import runs

_HAS_DIGIT = re.compile(r"\d")
_WHOLE_SEPARATOR = "\x00"
_ERROR_WORD = regex.compile(r"\s*error\b", regex.IGNORECASE)


@dataclass(slots=True)
class Forms:
    """What one piece of read text grounds, by route."""

    plain: set[str] = field(default_factory=set)
    unit: set[str] = field(default_factory=set)
    date: set[str] = field(default_factory=set)
    component: set[str] = field(default_factory=set)
    numbers: set[str] = field(default_factory=set)  # spellings of absolute values: sign, rounding (§9.3)
    operands: set[str] = field(default_factory=set)  # numbers a tool typed as numbers (§9.7)
    collections: list[tuple[tuple[str, ...], str]] = field(default_factory=list)  # for totals (§9.7)
    prose_iso: set[str] = field(default_factory=set)  # prose dates with a year (§9.10)
    month_days: set[str] = field(default_factory=set)  # yearless prose dates (§9.10)
    # the string leaves of each document, NUL-joined and kept as one text: only masks read them whole (§9.11)
    wholes: list[str] = field(default_factory=list)
    pending: set[str] = field(default_factory=set)  # identifiers whose components are not worked out yet
    min_digits: int = 4  # the digit bar the pending components are worked out with

    def resolve(self) -> set[str]:
        """The component forms, working out those still pending (§9.4)."""
        if self.pending:
            for value in self.pending:
                self.component.update(components_of(value, self.min_digits))
            self.pending.clear()
        return self.component

    def every_form(self) -> Iterator[str]:
        self.resolve()
        yield from self.plain
        yield from self.unit
        yield from self.date
        yield from self.component
        yield from self.prose_iso

    def drop(self, forms: Forms) -> None:
        """Remove everything forms spells (a failed lookup's argument forms, §9.6)."""
        spelled = set(forms.every_form())
        self.resolve()
        for routed in (self.plain, self.unit, self.date, self.component):
            routed -= spelled
        self.numbers -= forms.numbers | spelled
        self.operands -= forms.numbers | spelled
        self.collections = [
            (tuple(n for n in numbers if n not in forms.numbers), label) for numbers, label in self.collections
        ]
        self.prose_iso -= spelled
        self.month_days -= forms.month_days | {iso[5:] for iso in spelled if _is_iso_date(iso)}
        self.wholes = [
            _WHOLE_SEPARATOR.join(s for s in joined.split(_WHOLE_SEPARATOR) if normalise(s) not in spelled)
            for joined in self.wholes
        ]


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """What the index must keep: the digit bar (components) and whether words matter (shapes)."""

    min_digits: int = 4
    keep_words: bool = False  # with no declared shape, a token without a digit can never match
    straightforward: bool = False  # no caches, no fast tokeniser, components read at once: the reference path


_MONTH_TOKENS = frozenset(
    spelled + dot
    for name in ("january february march april may june july august september october november december "
                 "jan feb mar apr jun jul aug sep sept oct nov dec").split()
    for spelled in (name.capitalize(), name.upper())
    for dot in ("", ".")
)
_MERIDIEM_TOKENS = frozenset(
    spelled for word in ("am", "pm", "a.m", "p.m", "a.m.", "p.m.", "am.", "pm.")
    for spelled in (word, word.upper(), word.capitalize())
)
_READERS: dict[tuple[int, bool], TokenReader] = {}


def _token_reader(options: ReadOptions) -> TokenReader:
    if options.straightforward:
        return TokenReader(options.min_digits, options.keep_words, cache=False)
    key = (options.min_digits, options.keep_words)
    reader = _READERS.get(key)
    if reader is None:
        reader = _READERS[key] = TokenReader(*key)
    return reader


class _Reader:
    """Reads text and JSON into one Forms."""

    def __init__(self, forms: Forms, options: ReadOptions, typed: bool, *, whole_strings: bool = False) -> None:
        self.forms = forms
        self.options = options
        self.tokens = _token_reader(options)
        forms.min_digits = options.min_digits
        self.typed = typed  # numbers here are operands of §9.7 (tool results, not exempt text)
        self.whole_strings = whole_strings  # index each string whole as a plain form (call arguments)

    def text(self, text: str, *, operands: bool = True) -> None:
        """Index the tokens of text with their §9 readings (numbers in it are operands when typed)."""
        distinct = runs(text, fast=not self.options.straightforward)
        readings = self.tokens.readings(distinct)
        forms = self.forms
        if readings:
            forms.plain.update(chain.from_iterable(r.plain for r in readings))
            forms.unit.update(chain.from_iterable(r.unit for r in readings))
            forms.date.update(chain.from_iterable(r.date for r in readings))
            forms.pending.update(chain.from_iterable(r.component for r in readings))
            numbers = set(chain.from_iterable(r.numbers for r in readings))
            forms.numbers |= numbers
            if self.typed and operands:
                forms.operands |= numbers
        meridiem = not distinct.isdisjoint(_MERIDIEM_TOKENS) or any(r.meridiem for r in readings)
        if meridiem or not distinct.isdisjoint(_MONTH_TOKENS):
            self.prose(text, meridiem)

    def prose(self, text: str, meridiem: bool = True) -> None:
        """Readings found in running text rather than in one token: 12-hour times, prose dates."""
        if meridiem:
            self.forms.date.update(twelve_hour_times(text))
        for date in prose_dates(text):
            if date.iso is None:
                self.forms.month_days.add(date.month_day)
            else:
                self.forms.prose_iso.add(date.iso)

    def strings(self, strings: list[str]) -> None:
        """Keys and string leaves: each indexed as its tokens (digits in a string are not typed numbers)."""
        if not strings:
            return
        joined = "\x00".join(strings)  # one pass over all strings; NUL separates tokens like any separator
        self.text(joined, operands=False)
        if self.whole_strings:
            self.forms.plain.update(filter(None, map(normalise, strings)))
        if _HAS_DIGIT.search(joined):
            self.forms.wholes.append(joined)

    def number(self, node: object) -> None:
        """A JSON number leaf: its exact spelling is a plain form, its absolute value an operand."""
        spelling = jsontext.number_spelling(node)
        self.forms.plain.update(lookup_forms(spelling))
        magnitude = spelling.lstrip("-")
        self.forms.numbers.add(magnitude)
        if self.typed:
            self.forms.operands.add(magnitude)


def read_exempt(text: str, options: ReadOptions) -> Forms:
    """User text or a system prompt: grounds like a text result, but lends no operands (§5.2)."""
    forms = Forms()
    _Reader(forms, options, typed=False).text(text)
    if options.straightforward:
        forms.resolve()
    return forms


def read_arguments(arguments: str, options: ReadOptions) -> Forms:
    """Everything a tool call's arguments spell, read as if they were a tool result (§9.6)."""
    forms = Forms()
    document = _parse(arguments)
    reader = _Reader(forms, ReadOptions(options.min_digits, True, options.straightforward), typed=True,
                     whole_strings=True)
    if document is _TEXT:
        reader.text(arguments)
    else:
        _walk(document, reader, totals=False)
    return forms


def read_tool_result(
    text: str,
    options: ReadOptions,
    *,
    is_error: bool = False,
    arguments: str | None = None,
    document: object = None,
) -> Forms:
    """One tool result (one block of one), with absences and failed lookups applied.

    A format that holds the result as JSON already (Gemini, Bedrock, pydantic-ai…) passes it
    as document, an object or array; otherwise text is parsed when it is a JSON document.
    """
    return _read_examined(_examine(text, options, is_error, arguments, document), options)


@dataclass(frozen=True, slots=True)
class _Examined:
    """A tool result parsed and judged failed or not (§5.4, §9.6), before any of it is read."""

    text: str
    document: object  # the parsed document, or _TEXT
    exact_json: bool  # the document is the text parsed as JSON, so its strings can be read off the text
    absence: dict | None  # the part of an absence that grounds
    failed: bool
    argument_forms: Forms | None  # what the call's arguments spell, when a failed lookup must drop it


def _examine(text: str, options: ReadOptions, is_error: bool, arguments: str | None, document: object) -> _Examined:
    exact_json = False
    if not isinstance(document, (dict, list)):
        document, exact_json = _parse_with_origin(text)
    absence = None
    if document is _TEXT:
        failed = is_error or not text.strip() or _ERROR_WORD.match(text) is not None
    else:
        absence = _absence_view(document)
        failed = is_error or absence is not None or _reports_error(document)
    argument_forms = None
    if arguments is not None and (failed or document is not _TEXT):  # a text result that did not fail needs none
        argument_forms = read_arguments(arguments, options)
        if not failed and document is not _TEXT:
            failed = _says_nothing(document, argument_forms)
    return _Examined(text, document, exact_json, absence, failed, argument_forms if failed else None)


def _read_examined(examined: _Examined, options: ReadOptions) -> Forms:
    forms = Forms()
    reader = _Reader(forms, options, typed=True)
    if examined.document is _TEXT:
        reader.text(examined.text)
    else:
        document = examined.document if examined.absence is None else examined.absence
        _walk(document, reader, totals=True)
    if examined.argument_forms is not None:
        forms.drop(examined.argument_forms)
    if options.straightforward:
        forms.resolve()
    return forms


def _verbatim_of(examined: _Examined) -> set[str] | None:
    """What a result that did not fail says verbatim, or None when only reading it says (see verbatim)."""
    if examined.failed:
        return None  # its forms lose what the call's arguments spell: read them
    if examined.document is _TEXT:
        return verbatim.of_text(examined.text)
    return verbatim.of_json(examined.text) if examined.exact_json else None


_TEXT = object()  # marks a result that is read as text, not as a JSON document


def _parse(text: str) -> object:
    """A tool result's document: JSON, JSON encoded twice, or a Python repr; else it is text."""
    return _parse_with_origin(text)[0]


def _parse_with_origin(text: str) -> tuple[object, bool]:
    """The document, and whether it is text itself parsed as JSON (not encoded twice, not a Python repr)."""
    stripped = text.lstrip()
    if stripped[:1] == '"':
        try:
            inner = jsontext.parse(text)
        except jsontext.NotJson:
            return _TEXT, False
        return (_parse(inner) if isinstance(inner, str) and jsontext.looks_like_json(inner) else _TEXT), False
    if not jsontext.looks_like_json(text):
        return _TEXT, False
    try:
        return jsontext.parse(text), True
    except jsontext.NotJson:
        pass
    document = pyrepr.parse(text)
    return (_TEXT, False) if document is None else (document, False)


def _walk(document: object, reader: _Reader, *, totals: bool) -> None:
    """Index every key and leaf of a JSON document (explicit stack: documents can be deep)."""
    strings: list[str] = []
    stack = [document]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is dict:
            strings.extend(node)
            values = list(node.values())
            stack.extend(values)
            if totals and len(values) >= 2 and type(values[0]) is dict:
                _member_totals(values, reader.forms)
        elif kind is list:
            stack.extend(node)
            if totals and len(node) >= 2:
                if jsontext.is_number(node[0]):
                    _array_total(node, reader.forms)
                elif type(node[0]) is dict:
                    _member_totals(node, reader.forms)
        elif kind is str:
            strings.append(node)
        elif kind is jsontext.Constant:
            reader.forms.plain.add(str(node))
        elif node is True or node is False:
            if reader.options.keep_words:
                reader.forms.plain.add("true" if node else "false")
        elif node is not None:
            reader.number(node)
    reader.strings(strings)


def _array_total(array: list, forms: Forms) -> None:
    if all(jsontext.is_number(node) for node in array):
        spellings = tuple(jsontext.number_spelling(n).lstrip("-") for n in array)
        forms.collections.append((spellings, f"total of {len(spellings)} numbers"))


def _member_totals(members: list, forms: Forms) -> None:
    if not all(type(member) is dict for member in members):
        return
    by_key: dict[str, list[str]] = {}
    for member in members:
        for key, child in member.items():
            if jsontext.is_number(child):
                by_key.setdefault(key, []).append(jsontext.number_spelling(child).lstrip("-"))
    for key, spellings in by_key.items():
        if len(spellings) >= 2:
            forms.collections.append((tuple(spellings), f"total of {key!r} over {len(spellings)} items"))


def spell(number: Decimal) -> str:
    """Spell a Decimal the way the index spells numbers."""
    return spell_number(format(number, "f"))


def _absence_view(document: object) -> dict | None:
    """The part of an absence (or a ledger around one) that grounds, or None when it is no absence (§5.4)."""
    if not isinstance(document, dict):
        return None
    if _is_absence(document):
        return {key: value for key, value in document.items() if key != "looked_for"}
    result = document.get("result")
    if isinstance(document.get("af_coverage"), dict) and _is_absence(result):
        view = dict(document)
        view["result"] = {key: value for key, value in result.items() if key != "looked_for"}
        return view
    return None


def _is_absence(node: object) -> bool:
    return (
        isinstance(node, dict)
        and node.get("af_absent") is True
        and isinstance(node.get("checked"), list)
        and len(node["checked"]) > 0
    )


def _reports_error(document: object) -> bool:
    """A JSON object whose top-level ``error``/``errors`` key holds something (§9.6)."""
    if not isinstance(document, dict):
        return False
    for key, value in document.items():
        if key.lower() in ("error", "errors") and not _is_empty_value(value):
            return True
    return False


def _is_empty_value(value: object) -> bool:
    if value is None or value is False or value == "" or value == [] or value == {}:
        return True
    return jsontext.is_number(value) and value == 0


def _says_nothing(document: object, arguments: Forms) -> bool:
    """True when no scalar of the document says anything beyond the call's arguments (§9.6)."""
    spelled = set(arguments.every_form())
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif node is True:
            return False
        elif isinstance(node, str):
            value = normalise(node)
            if value and value not in spelled:
                return False
        elif jsontext.is_number(node) and node != 0:
            if jsontext.number_spelling(node) not in spelled:
                return False
    return True


def _is_iso_date(value: str) -> bool:
    return len(value) == 10 and value[4] == "-" and value[7] == "-" and value[:4].isdigit()


class EvidenceIndex:
    """Everything read before an answer, grown as the conversation advances.

    Each piece is first seen verbatim (cheap, see ``verbatim``) and read into
    ``forms`` only when an answer asks for more than a verbatim value; pieces
    are read in the order they came, so what the index holds never depends on
    when it was read.
    """

    def __init__(self, options: ReadOptions | None = None) -> None:
        self.options = options if options is not None else ReadOptions()
        self._forms = Forms(min_digits=self.options.min_digits)
        self._unread: list[_Examined | str] = []  # pieces seen but not read yet: results, and exempt texts
        self._verbatim: set[str] = set()  # what the pieces seen say verbatim (those that can be seen so)
        self._sorted_numbers: list[Decimal] | None = None
        self._operands: dict[str, Decimal] | None = None
        self._totals: dict[Decimal, str] | None = None
        self._wholes: set[str] | None = None
        self._pending_text: str | None = None  # the identifiers not worked out yet, as one text to search

    @property
    def forms(self) -> Forms:
        """Every form of everything seen, reading the pieces not read yet."""
        if self._unread:
            unread, self._unread = self._unread, []
            for piece in unread:
                if isinstance(piece, str):
                    self._add(read_exempt(piece, self.options))
                else:
                    self._add(_read_examined(piece, self.options))
        return self._forms

    def see_result(
        self, text: str, *, is_error: bool = False, arguments: str | None = None, document: object = None
    ) -> None:
        """A tool result: seen verbatim now, read when an answer needs it (at once on the straightforward path)."""
        examined = _examine(text, self.options, is_error, arguments, document)
        if self.options.straightforward:
            self.add(_read_examined(examined, self.options))
            return
        self._unread.append(examined)
        said = _verbatim_of(examined)
        if said is not None:
            self._verbatim |= said

    def see_exempt(self, text: str) -> None:
        """User text or a system prompt (§5.2)."""
        if self.options.straightforward:
            self.add(read_exempt(text, self.options))
            return
        self._unread.append(text)
        self._verbatim |= verbatim.of_text(text)

    def says_verbatim(self, value: str) -> bool:
        """True when a token read is value itself, so value is grounded plainly (§3.5) without reading forms.

        False says nothing: the forms may still hold value.
        """
        if value not in self._verbatim or "," in value or normalise(value) != value:
            return False
        return self.options.keep_words or _HAS_DIGIT.search(value) is not None

    def add(self, forms: Forms) -> None:
        """Add forms read elsewhere (after every piece seen so far)."""
        self.forms  # noqa: B018 — pieces seen earlier are read first, keeping the order of collections
        self._add(forms)

    def _add(self, forms: Forms) -> None:
        mine = self._forms
        mine.plain |= forms.plain
        mine.unit |= forms.unit
        mine.date |= forms.date
        mine.component |= forms.component
        if forms.pending:
            mine.pending |= forms.pending
            self._pending_text = None
        if not forms.numbers <= mine.numbers:
            mine.numbers |= forms.numbers
            self._sorted_numbers = None
        if not forms.operands <= mine.operands:
            mine.operands |= forms.operands
            self._operands = None
        if forms.collections:
            mine.collections.extend(forms.collections)
            self._totals = None
        mine.prose_iso |= forms.prose_iso
        mine.month_days |= forms.month_days
        if forms.wholes:
            mine.wholes.extend(forms.wholes)
            self._wholes = None

    def components(self) -> set[str]:
        """Component forms of everything read (worked out the first time an answer needs them)."""
        return self.forms.resolve()

    def has_component(self, wanted: tuple[str, ...]) -> bool:
        """True when one of wanted is a component of something read (§9.4).

        Only identifiers that could hold one are worked out: every component
        form is spelled inside its identifier, once grouping commas and
        currency signs are dropped (a part is normalised by deleting characters).
        """
        forms = self.forms
        held = forms.component
        if any(form in held for form in wanted):
            return True
        if not forms.pending:
            return False
        if self._pending_text is None:
            self._pending_text = _component_key("\n".join(forms.pending))
        keys = [_component_key(form) for form in wanted]
        if not any(key in self._pending_text for key in keys):
            return False
        holding = [value for value in forms.pending if any(key in _component_key(value) for key in keys)]
        for value in holding:
            held.update(components_of(value, forms.min_digits))
        forms.pending.difference_update(holding)
        self._pending_text = None
        return any(form in held for form in wanted)

    def has_number(self, magnitude: Decimal) -> bool:
        """True when the absolute value magnitude is an indexed number (sign, §9.3)."""
        return spell(magnitude) in self.forms.numbers

    def has_number_near(self, low: Decimal, high: Decimal) -> bool:
        """True when an indexed number lies in [low, high] (rounding, §9.3)."""
        if self._sorted_numbers is None:
            self._sorted_numbers = sorted(Decimal(n) for n in self.forms.numbers)
        numbers = self._sorted_numbers
        at = bisect.bisect_left(numbers, low)
        return at < len(numbers) and numbers[at] <= high

    def operands(self) -> dict[str, Decimal]:
        """Operands of §9.7 by spelling, in a stable order."""
        if self._operands is None:
            self._operands = {spelling: Decimal(spelling) for spelling in sorted(self.forms.operands, key=_by_value)}
        return self._operands

    def totals(self) -> dict[Decimal, str]:
        """Collection totals of §9.7, each with the formula that shows it."""
        if self._totals is None:
            self._totals = {}
            for spellings, label in self.forms.collections:
                if len(spellings) < 2:
                    continue
                values = [Decimal(s) for s in spellings]
                total = sum(values, Decimal(0))
                if total not in self._totals:
                    addends = " + ".join(spellings[:6]) + (" + …" if len(spellings) > 6 else "")
                    self._totals[total] = f"{spell(total)} = {addends} ({label})"
        return self._totals

    def wholes(self) -> set[str]:
        """String leaves read whole, normalised (only masks need them, §9.11); worked out once per read."""
        if self._wholes is None:
            self._wholes = {
                normalise(whole)
                for joined in self.forms.wholes
                for whole in joined.split(_WHOLE_SEPARATOR)
                if _HAS_DIGIT.search(whole)
            }
        return self._wholes

    def is_any_form(self, value: str) -> bool:
        """True when value is indexed by any route (plainly or by a §9 reading)."""
        forms = self.forms
        return (
            value in forms.plain
            or value in forms.unit
            or value in forms.date
            or value in forms.prose_iso
            or self.has_component((value,))
        )


_COMPONENT_KEY = str.maketrans("", "", ",$€£¥₹")


def _component_key(text: str) -> str:
    return text.translate(_COMPONENT_KEY)


def _by_value(spelling: str) -> tuple[Decimal, str]:
    return Decimal(spelling), spelling


def result_failed(text: str, *, is_error: bool = False, document: object = None) -> bool:
    """True when a tool result reports failure by itself: the transport's flag, an error key or word, an absence."""
    if is_error:
        return True
    if not isinstance(document, (dict, list)):
        document = _parse(text)
    if document is _TEXT:
        return not text.strip() or _ERROR_WORD.match(text) is not None
    return _absence_view(document) is not None or _reports_error(document)
