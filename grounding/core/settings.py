"""What a run may change: declared shapes, exemptions, the digit bar, §9 switches (SPEC §6)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

import regex

from grounding.core.text.normalise import lookup_forms, normalise
from grounding.core.text.standards import STANDARD_NAMES
from grounding.core.text.values import DECLARED, Value, classify_plainly
from grounding.errors import OptionError, PatternTimeout
from grounding.model import ALL_CODES

if TYPE_CHECKING:
    from collections.abc import Callable

    from grounding.core.contract import Contracts  # (a run with a schema alone imports the contract module)

# A user pattern gets this long per token; a catastrophic one ends the run with a clear error.
PATTERN_TIMEOUT_SECONDS = 0.25
# ... and this long in all, in a run, on the tokens that each take it over SLOW_MATCH_SECONDS: a pattern
# just under the per-token limit on every token ran without end in total (320 tokens: 17 s).
PATTERN_BUDGET_SECONDS = 2.0
SLOW_MATCH_SECONDS = 0.01  # a match of a sound pattern takes microseconds
_T = TypeVar("_T")
_SIMPLIFY = "simplify it (overlapping alternatives or nested repeats, such as (a|a)+, backtrack without end)"


@dataclass(frozen=True, slots=True)
class Pattern:
    """A user regex, anchored to a whole normalised value and matched ignoring case."""

    option: str  # "--shape box" or "--exempt-regex": named in errors
    source: str
    compiled: regex.Pattern[str]
    spent: list[float] = field(default_factory=lambda: [0.0], compare=False, repr=False)  # on slow matches

    def matches(self, value: str) -> bool:
        return self._timed(value, lambda: self.compiled.fullmatch(value, timeout=PATTERN_TIMEOUT_SECONDS) is not None)

    def phrases_in(self, text: str) -> list[tuple[int, int]]:
        """The spans of text it matches that are phrases: several words, whole (not a piece of a longer word).
        A match that starts a sentence gives way to one from its next word (``Ask Marcus Whitfield``: the
        sentence, not the name, put the capital on ``Ask``)."""
        def search() -> list[tuple[int, int]]:
            spans, at = [], 0
            while (match := self.compiled.search(text, at, timeout=PATTERN_TIMEOUT_SECONDS)) is not None:
                start, end = match.span()
                if start < end and _SENTENCE_START.search(text, max(0, start - 40), start) is not None:
                    later = _NEXT_WORD.search(text, start + 1, end)
                    again = later and self.compiled.match(text, later.start(), timeout=PATTERN_TIMEOUT_SECONDS)
                    if again and _is_phrase(text, *again.span()):
                        start, end = again.span()
                if _is_phrase(text, start, end):
                    spans.append((start, end))
                at = max(end, match.start() + 1)
            return spans
        return self._timed(text, search)

    def _timed(self, subject: str, work: Callable[[], _T]) -> _T:
        started = time.perf_counter()
        try:
            return work()
        except TimeoutError:
            raise PatternTimeout(f"{self.option}: pattern {self.source!r} took longer than "
                                 f"{PATTERN_TIMEOUT_SECONDS}s on the value {subject[:60]!r}; {_SIMPLIFY}") from None
        finally:
            took = time.perf_counter() - started
            if took > SLOW_MATCH_SECONDS:
                self.spent[0] += took
                if self.spent[0] > PATTERN_BUDGET_SECONDS:
                    raise PatternTimeout(f"{self.option}: pattern {self.source!r} took over {PATTERN_BUDGET_SECONDS}s "
                                         f"in all, on values that each took it over {SLOW_MATCH_SECONDS}s; {_SIMPLIFY}")


# where a sentence starts: the text's start, a line's (after a list's mark or a heading's), after . ! ? or :
_SENTENCE_START = regex.compile(r"(?:\A|\n|[.!?:]\s)[ \t>*#+-]*(?:\d{1,3}[.)][ \t]*)?\Z")
_NEXT_WORD = regex.compile(r"(?<=\s)\w")


def _is_phrase(text: str, start: int, end: int) -> bool:
    """text[start:end] is words (at least two, none cut: no letter or digit just outside it)."""
    phrase = text[start:end]
    return (len(phrase.split()) > 1 and not phrase[0].isspace() and not phrase[-1].isspace()
            and not (start and text[start - 1].isalnum()) and not (end < len(text) and text[end].isalnum()))


@dataclass(frozen=True, slots=True)
class Shape:
    """A declared shape. cased: its regex turns ignoring case off (``(?-i)``), so it is matched against the
    value as the answer spells it (normalising lowers it); phrase: its regex writes a space (or ``\\s``), so
    it is matched across words, on the answer's text (a name: ``Marcus Whitfield``), not on one token."""

    name: str
    pattern: Pattern
    cased: bool = False
    phrase: bool = False


