"""The HTML report renders an answer's Markdown (reporters.markdown): blocks and spans as a reader expects,
every value still marked where it stands, every text escaped, nothing made that loads."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from html import escape, unescape

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from grounding.reporters.markdown import markdown_html


@dataclass
class Mark:
    start: int
    end: int


def render(text: str, *values: str) -> str:
    marks, cursor = [], 0
    for value in values:
        at = text.index(value, cursor)
        marks.append(Mark(at, at + len(value)))
        cursor = at + len(value)
    return markdown_html(text, marks, lambda index, start, end: f"<a>{escape(text[start:end])}</a>", escape)


@pytest.mark.parametrize(
    ("text", "values", "html"),
    [
        ("## Order **ORD-4471**", ("ORD-4471",), "<h4>Order <strong><a>ORD-4471</a></strong></h4>"),
        ("Sent *today* via `1Z999AA1`.", ("1Z999AA1",), "<p>Sent <em>today</em> via <code><a>1Z999AA1</a></code>.</p>"),
        ("5 * 3 = 15, a lone * and **", (), "<p>5 * 3 = 15, a lone * and **</p>"),  # no partner: text
        ("one\ntwo\n\nthree", (), "<p>one<br>two</p><p>three</p>"),
        ("- a 41200\n- b", ("41200",), "<ul><li>a <a>41200</a></li><li>b</li></ul>"),
        ("3. c\n4. d", (), '<ol start="3"><li>c</li><li>d</li></ol>'),
        ("1. **ID:** X\n   - $241\n2. Y", (), "<ol><li><strong>ID:</strong> X<ul><li>$241</li></ul></li><li>Y</li></ol>"),
        ("| id | total |\n|---|---:|\n| ORD-1 | $12.50 |", ("ORD-1", "$12.50"),
         "<table><tr><th>id</th><th>total</th></tr><tr><td><a>ORD-1</a></td><td><a>$12.50</a></td></tr></table>"),
        ("> quoted ORD-9", ("ORD-9",), "<blockquote>quoted <a>ORD-9</a></blockquote>"),
        ("```json\n{\"id\": \"ORD-4471\"} **x**\n```\nafter", ("ORD-4471",),
         "<pre><code>{&quot;id&quot;: &quot;<a>ORD-4471</a>&quot;} **x**</code></pre><p>after</p>"),
        ("a\n---\nb", (), "<p>a</p><hr><p>b</p>"),
        ('{"order": "ORD-4471"}', ("ORD-4471",), "<pre>{&quot;order&quot;: &quot;<a>ORD-4471</a>&quot;}</pre>"),
    ],
)
def test_markdown_renders_as_a_reader_expects(text, values, html):
    assert render(text, *values) == html


def test_a_value_that_runs_over_a_line_break_is_marked_on_each_line():
    assert render("Marcus\nWhitfield", "Marcus\nWhitfield") == "<p><a>Marcus</a><br><a>Whitfield</a></p>"


def test_nothing_of_the_answer_is_markup_and_nothing_loads():
    html = render("<script>alert(1)</script> [docs](http://evil/x) ![i](http://evil/y.png) <b>ORD-1</b>", "ORD-1")
    assert "<script" not in html and "<b>" not in html and "href" not in html and "<img" not in html
    assert "[docs](http://evil/x)" in unescape(html) and "<a>ORD-1</a>" in html


_MARKDOWN = st.text(alphabet="ab 1\n*`#->|_:.", max_size=80)


@settings(max_examples=300, deadline=None)
@given(_MARKDOWN, st.data())
def test_every_value_is_marked_whole_and_no_letter_is_lost(text, data):
    # any Markdown, any values (runs of letters and digits, a letter among them: no list's number): each is drawn once and whole, and
    # every letter of the answer is in the page as often as in the answer (a fence's language tag aside)
    assume("```" not in text)
    runs = [match.span() for match in re.finditer(r"[ab1]*[ab][ab1]*", text)]
    chosen = data.draw(st.lists(st.sampled_from(runs), unique=True, max_size=4)) if runs else []
    marks = [Mark(a, b) for a, b in sorted(chosen)]
    drawn: list[str] = []

    def marked(index: int, start: int, end: int) -> str:
        drawn.append(text[start:end])
        return f"<a>{escape(text[start:end])}</a>"

    html = markdown_html(text, marks, marked, escape)
    written = [text[mark.start:mark.end] for mark in marks]
    assert sorted(drawn) == sorted(written)
    shown = unescape(re.sub(r"<[^>]+>", "", html))
    assert Counter(c for c in shown if c in "ab") == Counter(c for c in text if c in "ab")
