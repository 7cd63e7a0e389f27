"""Output contracts: check an answer's shape before its values (the seeds' output-schema contract).

Two named stages, as the in-loop framework reports them: ``json-parse`` (the
answer is not JSON: prose, markdown around it, trailing text) and
``schema-validate`` (JSON of the wrong shape, with the validator's own
messages and the JSON pointer of each failing node). An answer that fails its
contract is reported as ``contract-unmet`` and is not judged for evidence; the
evidence check judges what the contract let stand.

The schema is validated with ``jsonschema`` (drafts 2020-12 and 07, chosen by
the schema's ``$schema``), imported only when a schema is given.
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass
from pathlib import Path

from grounding.errors import OptionError


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
    validator: object

    def judge(self, answer: str) -> tuple[str | None, str | None]:
        """(stage, error) of the first stage the answer fails, or (None, None)."""
        body = answer.strip()
        if body[:1] not in ("{", "["):
            shown = body[:40] + ("…" if len(body) > 40 else "")
            return "json-parse", f"the answer is not JSON: it begins {shown!r}"
        try:
            document = json.loads(body)
        except ValueError as error:
            return "json-parse", f"not valid JSON: {error}"
        errors = sorted(self.validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        if not errors:
            return None, None
        messages = [f"{_pointer(error.absolute_path)}: {error.message}" for error in errors]
        return "schema-validate", "; ".join(messages)


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


def load_contract(path: str, option: str = "--schema") -> Contract:
    """Read and check a JSON Schema file, or say what is wrong with it (before any input is read)."""
    try:
        schema = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise OptionError(f"{option}: {path}: No such file") from None
    except ValueError as error:
        raise OptionError(f"{option}: {path}: not valid JSON ({error})") from None
    import jsonschema  # only a run with a contract pays for the import

    try:
        cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        cls.check_schema(schema)
    except jsonschema.exceptions.SchemaError as error:
        raise OptionError(f"{option}: {path}: not a valid JSON Schema ({error.message})") from None
    folder = Path(path).resolve().parent
    _check_references(schema, folder, f"{option}: {path}")
    return Contract(path, cls(schema, registry=_local_registry(folder, schema)))


def _check_references(schema: object, folder: Path, where: str) -> None:
    """Refuse, before any input is read, a $ref that would be fetched from the network or read from
    outside the schema's own folder: a schema must not make a run read elsewhere."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            reference = node.get("$ref")
            target = _local_file(reference, folder) if isinstance(reference, str) else None
            if target is False:
                raise OptionError(f"{where}: the reference {reference!r} is not read: only files in the schema's "
                                  f"own folder ({folder}) are; copy what it names there")
            if target is not None and not target.is_file():
                raise OptionError(f"{where}: the reference {reference!r} names no file ({target})")
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _local_file(reference: str, folder: Path) -> Path | None | bool:
    """The file in folder a reference names; None for a reference within the document (#...); False for
    one that is remote or outside folder."""
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(reference)
    if parts.scheme not in ("", "file") or parts.netloc:
        return False
    if not parts.path:
        return None
    target = (folder / unquote(parts.path)).resolve()
    return target if target.is_relative_to(folder) else False


def _local_registry(folder: Path, schema: object) -> object:
    """A registry that reads a referenced schema only from folder, and never from the network; a schema it
    reads without a $schema of its own is of the referring schema's draft."""
    from referencing import Registry, Resource
    from referencing.exceptions import NoSuchResource
    from referencing.jsonschema import DRAFT202012, specification_with

    dialect = schema.get("$schema") if isinstance(schema, dict) else None
    draft = specification_with(dialect, default=DRAFT202012) if isinstance(dialect, str) else DRAFT202012

    def retrieve(uri: str) -> Resource:
        target = _local_file(uri, folder)
        if not isinstance(target, Path):
            raise NoSuchResource(ref=uri)
        return Resource.from_contents(json.loads(target.read_text(encoding="utf-8")), default_specification=draft)

    return Registry(retrieve=retrieve)


def load_contracts(schema: str | None, schema_for: dict[str, str]) -> Contracts:
    by_conversation = tuple((glob, load_contract(path, f"--schema-for {glob}")) for glob, path in schema_for.items())
    return Contracts(load_contract(schema) if schema else None, by_conversation)


def _pointer(path) -> str:
    parts = [str(part).replace("~", "~0").replace("/", "~1") for part in path]
    return "/" + "/".join(parts) if parts else "/"
