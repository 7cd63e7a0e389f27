"""The fast path (seen verbatim, read on demand, piece by piece) gives the verdicts of reading everything.

Each case is judged twice: as ``ground check`` runs, and with the reference index
(tools/reference_index.py) that reads every piece whole as it comes. The cases
are the ones where a text does not spell a form the way the index does.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest
from conftest import openai_record, unsupported, via
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from grounding import json_exact
from grounding.core.engine import check_conversation
from grounding.core.evidence import search_keys, verbatim
from grounding.core.evidence.index import EvidenceIndex
from grounding.core.evidence.token_readings import TokenReader
from grounding.core.settings import Settings, build_settings
from grounding.core.text.normalise import spell
from grounding.transcripts.formats import read_record
from tools.reference_index import ReferenceIndex

# fast = reference, over many generated cases: run by CI (.ci/run) and by `pytest -m slow`, not by default
pytestmark = pytest.mark.slow


def _verdicts(record: dict, settings: Settings, index: type[EvidenceIndex] = EvidenceIndex) -> list:
    conversation = read_record(record, "test.jsonl", 1)
    return [answer.verdict for answer in check_conversation(conversation, settings, index=index)]


def both(*steps, answer: str, **kwargs):
    """The fast verdict on the answer, after checking the reference index (every piece read at once) agrees."""
    record = openai_record(*steps, answer=answer, arguments=kwargs.pop("arguments", None))
    settings = build_settings(**kwargs)
    fast = _verdicts(record, settings)
    slow = _verdicts(record, settings, ReferenceIndex)
    assert fast == slow
    return fast[-1]


def test_a_number_with_an_exponent_is_read_not_searched():
    verdict = both('{"bytes": 1.5e3, "id": "x"}', answer="It moved 1500 bytes.")
    assert unsupported(verdict) == []


def test_a_string_with_an_escape_is_read_not_searched():
    verdict = both('{"name": "caf\\u00e9 4471-b", "note": "line\\nORD-88231"}', answer="Order ORD-88231 at café 4471-b.")
    assert unsupported(verdict) == []


@pytest.mark.parametrize("quote", ["", "\u201c"])  # an ASCII text is searched; one beyond ASCII cut into runs
def test_a_value_a_comma_ends_is_said_and_a_longer_or_shorter_one_is_not(quote):
    result = f"By mid-2025, {quote}agents{quote} shipped ORD-4471, then 5768,ORD-4472 and ORD-4473,5."
    for _ in range(5):  # (past the questions a text answers by search before it is cut into its runs)
        verdict = both(result, answer="By mid-2025 ORD-4471 had shipped; ORD-44711, ORD-447, 5768 and ORD-4473 too.")
        assert unsupported(verdict) == ["ord-447", "ord-44711"]


def test_a_grouping_comma_in_a_string_or_a_dollar_sign_is_dropped_from_the_search_text():
    assert unsupported(both('{"amount": "EUR 1,234,567.50", "id": "x"}', answer="It came to 1234567.5 EUR.")) == []
    assert unsupported(both('{"fee": "-$1475", "note": "12$345 due"}', answer="Fees of 1475 and 12$345.")) == []
    assert unsupported(both('{"ids": [1234,5678], "n": "a,b"}', answer="Ids 1234 and 56781234.")) == ["56781234"]


def test_a_float_written_with_a_trailing_zero():
    assert unsupported(both('{"total": 1000.0}', answer="The total is 1,000.")) == []


def test_rounding_reads_the_piece_holding_the_nearby_number():
    verdict = both({"id": "a"}, {"rate": 1234.5678}, answer="The rate is about 1,234.57.")
    assert via(verdict) == {"1234.57": "rounded"}


def test_rounding_down_reads_the_piece_one_step_below():
    verdict = both({"rate": 9999.96}, answer="The rate is 10,000.0 today.")
    assert via(verdict) == {"10000": "rounded"}


def test_rounding_down_reads_the_piece_whose_number_starts_with_the_step_written_out():
    verdict = both({"id": "35801"}, {"rate": 3580.07}, answer="The rate is 3,580.1 today.")
    assert via(verdict) == {"3580.1": "rounded"}


@settings(max_examples=200)
@given(
    st.decimals(min_value=0, max_value=10**6, places=4, allow_nan=False, allow_infinity=False),
    st.integers(0, 3),
    st.sampled_from(["{number}", '"{number} ms"', '"{number}"']),
    st.sampled_from([-1, 0, 1]),
)
def test_rounding_finds_a_number_wherever_the_fast_path_reads(number, decimals, spelling, nudge):
    """An answer's number near a read one, written to 0-3 decimals: the fast path, which reads only the pieces
    whose search text holds the rounded spellings, agrees with reading everything."""
    written = number.quantize(Decimal(1).scaleb(-decimals)) + nudge * Decimal(1).scaleb(-decimals)
    if written <= 0:
        return
    result = '{"id": "x", "value": ' + spelling.format(number=number) + "}"
    both({"id": "35801", "n": 3580}, result, answer=f"The value is {written:,} now.")


def test_a_time_of_day_is_read_from_another_spelling():
    verdict = both({"at": "2027-07-04T16:20:00Z"}, answer="It ran at 4:20pm on 2027-07-04.")
    assert unsupported(verdict) == []


def test_a_prose_date_grounds_an_iso_date():
    verdict = both("Shipped on May 23, 2024 from the depot.", answer="It shipped 2024-05-23.")
    assert via(verdict) == {"2024-05-23": "prose-date"}


def test_an_hour_without_minutes_is_read_as_a_time_on_the_hour_from_a_later_piece():
    verdict = both({"id": "a"}, "The window opens at 3 P.M. daily.", answer="It opens at 15:00.")
    assert via(verdict) == {"15:00": "date-part"}


def test_a_twelve_hour_time_with_minutes_grounds_its_24_hour_spelling():
    verdict = both({"at": "noon"}, "Backups run at 4:20 pm.", answer="Backups run at 16:20.")
    assert via(verdict) == {"16:20": "date-part"}


def test_a_yearless_prose_date_and_a_year_read_elsewhere_ground_an_iso_date():
    verdict = both({"year": 2024}, {"a": "b"}, "Delivered on 5 March.", answer="Delivered 2024-03-05.")
    assert via(verdict) == {"2024-03-05": "prose-date"}


def test_an_iso_date_with_no_month_of_the_year_is_not_a_prose_date():
    verdict = both({"year": 2024}, "Delivered on 5 March.", answer="Delivered 2024-13-05.")
    assert unsupported(verdict) == ["2024-13-05"]


def test_signed_currency_and_grouping_in_text():
    verdict = both("Balance: -$1,475.00 as of today", answer="The balance is 1475 dollars owed.")
    assert via(verdict) == {"1475": "sign"}


def test_a_component_in_a_later_piece():
    verdict = both({"a": "x"}, {"card": "gift_card_5086243"}, answer="Card 5086243 was used.")
    assert via(verdict) == {"5086243": "component"}


def test_a_value_searched_for_in_vain_is_found_in_a_piece_seen_later():
    first = openai_record({"order": "ORD-1"}, answer="Order 58214 is late.")
    later = openai_record({"id": "gift_card_58214"}, answer="Order 58214 is late.")
    record = {"id": "test", "messages": first["messages"] + later["messages"][1:]}  # one user turn, two answers
    settings = build_settings()
    fast, slow = _verdicts(record, settings), _verdicts(record, settings, ReferenceIndex)
    assert fast == slow
    assert [unsupported(verdict) for verdict in fast] == [["58214"], []]
    assert via(fast[1]) == {"58214": "component"}


def test_a_failed_lookup_lends_nothing_its_arguments_spell():
    verdict = both({"error": "not found"}, answer="Order 88231 is missing.", arguments={"order": "88231"})
    assert unsupported(verdict) == ["88231"]


def test_a_failed_result_is_read_only_for_a_question_its_search_text_could_answer():
    failed = '{"error": "order ORD-88231 not found; nearest depot DEP-4410, retry in 3600 s"}'
    verdict = both(failed, answer="Order ORD-88231 failed; depot DEP-4410 will retry after 3,600 s.",
                   arguments={"order": "ORD-88231"})
    assert unsupported(verdict) == ["ord-88231"]  # what the call spelled; the rest is read off the error
    verdict = both(failed, answer="Refund RF-55120 is queued.", arguments={"order": "ORD-88231"})
    assert unsupported(verdict) == ["rf-55120"]
    index = EvidenceIndex()
    index.see_result(failed, arguments=json.dumps({"order": "ORD-88231"}))
    assert not index.is_read_plainly("rf-55120") and index._unread  # not read: its text cannot hold it
    assert index.is_read_plainly("dep-4410") and not index._unread


def test_a_composite_with_a_part_that_is_no_value_fails_before_any_part_is_looked_up():
    from grounding.core.judge import judge_answer

    result = '{"port": "Ethernet1/5", "peer": "Ethernet2/7"}'
    verdict = both(result, answer="Traffic moved to ETHERNET1/21.")
    assert unsupported(verdict) == ["ethernet1/21"]
    index = EvidenceIndex()
    index.see_result(result)
    judge_answer("Traffic moved to ETHERNET1/21.", index, Settings())
    assert index._unread  # "21" is no value, so "ethernet1" (held inside Ethernet1/5) was never looked up


# Numbers checked only when a test or a reading needs them ------------------------------------------------------

_LONG = "12345678901234567.5"  # a literal a float does not keep
_EXACTNESS_LEAVES = st.one_of(st.integers(-10, 10**20), st.sampled_from([0.5, 2.0, 0.0, 1e-5]),
                              st.text("ab7\n", max_size=3), st.booleans(), st.none(), st.just("LONG"), st.just("TINY"))
_EXACTNESS_DOCUMENTS = st.recursive(
    _EXACTNESS_LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["error", "n", "id", "checked"]), inner,
                                                               max_size=3),
    max_leaves=8,
)


def _json_with_long_literals(document: object) -> str:
    """The document as JSON, "LONG" and "TINY" written as literals a float does not keep (one reads as 0.0)."""
    return json.dumps(document).replace('"LONG"', _LONG).replace('"TINY"', "0." + "0" * 400 + "1")


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(_EXACTNESS_DOCUMENTS, _EXACTNESS_DOCUMENTS | st.none(), st.booleans(), st.booleans())
@example({"error": "TINY"}, None, False, False)  # an error that reads as 0.0 until checked
@example({"id": "LONG"}, {"id": "LONG"}, False, False)  # echoes its call: says nothing, told exactly
@example({"id": "LONG"}, {"id": "LONG", "q": "\n"}, False, False)  # an escape in the call: every leaf compared
@example({"af_absent": True, "checked": ["x"], "n": "LONG"}, None, False, False)  # an absence is read
def test_a_result_read_before_its_numbers_are_checked_is_judged_as_one_parsed_exactly(document, arguments, is_error,
                                                                                     absent):
    from grounding.core.evidence.documents import parse_with_origin
    from grounding.core.evidence.forms import ReadOptions
    from grounding.core.evidence.reading import Examined, _judge_failure, examine_result, read_examined, read_numbers

    def parsed_exactly(text: str) -> Examined:  # what examine_result does, its text parsed exactly at once
        document, exact_json, notes, exact = parse_with_origin(text, checked=True)
        examined = Examined(text, document, exact_json, notes, exact=exact)
        _judge_failure(examined, ReadOptions(), is_error, call)
        return examined

    if absent and isinstance(document, dict):
        document = {**document, "af_absent": True, "checked": ["x"]}
    text = _json_with_long_literals(document)
    call = None if arguments is None else _json_with_long_literals(arguments)
    lazy = examine_result(text, ReadOptions(), is_error, call, None)
    exact = parsed_exactly(text)
    assert (lazy.failed, lazy.absence) == (exact.failed, exact.absence)  # what the arguments spell: read below
    options = ReadOptions()
    assert read_examined(lazy, options) == read_examined(exact, options)
    lazy = examine_result(text, options, is_error, call, None)
    numbers, exact_numbers = read_numbers(lazy, options), read_numbers(exact, options)
    assert (numbers is None) == (exact_numbers is None)
    if numbers is not None:
        assert (numbers.numbers, numbers.collections) == (exact_numbers.numbers, exact_numbers.collections)


def test_derived_totals_are_found_in_reading_order():
    first = {"items": [{"fee": 1200}, {"fee": 800}]}
    second = {"rows": [{"cost": 1500}, {"cost": 500}]}
    verdict = both(first, second, answer="Altogether $2,000 was charged.")  # (a bare 2000 reads as a year)
    assert verdict.grounded_via[0].formula == "2000 = 1200 + 800 (total of 'fee' over 2 items)"


def test_operands_spelled_from_literals_match_the_parsed_numbers():
    result = '{"fees": [1200.50, 2250.250], "refund": {"net": -2500.0, "ref": "1200"}, "big": 12345678901234567.5}'
    verdict = both(result, answer="Fees 3450.75 in all, the net doubled 5000, and 24691357802469135.")
    assert via(verdict) == {"3450.75": "derived", "5000": "derived", "24691357802469135": "derived"}
    # a string's number is an operand (§9.18), and "fees" lists two items: a count of 2 (§9.20)
    assert via(both(result, answer="The ref doubled is 2400.")) == {"2400": "derived"}
    assert unsupported(both(result, answer="The ref tripled is 3600.")) == ["3600"]  # no count of 3 stated


def test_an_exponent_literal_sends_derived_values_to_the_walk():
    verdict = both('{"a": 1.5e3, "b": 500}', answer="Together 2,000.")
    assert via(verdict) == {"2000": "derived"}
    assert via(both('{"a": 1.5E3, "b": 500}', answer="Together 2,000.")) == {"2000": "derived"}


def test_an_invented_value_is_flagged_without_reading_unrelated_pieces():
    verdict = both({"order": "ORD-58214"}, {"zip": "90210"}, answer="Order ORD-58215 ships to 90210.")
    assert unsupported(verdict) == ["ord-58215"]


_ALNUM = "abcdefghjkmnpqrstuvwxyzABCDEFGH0123456789"
_values = st.one_of(
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(min_value=-1e9, max_value=1e9, allow_nan=False).map(lambda x: round(x, 3)),
    st.builds(lambda a, s, b: f"{a}{s}{b}", st.text(_ALNUM, min_size=1, max_size=5),
              st.sampled_from(["-", "_", "/", ".", ":", ""]), st.text("0123456789", min_size=2, max_size=8)),
    st.sampled_from(["2024-05-19", "2024-05-19T16:20:00Z", "May 19, 2024", "7 pm", "$1,234.50", "-$17,021",
                     "3 P.M.", "16:00", "4 May", "at 9:05am"]),
)
# Values a §9 reading writes differently from the text (times of day, prose dates).
_READ_AS = {"2024-05-19T16:20:00Z": "4:20pm", "May 19, 2024": "2024-05-19", "7 pm": "19:00", "3 P.M.": "15:00",
            "16:00": "4pm", "4 May": "2024-05-04", "at 9:05am": "09:05"}


def _spelled(value, twist: int) -> str:
    """How an answer writes a value: as read, grouped, rounded, changed by one digit, or doubled; a string
    as read, upper-cased, as a reading writes it, changed by one digit, or in code."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [f"{value}", f"{value:,}", f"{round(value, 1)}", f"{value + 1}", f"{value * 2}"][twist]
    text = str(value)
    if twist == 3 and any(ch.isdigit() for ch in text):
        at = max(i for i, ch in enumerate(text) if ch.isdigit())
        return text[:at] + str((int(text[at]) + 1) % 10) + text[at + 1 :]
    return [text, text.upper(), _READ_AS.get(text, f"**{text}**"), text, f"`{text}`"][twist]


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=120)
@given(
    st.lists(st.dictionaries(st.sampled_from(["id", "amount", "at", "ref", "note"]), _values, min_size=1, max_size=4),
             min_size=1, max_size=4),
    st.lists(st.tuples(st.integers(0, 15), st.integers(0, 4)), min_size=1, max_size=6),
    st.booleans(),
)
def test_the_fast_path_always_agrees_with_reading_everything(results, picks, as_text):
    values = [value for result in results for value in result.values()]
    words = [_spelled(values[at % len(values)], twist) for at, twist in picks]
    steps = [" ".join(f"{k}={v}" for k, v in r.items()) if as_text else json.dumps(r) for r in results]
    both(*steps, answer="Found " + ", then ".join(words) + ".")


