"""Where an answer of a ``.json`` document stands: the line its text starts on (a pretty-printed document
holds a conversation over many lines), for reports that point at it."""

from __future__ import annotations

import json
from dataclasses import replace

from grounding.model import ANSWER, Conversation


def answers_located(conversation: Conversation, document: bytes, places: dict) -> Conversation:
    """The conversation with each answer at the line where its text starts in a (pretty-printed) .json
    document, found in document order after the answer before it; an answer not found keeps the line of
    its conversation. places carries, from one conversation of a document to the next, the decoded text
    and where the search stands (offset and line), so an array of conversations is searched once."""
    if places.get("document") is not document:
        places.update(document=document, text=document.decode("utf-8", "replace"), at=0, line=1)
    text = places["text"]
    items = []
    for item in conversation.items:
        if item.kind is ANSWER and not item.line and item.text:
            found = _find_string(text, item.text, places["at"])
            if found >= 0:
                places["line"] += text.count("\n", places["at"], found)
                places["at"] = found
                item = replace(item, line=places["line"])
        items.append(item)
    return replace(conversation, items=tuple(items))


def _find_string(text: str, value: str, start: int) -> int:
    """Where value stands in text as a JSON string's content (as a document writes it), or -1."""
    for ascii_only in (False, True):
        spelled = json.dumps(value[:80], ensure_ascii=ascii_only)[1:-1]
        found = text.find(spelled, start)
        if found >= 0:
            return found
    return -1
