"""An answer with its unsupported values masked or removed: the Guardrails-style ``fix`` of a flagged answer.

A loop that must ship something (a reply is owed, the revision is spent) can ship the answer with every
value no tool result holds masked, rather than the invention itself. Only the unsupported values change:
every grounded value, and every other character, stays as the model wrote it.

>>> from grounding.model import Finding, Status, Verdict
>>> verdict = Verdict(Status.FLAGGED, 2, (Finding("ord-4471", "identifier", "ORD-4471", at=6),))
>>> fix("Order ORD-4471 has shipped.", verdict)
'Order [unverified] has shipped.'
>>> fix("Order ORD-4471 has shipped.", verdict, replacement="")
'Order has shipped.'
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from decimal import Decimal

from grounding.json_exact import spell_decimal
from grounding.model import Finding, Status, Verdict

MASK = "[unverified]"


def fix(answer: str, verdict: Verdict, *, replacement: str = MASK) -> str:
    """answer with each of the verdict's unsupported values replaced by replacement ("" removes it, and the
    space before it). A JSON answer (a structured output) stays JSON: a string leaf has the value replaced
    in it, a number leaf that is the value becomes replacement as a string, or null when removed; every
    other number is written back as the answer wrote it. Linear in the answer and the values."""
    if not verdict.unsupported:
        return answer
    if all(finding.at < 0 for finding in verdict.unsupported):
        structured = _fixed_json(answer, verdict.unsupported, replacement)
        if structured is not None:
            return structured
    pieces, done = [], 0
    for start, end in _disjoint(_spans(answer, verdict.unsupported)):
        start = max(start, done)  # a span overlapping the last one: its rest
        if not replacement:  # removed: with the space before it, so no double space is left
            start -= 1 if start > done and answer[start - 1] == " " else 0
        pieces += (answer[done:start], replacement)
        done = end
    return "".join(pieces) + answer[done:]


def _spans(answer: str, unsupported: tuple[Finding, ...]) -> set[tuple[int, int]]:
    """Where each unsupported value is written: at its place, and everywhere else its text stands as a whole
    token, in any case (a finding is the value's first place; the answer may repeat it)."""
    spans = set()
    folded = answer.lower()
    same_length = len(folded) == len(answer)  # a lower case of another length would move every place
    for text in {finding.text for finding in unsupported}:
        if same_length:
            spans.update(_whole_tokens(answer, folded, text.lower()))
        else:
            pattern = rf"(?<![\w.-]){re.escape(text)}(?![\w-]|\.\w)"
            spans.update(match.span() for match in re.finditer(pattern, answer, re.IGNORECASE))
    for finding in unsupported:
        at, text = finding.at, finding.text
        if at >= 0 and answer[at : at + len(text)] == text:
            spans.add((at, at + len(text)))
    return spans


def _whole_tokens(answer: str, folded: str, text: str) -> list[tuple[int, int]]:
    """Each place text (lower case) stands in folded (answer in lower case) as a whole token: no word
    character, point or hyphen before it, no word character or hyphen after it, nor a point and a word
    character (a value is not a piece of a longer one)."""
    found, at = [], folded.find(text) if text else -1
    while at >= 0:
        end = at + len(text)
        before = answer[at - 1] if at else " "
        after = answer[end : end + 2]
        if not (_in_word(before) or before in ".-") and not (after[:1] == "-" or _in_word(after[:1])
                                                                 or (after[:1] == "." and _in_word(after[1:2]))):
            found.append((at, end))
        at = folded.find(text, at + 1)
    return found


def _in_word(character: str) -> bool:
    return character.isalnum() or character == "_"


def _disjoint(spans: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans in order, with any inside another left out (a value written within a longer one): sorted
    by start (the longest first), a span ends no later than one before it reached when it is inside it."""
    kept, reach = [], -1
    for start, end in sorted(spans, key=lambda span: (span[0], -span[1])):
        if end > reach:
            kept.append((start, end))
            reach = end
    return kept


class _Literal(str):
    """A number (or NaN, Infinity) as a JSON answer wrote it: written back as it is, never through a float."""


def _fixed_json(answer: str, unsupported: tuple[Finding, ...], replacement: str) -> str | None:
    try:
        document = json.loads(answer, parse_float=_Literal, parse_int=_Literal, parse_constant=_Literal)
    except (ValueError, RecursionError):
        return None
    if not isinstance(document, (dict, list)):
        return None
    values = {finding.value for finding in unsupported}
    texts = {finding.text for finding in unsupported}
    placeless = Verdict(Status.FLAGGED, len(unsupported), tuple(replace(f, at=-1) for f in unsupported))

    def fixed(leaf: object) -> object:
        if isinstance(leaf, dict):
            return {key: fixed(value) for key, value in leaf.items()}
        if isinstance(leaf, list):
            return [fixed(value) for value in leaf]
        if isinstance(leaf, _Literal):
            return (replacement or None) if values & _number_values(leaf) else leaf
        if isinstance(leaf, str) and any(text in leaf for text in texts):  # searched: its place is not known
            return fix(leaf, placeless, replacement=replacement)
        return leaf

    try:
        return _written(fixed(document))
    except RecursionError:
        return None


def _number_values(literal: str) -> set[str]:
    """The ways a finding may name a number literal: as written (lower case), and canonically (``1e3`` is
    ``1000``, ``50.0`` is ``50``)."""
    try:
        return {literal.lower(), spell_decimal(Decimal(literal))}
    except ArithmeticError:  # NaN and Infinity have no digits to spell
        return {literal.lower()}


def _written(node: object) -> str:
    """A document as compact JSON, its number literals as they were written."""
    import orjson

    if isinstance(node, _Literal):
        return str(node)
    if isinstance(node, dict):
        return "{" + ",".join(orjson.dumps(key).decode() + ":" + _written(value) for key, value in node.items()) + "}"
    if isinstance(node, list):
        return "[" + ",".join(_written(value) for value in node) + "]"
    return orjson.dumps(node).decode()
