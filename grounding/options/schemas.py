"""JSON Schema files for ``--schema`` / ``--schema-for``: read and checked before any input is read, with
every ``$ref`` kept inside the schema's own folder (the checking itself is grounding.core.contract's)."""

from __future__ import annotations

import json
from pathlib import Path

from grounding.core.contract import Contract, Contracts, timed
from grounding.core.settings import PATTERN_TIMEOUT_SECONDS
from grounding.errors import OptionError


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
    return Contract(path, timed(cls, PATTERN_TIMEOUT_SECONDS)(schema, registry=_local_registry(folder, schema)))


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