def test_a_long_literal_outside_strings_is_parsed_exactly_and_one_inside_a_string_is_not_a_number():
    assert json_exact.parse('{"x": 0.12345678901234567}') == {"x": Decimal("0.12345678901234567")}
    assert json_exact.parse('[1, -12345678901234567.5]')[1] == Decimal("-12345678901234567.5")
    assert json_exact.parse('{"iban": "DE12345678901234567890"}') == {"iban": "DE12345678901234567890"}
    verdict = both('{"iban": "DE12345678901234567890", "big": 123456789012345678901234}',
                   answer="IBAN DE12345678901234567890 holds 123456789012345678901234.")
    assert unsupported(verdict) == []


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_a_float_leaf_is_spelled_as_the_decimal_its_repr_writes(number):
    assert json_exact.number_spelling(number) == json_exact.spell_decimal(Decimal(repr(number)))


@given(st.lists(st.one_of(st.integers(), st.floats(), st.decimals(allow_nan=False, allow_infinity=False),
                          st.sampled_from([0.0, -0.0, 10.0, -250.0, 1e16, 1e-7, 2**70]))))
def test_the_magnitudes_of_number_leaves_are_their_spellings_without_sign(leaves):
    import math

    from grounding.core.evidence.leaves import magnitudes_of

    # NaN and the infinities are words, never operands (an operand must be a number to compute with)
    finite = [leaf for leaf in leaves if not isinstance(leaf, float) or math.isfinite(leaf)]
    assert magnitudes_of(leaves) == {json_exact.number_spelling(leaf).lstrip("-") for leaf in finite}


