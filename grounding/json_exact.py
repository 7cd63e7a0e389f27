"""Parse JSON text exactly: number literals keep every digit (SPEC §5.1).

The fast parser turns numbers into floats. Where a literal might not survive
that (long digit runs, big integers, ``NaN``), the standard library parses it
again with numbers kept as written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any, TypeGuard

# The one core module that imports orjson: tool results are most of the bytes a
# run reads, and parsing them is most of its time (STYLE keeps orjson at the
# edges; speed is the reason for this exception).
import orjson

# A number literal this long may not survive a float. A literal outside strings follows a colon, bracket
# or comma; long digit runs inside strings (IBANs, card numbers) rarely do, and parse the same either way.
# Runs are found in the text's marks with substring searches, several times faster than a pattern: digits,
# signs and points mark "0", an exponent's "e" stays, a comma and a quote stay, a colon or an opening
# bracket (what else may stand before a literal) marks ":", JSON's whitespace " ", a form feed or vertical
# tab "v", anything else "a". The marks alone then tell all the tests below: no byte of the text is needed.
MARKS = bytes(
    ord("0") if chr(code) in "0123456789.+-" else ord("e") if chr(code) in "eE" else code if chr(code) in ',"'
    else ord(":") if chr(code) in ":[" else ord(" ") if chr(code) in " \t\n\r" else ord("v") if chr(code) in "\f\v"
    else ord("a")
    for code in range(256)
)
_SIXTEEN = b"0" * 16
_BEFORE_LITERAL = b":,"  # the marks of a colon, a bracket, a comma
_SPACE = b" v"  # the marks of whitespace (a form feed and a vertical tab too, as a pattern's \s)
_SEPARATOR_OR_SPACE = frozenset(b":, ")  # what stands just before a literal outside strings, marked
# A digit, "e" and a digit; a digit, comma and digit. Each is found by its rarer middle mark and checked
# behind: a pattern that starts at a digit's mark (a third of all marks) tries it at every digit.
_DIGIT_E_DIGIT = re.compile(rb"e0(?<=0e0)")
_DIGIT_COMMA_DIGIT = re.compile(rb",0(?<=0,0)")
_CONSTANTS = {"NaN": "nan", "Infinity": "infinity", "-Infinity": "-infinity"}


class Constant(str):
    """``NaN``, ``Infinity`` or ``-Infinity`` in a document: indexed as a word."""


class NotJson(ValueError):
    """The text is not one JSON document."""


def looks_like_json(text: str) -> bool:
    stripped = text.lstrip()
    return stripped[:1] in ("{", "[")


def has_long_literal(data: bytes, marks: bytes | None = None) -> bool:
    """Whether JSON text may hold a number literal a float would not keep (a superset of them): sixteen
    digits, points or signs in a row after a colon, bracket or comma, with spaces between.

    >>> has_long_literal(b'{"n": -1234567890.123456}'), has_long_literal(b'{"iban": "DE1234567890123456"}')
    (True, False)
    """
    if marks is None:
        marks = data.translate(MARKS)
    at = marks.find(_SIXTEEN)
    while at >= 0:
        if at == 0 or marks[at - 1] != 0x30:  # where a run of sixteen or more starts
            before = at - 1
            while before >= 0 and marks[before] in _SPACE:
                before -= 1
            if before >= 0 and marks[before] in _BEFORE_LITERAL:
                return True
        at = marks.find(_SIXTEEN, at + 16)  # a run starting sooner would be this one
    return False


def has_exponent_literal(marks: bytes) -> bool:
    """Whether a JSON text with no backslash (seen through its marks) holds a number literal with an exponent.

    Outside strings a digit, ``e`` and a digit (a sign between) can only be one. Those runs that stand
    after a separator, as a literal does, are outside strings when an even number of quotes precedes them.

    >>> [has_exponent_literal(t.translate(MARKS)) for t in (b'[1.5E3]', b'{"id": "3e5"}', b'{"e": 35}')]
    [True, False, False]
    """
    starts = []
    for match in _DIGIT_E_DIGIT.finditer(marks):  # a sign after the "e" is marked "0" too
        start = match.start() - 1
        while start > 0 and marks[start - 1] == 0x30:
            start -= 1
        if start == 0 or marks[start - 1] in _SEPARATOR_OR_SPACE:
            starts.append(start)
    quotes, counted = 0, 0
    for start in starts:
        quotes += marks.count(b'"', counted, start)
        counted = start
        if quotes % 2 == 0:
            return True
    return False


class Notes:
    """What a JSON text's marks tell beyond its parse, worked out from the text when first asked: only a text
    searched for a value not found verbatim asks (two in five)."""

    __slots__ = ("_digit_comma", "_exponent", "_marks", "_text")

    def __init__(self, text: str | None, exponent: bool | None = None, digit_comma: bool | None = None) -> None:
        self._text: str | None = text  # (both None once every note is told: see _forget)
        self._marks: bytes | None = None
        self._exponent, self._digit_comma = exponent, digit_comma

    @property
    def exponent(self) -> bool:
        """A number literal has an exponent (meaningful for a text without backslash: see verbatim.see_json)."""
        if self._exponent is None:
            self._exponent = has_exponent_literal(self._marks_of_text())
            self._forget()
        return self._exponent

    @property
    def digit_comma(self) -> bool:
        """A comma may stand between two digits (a grouping comma, in a string)."""
        if self._digit_comma is None:
            self._digit_comma = _DIGIT_COMMA_DIGIT.search(self._marks_of_text()) is not None
            self._forget()
        return self._digit_comma

    def _marks_of_text(self) -> bytes:
        marks = self._marks
        if marks is None:
            text = self._text
            assert text is not None  # (a note still to be told keeps its text)
            marks = self._marks = text.encode("utf-8", "surrogatepass").translate(MARKS)
        return marks

    def _forget(self) -> None:
        if self._exponent is not None and self._digit_comma is not None:
            self._marks = self._text = None


def parse(text: str) -> object:
    """Parse a JSON document; numbers are int, Decimal, float (exact where it matters) or Constant."""
    return _parse(text, _may_lose_digits(text))


def parse_unchecked(text: str) -> tuple[object, bool]:
    """Parse a JSON document, not yet looking for literals a float would not keep (a pass over every byte,
    see has_long_literal): most documents are never read, and only reading them, or a test of a number in
    them, needs their numbers exact (see checked). Also whether the document is exact already (the fast
    parser could not read it, and the exact one did)."""
    try:
        return orjson.loads(text), False
    except orjson.JSONDecodeError:
        return _parse(text, long_literal=True), True  # NaN, deep nesting: the exact parser decides


def checked(text: str, document: object) -> object:
    """The exact document of a JSON text parse_unchecked read: that document, or, when the text may hold a
    literal a float would not keep, the text parsed exactly."""
    return _parse(text, long_literal=True) if _may_lose_digits(text) else document


def _may_lose_digits(text: str) -> bool:
    return has_long_literal(text.encode("utf-8", "surrogatepass"))


def _parse(text: str, long_literal: bool) -> object:
    if not long_literal:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass  # NaN, big integers, deep nesting: let the exact parser decide
    try:
        return json.loads(text, parse_float=Decimal, parse_constant=lambda name: Constant(_CONSTANTS[name]))
    except (ValueError, RecursionError) as error:
        raise NotJson(str(error)) from None


def leaves(document: object) -> Iterator[object]:
    """Every scalar of a parsed document, in no particular order (explicit stack: documents can be deep)."""
    stack: list[Any] = [document]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is dict:
            stack.extend(node.values())
        elif kind is list:
            stack.extend(node)
        else:
            yield node


def number_spelling(number: int | float | Decimal) -> str:
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


def is_number(node: object) -> TypeGuard[int | float | Decimal]:
    return type(node) in NUMBER_TYPES


def spell_decimal(number: Decimal) -> str:
    """Spell a Decimal canonically, without exponent, never rounding."""
    plain = format(number, "f")
    if "." in plain:
        plain = plain.rstrip("0").rstrip(".")
    if plain in ("-0", ""):
        return "0"
    return plain
