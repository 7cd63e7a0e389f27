"""Reading evidence: every spelling a tool result or exempt text grounds (SPEC §5, §9).

A piece is read into ``Forms``; the ``EvidenceIndex`` of a conversation
(``grounding.core.evidence.index``) is the union of its pieces' forms, read when asked. A
form is held *plainly* or through a §9 reading (unit, date part, component,
prose date), so the verdict can say which route grounded a value.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import chain

import regex

from grounding import json_exact
from grounding.core.evidence import pyrepr, verbatim
from grounding.core.evidence.token_readings import TokenReader, components_of
from grounding.core.text.dates import MONTHS, prose_dates, twelve_hour_times
from grounding.core.text.normalise import lookup_forms, normalise, normalise_once
from grounding.core.text.tokens import runs
from grounding.core.text.units import SCALE_WORDS, scaled_numbers

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
    # for totals (§9.7): each collection's members as parsed, with the key they share (None: an array)
    collections: list[tuple[list, str | None]] = field(default_factory=list)
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
            ([n for n in members if json_exact.number_spelling(n).lstrip("-") not in forms.numbers], key)
            for members, key in self.collections
        ]
        self.prose_iso -= spelled
        self.month_days -= forms.month_days | {iso[5:] for iso in spelled if is_iso_date(iso)}
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
    for name in MONTHS
    for spelled in (name.capitalize(), name.upper())
    for dot in ("", ".")
)
_MERIDIEM_TOKENS = frozenset(
    spelled for word in ("am", "pm", "a.m", "p.m", "a.m.", "p.m.", "am.", "pm.", "noon", "midnight")
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

    def __init__(
        self, forms: Forms, options: ReadOptions, typed: bool, *, whole_strings: bool = False, lookups: bool = True
    ) -> None:
        self.forms = forms
        self.options = options
        self.tokens = _token_reader(options)
        forms.min_digits = options.min_digits
        self.typed = typed  # numbers here are operands of §9.7 (tool results, not exempt text)
        self.whole_strings = whole_strings  # index each string whole as a plain form (call arguments)
        self.lookups = lookups  # False: a number leaf is only a number and an operand (see read_numbers)

    def text(self, text: str, *, operands: bool = True) -> None:
        """Index the tokens of text with their §9 readings (numbers in it are operands when typed)."""
        distinct = runs(unescaped(text), fast=not self.options.straightforward)
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
        if not distinct.isdisjoint(SCALE_WORDS):
            self.scaled(text, operands)

    def scaled(self, text: str, operands: bool = True) -> None:
        """Numbers written with a scale word (``21 million``): grounded, and operands, spelled out."""
        numbers = set(scaled_numbers(text))
        self.forms.unit |= numbers
        self.forms.numbers |= numbers
        if self.typed and operands:
            self.forms.operands |= numbers

    def prose(self, text: str, meridiem: bool = True) -> None:
        """Readings found in running text rather than in one token: 12-hour times, prose dates."""
        if meridiem:
            self.forms.date.update(twelve_hour_times(text))
        for date in prose_dates(text):
            if date.iso is None:
                self.forms.month_days.add(date.month_day)
            else:
                self.forms.prose_iso.add(date.iso)

    def text_numbers(self, text: str) -> None:
        """Only the numbers (and operands) text holds: those of the runs that can begin a number."""
        distinct = runs(unescaped(text), fast=not self.options.straightforward)
        numbers = self.tokens.numbers(distinct)  # (which tells the runs that cannot hold a number at once)
        if not distinct.isdisjoint(SCALE_WORDS):
            numbers.update(scaled_numbers(text))
        self.forms.numbers |= numbers
        if self.typed:
            self.forms.operands |= numbers

    def strings(self, strings: list[str]) -> None:
        """Keys and string leaves: each indexed as its tokens, the numbers in them operands too (§9.18:
        ``"Price range: 180.0 - 500.0"``)."""
        if not strings:
            return
        joined = "\x00".join(strings)  # one pass over all strings; NUL separates tokens like any separator
        self.text(joined)
        if self.whole_strings:
            self.forms.plain.update(filter(None, map(normalise, strings)))
        if _HAS_DIGIT.search(joined):
            self.forms.wholes.append(joined)

    def number(self, node: object) -> None:
        """A JSON number leaf: its exact spelling is a plain form, its absolute value an operand."""
        spelling = json_exact.number_spelling(node)
        if self.lookups:
            self.forms.plain.update(lookup_forms(spelling))
        if not _finite(node):
            return  # NaN and the infinities: a word (as spelled above), never a number or an operand
        magnitude = spelling.lstrip("-")
        self.forms.numbers.add(magnitude)
        if self.typed:
            self.forms.operands.add(magnitude)


def unescaped(text: str) -> str:
    r"""text with the escaped line breaks and tabs of JSON or a repr written into it (``\n``) as spaces: a
    tool that prints a document inside its text (MCP's ``TextContent(text='…')``) glues an escape's letter to
    the next token, so ``\nG101`` would be read as ``nG101``.

    >>> unescaped(r"train\nG101(x)\\tG103")
    'train G101(x) G103'
    """
    return _ESCAPED_BREAK.sub(" ", text) if "\\" in text else text


_ESCAPED_BREAK = re.compile(r"\\+[nrt]")


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
    return read_examined(examine_result(text, options, is_error, arguments, document), options)


@dataclass(slots=True)  # not frozen: made per token or result, and a frozen __init__ costs ~6x
class Examined:
    """A tool result parsed and judged failed or not (§5.4, §9.6), before any of it is read."""

    text: str
    document: object  # the parsed document, or _TEXT
    exact_json: bool  # the document is the text parsed as JSON, so its strings can be read off the text
    notes: json_exact.Notes | None  # of an exact JSON text: what its marks tell
    absence: dict | None = None  # the part of an absence that grounds
    failed: bool = False
    argument_forms: Forms | None = None  # what the call's arguments spell, when a failed lookup must drop it
    arguments: str | None = None  # of a failed result: the call's arguments, read when the result is (see above)
    # False: its numbers may not be as written yet (see json_exact.parse_unchecked; exact_document makes them so)
    exact: bool = True


class _Inexact(Exception):
    """A test met a float of a document whose numbers may not be as written (see exact_document)."""


def examine_result(
    text: str, options: ReadOptions, is_error: bool, arguments: str | None, document: object
) -> Examined:
    if isinstance(document, (dict, list)):
        examined = Examined(text, document, False, None)
    else:
        parsed, exact_json, notes, exact = _parse_with_origin(text, checked=options.straightforward)
        examined = Examined(text, parsed, exact_json, notes, exact=exact)
    try:
        _judge_failure(examined, options, is_error, arguments)
    except _Inexact:  # a test needs a number of it as written: most never do
        exact_document(examined)
        _judge_failure(examined, options, is_error, arguments)
    return examined


def _judge_failure(examined: Examined, options: ReadOptions, is_error: bool, arguments: str | None) -> None:
    """Whether a result failed (§5.4, §9.6), with the part of an absence that grounds and, when it failed,
    what its call's arguments spell. Raises _Inexact where a number not known exact would decide."""
    text, document, exact = examined.text, examined.document, examined.exact
    absence = None
    if document is _TEXT:
        failed = is_error or not text.strip() or _ERROR_WORD.match(text) is not None
    else:
        absence = _absence_view(document)
        if absence is not None and not exact:
            raise _Inexact  # the absence is read: its numbers must be as written
        failed = is_error or absence is not None or _reports_error(document, exact)
    argument_forms = None
    # A failed result's arguments are read with it (most are never read); one that surely says more than its
    # arguments did not fail, whatever they spell.
    if (arguments is not None and not failed and document is not _TEXT
            and (options.straightforward or not _says_more_than(document, arguments, exact))):
        if not exact:
            raise _Inexact  # every number of it is compared with the arguments
        argument_forms = read_arguments(arguments, options)
        failed = _says_nothing(document, argument_forms)
    examined.absence, examined.failed = absence, failed
    examined.argument_forms = argument_forms if failed else None
    examined.arguments = arguments if failed and argument_forms is None else None


def exact_document(examined: Examined) -> object:
    """A result's document with every number as written: parsed again exactly when the fast parser may have
    rounded one (json_exact.checked). Reading a result, or testing a number in it, asks this first."""
    if not examined.exact:
        examined.document = json_exact.checked(examined.text, examined.document)
        examined.exact = True
    return examined.document


def read_examined(examined: Examined, options: ReadOptions) -> Forms:
    forms = Forms()
    reader = _Reader(forms, options, typed=True)
    if examined.document is _TEXT:
        reader.text(examined.text)
    else:
        document = exact_document(examined) if examined.absence is None else examined.absence
        _walk(document, reader, totals=True)
    _drop_what_the_call_spelled(forms, examined, options)
    if options.straightforward:
        forms.resolve()
    return forms


def read_numbers(examined: Examined, options: ReadOptions) -> Forms:
    """The numbers of a result: of a JSON one its number leaves with its collections, its strings left
    unread (see read_string_numbers); of a text, the tokens that can be numbers only. Of one that failed,
    less what its call's arguments spell, as reading it whole leaves them.

    Their plain forms are left for reading the result whole: the index does that before answering any
    question about a form the result's search text holds.
    """
    forms = Forms()
    if examined.document is _TEXT:
        _Reader(forms, options, typed=True, lookups=False).text_numbers(examined.text)
    else:
        document = exact_document(examined) if examined.absence is None else examined.absence
        if type(document) in _CONTAINERS:
            forms.numbers = _magnitudes(_numbers_and_collections(document, forms))
            forms.operands = set(forms.numbers)
        else:  # a document that is one scalar
            _walk(document, _Reader(forms, options, typed=True, lookups=False), totals=True, strings_too=False)
    _drop_what_the_call_spelled(forms, examined, options)
    return forms


def read_string_numbers(examined: Examined, options: ReadOptions) -> Forms:
    """The numbers written inside the keys and strings of a JSON result: operands too (§9.18), read apart
    from read_numbers as a collection's total needs none of them. A text result's numbers are all
    read_numbers'.

    A JSON text without an escape spells its strings as they read, and outside them only literals, which
    read_numbers read: its tokens are read whole, in C, as no walk of the document could be.
    """
    forms = Forms()
    if examined.document is _TEXT:
        return forms
    document = exact_document(examined) if examined.absence is None else examined.absence
    if type(document) not in _CONTAINERS:
        return forms
    reader = _Reader(forms, options, typed=True, lookups=False)
    if examined.exact_json and examined.absence is None and "\\" not in examined.text:
        reader.text_numbers(examined.text)
    else:
        reader.text_numbers("\x00".join(_strings(document)))
    _drop_what_the_call_spelled(forms, examined, options)
    return forms


def _drop_what_the_call_spelled(forms: Forms, examined: Examined, options: ReadOptions) -> None:
    """A failed result lends nothing its call's arguments spell (§9.6); they are read when it is."""
    if examined.argument_forms is None and examined.arguments is not None:
        examined.argument_forms = read_arguments(examined.arguments, options)
    if examined.argument_forms is not None:
        forms.drop(examined.argument_forms)


def _numbers_and_collections(document: dict | list, forms: Forms) -> list:
    """The number leaves of a document, noting its collections (§9.7 totals) in the order _walk finds them,
    visiting only containers: the rows of a table (objects holding no container) are read through their
    collections, and a table is most of a result's numbers. A leaf may be listed twice."""
    leaves: list = []
    stack = [document]
    while stack:
        node = stack.pop()
        is_list = type(node) is list
        members = node if is_list else list(node.values())
        kinds = set(map(type, members))
        if kinds == _OBJECTS_ONLY:
            rows = _CONTAINERS.isdisjoint(map(type, chain.from_iterable(map(dict.values, members))))
            if not rows:
                stack.extend(members)  # each is visited, its own numbers with it
            if rows or len(members) >= 2:
                by_key = _numbers_by_key(members)
                if rows:
                    leaves.extend(chain.from_iterable(by_key.values()))
                if len(members) >= 2:  # as _member_totals notes them
                    forms.collections.extend((numbers, key) for key, numbers in by_key.items() if len(numbers) >= 2)
            continue
        if not kinds.isdisjoint(_CONTAINERS):
            stack.extend([child for child in members if type(child) is dict or type(child) is list])
        if kinds.isdisjoint(json_exact.NUMBER_TYPES):
            continue
        if json_exact.NUMBER_TYPES.issuperset(kinds):
            leaves.extend(members)
            if is_list and len(members) >= 2:
                forms.collections.append((members, None))  # an array of numbers
        else:
            leaves.extend([child for child in members if type(child) in json_exact.NUMBER_TYPES])
    return leaves


def _strings(document: dict | list) -> list[str]:
    """The keys and string leaves of a document holding a digit (only those can spell a number)."""
    found = []
    stack = [document]
    while stack:
        node = stack.pop()
        if type(node) is dict:
            found.extend(key for key in node if _HAS_DIGIT.search(key))
            stack.extend(child for child in node.values() if type(child) in _CONTAINERS or type(child) is str)
        elif type(node) is list:
            stack.extend(child for child in node if type(child) in _CONTAINERS or type(child) is str)
        elif _HAS_DIGIT.search(node):
            found.append(node)
    return found


def _numbers_by_key(members: list[dict]) -> dict[str, list]:
    """The number children of objects, by key, keys in order of first appearance."""
    by_key: dict[str, list] = {}
    numeric = json_exact.NUMBER_TYPES  # one look-up per child, not a call: a list of objects has many children
    for member in members:
        for key, child in member.items():
            if type(child) in numeric:
                by_key.setdefault(key, []).append(child)
    return by_key


def _magnitudes(leaves: list) -> set[str]:
    """The absolute values of number leaves as the index spells them (json_exact.number_spelling), in C for
    ints and floats written without an exponent: the repr of such a float is its spelling, but for a
    trailing ".0"."""
    if _INTS_AND_FLOATS.issuperset(map(type, leaves)):
        written = "\n".join(map(repr, leaves)) + "\n"
        if "e" not in written and "n" not in written:  # no exponent, inf or nan
            return set(written.replace(".0\n", "\n").replace("-", "").split())
    # NaN and the infinities (a JSON extension some producers write) are no operand: read as words elsewhere
    return {json_exact.number_spelling(leaf).lstrip("-") for leaf in leaves if _finite(leaf)}


def _finite(number: object) -> bool:
    return number.is_finite() if isinstance(number, Decimal) else not isinstance(number, float) or math.isfinite(number)


_INTS_AND_FLOATS = frozenset({int, float})


def seen_of(examined: Examined) -> verbatim.Seen:
    """A result as seen before reading it. A failed one says nothing verbatim, as its forms lose what the
    call's arguments spell; it keeps its search text, which still holds the key of every form it is read
    as (losing forms leaves the rest inside their tokens), so a question it cannot answer does not read it."""
    if examined.document is _TEXT:
        seen = verbatim.see_text(examined.text)
    elif examined.exact_json:
        seen = verbatim.see_json(examined.text, examined.notes)
    else:
        return verbatim.Seen()
    return verbatim.Seen(lowered=seen.lowered, notes=seen.notes) if examined.failed else seen


_TEXT = object()  # marks a result that is read as text, not as a JSON document


def _parse(text: str) -> object:
    """A tool result's document: JSON, JSON encoded twice, or a Python repr; else it is text."""
    return _parse_with_origin(text)[0]


def _parse_with_origin(text: str, checked: bool = True) -> tuple[object, bool, json_exact.Notes | None, bool]:
    """The document; whether it is text itself parsed as JSON (not encoded twice, not a Python repr); then
    the notes on its text; and whether its numbers are as written (without checked, a JSON text's may not
    be yet: see json_exact.parse_unchecked)."""
    stripped = text.lstrip()
    if stripped[:1] == '"':
        try:
            inner = json_exact.parse(text)
        except json_exact.NotJson:
            return _TEXT, False, None, True
        document = _parse(inner) if isinstance(inner, str) and json_exact.looks_like_json(inner) else _TEXT
        return document, False, None, True
    if not json_exact.looks_like_json(text):
        return _TEXT, False, None, True
    try:
        document, exact = (json_exact.parse(text), True) if checked else json_exact.parse_unchecked(text)
        return document, True, json_exact.Notes(text), exact
    except json_exact.NotJson:
        pass
    document = pyrepr.parse(text)
    return (_TEXT, False, None, True) if document is None else (document, False, None, True)


def _walk(document: object, reader: _Reader, *, totals: bool, strings_too: bool = True) -> None:
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
            if totals:
                _note_collection(values, False, reader.forms)
        elif kind is list:
            stack.extend(node)
            if totals:
                _note_collection(node, True, reader.forms)
        elif kind is str:
            strings.append(node)
        elif kind is json_exact.Constant:
            reader.forms.plain.add(str(node))
        elif node is True or node is False:
            if reader.options.keep_words:
                reader.forms.plain.add("true" if node else "false")
        elif node is not None:
            reader.number(node)
    if strings_too:
        reader.strings(strings)


def _note_collection(members: list, is_list: bool, forms: Forms) -> None:
    """A container's members, when they make a collection: an array of numbers, or objects sharing keys."""
    if len(members) < 2:
        return
    first = type(members[0])
    if first is dict:
        _member_totals(members, forms)
    elif is_list and first in json_exact.NUMBER_TYPES:
        _array_total(members, forms)


_OBJECTS_ONLY = frozenset({dict})
_CONTAINERS = frozenset({dict, list})


def _array_total(array: list, forms: Forms) -> None:
    if json_exact.NUMBER_TYPES.issuperset(map(type, array)):
        forms.collections.append((array, None))


def _member_totals(members: list, forms: Forms) -> None:
    if not _OBJECTS_ONLY.issuperset(map(type, members)):
        return
    for key, numbers in _numbers_by_key(members).items():
        if len(numbers) >= 2:
            forms.collections.append((numbers, key))  # spelled only if its total is asked for (grounding.core.evidence.totals)


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


def _reports_error(document: object, exact: bool = True) -> bool:
    """A JSON object whose top-level ``error``/``errors`` key holds something (§9.6)."""
    if not isinstance(document, dict):
        return False
    for key, value in document.items():
        if key.lower() in ("error", "errors"):
            if not exact and type(value) is float:
                raise _Inexact  # a literal too small for a float reads as 0.0
            if not _is_empty_value(value):
                return True
    return False


def _is_empty_value(value: object) -> bool:
    if value is None or value is False or value == "" or value == [] or value == {}:
        return True
    return json_exact.is_number(value) and value == 0


def _says_nothing(document: object, arguments: Forms) -> bool:
    """True when no scalar of the document says anything beyond the call's arguments (§9.6)."""
    spelled = set(arguments.every_form())
    for node in json_exact.leaves(document):
        if node is True:
            return False
        elif isinstance(node, str):
            value = normalise(node)
            if value and value not in spelled:
                return False
        elif json_exact.is_number(node) and node != 0:
            if json_exact.number_spelling(node) not in spelled:
                return False
    return True


def _says_more_than(document: object, arguments: str, exact: bool = True) -> bool:
    """True when a scalar of the document is surely not spelled by the call's arguments, seen without
    reading them: its key is not in their search text (see verbatim.search_text). Scalars a time of day
    or a prose date may spell are left to the full test; False says nothing.

    The top level is looked at first, in a plain loop (this runs once per result): a result says more than
    its call at one of its first scalars, and reaching a nested one first copies every container on the way.
    """
    if "\\" in arguments or verbatim.has_exponent(arguments):
        return False  # escaped strings, or numbers spelled with digits the text does not show
    searched = verbatim.search_text(arguments)
    kind = type(document)
    if kind is not dict and kind is not list:
        return _surely_unspelled(document, searched, exact)
    nested = []
    for node in document.values() if kind is dict else document:
        if type(node) in _CONTAINERS:
            nested.append(node)
        elif _surely_unspelled(node, searched, exact):
            return True
    return any(_surely_unspelled(node, searched, exact) for container in nested for node in json_exact.leaves(container))


def _surely_unspelled(node: object, searched: str, exact: bool = True) -> bool:
    """True when a scalar's key is not in the search text of a call's arguments (see _says_more_than)."""
    if node is True:
        return True
    if type(node) is float and not exact:
        raise _Inexact  # its spelling may not be the one written
    if type(node) is str:
        value = normalise_once(node)  # a leaf's value is mostly read nowhere else: normalise's memo would miss
        return bool(value) and ":" not in value and not is_iso_date(value) and verbatim.key(value) not in searched
    if json_exact.is_number(node) and node != 0:
        return verbatim.key(json_exact.number_spelling(node)) not in searched
    return False


def is_iso_date(value: str) -> bool:
    return len(value) == 10 and value[4] == "-" and value[7] == "-" and value[:4].isdigit()


def result_failed(text: str, *, is_error: bool = False, document: object = None) -> bool:
    """True when a tool result reports failure by itself: the transport's flag, an error key or word, an absence."""
    if is_error:
        return True
    if not isinstance(document, (dict, list)):
        document = _parse(text)
    if document is _TEXT:
        return not text.strip() or _ERROR_WORD.match(text) is not None
    return _absence_view(document) is not None or _reports_error(document)
