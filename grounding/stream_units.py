"""Where a streamed answer's units end, and what of a unit is held back for the next (grounding.streaming).

A unit is a line, a sentence or a fenced block; it is shown once judged, but for what the text after it may
still make part of a value: its last number and a month-name date it may still be writing.
"""

from __future__ import annotations

import re

from grounding.core.text.month_dates import date_held_from
from grounding.core.text.tokens import in_a_token, token_start
from grounding.core.text.units import GROUP_MARKS

_DIGIT = re.compile(r"\d")
_FENCE = re.compile(r"[ \t]{0,3}(```|~~~)")
# what joins the digit groups of one number: a space, or a mark that groups thousands (``41 200``, ``1'250``)
_JOINS_GROUPS = frozenset(" " + GROUP_MARKS)


def opens_or_closes_a_fence(text: str, line_start: int) -> bool:
    """True when the line of text starting at line_start opens or closes a fenced block."""
    return _FENCE.match(text, line_start) is not None


def held_from(text: str, start: int, end: int) -> int:
    r"""Where the unit text[start:end] is held back from, to be judged again with the next unit: its last
    number (a word after it may make it another value: ``41,200`` then ``million``) and a month-name date it
    may still be writing or that goes on past it (``Jan.``, ``March 19,``); end for a fenced block, which is
    judged whole.

    >>> [held_from(t, 0, len(t)) for t in ("Revenue was 41,200\n", "It ships Jan.", "It left.\n", "```\n1\n```\n")]
    [12, 9, 9, 10]
    """
    last_line = text.rfind("\n", start, end - 1) + 1
    if opens_or_closes_a_fence(text, max(last_line, start)):
        return end
    # (a date may begin inside a token, "17 März" of "2025-03-17 März": what is shown ends where a token does)
    return token_start(text, date_held_from(text, start, end, trailing_numbers(text, start, end)), start)


def trailing_numbers(text: str, start: int, end: int) -> int:
    r"""Where the number that ends text[start:end] begins: its last token, when that holds a digit, and before
    it each token holding a digit that one space or group mark joins to it (``41 200``, ``1'250``); end when
    its last token holds none. The words after a number may make it another value (``41,200`` then
    ``million``, ``8:00`` then ``pm``): a streamed answer holds it back until they have arrived.

    >>> [trailing_numbers(t, 0, len(t)) for t in ("Revenue was 41,200\n", "grew 41 200.", "it left.\n", "")]
    [12, 5, 9, 0]
    >>> trailing_numbers("| ORD-4417 | 41,200 |\n", 0, 22), trailing_numbers("e.g. 1'250\n", 0, 11)
    (13, 5)
    """
    held = at = end
    while True:
        gap = at
        while at > start and not in_a_token(text[at - 1]):
            at -= 1
        if held != end and (gap - at != 1 or text[at] not in _JOINS_GROUPS):
            return held  # (a table's cells, a list's lines: numbers apart)
        token_end = at
        while at > start and in_a_token(text[at - 1]):
            at -= 1
        if at == token_end or _DIGIT.search(text, at, token_end) is None:
            return held
        held = at


def follows_a_day(text: str, point: int) -> bool:
    """True when the point at text[point] follows a number of one or two digits standing alone: a day or an
    ordinal (``16. März 2025``, ``am 3. Juni``), whose date goes on past it. ``ORD-4471.`` and ``2025.``
    end their sentences."""
    start = point
    while start > 0 and text[start - 1].isdigit():
        start -= 1
    if not 0 < point - start <= 2 or text[point] != ".":
        return False
    return start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "-_./:,")
