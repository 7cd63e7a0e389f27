"""Examples are not claims: ``e.g. #R0000000``, ``for example “CASE-40017”`` (SPEC §9.12).

An example is listed in the report but never fails its answer, unless it is
one character away from a value that was read: then it looks like a typo of
a real value, and stays unsupported.
"""

from __future__ import annotations

import regex

from grounding.core.answer.candidates import Answer, Candidate
from grounding.core.answer.code_blocks import Quoted, authored_spans, fenced_blocks
from grounding.core.text.patterns import LazyPattern
from grounding.core.text.values import COMPOSITE_JOINER

_BETWEEN = r"[\s,:(#\"'“”‘’«»`]*"
_TRIGGER = LazyPattern(
    regex.compile, rf"(?:\be\.\s?g\.|\beg\.|\bfor\s+example|\bfor\s+instance|\bshould\s+look\s+like){_BETWEEN}$",
    regex.IGNORECASE,
)
_SUCH_AS = LazyPattern(regex.compile, rf"\bsuch\s+as{_BETWEEN}$", regex.IGNORECASE)
# A fenced code block the answer presents as a sketch (§9.26): its values are examples
_SKETCH_BEFORE = LazyPattern(
    regex.compile,
    r"(?:\bsomething\s+like|\be\.\s?g\.|\bfor\s+example|\bfor\s+instance|\blike\s+this|\blooks?\s+like|"
    r"\ban?\s+example|\bsketch|\bschema|\bshape|\bplaceholder|\broughly|\balong\s+these\s+lines)\b[^`]{0,60}$",
    regex.IGNORECASE,
)
_SKETCH_LOOKBACK = 160
_QUOTES = "\"'“”‘’«»`"
_LIST_GAP = LazyPattern(
    regex.compile, r"[\s,/\"'“”‘’«»`()#]*(?:\b(?:or|and)\b[\s,/\"'“”‘’«»`()#]*)?", regex.IGNORECASE
)
_PLACEHOLDER = LazyPattern(regex.compile, r"#?[A-Za-z]{0,4}[-_]?(\d{7,})")
_PLACEHOLDER_WORD = LazyPattern(regex.compile, r"(?:abc|xyz|xxx|aaa|foo|bar|baz)[-_]?(\d{3,})", regex.IGNORECASE)
# a template's name of a kind of value: a length and a kind (40hex, 8chars), or a kind and its size (sha256)
_TEMPLATE = LazyPattern(regex.compile, r"\d+-?(?:hex|chars?|characters?|digits?|bytes?|bits?|letters?)"
                                       r"|(?:sha|md|uuid|base|int|uint|u|i|f|float)\d+", regex.IGNORECASE)
# the UUIDs specifications and documentation give as examples: nil, max, RFC 4122's, the usual doc ones
_EXAMPLE_UUIDS = frozenset({"00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
                            "f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "123e4567-e89b-12d3-a456-426614174000",
                            "550e8400-e29b-41d4-a716-446655440000"})
_STRIP = "\"'“”‘’«»`.,;:!?()[]"
_LOOKBACK = 40
_NEIGHBOUR_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"
# An example longer than this is no example: its typo test tries 36 variants a character, each a question
LONGEST_EXAMPLE = 64


class Examples:
    """The example occurrences of one answer, worked out once, the first time a value needs them. quoted tells
    whether lines of code occur in what the session read (code_blocks: output quoted, not code authored);
    None judges every block but those presented as sketches (``code-blocks = "judge"``)."""

    def __init__(self, answer: Answer, quoted: Quoted | None = None, *, authored_code: bool = True) -> None:
        self.answer = answer
        self._quoted, self._authored_code = quoted, authored_code
        self._flags: dict[tuple[int, int], bool] | None = None

    def written_as_example(self, candidate: Candidate) -> bool:
        if self._flags is None:
            self._flags = _example_occurrences(self.answer, self._quoted, self._authored_code)
        return written_as_example(candidate, self.answer, self._flags)


def written_as_example(
    candidate: Candidate, answer: Answer, flags: dict[tuple[int, int], bool] | None = None
) -> bool:
    """Route 11's claim: every occurrence is an example, or every one is a placeholder (the judge then asks
    that none of its neighbours was read)."""
    occurrences = candidate.occurrences
    if not occurrences or len(candidate.value) > LONGEST_EXAMPLE:
        return False  # (a longer one has too many neighbours to try: it stays unsupported)
    flags = _example_occurrences(answer) if flags is None else flags
    every_example = all(flags.get((o.segment, o.start), False) for o in occurrences)
    every_placeholder = all(is_placeholder(answer.segments[o.segment][o.start : o.end])
                            or _template(answer.segments[o.segment], o.start, o.end) for o in occurrences)
    return every_example or every_placeholder


