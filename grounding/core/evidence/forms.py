"""What a piece of evidence grounds, as sets of forms (SPEC §5, §9), and the options reading depends on."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import chain

from grounding import json_exact
from grounding.core.evidence import search_keys
from grounding.core.evidence.token_readings import components_of
from grounding.core.text.normalise import normalise

_HAS_DIGIT = re.compile(r"\d")
_DECIMAL_FRACTION = re.compile(r"-?\d+\.\d+")


@dataclass(slots=True)
class Forms:
    """What one piece of read text grounds, by route."""

    plain: set[str] = field(default_factory=set)
    unit: set[str] = field(default_factory=set)
    date: set[str] = field(default_factory=set)
    component: set[str] = field(default_factory=set)
    numbers: set[str] = field(default_factory=set)  # spellings of absolute values: sign, rounding (§9.3)
    operands: set[str] = field(default_factory=set)  # numbers a tool typed as numbers (§9.7)
    # for totals (§9.7): each collection's members as parsed, with the key they share (None: an array)
    collections: list[tuple[list, str | None]] = field(default_factory=list)
    prose_iso: set[str] = field(default_factory=set)  # prose dates with a year (§9.10)
    month_days: set[str] = field(default_factory=set)  # yearless prose dates (§9.10)
    # the string leaves of each document, NUL-joined and kept as one text: only masks read them whole (§9.11)
    wholes: list[str] = field(default_factory=list)
    pending: set[str] = field(default_factory=set)  # identifiers whose components are not worked out yet
    min_digits: int = 4  # the digit bar the pending components are worked out with
    whole_values: set[str] | None = None  # the string leaves of wholes normalised, once worked out (masks)
    pending_text: str | None = None  # the pending identifiers' keys as one text, searched before any is worked out

    def resolve(self) -> set[str]:
        """The component forms, working out those still pending (§9.4)."""
        if self.pending:
            for value in self.pending:
                self.component.update(components_of(value, self.min_digits))
            self.pending.clear()
        return self.component

    def has_component(self, wanted: tuple[str, ...]) -> bool:
        """True when one of wanted is a component form (§9.4). Only identifiers that could hold one are worked
        out: every component form is spelled inside its identifier (see search_keys.search_text)."""
        held = self.component
        if any(form in held for form in wanted):
            return True
        if not self.pending:
            return False
        if self.pending_text is None:
            self.pending_text = search_keys.key("\n".join(self.pending))
        keys = [search_keys.key(form) for form in wanted]
        if not any(key in self.pending_text for key in keys):
            return False
        holding = [value for value in self.pending if any(key in search_keys.key(value) for key in keys)]
        for value in holding:
            held.update(components_of(value, self.min_digits))
        self.pending.difference_update(holding)
        self.pending_text = None
        return any(form in held for form in wanted)

    def ending_with(self, tail: str) -> str | None:
        """A form longer than the tail that ends with it (never an amount with decimals), the shortest first,
        held plainly before one held by a reading: what a masked value's visible tail is grounded by (§9.11)."""
        plainly = (self.plain, self._whole_values())
        by_reading = (self.unit, self.date, self.resolve(), self.prose_iso)
        for group in (plainly, by_reading):
            found = [
                form
                for form in chain.from_iterable(group)
                if len(form) > len(tail) and form.endswith(tail) and not _DECIMAL_FRACTION.fullmatch(form)
            ]
            if found:
                return min(found, key=lambda form: (len(form), form))
        return None

    def _whole_values(self) -> set[str]:
        """The string leaves read whole, normalised (only masks need them, §9.11); worked out once."""
        if self.whole_values is None:
            self.whole_values = {normalise(whole) for joined in self.wholes
                                 for whole in joined.split(WHOLE_SEPARATOR) if _HAS_DIGIT.search(whole)}
        return self.whole_values

    def every_form(self) -> Iterator[str]:
        self.resolve()
        yield from self.plain
        yield from self.unit
        yield from self.date
        yield from self.component
        yield from self.prose_iso

    def drop(self, forms: Forms) -> None:
        """Remove everything forms spells (a failed lookup's argument forms, §9.6)."""
        spelled = set(forms.every_form())
        self.resolve()
        for routed in (self.plain, self.unit, self.date, self.component):
            routed -= spelled
        self.numbers -= forms.numbers | spelled
        self.operands -= forms.numbers | spelled
        self.collections = [
            ([n for n in members if json_exact.number_spelling(n).lstrip("-") not in forms.numbers], key)
            for members, key in self.collections
        ]
        self.prose_iso -= spelled
        self.month_days -= forms.month_days | {iso[5:] for iso in spelled if is_iso_date(iso)}
        self.whole_values = None
        self.wholes = [
            WHOLE_SEPARATOR.join(s for s in joined.split(WHOLE_SEPARATOR) if normalise(s) not in spelled)
            for joined in self.wholes
        ]


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """What the index must keep: the digit bar (components), whether words matter (shapes) and whether a
    shape matches phrases (then the texts seen are kept whole, to search for them)."""

    min_digits: int = 4
    keep_words: bool = False  # with no declared shape, a token without a digit can never match
    phrases: bool = False


WHOLE_SEPARATOR = "\x00"


def is_iso_date(value: str) -> bool:
    return len(value) == 10 and value[4] == "-" and value[7] == "-" and value[:4].isdigit()
