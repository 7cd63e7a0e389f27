"""Configuration: ``[tool.ground]`` in ``pyproject.toml`` or a ``ground.toml`` (which wins), and the CLI.

Found from the current directory upwards, or named with ``--config``. Every
command-line option has a key; the command line overrides the file, the file
overrides the defaults. Unknown keys and bad values are errors naming the
file, the key and a "did you mean".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from difflib import get_close_matches
from pathlib import Path
from typing import Any, Protocol

import regex as re

from grounding.core.settings import Settings, build_settings
from grounding.core.text.standards import standard_names
from grounding.errors import GroundingError
from grounding.options.rules import selection
from grounding.options.table import KEYS, OPTIONS


class Keyed(Protocol):
    """Option values by configuration key: the resolved options, a Mapping, or grounding.Options."""

    def __getitem__(self, key: str) -> Any: ...  # noqa: ANN401


class ConfigError(GroundingError):
    """A configuration file that cannot be used."""


@dataclass
class Resolved:
    """Every key's value and where it came from ("default", a file path, or "command line")."""

    values: dict[str, object] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)

    def __getitem__(self, key: str) -> object:
        return self.values[key]


def find_config(start: Path) -> Path | None:
    """The nearest ground.toml, or pyproject.toml holding [tool.ground], from start upwards."""
    for folder in [start, *start.parents]:
        candidate = folder / "ground.toml"
        if candidate.is_file():
            return candidate
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and "ground" in _read(pyproject).get("tool", {}):
            return pyproject
    return None


def resolve(command_line: dict[str, object], config_file: Path | None = None, start: Path | None = None) -> Resolved:
    """Defaults, then the configuration file, then what the command line gave (None = not given)."""
    resolved = Resolved({key: spec.default for key, spec in KEYS.items()}, {key: "default" for key in KEYS})
    path = config_file if config_file is not None else find_config(start or Path.cwd())
    if config_file is not None and not config_file.is_file():
        raise ConfigError(f"--config: {config_file}: No such file")
    if path is not None:
        table = _table(path)
        for key, value in table.items():
            resolved.values[key] = _checked(path, key, value)
            resolved.origins[key] = str(path)
    for key, value in command_line.items():
        if value is not None and value != [] and key in KEYS:
            resolved.values[key] = _checked_option(key, value)
            resolved.origins[key] = "command line"
    return resolved


def _read(path: Path) -> dict:
    import tomllib  # only a run with a configuration file reads TOML (~1 ms of start-up)

    try:
        with path.open("rb") as stream:
            return tomllib.load(stream)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML ({error})") from None
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8 at byte {error.start}; TOML files are UTF-8") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read ({error.strerror})") from None