@dataclass(frozen=True, slots=True)
class Settings:
    """Every option of a run, validated."""

    shapes: tuple[Shape, ...] = ()
    exempt: frozenset[str] = frozenset()  # normalised literals and their lookup forms
    exempt_patterns: tuple[Pattern, ...] = ()
    min_digits: int = 4
    derived: bool = True  # §9.7, §9.9 and §9.19 on
    fail_on_derived: bool = False
    fail_on_example: bool = False
    exit_zero: bool = False
    allow_empty: bool = False  # a run that judges no answer exits 0, not 2
    rules: frozenset[str] = ALL_CODES  # the rules reported and failing the run (--select / --ignore)
    fail_on_unjudgeable: bool = False  # an answer whose evidence is not in the record fails the gate
    fail_on_unchecked: bool = False  # an answer that examined nothing against a tool result fails the gate
    contracts: Contracts | None = None  # when a schema was given
    contract_warn_only: bool = False
    required_tools: tuple[str, ...] = ()  # --require-tool: a successful call of each in the answer's turn
    code_tool: str | None = None  # --code-needs-execution: code in an answer needs a successful call of it
    standard_names: frozenset[str] = frozenset(STANDARD_NAMES)  # prose, not values: SHA-256, UTF-8 (§9.26)
    code_blocks: str = "examples"  # code the answer authors holds examples; "judge": judged like prose
    figures: bool = False  # a number with a unit of measure, a percent sign or a scale word: a value at any length
    count_min_digits: int | None = None  # the digits a number a counted noun follows needs (None: min_digits')

    def is_exempt(self, value: str) -> bool:
        if value in self.exempt:
            return True
        return bool(self.exempt_patterns) and any(pattern.matches(value) for pattern in self.exempt_patterns)

    def classify(self, value: str, written: str | None = None) -> Value | None:
        """§6 before §4.1: an exempt value is none, a declared shape's match is a value of that shape, and
        the rest is §4.1's to decide (512mb is no value when 512 is exempt). written: the value as the answer
        wrote it, which a cased shape is matched against."""
        if self.exempt or self.exempt_patterns or self.shapes:
            if self.is_exempt(value):
                return None
            shape = self.shape_of(value, written)
            if shape is not None:
                return Value(value, shape, DECLARED)
        found, with_unit = classify_plainly(value, self.min_digits, self.figures)
        if with_unit and found is not None and self.exempt:  # (with_unit: a number was found)
            if any(form in self.exempt for form in lookup_forms(found.value)):
                return None
        return found

    def shape_of(self, value: str, written: str | None = None) -> str | None:
        """The first declared shape value matches: a phrase shape only a value of several words (the answer's
        phrases are found by phrase_shapes), a cased one as written."""
        several = " " in value
        for shape in self.shapes:
            if shape.phrase == several and shape.pattern.matches(spelled(value, written) if shape.cased else value):
                return shape.name
        return None

    @property
    def counts_examined_below(self) -> int | None:
        """count_min_digits where it examines counts that min_digits does not (182 visits), else None."""
        counted = self.count_min_digits
        return counted if counted is not None and counted < self.min_digits else None

    @property
    def phrase_shapes(self) -> tuple[Pattern, ...]:
        """The patterns of the shapes matched across words, searched for in the answer's text."""
        return tuple(shape.pattern for shape in self.shapes if shape.phrase)


def spelled(value: str, written: str | None) -> str:
    """value (normalised: lowered, its white space one space) with its letters as written spells them.

    >>> spelled("ord-4471", "(ORD-4471)."), spelled("marcus whitfield", "Marcus\\n  Whitfield"), spelled("x", None)
    ('ORD-4471', 'Marcus Whitfield', 'x')
    """
    if written is None:
        return value
    words = " ".join(written.split())
    at = words.lower().find(value)
    return words[at : at + len(value)] if at >= 0 else value


def compile_pattern(option: str, source: str) -> Pattern:
    """Compile a user regex, or say which option holds a bad one."""
    try:
        compiled = regex.compile(source, regex.IGNORECASE)
    except regex.error as error:
        raise OptionError(f"{option}: {source!r} is not a valid regular expression ({error})") from None
    return Pattern(option, source, compiled)


def build_settings(
    shapes: list[str] | None = None,
    exempt: list[str] | None = None,
    exempt_regex: list[str] | None = None,
    min_digits: int = 4,
    *,
    derived: bool = True,
    fail_on_derived: bool = False,
    fail_on_example: bool = False,
    exit_zero: bool = False,
) -> Settings:
    """Validate raw option values (as the CLI receives them) into Settings."""
    if not isinstance(min_digits, int) or isinstance(min_digits, bool) or min_digits < 1:
        raise OptionError(f"--min-digits: {min_digits!r} is not allowed; give a whole number of 1 or more")
    return Settings(
        shapes=_shapes(shapes or []),
        exempt=frozenset(form for literal in exempt or [] for form in _exempt_forms(literal)),
        exempt_patterns=tuple(compile_pattern("--exempt-regex", source) for source in exempt_regex or []),
        min_digits=min_digits,
        derived=derived,
        fail_on_derived=fail_on_derived,
        fail_on_example=fail_on_example,
        exit_zero=exit_zero,
    )


def shape_table(specs: list[str]) -> dict[str, str]:
    """``--shape NAME=REGEX`` options as name → regex, refusing a bad form, an empty regex or a repeated name."""
    table: dict[str, str] = {}
    for spec in specs:
        name, sep, source = spec.partition("=")
        name = name.strip()
        if not sep or not name:
            raise OptionError(f"--shape: {spec!r} needs the form NAME=REGEX, for example --shape order=ord-\\d{{4,}}")
        if not source:
            raise OptionError(f"--shape {name}: the regular expression is empty; write NAME=REGEX")
        if name in table:
            raise OptionError(f"--shape: the name {name!r} is declared twice; give each shape its own name")
        table[name] = source
    return table


def _shapes(specs: list[str]) -> tuple[Shape, ...]:
    shapes = []
    for name, source in shape_table(specs).items():
        pattern = compile_pattern(f"--shape {name}", source)
        cased = not pattern.compiled.flags & regex.IGNORECASE  # (?-i) in the regex
        shapes.append(Shape(name, pattern, cased, _WRITES_A_SPACE.search(source) is not None))
    return tuple(shapes)


# a regex that writes a space (literally, escaped, as \s or \x20) matches across words
_WRITES_A_SPACE = regex.compile(r" |\\s|\\x20")


def _exempt_forms(literal: str) -> tuple[str, ...]:
    value = normalise(literal)
    if not value:
        raise OptionError(f"--exempt: {literal!r} is empty once normalised; give a value such as v9.35.0")
    return lookup_forms(value)
