"""SPEC §3: tokens, normalisation and lookup forms — the same functions on both sides."""

import pytest
from conftest import real_corpora
from hypothesis import example, given
from hypothesis import strategies as st

from grounding.core.text import tokens as tokens_module
from grounding.core.text.normalise import lookup_forms, normalise
from grounding.core.text.tokens import token_texts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("| **fc1/3** | `esx-r07-u22` |", ["fc1/3", "esx-r07-u22"]),  # table cells, bold, backticks separate
        ("xe-1/0/4,xe-1/0/5", ["xe-1/0/4", "xe-1/0/5"]),  # a comma not between digits splits
        ("41,200 and 1,23,456", ["41,200", "and", "1,23,456"]),  # Western and Indian groupings stay whole
        ("5107,5108", ["5107", "5108"]),  # not a grouping: two values (§9.8)
        ("1,234,5678", ["1", "234", "5678"]),  # an invalid grouping splits at every comma
        ("Malmö-27 Łódź-14", ["Malmö-27", "Łódź-14"]),  # letters of any script are token characters
        ("在庫は3862個です", ["3862"]),  # scripts written without spaces separate
        ("total=5120;", ["total", "5120"]),  # = and ; separate
        ("“SKU-1” «SKU-2» (SKU-3)", ["SKU-1", "SKU-2", "SKU-3"]),  # quotes and brackets separate
    ],
)
def test_tokens(text, expected):
    assert token_texts(text) == expected


@pytest.mark.parametrize(
    ("token", "normalised"),
    [
        ("FC1/3", "fc1/3"),  # lower-cased
        ("$41,200", "41200"),  # currency mark and grouping dropped
        ("2048.0", "2048"),  # trailing fractional zeros are not information
        ("3.10", "3.1"),
        ("+5", "5"),
        ("-$1,475.00", "-1475"),  # the sign before a currency mark belongs to the number
        ("$-5", "-5"),
        ("007", "007"),  # zero padding is kept as written (§9.8)
        ("00027.50", "00027.5"),
        ("0000", "0"),
        ("-0", "0"),
        ("89014103211118510721", "89014103211118510721"),  # a 20-digit serial, digit for digit
        ("0.0000001", "0.0000001"),  # never an exponent
        ("۳۴۸۱", "3481"),  # digits of other scripts fold to ASCII
        ("(2027-07-20).", "2027-07-20"),  # decoration stripped on both ends
        ("1,871/passenger", "1,871/passenger"),  # not a number: its comma stays
        ("#A0000000", "a0000000"),
    ],
)
def test_normalise(token, normalised):
    assert normalise(token) == normalised


@pytest.mark.parametrize(
    ("value", "forms"),
    [
        ("0xef0101", ("0xef0101", "ef0101")),  # 0x is optional on both sides
        ("0x", ("0x",)),  # nothing left to match without it
        ("00027", ("00027", "27")),  # a padded number also matches its canonical number
        ("27", ("27",)),  # ...but not the other way round
        ("fc1/3", ("fc1/3",)),
    ],
)
def test_lookup_forms(value, forms):
    assert lookup_forms(value) == forms


def test_normalisation_is_idempotent_on_examples():
    for token in ["$1,207.50", "-$3,480.00", "00042", "0xEF0101", "Köln-12", "2024-05-20T14:00:00Z"]:
        once = normalise(token)
        assert normalise(once) == once


_GROUPING_PIECES = ["1", "12", "123", "1234", ",", ",123", ",12", ",1234", "$", "-", ".", ".5", "a", " ", "x1"]


@given(st.text("ab09 1,.-:$|*#\n", max_size=40) | st.text("a0 1,.-\u00e9\u0663", max_size=20)
       | st.lists(st.sampled_from(_GROUPING_PIECES), max_size=12).map("".join))
@example("$1234,567.5 and 12,345,6789 and 1,234,567.89")
def test_the_tokens_with_a_digit_are_the_tokens_that_hold_one(text):
    from grounding.core.text.tokens import tokens, tokens_with_digits

    expected = [(t.text, t.start, t.end) for t in tokens(text) if any(ch.isdigit() for ch in t.text)]
    assert list(tokens_with_digits(text)) == expected


def test_a_lazy_pattern_compiles_once_on_first_use_and_then_answers_as_the_pattern():
    import re

    from grounding.core.text.patterns import LazyPattern

    compiled = []

    def compile_counting(*arguments):
        compiled.append(arguments)
        return re.compile(*arguments)

    pattern = LazyPattern(compile_counting, r"(\d+)-(\d+)", re.ASCII)
    assert compiled == []  # nothing at import
    assert pattern.fullmatch("12-34").groups() == ("12", "34")
    assert [m.group() for m in pattern.finditer("1-2 and 3-4")] == ["1-2", "3-4"]
    assert pattern.groups == 2 and pattern.flags & re.ASCII  # any attribute of the pattern
    assert compiled == [(r"(\d+)-(\d+)", re.ASCII)]


