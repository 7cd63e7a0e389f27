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

# The letters, marks and digits a token holds: of every script but those written without spaces.
_TOKEN_LETTERS = r"[\p{L}\p{M}\p{Nd}]--[\p{Han}\p{Hiragana}\p{Katakana}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}]"
_TOKEN_RUN = LazyPattern(regex.compile, rf"[[{_TOKEN_LETTERS}]:_\-/.,%+@#$]+", regex.V1)
ASCII_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789:_-/.,%+@#$")
_ASCII_SEPARATORS = "".join(chr(code) for code in range(128) if chr(code) not in ASCII_TOKEN_CHARS)
_ASCII_SEPARATORS_TO_SPACE = str.maketrans({separator: " " for separator in _ASCII_SEPARATORS})
# ... as bytes: UTF-8 writes every character outside ASCII with bytes above 127, so mapping a text's ASCII
# bytes maps its ASCII characters alone (a lone surrogate, which JSON may write, passes through)
_ASCII_SEPARATOR_BYTES_TO_SPACE = bytes.maketrans(_ASCII_SEPARATORS.encode(), b" " * len(_ASCII_SEPARATORS))
# The fast path: separated() turns every separator outside ASCII a text holds into a space, one character
# for one (offsets stay); then every character that is not an ASCII separator is a token character, so a
# token is a run of them, found in one C pass (and, for the runs alone, by mapping the ASCII separators to
# spaces and splitting). A separator outside ASCII is what _TOKEN_LETTERS does not hold; a property test
# holds the tokens equal to _TOKEN_RUN's over the real corpora and random Unicode text. The fast path it
# replaces mapped a list of typographic separators and sent a text with any other character (a CJK word,
# an emoji's variation selector) to the regex module: dev2.jsonl took 0.68 s of CPU, now 0.45 s.
_NOT_ASCII_SEPARATOR = "[^" + re.escape(_ASCII_SEPARATORS) + "]"
_RUN = re.compile(_NOT_ASCII_SEPARATOR + "+")
# Every character outside ASCII that is no token character (one pass of the regex module: 6 ms for the
# 1.2 MB of dev2.jsonl's texts that hold one).
_NON_ASCII_SEPARATOR = LazyPattern(regex.compile, rf"[[^\x00-\x7f]--[{_TOKEN_LETTERS}]]", regex.V1)


def unescaped(text: str) -> str:
    r"""text with the escaped line breaks and tabs of JSON or a repr written into it (``\n``) as spaces, one
    character for one (offsets stay): a tool that prints a document inside its text (MCP's
    ``TextContent(text='…')``), or an answer that embeds one, glues an escape's letter to the next token,
    so ``\nG101`` would be read as ``nG101``. Both sides read text through it. (A backslash left before
    an escape, ``\\n``, is a separator as any.)

    >>> unescaped(r"train\nG101(x)\\tG103")
    'train  G101(x)\\  G103'
    """
    if "\\" not in text:
        return text
    return text.replace("\\n", "  ").replace("\\t", "  ").replace("\\r", "  ")


def separated(text: str) -> str:
    """text with every separator outside ASCII replaced by a space, one character for one.

    >>> separated("在庫 “ORD-7” ½ ë")
    '    ORD-7    ë'
    """
    return text if text.isascii() else _NON_ASCII_SEPARATOR.sub(" ", text)


# In a separated text, the runs holding a digit: the only tokens a value can be when no shape is declared
# (§4.1). Tried only where a run starts, and up to its first digit without backtracking: a word without one
# then costs one pass, not one per letter.
_RUN_WITH_DIGIT = re.compile(f"(?<!{_NOT_ASCII_SEPARATOR})(?:(?!\\d){_NOT_ASCII_SEPARATOR})*+\\d{_NOT_ASCII_SEPARATOR}*")
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
    for run in _RUN.finditer(separated(text)):
        start, end = run.span()
        word = run[0]  # separated() changed no token character
        if "," not in word:
            yield Token(word, start, end)
            continue
        yield from _split_commas(word, start)


