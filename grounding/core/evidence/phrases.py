"""The texts seen, kept whole when a declared shape matches phrases (a name of several words): a phrase is no
token, so neither the runs a text is cut into nor its forms hold it; it is searched for in the texts."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from grounding.core.evidence.leaves import string_leaves

if TYPE_CHECKING:
    from grounding.core.evidence.reading import Examined


class Phrases:
    """Every text seen (and a JSON result's strings, when its text escapes them), searched for a phrase; kept
    only when a shape matches phrases (keep), else nothing is."""

    __slots__ = ("keep", "texts")

    def __init__(self, keep: bool) -> None:
        self.keep = keep
        self.texts: list[str] = []

    def see(self, source: Examined | str) -> None:
        """A tool result examined, or a user's or system text (asked only when keep)."""
        text = source if isinstance(source, str) else source.text
        self.texts.append(text)
        if "\\" in text and not isinstance(source, str):  # a JSON text may escape its strings' words (Jos\u00e9)
            self.texts.extend(string_leaves(source.document))

    def say(self, phrase: str) -> bool:
        """True when a text seen writes phrase's words in order, whole, in any case, any white space between."""
        words = r"\s+".join(map(re.escape, phrase.split()))
        pattern = re.compile(rf"(?<!\w){words}(?!\w)", re.IGNORECASE)
        return any(pattern.search(text) is not None for text in self.texts)
