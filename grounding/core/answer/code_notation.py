"""What an answer about code cites, in the notations programmers write (SPEC §9.26, the answer's side).

A sub-agent that read a module names its functions with their arity (``Cache.fetch/2``,
``:ets.insert/2``), a release with a ``v`` (``v2.7.1``), and standards whose names carry digits
(``SHA-256``, ``UTF-8``, ``ISO 8601``). Each token is read as what it names: a function reference is its
name (one without digits is prose, §4), a ``v`` version is the version, and a standard's name is prose.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

# name/arity, Module.name/arity, :module.name/arity (Elixir, Erlang); Rust's and C++'s Type::name. A name
# ending in a digit must hold a "_" or a "." (parse_v2/1): fc1/9 and eth1/12 are ports (§9.13), not functions.
_FUNCTION_REFERENCE = re.compile(r":?(?P<name>[a-z_][\w.!?]*(?:::[a-z_]\w*)*)/\d{1,2}")
_ENDS_IN_DIGIT_BARE = re.compile(r"[a-z]+\d+")
_QUALIFIER = re.compile(r"[.:]+")
_VERSION = re.compile(r"v(?P<version>\d+(?:\.\d+){1,3}(?:[-+][0-9a-z.]+)?)")


Written = list[tuple[str, str, int, int]]  # (as written, normalised, start, end) of each token of a text


def cite(written: Written, segment: str, standard_names: frozenset[str], exempt: Callable[[str], bool] | None,
         words_matter: bool) -> Written:
    """The tokens of segment as what they cite (cited), less those that cite prose: a standard's name, a
    function's name without digits (§4: no value; with words_matter, as a declared shape may match words,
    a name is kept). An exempt token is kept as written. One call a text: an answer's every token passes."""
    found = []
    second = _second_words(standard_names)
    for token in written:
        value = token[1]
        first = value[:1]
        if value not in standard_names and (value not in second and not _may_label(value) if first.isdigit() else
                                            "/" not in value and first != "v"):
            found.append(token)  # (most tokens: no notation of code could read them otherwise)
            continue
        name = cited(value, segment, token[2], standard_names)
        if name != value and not (exempt is not None and exempt(value)):
            if name is None or not (words_matter or any(map(str.isdigit, name))):
                continue
            token = (token[0], name, token[2], token[3])
        found.append(token)
    return found


def cited(value: str, segment: str, start: int, standard_names: frozenset[str]) -> str | None:
    """What a normalised token cites: its function's name, its version without the ``v``, or None for a
    standard's name (prose). segment and start say where it stands (for two-word names: ``ISO 8601``).

    >>> from grounding.core.text.standards import STANDARD_NAMES
    >>> names = frozenset(STANDARD_NAMES)
    >>> [cited(v, "", 0, names) for v in ["cache.fetch/2", ":ets.insert/2", "parse_v2/1", "v2.7.1", "utf-8", "fc1/9"]]
    ['fetch', 'insert', 'parse_v2', '2.7.1', None, 'fc1/9']
    >>> cited("8601", "per ISO 8601", 8, names), cited("8601", "per 8601", 4, names)
    (None, '8601')
    >>> cited("1b", "Phase 1B", 6, names), cited("1b", "raised $1B", 8, names)
    (None, '1b')
    """
    if value in standard_names:
        return None
    first = value[:1]
    if first.isdigit() and _may_label(value):
        word = segment[max(start - 16, 0) : start].rstrip().rsplit(None, 1)[-1:]
        return None if word and word[0].lower() in _SERIES_WORDS else value  # "Phase 1B": a label, no magnitude
    if first.isdigit():
        if value not in _second_words(standard_names) or segment[start - 1 : start] != " ":
            return value  # (most numbers: told with one look-up)
        word = segment[max(start - 16, 0) : start].rstrip().rsplit(None, 1)[-1:]
        return None if word and f"{word[0].lower()} {value}" in standard_names else value
    if "/" in value:
        match = _FUNCTION_REFERENCE.fullmatch(value)
        if match is None or _ENDS_IN_DIGIT_BARE.fullmatch(match.group("name").lstrip(":")):
            return value
        return _QUALIFIER.split(match.group("name"))[-1]  # the function's own name: its module may be elsewhere
    if first == "v":
        match = _VERSION.fullmatch(value)
        return match.group("version") if match is not None else value
    return value


# The words a numbered series is named by: "Phase 1B", "Step 2a", "Tier 3C" label a member of it; the letter
# is no scale (1B is not a billion) and the number no magnitude.
_SERIES_WORDS = frozenset({"phase", "step", "stage", "part", "tier", "level", "milestone", "sprint", "wave", "round",
                           "option", "section", "chapter", "appendix", "table", "figure", "fig.", "track", "module",
                           "task", "item", "iteration", "epic", "batch", "group", "lesson", "week", "day", "plan"})


def _may_label(value: str) -> bool:
    """A number of up to three digits with one letter after it (``1b``): a member of a series, after its word."""
    return len(value) <= 4 and value[-1].isalpha() and value[:-1].isdigit()


@lru_cache(maxsize=8)
def _second_words(standard_names: frozenset[str]) -> frozenset[str]:
    """The second words of the two-word names (``8601`` of ``iso 8601``): only a number among them is looked
    up with the word before it."""
    return frozenset(name.split(" ", 1)[1] for name in standard_names if " " in name)


# path:line, path:line:col, path:first-last, path#L12 and path#L12-L40; the path holds a "/" or ends with a
# file's extension
_LOCATION = re.compile(
    r"(?P<path>(?:[\w.~-]*/)*[\w.-]*[\w-]\.[A-Za-z0-9]{1,10}|(?:[\w.~-]+/)+[\w.-]+)"
    r"(?::(?P<line>\d{1,6})(?::\d{1,4}|-(?P<end>\d{1,6}))?|#L(?P<first>\d{1,6})(?:-L?(?P<last>\d{1,6}))?)"
)


def code_location(written: str) -> tuple[str, tuple[int, ...]] | None:
    """The path and line numbers a ``path:line`` cites, as written; None when written is no such citation.

    >>> code_location("src/cache.py:88"), code_location("lib/app.ex:12:5"), code_location("a/b.ts#L12-L40")
    (('src/cache.py', (88,)), ('lib/app.ex', (12,)), ('a/b.ts', (12, 40)))
    >>> code_location("store.ts:120-158"), code_location("store.ts:158-120")
    (('store.ts', (120, 158)), None)
    >>> code_location("127.0.0.1:4000"), code_location("ORD-4471")
    (None, None)
    """
    match = _LOCATION.fullmatch(written)
    if match is None or match.group("path").replace(".", "").isdigit():
        return None
    lines = tuple(int(match.group(group)) for group in ("line", "end", "first", "last") if match.group(group))
    if len(lines) == 2 and lines[0] >= lines[1]:
        return None  # (a range runs forward: 158-120 cites no lines)
    return match.group("path"), lines
