"""The values an answer states: its candidates, in order of first appearance (SPEC §4, §9.5, §9.10)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from grounding.core.answer.code_notation import cite
from grounding.core.settings import Pattern, Settings
from grounding.core.text.dates import answer_clock, duration_as_clock
from grounding.core.text.figures import currency_scaled, measure_after
from grounding.core.text.month_dates import prose_dates
from grounding.core.text.normalise import digit_count, groups_thousands, is_number, normalise, normalise_once
from grounding.core.text.tokens import tokens, tokens_with_digits, unescaped
from grounding.core.text.units import (
    counted_after,
    grouped_numbers,
    may_group_with_spaces,
    may_write_scale_word,
    pointed_numbers,
    scale_word_after,
    scaled,
    space_grouped_numbers,
    writes_pointed,
)
from grounding.core.text.values import LONGEST_NUMBER, Kind, Value, classify_once


@dataclass(slots=True)  # not frozen: made per token or result, and a frozen __init__ costs ~6x
class Occurrence:
    """Where a candidate is written: which text of the answer, and the span within it."""

    segment: int
    start: int
    end: int


@dataclass(slots=True)
class Candidate:
    """A value in an answer that some tool result should have carried."""

    value: str  # normalised: "41200"
    shape: str  # "number", "identifier", or a declared shape's name
    kind: Kind
    text: str  # as written at its first appearance, less sentence punctuation after it: "41,200"
    occurrences: list[Occurrence] = field(default_factory=list)
    at: int = -1  # where text starts in the answer (-1 in a JSON answer, whose values are in its leaves)


@dataclass(slots=True)  # not frozen: one per answer, and a frozen __init__ costs ~6x (a setattr per field)
class Answer:
    """An answer's texts (one, or a JSON answer's leaves) and its candidates."""

    segments: tuple[str, ...]
    candidates: tuple[Candidate, ...]
    is_json: bool
    keys: tuple[str, ...] = ()  # of a JSON answer: the key each leaf is written under ("" for none)


def read_answer(text: str, settings: Settings) -> Answer:
    """Find the candidates of one final answer."""
    keyed = keyed_leaves(text)
    leaves = [leaf for _, leaf in keyed] if keyed is not None else None
    # (an answer that embeds JSON writes its line breaks as \n: read as spaces, one character for one)
    segments = tuple(leaves) if leaves is not None else (unescaped(text),)
    found: dict[str, Candidate] = {}
    words_matter = bool(settings.shapes)  # else a token without a digit is never a value (§4.1)
    min_digits = settings.min_digits
    # with no exemption and no shape, §4.1's memoised tests alone decide (classify asks them last)
    plain = not (settings.exempt or settings.exempt_patterns or settings.shapes or settings.figures)
    phrases = settings.phrase_shapes
    counts_below = settings.counts_examined_below
    for index, segment in enumerate(segments):
        exempt = settings.is_exempt if settings.exempt else None  # (an exempt literal is kept as written)
        for written, value, start, end in cite(_values_written(segment, words_matter, min_digits, phrases,
                                                               settings.figures),
                                               segment, settings.standard_names, exempt, words_matter):
            known = found.get(value)
            if known is None:
                # (with no shape declared every token holds a digit: see _values_written)
                classified = classify_once(value, min_digits) if plain else settings.classify(value, written)
                if classified is None and counts_below is not None:
                    classified = _count(value, written, segment, end, counts_below, settings)
                if classified is None:
                    continue
                known = found.get(classified.value)
                if known is None:  # its first occurrence
                    shown = as_shown(written)
                    found[classified.value] = Candidate(classified.value, classified.shape, classified.kind,
                                                        shown, [Occurrence(index, start, end)],
                                                        -1 if leaves is not None else start + written.find(shown))
                    continue
            known.occurrences.append(Occurrence(index, start, end))
    keys = tuple(key for key, _ in keyed) if keyed is not None else ()
    return Answer(segments, tuple(found.values()), leaves is not None, keys)


def _count(value: str, written: str, segment: str, end: int, digits: int, settings: Settings) -> Value | None:
    """A whole number under the digit bar written as digits alone before a noun it counts (``182 visits``; not
    ``5% moves``, ``1.4 x2``): examined at count_min_digits digits, unless exempt."""
    if (not value.isdigit() or not as_shown(written).isdigit() or not counted_after(segment, end)
            or settings.is_exempt(value)):
        return None
    return classify_once(value, digits)


_SENTENCE_PUNCTUATION = ".,;:!?…"


def as_shown(written: str) -> str:
    """A value as the answer wrote it, without the punctuation of the sentence it ends, nor a colon before a
    number or a hyphen after one that the value leaves out (``at :1712000000``, ``from 2026- on``).

    >>> [as_shown(t) for t in ["1Z999AA10123456785.", "$1,207.50.", "spotter-gqc.1:", "v9.35.0", "..."]]
    ['1Z999AA10123456785', '$1,207.50', 'spotter-gqc.1', 'v9.35.0', '...']
    >>> [as_shown(t) for t in [":1712000000", "2026-", "2025-03-", "ORD-4471-", ":8080:"]]
    ['1712000000', '2026', '2025-03', 'ORD-4471', '8080']
    """
    shown = written.rstrip(_SENTENCE_PUNCTUATION)
    if shown[:1] == ":" and shown[1:2].isdigit():
        shown = shown[1:]
    if shown[-1:] == "-" and shown[-2:-1].isdigit():
        shown = shown[:-1]
    return shown or written


def _values_written(segment: str, words_matter: bool = True, min_digits: int = 4,
                    phrases: tuple[Pattern, ...] = (), figures: bool = False) -> list[tuple[str, str, int, int]]:
    """(as written, normalised, start, end) for each token, prose dates read whole (§9.10), and so the phrases
    a declared shape matches across words (a name).

    Without words_matter, tokens without a digit are left out; a prose date is still found, as its day is a
    token with digits.
    """
    spans = [(d.start, d.end, d.iso) for d in prose_dates(segment) if d.iso is not None]
    if phrases:
        spans = _phrase_spans(segment, phrases, spans)
    found = [(t.text, t.start, t.end) for t in tokens(segment)] if words_matter else tokens_with_digits(segment)
    if not spans:  # most answers write no prose date
        written = [(text, value, start, end) for text, start, end in found if (value := normalise_once(text))]
        return _read_across_tokens(segment, written, min_digits, figures)
    written = []
    at, emitted = 0, -1
    for text, start, end in found:
        while at < len(spans) and spans[at][1] <= start:
            at += 1
        if at < len(spans) and spans[at][0] <= start:
            if emitted != at:
                emitted = at
                span_start, span_end, value = spans[at]
                written.append((segment[span_start:span_end], value, span_start, span_end))
            continue
        value = normalise_once(text)
        if value:
            written.append((text, value, start, end))
    return _read_across_tokens(segment, written, min_digits, figures)


def _phrase_spans(segment: str, phrases: tuple[Pattern, ...],
                  dates: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The prose dates' spans and each phrase a shape matches, in order, none overlapping (the first found
    stands): (start, end, the phrase's words lowered, one space between)."""
    spans = list(dates)
    for pattern in phrases:
        for start, end in pattern.phrases_in(segment):
            if all(end <= taken[0] or start >= taken[1] for taken in spans):
                spans.append((start, end, " ".join(segment[start:end].split()).lower()))
    return sorted(spans)


