"""The record an identifier identifies (verdict quality VI): the JSON object that holds it as a leaf.

"Swapping item 4410 for item 4417 costs $1,240.40 more": the two prices were read in the records of the
ids the answer names, though it writes neither. Their numbers are operands the answer names through the
ids, searched as the numbers it writes are (derive.named_formula), under the same chance bound.
"""

from __future__ import annotations

from decimal import Decimal

from grounding import json_exact
from grounding.core.text.normalise import normalise


def numbers_of_records(document: object, ids: frozenset[str]) -> set[Decimal]:
    """The number leaves of every object in document that holds one of ids (normalised) as a leaf, and of
    the objects inside it.

    >>> items = [{"item_id": "4410", "price": 2087.5}, {"item_id": "4417", "price": {"amount": 3327.9}}]
    >>> sorted(numbers_of_records({"items": items}, frozenset({"4417"})))
    [Decimal('3327.9')]
    """
    found: set[Decimal] = set()
    stack = [document]
    while stack:
        node = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        if isinstance(node, dict) and any(_names(leaf, ids) for leaf in children):
            found |= _numbers_in(node)
        stack.extend(child for child in children if isinstance(child, (dict, list)))
    return found


def _names(leaf: object, ids: frozenset[str]) -> bool:
    if isinstance(leaf, str):
        return normalise(leaf) in ids
    return json_exact.is_number(leaf) and json_exact.number_spelling(leaf) in ids


def _numbers_in(record: dict) -> set[Decimal]:
    """The number leaves of a record and of the objects inside it (not of its lists: those are other
    records)."""
    found: set[Decimal] = set()
    stack: list[dict] = [record]
    while stack:
        node = stack.pop()
        for leaf in node.values():
            if json_exact.is_number(leaf):
                found.add(abs(Decimal(json_exact.number_spelling(leaf))))
            elif isinstance(leaf, dict):
                stack.append(leaf)
    return found
