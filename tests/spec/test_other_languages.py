"""Numbers and dates as other languages write them (issue 53): what each reading grounds, what it still
refuses, and the invention each could let through, kept flagged."""

import json
from decimal import Decimal

import pytest
from conftest import judge, unsupported, via
from hypothesis import example, given
from hypothesis import strategies as st

import grounding
from grounding.core.text import month_dates as dates
from grounding.core.text.date_offsets import stated_offsets
from grounding.core.text.month_dates import prose_dates

# numbers grouped and pointed another way: the whole number around the piece a token holds ---------------


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        # a decimal comma after point groups: one number, read whole, plainly
        ({"amount": 1234.56}, "El pedido suma 1.234,56 €.", [], {}),
        ({"amount": 1234567.89}, "Der Betrag ist 1.234.567,89 €.", [], {}),
        ({"amount": 1234.56}, "El pedido suma 1.234,6 €.", [], {"1234.6": "rounded"}),
        ({"amount": 1234567}, "Es sind 1.234.567 Kunden.", [], {"1.234.567": "locale"}),
        ({"amount": 1234.56}, "Total: CHF 1'234.56.", [], {}),  # an apostrophe's groups: one number, plainly
        ("El total es 1.234,56 €", "El total es 1.234,56 €.", [], {}),  # written as read: plainly
        # refused: a digit changed, a read number with a digit added, another number's piece, two numbers
        # side by side never read as one
        ({"amount": 1234.56}, "El pedido suma 1.294,56 €.", ["1294.56"], {}),
        ({"amount": 1234.56}, "El pedido suma 1.234,567 €.", ["1234.567"], {}),
        ({"amount": 1234567}, "Es sind 1.234.568 Kunden.", ["1.234.568"], {}),
        ({"amount": 1234.56}, "Total: CHF 1'294.56.", ["1294.56"], {}),
        ({"orders": 2024041}, "in 2024, 041 orders", ["2024"], {}),
    ],
)
def test_a_number_grouped_and_pointed_as_another_language_writes_it(evidence, answer, expected_unsupported,
                                                                      expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported"),
    [
        ({"count": 41200}, "Il y a 41\u202f200 clients.", []),  # a narrow no-break space groups thousands
        ({"count": 41200}, "Il y a 41\u00a0200 clients.", []),  # a no-break space
        ({"count": 41200}, "Il y a 41\u2009200 clients.", []),  # a thin space
        ({"count": 1250000}, "Total: 1'250'000 CHF.", []),
        ({"count": 1250000}, "Total: 1\u2019250\u2019000 CHF.", []),
        ({"amount": 41200.5}, "Soit 41\u202f200,50 € au total.", []),
        ({"amount": -1234}, "Solde : −1\u202f234 €.", []),
        # refused: a group changed; a read number and a made-up group after it; the decimals changed
        ({"count": 41200}, "Il y a 41\u00a0900 clients.", ["41900"]),
        ({"count": 41200}, "Il y a 41\u202f200\u202f500 clients.", ["41200500"]),
        ({"amount": 41200.5}, "Soit 41\u202f200,60 € au total.", ["41200.6"]),
        ({"count": 1250000}, "Total: 1'250'001 CHF.", ["1250001"]),
    ],
)
def test_thousands_grouped_by_a_no_break_space_or_an_apostrophe_are_one_number(evidence, answer,
                                                                                expected_unsupported):
    assert unsupported(judge(evidence, answer=answer)) == expected_unsupported


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported"),
    [
        ("Il y a 41\u202f200 clients.", "Il y a 41\u202f200 clients.", []),  # copied as the tool wrote it
        ("Il y a 41\u202f200 clients.", "There are 41,200 clients.", []),
        ({"note": "41\u00a0200 clients"}, "There are 41200 clients.", []),  # in a JSON result's string
        ("Total 1'250'000 CHF", "Total: 1,250,000 CHF.", []),
        ("Il y a 41\u202f200 clients.", "Il y a 41\u202f900 clients.", ["41900"]),
        ("Il y a 41\u202f200 clients.", "There are 41,2000 clients.", ["2000"]),  # (a comma that groups nothing)
    ],
)
def test_a_tool_result_writes_its_thousands_so_too(evidence, answer, expected_unsupported):
    assert unsupported(judge(evidence, answer=answer)) == expected_unsupported