def _read_across_tokens(segment: str, written: list[tuple[str, str, int, int]],
                        min_digits: int, figures: bool = False) -> list[tuple[str, str, int, int]]:
    """The values a token's next words change: a scale word (``$148.51 billion``), a meridiem (``8:00 PM``),
    and with figures on a unit of measure (``6.3 TB``). Each is told by a character test first: most answers
    write neither."""
    if groups_thousands(segment):
        written = _grouped(segment, written, grouped_numbers(segment))
    if writes_pointed(segment):
        written = _grouped(segment, written, pointed_numbers(segment))
    if may_group_with_spaces(segment):  # (anywhere, a sign beside it or not: the judge reads it either way)
        written = _grouped(segment, written, space_grouped_numbers(segment))
    if "." in segment and _POINT_THEN_GROUP.search(segment) is not None:
        written = _point_grouped(written, min_digits)
    if may_write_scale_word(segment):
        written = _scaled_by_words(segment, written, min_digits, figures)
    if figures:
        written = _figures(segment, written)
    return _clock_times(segment, written) if ":" in segment or "h" in segment else written


def _grouped(segment: str, written: list[tuple[str, str, int, int]],
             numbers: list[tuple[int, int, str]]) -> list[tuple[str, str, int, int]]:
    """A number whose thousands a no-break space, a thin space or an apostrophe groups is one value, as
    ``41,200`` is: ``41 200`` (U+202F) is 41200, ``1'250'000`` 1250000, ``41 200,50 €`` 41200.5, where its
    groups alone were pieces too short to be values; so is one whose points group them before a decimal
    comma (``1.234,56`` is 1234.56, where the comma cut it in two), and one whose plain spaces may group them
    (``41 900 €``, ``41 900 clients``: units.space_grouped_numbers). The text it reports is the number as
    written. numbers: (start, end, number) of each (units.grouped_numbers, pointed_numbers, space_grouped_numbers)."""
    for first_at, last_at, number in reversed(numbers):
        inside = [at for at, (_, _, start, end) in enumerate(written) if start < last_at and end > first_at]
        if not inside:
            continue
        first, last = inside[0], inside[-1]
        start, end = written[first][2], max(written[last][3], last_at)
        value = normalise(segment[start:first_at] + number + segment[last_at:end])
        if value and is_number(value):
            written[first : last + 1] = [(segment[start:end], value, start, end)]
    return written


