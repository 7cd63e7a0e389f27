"""What one evidence token grounds, computed once per distinct token (SPEC §3.5, §9.1, §9.2, §9.4).

A tool result repeats its keys, words and ids many times, and a corpus
repeats them across conversations: each distinct token is read once and its
reading reused. The reading is a plain tuple, so merging thousands of them
into an index is a few calls into C.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from itertools import chain
from typing import Any, NamedTuple

from grounding.core.text.dates import ISO_DATE_WRITTEN, date_parts, duration_as_clock, halves, halves_written
from grounding.core.text.normalise import (
    ASCII_LETTERS,
    LEADING_MARKS,
    canonical,
    is_number,
    lookup_forms,
    normalise,
    normalise_once,
    spell_number,
)
from grounding.core.text.numeric_dates import NUMERIC_DATE_HINT, numeric_dates
from grounding.core.text.tokens import split_run
from grounding.core.text.units import number_with_words, pointed_numbers, split_unit
from grounding.core.text.values import classify

_JOINER_RUN = re.compile(r"[_\-./:#]+")
_HAS_DIGIT = re.compile(r"\d")
_MERIDIEM_TAIL = re.compile(r"\d\s*[ap]\.?m\.?$", re.IGNORECASE)
_NUMBER_LEAD = frozenset("0123456789-")
_PLAIN_DIGITS = re.compile(r"[0-9]+")
_LETTER_LED = re.compile(r"[a-z][a-z0-9]*")
_DATE_OR_TIME_HINT = re.compile(r"\d:\d|\d{4}-\d\d-\d")
_TAILS = 8  # runs of parts ending an identifier that are read as its components (§9.4)
_CACHE_LIMIT = 30_000  # distinct tokens kept; the cache is dropped whole past this (memory stays flat)
# What an ASCII run without a comma must look like to hold a number (_as_number): marks normalising strips
# and signs, digits and points, then at most a unit or words. A date, a time, an id or a version fails it in C, and a
# tool's strings hold many (§9.18 reads their numbers); a run that passes is still read in full.
_PLAIN_NUMBERS = re.compile(r"^-?[0-9]+(?:\.[0-9]+)?$", re.MULTILINE)  # of runs joined by newlines
MAY_BE_NUMBER = re.compile(r"[-+$#@'\"`(\[{<:]*[0-9][0-9.]*+(?:[-/]?[A-Za-z]++)*+[.;:!?%'\"`)\]}>+-]*+")


class TokenReading(NamedTuple):
    plain: tuple[str, ...]
    unit: tuple[str, ...]
    date: tuple[str, ...]
    component: tuple[str, ...]  # the token itself when it has joiners: its components are read on demand
    numbers: tuple[str, ...]  # canonical spellings of the absolute values of its numbers (with a unit or not)
    meridiem: bool  # "7am": a 12-hour time may be written here
    # a bare 3:15 is either half (§9.21), which the text it stands in decides (either_half): its forms with AM/PM
    # as a morning time, and those of its other half
    own_half: tuple[str, ...] = ()
    other_half: tuple[str, ...] = ()
    on_24_hour_clock: bool = False  # a bare time with an hour 0 or 13–23


class TokenReader:
    """Reads tokens for one digit bar and word policy, remembering each distinct token's reading."""

    def __init__(self, min_digits: int, keep_words: bool, *, cache: bool = True) -> None:
        self.min_digits = min_digits
        self.keep_words = keep_words
        self.cache = cache  # off where a test compares readings worked out afresh with the memoised ones
        self._cache: dict[str, TokenReading | bool] = {}

    def readings(self, runs: set[str]) -> list[TokenReading]:
        """The readings of the distinct token runs of a text (runs that ground nothing are dropped)."""
        if not self.cache:
            return [reading for reading in map(self._read_run, runs) if reading]
        cache = self._cache
        found: list[Any] = list(map(cache.get, runs))  # a reading, False (none) or None (not read yet)
        if None in found:
            if len(cache) > _CACHE_LIMIT:
                cache.clear()
            for run in runs:
                if run not in cache:
                    cache[run] = self._read_run(run) or False
            found = list(map(cache.get, runs))
        return [reading for reading in found if reading]

    def numbers(self, runs: set[str]) -> set[str]:
        """The numbers of the distinct token runs of a text: each run's TokenReading.numbers, without working
        out the rest of a reading (derived values need numbers only; a tool's strings hold many, §9.18).

        A run beginning with a letter holds none (normalising drops no letter), unless a comma splits it;
        plain numbers (most of the rest) are spelled all at once; only a run with a comma or shaped like a
        number with a unit is read token by token.
        """
        found: set[str] = set()
        candidates = set()
        for run in runs:
            if "," in run:
                if run[-1] != "," or "," in run[:-1]:
                    found |= self._numbers_of_run(run)
                    continue
                run = run[:-1]  # "23502.02," in a list written out: one token
            if run and run[0] not in ASCII_LETTERS:
                candidates.add(run)
        plain = _PLAIN_NUMBERS.findall("\n".join(candidates))  # told in one pass, not one call a run
        found.update(canonical(spell_number(number)).lstrip("-") for number in plain)
        for run in candidates.difference(plain):
            if MAY_BE_NUMBER.fullmatch(run) if run.isascii() else _may_begin_number(run):
                found |= self._numbers_of_run(run)
        return found

    def _numbers_of_run(self, run: str) -> set[str]:
        found = set()
        for token in split_run(run):
            value = self._value(token)
            if value is not None:
                number = _as_number(value)
                if number is not None:
                    found.add(number[0])
        return found

    def _value(self, raw: str) -> str | None:
        """A token normalised, or None when it grounds nothing (empty, or no digit where words do not count)."""
        value = normalise_once(raw)  # readings are kept per distinct run: normalise's memo would mostly miss
        return value if value and (self.keep_words or _HAS_DIGIT.search(value)) else None

    def _read_run(self, run: str) -> TokenReading | None:
        if "," not in run:
            return self._read_token(run)
        present = [reading for reading in map(self._read_token, split_run(run)) if reading]
        pointed = pointed_numbers(run) if "." in run else ()
        if pointed:  # 1.234,56: also the number it spells whole (its pieces, as before)
            present.extend(reading for reading in map(self._read_token, (n for _, _, n in pointed)) if reading)
        if len(present) <= 1:
            return present[0] if present else None
        columns = zip(*(reading[:5] for reading in present))  # plain, unit, date, component, numbers
        return TokenReading._make((*map(tuple, map(chain.from_iterable, columns)), any(r.meridiem for r in present),
                                   tuple(chain.from_iterable(r.own_half for r in present)),
                                   tuple(chain.from_iterable(r.other_half for r in present)),
                                   any(r.on_24_hour_clock for r in present)))

    def _read_token(self, raw: str) -> TokenReading | None:
        value = self._value(raw)
        if value is None:
            return None
        plain = lookup_forms(value)
        # Cheap character tests first: most tokens are plain numbers or ids with no §9 reading at all.
        meridiem = value[-1] in "m." and _MERIDIEM_TAIL.search(value) is not None
        number = _as_number(value)
        if number is not None:
            magnitude, without_unit = number
            unit = lookup_forms(without_unit) if without_unit is not None else ()
            return TokenReading(plain, unit, (), (), (magnitude,), meridiem)
        if ":" in value or "-" in value:
            parts = tuple(set(date_parts(value))) if _DATE_OR_TIME_HINT.search(value) else ()
            if parts:
                own, other, on_24_hours = halves(value) if ":" in value else ((), (), False)
                if own:  # its AM/PM forms are the text's to give (either_half), not the token's
                    parts = tuple(form for form in parts if form[-1] != "m")
                return TokenReading(plain, (), parts, (), (), meridiem, own, other, on_24_hours)
        if NUMERIC_DATE_HINT.search(value):  # 24/06/2024, 24.06.2024, 06-24-2024, 24/06/24: the ISO dates it is
            parts = numeric_dates(value, two_digit_year=True)
            if parts:
                return TokenReading(plain, (), parts, (), (), meridiem)
        if value[-1] == "m" and "h" in value:
            clock = duration_as_clock(value)  # 5h59m grounds 05:59, as 05:59 grounds 5h59m
            if clock is not None:
                return TokenReading(plain, (), tuple(set(date_parts(clock))) + (clock,), (), (), meridiem)
        # Components are worked out only if an answer needs them (most values are found plainly).
        pending = (value,) if _JOINER_RUN.search(value) else ()
        return TokenReading(plain, (), (), pending, (), meridiem)



