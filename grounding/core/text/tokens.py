"""Cut text into tokens (SPEC §3.1, §3.2).

A token is a maximal run of letters, combining marks, decimal digits of any
script and the characters ``: _ - / . , % + @ # $``. Scripts written without
spaces (Han, kana, Thai, …) separate tokens like a space would.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import regex

from grounding.core.text.patterns import LazyPattern

_TOKEN_RUN = LazyPattern(
    regex.compile, r"[[\p{L}\p{M}\p{Nd}:_\-/.,%+@#$]"
    r"--[\p{Han}\p{Hiragana}\p{Katakana}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}]]+",
    regex.V1,
)
# For ASCII text (most tool output) the same runs come faster from mapping every separator to a space
# and splitting: one pass in C instead of a regex match per run.
ASCII_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789:_-/.,%+@#$")
# The separators outside ASCII that real text holds most (typographic quotes and dashes, spaces, bullets,
# arrows, signs): mapped to a space as well, a text whose only other characters are ASCII stays on the fast
# path, and its tokens are the pattern's (a property test holds them equal).
COMMON_SEPARATORS = (
    "\u00a0\u2002\u2003\u2009\u200a\u200b\u202f\u205f\u3000"  # spaces
    "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"  # hyphens, dashes, minus
    "\u2018\u2019\u201a\u201c\u201d\u201e\u2032\u2033\u00ab\u00bb\u2039\u203a"  # quotes, primes
    "\u2026\u2022\u00b7\u25cf\u25aa\u25e6\u2023\u2043"  # ellipsis, bullets
    "\u2190\u2192\u2191\u2193\u2194\u21d2\u27a1"  # arrows
    "\u00d7\u00f7\u00b1\u2248\u2264\u2265\u00b0\u00a7\u00b6\u00a9\u00ae\u2122"  # signs
    "\u20ac\u00a3\u00a5\u20b9\u00a2"  # currency (only $ is a token character)
    "\u2713\u2714\u2705\u274c\u2b50"  # check marks, crosses, stars
)
_ASCII_SEPARATORS_TO_SPACE = str.maketrans(
    {**{i: " " for i in range(128) if chr(i) not in ASCII_TOKEN_CHARS}, **{ord(c): " " for c in COMMON_SEPARATORS}}
)
_COMMON_TO_SPACE = str.maketrans({ord(c): " " for c in COMMON_SEPARATORS})
# In ASCII text, the runs holding a digit: the only tokens a value can be when no shape is declared (§4.1).
# Tried only where a run starts, and up to its first digit without backtracking: a word without one then
# costs one pass, not one per letter.
_ASCII_RUN_WITH_DIGIT = re.compile(r"(?<![A-Za-z0-9:_\-/.,%+@#$])[A-Za-z:_\-/.,%+@#$]*+[0-9][A-Za-z0-9:_\-/.,%+@#$]*")
_HAS_DIGIT = re.compile(r"\d")
# An ASCII run whose only commas group one number the usual way ($45,789.43): one token, as _split_commas
# finds, without its patterns (answers write most amounts so).
_ONE_GROUPED_NUMBER = re.compile(r"[^,]*(?<![0-9])[0-9]{1,3}(?:,[0-9]{3})+(?![0-9])[^,]*")
# A comma splits unless it stands between two digits.
_LONE_COMMA = LazyPattern(regex.compile, r"(?<!\p{Nd}),|,(?!\p{Nd})")
# only from the start of a run of digits, without backtracking into it: a match can begin nowhere else, and
# trying every digit of a 100,000-digit run took 35 s
_DIGIT_COMMA_RUN = LazyPattern(regex.compile, r"(?<!\p{Nd})\p{Nd}++(?:,\p{Nd}++)+")
_VALID_GROUPING = LazyPattern(regex.compile, r"\p{Nd}{1,3}(?:,\p{Nd}{3})+|\p{Nd}{1,2}(?:,\p{Nd}{2})*,\p{Nd}{3}")


@dataclass(frozen=True, slots=True)
class Token:
    """A token and where it stands in the text it was cut from."""

    text: str
    start: int
    end: int


def tokens(text: str) -> Iterator[Token]:
    """Yield the tokens of text, in order.

    >>> [t.text for t in tokens("| **fc1/3** | 41,200 | 5107,5108 | fc1/3,fc1/4")]
    ['fc1/3', '41,200', '5107', '5108', 'fc1/3', 'fc1/4']
    """
    for run in _TOKEN_RUN.finditer(text):
        word = run.group()
        if "," not in word:
            yield Token(word, run.start(), run.end())
            continue
        yield from _split_commas(word, run.start())


def tokens_with_digits(text: str) -> list[tuple[str, int, int]]:
    """(token, start, end) for the tokens of text that hold a decimal digit, in order: tokens(text) without
    the words, as plain tuples in a list (an answer's every value passes through here).

    >>> [t for t, _, _ in tokens_with_digits("Order ORD-7 ships, per 41,200 and abc,12 today")]
    ['ORD-7', '41,200', '12']
    """
    if not text.isascii():
        mapped = text.translate(_COMMON_TO_SPACE)  # one character for one: offsets stay
        if not mapped.isascii():
            return [(token.text, token.start, token.end) for token in tokens(text) if _HAS_DIGIT.search(token.text)]
        text = mapped  # (a token holds none of the characters mapped, so its text is the same)
    found = []
    for run in _ASCII_RUN_WITH_DIGIT.finditer(text):
        word = run[0]
        if "," not in word or _ONE_GROUPED_NUMBER.fullmatch(word) is not None:
            found.append((word, run.start(), run.end()))
        else:
            pieces = _split_commas(word, run.start())
            found.extend((t.text, t.start, t.end) for t in pieces if _HAS_DIGIT.search(t.text))
    return found


def token_texts(text: str) -> list[str]:
    """The tokens of text as plain strings (the evidence side needs no offsets)."""
    found = []
    for run in _TOKEN_RUN.finditer(text):
        word = run.group()
        if "," in word:
            found.extend(split_run(word))
        else:
            found.append(word)
    return found


def runs(text: str, *, fast: bool = True) -> set[str]:
    """The distinct runs of token characters in text; a run holding a comma may be several tokens (split_run).

    >>> sorted(runs("fc1/3,fc1/4 | 41,200 | fc1/3"))
    ['41,200', 'fc1/3', 'fc1/3,fc1/4']
    """
    if fast:
        mapped = text.translate(_ASCII_SEPARATORS_TO_SPACE)
        if mapped.isascii():
            return set(mapped.split())
    return set(_TOKEN_RUN.findall(text))


def split_run(run: str) -> list[str]:
    """The tokens of one run of token characters (§3.2: commas).

    >>> split_run("fc1/3,fc1/4"), split_run("41,200"), split_run("1,234,5678")
    (['fc1/3', 'fc1/4'], ['41,200'], ['1', '234', '5678'])
    """
    if "," not in run:
        return [run]
    return [token.text for token in _split_commas(run, 0)]


def _split_commas(word: str, offset: int) -> Iterator[Token]:
    cuts = {match.start() for match in _LONE_COMMA.finditer(word)}
    for run in _DIGIT_COMMA_RUN.finditer(word):
        if not _VALID_GROUPING.fullmatch(run.group()):
            cuts.update(run.start() + i for i, ch in enumerate(run.group()) if ch == ",")
    start = 0
    for cut in sorted(cuts) + [len(word)]:
        if cut > start:
            yield Token(word[start:cut], offset + start, offset + cut)
        start = cut + 1
