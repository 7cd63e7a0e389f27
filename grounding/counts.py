"""Counts a conversation states (SPEC §9.20): what a whole multiple ``k × x`` may take as its ``k``.

A multiple of a read number is only likelier than chance when the conversation says there are k of
something: ``3 passengers``, ``quantity: 3``, ``"nights": 3``, or a list of exactly three items under one
key. Any other small number is no count, so ``$2,700`` is not explained as ``9 × 300`` just because 300
was read.
"""

from __future__ import annotations

import regex

from grounding.patterns import LazyPattern

SMALLEST, LARGEST = 2, 12  # the factors §9.7 tries

_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_NUMBER = r"(?P<k>1[0-2]|[2-9]|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
# "3 passengers", "three adult tickets", "2 x", "x 3": a number before a plural noun (one word may stand
# between), or a multiplication sign beside it; "quantity: 3", "qty=3", "number of rooms: 3".
_COUNTED = LazyPattern(
    regex.compile,
    rf"(?<![\p{{L}}\p{{Nd}}.,:/-]){_NUMBER}(?:\s+(?:[\p{{L}}-]+\s+)?(?P<noun>\p{{L}}+s|people|persons|pax|"
    rf"children|men|women|staff|crew)\b|\s*[x×](?!\p{{L}}))"
    rf"|(?:[x×]\s*)(?P<k2>1[0-2]|[2-9])(?![\p{{Nd}}.,])"
    rf"|\b(?:quantity|qty|count|number\s+of\s+\p{{L}}+|num_\p{{L}}+)\W{{1,3}}(?P<k3>1[0-2]|[2-9])(?![\p{{Nd}}.])",
    regex.IGNORECASE,
)
_COUNT_KEYS = ("quantity", "qty", "count", "num", "number", "passengers", "guests", "nights", "adults",
               "children", "tickets", "seats", "items", "units", "people", "persons", "travelers", "travellers",
               "rooms", "pieces", "days", "weeks", "months", "bags", "members")


def counts_in_text(text: str) -> set[int]:
    """The counts 2–12 text states.

    >>> sorted(counts_in_text("Book 3 passengers, two adult tickets, qty: 4, 5x, 7 of them, at 12:30"))
    [2, 3, 4, 5]
    """
    found = set()
    for match in _COUNTED.finditer(text):
        k = match.group("k") or match.group("k2") or match.group("k3")
        found.add(_WORDS.get(k.lower()) or int(k))
    return found


def counts_in_document(document: object) -> set[int]:
    """The counts 2–12 a JSON (or Python) document states: a count-named key holding k, or a list of exactly
    k items under one key.

    >>> sorted(counts_in_document({"qty": 4, "legs": [{"a": 1}, {"a": 2}, {"a": 3}], "rate": 7, "x": [1]}))
    [3, 4]
    """
    found: set[int] = set()
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, child in node.items():
                if isinstance(child, list):
                    if SMALLEST <= len(child) <= LARGEST:
                        found.add(len(child))
                    stack.append(child)
                elif isinstance(child, dict):
                    stack.append(child)
                elif type(child) is int and SMALLEST <= child <= LARGEST and _names_a_count(str(key)):
                    found.add(child)
        elif isinstance(node, list):
            stack.extend(child for child in node if isinstance(child, (dict, list)))
    return found


def _names_a_count(key: str) -> bool:
    lowered = key.lower()
    return any(lowered == name or lowered.startswith((name + "_", "num_", "number_of_")) or lowered.endswith(
        ("_" + name, "_count")) for name in _COUNT_KEYS)
