"""Why no reader took a record, said so a user can act on it: what the record looks like (a JSON object and
its keys, a list of N objects and theirs, text), the known formats nearest to it by the keys they use, and
where every format is shown (issue 50)."""

from __future__ import annotations

# The keys each format's records (or their messages) are written with: a record sharing the most of them
# names the formats it is nearest to
_KEYS = {
    "openai": {"messages", "role", "content", "tool_calls", "tool_call_id", "name"},
    "anthropic": {"messages", "system", "role", "content", "tool_use_id", "stop_reason"},
    "gemini": {"contents", "parts", "role", "functionCall", "functionResponse", "system_instruction"},
    "openai-responses": {"input", "instructions", "output", "call_id", "arguments", "type"},
    "langchain": {"type", "data", "lc", "kwargs", "content"},
    "pydantic-ai": {"kind", "parts", "part_kind", "tool_name", "tool_call_id"},
    "llamaindex": {"role", "blocks", "additional_kwargs", "block_type"},
    "haystack": {"role", "content", "meta", "name", "tool_call_result"},
    "bedrock-converse": {"messages", "role", "content", "toolUse", "toolResult"},
    "claude-code": {"type", "sessionId", "message", "uuid", "parentUuid"},
    "codex-cli": {"timestamp", "type", "payload"},
    "otel-genai": {"resourceSpans", "scopeSpans", "spans", "attributes", "traceId", "spanId"},
    "langsmith": {"run_type", "dotted_order", "trace_id", "inputs", "outputs"},
    "langfuse": {"traceId", "type", "input", "output", "startTime"},
    "mlflow": {"info", "data", "spans"},
    "inspect-ai": {"eval", "samples", "plan", "results", "messages", "epoch"},
    "openhands": {"source", "action", "observation", "args", "cause"},
}
_FORMATS_PAGE = "Every format and its shape: `ground formats`, and docs/formats.md"


def reason(record: object, descriptions: dict[str, str]) -> str:
    """Why record is no conversation: what it looks like, and the formats nearest to it (descriptions: each
    format's one line)."""
    nearest = [name for name in _nearest(_keys_of(record)) if name in descriptions]
    near = ("the formats nearest by its keys: " + "; ".join(f"{name} ({descriptions[name]})" for name in nearest)
            if nearest else
            'expected {"messages": [...]} (OpenAI Chat Completions or Anthropic Messages) or a bare messages array')
    return f"not a conversation in a known format ({_looks_like(record)}); {near}. {_FORMATS_PAGE}"


def _looks_like(record: object) -> str:
    if isinstance(record, dict):
        return f"keys seen: {_listed(record)}" if record else "an empty JSON object"
    if isinstance(record, list):
        if not record:
            return "an empty JSON list"
        objects = [item for item in record if isinstance(item, dict)]
        if len(objects) == len(record):
            keys = dict.fromkeys(key for item in objects[:20] for key in item)
            return f"a JSON list of {_counted(len(record), 'object')}, keys seen: {_listed(keys)}"
        kinds = sorted({_kind(item) for item in record})
        return f"a JSON list of {_counted(len(record), 'value')} ({', '.join(kinds)})"
    return f"a JSON {_kind(record)}, not an object or a list"


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _kind(value: object) -> str:
    return {dict: "object", list: "list", str: "string", bool: "boolean", type(None): "null"}.get(
        type(value), "number")


def _listed(keys: dict) -> str:
    shown = [repr(key) for key in list(keys)[:8]]
    return ", ".join(shown) + (f" and {len(keys) - 8} more" if len(keys) > 8 else "")


def _keys_of(record: object) -> set[str]:
    """The keys of record, of the objects in it one level down (a list's items, a list value's items)."""
    found: set[str] = set()
    items = record if isinstance(record, list) else [record]
    for item in items[:20]:
        if not isinstance(item, dict):
            continue
        found |= {key for key in item if isinstance(key, str)}
        for value in list(item.values())[:20]:
            inner = value if isinstance(value, list) else [value]
            for element in inner[:5]:
                if isinstance(element, dict):
                    found |= {key for key in element if isinstance(key, str)}
    return found


def _nearest(keys: set[str]) -> list[str]:
    """The formats (two at most) sharing two or more keys with keys, the most first; none when none does."""
    shared = sorted(((len(keys & wanted), name) for name, wanted in _KEYS.items()), key=lambda pair: -pair[0])
    return [name for count, name in shared[:2] if count >= 2]
