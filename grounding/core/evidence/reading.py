"""Reading evidence: every spelling a tool result or exempt text grounds (SPEC §5, §9).

A piece is read into ``Forms``; the ``EvidenceIndex`` of a conversation
(``grounding.core.evidence.index``) is the union of its pieces' forms, read when asked. A
form is held *plainly* or through a §9 reading (unit, date part, component,
prose date), so the verdict can say which route grounded a value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from itertools import chain
from operator import attrgetter
from typing import Any

from grounding import json_exact
from grounding.core.evidence import verbatim
from grounding.core.evidence.documents import CONTAINERS, TEXT, Inexact, parse, parse_with_origin
from grounding.core.evidence.failures import ERROR_WORD, absence_view, reports_error, says_more_than, says_nothing
from grounding.core.evidence.forms import Forms, ReadOptions
from grounding.core.evidence.leaves import (
    is_finite,
    magnitudes_of,
    numbers_and_collections,
    strings_of,
    walk,
)
from grounding.core.evidence.token_readings import TokenReader, TokenReading, either_half
from grounding.core.text.dates import twelve_hour_times
from grounding.core.text.month_dates import MONTH_SPELLINGS, prose_dates
from grounding.core.text.normalise import fold_digits, groups_thousands, lookup_forms, normalise, spell_number
from grounding.core.text.tokens import runs, unescaped
from grounding.core.text.units import (
    grouped_numbers,
    may_write_spaced,
    scaled_numbers,
    spaced_numbers,
    writes_scale,
)

_HAS_DIGIT = re.compile(r"\d")
_HAS_OWN_HALF = attrgetter("own_half")
# (as a run of the text is cut: with the point of an abbreviation or the punctuation after it, "8 March, 2025")
_MONTH_TOKENS = frozenset(spelled + mark for spelled in MONTH_SPELLINGS for mark in ("", ".", ",", ".,", ":", ";"))
_MERIDIEM_TOKENS = frozenset(  # as a run of the text is cut, with the punctuation after it ("8:00 AM, lunch")
    spelled + mark for word in ("am", "pm", "a.m", "p.m", "a.m.", "p.m.", "am.", "pm.", "noon", "midnight")
    for spelled in (word, word.upper(), word.capitalize()) for mark in ("", ",", ";", ":", ")", "!", "?", '"')
)
_READERS: dict[tuple[int, bool], TokenReader] = {}


def _token_reader(options: ReadOptions) -> TokenReader:
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
        distinct = runs(unescaped(text))
        readings = self.tokens.readings(distinct)
        forms = self.forms
        if readings:
            self._take(readings, operands)
        meridiem = not distinct.isdisjoint(_MERIDIEM_TOKENS) or any(r.meridiem for r in readings)
        if readings and any(map(_HAS_OWN_HALF, readings)):
            forms.date.update(either_half(unescaped(text), readings, meridiem))
        cjk_month = not text.isascii() and ("月" in text or "월" in text)  # a date as CJK write it: 2025年3月16日
        if meridiem or cjk_month or not distinct.isdisjoint(_MONTH_TOKENS):
            self.prose(text, meridiem)
        if writes_scale(distinct, text):
            self.scaled(text, operands)
        if groups_thousands(text) or may_write_spaced(text):
            self.grouped(text, operands)

    def _take(self, readings: list[TokenReading], operands: bool = True) -> None:
        """Index the forms of token readings."""
        forms = self.forms
        forms.plain.update(chain.from_iterable(r.plain for r in readings))
        forms.unit.update(chain.from_iterable(r.unit for r in readings))
        forms.date.update(chain.from_iterable(r.date for r in readings))
        forms.pending.update(chain.from_iterable(r.component for r in readings))
        numbers = set(chain.from_iterable(r.numbers for r in readings))
        forms.numbers |= numbers
        if self.typed and operands:
            forms.operands |= numbers

    def dated_runs(self, text: str, year: str) -> None:
        """Index only the token runs of text that write year, or its last two digits: every token reading
        that is a date of that year writes one of them (``2025-07-31t00:00:00z``, ``31.07.2025``,
        ``31/07/25``, ``2025-07-30/31``, ``reports/2025-07-31/x.png``). The readings of a whole text
        (prose dates, the halves of a day, grouped and scaled numbers) are left for reading it whole."""
        short = year[2:]
        distinct = runs(unescaped(text))
        dated = {run for run in distinct if short in (run if run.isascii() else fold_digits(run))}
        readings = self.tokens.readings(dated)
        if readings:
            self._take(readings)

    def grouped(self, text: str, operands: bool = True) -> None:
        """Numbers whose thousands a no-break space, a thin space or an apostrophe groups (``41 200``), or
        plain spaces where a currency or percent sign says it is one number (``41 900 €``): read whole,
        plainly, as an answer's are (its groups alone are too short to be values). (A number pointed before a
        decimal comma, ``1.234,56``, is one run: the token reader reads it whole.)"""
        plain = unescaped(text)
        written = (grouped_numbers(plain) if groups_thousands(plain) else []) + (
            spaced_numbers(plain) if may_write_spaced(plain) else [])
        numbers = {spell_number(number) for _, _, number in written}
        if not numbers:
            return
        self.forms.plain |= numbers
        self.forms.numbers |= numbers
        if self.typed and operands:
            self.forms.operands |= numbers

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
        distinct = runs(unescaped(text))
        numbers = self.tokens.numbers(distinct)  # (which tells the runs that cannot hold a number at once)
        if writes_scale(distinct, text):
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

    def number(self, node: int | float | Decimal) -> None:
        """A JSON number leaf: its exact spelling is a plain form, its absolute value an operand."""
        spelling = json_exact.number_spelling(node)
        if self.lookups:
            self.forms.plain.update(lookup_forms(spelling))
        if not is_finite(node):
            return  # NaN and the infinities: a word (as spelled above), never a number or an operand
        magnitude = spelling.lstrip("-")
        self.forms.numbers.add(magnitude)
        if self.typed:
            self.forms.operands.add(magnitude)


def read_exempt(text: str, options: ReadOptions, *, numbers_only: bool = False) -> Forms:
    """User text or a system prompt: grounds like a text result, but lends no operands (§5.2); with
    numbers_only, only the numbers it writes are read (all §9.23 asks of it)."""
    forms = Forms()
    reader = _Reader(forms, options, typed=False)
    if numbers_only:
        reader.text_numbers(text)
    else:
        reader.text(text)
    return forms


def read_dated_runs(source: Examined | str, year: str, options: ReadOptions) -> Forms | None:
    """What a text's token runs that may write a date of year are read as (_Reader.dated_runs): what a
    question about such a date in route 1 or 2 asks of it (§3.5, §9.1, §9.4), less than reading it whole.
    None for a piece not read so: a JSON result (its document is read, not its text) or a failed one
    (which loses what its call's arguments spell)."""
    if isinstance(source, str):
        text, typed = source, False
    elif source.document is TEXT and not source.failed:
        text, typed = source.text, True
    else:
        return None
    forms = Forms()
    _Reader(forms, options, typed).dated_runs(text, year)
    return forms


def read_arguments(arguments: str, options: ReadOptions) -> Forms:
    """Everything a tool call's arguments spell, read as if they were a tool result (§9.6)."""
    forms = Forms()
    document = parse(arguments)
    reader = _Reader(forms, ReadOptions(options.min_digits, True), typed=True,
                     whole_strings=True)
    if document is TEXT:
        reader.text(arguments)
    else:
        walk(document, reader, totals=False)
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
    document: Any  # the parsed document (any JSON value), or TEXT
    exact_json: bool  # the document is the text parsed as JSON, so its strings can be read off the text
    notes: json_exact.Notes | None  # of an exact JSON text: what its marks tell
    absence: dict | None = None  # the part of an absence that grounds
    failed: bool = False
    argument_forms: Forms | None = None  # what the call's arguments spell, when a failed lookup must drop it
    arguments: str | None = None  # of a failed result: the call's arguments, read when the result is (see above)
    # False: its numbers may not be as written yet (see json_exact.parse_unchecked; exact_document makes them so)
    exact: bool = True


def examine_result(
    text: str, options: ReadOptions, is_error: bool, arguments: str | None, document: object
) -> Examined:
    if isinstance(document, (dict, list)):
        examined = Examined(text, document, False, None)
    else:
        parsed, exact_json, notes, exact = parse_with_origin(text, checked=False)
        examined = Examined(text, parsed, exact_json, notes, exact=exact)
    try:
        _judge_failure(examined, options, is_error, arguments)
    except Inexact:  # a test needs a number of it as written: most never do
        exact_document(examined)
        _judge_failure(examined, options, is_error, arguments)
    return examined


def _judge_failure(examined: Examined, options: ReadOptions, is_error: bool, arguments: str | None) -> None:
    """Whether a result failed (§5.4, §9.6), with the part of an absence that grounds and, when it failed,
    what its call's arguments spell. Raises Inexact where a number not known exact would decide."""
    text, document, exact = examined.text, examined.document, examined.exact
    absence = None
    if document is TEXT:
        failed = is_error or not text.strip() or ERROR_WORD.match(text) is not None
    else:
        absence = absence_view(document)
        if absence is not None and not exact:
            raise Inexact  # the absence is read: its numbers must be as written
        failed = is_error or absence is not None or reports_error(document, exact)
    argument_forms = None
    # A failed result's arguments are read with it (most are never read); one that surely says more than its
    # arguments did not fail, whatever they spell.
    if (arguments is not None and not failed and document is not TEXT
            and not says_more_than(document, arguments, exact)):
        if not exact:
            raise Inexact  # every number of it is compared with the arguments
        argument_forms = read_arguments(arguments, options)
        failed = says_nothing(document, argument_forms)
    examined.absence, examined.failed = absence, failed
    examined.argument_forms = argument_forms if failed else None
    examined.arguments = arguments if failed and argument_forms is None else None


def exact_document(examined: Examined) -> Any:
    """A result's document with every number as written: parsed again exactly when the fast parser may have
    rounded one (json_exact.checked). Reading a result, or testing a number in it, asks this first."""
    if not examined.exact:
        examined.document = json_exact.checked(examined.text, examined.document)
        examined.exact = True
    return examined.document


def read_examined(examined: Examined, options: ReadOptions) -> Forms:
    forms = Forms()
    reader = _Reader(forms, options, typed=True)
    if examined.document is TEXT:
        reader.text(examined.text)
    else:
        document = exact_document(examined) if examined.absence is None else examined.absence
        walk(document, reader, totals=True)
    _drop_what_the_call_spelled(forms, examined, options)
    return forms


def read_numbers(examined: Examined, options: ReadOptions) -> Forms:
    """The numbers of a result: of a JSON one its number leaves with its collections, its strings left
    unread (see read_string_numbers); of a text, the tokens that can be numbers only. Of one that failed,
    less what its call's arguments spell, as reading it whole leaves them.

    Their plain forms are left for reading the result whole: the index does that before answering any
    question about a form the result's search text holds.
    """
    forms = Forms()
    if examined.document is TEXT:
        _Reader(forms, options, typed=True, lookups=False).text_numbers(examined.text)
    else:
        document = exact_document(examined) if examined.absence is None else examined.absence
        if type(document) in CONTAINERS:
            forms.numbers = magnitudes_of(numbers_and_collections(document, forms))
            forms.operands = set(forms.numbers)
        else:  # a document that is one scalar
            walk(document, _Reader(forms, options, typed=True, lookups=False), totals=True, strings_too=False)
    _drop_what_the_call_spelled(forms, examined, options)
    return forms


def read_string_numbers(examined: Examined, options: ReadOptions) -> Forms:
    """The numbers written inside the keys and strings of a JSON result: operands too (§9.18), read apart
    from read_numbers as a collection's total needs none of them. A text result's numbers are all
    read_numbers'.

    A JSON text without an escape spells its strings as they read, between its quotes, and outside them only
    literals, which read_numbers read: its strings are cut out of it whole, in C, as no walk of the document
    could (reading the literals again cost more than the strings: ``"limit":429`` is one run, ``:429``).
    """
    forms = Forms()
    if examined.document is TEXT:
        return forms
    document = exact_document(examined) if examined.absence is None else examined.absence
    if type(document) not in CONTAINERS:
        return forms
    reader = _Reader(forms, options, typed=True, lookups=False)
    if examined.exact_json and examined.absence is None and "\\" not in examined.text:
        reader.text_numbers("\x00".join(examined.text.split('"')[1::2]))
    else:
        reader.text_numbers("\x00".join(strings_of(document)))
    _drop_what_the_call_spelled(forms, examined, options)
    return forms


def _drop_what_the_call_spelled(forms: Forms, examined: Examined, options: ReadOptions) -> None:
    """A failed result lends nothing its call's arguments spell (§9.6); they are read when it is."""
    if examined.argument_forms is None and examined.arguments is not None:
        examined.argument_forms = read_arguments(examined.arguments, options)
    if examined.argument_forms is not None:
        forms.drop(examined.argument_forms)


def seen_of(examined: Examined) -> verbatim.Seen:
    """A result as seen before reading it. A failed one says nothing verbatim, as its forms lose what the
    call's arguments spell; it keeps its search text, which still holds the key of every form it is read
    as (losing forms leaves the rest inside their tokens), so a question it cannot answer does not read it."""
    if examined.document is TEXT:
        seen = verbatim.see_text(examined.text)
    elif examined.exact_json:
        seen = verbatim.see_json(examined.text, examined.notes)
    else:
        return verbatim.Seen()
    return verbatim.Seen(lowered=seen.lowered, notes=seen.notes) if examined.failed else seen
