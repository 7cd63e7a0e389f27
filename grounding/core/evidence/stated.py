"""What the conversation's texts state beside their values (SPEC §9.19, §9.20, §9.23): the counts a
multiple may take as its factor, the day offsets a date may be computed by, counts said in words, and
the numbers the user's and the app's texts write.

Every view is read from each text once, the first time a rule asks for it, and then kept as the
conversation grows: a conversation of many answers asks for them again and again.
"""

from __future__ import annotations

from collections.abc import Callable

from grounding.core.evidence import counts
from grounding.core.evidence.forms import ReadOptions
from grounding.core.evidence.reading import read_exempt
from grounding.core.text import date_offsets

_Reading = Callable[[str, object, bool], set]  # (text, its JSON document or None, exempt or not) -> found


class Stated:
    """The texts seen, in order, and the views of them worked out so far."""

    __slots__ = ("_texts", "_views")

    def __init__(self) -> None:
        self._texts: list[tuple[str, object, bool]] = []
        self._views: dict[str, tuple[int, set]] = {}  # a view's name -> (texts it was read from, what it holds)

    def see(self, text: str, document: object = None, *, exempt: bool = False) -> None:
        """A tool result (with its JSON document, None when it failed or is text), or exempt text."""
        self._texts.append((text, document, exempt))

    def counts(self) -> set[int]:
        """The counts 2–12 every text states (§9.20), tool results and exempt text alike."""
        return self._view("counts", _counts)

    def offsets(self) -> set[int]:
        """The day offsets the user's and the app's texts state (§9.19)."""
        return self._view("offsets", lambda text, _, exempt: date_offsets.stated_offsets(text) if exempt else set())

    def counts_in_words(self) -> set[int]:
        """The counts the user's and the app's texts state in words ("for both of us", "two nights"), which
        only an announced computation takes (§9.23); a tool states its counts as numbers (counts)."""
        return self._view("words", lambda text, _, exempt: counts.counts_in_words(text) if exempt else set())

    def exempt_numbers(self, options: ReadOptions) -> set[str]:
        """The numbers the user's and the app's texts write, which only an announced computation combines
        (§5.2 lends them to no other rule)."""
        return self._view("numbers", lambda text, _, exempt: read_exempt(text, options, numbers_only=True).numbers
                          if exempt else set())

    def _view(self, name: str, reading: _Reading) -> set:
        read, found = self._views.get(name, (0, set()))
        if read < len(self._texts):
            for text, document, exempt in self._texts[read:]:
                found |= reading(text, document, exempt)
            self._views[name] = (len(self._texts), found)
        return found


def _counts(text: str, document: object, _exempt: bool) -> set[int]:
    found = counts.counts_in_text(text)
    if isinstance(document, (dict, list)):
        found |= counts.counts_in_document(document)
    return found
