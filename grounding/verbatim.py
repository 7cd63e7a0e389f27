"""What a piece of read text says verbatim: its token runs, lowered, and its canonical number literals.

Most answer values are copied out of a tool result as they stand. Seeing that
takes a few passes in C over the text (lowering, splitting, one regex), where
reading every token's §9 forms costs Python work per token. The index asks
this first and reads a piece's forms only when a value is not found verbatim
(SPEC §3.5: a value equal to a read token is grounded plainly).
"""

from __future__ import annotations

import re

from grounding.tokens import runs

# In JSON text without a backslash, every string is the text between two quotes, as parsed.
_JSON_STRING = re.compile(r'"([^"]*)"')
# A number literal whose parsed spelling is the literal itself: no exponent, no leading or trailing zero,
# and not glued to more of a number. Literals of 16 or more digits are parsed exactly (jsontext), shorter
# floats round-trip through their repr, so the literal is what the index spells.
_CANONICAL_NUMBER = re.compile(r"(?<![\d.eE+-])-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?(?![\d.eE])")


def of_text(text: str) -> set[str]:
    """The lowered token runs of text (normalising a token lowers it first, so nothing is lost)."""
    return runs(text.lower())


def of_json(text: str) -> set[str] | None:
    """The runs of a JSON document's strings and its canonical number literals, read off its text.

    None when the text has an escape: its strings are then not the text between quotes.
    """
    if "\\" in text:
        return None
    parts = _JSON_STRING.split(text)  # outside, string, outside, string, …, outside
    seen = of_text("\x00".join(parts[1::2]))
    seen.update(_CANONICAL_NUMBER.findall(" ".join(parts[0::2])))
    return seen
