"""The evidence index: every spelling the conversation read before an answer (SPEC §5, §9).

Tool results and exempt text are read once, as the conversation advances,
into ``Forms``; the ``EvidenceIndex`` of a conversation is their union. A
form is held *plainly* or through a §9 reading (unit, date part, component,
prose date), so the verdict can say which route grounded a value.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal

import regex

from grounding import jsontext
from grounding.dates import date_parts, is_date_or_time, prose_dates, twelve_hour_times
from grounding.normalise import canonical, is_number, lookup_forms, normalise, spell_number
from grounding.tokens import token_texts
from grounding.units import split_unit
from grounding.values import classify

_JOINER_RUN = regex.compile(r"[_\-./:#]+")
_HAS_DIGIT = regex.compile(r"\d")
_ERROR_WORD = regex.compile(r"\s*error\b", regex.IGNORECASE)


@dataclass(slots=True)
class Forms:
    """What one piece of read text grounds, by route."""

    plain: set[str] = field(default_factory=set)
    unit: set[str] = field(default_factory=set)
    date: set[str] = field(default_factory=set)
    component: set[str] = field(default_factory=set)
    numbers: set[Decimal] = field(default_factory=set)  # absolute values: sign, rounding (§9.3)
    operands: dict[str, Decimal] = field(default_factory=dict)  # typed numbers (§9.7), by spelling
    totals: dict[Decimal, str] = field(default_factory=dict)  # collection totals (§9.7) → formula
    prose_iso: set[str] = field(default_factory=set)  # prose dates with a year (§9.10)
    month_days: set[str] = field(default_factory=set)  # yearless prose dates (§9.10)

    def every_form(self) -> Iterator[str]:
        yield from self.plain
        yield from self.unit
        yield from self.date
        yield from self.component
        yield from self.prose_iso

    def drop(self, forms: Forms) -> None:
        """Remove everything forms spells (a failed lookup's argument forms, §9.6)."""
        spelled = set(forms.every_form())
        for routed in (self.plain, self.unit, self.date, self.component):
            routed -= spelled
        self.numbers = {n for n in self.numbers if n not in forms.numbers}
        self.operands = {k: v for k, v in self.operands.items() if k not in spelled and v not in forms.numbers}
        self.prose_iso -= spelled
        self.month_days -= forms.month_days | {iso[5:] for iso in spelled if _is_iso_date(iso)}


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """What the index must keep: the digit bar (components) and whether words matter (shapes)."""

    min_digits: int = 4
    keep_words: bool = False  # with no declared shape, a token without a digit can never match


class _Reader:
    """Reads text and JSON into one Forms."""

    def __init__(self, forms: Forms, options: ReadOptions, typed: bool) -> None:
        self.forms = forms
        self.options = options
        self.typed = typed  # numbers here are operands of §9.7 (tool results, not exempt text)

    def text(self, text: str, *, operands: bool = True) -> None:
        for token in token_texts(text):
            self.token(token, operands)
        self.prose(text)

    def prose(self, text: str) -> None:
        """Readings found in running text rather than in one token: 12-hour times, prose dates."""
        if not _HAS_DIGIT.search(text):
            return
        for form in twelve_hour_times(text):
            self.forms.date.add(form)
        for date in prose_dates(text):
            if date.iso is None:
                self.forms.month_days.add(date.month_day)
            else:
                self.forms.prose_iso.add(date.iso)

    def token(self, raw: str, operands: bool = True) -> None:
        value = normalise(raw)
        if not value:
            return
        if not self.options.keep_words and not _HAS_DIGIT.search(value):
            return
        forms = self.forms
        forms.plain.update(lookup_forms(value))
        if is_number(value):
            self._number(canonical(value), operands)
            return
        number = split_unit(value)
        if number is not None:
            spelled = spell_number(number)
            forms.unit.update(lookup_forms(spelled))
            self._number(canonical(spelled), operands)
            return
        parts = list(date_parts(value))
        if parts:
            forms.date.update(parts)
            return
        self._components(value)

    def whole(self, raw: str) -> None:
        """A string leaf or key: indexed whole and as its tokens (§5.1)."""
        value = normalise(raw)
        if value and (self.options.keep_words or _HAS_DIGIT.search(value)):
            self.forms.plain.update(lookup_forms(value))
        self.text(raw, operands=False)  # digits inside a JSON string were not typed as numbers

    def leaf_number(self, spelling: str, typed: bool) -> None:
        self.forms.plain.update(lookup_forms(spelling))
        magnitude = Decimal(spelling.lstrip("-"))
        self.forms.numbers.add(magnitude)
        if typed:
            self.forms.operands[spelling.lstrip("-")] = magnitude

    def _number(self, spelled: str, operands: bool) -> None:
        magnitude = Decimal(spelled.lstrip("-"))
        self.forms.numbers.add(magnitude)
        if self.typed and operands:
            self.forms.operands[spelled.lstrip("-")] = magnitude

    def _components(self, value: str) -> None:
        joiners = list(_JOINER_RUN.finditer(value))
        if not joiners:
            return
        parts = set(piece for piece in _JOINER_RUN.split(value) if piece)
        parts.update(value[joiner.end() :] for joiner in joiners if joiner.end() < len(value))
        for part in parts:
            spelled = normalise(part)
            found = classify(spelled, self.options.min_digits)
            if found is not None:
                self.forms.component.update(lookup_forms(spelled))
                self.forms.component.update(lookup_forms(found.value))


def read_exempt(text: str, options: ReadOptions) -> Forms:
    """User text or a system prompt: grounds like a text result, but lends no operands (§5.2)."""
    forms = Forms()
    _Reader(forms, options, typed=False).text(text)
    return forms


def read_arguments(arguments: str, options: ReadOptions) -> Forms:
    """Everything a tool call's arguments spell, read as if they were a tool result (§9.6)."""
    forms = Forms()
    document = _parse(arguments)
    reader = _Reader(forms, ReadOptions(options.min_digits, keep_words=True), typed=True)
    if document is _TEXT:
        reader.text(arguments)
    else:
        _walk(document, reader, totals=False)
    return forms


def read_tool_result(text: str, options: ReadOptions, *, is_error: bool = False, arguments: str | None = None) -> Forms:
    """One tool result (one block of one), with absences and failed lookups applied."""
    forms = Forms()
    reader = _Reader(forms, options, typed=True)
    document = _parse(text)
    if document is _TEXT:
        reader.text(text)
        failed = is_error or not text.strip() or _ERROR_WORD.match(text) is not None
    else:
        absence = _absence_view(document)
        _walk(document if absence is None else absence, reader, totals=True)
        failed = is_error or absence is not None or _reports_error(document)
    if arguments is None:
        return forms
    argument_forms = read_arguments(arguments, options)
    if not failed and document is not _TEXT:
        failed = _says_nothing(document, argument_forms)
    if failed:
        forms.drop(argument_forms)
    return forms


_TEXT = object()  # marks a result that is read as text, not as a JSON document


def _parse(text: str) -> object:
    if not jsontext.looks_like_json(text):
        return _TEXT
    try:
        return jsontext.parse(text)
    except jsontext.NotJson:
        return _TEXT


def _walk(document: object, reader: _Reader, *, totals: bool) -> None:
    """Index every key and leaf of a JSON document (explicit stack: documents can be deep)."""
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, child in node.items():
                reader.whole(key)
                stack.append(child)
            if totals:
                _member_totals(node.values(), reader.forms)
        elif isinstance(node, list):
            stack.extend(node)
            if totals:
                _array_total(node, reader.forms)
                _member_totals(node, reader.forms)
        elif isinstance(node, str):
            if isinstance(node, jsontext.Constant):
                reader.forms.plain.add(str(node))
            else:
                reader.whole(node)
        elif node is True or node is False:
            if reader.options.keep_words:
                reader.forms.plain.add("true" if node else "false")
        elif jsontext.is_number(node):
            reader.leaf_number(jsontext.number_spelling(node), reader.typed)


def _array_total(array: list, forms: Forms) -> None:
    numbers = [node for node in array if jsontext.is_number(node)]
    if len(numbers) >= 2 and len(numbers) == len(array):
        values = [abs(Decimal(jsontext.number_spelling(n))) for n in numbers]
        _add_total(forms, values, f"total of {len(values)} numbers")


def _member_totals(members: Iterable[object], forms: Forms) -> None:
    members = list(members)
    if len(members) < 2 or not all(isinstance(member, dict) for member in members):
        return
    by_key: dict[str, list[Decimal]] = {}
    for member in members:
        for key, child in member.items():
            if jsontext.is_number(child):
                by_key.setdefault(key, []).append(abs(Decimal(jsontext.number_spelling(child))))
    for key, values in by_key.items():
        if len(values) >= 2:
            _add_total(forms, values, f"total of {key!r} over {len(values)} items")


def _add_total(forms: Forms, values: list[Decimal], description: str) -> None:
    total = sum(values, Decimal(0))
    if total not in forms.totals:
        addends = " + ".join(spell(v) for v in values[:6]) + (" + …" if len(values) > 6 else "")
        forms.totals[total] = f"{spell(total)} = {addends} ({description})"


def spell(number: Decimal) -> str:
    """Spell a Decimal the way the report shows numbers."""
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
    """Everything read before an answer, grown as the conversation advances."""

    def __init__(self) -> None:
        self.forms = Forms()
        self._sorted_numbers: list[Decimal] = []
        self._numbers_dirty = False

    def add(self, forms: Forms) -> None:
        mine = self.forms
        mine.plain |= forms.plain
        mine.unit |= forms.unit
        mine.date |= forms.date
        mine.component |= forms.component
        if forms.numbers - mine.numbers:
            mine.numbers |= forms.numbers
            self._numbers_dirty = True
        mine.operands.update(forms.operands)
        for total, formula in forms.totals.items():
            mine.totals.setdefault(total, formula)
        mine.prose_iso |= forms.prose_iso
        mine.month_days |= forms.month_days

    def has_number_near(self, low: Decimal, high: Decimal) -> bool:
        """True when an indexed number lies in [low, high] (rounding, §9.3)."""
        if self._numbers_dirty:
            self._sorted_numbers = sorted(self.forms.numbers)
            self._numbers_dirty = False
        at = bisect.bisect_left(self._sorted_numbers, low)
        return at < len(self._sorted_numbers) and self._sorted_numbers[at] <= high

    def is_any_form(self, value: str) -> bool:
        """True when value is indexed by any route (plainly or by a §9 reading)."""
        forms = self.forms
        return (
            value in forms.plain
            or value in forms.unit
            or value in forms.date
            or value in forms.component
            or value in forms.prose_iso
        )