def test_a_grouped_number_is_reported_as_the_answer_wrote_it():
    [finding] = judge({"count": 41200}, answer="Il y a 41\u00a0900 clients.").unsupported
    assert finding.text == "41\u00a0900"
    [finding] = judge({"amount": 1234.56}, answer="Total: CHF 1'294.56.").unsupported
    assert finding.text == "1'294.56"  # (before: the piece "294.56" its token held)


def test_numbers_a_plain_space_may_join_are_grounded_by_either_reading():
    # "rooms 101 202" may be two numbers side by side: each read grounds it, as its tokens are written
    verdict = judge({"rooms": [101, 202]}, answer="Rooms 101 202 are free.")
    assert unsupported(verdict) == [] and via(verdict) == {"101202": "verbatim"}
    assert judge({"rooms": [101, 202]}, answer="It's 5 o'clock; the '90s.").candidates == 0  # (no number joined)


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported"),
    [
        ({"count": 41200}, "Il y a 41 200 clients.", []),  # one number, wherever it stands (no sign needed)
        ({"count": 1250000}, "Total 1 250 000 in all.", []),
        ({"n": 2602}, "Population: 2 602.", []),
        # refused: another figure so written (it went unexamined: its groups alone were too short to be values)
        ({"count": 41200}, "Il y a 41 900 clients.", ["41900"]),
        ({"count": 41200}, "Il y a 41 200 500 clients.", ["41200500"]),  # a read number, a group added
        ({"rooms": [101, 202]}, "Rooms 101 203 are free.", ["101203"]),  # one of them read, the other not
        # never joined: a run the pattern breaks stays apart (a telephone number, a year before a count)
        ({"phone": "555-123-4567"}, "Call 555 123 4567.", []),
        ({"year": 2024}, "In 2024 41 orders.", []),
    ],
)
def test_plain_spaces_join_three_digit_groups_into_one_number_wherever_they_stand(evidence, answer,
                                                                                 expected_unsupported):
    assert unsupported(judge(evidence, answer=answer)) == expected_unsupported


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported"),
    [
        ({"sales": 41200}, "Il y a 41 200 € de ventes.", []),  # a currency sign says it is one number
        ({"sales": 1234.56}, "Total : 1 234,56 €.", []),
        ({"sales": 12500}, "Kwota: € 12 500.", []),  # (before it, too)
        ({"share": 95000}, "Soit 95 000 % de plus.", []),
        ("Ventes : 41 200 €", "Sales were $41,200.", []),  # a tool's text so written, read whole
        ("Ventes : 41 200 €", "Il y a 41 200 € de ventes.", []),
        # refused: another figure so written, examined (its groups alone were too short to be values)
        ({"sales": 41200}, "Il y a 41 900 € de ventes.", ["41900"]),
        ({"sales": 1234.56}, "Total : 1 234,57 €.", ["1234.57"]),
        ({"sales": 41200}, "Il y a 41 200 500 € de ventes.", ["41200500"]),  # a read number, a group added
    ],
)
def test_plain_spaces_group_thousands_where_a_currency_or_percent_sign_says_so(evidence, answer,
                                                                               expected_unsupported):
    assert unsupported(judge(evidence, answer=answer)) == expected_unsupported


def test_a_year_before_a_grouped_number_stands_apart():
    assert judge({"n": 1}, answer="In 2024 41 900 € sales.").candidates == 1  # 2024 stands apart, 41 900 €?
    assert unsupported(judge({"n": 2024}, answer="In 2024 41 900 € sales.")) == []


# dates in words of other languages: read whole, on both sides ------------------------------------------


def test_month_names_of_other_languages_are_dates_and_an_english_list_item_is_not():
    text = ("Sonntag, 16. März 2025; 24 de junho de 2024; le 3 août 2024; 12 ottobre 2023; 5 mei 2022; "
            "7 września 2021; 2 de enero de 2026. ### 1. January 15, 2025")
    assert [d.iso for d in prose_dates(text)] == ["2025-03-16", "2024-06-24", "2024-08-03", "2023-10-12",
                                                   "2022-05-05", "2021-09-07", "2026-01-02", "2025-01-15"]