@given(st.text(st.sampled_from("0123456789٣.,+-eE ax"), max_size=12))
def test_the_comma_free_number_pattern_agrees_with_the_full_one_on_text_without_a_comma(text):
    from grounding.core.text.normalise import _NUMBER, _UNGROUPED_NUMBER

    if "," not in text:
        assert (_UNGROUPED_NUMBER.fullmatch(text) is None) == (_NUMBER.fullmatch(text) is None)


def test_a_units_last_character_is_told_as_the_pattern_tells_it_on_every_bmp_character():
    import re

    unit_letter = re.compile(r"[^\W\d_]")  # what a unit ends with (units._WITH_TAIL)
    for code in range(0x10000):
        character = chr(code)
        assert bool(unit_letter.fullmatch(character)) == (character.isalnum() and not character.isdecimal())


# Characters where the standard library's \w and the token class disagree, or nearly: numbers that are no
# decimal digits, combining marks, scripts written without spaces, an emoji's variation selector, and the
# separators of typography.
_EDGES = list("abcXYZ0123456789 :_-/.,%+@#$\"'()[]!?;\n\t") + list("éüßçñÖ٣٤在庫はกขー€²½ⅣⅫ①—–“”‘’…•→×") + [
    "\u0301", "\u093f", "\ufe0f", "\u200b", "\u00a0", "\u3000"]
_FAST_TEXT = st.text(st.sampled_from(_EDGES), max_size=40) | st.text(max_size=40)  # and any Unicode text


def _reference_tokens(text: str) -> list[tuple[str, int, int]]:
    """The tokens as SPEC §3.1 defines them: the regex module's pattern, then §3.2's commas."""
    found = []
    for run in tokens_module._TOKEN_RUN.finditer(text):
        found += [(t.text, t.start, t.end) for t in tokens_module._split_commas(run[0], run.start())]
    return found


def _same_tokens_as_the_pattern(text: str) -> None:
    reference = _reference_tokens(text)
    assert tokens_module.runs(text) == set(tokens_module._TOKEN_RUN.findall(text))
    assert [(t.text, t.start, t.end) for t in tokens_module.tokens(text)] == reference
    assert tokens_module.token_texts(text) == [token for token, _, _ in reference]
    assert tokens_module.tokens_with_digits(text) == [t for t in reference if any(c.isdigit() for c in t[0])]


@given(_FAST_TEXT)
def test_the_fast_path_gives_the_patterns_tokens_on_any_text(text):
    _same_tokens_as_the_pattern(text)


@pytest.mark.slow  # every character of the first three planes: a few seconds
def test_the_fast_path_tells_token_characters_as_the_pattern_on_every_character():
    for code in range(0x30000):
        character = chr(code)
        if 0xD800 <= code <= 0xDFFF:
            continue
        view = tokens_module.separated(character)
        assert len(view) == 1
        in_token = tokens_module._TOKEN_RUN.fullmatch(character) is not None
        assert (tokens_module._RUN.fullmatch(view) is not None) == in_token, hex(code)


def test_every_text_of_the_real_corpora_has_the_same_tokens_on_the_fast_path():
    import orjson

    from grounding.transcripts.formats import read_record

    for path in real_corpora():
        for number, line in enumerate(path.open("rb"), start=1):
            for item in read_record(orjson.loads(line), path.name, number).items:
                _same_tokens_as_the_pattern(item.text)


@given(st.text(alphabet="0123456789,,ab٣", max_size=30))
def test_digit_comma_runs_are_found_from_run_starts_only_as_the_plain_pattern_finds_them(word):
    import regex

    plain = regex.compile(r"\p{Nd}+(?:,\p{Nd}+)+")  # tries every digit as a start: quadratic on a long run
    assert [m.span() for m in tokens_module._DIGIT_COMMA_RUN.finditer(word)] == [m.span() for m in plain.finditer(word)]


@given(st.text(st.sampled_from(_EDGES), max_size=12).map(lambda text: text.replace(",", "") + ","))
def test_a_run_its_one_comma_ends_is_cut_as_the_comma_rule_cuts_it(run):
    """_split_commas tells a run whose only comma is its last without the patterns: the same tokens."""
    assert list(tokens_module._split_commas(run, 3)) == list(tokens_module._cut_at_commas(run, 3))