@given(st.from_regex(r"[0-9]{1,6}(\.[0-9]{1,4})?", fullmatch=True))
def test_a_canonical_spelling_is_the_one_the_index_spells_its_value(spelling):
    assert verbatim.is_canonical(spelling) == (spell(Decimal(spelling)) == spelling)


_JOINERS = st.sampled_from([":", ",", "[", " ", "-", '"', "a", "\t", ": -", ", ", "\n"])


_RUNS = st.one_of(st.text("0123456789.", max_size=15), st.text("0123456789.", min_size=16, max_size=20))


@settings(max_examples=300)
@given(st.lists(st.tuples(_JOINERS, _RUNS), max_size=6))
def test_the_long_literal_test_finds_what_its_pattern_describes(parts):
    data = "".join(joiner + run for joiner, run in parts).encode()
    assert json_exact.has_long_literal(data) == (re.search(rb"[:\[,]\s*[0-9.+-]{16}", data) is not None)


@settings(max_examples=300)
@given(st.text("0123456789.+-,eE:a\" ", max_size=24))
def test_a_comma_between_digit_marks_is_found_wherever_it_stands(text):
    notes = json_exact.Notes(text)
    assert notes.digit_comma == (re.search(r"[0-9.+-],[0-9.+-]", text) is not None)


