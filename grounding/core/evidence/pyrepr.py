"""Tool output written as a Python ``repr`` (``{'fcid': '0xef0101', 'up': True, 'note': None}``).

Some frameworks log ``str(result)`` instead of JSON. It is read with
``ast.literal_eval`` only — never evaluated — within size and depth limits,
and turned into the values a JSON document would hold.
"""

from __future__ import annotations

import ast
from decimal import Decimal

MAX_CHARS = 4_000_000  # larger text is read as text: literal_eval's parser is not streaming
MAX_DEPTH = 200


def parse(text: str) -> object | None:
    """The document a Python literal spells, or None when text is not one (or is too big or deep).

    >>> parse("{'fcid': '0xef0101', 'up': True, 'ports': (1, 2), 'note': None}")
    {'fcid': '0xef0101', 'up': True, 'ports': [1, 2], 'note': None}
    >>> parse("{'a': f(1)}") is None
    True
    """
    if len(text) > MAX_CHARS or _depth(text) > MAX_DEPTH:
        return None
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if not isinstance(value, (dict, list, tuple)):
        return None
    return _as_json(value)


def _depth(text: str) -> int:
    depth = deepest = 0
    for char in text:
        if char in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")]}":
            depth -= 1
    return deepest


def _as_json(value: object) -> object:
    """Tuples and sets become lists, keys become strings, other scalars their text.

    Recursive, which is safe here: parse() refused anything deeper than MAX_DEPTH.
    """
    if isinstance(value, dict):
        return {str(key): _as_json(child) for key, child in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_as_json(child) for child in value]
    if value is None or isinstance(value, (bool, int, float, str, Decimal)):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)
