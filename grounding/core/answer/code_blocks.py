"""Code an answer authors versus output it quotes (issue 48, §9.26).

A coding agent's answer holds code of two kinds. Code it **authors** (a proposed config, a test sketch, an
example payload: ``PID: 4242``, ``"id": "xyz-789"``, a timeout ``45000``) makes no claim about what the
session read: its literals are examples. Output it **quotes** (what a command printed or returned, a log,
a file's lines as read) is a claim: it is judged like prose.

A fenced block is quoted when its info string names output (``console``, ``text``, ``log``, …), when the
words just before it present it as output ("the test run printed:", "it returned:", "the log shows:",
"line 10 from the file"), or when half of its lines or more occur in what the session read (the judge
asks: ``quoted``). Any other fenced block is authored.

An inline code span is authored only when it is code with a structure of its own (an assignment, a call, a
key and its value: ``timeout = 45000``, ``{"id": "xyz-789"}``, ``PID: 4242``) and is not presented as
output; a span that is one value (``order_sync_worker.go:110``, ``4f2a9c1``) or a command (``git checkout
4f2a9c1``) is a reference, judged like prose.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from grounding.core.text.patterns import LazyPattern

_FENCE = LazyPattern(regex.compile, r"^[ \t]*(```+|~~~+)[ \t]*([^\n`]*)\n(.*?)^[ \t]*\1[ \t]*$",
                     regex.DOTALL | regex.MULTILINE)
_INLINE = LazyPattern(regex.compile, r"(?<!`)`([^`\n]+)`(?!`)")
# info strings of output: a terminal session, plain text, a log
_OUTPUT_TAGS = frozenset({"console", "shell-session", "sh-session", "terminal", "output", "stdout", "stderr",
                          "text", "txt", "plaintext", "plain", "log", "logs", "ansi"})
# words that present what follows as output the session saw (within the sentence before the code)
_PRESENTED_AS_OUTPUT = LazyPattern(
    regex.compile,
    r"(?:\b(?:output|outputs|printed|prints|returned|returns|responded|response|shows|showed|shown|says|said|"
    r"reported|reports|logged|logs|emitted|emits|gave|gives|got|wrote|writes|displayed|displays|produced|"
    r"produces|traceback|contains|contained|currently|now\s+is|is\s+now|lines?\s+\d+|from\s+(?:the\s+|this\s+|"
    r"that\s+)?(?:[\w-]+\s+)?(?:file|log|logs|output|command|tool|result|response|page|database|query|table|"
    r"trace|run|server|api|endpoint))\b[^`\n]{0,60}|\berrors?)[:\s]*$",
    regex.IGNORECASE,
)
# the sentence before a fenced block or an inline span: what presents it
_LOOKBACK = 120
# an inline span that is code with a structure: an assignment, a call, a key and its value, a literal object
_STRUCTURED = LazyPattern(regex.compile, r"[\w\"')\]]\s*(?:=|:=|=>|->)\s*\S|\w\(|^[{\[]|[\w\"']:\s+\S")
# a line of a block too short or too plain to tell anything by occurring in a result
_SHORTEST_TELLING_LINE = 6

Quoted = Callable[[list[str]], bool]  # whether half of these lines or more occur in what the session read


def fenced_blocks(text: str) -> list[regex.Match]:
    """The fenced code blocks of text: group 2 is the info string, group 3 the body."""
    return list(_FENCE.finditer(text)) if "```" in text or "~~~" in text else []


def authored_spans(text: str, quoted: Quoted | None, blocks: list[regex.Match]) -> list[tuple[int, int]]:
    """The spans of text that are code the answer authors: its fenced blocks (blocks: fenced_blocks(text))
    and structured inline spans, less those it quotes as output."""
    spans = []
    fenced: list[tuple[int, int]] = []
    for block in blocks:
        fenced.append((block.start(), block.end()))
        if not _quoted_block(text, block.start(), block.group(2), block.group(3), quoted):
            spans.append((block.start(3), block.end(3)))
    if "`" in text:
        for span in _INLINE.finditer(text):
            inside = any(low <= span.start() < high for low, high in fenced)
            code = span.group(1)
            if not inside and " " in code.strip() and _STRUCTURED.search(code) and \
                    not _presented_as_output(text, span.start()) and not _occurs(code, quoted):
                spans.append((span.start(1), span.end(1)))
    return spans


def _quoted_block(text: str, start: int, info: str, body: str, quoted: Quoted | None) -> bool:
    tag = info.strip().split(None, 1)[0].lower() if info.strip() else ""
    if tag in _OUTPUT_TAGS:
        return True
    if _presented_as_output(text, start):
        return True
    return _occurs(body, quoted)


def _presented_as_output(text: str, start: int) -> bool:
    before = text[max(0, start - _LOOKBACK) : start].rstrip()  # (a blank line may part the words from the code)
    paragraph = before.rsplit("\n\n", 1)[-1]
    return _PRESENTED_AS_OUTPUT.search(paragraph) is not None


def _occurs(body: str, quoted: Quoted | None) -> bool:
    """Half of the block's telling lines or more occur in what the session read."""
    if quoted is None:
        return False
    lines = [line.strip() for line in body.splitlines()]
    telling = [line for line in lines if len(line) >= _SHORTEST_TELLING_LINE and any(ch.isalnum() for ch in line)]
    return bool(telling) and quoted(telling)