# JSON texts seen without splitting them at their quotes --------------------------------------------------

_JSON_LEAVES = st.one_of(
    st.integers(-10**6, 10**12),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text("0123456789eE.:-, []ab", max_size=12),
    st.booleans(),
    st.none(),
)
_JSON_DOCUMENTS = st.recursive(
    _JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text("ab1e: ", max_size=5), inner, max_size=4),
    max_leaves=12,
)


def _literals_by_splitting(text: str) -> set[str]:
    """What the literals of a JSON text are by definition: its tokens outside strings."""
    outside = " ".join(text.lower().split('"')[0::2])
    return set(outside.translate(str.maketrans({ch: " " for ch in "{}[]:,"})).split())


@settings(max_examples=300)
@given(_JSON_DOCUMENTS, st.booleans())
def test_an_exponent_literal_is_found_exactly_when_one_stands_outside_strings(document, spaced):
    text = json.dumps(document, separators=(", ", ": ") if spaced else (",", ":"))
    text = re.sub(r"(\d)(\.\d+)?e\+?", lambda m: m.group(0).upper() if len(text) % 2 else m.group(0), text)
    outside = " ".join(_literals_by_splitting(text)).replace("true", "").replace("false", "")
    notes = json_exact.Notes(text)
    assert notes.exponent == ("e" in outside)


@settings(max_examples=300)
@given(_JSON_DOCUMENTS, st.booleans(), st.lists(st.text("0123456789.-eab:", min_size=1, max_size=6), max_size=3))
def test_a_piece_may_hold_every_form_it_is_read_as_and_no_other_its_texts_rule_out(document, spaced, asked):
    from grounding.core.evidence.forms import ReadOptions
    from grounding.core.evidence.reading import examine_result, read_examined, seen_of

    text = json.dumps(document, separators=(", ", ": ") if spaced else (",", ":"))
    text = re.sub(r"(\d)(\.\d+)?e\+?", lambda m: m.group(0).upper() if len(text) % 2 else m.group(0), text)
    examined = examine_result(text, ReadOptions(), False, None, None)
    seen = seen_of(examined)  # as the index sees it (a JSON string alone is read as text)
    forms = read_examined(examined, ReadOptions())
    for form in forms.every_form():  # never ruled out: the index would miss it
        assert seen.may_hold(list(search_keys.keys(form))), form
    for key in asked:
        if key in text.lower():
            assert seen.may_hold([key], whole_numbers=False)
            # a number's key where no number is it whole (the 0 of 50) holds no form of it
            assert seen.may_hold([key]) or (search_keys._NUMBER_KEY.fullmatch(key) and not any(
                search_keys.writes_number(searched, key) for searched in (text.lower(), search_keys.search_text(text))))
            continue
        # as the index asks of a value it found in no text: the lowered text is not looked in again
        assert seen.may_hold([key], not_said_anywhere=True) == seen.may_hold([key])
        if key not in search_keys.search_text(text):  # then only a JSON number literal with an exponent may spell it
            spelled_by_a_number = set(key) <= set("0123456789.-")
            exponent = examined.exact_json and json_exact.Notes(text).exponent
            assert seen.may_hold([key]) == (spelled_by_a_number and exponent), key


@settings(max_examples=300)
@given(_JSON_DOCUMENTS, st.booleans(), st.data())
def test_a_literal_is_said_exactly_when_the_text_holds_it_outside_strings(document, spaced, data):
    text = json.dumps(document, separators=(", ", ": ") if spaced else (",", ":")).lower()
    literals = _literals_by_splitting(text)
    numbers = sorted(literal for literal in literals if verbatim.is_canonical(literal))
    asked = data.draw(st.sampled_from(numbers)) if numbers and data.draw(st.booleans()) else data.draw(
        st.from_regex(r"-?[0-9]{1,3}(\.[0-9]{1,2})?", fullmatch=True))
    seen = verbatim.see_json(text, json_exact.Notes(None, exponent=False, digit_comma=True))
    holds = bool(verbatim.says(text, asked, True, verbatim.is_canonical(asked), seen.quotes))
    in_a_string = bool(verbatim.says(text, asked, True))
    # a literal says the number the index spells it as (12.50 says 12.5), but "-0.0" does not say 0
    spelled = {json_exact.spell_decimal(Decimal(lit)) for lit in literals
               if re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", lit) and not (lit.startswith("-") and Decimal(lit) == 0)}
    assert holds == (verbatim.is_canonical(asked) and asked in spelled or in_a_string)


_STRING_LEAVES = st.text("ab1-. :,[]{}", max_size=10)
_STRING_DOCUMENTS = st.recursive(
    st.one_of(_STRING_LEAVES, st.integers(-99, 99), st.booleans()),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_STRING_LEAVES, inner, max_size=4),
    max_leaves=10,
)


@settings(max_examples=300)
@given(_STRING_DOCUMENTS, st.booleans(), st.data())
def test_a_token_is_said_by_a_json_text_exactly_when_a_string_of_it_holds_it(document, spaced, data):
    """Whether a found token stands inside a string, told by a quote beside it or by counting quotes, is what
    splitting the text at its quotes says."""
    text = json.dumps(document, separators=(", ", ": ") if spaced else (",", ":"))
    inside = _said_tokens(verbatim.runs("\x00".join(text.split('"')[1::2])))
    anywhere = sorted(verbatim.runs(text) | {"a", "1", "a1"})  # runs outside strings too (numbers, true, false)
    asked = data.draw(st.sampled_from(sorted(inside) if inside and data.draw(st.booleans()) else anywhere))
    seen = verbatim.see_json(text, json_exact.Notes(None, exponent=False, digit_comma=True))
    said = verbatim.says(text, asked, True, False, seen.quotes)
    assert bool(said) == (asked in inside)
    assert (said is None) == (asked not in text)  # None: not even in the text (the index looks no further)


