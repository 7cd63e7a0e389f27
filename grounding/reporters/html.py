"""``--output-format html``: one self-contained page to review a run's answers in a browser.

A summary (counts, flagged answers per file, the most frequent unsupported values), then one card per
answer, flagged first, then derived, then the rest collapsed: the answer's text with every examined value
highlighted by its verdict, and for each value where it was read (item, tool, JSON pointer and the tool
result around it) or, when unsupported, the nearest values read and whether it appears only in the model's
own call arguments (the hover title says the same in short). The CLI judges with ``--explain`` for this
format; without explanations the cards mark what the verdict lists.

A transcript is untrusted: every text is escaped (and its controls shown as escapes), and the page's
content security policy lets it load nothing. It needs no server and no network; it reads whole without
JavaScript, whose only job is to filter the cards.
"""

from __future__ import annotations

import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass
from html import escape
from typing import TextIO

from grounding import __version__
from grounding.model import COMPUTED_VIA, JudgedAnswer, Problem, Status, Summary, path_text, shown_shape
from grounding.reporters.escape import xml_text
from grounding.reporters.findings import findings_of
from grounding.reporters.html_assets import CONTENT_SECURITY_POLICY, SCRIPT, STYLE
from grounding.reporters.markdown import markdown_html
from grounding.reporters.summary import summary_line

# Cards in this order of status; the first two open, the rest collapsed to their headline.
_ORDER = ("flagged", "derived", "contract-unmet", "unjudgeable", "truncated", "refused", "unchecked", "grounded")
_OPEN = frozenset({"flagged", "derived"})
_CHART_ROWS = 12
_CONVERSATIONS_OFFERED = 1000  # the conversation filter takes any id; it lists the first ones


def _text(text: str) -> str:
    """text for HTML: escaped, and whatever no page should hold (controls, lone surrogates) shown as escapes."""
    return escape(xml_text(text), quote=True)


@dataclass(frozen=True, slots=True)
class Mark:
    """One examined value in an answer: where it is, its verdict (a CSS class), and what to say of it."""

    start: int
    end: int
    kind: str  # unsupported, grounded, derived, example
    shape: str
    label: str  # the verdict in words: "unsupported", "grounded", "derived (a formula)", …
    details: tuple[tuple[str, str], ...]  # (where or what, the tool result around it)


def _kind(status: str) -> str:
    if status in ("unsupported", "example"):
        return status
    return "derived" if status in COMPUTED_VIA else "grounded"


def marks(judged: JudgedAnswer) -> list[Mark]:
    """The answer's examined values, in order, none overlapping: from its explanation when it was judged
    with one (every candidate), else from what its verdict lists (unsupported, grounded by a route, examples)."""
    found: list[Mark] = []
    text, cursor = judged.text, 0
    if judged.explanation:
        for e in judged.explanation:
            at = text.find(e.text, cursor)
            at = at if at >= 0 else text.find(e.text)
            if at < 0:
                continue
            cursor = at + len(e.text)
            found.append(Mark(at, at + len(e.text), _kind(e.status), shown_shape(e.value, e.shape),
                              _label(e.status, e.detail), _explained(e)))
    else:
        verdict = judged.verdict
        for status, findings in (("unsupported", verdict.unsupported), ("example", verdict.examples),
                                 (None, verdict.grounded_via)):
            for f in findings:
                if f.at >= 0:
                    how = status or f.via or "grounded"
                    found.append(Mark(f.at, f.at + len(f.text), _kind(how), shown_shape(f.value, f.shape),
                                      _label(how, f.formula or f.matched), ()))
    kept: list[Mark] = []
    for mark in sorted(found, key=lambda m: (m.start, -m.end)):
        if not kept or mark.start >= kept[-1].end:
            kept.append(mark)
    return kept


def _label(status: str, detail: str | None) -> str:
    return status + (f" ({detail})" if detail else "")


def _explained(e: object) -> tuple[tuple[str, str], ...]:
    """What the value's entry says: where it was read, with the text around it; or, unsupported, what is
    nearest and whether only the model's own call arguments hold it."""
    if e.status == "example":
        return (("written as an example, not a claim: not judged", ""),)
    if e.status == "unsupported":
        lines = [("appears only in the model's own call arguments: " + ", ".join(e.typed_in_calls), "")
                 ] if e.typed_in_calls else []
        lines += [(_NEAREST + near, "") for near in e.nearest] or [("nothing close was read", "")]
        return tuple(lines)
    snippets = list(e.snippets) + [""] * (len(e.sources) - len(e.snippets))
    return tuple(zip(e.sources, snippets, strict=True)) or (("computed from values read", ""),)


def _title(mark: Mark) -> str:
    return "; ".join([mark.label, *(where for where, _ in mark.details[:3])])


