"""Numbers written with a unit: ``32g``, ``48-port``, ``$2,349/mo`` (SPEC §9.2).

Only tails on the list are units. Any other tail makes the token an
identifier, so a reservation code such as ``4XGCCM`` is examined.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from typing import Any

# The tails a number may carry as a unit (SPEC §9.2): those that measure (a figure's, issue 53) ...
MEASURES = frozenset(
    """
    k m g t s h p l
    kb mb gb tb pb eb kib mib gib tib pib ki mi gi ti pi bit bits byte bytes kbit mbit gbit
    kbyte kbytes mbyte mbytes gbyte gbytes
    bps kbps mbps gbps tbps iops pps fps rps qps tps ops hz khz mhz ghz rpm
    ns us ms sec secs second seconds min mins minute minutes hr hrs hour hours day days wk wks
    week weeks mo mos mth mths month months yr yrs year years
    mm cm km in inch inches ft feet foot yd yds mile miles nm
    mg kg lb lbs oz ozs ton tons tonne tonnes gram grams
    ml cl dl gal gals liter liters litre litres qt
    mah wh kwh mwh kw mw va kva volt volts watt watts amp amps
    px dpi ppi mp
    bn mn mil degree degrees percent pct bp
    usd eur gbp jpy cad aud chf cny inr nzd sek nok dkk mxn brl krw sgd hkd
    """.split()
)
# ... and those that count things, with the tails of ordinals, multiples and times of day
COUNTED = frozenset(
    """
    x am pm st nd rd th factor
    pc pcs pk pack packs piece pieces item items unit units set sets port ports core cores cpu
    cpus vcpu vcpus gpu gpus node nodes thread threads seat seats user users person persons
    people pax guest guests adult adults night nights star stars bag bags box boxes bed beds
    bedroom bedrooms bath baths room rooms door doors cyl speed ply way pt pts point points stop
    stops leg legs hop hops step steps stage stages tier tiers level levels page pages line lines
    word words digit digits char chars letter letters time times slot slots lane lanes channel
    channels phase phases floor floors story stories car cars member members
    """.split()
)
UNITS = MEASURES | COUNTED
PEOPLE = frozenset({"people", "persons", "pax", "children", "men", "women", "staff", "crew"})
# words that end as plurals do but count nothing after a number ("step 3 shows", "in 2 always")
_NOT_PLURALS = frozenset("""
    always perhaps whereas besides across towards afterwards sometimes does goes seems means makes takes
    gives comes becomes remains includes contains shows says needs uses runs lets gets puts keeps works
    series
    """.split())  # ("iPhone 16 series", "RTX 40 series": a model's name)
_WORD_AFTER = re.compile(r"[ \u00a0]+([^\W\d_]+)(?!\w)")  # a whole word: not the x of "x2"


def counted_after(text: str, end: int) -> bool:
    """True when a noun that counts things follows the number ending at end: a counted unit (``3 rooms``), a
    word for people, or a plural (``182 visits``); never a unit of measure (``3 days`` is a duration).

    >>> [counted_after(t, t.index(" ")) for t in ["182 visits", "3   rooms", "12 people", "120 ms", "182 was"]]
    [True, True, True, False, False]
    >>> [counted_after(t, t.index(" ")) for t in ["12 shows"]]
    [False]
    >>> [counted_after(t, t.index(" ")) for t in ["16 series", "1.4 x2", "7 x"]]
    [False, False, True]
    """
    match = _WORD_AFTER.match(text, end)
    if match is None:
        return False
    word = match.group(1).lower()
    if word in MEASURES:
        return False
    return (word in COUNTED or word in PEOPLE
            or (len(word) >= 4 and word[-1] == "s" and word[-2:] not in ("ss", "us", "is") and word.isalpha()
                and word not in _NOT_PLURALS))

_WITH_TAIL = re.compile(
    r"(?P<number>[-+]?(?:\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})*,\d{3}|\d+)(?:\.\d+)?)"
    r"(?P<joiner>[-/]?)(?P<unit>[^\W\d_]+)(?:/(?P<second>[^\W\d_]+))?"
)

# A number (with an ordinal tail, a unit or a scale, or not) joined by "-" to words of letters only:
# 21-year-old, 17th-century (§9.17), 12x-zoom, 10gb-plan, 2b-parameter (§9.25)
_WITH_WORDS = re.compile(
    r"(?P<head>(?P<number>[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?:st|nd|rd|th|(?P<unit>[^\W\d_]+))?)"
    r"-[^\W\d_]{2,}(?:-[^\W\d_]+)*"
)
_SCALE_LETTERS = frozenset("kmb")


def split_unit(value: str) -> str | None:
    """The number part of a normalised number with a unit, or None.

    >>> [split_unit(v) for v in ["32g", "48-port", "2,349/mo", "100mb/s", "4xgccm", "5862-k", "2048/h"]]
    ['32', '48', '2,349', '100', None, None, '2048']
    """
    last = value[-1:]
    if not last.isalnum() or last.isdecimal():
        return None  # a unit ends with a letter ([^\W\d_]): told at once for dates, addresses and ids
    match = _WITH_TAIL.fullmatch(value)
    return match.group("number") if match is not None and _is_unit(match) else None


def number_with_words(value: str) -> str | None:
    """The number of a normalised number joined by "-" to words of letters (§9.17), or None; a number with
    a unit before the words is judged on its number too (§9.25).

    >>> [number_with_words(v) for v in ["21-year-old", "17th-century", "12-race", "1000-mile", "40213-rma2", "12-k"]]
    ['21', '17', '12', '1000', None, None]
    >>> [number_with_words(v) for v in ["12x-zoom", "10gb-plan", "7c-suite", "4xgccm-code"]]
    ['12', '10', None, None]
    """
    words = _words_after_number(value)
    return None if words is None or words.group("unit") not in _HEAD_UNITS else words.group("number")


def written_before_words(value: str) -> str | None:
    """The number as written before a number with words' words, its unit or scale kept (``2b`` of
    ``2b-parameter``): what §9.22 looks for letter for letter. None when value has no such words.

    >>> written_before_words("2b-parameter"), written_before_words("21-year-old"), written_before_words("x-1")
    ('2b', '21', None)
    """
    words = _words_after_number(value)
    if words is None or words.group("unit") not in _HEAD_UNITS and words.group("unit") not in _SCALE_LETTERS:
        return None
    return words.group("head")


def _words_after_number(value: str) -> re.Match | None:
    return _WITH_WORDS.fullmatch(value) if "-" in value and value[:1] in _NUMBER_FIRST else None


_NUMBER_FIRST = frozenset("+-0123456789")


def _is_unit(match: re.Match) -> bool:
    unit, second = match.group("unit", "second")
    if unit not in UNITS or (second is not None and second not in UNITS):
        return False
    return len(unit) > 1 or match.group("joiner") != "-"  # "5862-K" is a bay id, not a number of kelvins


SCALES = {"thousand": 3, "million": 6, "billion": 9, "trillion": 12}
SCALE_WORDS = frozenset(spelled for word in SCALES for spelled in (word, word.capitalize(), word.upper()))
_HEAD_UNITS = UNITS | {None}  # no unit before the words, or one on the list (a scale letter is no unit)
_SCALED = re.compile(
    r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?\s+(thousand|million|billion|trillion)\b", re.IGNORECASE
)


def writes_scale(distinct: set[str], text: str) -> bool:
    """text (whose distinct token runs are distinct) may write a number with a scale word (scaled_numbers)."""
    return not distinct.isdisjoint(SCALE_WORDS) or writes_cjk_scale(text)


def writes_cjk_scale(text: str) -> bool:
    """text writes a scale of Chinese or Japanese (万, 亿), which glue to the number they scale."""
    return not text.isascii() and _CJK_SCALE.search(text) is not None


def scaled_numbers(text: str) -> list[str]:
    """The numbers text writes with a scale word, spelled out: ``21 million`` is 21000000 (a tool's prose),
    ``5500万`` 55000000.

    >>> scaled_numbers("about 21 million people, 1.5 Billion in 2023, 3,200 thousand")
    ['21000000', '1500000000', '3200000']
    >>> scaled_numbers("营收5500万元，利润1.2亿元")
    ['55000000', '120000000']
    """
    found = []
    cjk = (match.groups() for match in _CJK_SCALED.finditer(text)) if writes_cjk_scale(text) else ()
    written = [*_scale_words_written(text), *cjk]
    for whole, fraction, word in written:
        try:
            number = Decimal(whole.replace(",", "") + ("." + fraction if fraction else "")).scaleb(
                _SCALE_WORDS_AFTER[word.lower()])
        except InvalidOperation:
            continue
        found.append(format(number.normalize(), "f"))
    return found


def _scale_words_written(text: str) -> Iterator[tuple[Any, ...]]:
    """What _SCALED finds in text (its groups: the number, its decimals or None, the word), found from each
    scale word back to the number before it: the pattern tried at every place of a long text cost ~4 ms per
    80 kB (a web page), where finding the words costs ~0.1."""
    if not text.isascii() and len(text.lower()) != len(text):
        yield from (match.groups() for match in _SCALED.finditer(text))  # lowering moved the places
        return
    lowered = text.lower()
    found = []
    for word in SCALES:
        at = lowered.find(word)
        while at >= 0:
            end = at + len(word)
            if end == len(text) or not _WORD_CHARACTER.match(text, end):  # (the word's \b)
                match = _SCALED.match(text, _number_run_before(text, at), end)
                if match is not None:
                    found.append((at, match.groups()))
            at = lowered.find(word, end)
    yield from (groups for _, groups in sorted(found))  # in the text's order, as the pattern finds them


def _number_run_before(text: str, at: int) -> int:
    """Where the run of digits, points and commas before the white space before at begins: the only place a
    match of _SCALED ending at at may begin (it may not begin after a digit, point or comma)."""
    spaced = at
    while spaced > 0 and text[spaced - 1].isspace():
        spaced -= 1
    start = spaced
    while start > 0 and (text[start - 1] in ".," or text[start - 1].isdecimal()):
        start -= 1
    return start if spaced < at else at


_WORD_CHARACTER = re.compile(r"\w")


CJK_SCALES = "万萬亿億"  # ten thousand and a hundred million, simplified and traditional
_CJK_SCALE = re.compile(f"[{CJK_SCALES}]")
_CJK_SCALE_WORD = f"(万亿|萬億|[{CJK_SCALES}])"  # glued to the number, or after one space: 5500万
_CJK_SCALED = re.compile(rf"(?<![\d.,])(\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\.(\d+))?[ \u00a0]?{_CJK_SCALE_WORD}")


# Marks that group a number's thousands and nothing else: a no-break space (U+00A0) or narrow one (U+202F),
# a thin space, an apostrophe (Swiss); after such groups a comma or a point can only mark the decimals. A plain
# space is no such mark: "rooms 101 202" are two numbers.
GROUP_MARKS = "\u00a0\u202f\u2009'\u2019"
# a number so grouped, one mark throughout
_GROUPED = re.compile(rf"(?<![\d.,])\d{{1,3}}([{GROUP_MARKS}])\d{{3}}(?:\1\d{{3}})*(?:[.,]\d+)?(?!\d)")


def grouped_numbers(text: str) -> list[tuple[int, int, str]]:
    """(start, end, number) of each number text writes with its thousands grouped by a no-break space, a
    thin space or an apostrophe, the number spelled plainly.

    >>> grouped_numbers("41\u202f200 clients, 1'250'000 CHF, 41\u00a0200,50 €, rooms 101 202")
    [(0, 6, '41200'), (16, 25, '1250000'), (31, 40, '41200.50')]
    """
    return [(match.start(), match.end(), match.group().replace(match.group(1), "").replace(",", "."))
            for match in _GROUPED.finditer(text)]


# a number whose thousands points group and whose decimals a comma marks (1.234,56; 1.234.567,89): the
# reading no English number has, so it is read whole wherever it is written
_POINTED = re.compile(r"(?<![\d.,'])\d{1,3}(?:\.\d{3})+,\d+(?!\d|[.,]\d)")


_POINTED_HINT = re.compile(r"\.\d{3},\d")  # what every such number writes: found by its point, fast


def writes_pointed(text: str) -> bool:
    """True when text may write a number pointed so (one search for its literal point, where the pattern
    would try every digit)."""
    return _POINTED_HINT.search(text) is not None


def pointed_numbers(text: str) -> list[tuple[int, int, str]]:
    """(start, end, number) of each number text writes with points grouping its thousands and a decimal
    comma, the number spelled plainly.

    >>> pointed_numbers("suma 1.234,56 €; 1.234.567,89; v1.2,3; 1.23,4; 12,5")
    [(5, 13, '1234.56'), (17, 29, '1234567.89')]
    """
    return [(match.start(), match.end(), match.group().replace(".", "").replace(",", "."))
            for match in _POINTED.finditer(text)]


# the answer's scale words: English, and those of the languages its users write (Mio., Mrd., Millionen,
# millones, milliards; the Indian lakh and crore; the Chinese and Japanese 万 and 亿, ten thousand and a
# hundred million, in simplified and traditional characters), each with its power of ten
_SCALE_WORDS_AFTER = {**SCALES, "millions": 6, "billions": 9, "mio": 6, "millionen": 6, "millones": 6,
                      "mrd": 9, "milliarde": 9, "milliarden": 9, "milliard": 9, "milliards": 9,
                      "lakh": 5, "lakhs": 5, "crore": 7, "crores": 7,
                      "万": 4, "萬": 4, "亿": 8, "億": 8, "万亿": 12, "萬億": 12}
# A number whose thousands plain spaces group (French, Polish, Estonian, Swedish write "41 900 €"), read only
# where money or a percentage says it is one number: a currency sign after it or before it, or a percent
# sign after it. "rooms 101 202" and "in 2024 41 orders" are numbers side by side: no such sign around them.
_SPACED = re.compile(
    r"(?<![\d.,])(?<!\d )\d{1,3}(?: \d{3})+(?:,\d{1,2})?(?![\d]|[.,]\d)(?=[ \u00a0]?[€£¥₹₽₩%$])"
    r"|(?<=[€£¥₹₽₩$] )\d{1,3}(?: \d{3})+(?:,\d{1,2})?(?![\d]|[.,]\d| \d)"
)


def may_write_spaced(text: str) -> bool:
    """text may write a number whose thousands plain spaces group: each sign that says so is not ASCII but
    the percent and dollar signs, and a group of three digits follows a space (tests in C, where most texts
    fail the first ones; the group's search finds each space by its literal)."""
    return ((not text.isascii() or "%" in text or "$" in text)
            and _SPACE_THEN_GROUP.search(text) is not None)


_SPACE_THEN_GROUP = re.compile(r" \d\d\d(?!\d)")


def spaced_numbers(text: str) -> list[tuple[int, int, str]]:
    """(start, end, number) of each number text writes with plain spaces grouping its thousands where money or
    a percentage is said around it, the number spelled plainly.

    >>> spaced_numbers("41 900 €, 1 234,56 €, € 12 500, 95 000 %, $ 1 200, rooms 101 202, in 2024 41 900 €")
    [(0, 6, '41900'), (10, 18, '1234.56'), (24, 30, '12500'), (32, 38, '95000'), (44, 49, '1200')]
    """
    found: dict[int, tuple[int, int, str]] = {}
    for sign in _SIGN.finditer(text):  # (the pattern tried near each sign only: tried at every digit, it cost
        at = sign.start()               # a sixth of reading a corpus of non-ASCII texts)
        for match in _SPACED.finditer(text, max(0, at - _NEAR_A_SIGN), at + _NEAR_A_SIGN):
            found[match.start()] = (match.start(), match.end(), match.group().replace(" ", "").replace(",", "."))
    return sorted(found.values())


def may_group_with_spaces(text: str) -> bool:
    """text may write a number whose thousands plain spaces group (a group of three digits after a space)."""
    return _SPACE_THEN_GROUP.search(text) is not None


def space_grouped_numbers(text: str) -> list[tuple[int, int, str]]:
    """(start, end, number) of each run of digit groups that plain spaces may join into one number, wherever
    it stands: the first group of one to three digits, every other of three (``41 900 clients``, ``1 250 000``),
    a decimal comma's digits after it; a whole run only, never a piece of one that breaks the pattern (``555
    123 4567``, ``in 2024 41 900``: those stay apart). Such a run may also be numbers side by side (``rooms
    101 202``): the judge grounds it by either reading (grounding.core.judge).

    >>> space_grouped_numbers("41 900 clients, 1 250 000 in all, rooms 101 202, call 555 123 4567, in 2024 41 900")
    [(0, 6, '41900'), (16, 25, '1250000'), (40, 47, '101202')]
    """
    return [(match.start(), match.end(), match.group().replace(" ", "").replace(",", "."))
            for match in _SPACE_GROUPED.finditer(text)]


SPACE_GROUPS = re.compile(r"\d{1,3}(?: \d{3})+")  # groups plain spaces may join (the judge reads them apart too)
_SPACE_GROUPED = re.compile(rf"(?<![\d.,])(?<!\d ){SPACE_GROUPS.pattern}(?:,\d{{1,2}})?(?![\d]|[.,]\d| \d)")
_SIGN = re.compile(r"[€£¥₹₽₩%$]")
_NEAR_A_SIGN = 40  # characters: a number so grouped and the sign beside it


_SCALE_WORD_AFTER = re.compile(
    r"\s+(thousand|millions?|billions?|trillion|mio|millionen|millones|mrd|milliarde[n]?|milliards?|lakhs?|crores?)"
    r"(?:\b\.?|\b)"
    rf"|[ \u00a0]?{_CJK_SCALE_WORD}", re.IGNORECASE)


def may_write_scale_word(text: str) -> bool:
    """text may write a scale word scale_word_after reads: substring tests in C, before its pattern."""
    return ("illi" in text or "housand" in text or "illon" in text or "lakh" in text or "crore" in text
            or "Mio" in text or "Mrd" in text or writes_cjk_scale(text))


def scale_word_after(text: str, end: int) -> tuple[int, int] | None:
    """(its power of ten, where it ends) of the scale word written right after a number that ends at end
    (``$148.51 billion``), or None.

    >>> scale_word_after("$148.51 billion in revenue", 7), scale_word_after("148.51 people", 6)
    ((9, 15), None)
    >>> scale_word_after("1200 Mio. Euro", 4), scale_word_after("45 lakh rupees", 2), scale_word_after("3 Milliarden", 1)
    ((6, 9), (5, 7), (9, 12))
    >>> scale_word_after("营收5500万元", 6), scale_word_after("12.3亿元", 4), scale_word_after("3万亿", 1)
    ((4, 7), (8, 5), (12, 3))
    """
    match = _SCALE_WORD_AFTER.match(text, end)
    return None if match is None else (_SCALE_WORDS_AFTER[(match.group(1) or match.group(2)).lower()], match.end())


# A number glued to b/bn (billions) or t/tn (trillions), as finance writes amounts: $577B, $3.17T
_SCALE_SUFFIX = re.compile(r"([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(bn?|tn?)")
_SUFFIX_EXPONENT = {"b": 9, "bn": 9, "t": 12, "tn": 12}


def scale_suffix(value: str) -> tuple[str, int] | None:
    """(the number, its power of ten) of a normalised number written with a scale suffix, or None.

    >>> scale_suffix("577b"), scale_suffix("400.4bn"), scale_suffix("3.17t"), scale_suffix("12gb")
    (('577', 9), ('400.4', 9), ('3.17', 12), None)
    """
    match = _SCALE_SUFFIX.fullmatch(value)
    return None if match is None else (match.group(1), _SUFFIX_EXPONENT[match.group(2)])


def scaled(number: str, exponent: int) -> str:
    """number times 10**exponent, spelled without exponent or trailing zeros after a point.

    >>> scaled("400.4", 9), scaled("1,200", 3)
    ('400400000000', '1200000')
    """
    return format(Decimal(number.replace(",", "")).scaleb(exponent).normalize(), "f")
