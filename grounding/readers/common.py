"""What every reader shares: the record error and small checks on message shapes."""

from __future__ import annotations

import orjson

from grounding.model import Item, Kind, is_framework_correction


class RecordError(ValueError):
    """A record that cannot be read as a conversation; its message says why."""


def user_text(text: str) -> Item:
    """User or system text: exempt, unless a framework wrote it (§2.3)."""
    return Item(Kind.NEITHER if is_framework_correction(text) else Kind.EXEMPT, text)


def arguments_text(arguments: object) -> str | None:
    """A tool call's arguments as text (JSON strings stay as written)."""
    if arguments is None:
        return None
    if isinstance(arguments, str):
        return arguments
    try:
        return orjson.dumps(arguments).decode()
    except TypeError:
        return str(arguments)


def expect_list(value: object, where: str) -> list:
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list, not {type(value).__name__}")
    return value


def expect_dict(value: object, where: str) -> dict:
    if not isinstance(value, dict):
        raise RecordError(f"{where} must be an object, not {type(value).__name__}")
    return value


def record_id(record: object) -> str | None:
    if isinstance(record, dict):
        value = record.get("id")
        if value is not None:
            return str(value)
    return None
