"""The logs of tools ground does not read yet, told by their keys, so a refusal says what the file is and
what to do: a Gemini CLI session file, an OpenHands trajectory, an Inspect AI log's header alone."""

from __future__ import annotations

# the keys an OpenHands event has beside its id and source: what it did, or what it saw
_OPENHANDS_EVENT = ("action", "observation")


def named(record: object) -> str | None:
    """What record is, when it is a known tool's log that no reader takes yet; None otherwise.

    >>> named({"version": 2, "status": "success", "eval": {}, "plan": {}, "results": {}})[:38]
    'an Inspect AI evaluation log without i'
    >>> named([{"id": 0, "source": "user", "action": "message", "args": {}}])[:25]
    'an OpenHands trajectory ('
    >>> named({"messages": []}) is None
    True
    """
    if isinstance(record, dict):
        keys = set(record)
        if "eval" in keys and {"plan", "results"} <= keys and not isinstance(record.get("samples"), list):
            return ("an Inspect AI evaluation log without its samples (a header), which holds no conversation: "
                    "check the log the evaluation wrote (.eval, or .json with its samples)")
        if {"sessionId", "projectHash"} <= keys:
            return ("a Gemini CLI session file, which ground does not read yet (--input-format gemini is the "
                    f"generateContent API's format, not this one): {_export()}")
    if isinstance(record, list) and record and isinstance(record[0], dict):
        events = [item for item in record[:20] if isinstance(item, dict)]
        if any("source" in event and any(key in event for key in _OPENHANDS_EVENT) for event in events):
            return f"an OpenHands trajectory (a list of events), which ground does not read yet: {_export()}"
    return None


def _export(what: str = "its conversations") -> str:
    return f'export {what} as JSON Lines, one {{"messages": [...]}} (OpenAI Chat Completions) per line, and check that'