# English's pattern, for a text naming no other language's month after a day, finds what the whole one does
_MONTHS = st.sampled_from(sorted(dates.MONTH_SPELLINGS) + ["Mär", "Marchand", "maybe", "de"])
_AROUND = st.sampled_from(["", "1", "2025", ".", ",", " ", "\n", "de ", "e", "ä", "\u0301", "²", "x", "-", "Sept."])
_DAY_THEN_MONTH = st.tuples(st.sampled_from(["1", "16", "21", "x1", "2025"]), st.sampled_from(["", "st", "th", "."]),
                            st.sampled_from([" ", "  ", "\n", "\u00a0"]), st.sampled_from(["", "de ", "de  "]),
                            _MONTHS, _AROUND).map("".join)


@given(st.lists(st.one_of(_DAY_THEN_MONTH, _MONTHS, _AROUND), max_size=8).map("".join))
@example("16. März 2025, 1st Mai, 3 de junho")
def test_prose_dates_need_other_languages_months_only_where_a_day_writes_one(text):
    whole = [(d.start, d.end, d.month, d.day, d.year) for d in dates.prose_dates(text)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dates, "_prose_date_pattern_for", lambda _text: dates._PROSE_DATE)
        assert [(d.start, d.end, d.month, d.day, d.year) for d in dates.prose_dates(text)] == whole


@pytest.mark.parametrize(
    ("evidence", "user", "answer", "expected_unsupported"),
    [
        ({"date": "2025-03-16"}, "Wann?", "Die Lieferung kommt am Sonntag, 16. März 2025.", []),
        ("ok", "Buchung für den 24. Juni 2024", "Gebucht für 2024-06-24.", []),
        ("ok", "Reserva para 24 de junho de 2024", "Reservado: 2024-06-24.", []),
        # refused: a date in words is examined whole, no longer by its year alone
        ({"date": "2025-03-17"}, "Wann?", "Die Lieferung kommt am Sonntag, 16. März 2025.", ["2025-03-16"]),
        ("ok", "Buchung für den 24. Juni 2024", "Gebucht für 2024-06-25.", ["2024-06-25"]),
        # Dutch months spelled as English's, in lower case
        ({"date": "2025-04-08"}, "Wanneer?", "De levering komt op 8 april 2025.", []),
        ({"date": "2025-04-08"}, "Wanneer?", "De levering komt op 9 april 2025.", ["2025-04-09"]),
        # German months spelled as English's, after a day with its point and before a year (no list's item)
        ({"date": "2025-04-07"}, "Wann?", "Die Lieferung kommt am 7. April 2025.", []),
        ({"date": "2025-04-08"}, "Wann?", "Die Lieferung kommt am 7. April 2025.", ["2025-04-07"]),
    ],
)
def test_a_date_in_words_of_another_language(evidence, user, answer, expected_unsupported):
    assert unsupported(judge(evidence, user=user, answer=answer)) == expected_unsupported