def _said_tokens(runs: set[str]) -> set[str]:
    """The runs, and each that is a value and one of verbatim.ENDING_MARKS when the token reader reads it as
    the value."""
    reader = TokenReader(min_digits=1, keep_words=True, cache=False)
    return runs | {run[:-1] for run in runs if run[-1] in verbatim.ENDING_MARKS
                   and any(run[:-1] in reading.plain for reading in reader.readings({run}))}


@given(st.text("ab1-. :,;%0+", max_size=24),
       st.sampled_from(["a", "b1", "1", "a-1", "1.5", "ab", ":1", "a,", ",a", "1,5", "10", "0", "1.", "b1-"]))
def test_a_token_is_said_by_a_text_exactly_when_it_is_a_run_or_one_read_without_the_mark_ending_it(text, asked):
    said = verbatim.says(text, asked, False)
    assert bool(said) == (asked in _said_tokens(verbatim.runs(text)))
    assert (said is None) == (asked not in text)


@given(st.text("a1,$€£¥₹-é.", max_size=12))
def test_a_key_drops_what_normalising_deletes_whatever_the_text(form):
    unsigned = form.removeprefix("-")  # a sign may stand before zero padding normalising drops
    assert search_keys.key(form) == "".join(ch for ch in unsigned if ch not in ",$€£¥₹")


def test_a_negative_number_written_with_zero_padding_is_found_by_its_plain_reading_on_both_paths():
    # "-0012345" is read as -12345: the piece holding it is read for the value, not left to the sign route
    for result in ("Balance: -0012345 units", '{"balance": "-0012345"}'):
        verdict = both(result, answer="The balance is -12345 units.")
        assert unsupported(verdict) == [] and via(verdict) == {}
    verdict = both({"balance": "-12345"}, answer="The balance is -12,345.", arguments={"account": "-0012345"})
    assert unsupported(verdict) == ["-12345"]  # what the call spelled, even with the padding it wrote


@given(st.text('ab" :', min_size=1_200, max_size=3_000).map(lambda text: text * 60), st.data())  # 70-176 chunks, asked in any order
def test_counting_quotes_by_chunk_tells_inside_from_outside_like_counting_them_all(text, data):
    quotes = verbatim.quote_counts()
    for at in data.draw(st.lists(st.integers(0, max(len(text) - 1, 0)), max_size=20)):
        assert verbatim._in_string(text, at, quotes) == verbatim._in_string(text, at, None)


_TEXT_TOKENS = st.sampled_from(["$1,234.50", "-5", "+$3", "-$7.25", "abc,123", "۳۴۵۶", "12kg", "(4200)", "x-7",
                                "#991", "'0042'", "v2.1", "2024-01-05", "7am", "1,2,3", "-", "$", "ORD-77", "3.10",
                                "[15%]", "<99>", "@5000", "ten"])


@given(st.lists(_TEXT_TOKENS, max_size=12), st.sampled_from([" ", "\n", " | ", ", "]))
def test_the_numbers_of_a_text_result_are_those_a_whole_reading_finds(tokens, joiner):
    from grounding.core.evidence.forms import ReadOptions
    from grounding.core.evidence.reading import examine_result, read_examined, read_numbers

    text = "Results: " + joiner.join(tokens)
    examined = examine_result(text, ReadOptions(), False, None, None)
    whole = read_examined(examined, ReadOptions())
    numbers_only = read_numbers(examined, ReadOptions())
    assert numbers_only is not None
    assert (numbers_only.numbers, numbers_only.operands) == (whole.numbers, whole.operands)


@given(st.lists(_TEXT_TOKENS, max_size=12), st.booleans())
def test_a_runs_numbers_are_those_of_its_whole_reading(tokens, keep_words):
    from grounding.core.evidence.token_readings import TokenReader
    from grounding.core.text.tokens import runs

    distinct = runs(" ".join(tokens))
    whole = {n for reading in TokenReader(4, keep_words, cache=False).readings(distinct) for n in reading.numbers}
    assert TokenReader(4, keep_words).numbers(distinct) == whole  # a fresh reader: nothing read yet


def test_a_sum_over_a_text_result_is_derived_from_its_numbers():
    verdict = both("count 1200 items\nfees: $3,617.00 and -$45.5", answer="Together 4,817 items.")
    assert via(verdict) == {"4817": "derived"}


@given(st.integers(0, 24), st.integers(0, 59), st.one_of(st.none(), st.integers(0, 60)),
       st.sampled_from(["", "z", "+1", "-1", "+02:00"]), st.sampled_from(["am", "pm", " a.m.", "PM"]))
def test_every_form_a_time_of_day_is_read_as_is_sought_by_its_minutes(hour, minute, second, offset, meridiem):
    from grounding.core.text.dates import date_parts, twelve_hour_times

    written = f"{hour:02d}:{minute:02d}" + (f":{second:02d}" if second is not None else "") + offset
    forms = set(date_parts(f"2024-05-06t{written}")) - {"2024", "2024-05-06"}
    forms |= set(twelve_hour_times(f"at {hour % 13}:{minute:02d}{meridiem} today"))
    for form in forms:
        assert f":{minute:02d}" in search_keys.keys(form)


def test_a_form_shaped_unlike_any_time_is_sought_as_written():
    assert search_keys.keys("20:30:1a:2b:3c:4d:5e:6f") == ("20:30:1a:2b:3c:4d:5e:6f",)
    assert search_keys.keys("16:20") == (":20", "h20m") and search_keys.keys("3:00pm")[0] == ":00"
    verdict = both('{"wwn": "20:30:1a:2b:3c:4d:5e:6f", "at": "16:20"}', answer="WWN 20:30:1a:2b:3c:4d:5e:6f at 4:20pm.")
    assert unsupported(verdict) == [] and via(verdict) == {"4:20pm": "date-part"}


@given(st.from_regex(r"-?(0|[1-9][0-9]{0,8})(\.[0-9]{1,4})?", fullmatch=True), st.sampled_from(["", "0", "00"]),
       st.booleans())
