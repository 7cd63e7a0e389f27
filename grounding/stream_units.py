"""Where a streamed answer's units end, and what of a unit is held back for the next (grounding.streaming).

A unit is a line, a sentence or a fenced block; it is shown once judged, but for what the text after it may
still make part of a value: its last tokens that hold a digit and a month-name date it may still be writing.
"""

from __future__ import annotations

import re

from grounding.core.text.month_dates import date_held_from
from grounding.core.text.tokens import token_start, trailing_numbers

_FENCE = re.compile(r"[ \t]{0,3}(```|~~~)")


def opens_or_closes_a_fence(text: str, line_start: int) -> bool:
    """True when the line of text starting at line_start opens or closes a fenced block."""
    return _FENCE.match(text, line_start) is not None


def held_from(text: str, start: int, end: int) -> int:
    r"""Where the unit text[start:end] is held back from, to be judged again with the next unit: the tokens
    that end it and hold a digit (a word after them may make them another value: ``41,200`` then ``million``),
    and a month-name date it may still be writing or that goes on past them (``Jan.``, ``March 19,``); end
    for a fenced block, which is judged whole.

    >>> [held_from(t, 0, len(t)) for t in ("Revenue was 41,200\n", "It ships Jan.", "It left.\n", "```\n1\n```\n")]
    [12, 9, 9, 10]
    """
    last_line = text.rfind("\n", start, end - 1) + 1
    if opens_or_closes_a_fence(text, max(last_line, start)):
        return end
    # (a date may begin inside a token, "17 März" of "2025-03-17 März": what is shown ends where a token does)
    return token_start(text, date_held_from(text, start, end, trailing_numbers(text, start, end)), start)


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
