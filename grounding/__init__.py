"""ground: check that the values in an agent's final answers were read, not invented.

Every number, identifier and name in an assistant's final answer must appear in a tool result the
conversation had already read. ``check`` judges one record (in any transcript format ``ground formats``
lists) or one Conversation, and returns each final answer with its verdict:

>>> import grounding
>>> record = {"messages": [
...     {"role": "user", "content": "Where is order 4417?"},
...     {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
...      "function": {"name": "lookup_order", "arguments": "{\\"id\\": \\"4417\\"}"}}]},
...     {"role": "tool", "tool_call_id": "c1", "content": "{\\"id\\": 4417, \\"tracking\\": \\"1Z999AA10123456784\\"}"},
...     {"role": "assistant", "content": "Order 4417 ships with tracking 1Z999AA10123456784, arriving 2024-06-03."},
... ]}
>>> [answer] = grounding.check(record)
>>> answer.verdict.status.value, [finding.value for finding in answer.verdict.unsupported]
('flagged', ['2024-06-03'])

The command line (``ground check``) reads files and streams; this face judges what a program already holds.
Importing it loads neither the CLI's libraries nor the readers and the core until ``check`` is called.
"""

from __future__ import annotations

from grounding.errors import GroundingError, InputError, OptionError, PatternTimeout, RecordError
from grounding.model import Conversation, Finding, Item, JudgedAnswer, Kind, Status, Summary, Verdict

__version__ = "0.1.0"

__all__ = [
    "Conversation",
    "Finding",
    "GroundingError",
    "InputError",
    "Item",
    "JudgedAnswer",
    "Kind",
    "OptionError",
    "PatternTimeout",
    "RecordError",
    "Status",
    "Summary",
    "Verdict",
    "__version__",
    "check",
]


def check(record: object, settings: object = None, *, input_format: str | None = None,
          source: str = "<record>") -> list[JudgedAnswer]:
    """Judge every final answer of one record against the tool results read before it.

    record is a parsed record (a dict or list, as ``json.loads`` gives; parse with
    ``parse_float=decimal.Decimal`` to keep every digit of a long number), its JSON text (``str`` or
    ``bytes``, parsed exactly), or a Conversation. settings is a ``grounding.core.settings.Settings``
    (None: the defaults); input_format forces a format instead of detecting it. A record that cannot be
    read raises RecordError, naming why.
    """
    from grounding.core.engine import check_conversation
    from grounding.core.settings import Settings
    from grounding.transcripts.formats import read_record
    from grounding.transcripts.records import loads

    if isinstance(record, (str, bytes)):
        try:
            record = loads(record.encode() if isinstance(record, str) else record)
        except ValueError as error:
            raise RecordError(f"{source}: not JSON ({error})") from None
    if not isinstance(record, Conversation):
        record = read_record(record, source, 1, input_format)
    return list(check_conversation(record, settings if settings is not None else Settings()))