def _answer_html(text: str, kept: list[Mark], card: int) -> str:
    """The answer's Markdown rendered (reporters.markdown), each value marked where it stands, and beside an
    unsupported one the value read nearest it."""
    def marked(index: int, start: int, end: int) -> str:
        mark = kept[index]
        shown = (f'<a class="v {mark.kind}" href="#a{card}-v{index}" title="{_text(_title(mark))}">'
                 f"{_text(text[start:end])}</a>")
        nearest = next((where for where, _ in mark.details if where.startswith(_NEAREST)), None)
        if nearest is not None and end == mark.end:  # its value only: where it was read is in the list below
            shown += f'<span class="near">{_text(nearest.split(" (distance", 1)[0])}</span>'
        return shown

    return markdown_html(text, kept, marked, _text)


_NEAREST = "nearest read: "


def _values_html(text: str, kept: list[Mark], card: int) -> str:
    items = []
    for index, mark in enumerate(kept):
        said = "".join(f'<div class="src">{_text(where)}'
                       + (f'<code class="snippet">{_text(near)}</code>' if near else "") + "</div>"
                       for where, near in mark.details)
        items.append(f'<li id="a{card}-v{index}"><a class="v {mark.kind}" href="#a{card}-v{index}">'
                     f"{_text(text[mark.start:mark.end])}</a> <code>{_text(mark.shape)}</code> — "
                     f"{_text(mark.label)}{said}</li>")
    return f'<ol class="values">{"".join(items)}</ol>' if items else ""


def rules_of(judged: JudgedAnswer) -> list[str]:
    """The codes of the rules the answer's findings fall under (GR001, …), derived values' too."""
    return sorted({finding.code for finding in findings_of(judged, derived=True)})


def card_html(judged: JudgedAnswer, card: int) -> str:
    """One answer's card: its headline, its reason when it was not judged for evidence, its text with the
    values marked, and what each value's verdict rests on."""
    verdict, status = judged.verdict, judged.verdict.status.value
    kept = marks(judged)
    source = path_text(judged.source)
    shapes = " ".join(sorted({mark.shape for mark in kept}))
    unsupported = f", {len(verdict.unsupported)} unsupported" if verdict.unsupported else ""
    conversation = judged.conversation if judged.conversation is not None else "-"
    reason = verdict.reason or (verdict.contract.error if verdict.contract is not None else None)
    return (f'<details class="card" data-status="{status}" data-source="{_text(source)}" '
            f'data-shapes="{_text(shapes)}" data-rules="{" ".join(rules_of(judged))}" '
            f'data-conversation="{_text(conversation)}"{" open" if status in _OPEN else ""}>'
            f'<summary><span class="badge {status}">{status}</span> <code>{_text(source)}:{judged.line}</code> '
            f'<span class="where">conversation {_text(conversation)} turn {judged.turn} · '
            f"{_text(judged.input_format)} · {verdict.candidates} values examined{unsupported}</span></summary>"
            f'<div class="card-body">' + (f'<p class="reason">{_text(reason)}</p>' if reason else "")
            + f'<div class="answer">{_answer_html(judged.text, kept, card)}</div>'
            f"{_values_html(judged.text, kept, card)}</div></details>")


def bar_chart(title: str, rows: list[tuple[str, int]]) -> str:
    """A small horizontal bar chart, as inline SVG: a label, a bar and a count per row."""
    if not rows:
        return f'<div class="chart"><h3>{_text(title)}</h3><p>none</p></div>'
    most, height = max(count for _, count in rows), 22
    bars = []
    for row, (label, count) in enumerate(rows):
        shown = label if len(label) <= 32 else "…" + label[-31:]
        width = max(2, round(280 * count / most))
        y = row * height
        bars.append(f'<text x="0" y="{y + 15}">{_text(shown)}<title>{_text(label)}</title></text>'
                    f'<rect x="250" y="{y + 4}" width="{width}" height="14" rx="2"></rect>'
                    f'<text x="{256 + width}" y="{y + 15}">{count}</text>')
    return (f'<div class="chart"><h3>{_text(title)}</h3><svg viewBox="0 0 600 {len(rows) * height}" role="img" '
            f'aria-label="{_text(title)}">{"".join(bars)}</svg></div>')


_COPIED = 1 << 20  # the cards are copied out a megabyte at a time


