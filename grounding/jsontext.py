"""Parse JSON text exactly: number literals keep every digit (SPEC §5.1).

The fast parser turns numbers into floats. Where a literal might not survive
that (long digit runs, big integers, ``NaN``), the standard library parses it
again with numbers kept as written.
"""

from __future__ import annotations

import json
from decimal import Decimal

# The one core module that imports orjson: tool results are most of the bytes a
# run reads, and parsing them is most of its time (STYLE keeps orjson at the
# edges; speed is the reason for this exception).
import orjson

from grounding.normalise import spell_decimal

# A number literal this long may not survive a float. A literal outside strings follows a colon, bracket
# or comma; long digit runs inside strings (IBANs, card numbers) rarely do, and parse the same either way.
# Runs are found with bytes.translate and substring searches, several times faster than a pattern.
_DIGIT_OR_DOT = bytes(1 if chr(code) in "0123456789." else 0 for code in range(256))
_SIXTEEN = b"\x01" * 16
_BEFORE_LITERAL = b":[,"
_SPACE = b" \t\n\r\f\v"
_CONSTANTS = {"NaN": "nan", "Infinity": "infinity", "-Infinity": "-infinity"}


class Constant(str):
    """``NaN``, ``Infinity`` or ``-Infinity`` in a document: indexed as a word."""


class NotJson(ValueError):
    """The text is not one JSON document."""


def looks_like_json(text: str) -> bool:
    stripped = text.lstrip()
    return stripped[:1] in ("{", "[")


def has_long_literal(data: bytes) -> bool:
    """Whether JSON text may hold a number literal a float would not keep (a superset of them): sixteen
    digits or dots in a row after a colon, bracket or comma, with spaces and a minus sign between.

    >>> has_long_literal(b'{"n": -1234567890.123456}'), has_long_literal(b'{"iban": "DE1234567890123456"}')
    (True, False)
    """
    marks = data.translate(_DIGIT_OR_DOT)
    at = marks.find(_SIXTEEN)  # where a run of sixteen or more starts
    while at >= 0:
        before = at - 1
        if before >= 0 and data[before] == ord("-"):
            before -= 1
        while before >= 0 and data[before] in _SPACE:
            before -= 1
        if before >= 0 and data[before] in _BEFORE_LITERAL:
            return True
        end = marks.find(b"\x00", at)
        if end < 0:
            return False
        at = marks.find(_SIXTEEN, end)
    return False


def parse(text: str) -> object:
    """Parse a JSON document; numbers are int, Decimal, float (exact where it matters) or Constant."""
    if not has_long_literal(text.encode("utf-8", "surrogatepass")):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass  # NaN, big integers, deep nesting: let the exact parser decide
    try:
        return json.loads(text, parse_float=Decimal, parse_constant=lambda name: Constant(_CONSTANTS[name]))
    except (ValueError, RecursionError) as error:
        raise NotJson(str(error)) from None


def number_spelling(number: object) -> str:
    """The canonical spelling of a parsed number leaf (``1e3`` → ``1000``)."""
    if isinstance(number, int):
        return str(number)
    if isinstance(number, float):
        text = repr(number)  # the shortest spelling that reads back as the same float
        if "e" in text or "n" in text or text == "-0.0":
            return spell_decimal(Decimal(text))  # 1e+16, nan, inf, -0.0
        return text.removesuffix(".0")  # already canonical otherwise: no padding, no trailing zeros
    return spell_decimal(number)  # Decimal


NUMBER_TYPES = frozenset({int, float, Decimal})  # the types of a parsed number leaf (a bool is not one)


def is_number(node: object) -> bool:
    return type(node) in NUMBER_TYPES
