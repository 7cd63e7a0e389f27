"""Arithmetic the answer shows (SPEC §9.9): written equations, per-unit amounts, listed totals.

A result is grounded (via ``stated`` or ``listed-total``) only when the
arithmetic holds to the precision written and every operand was read, or
computed earlier in the same answer. A written equation that does not hold
*refutes* its result: §9.7 may not then explain that value.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Protocol

import regex

from grounding.core.answer.arithmetic_lexer import Lexeme, Num, lex_line
from grounding.core.answer.candidates import Answer, numbers_written
from grounding.core.answer.expressions import (
    Parser,
    evaluate,
    has_binary,
    longest_expression,
    needs_grounding,
    render,
)
from grounding.core.answer.listed_totals import TOTAL_WORD, Line, item_sums
from grounding.core.text import date_offsets
from grounding.core.text.normalise import digit_count, spell
from grounding.core.text.patterns import LazyPattern

_MAX_LEFT = 64
_COUNT_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_COUNT = r"(?P<count>1[0-2]|[2-9]|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_FOR_COUNT_BEFORE = LazyPattern(
    regex.compile, rf"\bfor\s+(?:all\s+)?{_COUNT}\s+(?P<noun>[^\W\d_]+)[^\d$€£¥₹]{{0,24}}$", regex.IGNORECASE
)
_FOR_COUNT_AFTER = LazyPattern(
    regex.compile,
    rf"(?:\s*[^\s\d$€£¥₹]+){{0,3}}?\s*\bfor\s+(?:all\s+)?{_COUNT}\s+(?P<noun>[^\W\d_]+)",
    regex.IGNORECASE,
)
_PER_AFTER = LazyPattern(regex.compile, r"\s*(?:per\s+|/\s*)(?P<noun>[^\W\d_]+)", regex.IGNORECASE)
_DIGIT = LazyPattern(regex.compile, r"\d")  # as the lexer's numbers begin
_PER_LABEL = LazyPattern(regex.compile, r"\bper\s+(?P<noun>[^\W\d_]+)", regex.IGNORECASE)


class Operands(Protocol):
    """What the judge says of an operand the answer writes: the answer side reads the computation, the
    evidence says whether its operands were read."""

    def is_read(self, magnitude: Decimal, decimals: int) -> bool:
        """Read before the answer in any form, or rounded from a number read (to the decimals written)."""

    def is_derived(self, magnitude: Decimal) -> bool:
        """A formula over the numbers read gives it (§9.7)."""


class Computations:
    """The written computations of one answer, read once, in reading order."""

    def __init__(self, answer: Answer, operands: Operands, min_digits: int) -> None:
        self._answer = answer
        self._operands = operands
        self._min_digits = min_digits
        self._results: dict[Decimal, tuple[str, str]] | None = None
        self._refuted: set[Decimal] = set()
        self._named: frozenset[Decimal] | None = None
        self._offsets: set[int] | None = None
        self.bounded: set[Decimal] = set()  # values whose derived search stopped at its bound (derive.find_formula)

    @property
    def stated_offsets(self) -> set[int]:
        """The day offsets the answer states (§9.19)."""
        if self._offsets is None:
            self._offsets = date_offsets.stated_offsets("\n".join(self._answer.segments))
        return self._offsets

    @property
    def named(self) -> frozenset[Decimal]:
        """Every number the answer writes, by magnitude (§9.20: operands the answer itself names)."""
        if self._named is None:
            self._named = numbers_written(self._answer)
        return self._named

    def stated(self, magnitude: Decimal) -> tuple[str, str] | None:
        """(via, formula) of the first computation that holds with this result, or None."""
        return self._read().get(magnitude)

    def is_refuted(self, magnitude: Decimal) -> bool:
        return magnitude in self._refuted and magnitude not in self._read()

    def _read(self) -> dict[Decimal, tuple[str, str]]:
        if self._results is None:
            self._results = {}
            for segment in self._answer.segments:
                self._read_text(segment.replace("\\n", "\n").replace("\\$", "$"))
        return self._results

    def _read_text(self, text: str) -> None:
        if not _may_compute(text):
            return
        # a line with no digit holds no number (a list's heading or a blank is read by its text alone)
        lines = [Line(raw, lex_line(raw) if _DIGIT.search(raw) else []) for raw in text.split("\n")]
        per_unit: list[tuple[str, Num]] = []
        for number, line in enumerate(lines):
            if not any(lx.kind == "num" for lx in line.lexemes):
                continue
            for clause in _clauses(line.lexemes):
                self._bracketed_computations(clause)
                self._equations(_annotations_resolved(clause))
            self._per_unit_amounts(line, per_unit)
            self._listed_total(lines, number)

    # equations ------------------------------------------------------------

    def _equations(self, clause: list[Lexeme]) -> None:
        left_start = 0
        for at, lexeme in enumerate(clause):
            if lexeme.kind != "eq":
                continue
            left = [lx for lx in clause[left_start:at] if lx.kind in ("num", "op", "(", ")")][-_MAX_LEFT:]
            left_start = at + 1
            result = _result_after(clause, at)
            if result is None:
                continue
            tree = longest_expression(left)
            if tree is None:
                continue
            value = evaluate(tree)
            if _holds(value, result) and all(self._acceptable(num) for num in needs_grounding(tree)):
                self._record(result.magnitude, "stated", f"{spell(result.magnitude)} = {render(tree)}")
            else:
                self._refuted.add(result.magnitude)

    def _bracketed_computations(self, clause: list[Lexeme]) -> None:
        """A result followed by the computation that gives it, in brackets: ``7,200 CNY (3,000 rent + 2,500
        meals + 500 transport + 1,200 shopping)``; the words label the operands."""
        for at, lexeme in enumerate(clause):
            if lexeme.kind != "(":
                continue
            before = next((lx for lx in reversed(clause[:at]) if lx.kind != "word"), None)
            close = next((j for j in range(at + 1, len(clause)) if clause[j].kind in ("(", ")")), None)
            if before is None or before.num is None or close is None or clause[close].kind != ")":
                continue
            tree = Parser([lx for lx in clause[at + 1 : close] if lx.kind in ("num", "op")]).parse()
            if tree is None or not has_binary(tree):
                continue
            result = before.num
            if _holds(evaluate(tree), result) and all(self._acceptable(num) for num in needs_grounding(tree)):
                self._record(result.magnitude, "stated", f"{spell(result.magnitude)} = {render(tree)}")
            else:
                self._refuted.add(result.magnitude)

    # per-unit amounts -------------------------------------------------------

    def _per_unit_amounts(self, line: Line, per_unit: list[tuple[str, Num]]) -> None:
        text = line.text
        for num in (lx.num for lx in line.lexemes if lx.num is not None):
            count = _count_marked(text, num) if num.is_currency else None
            if count is not None:
                n, noun = count
                earlier = next((x for unit_noun, x in reversed(per_unit) if unit_noun == noun), None)
                if earlier is not None and _holds(n * earlier.magnitude, num) and self._acceptable(earlier):
                    self._record(num.magnitude, "stated", f"{spell(num.magnitude)} = {n} × {spell(earlier.magnitude)}")
                continue
            per_unit_noun = _per_unit_noun(text, num)
            if per_unit_noun is not None:
                per_unit.append((per_unit_noun, num))

    # listed totals ----------------------------------------------------------

    def _listed_total(self, lines: list[Line], number: int) -> None:
        line = lines[number]
        word = TOTAL_WORD.search(line.text)
        if word is None:
            return
        total = next((num for num in line.amounts if num.start >= word.end()), None)
        if total is None:
            return
        same_line = [num for num in line.amounts if num.end <= word.start()]
        for addends in [same_line, *item_sums(lines, number)]:
            if len(addends) >= 2 and _holds(sum((a.magnitude for a in addends), Decimal(0)), total):
                if all(self._acceptable(a) for a in addends):
                    formula = " + ".join(spell(a.magnitude) for a in addends)
                    self._record(total.magnitude, "listed-total", f"{spell(total.magnitude)} = {formula}")
                    return

    # shared -----------------------------------------------------------------

    def _record(self, magnitude: Decimal, via: str, formula: str) -> None:
        assert self._results is not None
        self._results.setdefault(magnitude, (via, formula))

    def _acceptable(self, num: Num) -> bool:
        """An operand read before the answer, rounded from one, or computed earlier (§9.9)."""
        magnitude = num.magnitude
        if self._operands.is_read(magnitude, num.decimals):
            return True
        if self._results is not None and magnitude in self._results:
            return True
        return digit_count(spell(magnitude)) >= self._min_digits and self._operands.is_derived(magnitude)


def _may_compute(text: str) -> bool:
    """False when text can state no computation: it writes no "=" (equations), no "for" (per-unit
    amounts need "for N things"), no total word (listed totals) and no "(" with "+" (a bracketed
    computation). Lexing every answer costs more: measured over a run's answers, 0.10 s of 3.4 s on the 50 MB
    benchmark corpus (3%), so it is kept; a property test holds it to what lexing would find."""
    if not text.isascii():
        return True  # case-folding beyond ASCII is left to the patterns
    return ("=" in text or "for" in text.lower() or TOTAL_WORD.search(text) is not None
            or ("(" in text and "+" in text))


def _holds(computed: Decimal, written: Num) -> bool:
    """Equal to the precision written: within half a unit of the result's last decimal."""
    return abs(abs(computed) - written.magnitude) <= Decimal(5).scaleb(-(written.decimals + 1))