def _point_grouped(written: list[tuple[str, str, int, int]], min_digits: int) -> list[tuple[str, str, int, int]]:
    """``41.200``: a point that may group the thousands (German, Spanish) or mark decimals (English). Where
    the decimal reading is too short to be a value (41.2) and the grouped one is not (41200), it is a value
    as grouped, so an invented ``41.900`` is examined; either reading grounds it (41200 plainly, 41.2 by the
    verbatim route: the token as written)."""
    for at, (text, value, start, end) in enumerate(written):
        if len(text) > 9 or "." not in text:
            continue  # (most tokens: told by two tests)
        shown = as_shown(text)
        if (len(shown) in (5, 6, 7) and _ONE_POINT_GROUP.fullmatch(shown) is not None
                and digit_count(value) < min_digits <= len(shown) - 1):
            written[at] = (text, normalise(shown.replace(".", "")), start, end)
    return written


_ONE_POINT_GROUP = re.compile(r"[1-9]\d{0,2}\.\d{3}")  # (0.500 groups nothing)


def _scaled_by_words(segment: str, written: list[tuple[str, str, int, int]],
                     min_digits: int, figures: bool = False) -> list[tuple[str, str, int, int]]:
    """A number followed by a scale word is the number it scales to, as ``$148.51B`` is: ``$148.51 billion``
    is 148510000000, written to the ten million (its report's text keeps the word). Only a number that is a
    value as written (min_digits): "1.5 million years" stays prose, as "1.5" is, unless figures are examined:
    then any number, and one a decimal comma cut is read whole ("1,5 Millionen" is 1.5 million)."""
    merged: list[tuple[str, str, int, int]] = []
    covered = -1
    for text, value, start, end in written:
        if start < covered:
            continue  # the scale word itself (a token only where words matter)
        piece = start >= 2 and segment[start - 1] in ".," and segment[start - 2].isdigit()  # the 5 of 1,5
        whole = _decimal_comma(segment, merged, start, value) if piece and figures else None
        if whole is not None and (word := scale_word_after(segment, end)) is not None:
            exponent, covered = word  # one number: 1,5 Millionen
            merged[-1] = (segment[whole[0]:covered], scaled(whole[1], exponent), whole[0], covered)
            continue
        long_enough = digit_count(value) >= min_digits or (figures and not piece)
        word = scale_word_after(segment, end) if is_number(value) and long_enough else None
        if word is None:
            merged.append((text, value, start, end))
            continue
        exponent, covered = word
        merged.append((segment[start:covered], scaled(value, exponent), start, covered))
    return merged


_POINT_THEN_GROUP = re.compile(r"\.\d\d\d(?!\d)")  # what a point grouping thousands writes (by its literal)


def _figures(segment: str, written: list[tuple[str, str, int, int]]) -> list[tuple[str, str, int, int]]:
    """With figures on, a number and the unit of measure or percent sign written after it are one value
    whatever its length: the unit joins the value it classifies by (``6.3 TB`` is 6.3tb, ``53.2%`` 53.2pct:
    a number glued to a unit of measure is a figure, classify_plainly); a currency amount glued to a scale
    letter is the amount it scales to (``$55M``). Its text is as written, unit and all."""
    merged: list[tuple[str, str, int, int]] = []
    covered = -1
    for text, value, start, end in written:
        if start < covered:
            continue  # the unit itself (a token where words matter)
        whole = _decimal_comma(segment, merged, start, value)
        if whole is not None:  # 1,57 %: the number before the comma and this piece are one
            merged.pop()
            start, value = whole
            text = segment[start:end]
        shown = as_shown(text)
        if not value[:1].isdigit() and not (value[:1] == "-" and value[1:2].isdigit()):
            merged.append((text, value, start, end))
        elif (letter := currency_scaled(shown, value)) is not None:
            merged.append((text, scaled(*letter), start, end))
        elif not is_number(value):
            merged.append((text, value, start, end))  # (a number glued to its unit classifies so already)
        elif shown.endswith("%"):
            merged.append((text, value + "pct", start, end))
        elif (unit_end := measure_after(segment, start + len(shown))) is not None:
            unit = segment[start + len(shown) : unit_end].strip().lower()
            merged.append((segment[start:unit_end], value + ("pct" if unit in ("%", "percent") else unit),
                           start, unit_end))
            covered = unit_end
        else:
            merged.append((text, value, start, end))
    return merged