def either_half(text: str, readings: list[TokenReading], meridiem: bool) -> Iterable[str]:
    """§9.21: the AM/PM forms of text's bare 12-hour times, of both halves (3:15 is 3:15 AM or 3:15 PM), of
    the morning alone where the text writes a bare time on the 24-hour clock (15:15 or 0:30 beside it says
    3:15 is the morning); where the text writes AM/PM, only of its times without one after them (a token's
    reading cannot tell where the token stands, and 9:40 PM is no 9:40 AM)."""
    both = not any(reading.on_24_hour_clock for reading in readings)
    if meridiem:
        return halves_written(text, both=both)
    own = chain.from_iterable(reading.own_half for reading in readings)
    return chain(own, chain.from_iterable(reading.other_half for reading in readings)) if both else own


def _may_begin_number(run: str) -> bool:
    """False when a token without a comma is surely no number: a number, once normalised, begins with a
    digit or a minus sign, and normalising drops only leading marks (and a colon) before it."""
    first = run.lstrip(LEADING_MARKS + ":")[:1]  # (a colon before a digit too: ":8080")
    return first == "-" or first.isdecimal()


def _as_number(value: str) -> tuple[str, str | None] | None:
    """A normalised token read as a number: its magnitude as the index spells it, and the number spelled
    without its unit when it has one (``16384mb``); None when it is no number."""
    if value[0] not in _NUMBER_LEAD:
        return None
    if is_number(value):
        return canonical(value).lstrip("-"), None
    number = split_unit(value) or number_with_words(value)
    if number is None:
        return None
    spelled = spell_number(number)
    return canonical(spelled).lstrip("-"), spelled


