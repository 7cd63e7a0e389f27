"""Labels an answer coins from grounded parts (SPEC §9.25).

A structured answer names its steps and keys in snake_case around the values it
read (``apply_voucher_8812034_first``), and a product line lists attributes
joined by ``/`` (``m2/24gb/1tb``). Neither token was read as a whole, yet
neither is invented when its value parts were read: each part is judged alone.
An all-capitals token (``ORD_55120_RTN``) or one joined by ``-`` is no label.
"""

from __future__ import annotations

import re

from grounding.core.text.normalise import normalise
from grounding.core.text.units import split_unit

_WORD = re.compile(r"[a-z]{3,}")  # a snake_case word: lower case, three letters or more
_CODE = re.compile(r"[a-z0-9]+")
_LEAST_WORDS = 2


def parts_of(text: str, min_digits: int) -> list[tuple[str, int]] | None:
    """The parts of a label or a list of attributes with where each starts in text, or None when text is
    neither.

    >>> parts_of("apply_voucher_8812034_first", 4)
    [('apply', 0), ('voucher', 6), ('8812034', 14), ('first', 22)]
    >>> [part for part, _ in parts_of("M2/24GB/1TB", 4)]
    ['M2', '24GB', '1TB']
    >>> parts_of("ORD_55120_RTN", 4), parts_of("gift_5086243", 4), parts_of("fc1/9", 4), parts_of("QX210/QX388", 4)
    (None, None, None, None)
    """
    if "_" in text:
        return _label_parts(text)
    if "/" in text:
        return _attribute_parts(text, min_digits)
    return None


def _label_parts(text: str) -> list[tuple[str, int]] | None:
    parts = _split(text, "_")
    if any(not part for part, _ in parts) or sum(1 for part, _ in parts if _WORD.fullmatch(part)) < _LEAST_WORDS:
        return None
    return parts


def _attribute_parts(text: str, min_digits: int) -> list[tuple[str, int]] | None:
    """Every part a number with a unit or a short code of letters and digits, at least one with a unit."""
    parts = _split(text, "/")
    with_unit = 0
    for part, _ in parts:
        written = normalise(part)
        if not written:
            return None
        if split_unit(written) is not None:
            with_unit += 1
        elif not (_CODE.fullmatch(written) and len(written) < min_digits):
            return None
    return parts if with_unit else None


def _split(text: str, joiner: str) -> list[tuple[str, int]]:
    parts, at = [], 0
    for part in text.split(joiner):
        parts.append((part, at))
        at += len(part) + 1
    return parts