def _clauses(lexemes: list[Lexeme]) -> list[list[Lexeme]]:
    clauses: list[list[Lexeme]] = []
    current: list[Lexeme] = []
    for lexeme in lexemes:
        if lexeme.kind == "end":
            clauses.append(current)
            current = []
        else:
            current.append(lexeme)
    clauses.append(current)
    return [clause for clause in clauses if clause]


def _annotations_resolved(clause: list[Lexeme]) -> list[Lexeme]:
    """Replace each ``( … )`` holding no operator by its one number, or drop it (§9.9 Parentheses)."""
    out: list[Lexeme] = []
    i = 0
    while i < len(clause):
        lexeme = clause[i]
        close = _annotation_end(clause, i) if lexeme.kind == "(" else None
        if close is None:
            out.append(lexeme)
            i += 1
            continue
        inside = clause[i + 1 : close]
        numbers = [lx for lx in inside if lx.kind == "num"]
        if len(numbers) == 1 and (len(inside) == 1 or _in_operand_position(out, clause[close + 1 :])):
            out.append(numbers[0])
        i = close + 1
    return out


def _annotation_end(clause: list[Lexeme], open_at: int) -> int | None:
    for j in range(open_at + 1, len(clause)):
        kind = clause[j].kind
        if kind == ")":
            return j
        if kind in ("(", "op", "eq", "end"):
            return None
    return None


