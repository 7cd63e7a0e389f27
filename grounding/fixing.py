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

import re
from dataclasses import replace

from grounding.model import Finding, Status, Verdict

MASK = "[unverified]"


def fix(answer: str, verdict: Verdict, *, replacement: str = MASK) -> str:
    """answer with each of the verdict's unsupported values replaced by replacement ("" removes it, and the
    space before it). A JSON answer (a structured output) stays JSON: a string leaf has the value replaced
    in it, a number leaf that is the value becomes replacement as a string, or null when removed."""
    if not verdict.unsupported:
        return answer
    if all(finding.at < 0 for finding in verdict.unsupported):
        structured = _fixed_json(answer, verdict.unsupported, replacement)
        if structured is not None:
            return structured
    spans = sorted(_spans(answer, verdict.unsupported), reverse=True)
    for start, end in spans:
        if not replacement:  # removed: with the space before it, so no double space is left
            start -= 1 if start > 0 and answer[start - 1] == " " else 0
        answer = answer[:start] + replacement + answer[end:]
    return answer


def _spans(answer: str, unsupported: tuple[Finding, ...]) -> set[tuple[int, int]]:
    """Where each unsupported value is written: at its place, and everywhere else its text stands as a whole
    token (a finding is the value's first place; the answer may repeat it, in any case)."""
    spans = set()
    for finding in unsupported:
        at, text = finding.at, finding.text
        if at >= 0 and answer[at : at + len(text)] == text:
            spans.add((at, at + len(text)))
        for match in re.finditer(rf"(?<![\w.-]){re.escape(text)}(?![\w-]|\.\w)", answer, re.IGNORECASE):
            spans.add(match.span())
    return _disjoint(spans)


def _disjoint(spans: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The spans with any inside another left out (a value written within a longer one)."""
    return {span for span in spans
            if not any(other != span and other[0] <= span[0] and span[1] <= other[1] for other in spans)}


def _fixed_json(answer: str, unsupported: tuple[Finding, ...], replacement: str) -> str | None:
    import orjson

    try:
        document = orjson.loads(answer)
    except orjson.JSONDecodeError:
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
        if isinstance(leaf, bool) or leaf is None:
            return leaf
        if isinstance(leaf, (int, float)):
            return (replacement or None) if str(leaf).lower() in values else leaf
        if any(text in leaf for text in texts):  # a string: searched, as its place in the JSON text is not known
            return fix(leaf, placeless, replacement=replacement)
        return leaf

    return orjson.dumps(fixed(document)).decode()
