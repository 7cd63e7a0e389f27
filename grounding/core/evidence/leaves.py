"""A JSON document's leaves: its number leaves, its strings, and its collections (SPEC §9.7 totals, §9.18)."""

from __future__ import annotations

import math
import re
from decimal import Decimal
from itertools import chain
from typing import Any, Protocol

from grounding import json_exact
from grounding.core.evidence.documents import CONTAINERS, OBJECTS_ONLY
from grounding.core.evidence.forms import Forms, ReadOptions

_HAS_DIGIT = re.compile(r"\d")


def numbers_and_collections(document: dict | list, forms: Forms) -> list:
    """The number leaves of a document, noting its collections (§9.7 totals) in the order walk finds them,
    visiting only containers: the rows of a table (objects holding no container) are read through their
    collections, and a table is most of a result's numbers. A leaf may be listed twice."""
    leaves: list = []
    stack: list[Any] = [document]  # a parsed document's nodes, told apart by their type
    while stack:
        node = stack.pop()
        is_list = type(node) is list
        members = node if is_list else list(node.values())
        kinds = set(map(type, members))
        if kinds == OBJECTS_ONLY:
            rows = CONTAINERS.isdisjoint(map(type, chain.from_iterable(map(dict.values, members))))
            if not rows:
                stack.extend(members)  # each is visited, its own numbers with it
            if rows or len(members) >= 2:
                by_key = _numbers_by_key(members)
                if rows:
                    leaves.extend(chain.from_iterable(by_key.values()))
                if len(members) >= 2:  # as _member_totals notes them
                    forms.collections.extend((numbers, key) for key, numbers in by_key.items() if len(numbers) >= 2)
            continue
        if not kinds.isdisjoint(CONTAINERS):
            stack.extend([child for child in members if type(child) is dict or type(child) is list])
        if kinds.isdisjoint(json_exact.NUMBER_TYPES):
            continue
        if json_exact.NUMBER_TYPES.issuperset(kinds):
            leaves.extend(members)
            if is_list and len(members) >= 2:
                forms.collections.append((members, None))  # an array of numbers
        else:
            leaves.extend([child for child in members if type(child) in json_exact.NUMBER_TYPES])
    return leaves


def strings_of(document: dict | list) -> list[str]:
    """The keys and string leaves of a document holding a digit (only those can spell a number)."""
    found: list[str] = []
    stack: list[Any] = [document]
    while stack:
        node = stack.pop()
        if type(node) is dict:
            found.extend(key for key in node if _HAS_DIGIT.search(key))
            stack.extend(child for child in node.values() if type(child) in CONTAINERS or type(child) is str)
        elif type(node) is list:
            stack.extend(child for child in node if type(child) in CONTAINERS or type(child) is str)
        elif _HAS_DIGIT.search(node):
            found.append(node)
    return found


def string_leaves(document: object) -> list[str]:
    """Every string leaf of a parsed document, as its text means it (escapes read: ``Jos\\u00e9`` is José)."""
    found: list[str] = []
    stack: list[Any] = [document]
    while stack:
        node = stack.pop()
        if type(node) is str:
            found.append(node)
        elif type(node) is dict:
            stack.extend(node.values())
        elif type(node) is list:
            stack.extend(node)
    return found


def _numbers_by_key(members: list[dict]) -> dict[str, list]:
    """The number children of objects, by key, keys in order of first appearance."""
    by_key: dict[str, list] = {}
    numeric = json_exact.NUMBER_TYPES  # one look-up per child, not a call: a list of objects has many children
    for member in members:
        for key, child in member.items():
            if type(child) in numeric:
                by_key.setdefault(key, []).append(child)
    return by_key


def magnitudes_of(leaves: list) -> set[str]:
    """The absolute values of number leaves as the index spells them (json_exact.number_spelling), in C for
    ints and floats written without an exponent: the repr of such a float is its spelling, but for a
    trailing ".0"."""
    if _INTS_AND_FLOATS.issuperset(map(type, leaves)):
        written = "\n".join(map(repr, leaves)) + "\n"
        if "e" not in written and "n" not in written:  # no exponent, inf or nan
            return set(written.replace(".0\n", "\n").replace("-", "").split())
    # NaN and the infinities (a JSON extension some producers write) are no operand: read as words elsewhere
    return {json_exact.number_spelling(leaf).lstrip("-") for leaf in leaves if is_finite(leaf)}


def is_finite(number: object) -> bool:
    return number.is_finite() if isinstance(number, Decimal) else not isinstance(number, float) or math.isfinite(number)


_INTS_AND_FLOATS = frozenset({int, float})


def note_collection(members: list, is_list: bool, forms: Forms) -> None:
    """A container's members, when they make a collection: an array of numbers, or objects sharing keys."""
    if len(members) < 2:
        return
    first = type(members[0])
    if first is dict:
        _member_totals(members, forms)
    elif is_list and first in json_exact.NUMBER_TYPES:
        _array_total(members, forms)


def _array_total(array: list, forms: Forms) -> None:
    if json_exact.NUMBER_TYPES.issuperset(map(type, array)):
        forms.collections.append((array, None))


def _member_totals(members: list, forms: Forms) -> None:
    if not OBJECTS_ONLY.issuperset(map(type, members)):
        return
    for key, numbers in _numbers_by_key(members).items():
        if len(numbers) >= 2:
            forms.collections.append((numbers, key))  # spelled only if its total is asked for (evidence.totals)


class LeafReader(Protocol):
    """What walk hands a document's leaves to (reading's reader)."""

    forms: Forms
    options: ReadOptions

    def number(self, node: int | float | Decimal) -> None: ...

    def strings(self, strings: list[str]) -> None: ...


def walk(document: object, reader: LeafReader, *, totals: bool, strings_too: bool = True) -> None:
    """Index every key and leaf of a JSON document (explicit stack: documents can be deep)."""
    strings: list[str] = []
    stack: list[Any] = [document]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is dict:
            strings.extend(node)
            values = list(node.values())
            stack.extend(values)
            if totals:
                note_collection(values, False, reader.forms)
        elif kind is list:
            stack.extend(node)
            if totals:
                note_collection(node, True, reader.forms)
        elif kind is str:
            strings.append(node)
        elif kind is json_exact.Constant:
            reader.forms.plain.add(str(node))
        elif node is True or node is False:
            if reader.options.keep_words:
                reader.forms.plain.add("true" if node else "false")
        elif node is not None:
            reader.number(node)
    if strings_too:
        reader.strings(strings)