@lru_cache(maxsize=1 << 15)
def components_of(value: str, min_digits: int) -> tuple[str, ...]:
    """Parts of an identifier that are values themselves, and every run of parts ending it (§9.4).

    >>> sorted(set(components_of("gift_card_5086243", 4)))
    ['5086243', 'card_5086243']
    >>> "2025-03-07" in components_of("reports/2025-03-07/summary.png", 4)
    True
    """
    joiners = list(_JOINER_RUN.finditer(value))
    if not joiners:
        return ()
    parts = {piece for piece in _JOINER_RUN.split(value) if piece}
    # the runs of parts ending it, from its last joiners only: a blob (a base64 image) has thousands, and
    # every tail of it would be a copy of most of it (a value in it is still found among its parts)
    parts.update(value[joiner.end() :] for joiner in joiners[-_TAILS:] if joiner.end() < len(value))
    # a date inside a longer token (reports/2025-03-07/summary.png) is read as that date: its "-" joins
    # the date's own parts, so no part or run of parts ending the token is it
    found: list[str] = ISO_DATE_WRITTEN.findall(value) if "-" in value else []
    for part in parts:
        if not _HAS_DIGIT.search(part):
            continue  # a value needs a digit (no shapes apply to components)
        if _PLAIN_DIGITS.fullmatch(part):
            if len(part) >= min_digits:  # zero padding counts as written
                found.extend(lookup_forms(spell_number(part)))
        elif _LETTER_LED.fullmatch(part):
            if len(part) >= 4:  # an identifier: led by a letter, never a number, range or ratio
                found.append(part)
        else:
            spelled = normalise(part)
            classified = classify(spelled, min_digits)
            if classified is not None:
                found.extend(lookup_forms(spelled))
                found.extend(lookup_forms(classified.value))
    return tuple(found)
