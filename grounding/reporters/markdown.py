"""An answer's Markdown as the HTML report shows it, its examined values marked where they stand.

Answers are Markdown: a reviewer reads headings, lists, tables, quotes, fenced code, **strong**, *emphasis*
and `code` rendered, not their marks. Every character of text is escaped by the caller's ``plain``; nothing
that loads is made (a link or an image stays its Markdown text: the page reaches no server); no tag of the
answer's own passes. A value is marked by the caller's ``marked`` wherever it stands, inside any block or
span: Markdown never splits it, and a value that runs over a line break is marked on each line.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from typing import Protocol


class Span(Protocol):
    start: int
    end: int


Marked = Callable[[int, int, int], str]  # (the mark's number, start, end) -> its HTML
Plain = Callable[[str], str]  # text -> escaped HTML

_FENCE = re.compile(r"[ \t]{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"[ \t]{0,3}#{1,6}(?:[ \t]+|\Z)")
_ITEM = re.compile(r"[ \t]*(?:([-*+])|(\d{1,9})[.)])[ \t]+")
_QUOTE = re.compile(r"[ \t]{0,3}>[ \t]?")
_RULE = re.compile(r"[ \t]{0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*\Z")
_TABLE_RULE = re.compile(r"[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+(?:[ \t]*:?-{3,}:?[ \t]*)?\Z")
_DELIMITER = re.compile(r"`+|\*\*|\*")


def markdown_html(text: str, marks: Sequence[Span], marked: Marked, plain: Plain) -> str:
    """text as HTML blocks, each of marks (sorted, none overlapping) drawn by marked."""
    if text.lstrip()[:1] in ("{", "["):  # a JSON answer (a structured output): as written
        return f"<pre>{_Inline(text, marks, marked, plain).html(0, len(text), formatted=False)}</pre>"
    return _Blocks(text, _Inline(text, marks, marked, plain)).html()


class _Inline:
    """A range of the text as inline HTML: its marks, and (formatted) its strong, emphasis and code spans."""

    def __init__(self, text: str, marks: Sequence[Span], marked: Marked, plain: Plain) -> None:
        self.text, self.marks, self.marked, self.plain = text, marks, marked, plain
        self._ends = [mark.end for mark in marks]

    def html(self, start: int, end: int, *, formatted: bool = True) -> str:
        pieces: list[str] = []
        opened: list[str] = []  # the spans open, innermost last
        cursor = start
        for index in range(bisect.bisect_right(self._ends, start), len(self.marks)):
            mark = self.marks[index]
            if mark.start >= end:
                break
            at, upto = max(mark.start, start), min(mark.end, end)
            pieces.append(self._spans(cursor, at, opened) if formatted else self.plain(self.text[cursor:at]))
            pieces.append(self.marked(index, at, upto))
            cursor = upto
        pieces.append(self._spans(cursor, end, opened) if formatted else self.plain(self.text[cursor:end]))
        pieces.extend(f"</{tag}>" for tag in reversed(opened))  # (a span the range left open ends with it)
        return "".join(pieces)

    def _spans(self, start: int, end: int, opened: list[str]) -> str:
        """text[start:end], its delimiters opening and closing spans (opened carries over the marks)."""
        text, pieces, cursor = self.text, [], start
        for match in _DELIMITER.finditer(text, start, end):
            tag = self._tag(match, opened)
            if tag is None:
                continue
            pieces.append(self.plain(text[cursor : match.start()]))
            if opened and opened[-1] == tag:
                pieces.append(f"</{opened.pop()}>")
            else:
                opened.append(tag)
                pieces.append(f"<{tag}>")
            cursor = match.end()
        pieces.append(self.plain(text[cursor:end]))
        return "".join(pieces)

    def _tag(self, match: re.Match[str], opened: list[str]) -> str | None:
        """The span a delimiter opens or closes, or None when it is text (``5 * 3``, a star with no partner,
        anything inside code)."""
        delimiter, text = match.group(), self.text
        before, after = text[match.start() - 1 : match.start()], text[match.end() : match.end() + 1]
        if delimiter[0] == "`":
            if opened and opened[-1] == "code":
                return "code"
            return None if "code" in opened or delimiter not in text[match.end() :] else "code"
        if "code" in opened:
            return None
        tag = "strong" if delimiter == "**" else "em"
        if opened and opened[-1] == tag and before.strip():
            return tag  # closes
        line_end = text.find("\n", match.end())
        partner = text.find(delimiter, match.end(), None if line_end < 0 else line_end)
        return tag if after.strip() and partner > match.end() else None


class _Blocks:
    """The text's lines as blocks: fenced code, headings, rules, tables, lists, quotes and paragraphs."""

    def __init__(self, text: str, inline: _Inline) -> None:
        self.text, self.inline = text, inline
        breaks = [at for at, c in enumerate(text) if c == "\n"]
        self.lines = list(zip([0, *(at + 1 for at in breaks)], [*breaks, len(text)]))  # (start, end) of each

    def html(self) -> str:
        out: list[str] = []
        paragraph: list[tuple[int, int]] = []
        at = 0
        while at < len(self.lines):
            start, end = self.lines[at]
            line = self.text[start:end]
            block = self._block(at, line)
            if block is None and line.strip():
                paragraph.append((start, end))
                at += 1
                continue
            if paragraph:
                out.append("<p>" + "<br>".join(self.inline.html(s, e) for s, e in paragraph) + "</p>")
                paragraph = []
            if block is None:  # a blank line
                at += 1
                continue
            html, at = block
            out.append(html)
        if paragraph:
            out.append("<p>" + "<br>".join(self.inline.html(s, e) for s, e in paragraph) + "</p>")
        return "".join(out)

    def _block(self, at: int, line: str) -> tuple[str, int] | None:
        """The block line at starts, as HTML, and the line after it; None for a paragraph's line or a blank."""
        start, end = self.lines[at]
        if _FENCE.match(line):
            return self._fenced(at, _FENCE.match(line).group(1))
        if (heading := _HEADING.match(line)) is not None:
            return f"<h4>{self.inline.html(start + heading.end(), end)}</h4>", at + 1
        if _RULE.match(line):
            return "<hr>", at + 1
        if "|" in line and at + 1 < len(self.lines) and _TABLE_RULE.match(self._line(at + 1)):
            return self._table(at)
        if _ITEM.match(line):
            return self._list(at)
        if _QUOTE.match(line):
            last = self._run(at, lambda text: _QUOTE.match(text) is not None)
            quoted = [(self.lines[n][0] + _QUOTE.match(self._line(n)).end(), self.lines[n][1]) for n in range(at, last)]
            return "<blockquote>" + "<br>".join(self.inline.html(s, e) for s, e in quoted) + "</blockquote>", last
        return None

    def _line(self, at: int) -> str:
        start, end = self.lines[at]
        return self.text[start:end]

    def _run(self, at: int, holds: Callable[[str], bool]) -> int:
        """The first line from at on that does not hold."""
        while at < len(self.lines) and holds(self._line(at)):
            at += 1
        return at

    def _fenced(self, at: int, fence: str) -> tuple[str, int]:
        closing = self._run(at + 1, lambda text: not text.lstrip().startswith(fence))
        body_start = self.lines[at + 1][0] if at + 1 < len(self.lines) else len(self.text)
        body_end = self.lines[closing - 1][1] if closing > at + 1 else body_start
        code = self.inline.html(body_start, max(body_start, body_end), formatted=False)
        return f"<pre><code>{code}</code></pre>", closing + 1

    def _table(self, at: int) -> tuple[str, int]:
        last = self._run(at + 2, lambda text: "|" in text and bool(text.strip()))
        rows = [self._cells(n, "th" if n == at else "td") for n in (at, *range(at + 2, last))]
        return "<table>" + "".join(f"<tr>{row}</tr>" for row in rows) + "</table>", last

    def _cells(self, at: int, tag: str) -> str:
        start, end = self.lines[at]
        line = self.text[start:end]
        bars = [start + i for i, c in enumerate(line) if c == "|" and (i == 0 or line[i - 1] != "\\")]
        edges = [start - 1, *bars, end]
        cells = [(a + 1, b) for a, b in zip(edges, edges[1:])]
        if line.lstrip().startswith("|"):  # (the nothing before a leading bar, and after a closing one)
            cells = cells[1:]
        if line.rstrip().endswith("|"):
            cells = cells[:-1]
        return "".join(f"<{tag}>{self.inline.html(*self._stripped(a, b))}</{tag}>" for a, b in cells)

    def _stripped(self, start: int, end: int) -> tuple[int, int]:
        while start < end and self.text[start] in " \t":
            start += 1
        while end > start and self.text[end - 1] in " \t":
            end -= 1
        return start, end

    def _list(self, at: int) -> tuple[str, int]:
        """The list that starts at line at: its items, and a deeper-indented list inside the item before it."""
        first = _ITEM.match(self._line(at))
        depth, ordered = _depth(first), first.group(2) is not None
        items: list[str] = []
        while at < len(self.lines) and (item := _ITEM.match(self._line(at))) is not None:
            if _depth(item) < depth or (_depth(item) == depth and (item.group(2) is not None) != ordered):
                break  # the list it is nested in goes on, or a list of the other kind begins
            if _depth(item) > depth:
                nested, at = self._list(at)
                last = items.pop()[: -len("</li>")] if items else "<li>"
                items.append(last + nested + "</li>")
                continue
            start, end = self.lines[at]
            items.append(f"<li>{self.inline.html(start + item.end(), end)}</li>")
            at += 1
        tag = "ol" if ordered else "ul"
        begins = f' start="{int(first.group(2))}"' if ordered and int(first.group(2)) != 1 else ""
        return f"<{tag}{begins}>{''.join(items)}</{tag}>", at


def _depth(item: re.Match[str]) -> int:
    """How far a list item is indented (a tab as four spaces)."""
    marker = item.group()
    return len(marker[: len(marker) - len(marker.lstrip(" \t"))].expandtabs(4))
