"""Spell a token the one way both sides compare it (SPEC §3.3–§3.5).

The same function runs on answer tokens and on everything the evidence index
reads, so a difference of spelling never decides a verdict.
"""

from __future__ import annotations

import re
import string
import unicodedata
from decimal import Decimal
from functools import lru_cache

import regex

from grounding.core.text.units import GROUP_MARKS, pointed_numbers, scale_word_after, writes_pointed

LEADING_MARKS = "$#@+'\"`([{<"  # what normalising strips before a token
TRAIL = ".,;:!?%'\"`)]}>-"  # stripped from a token's end; a hyphen ends no value: "in 2026-" is the year
_SIGNED_CURRENCY = re.compile(r"^([-+])[$€£¥₹]")
_NUMBER = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})*,\d{3}|\d+)(?:\.\d+)?")
# _NUMBER without a comma, which is its last branch only: most tokens tried hold none, and this one fails fast
_UNGROUPED_NUMBER = re.compile(r"[-+]?\d++(?:\.\d++)?+")
_NON_ASCII_DIGIT = regex.compile(r"[^\x00-\x7f]")
_DIGIT = re.compile(r"\d")
_SPACED_NUMBER = re.compile(r"\D{0,3}\d{1,3}(?: \d{3})+(?:,\d+)?\s?\D{0,3}")  # a value's text: 1 234,56 €
_DECIMAL_COMMA = re.compile(r"(?<![\d,.])(\d{1,3}),(\d{1,2})(?![\d,])")  # the comma of 1,5 and of €12,50
_WRITTEN_NUMBER = regex.compile(r"\d(?:[\d,]*)(?:\.(\d+))?")  # its decimals: see decimals_written
_SIGNS = ("-", "+")
_SCALE_SUFFIX = re.compile(r"(bn?|tn?)(?![A-Za-z0-9])", re.IGNORECASE)  # see units.scale_suffix
_NUMBER_STARTS = frozenset("+-0123456789")  # what a text _NUMBER matches can begin with (digits are folded)


def fold_digits(text: str) -> str:
    """Write decimal digits of every script as ASCII digits (``۳۴`` → ``34``)."""
    if text.isascii():
        return text
    return _NON_ASCII_DIGIT.sub(_ascii_digit, text)


def _ascii_digit(match: regex.Match[str]) -> str:
    char = match.group()
    value = unicodedata.decimal(char, None)
    return char if value is None else str(value)


@lru_cache(maxsize=1 << 14)
def normalise(token: str) -> str:
    """Normalise one token.

    >>> [normalise(t) for t in ["$1,234,567.50", "2048.0", "-$1,475.00", "(FC1/3)", "007", "+5", "2,000+"]]
    ['1234567.5', '2048', '-1475', 'fc1/3', '007', '5', '2000']
    >>> normalise("930-1,076"), normalise("1,930-2,076.5"), normalise("1,2-3")
    ('930-1076', '1930-2076.5', '1,2-3')
    >>> normalise(":8080"), normalise("2026-"), normalise(":ets.insert/2")
    ('8080', '2026', ':ets.insert/2')
    """
    text = fold_digits(token.lower()).strip()
    text = text.lstrip(LEADING_MARKS).rstrip(TRAIL)
    if text[:1] == ":" and text[1:2].isdigit():  # ":8080", "at :1712000000": a separator, not the value's
        text = text[1:]
    first = text[:1]
    if first in _SIGNS:
        signed = _SIGNED_CURRENCY.match(text)
        if signed:
            text = ("-" if signed.group(1) == "-" else "") + text[2:]
            first = text[:1]
    return _spelled(text) if first and first in _NUMBER_STARTS else text


_GROUPED = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_GROUPED_RANGE = re.compile(rf"{_GROUPED}-{_GROUPED}")


def _spelled(text: str) -> str:
    """A stripped token that may be a number (it begins with a digit or sign): spelled, when it is one.
    A "+" after it says "or more" (``2,000+``, ``10k+``): the number is what it states."""
    if text[-1:] == "+" and len(text) > 1:
        text = text[:-1]
    if (_NUMBER if "," in text else _UNGROUPED_NUMBER).fullmatch(text):
        return spell_number(text)
    # a range of grouped numbers (930-1,076) is the range of the numbers (930-1076), as its ends are read
    return text.replace(",", "") if "," in text and _GROUPED_RANGE.fullmatch(text) else text


def normalise_once(token: str) -> str:
    """normalise(token), told at once for the spellings most answer values have: ASCII beginning with a
    letter or a digit. An answer's values are mostly written nowhere else, so normalise's memo mostly
    misses on them, and a miss costs more than these tests. Measured (with classify_once): without the two
    the 50 MB benchmark's peak grows from 36.6 to 44.2 MB, memos filled with values read once, for about
    1% less CPU; a property test holds it equal to normalise.

    >>> [normalise_once(t) for t in ["0042", "0000", "ORD-7.", "$1,234.50"]]
    ['0042', '0', 'ord-7', '1234.5']
    """
    if token.isascii():
        if token.isdigit():
            return token if token.strip("0") else "0"  # spell_number keeps zero padding, not zeros alone
        first = token[:1]
        if first in ASCII_LETTERS:
            return token.lower().strip().rstrip(TRAIL)  # nothing to strip before a letter; no number
        if first in ASCII_DIGITS:  # nothing to strip before a digit, and no sign: a number, or as it is
            return _spelled(token.lower().strip().rstrip(TRAIL))
    return normalise(token)


