"""What the conversation's texts state beside their values (SPEC §9.19, §9.20, §9.23, §9.26): the counts a
multiple may take as its factor, the day offsets a date may be computed by, counts said in words, the
numbers the user's and the app's texts write, and the line numbers a session read.

Every view is read from each text once, the first time a rule asks for it, and then kept as the
conversation grows: a conversation of many answers asks for them again and again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

from grounding.core.evidence import code_reads, counts, records
from grounding.core.evidence.forms import ReadOptions
from grounding.core.evidence.reading import read_exempt
from grounding.core.text import date_offsets, percents, relative_dates

_Reading = Callable[[str, object, bool, str | None], set]  # (text, document or None, exempt, call arguments)


class Stated:
    """The texts seen, in order, and the views of them worked out so far."""

    __slots__ = ("_clock_dates", "_lowered", "_succeeded", "_texts", "_views", "cwd")

    def __init__(self) -> None:
        self.cwd: str | None = None  # the session's working directory, where its records state one
        self._texts: list[tuple[str, object, bool, str | None]] = []
        self._succeeded: list[tuple[str, bool, str | None]] = []  # the texts but failed results: what code cites
        self._views: dict[str, tuple[int, set]] = {}  # a view's name -> (texts it was read from, what it holds)
        self._clock_dates: set[str] = set()  # the dates a clock tool gave (get-current-date): today's
        self._lowered: tuple[int, str] = (0, "")  # every text seen, lowered, joined (mentions), and how many

    def see(self, text: str, document: object = None, *, exempt: bool = False, arguments: str | None = None,
            failed: bool = False, tool: str | None = None) -> None:
        """A tool result (with its JSON document, None when it failed or is text, its call's arguments and its
        tool's name), or exempt text."""
        self._texts.append((text, document, exempt, arguments))
        if tool is not None and not failed and relative_dates.is_clock(tool, arguments):
            self._clock_dates |= relative_dates.dates_in(text)
        if not failed:  # a failed lookup's text, echoing what was asked, shows nothing read (§9.6)
            self._succeeded.append((text, exempt, arguments))

    def counts(self) -> set[int]:
        """The counts 2–12 every text states (§9.20), tool results and exempt text alike."""
        return self._view("counts", _counts)

    def offsets(self) -> set[int]:
        """The day offsets the user's and the app's texts state (§9.19)."""
        return self._view("offsets", lambda text, _, exempt, __: date_offsets.stated_offsets(text) if exempt else set())

    def counts_in_words(self) -> set[int]:
        """The counts the user's and the app's texts state in words ("for both of us", "two nights"), which
        only an announced computation takes (§9.23); a tool states its counts as numbers (counts)."""
        return self._view("words", lambda text, _, exempt, __: counts.counts_in_words(text) if exempt else set())

    def todays(self) -> set[str]:
        """The current dates the user's and the app's texts state ("Today's date is 2025-03-10"), and those a
        clock tool gave (``get-current-date``)."""
        stated = self._view("todays", lambda text, _, exempt, __: relative_dates.todays_in(text) if exempt else set())
        return stated | self._clock_dates if self._clock_dates else stated

    def relative_phrases(self) -> set[relative_dates.Phrase]:
        """The dates relative to today the user's and the app's texts name ("last Friday")."""
        return self._view("phrases",
                          lambda text, _, exempt, __: set(relative_dates.phrases_in(text)) if exempt else set())

    def percentages(self) -> set:
        """The percentages every text seen states (``5%``): what a number read may be scaled by."""
        return self._view("percentages", lambda text, _, __, ___: percents.percentages_in(text))

    def record_numbers(self, ids: frozenset[str]) -> set[Decimal]:
        """The numbers of the records the answer's ids identify: every JSON object of a result that holds
        one of ids (normalised) as a leaf, its number leaves and those of the objects inside it (an item's
        id beside its price). Looked for on demand: only texts that write an id are walked."""
        found: set[Decimal] = set()
        for text, document, exempt, _ in self._texts:
            if exempt or not isinstance(document, (dict, list)):
                continue
            lowered = text.lower()
            if any(key in lowered for key in ids):
                found |= records.numbers_of_records(document, ids)
        return found

    def exempt_numbers(self, options: ReadOptions) -> set[str]:
        """The numbers the user's and the app's texts write, which only an announced computation combines
        (§5.2 lends them to no other rule)."""
        return self._view("numbers", lambda text, _, exempt, __: read_exempt(text, options, numbers_only=True).numbers
                          if exempt else set())

    def line_marks(self) -> set[code_reads.Mark]:
        """The line numbers tool results show as line numbers, with their files (§9.26)."""
        return self._cited_view("lines", lambda text, arguments: code_reads.line_marks(text, arguments))

    def addresses(self) -> set[str]:
        """The IPv4 addresses tool results write as tuples, dotted, with their ports (§9.26)."""
        return self._cited_view("addresses", lambda text, _: code_reads.addresses(text) if "," in text else set())

    def holds_hash_starting(self, prefix: str) -> bool:
        """True when a text seen holds a longer hex hash (12 digits or more) that prefix begins: a commit
        git log printed whole, cited by its first digits (§9.26)."""
        pattern = re.compile(rf"(?<![0-9a-fA-F]){re.escape(prefix)}[0-9a-fA-F]{{{max(12 - len(prefix), 1)},}}",
                             re.IGNORECASE)
        return self._holds([pattern])

    def holds_repository(self, host: str, repository: str) -> bool:
        """True when a text seen names the repository at host: ``host/owner/repo`` (https) or
        ``host:owner/repo`` (ssh), ``.git`` or not, in any case."""
        name = re.escape(repository.removesuffix(".git"))
        return self._holds([re.compile(rf"{re.escape(host)}[/:]{name}(?:\.git)?(?![\w-])", re.IGNORECASE)])

    def holds_item_number(self, number: str) -> bool:
        """True when a text seen writes number as a pull request's, an issue's or a merge request's: ``#212``,
        ``!212``, ``pull/212``, ``issues/212``, ``merge_requests/212``, "pull request 212", "PR 212"."""
        return self._holds([re.compile(rf"(?:[#!]|\b(?:pull|pulls|issues|merge_requests)/|\b(?:pull request|PR|"
                                       rf"issue|MR) #?){number}(?!\d)", re.IGNORECASE)])

    def holds_version_under(self, prefix: str) -> bool:
        """True when a tool result holds a version that prefix's wildcard matches: ``0.1.3`` (or ``v0.1.3``)
        for ``0.1.x`` (§9.26)."""
        return self._holds([re.compile(rf"(?<![\w.])v?{re.escape(prefix)}\.\d")], exempt=False)

    def writes_word(self, word: str) -> bool:
        """True when a text seen (not a failed result, nor a call's arguments) writes word whole, in any case,
        or its singular or plural: the name of a resource (``Order``, ``customers``)."""
        stem = word[:-1] if word[-1:] in "sS" and len(word) > 3 else word
        return self._holds([re.compile(rf"(?<![A-Za-z]){re.escape(stem)}s?(?![A-Za-z])", re.IGNORECASE)])

    def base_url_of(self, url: str) -> str | None:
        """The longest URL a text seen writes that url extends by a path (``https://api.example.test/v2``
        for ``https://api.example.test/v2/Order/ORD-4471``), lower case, without its last "/"; or None."""
        lowered = url.lower()
        bases = [base for base in self._view("urls", lambda text, _, __, ___: _urls_in(text))
                 if lowered.startswith(base + "/")]
        return max(bases, key=len, default=None)

    def holds_path(self, path: str) -> bool:
        """True when path was read (§9.26): as written, as the end of a longer path, as a folder a read path
        lies in (``src/agents/`` after ``src/agents/plugins/codex.ts``), or, below the session's working
        directory, as the path relative to it."""
        wanted = [path.rstrip("/")]
        if self.cwd and path.startswith(self.cwd.rstrip("/") + "/"):
            wanted.append(path[len(self.cwd.rstrip("/")) + 1 :].rstrip("/"))
        patterns = [re.compile(rf"(?<![\w.-]){re.escape(form)}(?![\w-]|\.\w)") for form in wanted if form]
        return self._holds(patterns, arguments=True)

    def mentions(self, fragment: str) -> bool:
        """True when a text seen (a result, failed or not, or exempt text) holds fragment, in any case."""
        if self._lowered[0] < len(self._texts):
            seen, lowered = self._lowered
            lowered += "".join("\x00" + text.lower() for text, _, _, _ in self._texts[seen:])
            self._lowered = (len(self._texts), lowered)
        return fragment in self._lowered[1]

    def holds_lines(self, lines: list[str]) -> bool:
        """True when half of lines or more occur in texts that did not fail: code an answer quotes from what was
        read, not code it authors (issue 48)."""
        found = sum(1 for line in lines if any(line in text for text, _, _ in self._succeeded))
        return found * 2 >= len(lines)

    def _holds(self, patterns: list[re.Pattern], *, exempt: bool = True, arguments: bool = False) -> bool:
        """True when a pattern is found in a text that did not fail (exempt text too, unless told not), or
        with arguments in its call's arguments."""
        return any(pattern.search(text) or (arguments and called is not None and pattern.search(called))
                   for pattern in patterns for text, is_exempt, called in self._succeeded if exempt or not is_exempt)

    def _cited_view(self, name: str, reading: Callable[[str, str | None], set]) -> set:
        """A view of the tool results that did not fail (what code's notations cite: §9.26)."""
        read, found = self._views.get(name, (0, set()))
        if read < len(self._succeeded):
            for text, exempt, arguments in self._succeeded[read:]:
                if not exempt:
                    found |= reading(text, arguments)
            self._views[name] = (len(self._succeeded), found)
        return found

    def _view(self, name: str, reading: _Reading) -> set:
        read, found = self._views.get(name, (0, set()))
        if read < len(self._texts):
            for text, document, exempt, arguments in self._texts[read:]:
                found |= reading(text, document, exempt, arguments)
            self._views[name] = (len(self._texts), found)
        return found


_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s\"'<>()\[\]{},]+", re.IGNORECASE)


def _urls_in(text: str) -> set[str]:
    """The URLs text writes, lower case, without the punctuation that ends a sentence or the last "/"."""
    if "://" not in text:
        return set()
    return {match.group().rstrip(".,;:!?").rstrip("/").lower() for match in _URL.finditer(text)}


def _counts(text: str, document: object, _exempt: bool, _arguments: str | None) -> set[int]:
    found = counts.counts_in_text(text)
    if isinstance(document, (dict, list)):
        found |= counts.counts_in_document(document)
    return found
