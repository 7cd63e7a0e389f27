"""Output contracts: check an answer's shape before its values (the seeds' output-schema contract).

Two named stages, as the in-loop framework reports them: ``json-parse`` (the
answer is not JSON: prose, markdown around it, trailing text) and
``schema-validate`` (JSON of the wrong shape, with the validator's own
messages and the JSON pointer of each failing node). An answer that fails its
contract is reported as ``contract-unmet`` and is not judged for evidence; the
evidence check judges what the contract let stand.

The schema is validated with ``jsonschema`` (drafts 2020-12 and 07, chosen by
the schema's ``$schema``), imported only when a schema is given. Schema files are read by
grounding.options.schemas: the core does no I/O.
"""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Attempt:
    attempt: int
    outcome: str  # "passed", "retried", "exhausted"
    stage: str | None  # "json-parse", "schema-validate", or None when the contract held
    error: str | None

    def as_json(self) -> dict:
        return {"attempt": self.attempt, "outcome": self.outcome, "stage": self.stage, "error": self.error}


@dataclass(frozen=True, slots=True)
class ContractResult:
    stage: str | None
    error: str | None
    attempts: tuple[Attempt, ...]

    @property
    def met(self) -> bool:
        return self.stage is None

    def as_json(self) -> dict:
        return {"stage": self.stage, "error": self.error, "attempts": [a.as_json() for a in self.attempts]}


@dataclass(frozen=True, slots=True)
class Contract:
    """A JSON Schema, loaded and checked once; ``validator`` is a jsonschema validator instance."""

    source: str
    validator: Any  # (jsonschema is an optional extra, without types of its own)

    def judge(self, answer: str) -> tuple[str | None, str | None]:
        """(stage, error) of the first stage the answer fails, or (None, None)."""
        document, stage, error = parsed(answer)
        return (stage, error) if stage is not None else self.problems(document)

    def problems(self, document: object) -> tuple[str | None, str | None]:
        """("schema-validate", the validator's messages, each with its node's JSON pointer), or (None, None)
        when document matches the schema."""
        errors = sorted(self.validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        if not errors:
            return None, None
        return "schema-validate", "; ".join(f"{json_pointer(error.absolute_path)}: {error.message}" for error in errors)


def parsed(answer: str) -> tuple[object, str | None, str | None]:
    """(document, None, None) for an answer that is a JSON object or array, else (None, "json-parse", why)."""
    body = answer.strip()
    if body[:1] not in ("{", "["):
        shown = body[:40] + ("…" if len(body) > 40 else "")
        return None, "json-parse", f"the answer is not JSON: it begins {shown!r}"
    try:
        return load_json(body), None, None
    except ValueError as error:
        return None, "json-parse", f"not valid JSON: {error}"
    except RecursionError:  # a nesting no answer needs: Python's parser gives up on it
        return None, "json-parse", "not valid JSON: nested too deep to parse"


@dataclass(frozen=True, slots=True)
class Contracts:
    """The contract of every conversation: a default, and per-conversation-id globs (first match wins)."""

    default: Contract | None = None
    by_conversation: tuple[tuple[str, Contract], ...] = ()

    def for_conversation(self, conversation: str | None) -> Contract | None:
        for pattern, contract in self.by_conversation:
            if conversation is not None and fnmatch.fnmatchcase(conversation, pattern):
                return contract
        return self.default

    def __bool__(self) -> bool:
        return self.default is not None or bool(self.by_conversation)


def load_json(text: str) -> object:
    """text parsed as JSON, strictly: NaN and Infinity are no JSON (a ValueError, as any other fault)."""
    return json.loads(text, parse_constant=_no_constant)


def _no_constant(name: str) -> object:
    """NaN and Infinity are no JSON (Python's parser takes them): a NaN passes every bound it is held to."""
    raise ValueError(f"{name} is not a JSON number")


def timed(validator_class: Any, seconds: float) -> Any:
    """validator_class with its ``pattern`` keyword searched under a time limit of seconds (the regex
    module's, as user patterns are): jsonschema's own search has none, and ``^(a+)+$`` on 40 characters
    runs for hours. A search that runs out of time fails the value, with an error that says so: the answer
    is contract-unmet, never grounded."""
    import jsonschema
    import regex

    def pattern(validator: Any, expected: str, instance: object, schema: object) -> Iterator[Any]:
        if not isinstance(instance, str):  # the keyword applies to strings alone
            return
        try:
            found = regex.search(expected, instance, timeout=seconds)
        except TimeoutError:
            yield jsonschema.ValidationError(f"the pattern {expected!r} took longer than {seconds}s "
                                             f"on {instance[:60]!r}: the value is not taken as matching it")
            return
        if found is None:
            yield jsonschema.ValidationError(f"{instance!r} does not match {expected!r}")

    return jsonschema.validators.extend(validator_class, {"pattern": pattern})


def json_pointer(path) -> str:  # noqa: ANN001 (a validator's path: any sequence of keys and indexes)
    """The JSON pointer of a path of keys and indexes (RFC 6901)."""
    parts = [str(part).replace("~", "~0").replace("/", "~1") for part in path]
    return "/" + "/".join(parts) if parts else "/"