# numeric dates in other orders ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("evidence", "user", "answer", "expected_unsupported", "expected_via"),
    [
        ("ok", "book 24/6/2024 please", "Booked for 2024-06-24.", [], {"2024-06-24": "date-part"}),
        ("ok", "book 06-24-2024 please", "Booked for 2024-06-24.", [], {"2024-06-24": "date-part"}),
        ("ok", "book 2024/06/24 please", "Booked for 2024-06-24.", [], {"2024-06-24": "date-part"}),
        ("ok", "book 03/04/2025 please", "Booked for 2025-04-03.", [], {"2025-04-03": "date-part"}),
        ("ok", "book 03/04/2025 please", "Booked for 2025-03-04.", [], {"2025-03-04": "date-part"}),
        ({"date": "2024-06-24"}, "book it", "Gebucht für 24.06.2024.", [], {"24.06.2024": "date"}),
        ({"date": "2024-06-24"}, "book it", "Booked for 06/24/2024.", [], {"06/24/2024": "date"}),
        # a user's year of two digits, day or month first (2000-2069: as POSIX reads %y)
        ("ok", "book 24/06/24 please", "Booked for 2024-06-24.", [], {"2024-06-24": "date-part"}),
        ("ok", "Reserve para 24/06/24", "Reservado para 24 de junho de 2024.", [], {"2024-06-24": "date-part"}),
        ("ok", "Please book it for 24/06/24.", "Booked for 2024-06-24.", [], {"2024-06-24": "date-part"}),  # its point
        ("ok", "Bitte am 24.06.24.", "Gebucht für 2024-06-24.", [], {"2024-06-24": "date-part"}),
        ("booked for 24.06.24", "book it", "Booked for 2024-06-24.", [], {"2024-06-24": "date-part"}),
        # refused: another day, a day no month has, another century, a year of two digits in the answer
        # (the answer must write the date it means)
        ("ok", "book 24.06.2024 please", "Booked for 2024-06-25.", ["2024-06-25"], {}),
        ({"date": "2024-06-24"}, "book it", "Gebucht für 25.06.2024.", ["25.06.2024"], {}),
        ("ok", "book 31/02/2024 please", "Booked for 2024-02-31.", ["2024-02-31"], {}),
        ("ok", "book 24/06/24 please", "Booked for 2024-06-25.", ["2024-06-25"], {}),
        ("ok", "book 24/06/24 please", "Booked for 1924-06-24.", ["1924-06-24"], {}),
        ({"date": "2024-06-24"}, "book it", "Booked for 24/06/25.", [], {}),  # (not examined: no value)
    ],
)
def test_a_numeric_date_in_another_order(evidence, user, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, user=user, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


# dates as Chinese, Japanese and Korean write them ----------------------------------------------------------


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        ({"date": "2025-03-16"}, "发货日期是2025年3月16日。", [], {}),
        ({"date": "2025-03-16"}, "2025년 3월 16일에 도착합니다.", [], {}),
        ({"date": "2025-03-16"}, "注文は２０２５年３月１６日に発送されました。", [], {}),
        ({"公历": "2025年1月15日 星期三"}, "The next one is on January 15, 2025.", [], {"2025-01-15": "prose-date"}),
        # refused: a read date with the day changed, examined whole (its year alone grounded it before)
        ({"date": "2025-03-16"}, "发货日期是2025年3月18日。", ["2025-03-18"], {}),
        ({"公历": "2025年1月15日 星期三"}, "The next one is on January 16, 2025.", ["2025-01-16"], {}),
    ],
)
def test_a_date_as_chinese_japanese_and_korean_write_it(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_a_cjk_date_is_reported_as_the_answer_wrote_it():
    verdict = judge({"date": "2025-03-16"}, answer="发货日期是2025年3月18日。")
    assert [finding.text for finding in verdict.unsupported] == ["2025年3月18日"]


# a point that may group the thousands --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported"),
    [
        ({"count": 41200}, "Es sind 41.200 Kunden.", []),  # grouped: 41200
        ({"ratio": 41.2}, "The ratio is 41.200.", []),  # its decimal reading: 41.2
        ("Kunden: 41.200", "Es sind 41.200 Kunden.", []),  # as written
        # refused: neither reading read (an invented figure passed unexamined before)
        ({"count": 41200}, "Es sind 41.900 Kunden.", ["41900"]),
    ],
)
def test_a_point_that_may_group_the_thousands_is_examined_by_either_reading(evidence, answer, expected_unsupported):
    assert unsupported(judge(evidence, answer=answer)) == expected_unsupported


def test_a_point_after_a_zero_or_a_decimal_reading_long_enough_keeps_its_reading():
    assert judge({"x": 1}, answer="The ratio is 0.500.").candidates == 0  # 0.500 groups nothing
    assert unsupported(judge({"x": 1}, answer="It is 123.450 wide.")) == ["123.45"]  # a value as a decimal


def test_a_tool_result_writes_a_decimal_comma_after_point_groups():
    assert unsupported(judge("Total: 1.234,56 EUR", answer="The total is 1,234.56 EUR.")) == []
    assert unsupported(judge("Total: 1.234,56 EUR", answer="The total is 1.234 EUR.")) == []  # its piece, as before
    assert unsupported(judge("Total: 1.234,56 EUR", answer="The total is 1,294.56 EUR.")) == ["1294.56"]


