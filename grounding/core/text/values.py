"""Which normalised tokens are values (SPEC §4.1), as one function both sides share.

The answer side asks it of every token (with the run's exemptions and
shapes); the evidence side asks it of the parts of identifiers (§9.4) and the
parts of composites (§9.13), with the digit bar alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from functools import lru_cache

from grounding.core.text.dates import range_ends as dated_range_ends
from grounding.core.text.figures import is_measured
from grounding.core.text.normalise import ASCII_DIGITS, ASCII_LETTERS, digit_count, spell_number
from grounding.core.text.units import number_with_words, scale_suffix, scaled, split_unit

# The standard engine: these run on every distinct token and part, and it is the faster one here.
# Two or three plain numbers joined by "/": a rating, score, fraction or reading when every part is short (§9.16)
_RATIO = re.compile(r"\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?){1,2}")
COMPOSITE_JOINER = re.compile(r"[+/]")  # what joins the parts of a composite value (§9.13)
_RANGE = re.compile(r"(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)")
_IDENTIFIER_MARK = re.compile(r"[^\W\d_]|[:_\-/.]")
_HAS_DIGIT = re.compile(r"\d")
_PLAIN_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")  # a number as normalise spells it: a sign, digits, a point



# A number of more digits is judged as written, like an identifier: no sign, rounding or arithmetic reads it
# (a million-digit run would overflow Decimal arithmetic, and its neighbours are too many to try)
LONGEST_NUMBER = 64


class Kind(Enum):
    NUMBER = "number"
    RANGE = "range"
    IDENTIFIER = "identifier"
    DECLARED = "declared"


# The members as plain names, for code run per value (see grounding.model: a member's look-up is slow in 3.11).
NUMBER, RANGE, IDENTIFIER, DECLARED = Kind.NUMBER, Kind.RANGE, Kind.IDENTIFIER, Kind.DECLARED


@dataclass(slots=True)  # not frozen: made per distinct token an answer writes, and a frozen __init__ costs ~6x
class Value:
    """A token that is a value: its normalised spelling, shape label and kind."""

    value: str
    shape: str
    kind: Kind


def classify(value: str, min_digits: int) -> Value | None:
    """Apply §4.1's tests in order to a normalised token; None when it is not a value (a run's declared
    shapes and exemptions come first: grounding.core.settings.Settings.classify).

    >>> [getattr(classify(v, 4), "value", None) for v in ["41200", "512", "16384mb", "24/7", "fc1/3", "po1", "10-14"]]
    ['41200', None, '16384', None, 'fc1/3', None, None]
    """
    return classify_plainly(value, min_digits)[0]


@lru_cache(maxsize=1 << 14)
def classify_plainly(value: str, min_digits: int, figures: bool = False) -> tuple[Value | None, bool]:
    """§4.1's tests that no option changes, memoised: answers repeat their values. Also whether the value
    is a number read off a unit (whose exemption the caller decides). figures: a number with a unit of
    measure (``6.3tb``, ``53.2pct``) is a value whatever its length."""
    if not (value[:1].isdecimal() or _HAS_DIGIT.search(value)):  # a decimal first is a digit (\d), told at once
        return None, False
    if not value[0].isdigit() and value[0] != "-":
        return _identifier(value), False  # ratios, ranges, units and numbers all begin with a digit or a sign
    if _PLAIN_NUMBER.fullmatch(value):
        return _number(value, min_digits), False  # most values; no ratio, range or unit is a plain number
    if _RATIO.fullmatch(value) and all(digit_count(part) < min_digits for part in value.split("/")):
        return None, False  # 3.5/5, 120/80: prose; 2048/4096 is a value (§9.16)
    is_range = _range_decision(value, min_digits)
    if is_range is not None:
        return (Value(value, "identifier", RANGE) if is_range else None), False
    if dated_range_ends(value) is not None:
        return Value(value, "identifier", RANGE), False  # 09:00-09:30, 2025-03-07/08 (§9.15)
    suffixed = scale_suffix(value)
    if suffixed is not None and len(suffixed[0]) <= LONGEST_NUMBER:  # $577B: 577 billion, grounded by what
        return _number(scaled(*suffixed), min_digits), False  # rounds to it (§9.3)
    number = split_unit(value)
    if number is not None:
        found = _number(spell_number(number), 1 if figures and is_measured(value) else min_digits)
        return found, found is not None
    number = number_with_words(value)
    if number is not None:
        # "a 188-year-old tree": the words say the number is a claim, so it is examined whatever its length
        return _number(spell_number(number), 0), True
    return _identifier(value), False


def classify_once(value: str, min_digits: int) -> Value | None:
    """classify_plainly(value, min_digits)[0] for a value holding a digit (as every value an answer writes
    does when no shape is declared), told at once for values of ASCII digits, ASCII values beginning with a
    letter, plain numbers, times and addresses (see normalise_once: the memo mostly misses on an answer's
    values, and filling it costs 6 MB of the 50 MB benchmark's peak)."""
    if value.isascii():
        if value.isdigit():
            return _number(value, min_digits)
        first = value[:1]
        if first in ASCII_LETTERS:
            return _identifier(value)
        if first in ASCII_DIGITS:
            if _PLAIN_NUMBER.fullmatch(value):
                return _number(value, min_digits)  # a number: no ratio, range or unit (see classify_plainly)
            if (":" in value or value[-1] in ASCII_DIGITS) and "-" not in value and "/" not in value:
                # a time, an address: a ratio holds "/", a range "-", a unit ends with a letter
                return _identifier(value)
    return classify_plainly(value, min_digits)[0]


def _identifier(value: str) -> Value | None:
    # an ASCII letter first is the mark most identifiers show, told without the pattern
    if len(value) >= 4 and (value[0] in ASCII_LETTERS or _IDENTIFIER_MARK.search(value)):
        return Value(value, "identifier", IDENTIFIER)
    return None





def range_ends(value: str) -> tuple[str, str] | None:
    """The two ends of a range value (``1100-1180``, ``09:00-09:30``, ``2025-03-07/08``), or None."""
    match = _RANGE.fullmatch(value)
    return dated_range_ends(value) if match is None else (match.group(1), match.group(2))


def _range_decision(value: str, min_digits: int) -> bool | None:
    """True: a range value; False: a range that is prose; None: not a range (N ≥ M, or no N-M)."""
    match = _RANGE.fullmatch(value)
    if match is None:
        return None
    low, high = match.groups()
    if Decimal(low) >= Decimal(high):
        return None
    return digit_count(low) >= min_digits or digit_count(high) >= min_digits


def _number(spelled: str, min_digits: int) -> Value | None:
    digits = digit_count(spelled)
    if digits > LONGEST_NUMBER:
        return Value(spelled, "identifier", IDENTIFIER)  # a string of digits no one computes with: as written
    if digits >= min_digits:
        return Value(spelled, "number", NUMBER)
    return None