def test_a_literal_written_with_zeros_its_spelling_drops_is_said_as_spelled(literal, zeros, spaced):
    from grounding.core.evidence.forms import ReadOptions
    from grounding.core.evidence.reading import read_tool_result

    written = literal + (zeros if "." in literal else "." + zeros if zeros else "")
    text = json.dumps({"n": json.loads(written), "s": "x" + literal}, separators=(", ", ": ") if spaced else (",", ":"))
    text = text.replace(json.dumps(json.loads(written)), written, 1)  # keep the zeros as written
    held = read_tool_result(text, ReadOptions()).plain
    index = EvidenceIndex()
    index.see_result(text)
    spelled = json_exact.spell_decimal(Decimal(written))
    asked = {spelled, literal, written, spelled + "0", "-" + spelled, spelled.lstrip("-"), spelled + ".5",
             spelled[:-1].rstrip(".")}
    for value in asked:
        if index.says_verbatim(value):
            assert value in held, (text, value)
    if verbatim.is_canonical(spelled) and Decimal(written) != 0:
        assert index.says_verbatim(spelled), (text, spelled)


_ANSWER_PARTS = st.sampled_from([
    "$120 per night", "$120 per night,", "$360 for 3 nights.", "for 3 nights", "For 3 nights", "$360", "= $360",
    "total", "Total: $20", "Subtotal:", "$1,200.50", "4 x 3 = 12", "12 + 30 = 42", "EUR 75", "- $45", "\n",
    "\n- item $10", "- item $10\n- item $10\nTotal: $20", "Sum", "fort", "x", "(5)", "7 * 6", "42", "ok;", "→ $99",
])


@given(st.lists(_ANSWER_PARTS, max_size=10))
@example(["$120 per night,", "$360 for 3 nights."])  # a per-unit amount: only "for" marks it
@example(["- item $10\n- item $10\nTotal: $20"])  # a listed total: only its word marks it
def test_an_answer_that_writes_no_computation_word_states_nothing_lexing_would_find(parts):
    from grounding.core.answer import arithmetic
    from grounding.core.answer.candidates import read_answer
    from grounding.core.judging import ReadOperands

    text = " ".join(parts)
    answer, settings = read_answer(text, Settings()), Settings()

    def read_index() -> EvidenceIndex:
        index = EvidenceIndex()
        index.see_result('{"amounts": [120, 360, 10, 20, 30, 1200.5, 75, 45, 99, 12, 42, 4, 3, 5, 7, 6, 2]}')
        return index

    quick = arithmetic.Computations(answer, ReadOperands(read_index()), settings.min_digits)
    quick_results = quick._read()
    saved, arithmetic._may_compute = arithmetic._may_compute, lambda text: True
    try:
        every = arithmetic.Computations(answer, ReadOperands(read_index()), settings.min_digits)
        assert (quick_results, quick._refuted) == (every._read(), every._refuted)
        if parts in (["$120 per night,", "$360 for 3 nights."], ["- item $10\n- item $10\nTotal: $20"]):
            assert quick_results  # the examples do state something
    finally:
        arithmetic._may_compute = saved


@given(st.one_of(st.integers(-(10**30), 10**30), st.decimals(allow_nan=False, allow_infinity=False, places=8)),
       st.integers(0, 400))
def test_a_record_is_read_exactly_whatever_its_size(number, padding):
    from grounding.transcripts.records import loads

    record = {"id": "r", "pad": list(range(padding)), "messages": [{"role": "tool", "content": "x"}]}
    raw = json.dumps(record)[:-1] + f', "n": {number}}}'
    assert Decimal(str(loads(raw.encode())["n"])) == Decimal(str(number))  # no digit lost, small record or large


@settings(max_examples=300)
@given(_JSON_DOCUMENTS, _JSON_DOCUMENTS)
def test_a_result_said_to_say_more_than_its_call_never_says_nothing_beyond_it(document, arguments):
    """The shortcut that skips reading a call's arguments (a result surely says more) agrees with the full
    §9.6 test, whichever scalar it meets first."""
    from grounding.core.evidence.failures import _surely_unspelled, says_more_than, says_nothing
    from grounding.core.evidence.forms import ReadOptions
    from grounding.core.evidence.reading import read_arguments

    text = json.dumps(arguments)
    searched = search_keys.search_text(text)
    every_leaf = any(_surely_unspelled(leaf, searched) for leaf in json_exact.leaves(document))
    screened = "\\" in text or verbatim.has_exponent(text)
    assert says_more_than(document, text) == (every_leaf and not screened)  # top level first, then the rest
    if says_more_than(document, text):
        assert not says_nothing(document, read_arguments(text, ReadOptions()))


@settings(max_examples=60)
@given(st.lists(st.tuples(st.sampled_from(["json", "text"]), st.integers(0, 30)), min_size=1, max_size=14),
       st.lists(st.integers(0, 40), min_size=1, max_size=12))
def test_texts_asked_often_are_cut_into_runs_and_say_what_a_search_said(pieces, asked):
    """A long conversation: each text asked about four times is cut into its runs (said.Said._cut_into_runs);
    every later question gets the answer a search of every text gives."""
    texts = [json.dumps({"v": f"Q-{n:04d}", "n": n * 1.5, "s": f"x {n}.50 y"}) if kind == "json"
             else f"Result Q-{n:04d} at {n}.0" for kind, n in pieces]
    cut, searched = EvidenceIndex(), []
    for text in texts:
        cut.see_result(text)
        searched.append(verbatim.see_json(text.lower(), json_exact.Notes(text)) if text.startswith("{")
                        else verbatim.see_text(text))
    values = [f"q-{n:04d}" for n in asked] + [f"{n}.5" for n in asked] + [str(n) for n in asked]
    for _ in range(5):  # past the questions a text answers before it is cut
        for value in values:
            by_search = any(verbatim.says(seen.said_text, value, seen.in_strings, verbatim.is_canonical(value),
                                          seen.quotes) for seen in searched if seen.said_text is not None)
            assert cut.says_verbatim(value) == by_search, value


@settings(max_examples=40)
@given(st.lists(st.sampled_from(["ORD-55120", "certificate_7504069", "2024-05-14T16:03:16Z", "May 20, 2024",
                                 "fc1/3", "16384mb", "7:0-15:30", "1,234.50", "x"]), min_size=1, max_size=6),
       st.lists(st.sampled_from(["ORD-55121", "7504069", "4:03 PM", "2024-05-20", "fc1/3", "16384", "7:00 AM",
                                 "$1,234.50", "2024-05-14", "Q-7777771", "16:03", "ORD-55120"]),
                min_size=8, max_size=14))