def is_placeholder(written: str) -> bool:
    """A value written as a placeholder: a run of one repeated digit or an ascending run, seven digits or more
    (``#A0000000``); a placeholder word with such a run of three or more (``xyz789``, ``abc-123``); groups
    of such runs (``0000-1111``, ``1234-5678``); an example UUID of the RFCs and the docs (the nil UUID,
    ``123e4567-e89b-12d3-a456-426614174000``).

    >>> is_placeholder("#K0000000"), is_placeholder("Q1234567"), is_placeholder("ORD-77777"), is_placeholder("W6402718")
    (True, True, False, False)
    >>> [is_placeholder(v) for v in ("xyz789", "abc-123", "0000-1111", "1234-5678", "xyz788", "4471-2290")]
    [True, True, True, True, False, False]
    """
    bare = written.strip(_STRIP)
    if bare.lower() in _EXAMPLE_UUIDS:
        return True
    match = _PLACEHOLDER.fullmatch(bare) or _PLACEHOLDER_WORD.fullmatch(bare)
    if match is not None:
        return _run(match.group(1))
    groups = bare.split("-")
    return len(groups) > 1 and all(len(group) >= 3 and group.isdigit() and _run(group) for group in groups)


def _run(digits: str) -> bool:
    """One digit repeated, or digits that each add one (``0000``, ``789``, ``1234``)."""
    return len(set(digits)) == 1 or all(int(b) - int(a) == 1 for a, b in zip(digits, digits[1:]))


def _template(segment: str, start: int, end: int) -> bool:
    """A value inside a template's angle brackets that names a kind of value (``<40hex>``, ``<sha256>``)."""
    return segment[start - 1 : start] == "<" and segment[end : end + 1] == ">" and \
        _TEMPLATE.fullmatch(segment, start, end) is not None


def _example_occurrences(answer: Answer, quoted: Quoted | None = None,
                         authored_code: bool = False) -> dict[tuple[int, int], bool]:
    """Which occurrences of candidates are examples, in text order, lists of examples included: after an
    example's trigger, in a block presented as a sketch, and (authored_code) in code the answer authors."""
    by_segment: dict[int, list[tuple[int, int]]] = {}
    for candidate in answer.candidates:
        for o in candidate.occurrences:
            by_segment.setdefault(o.segment, []).append((o.start, o.end))
    flags: dict[tuple[int, int], bool] = {}
    for segment_index, spans in by_segment.items():
        text = answer.segments[segment_index]
        blocks = fenced_blocks(text)  # found once: the sketches and the code the answer authors are among them
        sketches = _sketches(text, blocks)
        if authored_code and "`" in text:
            sketches += authored_spans(text, quoted, blocks)
        previous_end, previous_example = None, False
        for start, end in sorted(spans):
            example = _after_trigger(text, start, end) or any(low <= start < high for low, high in sketches)
            if not example and previous_example and previous_end is not None:
                example = _LIST_GAP.fullmatch(text, previous_end, start) is not None
            flags[(segment_index, start)] = example
            previous_end, previous_example = end, example
    return flags


def _sketches(text: str, blocks: list) -> list[tuple[int, int]]:
    """The spans of the fenced code blocks text presents as a sketch or an example ("something like:")."""
    return [(fence.start(), fence.end()) for fence in blocks
            if _SKETCH_BEFORE.search(text, max(0, fence.start() - _SKETCH_LOOKBACK), fence.start())]


def _after_trigger(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - _LOOKBACK) : start]
    if _TRIGGER.search(before):
        return True
    if not _SUCH_AS.search(before):
        return False
    opening = text[:start].rstrip("#")[-1:]
    closing = text[end:].lstrip(".,;:!?")[:1]
    token = text[start:end].rstrip(".,;:!?")
    if not closing and token != text[start:end]:
        closing = text[start + len(token) : end].lstrip(".,;:!?")[:1]
    return opening in _QUOTES and bool(opening) and closing in _QUOTES and bool(closing)


def neighbours(value: str) -> list[str]:
    """Every spelling one character off value, or off one of its ``+``/``/`` parts: an example that is one
    of them looks like a typo of a read value, and stays unsupported."""
    return [
        part[:i] + replacement + part[i + 1 :]
        for part in typo_parts(value)
        for i, original in enumerate(part)
        for replacement in _NEIGHBOUR_CHARS
        if replacement != original
    ]


def typo_parts(value: str) -> list[str]:
    """The spellings of value a typo is looked for in: itself and its ``+``/``/`` parts, six characters or
    more with a digit."""
    parts = [value] + [part for part in COMPOSITE_JOINER.split(value) if part != value]
    return [part for part in parts if len(part) >= 6 and any(ch.isdigit() for ch in part)]
