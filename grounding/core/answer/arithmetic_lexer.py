"""Cut one line of an answer into numbers, operators, ``=``, parentheses, clause ends and words (SPEC §9.9).

Only what reads unambiguously as arithmetic becomes an operator: the hyphens
of ``ATL-LGA``, ``2024-05-15`` and ``TKT-5183`` are words, ``/`` is never
division, and markdown ``**`` is never a multiplication.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import regex

from grounding.core.text.patterns import LazyPattern
from grounding.core.text.units import UNITS
from grounding.core.text.values import LONGEST_NUMBER

CURRENCY_MARKS = "$€£¥₹"
_NUMBER = LazyPattern(
    regex.compile, r"(?P<mark>[$€£¥₹] ?)?(?P<digits>\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.(?P<fraction>\d+))?"
)
_CURRENCY_CODES = frozenset(
    "usd eur gbp jpy cad aud chf cny inr nzd sek nok dkk mxn brl krw sgd hkd".split()
)
_CODE_AFTER = LazyPattern(regex.compile, r"\s*([A-Za-z]{3})(?![A-Za-z])")
_CODE_BEFORE = LazyPattern(regex.compile, r"(?<![A-Za-z])([A-Za-z]{3})\s*$")
_IGNORED = set("\"'“”‘’`,_")
_WORD_STOP = set("=+×−–();|→—\"'“”‘’`*") | set(CURRENCY_MARKS)
_BAD_BEFORE = set("_.,/:#@") | set(CURRENCY_MARKS)
_BAD_AFTER = set("_/:@%")
assert _CURRENCY_CODES <= UNITS


@dataclass(slots=True)  # not frozen: made per token or result, and a frozen __init__ costs ~6x
class Num:
    magnitude: Decimal  # as written, unsigned
    decimals: int  # decimals as written: "$3,617.00" has 2
    text: str
    start: int
    end: int
    has_mark: bool
    is_currency: bool

    @property
    def is_count(self) -> bool:
        """A whole number 2–12 with no decimals and no currency mark: a count of things."""
        return not self.has_mark and self.decimals == 0 and 2 <= self.magnitude <= 12


@dataclass(slots=True)  # not frozen: made per token or result, and a frozen __init__ costs ~6x
class Lexeme:
    kind: str  # "num", "op", "eq", "(", ")", "end", "word"
    start: int
    end: int
    op: str = ""  # "+", "-", "*" for kind "op"
    num: Num | None = None
    text: str = ""


def lex_line(line: str) -> list[Lexeme]:
    """The lexemes of one line, in order."""
    found: list[Lexeme] = []
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        nxt = line[i + 1] if i + 1 < n else ""
        prev = line[i - 1] if i > 0 else ""
        if ch.isspace() or ch in _IGNORED:
            i += 1
        elif ch == "=":
            found.append(Lexeme("eq", i, i + 1))
            i += 1
        elif ch in "+×":
            found.append(Lexeme("op", i, i + 1, op="+" if ch == "+" else "*"))
            i += 1
        elif ch in "−–":
            found.append(Lexeme("op", i, i + 1, op="-"))
            i += 1
        elif ch == "-" and (not prev or prev.isspace()) and (not nxt or nxt.isspace() or _number_at(line, i + 1)):
            found.append(Lexeme("op", i, i + 1, op="-"))
            i += 1
        elif ch in "xX*" and (not prev or prev.isspace()) and (not nxt or nxt.isspace()):
            found.append(Lexeme("op", i, i + 1, op="*"))
            i += 1
        elif ch == "*":
            i += 1  # emphasis
        elif ch in "()":
            found.append(Lexeme(ch, i, i + 1))
            i += 1
        elif ch in ";|" or (ch in "→—" and not (prev.isalnum() and nxt.isalnum())):
            found.append(Lexeme("end", i, i + 1))
            i += 1
        elif ch in ":.?!" and (not nxt or nxt.isspace()):
            found.append(Lexeme("end", i, i + 1))
            i += 1
        else:
            number = _number_at(line, i)
            if number is not None:
                found.append(Lexeme("num", number.start, number.end, num=number))
                i = number.end
            else:
                end = _word_end(line, i)
                found.append(Lexeme("word", i, end, text=line[i:end]))
                i = end
    return found


def _number_at(line: str, i: int) -> Num | None:
    match = _NUMBER.match(line, i)
    if match is None:
        return None
    before = line[i - 1] if i > 0 else ""
    if before.isalnum() or before in _BAD_BEFORE:
        return None
    if before == "-" and i >= 2 and line[i - 2].isalnum():
        return None  # TKT-5183
    end = match.end()
    after = line[end] if end < len(line) else ""
    after_next = line[end + 1] if end + 1 < len(line) else ""
    if after.isalnum() or after in _BAD_AFTER:
        return None
    if after in ".,-" and after_next.isdigit():
        return None
    mark = match.group("mark")
    digits = match.group("digits").replace(",", "")
    fraction = match.group("fraction") or ""
    if len(digits) + len(fraction) > LONGEST_NUMBER:
        return None  # judged as written (values.LONGEST_NUMBER): no operand of a written computation
    magnitude = Decimal(digits + ("." + fraction if fraction else ""))
    return Num(
        magnitude=magnitude,
        decimals=len(fraction),
        text=match.group(),
        start=i,
        end=end,
        has_mark=mark is not None,
        is_currency=mark is not None or _has_code(line, i, end),
    )


def _has_code(line: str, start: int, end: int) -> bool:
    after = _CODE_AFTER.match(line[end : end + 5])
    if after and after.group(1).lower() in _CURRENCY_CODES:
        return True
    before = _CODE_BEFORE.search(line[max(0, start - 5) : start])
    return bool(before and before.group(1).lower() in _CURRENCY_CODES)


def _word_end(line: str, i: int) -> int:
    j = i + 1
    n = len(line)
    while j < n:
        ch = line[j]
        if ch.isspace() or ch in _WORD_STOP:
            break
        if ch in ":.?!" and (j + 1 >= n or line[j + 1].isspace()):
            break
        j += 1
    return j