# the day after and the day before, in other languages --------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "expected_unsupported"),
    [
        ("Morgen (2025-04-08) ist Dienstag.", []),
        ("Demain (2025-04-08).", []),
        ("Mañana, 2025-04-08.", []),
        ("Amanhã, 2025-04-08.", []),
        ("Übermorgen, am 2025-04-09.", []),
        ("Gestern, am 2025-04-06.", []),
        ("In 3 Tagen, am 2025-04-10.", []),
        ("Avant-hier (2025-04-05).", []),
        ("In einer Woche, am 2025-04-14.", []),  # a number in words
        ("Vor 3 Tagen (2025-04-04).", []),  # N days ago, the word before the number ...
        ("Il y a deux jours (2025-04-05).", []),
        ("Hace 3 días (2025-04-04).", []),
        ("Há 3 dias (2025-04-04).", []),
        ("3 giorni fa (2025-04-04).", []),  # ... or after the days
        ("3 dagen geleden (2025-04-04).", []),
        ("3 dni temu (2025-04-04).", []),
        ("3 päeva tagasi (2025-04-04).", []),
        ("3 päeva pärast (2025-04-10).", []),  # Estonian: N days on
        # refused: the date the word does not name, and greetings and "here" that are no day at all
        ("Demain (2025-04-09).", ["2025-04-09"]),
        ("Vor 3 Tagen (2025-04-03).", ["2025-04-03"]),
        ("Il y a 3 jours (2025-04-10).", ["2025-04-10"]),  # ago is back, never on
        ("Guten Morgen! Ihr Termin: 2025-04-08.", ["2025-04-08"]),
        ("Por la mañana: 2025-04-08.", ["2025-04-08"]),
        ("Hier ist Ihr Termin: 2025-04-06.", ["2025-04-06"]),
    ],
)
def test_the_day_after_and_before_in_other_languages(answer, expected_unsupported):
    verdict = judge({"today": "2025-04-07"}, answer=answer)
    assert unsupported(verdict) == expected_unsupported


def test_offsets_in_other_languages():
    assert sorted(stated_offsets("dans 2 semaines; em 3 dias; tra 4 giorni; over 5 dagen; za 6 dni")) == [
        3, 4, 5, 6, 14]


@pytest.mark.parametrize(
    ("system", "answer", "expected_unsupported"),
    [
        ("Today's date is Monday, 2025-04-07.", "Am nächsten Freitag (2025-04-11) ist es so weit.", []),
        ("Today's date is Monday, 2025-04-07.", "Vendredi dernier (2025-04-04).", []),
        ("Today's date is Monday, 2025-04-07.", "El próximo viernes, 2025-04-11.", []),
        ("Today's date is Monday, 2025-04-07.", "Próxima sexta-feira (2025-04-11).", []),
        ("Today's date is Monday, 2025-04-07.", "Venerdì prossimo (2025-04-11).", []),
        ("Today's date is Monday, 2025-04-07.", "Volgende vrijdag (2025-04-11).", []),
        ("Today's date is Monday, 2025-04-07.", "W przyszły piątek (2025-04-11).", []),
        ("Today's date is Monday, 2025-04-07.", "Järgmisel reedel (2025-04-11).", []),
        ("Heute ist der 2025-04-07.", "Am nächsten Freitag (2025-04-11).", []),  # "today" in German
        ("Hoy es 7 de abril de 2025.", "El próximo viernes, 2025-04-11.", []),
        # refused: a day the phrase does not name, a weekday alone (which one?), a day named with no today
        ("Today's date is Monday, 2025-04-07.", "Am nächsten Freitag (2025-04-12) ist es so weit.", ["2025-04-12"]),
        ("Today's date is Monday, 2025-04-07.", "Am Freitag (2025-04-11).", ["2025-04-11"]),
        ("Ein Termin, bitte.", "Am nächsten Freitag (2025-04-11).", ["2025-04-11"]),
    ],
)
def test_a_weekday_named_from_today_in_other_languages(system, answer, expected_unsupported):
    assert unsupported(judge(system=system, answer=answer)) == expected_unsupported