def _table(path: Path) -> dict:
    document = _read(path)
    if path.name == "pyproject.toml":
        table = document.get("tool", {}).get("ground", {})
        where = "[tool.ground]"
    else:
        table = document.get("tool", {}).get("ground", document)
        where = "ground.toml"
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: {where} must be a table")
    for key in table:
        if key not in KEYS:
            close = get_close_matches(key.replace("_", "-"), list(KEYS), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; known keys: {', '.join(KEYS)}"
            raise ConfigError(f"{path}: unknown key {key!r} in {where}{hint}")
    return table


def _checked(path: Path, key: str, value: object) -> object:
    problem = value_problem(key, value)
    if problem:
        raise ConfigError(f"{path}: key {key!r} {problem}, not {value!r}")
    if key in ("shapes", "exempt-regex"):
        patterns = value.values() if isinstance(value, dict) else value
        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error as error:
                raise ConfigError(f"{path}: key {key!r}: {pattern!r} is not a valid regular expression ({error})") from None
    return value


def value_problem(key: str, value: object) -> str | None:
    """What is wrong with a value for key, as the end of a sentence ("must be …"), or None."""
    spec = KEYS[key]
    problem = None
    if spec.kind == "bool" and not isinstance(value, bool):
        problem = "must be true or false"
    elif spec.kind == "int" and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        problem = "must be a whole number of 1 or more"
    elif spec.kind == "int" and spec.maximum is not None and value > spec.maximum:
        problem = f"must be a whole number of at most {spec.maximum}"
    elif spec.kind == "jobs" and value != "auto" and (not isinstance(value, int) or isinstance(value, bool)
                                                     or value < 0):
        problem = "must be auto or a whole number of 0 (one per usable core) or more"
    elif spec.kind == "seconds" and (not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0):
        problem = "must be a number of seconds above 0"
    elif spec.kind == "str" and not isinstance(value, str):
        problem = "must be a string"
    elif spec.kind == "list" and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        problem = "must be a list of strings"
    elif spec.kind == "table" and not (isinstance(value, dict) and all(isinstance(v, str) for v in value.values())):
        problem = "must be a table of NAME = \"REGEX\""
    elif spec.kind == "paths" and not (isinstance(value, dict) and all(isinstance(v, str) for v in value.values())):
        problem = "must be a table of \"CONVERSATION_GLOB\" = \"SCHEMA_FILE\""
    elif spec.kind == "storage" and not (isinstance(value, dict) and all(
            isinstance(v, (str, bool, int, float)) for v in value.values())):
        problem = "must be a table of KEY = value (a string, true or false, or a number)"
    elif spec.kind == "choice" and value not in spec.choices:
        close = get_close_matches(str(value), spec.choices, n=1)
        problem = f"must be one of {', '.join(spec.choices)}" + (f" (did you mean {close[0]!r}?)" if close else "")
    return problem


def describe(resolved: Resolved) -> list[str]:
    """``ground config``: each key as TOML (what a ground.toml would say), and where its value came from.
    A key with no value is a comment: TOML has no null.

    >>> describe(Resolved({"min-digits": 4, "input-format": None}, {"min-digits": "default", "input-format": "default"}))
    ['min-digits   = 4  # default', '# input-format is not set (default)']
    """
    width = max(map(len, resolved.values))
    lines = []
    for key, value in resolved.values.items():
        origin = resolved.origins[key]
        if value is None:
            lines.append(f"# {key} is not set ({origin})")  # one comment: TOML has no null
        else:
            lines.append(f"{key:<{width}} = {toml_value(value)}  # {origin}")
    return lines


def toml_value(value: object) -> str:
    """A value as TOML writes it.

    >>> toml_value(True), toml_value(["a", "b"]), toml_value({"order": "ord-[0-9]+", "my shape": "x"})
    ('true', '["a", "b"]', '{order = "ord-[0-9]+", "my shape" = "x"}')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{_toml_key(key)} = {toml_value(item)}" for key, item in value.items())
        return "{" + ", ".join(pairs) + "}"
    raise TypeError(f"no TOML spelling for {value!r}")


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key, ensure_ascii=False)


# Numbers and choices the command line gives, held to the configuration's bounds (typer checks only the type).
_COMMAND_LINE_NUMBERS = {option.key: option.flags[0] for option in OPTIONS
                         if option.in_config and option.kind in ("int", "jobs", "seconds", "choice")}


def _checked_option(key: str, value: object) -> object:
    if KEYS[key].kind == "jobs" and isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value.strip()):
        value = int(value)  # the command line gives text: "auto" or a number
    problem = value_problem(key, value) if key in _COMMAND_LINE_NUMBERS else None
    if problem:
        raise ConfigError(f"{_COMMAND_LINE_NUMBERS[key]}: {problem}, not {value!r}")
    return value


def settings_from(options: Keyed) -> Settings:
    """Settings from option values by configuration key: the resolved options (command line over
    configuration over defaults), or a library caller's grounding.Options."""
    settings = build_settings(
        [f"{name}={regex}" for name, regex in options["shapes"].items()],
        options["exempt"],
        options["exempt-regex"],
        options["min-digits"],
        derived=options["derived"],
        fail_on_derived=options["fail-on-derived"],
        fail_on_example=options["fail-on-example"],
        exit_zero=options["exit-zero"],
    )
    contracts = None
    if options["schema"] or options["schema-for"]:
        from grounding.options.schemas import load_contracts  # a run without a schema never needs it

        contracts = load_contracts(options["schema"], options["schema-for"])
    return replace(settings, contracts=contracts, contract_warn_only=bool(options["contract-warn-only"]),
                   fail_on_unjudgeable=bool(options["fail-on-unjudgeable"]), allow_empty=bool(options["allow-empty"]),
                   fail_on_unchecked=bool(options["fail-on-unchecked"]),
                   rules=selection(options["select"], options["ignore"]),
                   required_tools=tuple(options["require-tool"]), code_tool=options["code-needs-execution"],
                   standard_names=standard_names(options["standard-names"], options["extend-standard-names"]),
                   code_blocks=options["code-blocks"], figures=bool(options["figures"]),
                   count_min_digits=options["count-min-digits"])