def _in_operand_position(before: list[Lexeme], after: list[Lexeme]) -> bool:
    previous = next((lx for lx in reversed(before) if lx.kind != "word"), None)
    following = next((lx for lx in after if lx.kind != "word"), None)
    previous_ok = previous is None or previous.kind in ("op", "(", "eq")
    following_ok = following is not None and following.kind in ("op", "eq", ")")
    return previous_ok and following_ok


def _result_after(clause: list[Lexeme], at: int) -> Num | None:
    rest = clause[at + 1 : at + 3]
    if rest and rest[0].kind == "num":
        return rest[0].num
    if len(rest) == 2 and rest[0].kind == "op" and rest[0].op in "+-" and rest[1].kind == "num":
        return rest[1].num
    return None


# per-unit readings ------------------------------------------------------------


def _noun(word: str) -> str:
    word = word.lower()
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _count_marked(text: str, num: Num) -> tuple[int, str] | None:
    """(N, noun) when "for N <noun>" marks this currency amount as a total for N things."""
    clause_start = max(text.rfind(";", 0, num.start) + 1, num.start - 60, 0)
    before = _FOR_COUNT_BEFORE.search(text[clause_start : num.start])
    match = before or _FOR_COUNT_AFTER.match(text[num.end : num.end + 60])
    if match is None:
        return None
    count = match.group("count").lower()
    n = _COUNT_WORDS[count] if count in _COUNT_WORDS else int(count)
    return n, _noun(match.group("noun"))


def _per_unit_noun(text: str, num: Num) -> str | None:
    """The noun this number is an amount per, or None."""
    after = _PER_AFTER.match(text, num.end)
    if after is not None:
        return _noun(after.group("noun"))
    if not num.is_currency:
        return None
    clause_start = text.rfind(";", 0, num.start) + 1
    labels = list(_PER_LABEL.finditer(text, clause_start, num.start))
    return _noun(labels[-1].group("noun")) if labels else None