# a read number is never accused in any of its locale spellings (property) ------------------------------

def _grouped(whole: int, mark: str) -> str:
    return f"{whole:,}".replace(",", mark)


@given(st.integers(1000, 99_999_999), st.integers(0, 99), st.sampled_from(["€", "EUR", "CHF", "clients"]))
def test_a_read_number_is_grounded_in_every_locale_spelling(whole, cents, after):
    amount = Decimal(f"{whole}.{cents:02d}")
    spellings = [
        f"{whole:,}.{cents:02d}",  # English
        f"{_grouped(whole, '.')},{cents:02d}",  # German, Spanish, Italian
        f"{_grouped(whole, chr(0xA0))},{cents:02d}",  # French (no-break space)
        f"{_grouped(whole, chr(0x202F))},{cents:02d}",  # French (narrow no-break space)
        f"{_grouped(whole, chr(0x27))}.{cents:02d}",  # Swiss
        f"{_grouped(whole, ' ')},{cents:02d}",  # a plain space, as many write the French one
    ]
    for spelled in spellings:
        verdict = judge({"amount": float(amount) if cents else whole}, answer=f"Total: {spelled} {after}.")
        assert unsupported(verdict) == [], spelled


# the scales of Chinese and Japanese, glued to the number: 万 (10**4), 亿 / 億 (10**8), 万亿 (10**12) ----------


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported"),
    [
        ({"revenue": 55000000}, "营收为5500万元。", []),  # its 5500 was examined as five thousand five hundred
        ({"revenue_wan": 5500}, "营收为5500万元。", []),  # the number as written, before its scale (§9.22)
        ({"revenue": 5500}, "营收为5500万元。", []),  # ... as "$5500 million" is by a read 5500
        ("营收5500万元，同比增长", "营收为5500万元。", []),
        ("营收5500万元，同比增长", "Revenue was 55,000,000 yuan.", []),  # a tool's text read at its scale
        ({"debt": 3000000000000}, "债务为3万亿元。", []),
        # refused: another magnitude, a read number with a digit changed or another scale
        ({"revenue": 55000000}, "营收为5800万元。", ["58000000"]),
        ("营收5500万元，同比增长", "营收为5501万元。", ["55010000"]),
        ({"revenue": 5500}, "营收为5600万元。", ["56000000"]),
        ({"revenue": 55000000}, "营收为5500亿元。", ["550000000000"]),
    ],
)
def test_a_number_with_a_cjk_scale_is_the_magnitude_it_writes(evidence, answer, expected_unsupported):
    assert unsupported(judge(evidence, answer=answer)) == expected_unsupported


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported"),
    [
        ({"revenue": 1234567890}, "营收约12.3亿元。", []),  # rounded at the precision written
        ({"revenue": 1200000000}, "営業収益は12億円です。", []),
        ({"users": 45000}, "用户4.5万人", []),
        ({"users": 45000}, "用户4.7万人", ["47000"]),
        ({"revenue": 1234567890}, "营收约13.3亿元。", ["1330000000"]),
    ],
)
def test_a_short_number_with_a_cjk_scale_is_a_figure(evidence, answer, expected_unsupported):
    # under the digit bar, as "$12 billion" is: examined with figures on
    assert judge(evidence, answer=answer).candidates == 0
    history = [{"role": "tool", "content": json.dumps(evidence)}]
    assert unsupported(grounding.check_answer(history, answer, grounding.Options(figures=True))) == expected_unsupported


@given(st.lists(st.integers(1, 999), min_size=2, max_size=4), st.integers(100, 999))
def test_numbers_read_and_written_side_by_side_are_never_accused(numbers, group):
    # "5 100 202": one number 5100202, or 5, 100 and 202 side by side; each read grounds it
    numbers = [numbers[0], *(max(n, 100) for n in numbers[1:])]
    assert unsupported(judge({"ids": numbers}, answer="Ids " + " ".join(map(str, numbers)) + " are done.")) == []
    # one not read among them: the run is examined whole
    flagged = unsupported(judge({"ids": numbers[:1]}, answer=f"Ids {numbers[0]} {group} are done."))
    assert flagged == ([] if group == numbers[0] else [f"{numbers[0]}{group}"])