ASCII_LETTERS = frozenset(string.ascii_letters)
ASCII_DIGITS = frozenset(string.digits)


def spell(number: Decimal) -> str:
    """Spell a Decimal the way the index spells numbers."""
    return spell_number(format(number, "f"))


def exponent_of(magnitude: Decimal) -> int:
    """The exponent of a finite number, normalised: ``1.50`` -> -1, ``1500`` -> 2."""
    exponent = magnitude.normalize().as_tuple().exponent
    assert isinstance(exponent, int)  # (only NaN and infinities have another; no magnitude read is one)
    return exponent


def spell_number(text: str) -> str:
    """Spell a number (grouping commas allowed) canonically, keeping zero padding.

    >>> [spell_number(t) for t in ["3.10", "-0", "00027.50", "0000", "184467440737095516150", "+5"]]
    ['3.1', '0', '00027.5', '0', '184467440737095516150', '5']
    """
    plain = text.replace(",", "")
    sign = ""
    if plain[0] in "+-":
        sign, plain = ("-" if plain[0] == "-" else ""), plain[1:]
    whole, _, fraction = plain.partition(".")
    fraction = fraction.rstrip("0")
    if len(whole) >= 2 and whole[0] == "0" and whole.strip("0"):
        spelled = whole + ("." + fraction if fraction else "")  # zero padding is kept
    else:
        whole = whole.lstrip("0") or "0"
        spelled = whole + ("." + fraction if fraction else "")
    if spelled == "0" or not spelled.strip("0."):
        return "0"
    return sign + spelled


def canonical(spelled: str) -> str:
    """The canonical number of a spelled number: zero padding dropped.

    >>> canonical("00027.5"), canonical("-007"), canonical("41200")
    ('27.5', '-7', '41200')
    """
    sign = "-" if spelled.startswith("-") else ""
    body = spelled.lstrip("-")
    whole, dot, fraction = body.partition(".")
    whole = whole.lstrip("0") or "0"
    result = whole + dot + fraction
    return "0" if result == "0" else sign + result


def is_number(value: str) -> bool:
    """True when a normalised value is a plain number."""
    return "," not in value and _UNGROUPED_NUMBER.fullmatch(value) is not None


@lru_cache(maxsize=1 << 14)
def lookup_forms(value: str) -> tuple[str, ...]:
    """Every spelling a normalised value matches through (§3.5).

    >>> lookup_forms("0xef0101"), lookup_forms("00027"), lookup_forms("fc1/3")
    (('0xef0101', 'ef0101'), ('00027', '27'), ('fc1/3',))
    """
    forms = [value]
    if value.startswith("0x") and len(value) > 2:
        forms.append(value[2:])
    if is_number(value):
        plain = canonical(value)
        if plain != value:
            forms.append(plain)
    return tuple(forms)


def digit_count(value: str) -> int:
    """How many digits a normalised value holds."""
    return len(_DIGIT.findall(value))


# a mark of units.GROUP_MARKS inside a number (the mark first: a search skips to the few places one stands, then
# looks around it)
_MARK_IN_A_NUMBER = re.compile(f"[{GROUP_MARKS}](?<=\\d[{GROUP_MARKS}])(?=\\d{{3}})")


def groups_thousands(text: str) -> bool:
    """True when text writes a number whose thousands a mark of units.GROUP_MARKS groups (``41 200``): one search, in
    C, where most texts hold none (an apostrophe in prose is between letters)."""
    return _MARK_IN_A_NUMBER.search(text) is not None


def without_group_marks(text: str) -> str:
    """text with every mark that groups a number's thousands taken out (``41 200`` is ``41200``)."""
    return _MARK_IN_A_NUMBER.sub("", text)


def decimals_written(text: str) -> int:
    """How many decimals a number was written with (``$3,617.00`` → 2).

    A scale suffix or word counts as places before the point: ``$577B`` is written to the billion (-9).

    >>> [decimals_written(text) for text in ["$3,617.00", "48.250", "2,184", "$400.4B", "$148.51 billion"]]
    [2, 3, 0, -8, -7]
    >>> decimals_written("41\u202f200,60"), decimals_written("1'234.5"), decimals_written("1,5 Millionen")
    (2, 1, -5)
    >>> decimals_written("1 234,56 €"), decimals_written("1 234,57"), decimals_written("41 900")
    (2, 2, 0)
    """
    folded = fold_digits(text)
    if groups_thousands(folded):  # 41 200,60 (U+202F): its groups joined, its comma the point
        folded = without_group_marks(folded).replace(",", ".")
    elif writes_pointed(folded) and pointed_numbers(folded):  # 1.234,56: its comma the point
        folded = folded.replace(".", "").replace(",", ".")
    elif _SPACED_NUMBER.fullmatch(folded):  # 1 234,56 (€): a candidate spaced so is one number
        folded = folded.replace(" ", "").replace(",", ".")
    elif "," in folded and "." not in folded:  # 1,5 Millionen: a comma before one or two digits is a point
        folded = _DECIMAL_COMMA.sub(r"\1.\2", folded, count=1)
    match = _WRITTEN_NUMBER.search(folded)
    if match is None:
        return 0
    places = len(match.group(1)) if match.group(1) is not None else 0
    suffix = _SCALE_SUFFIX.match(folded, match.end())
    if suffix:
        return places - (9 if suffix.group(1).lower().startswith("b") else 12)
    word = scale_word_after(folded, match.end())
    return places - word[0] if word else places
