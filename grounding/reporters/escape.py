"""A transcript is untrusted input: what a report shows of it can hold no control of the medium it goes to.

An answer, a value, a conversation id or a file name may carry terminal controls (ESC and CSI sequences
that retitle a terminal, clear it or set the clipboard; C1 controls), bidirectional overrides that make a
line read other than it is, or characters XML 1.0 forbids. Reports show each as a visible escape
(``\\x1b``, ``\\u202e``), so the text is still there to read, and nothing acts on the reader.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, the bidirectional marks, embeddings and isolates, and
# lone surrogates (a file name that is not UTF-8 reaches Python so, and no encoder writes one)
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
# what XML 1.0 cannot hold at all, as well as those (a report for a CI system is XML)
_NOT_XML = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte of a name that is not UTF-8 (surrogateescape): shown as that byte
        code -= 0xDC00
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """text with every control and bidirectional mark shown as an escape.

    >>> visible("ok \\x1b]0;pwned\\x07 \\u202egnp.exe")
    'ok \\\\x1b]0;pwned\\\\x07 \\\\u202egnp.exe'
    """
    return text if _UNSAFE.search(text) is None else _UNSAFE.sub(_escaped, text)


def xml_text(text: str) -> str:
    """text that XML 1.0 can hold, with the same escapes (to be XML-escaped after)."""
    return text if _NOT_XML.search(text) is None else _NOT_XML.sub(_escaped, text)


def one_line(text: str) -> str:
    """visible(text) with its newlines (and tabs) as spaces: a table cell, an annotation's title."""
    return visible(text).replace("\r", " ").replace("\n", " ").replace("\t", " ")
