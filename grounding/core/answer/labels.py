"""Labels an answer coins from grounded parts (SPEC §9.25).

A structured answer names its steps and keys in snake_case around the values it
read (``apply_voucher_8812034_first``), and a product line lists attributes
joined by ``/`` (``m2/24gb/1tb``). Neither token was read as a whole, yet
neither is invented when its value parts were read: each part is judged alone.
An all-capitals token (``ORD_55120_RTN``) or one joined by ``-`` is no label.

A label is the model's name for its own structure (``option_b_morning``, ``apply_voucher_8812034_first``).
Where it is shaped or written as a reference, it is judged whole, as the identifier it claims to be: when
it ends with its value (``refund_order_W4410022``: a name, then its number), when one of its words or the
words just before it say so (``refund_ref_ORD55120``, "your user id is …"), or when it holds a part
shaped like an identifier family the conversation read (``credit_card_4471`` where
``credit_card_7815826`` was read: see id_spans). Else a read order id plus a made-up word would pass.
"""

from __future__ import annotations

import re

from grounding.core.text.normalise import normalise
from grounding.core.text.units import split_unit

_WORD = re.compile(r"[a-z]{3,}")  # a snake_case word: lower case, three letters or more
_CODE = re.compile(r"[a-z0-9]+")
_DIGIT = re.compile(r"\d")
_LEAST_WORDS = 2
# Words that present a token as a reference to something: a label written with one is an identifier
_REFERENCE_WORDS = frozenset({
    "id", "ids", "ref", "refs", "reference", "number", "num", "no", "nr", "confirmation", "conf", "code",
    "ticket", "receipt", "tracking", "transaction", "txn", "serial",
})
WORDS_BEFORE = 3  # the words before a label that may present it as a reference ("your refund reference is")


def parts_of(text: str, min_digits: int) -> list[tuple[str, int]] | None:
    """The parts of a label or a list of attributes with where each starts in text, or None when text is
    neither.

    >>> parts_of("apply_voucher_8812034_first", 4)
    [('apply', 0), ('voucher', 6), ('8812034', 14), ('first', 22)]
    >>> [part for part, _ in parts_of("M2/24GB/1TB", 4)]
    ['M2', '24GB', '1TB']
    >>> parts_of("ORD_55120_RTN", 4), parts_of("gift_5086243", 4), parts_of("fc1/9", 4), parts_of("QX210/QX388", 4)
    (None, None, None, None)
    """
    if "_" in text:
        return _label_parts(text)
    if "/" in text:
        return _attribute_parts(text, min_digits)
    return None


# A unit word and the "/" that continues the list (" GB/1 TB"): never a word a sentence goes on with ("fc1/9 in
# the rack" names a port)
_UNIT_AFTER = re.compile(r" ([A-Za-z]{1,4})/")
_NOT_UNITS = frozenset({"in", "am", "pm", "st", "nd", "rd", "th", "at", "on", "to", "of", "or", "and"})


def unit_continuing_list(following: str) -> str:
    """The unit word written after a list of attributes (``i7/16`` then `` GB/1 TB``: a list written with
    spaces, cut there into tokens), to be read as the last part's, or "".

    >>> unit_continuing_list(" GB/1 TB"), unit_continuing_list(" is fast"), unit_continuing_list(" in/out"), unit_continuing_list(" GB.")
    ('GB', '', '', '')
    """
    match = _UNIT_AFTER.match(following)
    if match is None or match.group(1).lower() in _NOT_UNITS:
        return ""
    return match.group(1) if split_unit("1" + match.group(1).lower()) is not None else ""


def _label_parts(text: str) -> list[tuple[str, int]] | None:
    parts = _split(text, "_")
    if any(not part for part, _ in parts) or sum(1 for part, _ in parts if _WORD.fullmatch(part)) < _LEAST_WORDS:
        return None
    return parts


def _attribute_parts(text: str, min_digits: int) -> list[tuple[str, int]] | None:
    """Every part a number with a unit or a short code of letters and digits, at least one with a unit."""
    parts = _split(text, "/")
    with_unit = 0
    for part, _ in parts:
        written = normalise(part)
        if not written:
            return None
        if split_unit(written) is not None:
            with_unit += 1
        elif not (_CODE.fullmatch(written) and len(written) < min_digits):
            return None
    return parts if with_unit else None


def _split(text: str, joiner: str) -> list[tuple[str, int]]:
    parts, at = [], 0
    for part in text.split(joiner):
        parts.append((part, at))
        at += len(part) + 1
    return parts


def shaped_as_identifier(parts: list[tuple[str, int]]) -> bool:
    """True when a label ends with its value (``refund_order_W4410022``, ``user_maria_lopez_4471``): the shape
    of an identifier (a name, then its number), not of a step the model names (``apply_voucher_8812034_first``).

    >>> shaped_as_identifier(parts_of("user_maria_lopez_4471", 4))
    True
    >>> shaped_as_identifier(parts_of("seat_14c_upgrade", 4))
    False
    """
    return _DIGIT.search(parts[-1][0]) is not None


def presented_as_reference(parts: list[tuple[str, int]], words_before: list[str]) -> bool:
    """True when a label's own words or the words just before it present it as a reference.

    >>> presented_as_reference(parts_of("refund_ref_ORD55120", 4), [])
    True
    >>> presented_as_reference(parts_of("user_maria_lopez_4471", 4), ["your", "id", "is"])
    True
    >>> presented_as_reference(parts_of("apply_voucher_8812034_first", 4), ["the", "plan", "is"])
    False
    """
    return any(part.lower() in _REFERENCE_WORDS for part, _ in parts) or not _REFERENCE_WORDS.isdisjoint(
        words_before
    )


def id_spans(parts: list[tuple[str, int]]) -> list[tuple[str, str]]:
    """(prefix, span) for each run of words followed by a part with a digit, lower case: ``credit_card_``
    and ``credit_card_4471``. Where the conversation read an identifier that is the prefix and one part
    with a digit, the span is an identifier of that family, and it was read, or it was coined.

    >>> id_spans(parts_of("user_maria_lopez_4471", 4))
    [('user_maria_lopez_', 'user_maria_lopez_4471'), ('maria_lopez_', 'maria_lopez_4471'), ('lopez_', 'lopez_4471')]
    """
    lowered = [part.lower() for part, _ in parts]
    spans = []
    for end, part in enumerate(lowered):
        if not _DIGIT.search(part):
            continue
        start = end
        while start > 0 and lowered[start - 1].isalpha():
            start -= 1
        for first in range(start, end):
            prefix = "_".join(lowered[first:end]) + "_"
            spans.append((prefix, prefix + part))
    return spans