def tokens_with_digits(text: str) -> list[tuple[str, int, int]]:
    """(token, start, end) for the tokens of text that hold a decimal digit, in order: tokens(text) without
    the words, as plain tuples in a list (an answer's every value passes through here).

    >>> [t for t, _, _ in tokens_with_digits("Order ORD-7 ships, per 41,200 and abc,12 today")]
    ['ORD-7', '41,200', '12']
    """
    found = []
    for run in _RUN_WITH_DIGIT.finditer(separated(text)):
        start, end = run.span()
        word = run[0]
        if "," not in word or _ONE_GROUPED_NUMBER.fullmatch(word) is not None:
            found.append((word, start, end))
        else:
            pieces = _split_commas(word, run.start())
            found.extend((t.text, t.start, t.end) for t in pieces if _HAS_DIGIT.search(t.text))
    return found


def token_start(text: str, at: int, start: int = 0) -> int:
    """Where the token that text[at] is in begins (at, where a token begins or between tokens), no sooner than
    start.

    >>> token_start("on 2025-03-17 März", 11), token_start("on 2025-03-17 März", 3), token_start("a b", 1)
    (3, 3, 1)
    """
    if at >= len(text) or not in_a_token(text[at]):
        return at
    while at > start and in_a_token(text[at - 1]):
        at -= 1
    return at


def in_a_token(character: str) -> bool:
    """True when character is one a token holds (see separated)."""
    # (outside ASCII, what separated() keeps: letters, marks and digits, but of the scripts written without spaces)
    return character in ASCII_TOKEN_CHARS or not (character.isascii() or separated(character) == " ")


def token_texts(text: str) -> list[str]:
    """The tokens of text as plain strings (the evidence side needs no offsets)."""
    found = []
    for word in _RUN.findall(separated(text)):
        if "," in word:
            found.extend(split_run(word))
        else:
            found.append(word)
    return found


def runs(text: str) -> set[str]:
    """The distinct runs of token characters in text; a run holding a comma may be several tokens (split_run).

    >>> sorted(runs("fc1/3,fc1/4 | 41,200 | fc1/3"))
    ['41,200', 'fc1/3', 'fc1/3,fc1/4']
    """
    if text.isascii():
        return set(text.translate(_ASCII_SEPARATORS_TO_SPACE).split())
    # str.translate maps a text outside ASCII a character at a time (~30 ns each: a web page of 80 kB took
    # 3 ms); its UTF-8 bytes are mapped by a table, in C (0.15 ms)
    spaced = separated(text).encode("utf-8", "surrogatepass").translate(_ASCII_SEPARATOR_BYTES_TO_SPACE)
    return set(spaced.decode("utf-8", "surrogatepass").split())


def split_run(run: str) -> list[str]:
    """The tokens of one run of token characters (§3.2: commas).

    >>> split_run("fc1/3,fc1/4"), split_run("41,200"), split_run("1,234,5678")
    (['fc1/3', 'fc1/4'], ['41,200'], ['1', '234', '5678'])
    """
    if "," not in run:
        return [run]
    return [token.text for token in _split_commas(run, 0)]


def _split_commas(word: str, offset: int) -> Iterator[Token]:
    if word.find(",") == len(word) - 1:  # its one comma ends it ("$42.49," a clause goes on): a lone one
        if len(word) > 1:
            yield Token(word[:-1], offset, offset + len(word) - 1)
        return
    yield from _cut_at_commas(word, offset)


def _cut_at_commas(word: str, offset: int) -> Iterator[Token]:
    """§3.2: a comma cuts a run unless it stands between two digits, in a valid grouping."""
    cuts = {match.start() for match in _LONE_COMMA.finditer(word)}
    for run in _DIGIT_COMMA_RUN.finditer(word):
        if not _VALID_GROUPING.fullmatch(run.group()):
            cuts.update(run.start() + i for i, ch in enumerate(run.group()) if ch == ",")
    start = 0
    for cut in sorted(cuts) + [len(word)]:
        if cut > start:
            yield Token(word[start:cut], offset + start, offset + cut)
        start = cut + 1