def _decimal_comma(segment: str, merged: list[tuple[str, str, int, int]], start: int,
                   value: str) -> tuple[int, str] | None:
    """(where it begins, its value) of the number a decimal comma cut, when value is the piece after the
    comma and the number before it was the last merged (``1,57 %`` is 1.57, ``1,5 Millionen`` 1.5 million);
    None for anything else (two digits at most after it: ``1,500`` is one token, English's grouping)."""
    if not (start >= 2 and segment[start - 1] == "," and merged and merged[-1][3] == start - 1):
        return None
    before = merged[-1][1]
    if value.isdigit() and len(value) <= 2 and before.lstrip("-").isdigit():
        return merged[-1][2], f"{before}.{value}"
    return None


def _clock_times(segment: str, written: list[tuple[str, str, int, int]]) -> list[tuple[str, str, int, int]]:
    """A time is read with its meridiem, which becomes part of what it writes (§9.14): ``8:00 PM`` is the
    value ``8:00pm``, grounded by ``20:00`` and by no spelling of eight in the morning."""
    for at, (text, value, start, end) in enumerate(written):
        if ":" in value and value[:1].isdigit():
            clock = answer_clock(value, segment[end : end + 6])
            if clock is not None:
                value, taken = clock
                written[at] = (segment[start : end + taken], value, start, end + taken)
        elif value[-1:] == "m" and value[:1].isdigit() and "h" in value:
            spelled = duration_as_clock(value)  # 5h59m, as a timetable writes it: 05:59
            if spelled is not None:
                written[at] = (text, spelled, start, end)
    return written


def json_leaves(text: str) -> list[str] | None:
    """The string leaves and number literals of a JSON answer, in document order (§9.5), or None."""
    keyed = keyed_leaves(text)
    return [leaf for _, leaf in keyed] if keyed is not None else None


def keyed_leaves(text: str) -> list[tuple[str, str]] | None:
    """(key, leaf) for each string leaf and number literal of a JSON answer, in document order, or None: the
    key is the nearest one the leaf is written under (an item of a list, its list's), "" at the top.

    >>> keyed_leaves('{"total_after_discount": 1813, "steps": ["a", {"n": "b"}]}')
    [('total_after_discount', '1813'), ('steps', 'a'), ('n', 'b')]
    """
    body = _unfenced(text.strip())
    if body is None or body[:1] not in ("{", "["):
        return None
    try:
        document = json.loads(body, parse_int=_Literal, parse_float=_Literal, parse_constant=_Literal)
    except (ValueError, RecursionError):
        return None
    leaves: list[tuple[str, str]] = []
    stack: list[tuple[str, object]] = [("", document)]
    while stack:
        key, node = stack.pop()
        if isinstance(node, dict):
            stack.extend(reversed([(str(name), value) for name, value in node.items()]))
        elif isinstance(node, list):
            stack.extend(reversed([(key, item) for item in node]))
        elif isinstance(node, str):
            leaves.append((key, str(node)))
    return leaves


class _Literal(str):
    """A number literal of a JSON answer, kept as written (``48.250`` keeps its decimals)."""


def _unfenced(text: str) -> str | None:
    if not text.startswith("```"):
        return text
    if text.count("```") != 2 or not text.endswith("```"):
        return None
    first_line_end = text.find("\n")
    if first_line_end < 0:
        return None
    return text[first_line_end + 1 : -3].strip()


def numbers_written(answer: Answer) -> frozenset[Decimal]:
    """The magnitude of every number the answer writes, however short (a formula's operands, §9.20).

    >>> sorted(numbers_written(read_answer("Paid $2,787; the new fare is $243, so $2,544 back.", Settings())))
    [Decimal('243'), Decimal('2544'), Decimal('2787')]
    """
    return numbers_in(answer.segments)


def numbers_in(texts: Iterable[str]) -> frozenset[Decimal]:
    """The magnitude of every number the texts write (numbers_written, of any part of an answer)."""
    found = set()
    for segment in texts:
        for text, _, _ in tokens_with_digits(segment):
            value = normalise_once(text)
            if value and len(value) <= LONGEST_NUMBER and is_number(value):
                found.add(abs(Decimal(value)))
    return frozenset(found)
