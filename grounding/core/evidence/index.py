"""The evidence index of one conversation: everything read before an answer (SPEC §5, §9).

Pieces (tool results, exempt text) are *seen* as the conversation advances
(see ``verbatim``) and *read* into ``Forms`` only when an answer asks for a
value they could hold. A question names the forms it asks about; pieces whose
search text lacks every key of those forms cannot hold them and stay unread.
So a value copied verbatim costs no reading at all, and an invented one
usually reads nothing either. Questions that need every number (derived
values, masks, prose dates) read every piece.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from grounding.core.evidence import search_keys, verbatim
from grounding.core.evidence.forms import Forms, ReadOptions, is_iso_date
from grounding.core.evidence.operands import Operands
from grounding.core.evidence.phrases import Phrases
from grounding.core.evidence.reading import (
    Examined,
    examine_result,
    read_dated_runs,
    read_examined,
    read_exempt,
    read_numbers,
    read_string_numbers,
    seen_of,
)
from grounding.core.evidence.said import Said
from grounding.core.evidence.stated import Stated
from grounding.core.evidence.totals import Totals
from grounding.core.text.normalise import exponent_of, lookup_forms, spell

_WHITE_SPACE = re.compile(r"\s")
_SEARCHED_KEPT = 50_000  # keys remembered as searched; forgotten whole past this (memory stays flat)


@dataclass(slots=True)
class _Piece:
    """A piece seen but not read yet."""

    order: int  # its place in the conversation: collections are totalled in this order
    source: Examined | str  # a tool result, or exempt text
    seen: verbatim.Seen  # what its search text is made from (see Seen.may_hold)
    numbers_read: bool = False  # its numbers and collections are in the index already (see read_numbers)
    strings_read: bool = False  # the numbers of its keys and strings too (see read_string_numbers)
    years_read: set[str] | None = None  # the years whose dates its token runs were read for (see _read_dated)


class EvidenceIndex:
    """Everything read before an answer, grown as the conversation advances."""

    def __init__(self, options: ReadOptions | None = None) -> None:
        self.options = options if options is not None else ReadOptions()
        self._forms = Forms(min_digits=self.options.min_digits)
        self._unread: list[_Piece] = []
        self._operands = Operands(self._forms.operands)  # the views of them the derived search asks for
        # Keys no unread piece's search text holds: once searched for, a key stays so until a piece is seen
        # (pieces holding it are read by the search), and a value tried by route after route asks again.
        self._searched: set[str] = set()
        self._searched_whole: set[str] = set()  # the same, searched for as whole numbers (Seen.may_hold)
        self._dates_searched: set[str] = set()  # the same, of dates asked about by token runs (dated_forms_for)
        # What the pieces seen say verbatim, and the values found in no text looked in (said.Said)
        self._said = Said()
        self._pieces = 0
        self._collections: list[tuple[int, list, str | None]] = []  # (order, members, key): see Forms.collections
        self._sorted_numbers: list[Decimal] | None = None
        self._totals: Totals | None = None
        # Every piece seen: the counts and offsets it states are read only if a rule asks (§9.19, §9.20, §9.23)
        self.stated = Stated()
        self._anywhere: tuple[tuple[int, int], set[str]] = ((0, 0), set())  # (sizes it was made at, numbers)
        self.phrases = Phrases(keep=self.options.phrases)  # the texts seen, when a shape matches phrases

    # growing ------------------------------------------------------------------------------------------

    def see_result(
        self, text: str, *, is_error: bool = False, arguments: str | None = None, document: object = None,
        tool: str | None = None,
    ) -> None:
        """A tool result (and its tool's name): seen now, read when a question needs it."""
        examined = examine_result(text, self.options, is_error, arguments, document)
        failed = examined.failed  # (a failed call's arguments ground nothing, §9.6: not a path it named either)
        self.stated.see(text, None if failed else examined.document, arguments=None if failed else arguments,
                        failed=failed, tool=tool)
        seen = seen_of(examined)
        self._keep(examined, seen)

    def see_exempt(self, text: str) -> None:
        """User text or a system prompt (§5.2)."""
        self.stated.see(text, exempt=True)
        self._keep(text, verbatim.see_text(text))

    def _keep(self, source: Examined | str, seen: verbatim.Seen) -> None:
        self._unread.append(_Piece(self._next_order(), source, seen))
        self._searched.clear()
        self._searched_whole.clear()
        self._dates_searched.clear()
        self._said.see(seen)
        if self.phrases.keep:
            self.phrases.see(source)

    def add(self, forms: Forms) -> None:
        """Add forms read elsewhere, after every piece seen so far."""
        self._add(forms, self._next_order())

    def _next_order(self) -> int:
        self._pieces += 1
        return self._pieces

    # reading ------------------------------------------------------------------------------------------

    @property
    def forms(self) -> Forms:
        """Every form of everything seen, reading every piece not read yet."""
        self._read(self._unread)
        return self._forms

    def forms_for(self, wanted: Iterable[str], *, beginning: bool = False) -> Forms:
        """The forms read so far, after reading every piece that could hold one of wanted.

        Exact for questions about wanted (and about no other form); with beginning, about the forms that
        begin with one of wanted too (a number's digits may go on: rounding, a value cut off). A form with
        white space is held by no piece (each is read as token runs and JSON leaves, and a run has none): it
        reads nothing.
        """
        return self._forms_with([key for form in wanted if not _WHITE_SPACE.search(form)
                                 for key in search_keys.keys(form)], whole_numbers=not beginning)

    def dated_forms_for(self, wanted: tuple[str, ...]) -> Forms:
        """forms_for, exact only for the plain, unit, date and component forms of wanted; where every one of
        wanted is an ISO date, a text that may hold one has only its token runs that may write its year read
        (reading.read_dated_runs), not the whole text: a long text (a web page) written in that year would
        otherwise be read whole for a date its timestamps hold, or one it does not."""
        if not all(map(is_iso_date, wanted)):
            return self.forms_for(wanted)
        asked = [date for date in wanted if date[:4] not in self._searched and date not in self._dates_searched]
        if asked and self._unread:
            years = {date[:4] for date in asked}
            keys = [key for date in asked for key in search_keys.keys(date)]  # (its year)
            nowhere = self._said.nowhere.issuperset(keys)
            holding = [piece for piece in self._unread if piece.seen.may_hold(keys, nowhere)]
            self._read([piece for piece in holding if not self._read_dated(piece, years)])
            self._dates_searched.update(asked)
        return self._forms

    def _read_dated(self, piece: _Piece, years: set[str]) -> bool:
        """Read the token runs of piece that may write a date of one of years; False when it is read whole
        only (read_dated_runs)."""
        done = piece.years_read
        for year in years if done is None else years - done:
            forms = read_dated_runs(piece.source, year, self.options)
            if forms is None:
                return False
            self._add(forms, piece.order)
            piece.years_read = done = (done or set()) | {year}
        return True

    def look_for(self, wanted: Iterable[str]) -> None:
        """Read every piece that could hold one of wanted, each unread piece searched once for all their keys
        (one pattern, in C), where forms_for would search every piece again for each: an answer of a
        thousand invented ids against a big result would read it a thousand times."""
        keys = {key for form in wanted for key in search_keys.keys(form)} - self._searched
        if not keys or not self._unread:
            return
        pattern = re.compile("|".join(map(re.escape, sorted(keys))))
        numeric = any(verbatim.may_spell_number(key) for key in keys)
        self._read([piece for piece in self._unread if piece.seen.may_hold_one(pattern, numeric)])
        self._note_searched(keys)

    def _forms_with(self, keys: list[str], whole_numbers: bool = True) -> Forms:
        """The forms read so far, after reading every piece whose search text holds one of keys (a number's
        key whole, with whole_numbers: see Seen.may_hold)."""
        searched = self._searched_whole if whole_numbers else ()
        keys = [key for key in keys if key not in self._searched and key not in searched]
        if keys and self._unread:
            nowhere = self._said.nowhere.issuperset(keys)
            self._read([p for p in self._unread if p.seen.may_hold(keys, nowhere, whole_numbers)])
            self._note_searched(keys, self._searched_whole if whole_numbers else self._searched)
        return self._forms

    def _note_searched(self, keys: Iterable[str], memo: set[str] | None = None) -> None:
        """Remember keys as searched in every unread piece (in memo: _searched, or _searched_whole). A memo, so
        bounded: a Session asked about hundreds of thousands of distinct values and given no new result grew
        it without end (searching again after a clear finds what it found)."""
        memo = self._searched if memo is None else memo
        if len(memo) > _SEARCHED_KEPT:
            memo.clear()
        memo.update(keys)

    def _read(self, pieces: list[_Piece]) -> None:
        if not pieces:
            return
        if len(pieces) == len(self._unread):
            self._unread = []  # pieces is always some of _unread, in order: here, all of it
        else:
            reading = {id(piece) for piece in pieces}
            self._unread = [piece for piece in self._unread if id(piece) not in reading]
        for piece in pieces:
            if isinstance(piece.source, str):
                self._add(read_exempt(piece.source, self.options), piece.order)
            else:
                self._add(read_examined(piece.source, self.options), piece.order)

    def _read_numbers(self) -> None:
        """Every collection of §9.7 and every operand but those in a JSON result's strings, reading of each
        piece no more than that needs."""
        for piece in self._unread:
            if piece.numbers_read or isinstance(piece.source, str):
                continue  # exempt text lends no operands (§5.2)
            self._add(read_numbers(piece.source, self.options), piece.order)
            piece.numbers_read = True

    def _read_operands(self) -> None:
        """Every operand of §9.7 and §9.18, the numbers in JSON results' strings too."""
        self._read_numbers()
        for piece in self._unread:
            if not piece.strings_read and not isinstance(piece.source, str):
                self._add(read_string_numbers(piece.source, self.options), piece.order)
                piece.strings_read = True

    def _add(self, forms: Forms, order: int) -> None:
        mine = self._forms
        mine.plain |= forms.plain
        mine.unit |= forms.unit
        mine.date |= forms.date
        mine.component |= forms.component
        if forms.pending:
            mine.pending |= forms.pending
            mine.pending_text = None
        if not forms.numbers <= mine.numbers:
            mine.numbers |= forms.numbers
            self._sorted_numbers = None
        mine.operands |= forms.operands  # (self._operands sees them grow)
        if forms.collections:
            self._collections.extend((order, members, key) for members, key in forms.collections)
            self._totals = None
        mine.prose_iso |= forms.prose_iso
        mine.month_days |= forms.month_days
        if forms.wholes:
            mine.wholes.extend(forms.wholes)
            mine.whole_values = None

    # questions ----------------------------------------------------------------------------------------

    def says_verbatim(self, value: str) -> bool:
        """True when a token read is value itself, so value is grounded plainly (§3.5) without reading.

        False says nothing: the forms may still hold value.
        """
        return self._said.says(value, self.options.keep_words)

    def is_plain(self, value: str) -> bool:
        """True when value, or another lookup form of it, is indexed plainly (§3.5)."""
        return self.says_verbatim(value) or self.is_read_plainly(value)

    def is_read_plainly(self, value: str) -> bool:
        """is_plain, once says_verbatim has said False."""
        wanted = lookup_forms(value)
        plain = self.dated_forms_for(wanted).plain
        return any(form in plain for form in wanted)

    def reading_of(self, wanted: tuple[str, ...]) -> str | None:
        """The first §9 reading holding one of wanted: unit, then date part, then component."""
        forms = self.dated_forms_for(wanted)
        for via, held in (("unit", forms.unit), ("date-part", forms.date)):
            if any(form in held for form in wanted):
                return via
        return "component" if self.has_component(wanted) else None

    def has_prose_date(self, iso: str) -> bool:
        """True when a prose date with a year was read as the ISO date iso (§9.10)."""
        return iso in self.forms_for((iso,)).prose_iso

    def has_prose_month_day(self, iso: str) -> bool:
        """True when a prose date without a year was read with iso's month and day (§9.10)."""
        month = int(iso[5:7])
        if not 1 <= month <= 12:
            return False
        return iso[5:] in self._forms_with(search_keys.month_keys(month)).month_days

    def components(self) -> set[str]:
        """Component forms of everything read (worked out the first time an answer needs them)."""
        return self.forms.resolve()

    def has_component(self, wanted: tuple[str, ...]) -> bool:
        """True when one of wanted is a component of something read (§9.4)."""
        return self.dated_forms_for(wanted).has_component(wanted)

    def has_number(self, magnitude: Decimal) -> bool:
        """True when the absolute value magnitude is an indexed number (sign, §9.3)."""
        spelled = spell(magnitude)
        return spelled in self.forms_for((spelled,)).numbers

    def has_number_rounding_to(self, magnitude: Decimal, decimals: int) -> bool:
        """True when an indexed number rounds to magnitude at that many decimals (§9.3).

        Such a number, cut to those decimals, is magnitude or one step below,
        so its spelling starts with one of theirs. One below magnitude has more
        decimals than that step, so it starts with the step written out to them
        (``3580.0`` for 3580.05 to 3580.09…, where ``3580`` would be found in many texts).
        """
        half = Decimal(5).scaleb(-(decimals + 1))
        if decimals < 0 or exponent_of(magnitude) < -decimals:  # (< 0: $577B, to the billion)
            return self.has_number_near(magnitude - half, magnitude + half)  # more decimals than written
        below = magnitude - Decimal(1).scaleb(-decimals)
        self.forms_for([spell(magnitude)] + ([format(below, f".{decimals}f")] if below >= 0 else []), beginning=True)
        return self._number_between(magnitude - half, magnitude + half)

    def has_number_near(self, low: Decimal, high: Decimal) -> bool:
        """True when an indexed number lies in [low, high] (any may: every piece is read)."""
        self._read(self._unread)
        return self._number_between(low, high)

    def _number_between(self, low: Decimal, high: Decimal) -> bool:
        if self._sorted_numbers is None:
            self._sorted_numbers = sorted(Decimal(n) for n in self._forms.numbers)
        numbers = self._sorted_numbers
        at = bisect.bisect_left(numbers, low)
        return at < len(numbers) and numbers[at] <= high

    def numbers_anywhere(self) -> set[str]:
        """Every operand and every number the user's and the app's texts write (§9.23), remade only when
        either has grown (a conversation of many answers asks again and again)."""
        operands, written = self.operand_values(), self.stated.exempt_numbers(self.options)
        if self._anywhere[0] != (len(operands), len(written)):
            self._anywhere = ((len(operands), len(written)), written.union(operands))
        return self._anywhere[1]

    def operand_values(self) -> dict[str, Decimal]:
        """Every operand of §9.7 by spelling, in no particular order (each value worked out once)."""
        self._read_operands()
        return self._operands.values()

    def scaled_operands(self) -> tuple[int, set[int]] | None:
        """Every operand as an integer, scaled (Operands.scaled); None when one is too long for that."""
        self._read_operands()
        return self._operands.scaled()

    def sorted_scaled_operands(self) -> tuple[int, list[int]] | None:
        """scaled_operands, the integers in ascending order (the chance of a formula is counted in a range)."""
        self._read_operands()
        return self._operands.sorted_scaled()

    def stated_offsets(self) -> set[int]:
        """The day offsets the user's and the app's texts state (§9.19), each text read once."""
        return self.stated.offsets()

    def stated_counts(self) -> set[int]:
        """The counts 2–12 stated by everything seen (§9.20), tool results and exempt text alike."""
        return self.stated.counts()

    def operands(self) -> dict[str, Decimal]:
        """Operands of §9.7 by spelling, in a stable order: by value, then by spelling."""
        self._read_operands()
        return self._operands.by_value()

    def operands_spelled(self) -> dict[Decimal, str]:
        """The operands spelled as the index spells numbers, by value (``007`` is read as 7, but 7 is not
        spelled ``007``)."""
        self._read_operands()
        return self._operands.spelled()

    def totals(self) -> Totals:
        """The collections read, to total (§9.7) or average, made again only after a piece is seen."""
        self._read_numbers()
        if self._totals is None:
            in_order = sorted(self._collections, key=lambda entry: entry[0])
            self._totals = Totals([(members, key) for _, members, key in in_order])
        return self._totals

    def form_ending_with(self, tail: str) -> str | None:
        """A read form longer than the tail that ends with it (Forms.ending_with), every piece read."""
        return self.forms.ending_with(tail)

    def is_any_form(self, value: str) -> bool:
        """True when value is indexed by any route (plainly or by a §9 reading)."""
        forms = self.forms_for((value,))
        return (
            value in forms.plain
            or value in forms.unit
            or value in forms.date
            or value in forms.prose_iso
            or self.has_component((value,))
        )
