"""An answer cut off inside its last value (the output ended at the model's limit: ``…'2025-03-``).

Where the record does not say the model stopped at a limit (§9.3's ``length`` stop), the text still shows
it: the answer ends inside a token that no finished value ends like — with a joiner (``2025-03-``,
``reports/``) or after an opening quote or bracket that nothing closes. Such a fragment, when a value read
begins with it, is no invention (the judge reports it as ``truncated``). A finished token at the end of an
answer is judged as any other: an answer that ends "your order is ORD-5512" is not cut.
"""

from __future__ import annotations

from grounding.core.answer.candidates import Answer, Candidate
from grounding.core.text.normalise import normalise

_JOINERS = "-/_@#+"  # (not "." or ":": they end a sentence or a label)
_OPENERS = "\"'`([{<"


def cut_off_fragment(candidate: Candidate, answer: Answer) -> str | None:
    """The fragment (normalised, its trailing joiners dropped) when the answer ends inside this candidate's
    last occurrence; None when it does not.

    >>> from grounding.core.answer.candidates import read_answer
    >>> from grounding.core.settings import Settings
    >>> def last(text):
    ...     answer = read_answer(text, Settings())
    ...     return cut_off_fragment(answer.candidates[-1], answer)
    >>> last("Reports: '2025-03-"), last('{"id": "ORD-551'), last("Your order is ORD-5512"), last("ORD-5512.")
    ('2025-03', 'ord-551', None, None)
    """
    if answer.is_json or not candidate.occurrences:
        return None
    occurrence = candidate.occurrences[-1]
    text = answer.segments[occurrence.segment]
    if occurrence.segment != len(answer.segments) - 1 or text[occurrence.end :].strip():
        return None
    written = text[occurrence.start : occurrence.end]
    opened = occurrence.start > 0 and text[occurrence.start - 1] in _OPENERS
    if not (written[-1:] in _JOINERS or opened):
        return None
    fragment = normalise(written.rstrip(_JOINERS))
    return fragment or None
