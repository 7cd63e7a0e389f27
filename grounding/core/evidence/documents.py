"""A tool result's text as a document: JSON (exactly, or encoded twice), a Python repr, or text."""

from __future__ import annotations

from grounding import json_exact
from grounding.core.evidence import pyrepr


class Inexact(Exception):
    """A test met a float of a document whose numbers may not be as written (see exact_document)."""


TEXT = object()  # marks a result that is read as text, not as a JSON document


def parse(text: str) -> object:
    """A tool result's document: JSON, JSON encoded twice, or a Python repr; else it is text."""
    return parse_with_origin(text)[0]


def parse_with_origin(text: str, checked: bool = True) -> tuple[object, bool, json_exact.Notes | None, bool]:
    """The document; whether it is text itself parsed as JSON (not encoded twice, not a Python repr); then
    the notes on its text; and whether its numbers are as written (without checked, a JSON text's may not
    be yet: see json_exact.parse_unchecked)."""
    stripped = text.lstrip()
    if stripped[:1] == '"':
        try:
            inner = json_exact.parse(text)
        except json_exact.NotJson:
            return TEXT, False, None, True
        document = parse(inner) if isinstance(inner, str) and json_exact.looks_like_json(inner) else TEXT
        return document, False, None, True
    if not json_exact.looks_like_json(text):
        return TEXT, False, None, True
    try:
        document, exact = (json_exact.parse(text), True) if checked else json_exact.parse_unchecked(text)
        return document, True, json_exact.Notes(text), exact
    except json_exact.NotJson:
        pass
    document = pyrepr.parse(text)
    return (TEXT, False, None, True) if document is None else (document, False, None, True)


OBJECTS_ONLY = frozenset({dict})


CONTAINERS = frozenset({dict, list})
