"""Totals under a list (SPEC §9.9): the list of amounts right above a total line, item by item (an item's
sub-lines join it), and the lists above it across their section headings (a bill in sections).
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from grounding.core.answer.arithmetic_lexer import Lexeme, Num
from grounding.core.text.patterns import LazyPattern

TOTAL_WORD = LazyPattern(
    regex.compile, r"\b(?:grand\s+)?(?:totals?|subtotals?|sum|combined|altogether|overall)\b", regex.IGNORECASE
)
_BULLET = LazyPattern(regex.compile, r"(?:[-*•–·+]|\d{1,3}[.)]|[A-Za-z][.)])\s")
_INDENT = LazyPattern(regex.compile, r"[ \t\u00a0]*")
_DIGIT_OR_CURRENCY = LazyPattern(regex.compile, r"[\d$€£¥₹]")
_LIST_LIMIT = 200
# A section's heading: short, no digit, marked as one (a "#", bold, or a colon at its end)
_HEADING = LazyPattern(regex.compile, r"(?:#{1,6}\s*[^\d\n]{1,60}|\*\*[^\d*\n]{1,60}\*\*:?|__[^\d_\n]{1,60}__:?"
                       r"|[^\d\n:]{1,60}:)")


@dataclass(frozen=True, slots=True)
class Line:
    """A line of the answer, lexed."""

    text: str
    lexemes: list[Lexeme]

    @property
    def amounts(self) -> list[Num]:
        return [lx.num for lx in self.lexemes if lx.num is not None and lx.num.is_currency]  # (a "num" lexeme's)


def item_sums(lines: list[Line], number: int) -> list[list[Num]]:
    """The three sums tried over the list above a total line: last, first, every amount; over the list
    right above it, then over the lists above it across their headings (a bill in sections)."""
    sums: list[list[Num]] = []
    for items in (_items_above(lines, number), _items_above(lines, number, across_headings=True)):
        if items:
            lasts = [amounts[-1] for amounts in items if amounts]
            firsts = [amounts[0] for amounts in items if amounts]
            every = [amount for amounts in items for amount in amounts]
            sums.extend((lasts, firsts, every))
    return sums


def _items_above(lines: list[Line], number: int, across_headings: bool = False) -> list[list[Num]]:
    """The currency amounts of each item of the list right above a total line; across_headings, of the
    lists above it too, each under a heading (``**Flights**``, ``### Hotels``, ``Taxes:``)."""
    total_line = lines[number].text
    indent = _indent(total_line)
    start = number - 1
    if _BULLET.match(total_line.lstrip(" \t\u00a0")):
        heading = _nearest_nonblank(lines, start)
        if heading is not None and _is_total_heading(lines[heading].text):
            start = heading - 1
    members: list[tuple[int, Line]] = []
    blanks = 0
    for at in range(start, max(-1, start - _LIST_LIMIT), -1):
        line = lines[at]
        if not line.text.strip():
            blanks += 1
            if blanks >= 2:
                break
            continue
        blanks = 0
        depth = _indent(line.text)
        if depth > indent:
            members.append((depth, line))
        elif depth == indent and (_BULLET.match(line.text.lstrip(" \t\u00a0")) or line.amounts):
            members.append((depth, line))
        elif not (across_headings and members and _HEADING.fullmatch(line.text.strip())):
            break
    members.reverse()
    if not members:
        return []
    shallowest = min(depth for depth, _ in members)
    items: list[list[Num]] = []
    for depth, line in members:
        if depth == shallowest or not items:
            items.append(list(line.amounts))
        else:
            items[-1].extend(line.amounts)
    return items


def _indent(text: str) -> int:
    return len(_INDENT.match(text).group())


def _nearest_nonblank(lines: list[Line], start: int) -> int | None:
    for at in range(start, -1, -1):
        if lines[at].text.strip():
            return at
    return None


def _is_total_heading(text: str) -> bool:
    stripped = text.strip()
    return (
        len(stripped) <= 40
        and stripped.endswith(":")
        and _DIGIT_OR_CURRENCY.search(stripped) is None
        and TOTAL_WORD.search(stripped) is not None
    )