class HtmlReporter:
    """Writes the page at the end (flagged first needs every answer): each card is spilled, as it is
    judged, to a temporary file of its status's rank, and the files are copied out in rank order, so memory
    stays flat however many answers a run judges (every card held, 100k answers took 763 MB)."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out = out
        self.cards = 0  # cards written so far: the next card's number
        self._spills: dict[int, TextIO] = {}  # rank of status -> its cards, each after a newline, in arrival
        self.problems: list[Problem] = []
        self.flagged_by_source: Counter[str] = Counter()
        self.statuses: Counter[str] = Counter()
        self.shapes: set[str] = set()
        self.sources: set[str] = set()
        self.rules: dict[str, str] = {}  # code -> rule name, of every finding
        self.conversations: set[str] = set()  # offered as the conversation filter's choices (the first ones)

    def answer(self, judged: JudgedAnswer) -> None:
        status = judged.verdict.status.value
        source = path_text(judged.source)
        rank = _ORDER.index(status)
        if rank not in self._spills:
            self._spills[rank] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - closed by finish
        self._spills[rank].write("\n" + card_html(judged, self.cards))
        self.cards += 1
        self.statuses[status] += 1
        self.sources.add(source)
        self.shapes.update(shown_shape(f.value, f.shape) for f in judged.verdict.unsupported)
        self.shapes.update(shown_shape(e.value, e.shape) for e in judged.explanation)
        self.rules.update((finding.code, finding.rule) for finding in findings_of(judged, derived=True))
        if judged.conversation is not None and len(self.conversations) < _CONVERSATIONS_OFFERED:
            self.conversations.add(judged.conversation)
        if judged.verdict.status is Status.FLAGGED:
            self.flagged_by_source[source] += 1

    def problem(self, problem: Problem) -> None:
        self.problems.append(problem)

    def finish(self, summary: Summary) -> None:
        self.out.write(self._head(summary))
        first = True
        for rank in sorted(self._spills):
            with self._spills.pop(rank) as spill:
                spill.seek(0)
                if first:  # the cards are joined by newlines: none before the first
                    spill.read(1)
                    first = False
                shutil.copyfileobj(spill, self.out, _COPIED)
        self.out.write(f"</section></main>\n<script>{SCRIPT}</script></body></html>\n")

    def _head(self, summary: Summary) -> str:
        """The page up to its first card."""
        return "".join((
            '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>ground report</title><style>{STYLE}</style></head>\n<body><main>",
            f'<h1>ground report</h1><p class="meta">ground {__version__} · {_text(summary_line(summary))}</p>\n',
            self._summary(summary), self._filters(), self._problems(), '<section id="answers"><h2>Answers</h2>\n',
        ))

    def _summary(self, summary: Summary) -> str:
        tiles = [("answers judged", summary.answers, ""), ("flagged", summary.flagged, "flagged"),
                 ("derived", summary.derived, "derived"), ("grounded", summary.grounded, ""),
                 ("unchecked", summary.unchecked, ""), ("unjudgeable", summary.unjudgeable, ""),
                 ("values examined", summary.candidates, ""),
                 ("unsupported values", summary.unsupported, "flagged"), ("records not read", summary.errors, "")]
        if summary.contract_unmet:
            tiles.insert(4, ("contract unmet", summary.contract_unmet, ""))
        shown = "".join(f'<div class="tile {kind}"><b>{count}</b><span>{label}</span></div>'
                        for label, count, kind in tiles)
        per_source = self.flagged_by_source.most_common(_CHART_ROWS)
        values = [(summary.written.get(value, value), count)  # each as an answer wrote it
                  for value, count in summary.unsupported_values.most_common(_CHART_ROWS)]
        return (f'<section id="summary"><div class="tiles">{shown}</div><div class="charts">'
                f'{bar_chart("Flagged answers per file", per_source)}'
                f'{bar_chart("Most frequent unsupported values", values)}</div></section>\n')

    def _filters(self) -> str:
        def select(name: str, label: str, options: list[str], labels: dict[str, str] | None = None) -> str:
            listed = "".join(f'<option value="{_text(o)}">{_text(labels[o] if labels else o)}</option>'
                             for o in options)
            return f'<label>{label} <select name="{name}"><option value="">all</option>{listed}</select></label>'

        statuses = [status for status in _ORDER if self.statuses[status]]
        rules = {code: f"{code} {name}" for code, name in self.rules.items()}
        offered = "".join(f'<option value="{_text(c)}">' for c in sorted(self.conversations))
        return ('<form id="filters" hidden>' + select("status", "Status", statuses)
                + select("rule", "Rule", sorted(rules), rules)
                + select("shape", "Shape", sorted(self.shapes)) + select("source", "File", sorted(self.sources))
                + '<input type="search" name="conversation" list="conversations" placeholder="Conversation" '
                f'aria-label="Conversation"><datalist id="conversations">{offered}</datalist>'
                + '<input type="search" name="q" placeholder="Search answers and values" aria-label="Search">'
                '<span id="shown"></span></form><noscript><p class="meta">The filters need JavaScript; every '
                "answer is listed below.</p></noscript>\n")

    def _problems(self) -> str:
        if not self.problems:
            return ""
        listed = "".join(f"<li><code>{_text(path_text(p.source))}:{p.line if p.line is not None else '-'}</code> "
                         f"{_text(path_text(p.message))}</li>" for p in self.problems)
        return f'<section id="problems"><h2>Records not read</h2><ul class="problems">{listed}</ul></section>\n'
