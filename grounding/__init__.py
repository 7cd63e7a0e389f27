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

In the loop, ``check_answer(history, answer)`` judges a candidate answer before it ships, and
``Gate(posture)`` decides what happens to it (assist, guard or rails); a ``Session`` keeps one
conversation's evidence between decisions, so a long chat's turn costs what its own messages cost;
``grounding.pydantic_ai``,
``grounding.langchain`` and ``grounding.openai_agents`` plug the gate into those frameworks. ``run(paths)``
does what ``ground check`` does over files. Options are ``Options(...)``, the command line's options as
Python values.

Importing this package loads neither the CLI's libraries (typer, rich) nor the readers and the core: each
is loaded on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING

from grounding.errors import (
    EmptyAnswerError,
    GroundingError,
    InputError,
    OptionError,
    PatternTimeout,
    RecordError,
    UnsupportedValuesError,
)
from grounding.frames import EVIDENCE_CHECK_FRAME_PREFIX
from grounding.model import Conversation, Finding, Item, JudgedAnswer, Kind, Problem, Status, Summary, Verdict

if _TYPE_CHECKING:
    import os
    from collections.abc import Iterable

    from grounding.gate import Decision, Gate
    from grounding.library import Options, RunResult, acheck_answer, check, check_answer
    from grounding.contract import Contract, ContractDecision, OutputAttempt, OutputSchemaError
    from grounding.fixing import fix
    from grounding.session import Session, stream
    from grounding.streaming import Release, Stream, areleased, released
    from grounding.run.parallel import Engine

__version__ = "0.1.0"

__all__ = [
    "EVIDENCE_CHECK_FRAME_PREFIX",
    "Contract",
    "ContractDecision",
    "Conversation",
    "Decision",
    "EmptyAnswerError",
    "Finding",
    "Gate",
    "GroundingError",
    "InputError",
    "Item",
    "JudgedAnswer",
    "Kind",
    "OptionError",
    "OutputAttempt",
    "OutputSchemaError",
    "Options",
    "PatternTimeout",
    "Problem",
    "RecordError",
    "Release",
    "RunResult",
    "Status",
    "Session",
    "Stream",
    "Summary",
    "UnsupportedValuesError",
    "Verdict",
    "__version__",
    "acheck_answer",
    "areleased",
    "check",
    "check_answer",
    "fix",
    "released",
    "run",
    "stream",
]

# Where each name loaded on first use lives.
_LAZY = {"Options": "grounding.library", "RunResult": "grounding.library", "check": "grounding.library",
         "check_answer": "grounding.library", "acheck_answer": "grounding.library", "Gate": "grounding.gate",
         "Decision": "grounding.gate", "Session": "grounding.session", "fix": "grounding.fixing",
         "Contract": "grounding.contract", "ContractDecision": "grounding.contract",
         "OutputAttempt": "grounding.contract", "OutputSchemaError": "grounding.contract",
         "Stream": "grounding.streaming", "Release": "grounding.streaming", "stream": "grounding.session",
         "released": "grounding.streaming", "areleased": "grounding.streaming"}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'grounding' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


# The subpackage grounding.run is loaded first, so that the function below keeps the name `run` (a
# subpackage loaded later would set it on this module).
importlib.import_module("grounding.run")


def run(paths: str | os.PathLike | Iterable[str | os.PathLike], options: Options | None = None, *,
        jobs: int | str | None = None, engine: Engine | None = None) -> RunResult:
    """Judge every answer in the given files and folders exactly as ``ground check PATH…`` does (its
    baseline, rule selection and exit status included), collecting the answers instead of reporting them:
    a RunResult with ``answers``, ``problems``, ``summary`` and ``exit_code``. engine runs the workers
    elsewhere (grounding.dask.DaskEngine); by default ``options.engine`` decides."""
    from grounding.library import run as run_files

    return run_files(paths, options, jobs=jobs, engine=engine)
