"""Counts a conversation states (SPEC §9.20): what a whole multiple ``k × x`` may take as its ``k``.

A multiple of a read number is only likelier than chance when the conversation says there are k of
something: ``3 passengers``, ``quantity: 3``, ``"nights": 3``, or a list of exactly three items under one
key. Any other small number is no count, so ``$2,700`` is not explained as ``9 × 300`` just because 300
was read.
"""

from __future__ import annotations

import re

from grounding.core.text.units import PEOPLE

SMALLEST, LARGEST = 2, 12  # the factors §9.7 tries

_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_DIGITS = {str(k): k for k in range(SMALLEST, LARGEST + 1)}
_COUNTS = {**_WORDS, **_DIGITS}
_TIMES = {**{f"{k}x": v for k, v in _DIGITS.items()}, **{f"x{k}": v for k, v in _DIGITS.items()},
          **{f"{k}×": v for k, v in _DIGITS.items()}, **{f"×{k}": v for k, v in _DIGITS.items()}}
_COUNTS_AND_TIMES = frozenset(_COUNTS) | frozenset(_TIMES)
_MARKS = {"x", "×"}
_COUNT_LABELS = frozenset({"quantity", "qty", "count"})
# Words as the text runs them, a number's point, comma, colon, slash or dash kept in it (3.5, 12:30 and
# 1/2 are no counts); a sentence's punctuation after a word is stripped where a word is looked at.
_WORD = re.compile(r"[\w.,:/×-]+")
_PUNCTUATION = ".,:;"
_TO_SPACE = str.maketrans({i: " " for i in range(128) if not (chr(i).isalnum() or chr(i) in "_.,:/-")})  # (ASCII)
_COUNT_KEYS = ("quantity", "qty", "count", "num", "number", "passengers", "guests", "nights", "adults",
               "children", "tickets", "seats", "items", "units", "people", "persons", "travelers", "travellers",
               "rooms", "pieces", "days", "weeks", "months", "bags", "members")


def counts_in_text(text: str) -> set[int]:
    """The counts 2–12 text states: a number before a plural noun (one word may stand between: "three adult
    tickets"), a number with a multiplication sign ("5x", "x 3"), or after "quantity", "qty", "count".
    The text is cut into words once, in C; only the words that are a count are looked at.

    >>> sorted(counts_in_text("Book 3 passengers, two adult tickets, qty: 4, 5x, 7 of them, at 12:30, 3.5 nights"))
    [2, 3, 4, 5]
    """
    lowered = text.lower()
    words = lowered.translate(_TO_SPACE).split() if lowered.isascii() else _WORD.findall(lowered)
    found = set()
    hits = [at for at, word in enumerate(words) if word.rstrip(_PUNCTUATION) in _COUNTS_AND_TIMES]
    for at in hits:
        word = words[at]
        bare = word.rstrip(_PUNCTUATION)
        if bare in _TIMES:
            found.add(_TIMES[bare])
            continue
        k = _COUNTS[bare]
        after = [w.rstrip(_PUNCTUATION) for w in words[at + 1 : at + 3]]
        before = words[at - 1].rstrip(_PUNCTUATION + "=") if at else ""
        if bare == word and after and (after[0] in _MARKS or _is_counted(after[0])
                                       or (len(after) == 2 and _is_counted(after[1]))):
            found.add(k)
        elif before in _COUNT_LABELS or before in _MARKS:
            found.add(k)
    return found


def _is_counted(word: str) -> bool:
    """A noun things are counted in: a plural, or a word for people."""
    return (len(word) >= 3 and word.endswith("s") and word.isalpha()) or word in PEOPLE


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


# Counts said in words that only an announced computation takes as a factor (§9.23): "weekly" is seven days,
# "both" two of something. A number word stands for its count wherever it is written.
_COUNT_IN_WORDS = re.compile(
    r"\b(?:(?P<week>weekly|a\s+week|per\s+week|each\s+week|seven\s+days)|(?P<fortnight>fortnight(?:ly)?)"
    r"|(?P<dozen>dozen)|(?P<pair>both|a\s+pair|twice)"
    r"|(?P<number>two|three|four|five|six|seven|eight|nine|ten|eleven|twelve))\b",
    re.IGNORECASE,
)
_IN_WORDS = {"week": 7, "fortnight": 14, "dozen": 12, "pair": 2}


def counts_in_words(text: str) -> set[int]:
    """The counts text states in words, for an announced computation (§9.23): ``a week`` and ``weekly`` are
    7, ``a fortnight`` 14, ``a dozen`` 12, ``both`` and ``a pair`` 2, and each number word two to twelve.

    >>> sorted(counts_in_words("Weekly cost for both rooms, three nights, a dozen eggs, 5 days"))
    [2, 3, 7, 12]
    """
    found = set()
    for match in _COUNT_IN_WORDS.finditer(text):
        group = match.lastgroup or ""
        found.add(_WORDS[match.group().lower()] if group == "number" else _IN_WORDS[group])
    return found
