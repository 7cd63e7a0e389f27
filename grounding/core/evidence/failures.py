"""Failed lookups and absences (SPEC §5.4, §9.6): what a result that reports an error or finds nothing lends, and
what it does not."""

from __future__ import annotations

from typing import Any, TypeGuard

import regex

from grounding import json_exact
from grounding.core.evidence import search_keys, verbatim
from grounding.core.evidence.documents import CONTAINERS, TEXT, Inexact, parse
from grounding.core.evidence.forms import Forms, is_iso_date
from grounding.core.text.normalise import normalise, normalise_once

ERROR_WORD = regex.compile(r"\s*error\b", regex.IGNORECASE)


def absence_view(document: object) -> dict | None:
    """The part of an absence (or a ledger around one) that grounds, or None when it is no absence (§5.4)."""
    if not isinstance(document, dict):
        return None
    if _is_absence(document):
        return {key: value for key, value in document.items() if key != "looked_for"}
    result = document.get("result")
    if isinstance(document.get("af_coverage"), dict) and _is_absence(result):
        view = dict(document)
        view["result"] = {key: value for key, value in result.items() if key != "looked_for"}
        return view
    return None


def _is_absence(node: object) -> TypeGuard[dict]:
    return (
        isinstance(node, dict)
        and node.get("af_absent") is True
        and isinstance(node.get("checked"), list)
        and len(node["checked"]) > 0
    )


def reports_error(document: object, exact: bool = True) -> bool:
    """A JSON object whose top-level ``error``/``errors`` key holds something (§9.6)."""
    if not isinstance(document, dict):
        return False
    for key, value in document.items():
        if key.lower() in ("error", "errors"):
            if not exact and type(value) is float:
                raise Inexact  # a literal too small for a float reads as 0.0
            if not _is_empty_value(value):
                return True
    return False


def _is_empty_value(value: object) -> bool:
    if value is None or value is False or value == "" or value == [] or value == {}:
        return True
    return json_exact.is_number(value) and value == 0


def says_nothing(document: object, arguments: Forms) -> bool:
    """True when no scalar of the document says anything beyond the call's arguments (§9.6)."""
    spelled = set(arguments.every_form())
    for node in json_exact.leaves(document):
        if node is True:
            return False
        elif isinstance(node, str):
            value = normalise(node)
            if value and value not in spelled:
                return False
        elif json_exact.is_number(node) and node != 0:
            if json_exact.number_spelling(node) not in spelled:
                return False
    return True


def says_more_than(document: object, arguments: str, exact: bool = True) -> bool:
    """True when a scalar of the document is surely not spelled by the call's arguments, seen without
    reading them: its key is not in their search text (see search_keys.search_text). Scalars a time of day
    or a prose date may spell are left to the full test; False says nothing.

    The top level is looked at first, in a plain loop (this runs once per result): a result says more than
    its call at one of its first scalars, and reaching a nested one first copies every container on the way.
    """
    if "\\" in arguments or verbatim.has_exponent(arguments):
        return False  # escaped strings, or numbers spelled with digits the text does not show
    searched = search_keys.search_text(arguments)
    kind = type(document)
    if kind is not dict and kind is not list:
        return _surely_unspelled(document, searched, exact)
    container: Any = document  # (a dict or a list, told by its type)
    nested = []
    for node in container.values() if kind is dict else container:
        if type(node) in CONTAINERS:
            nested.append(node)
        elif _surely_unspelled(node, searched, exact):
            return True
    return any(_surely_unspelled(node, searched, exact) for container in nested for node in json_exact.leaves(container))


def _surely_unspelled(node: object, searched: str, exact: bool = True) -> bool:
    """True when a scalar's key is not in the search text of a call's arguments (see says_more_than)."""
    if node is True:
        return True
    if type(node) is float and not exact:
        raise Inexact  # its spelling may not be the one written
    if type(node) is str:
        value = normalise_once(node)  # a leaf's value is mostly read nowhere else: normalise's memo would miss
        return bool(value) and ":" not in value and not is_iso_date(value) and search_keys.key(value) not in searched
    if json_exact.is_number(node) and node != 0:
        return search_keys.key(json_exact.number_spelling(node)) not in searched
    return False


def result_failed(text: str, *, is_error: bool = False, document: object = None) -> bool:
    """True when a tool result reports failure by itself: the transport's flag, an error key or word, an absence."""
    if is_error:
        return True
    if not isinstance(document, (dict, list)):
        document = parse(text)
    if document is TEXT:
        return not text.strip() or ERROR_WORD.match(text) is not None
    return absence_view(document) is not None or reports_error(document)