def test_an_answer_of_many_values_searches_each_piece_once_and_agrees(results, written):
    """Eight or more values not said verbatim: the pieces are searched for all their keys at once (look_for),
    and every verdict is the one of reading everything."""
    both({"data": results}, " ".join(results), answer="Values: " + ", ".join(written) + ".")


_FRAME_PIECES = st.sampled_from([
    "[evidence check] x", "[schema check", "Validation feedback:", "Check f failed with error:",
    "Fix the errors and try again.", "### Previous attempt failed validation: x", "Please fix your mistakes.",
    "For context:", "[agent] said: hi", "ORD-1", "for context:", "  ", "\n", "Validation", "feedback:", "x"])


@given(st.lists(_FRAME_PIECES, max_size=8).map("".join))
def test_the_quick_test_for_a_framework_frame_decides_as_its_patterns_do(text):
    from grounding import frames

    plain = frames._MARKERS.search(text) is not None or frames._RECAP.search(text) is not None
    assert frames.is_framework_frame(text) == plain


# explain's pointer walk rules a leaf out by its search text before tokenising it (explain._may_carry): a leaf
# that carries a wanted form is never ruled out.
_LEAF = st.one_of(
    st.text(st.sampled_from(list("0123456789,.$-:/ abcpmAPM#_e+k%")), max_size=24),
    st.lists(st.sampled_from(["March", "Mar", "5,", "2024", "million", "21", "4:20", "pm", "16:20", "$1,207.50"]),
             max_size=5).map(" ".join),
    st.sampled_from(["$1,207.50", "4:20 pm", "16:20", "3pm", "March 5, 2024", "2024-03-05", "1.5e3", "1.5E+3",
                     "21 million", "577B", "certificate_7504069", "ORD-55120", "fc1/3", "0xef0101", "٣٤٥٦"]),
)


@given(_LEAF, _LEAF)
def test_a_leaf_that_carries_a_form_is_never_ruled_out_by_its_search_text(leaf, other):
    from grounding.core.evidence.search_keys import keys
    from grounding.core.explain import _carries, _may_carry
    from grounding.core.text.normalise import lookup_forms, normalise
    from grounding.core.text.tokens import token_texts

    for source in (leaf, other):
        for token in token_texts(source) or [source]:
            wanted = set(lookup_forms(normalise(token)))
            if not wanted:
                continue
            needles = {key for form in wanted for key in keys(form)}
            if _carries(leaf, wanted):
                assert _may_carry(leaf, needles), (leaf, wanted)


def test_a_text_too_long_to_cut_stays_searched_and_says_what_a_search_said(monkeypatch):
    """A text longer than said._CUT_AT_MOST is never cut into runs (a 40 MB result's runs would take over a
    gigabyte): it is searched at every question, and answers as the runs would."""
    from grounding.core.evidence import said

    monkeypatch.setattr(said, "_CUT_AT_MOST", 60)
    short, long = json.dumps({"v": "Q-0001"}), json.dumps({"rows": [f"Q-{n:04d}" for n in range(2, 40)]})
    index = EvidenceIndex()
    index.see_result(short)
    index.see_result(long)
    for _ in range(6):  # past the questions a text answers before it is cut
        assert [index.says_verbatim(value) for value in ("q-0001", "q-0007", "q-0039", "q-0040")] == [
            True, True, True, False]
    kept = [entry[0] for entry in index._said.texts]
    assert kept == [long.lower()] and "q-0001" in index._said.runs  # the short one was cut, the long one kept


_PAGE = "Notes on the release. " * 400  # a long text: a date question reads its dated runs, not all of it


@pytest.mark.parametrize(("result", "answer", "expected"), [
    (_PAGE + "Published Date: 2025-07-31T00:00:00.000Z\n" + _PAGE, "Published on 2025-07-31.", {"2025-07-31": "date-part"}),
    (_PAGE + "Published Date: 2025-07-31T00:00:00.000Z", "Published on July 31, 2025.", {"2025-07-31": "date-part"}),
    ("Window 2025-07-30/31, owner ops-7712", "It ends on 2025-07-31.", {"2025-07-31": "date-part"}),
    ("Filed 31/07/25 by ops", "Filed on 2025-07-31.", {"2025-07-31": "date-part"}),
    ("see reports/2025-07-31/summary.png", "The report of 2025-07-31.", {"2025-07-31": "component"}),
    (_PAGE + "It shipped on July 31, 2025 (see 2025-08-02T10:00Z).", "It shipped on 2025-07-31.",
     {"2025-07-31": "prose-date"}),
])
def test_a_date_question_reads_a_texts_dated_runs_and_agrees_with_reading_it_whole(result, answer, expected):
    verdict = both(result, answer=answer)
    assert unsupported(verdict) == [] and via(verdict) == expected


@pytest.mark.parametrize("answer", ["Published on 2025-07-30.", "Published on 2025-07-13.", "Published 2024-07-31."])
def test_a_read_date_with_another_day_or_year_stays_flagged(answer):
    verdict = both(_PAGE + "Published Date: 2025-07-31T00:00:00.000Z, 31/07/25", answer=answer)
    assert len(unsupported(verdict)) == 1


_DATED = st.sampled_from(["2025-07-31T08:00:00Z", "2025-07-30/31", "31.07.2025", "07/31/2025", "31/07/25",
                          "July 31, 2025", "31 July 2025", "2025年7月31日", "2025-07-31", "ref-2025-07-31",
                          "2025", "31", "v2025.7", "FY25", "at 3pm", "2025-07-30", "Jul 30"])
_ASKED = st.sampled_from(["2025-07-31", "2025-07-30", "2025-07-13", "2024-07-31", "July 31, 2025", "31.07.2025",
                          "2025-07-31 08:00", "2025"])


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(_DATED, max_size=5).map(" and ".join), min_size=1, max_size=3),
       st.lists(_ASKED, min_size=1, max_size=4))
def test_dates_asked_of_texts_read_by_their_dated_runs_get_the_verdicts_of_reading_everything(texts, asked):
    both(*texts, answer="Dates: " + "; ".join(asked) + ".")


def test_a_value_with_white_space_reads_no_piece():
    # a written prose date's own spelling ("july 31 2025", route 7's) is held by no piece: tokens have no space
    index = EvidenceIndex()
    index.see_result(_PAGE + " July 31, 2025")
    assert not index.is_plain("july 31 2025")
    assert len(index._unread) == 1  # nothing was read to tell it


