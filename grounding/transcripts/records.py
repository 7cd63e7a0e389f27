"""One record's bytes parsed exactly (SPEC §5.1): orjson first, then again with every number as written where one
may have been rounded; a line that is no JSON described with where it breaks."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import orjson

from grounding import json_exact
from grounding.model import Record

# orjson reads an integer past 64 bits as a float, silently: records with a long number literal are read
# exactly (the same test as for a tool result's text, see json_exact.has_long_literal).
_SURROGATE_ESCAPE = r"\\u[dD][89a-fA-F]"


_LONE_SURROGATE = (r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
                   r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}")


def loads(raw: bytes) -> object:
    """Parse one record exactly (see loads_exactly); a worker process reads a deferred line with it."""
    return loads_exactly(raw)


def exact_value(record: Record) -> object:
    """A record's value with every number as written, as every reader is given it: parsed again exactly when
    orjson may have rounded one (see _checked)."""
    if not record.exact:
        record.value = _checked(record.raw, record.value)
        record.exact = True
    return record.value


def loads_exactly(raw: bytes) -> object:
    value, exact = loads_unchecked(raw)
    return value if exact else _checked(raw, value)


def loads_unchecked(raw: bytes) -> tuple[object, bool]:
    """The record as orjson reads it, not yet checked for literals a float would not keep; and whether it is
    exact already (orjson could not read it: the standard parser did)."""
    try:
        return orjson.loads(raw), False
    except orjson.JSONDecodeError:
        return _parsed_exactly(raw), True  # NaN, deep nesting: the standard parser decides


def _checked(raw: bytes, value: object) -> object:
    """orjson's value of raw, or raw parsed exactly when it may hold a literal a float would not keep.

    Such a literal comes back from orjson as a float (long integers too), so a record holding no float is
    exact; only one that does is searched for long literals (a pass over every byte).
    """
    if not _may_hold_a_float(value) or not json_exact.has_long_literal(raw):
        return value
    return _parsed_exactly(raw)


def _parsed_exactly(raw: bytes) -> object:
    text = raw.decode("utf-8")  # a UnicodeDecodeError is reported with its byte offset
    if re.search(_SURROGATE_ESCAPE, text):  # (re keeps the compiled pattern: none is compiled at import)
        text = re.sub(_LONE_SURROGATE, r"\\ufffd", text)  # a lone surrogate cannot be written back out as UTF-8
    try:
        return json.loads(text, parse_float=Decimal)
    except RecursionError:
        raise ValueError("JSON nested too deeply to read") from None


def _may_hold_a_float(value: object, budget: int = 256) -> bool:
    """True when a parsed record holds a float, or too many scalars to look at cheaply (then say it may)."""
    for count, leaf in enumerate(json_exact.leaves(value)):
        if count >= budget or type(leaf) is float:
            return True
    return False


def described(error: ValueError, raw: bytes, start: int = 0) -> str:
    if isinstance(error, UnicodeDecodeError):
        return f"invalid UTF-8 at byte {start + error.start} of the file (column {error.start + 1} of the line)"
    message = str(error)
    if isinstance(error, json.JSONDecodeError):
        message = f"invalid JSON: {error.msg.removesuffix(' at')} at column {error.colno}"
        if error.pos >= len(raw.rstrip()):
            message += " (the record ends early: truncated?)"
    elif not message.startswith(("invalid", "JSON")):
        message = f"invalid JSON: {message}"
    return message
