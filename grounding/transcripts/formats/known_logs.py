"""Known tools' logs that hold no conversation ground can read, told by their keys, so a refusal says what
the file is and what to do: an Inspect AI log's header alone (its samples are the conversations), an
OpenHands trajectory with an element that is no event."""

from __future__ import annotations

# the keys an OpenHands event has beside its id and source: what it did, or what it saw
_OPENHANDS_EVENT = ("action", "observation")


def named(record: object) -> str | None:
    """What record is, when it is a known tool's log that no reader takes; None otherwise.

    >>> named({"version": 2, "status": "success", "eval": {}, "plan": {}, "results": {}})[:38]
    'an Inspect AI evaluation log without i'
    >>> named([{"id": 0, "source": "user", "action": "message", "args": {}}, {"id": 1}])[:65]
    "an OpenHands trajectory whose element [1] is no event (keys 'id')"
    >>> named({"messages": []}) is None
    True
    """
    if isinstance(record, dict):
        keys = set(record)
        if "eval" in keys and {"plan", "results"} <= keys and not isinstance(record.get("samples"), list):
            return ("an Inspect AI evaluation log without its samples (a header), which holds no conversation: "
                    "check the log the evaluation wrote (.eval, or .json with its samples)")
    if isinstance(record, list) and record and isinstance(record[0], dict):
        events = [item for item in record[:20] if isinstance(item, dict)]
        if any("source" in event and any(key in event for key in _OPENHANDS_EVENT) for event in events):
            at, odd = next((at, item) for at, item in enumerate(record) if not _is_event(item))
            seen = f"keys {', '.join(map(repr, list(odd)[:6]))}" if isinstance(odd, dict) else type(odd).__name__
            return (f"an OpenHands trajectory whose element [{at}] is no event ({seen}): each needs a source and "
                    "an action or an observation")
    return None


def _is_event(item: object) -> bool:
    return isinstance(item, dict) and "source" in item and any(key in item for key in _OPENHANDS_EVENT)