def test_a_date_in_a_long_texts_timestamp_is_read_from_its_dated_runs_alone():
    index = EvidenceIndex()
    index.see_result(_PAGE + "Published Date: 2025-07-31T00:00:00.000Z")
    assert not index.is_read_plainly("2025-07-31") and index.reading_of(("2025-07-31",)) == "date-part"
    assert len(index._unread) == 1 and index._unread[0].years_read == {"2025"}  # not read whole
    assert "notes" not in index._forms.plain


_SCALE_TEXT = st.lists(st.sampled_from(["1", "23", "4,567", ".", ",", " ", "\n", "\u00a0", "million", "Million",
                                        "THOUSAND", "billions", "trillion", "x", "€", "0.5", "12.5", "５", "é", "İ",
                                        "millionaire", "_"]), max_size=14).map("".join)


@settings(max_examples=3000)
@given(_SCALE_TEXT)
@example("about 21 million people, 1.5 Billion in 2023, 3,200 thousand")
def test_numbers_with_scale_words_are_found_from_the_words_as_the_pattern_finds_them(text):
    from grounding.core.text import units

    assert list(units._scale_words_written(text)) == [match.groups() for match in units._SCALED.finditer(text)]


@settings(max_examples=2000)
@given(st.text(alphabet=st.characters(blacklist_categories=()), max_size=40)
       | st.lists(st.sampled_from(["ORD-7", "在庫", "“x”", "\ud800", "½", " ", ",", "(", "ë", "\u00a0", "12,5"]),
                  max_size=10).map("".join))
def test_a_texts_runs_are_those_of_mapping_its_characters_one_by_one(text):
    from grounding.core.text import tokens

    expected = set(tokens.separated(text).translate(tokens._ASCII_SEPARATORS_TO_SPACE).split())
    assert tokens.runs(text) == expected


_NUMBERS_WRITTEN = st.sampled_from(["532", "00532", "1532", "532.0", "53.20", "53.21", "4553.21", "1,532", "532,5",
                                    "12,34", "-532", "$532", "532ms", "ord-532", "v1.53.2", "2026-05-32", "5.32e2",
                                    "53.2%", "x532y", "1.532", "0.532"])
_NUMBERS_ASKED = st.sampled_from(["532", "53.2", "532.5", "1532", "53.21", "53", "32", "2", "5.32", "0.532", "4553.2",
                                  "12", "34"])


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(_NUMBERS_WRITTEN, max_size=6).map(" ".join), min_size=1, max_size=3),
       st.lists(_NUMBERS_ASKED, min_size=1, max_size=5), st.booleans())
def test_a_number_is_searched_for_whole_and_gets_the_verdicts_of_reading_everything(texts, asked, as_json):
    # a number's key counts only where it is one whole number; rounding and a value cut off still find the
    # numbers that begin with it (1532 holds no 532; 53.21 rounds to 53.2)
    steps = [{"note": text, "n": 7} if as_json else text for text in texts]
    both(*steps, answer="Values: " + ", ".join(asked) + ". Roughly " + asked[0] + " in all", min_digits=1)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["", ".", "(", "on ", "-", ":", "1.", "v"]), st.sampled_from(["24/06/24", "24.06.24", "6/7/25"]),
       st.sampled_from(["", ".", ",", ")", ":", "-", ".5", "/1", "!", "0", " 12:00"]),
       st.lists(st.sampled_from(["2024-06-24", "2025-07-06", "2025-06-07", "2024-06-25"]), min_size=1, max_size=3))
def test_a_date_of_two_digit_year_is_searched_for_as_its_text_is_read(before, date, after, asked):
    # "Book it for 24/06/24." was not searched for 2024-06-24 (its sentence's point): an honest answer accused
    both(f"Book it for {before}{date}{after} please", answer="Booked for " + ", ".join(asked) + ".")


_WRITTEN_READINGS = st.sampled_from(["1.234,56", "41\u00a0200", "41 200 €", "€ 12 500", "24/06/24", "24.06.2024",
                                     "March 8, 2025", "8. März 2025", "2025年3月8日", "5500万", "21 million", "1'250'000",
                                     "41.200", "2025-03-07/08", "16384mb", "3:15 PM", "ORD-4471", "$1,207.50",
                                     "−1,212.30", "2025-03-08T10:00Z", "24/6/2024", "06-24-2024", "1 234,56 €",
                                     "41\u202f200,50", "12,5 %", "45 lakh", "5 Mio."])
_AROUND = st.sampled_from(["", ".", ",", "(", ")", ":", ";", "!", "?", "-", " ", "\n", '"', "x"])
_READINGS_ASKED = st.sampled_from(["1234.56", "1,234.56", "41,200", "12,500", "2024-06-24", "2025-03-08", "2025-03-07",
                                   "55,000,000", "21,000,000", "1,250,000", "41200", "16384", "15:15", "ORD-4471",
                                   "1234.57", "41,300", "2024-06-25", "2025-03-09", "1207.5", "1,212.3", "10:00",
                                   "41,200.50", "4,500,000", "5,000,000", "12.5"])


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(_AROUND, _WRITTEN_READINGS, _AROUND).map("".join), min_size=1, max_size=6).map(" ".join),
       st.lists(_READINGS_ASKED, min_size=1, max_size=6), st.booleans())
def test_what_a_text_is_read_as_is_searched_for_whatever_stands_around_it(text, asked, as_json):
    # each reading a token or a text's run holds is in the text's search text, punctuation around it or not
    both({"note": text} if as_json else text, answer="Values: " + "; ".join(asked) + ".")


@settings(max_examples=2000)
@given(st.lists(st.sampled_from(["24", "/", ".", "06", "6", "7", "25", "10.64.60.69", " ", "x", "2024", "3", ",", "-",
                                 "07"]), max_size=10).map("".join))
def test_dates_of_two_digit_years_are_found_from_their_separators_as_the_pattern_finds_them(text):
    from grounding.core.text.numeric_dates import numeric_dates

    by_pattern = {iso for date in search_keys._SHORT_YEAR_DATE.findall(text)
                  for iso in numeric_dates(date, two_digit_year=True)}
    assert by_pattern <= set(search_keys.two_digit_year_dates(text).split("\n")[1:])
