"""The command line's side of the option table: ``check``'s typer signature, one parameter per option, and
what the flags gave, by configuration key (``--shape NAME=REGEX`` becomes the ``shapes`` table,
``--no-derived`` sets ``derived = false``, a path becomes its text)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Annotated, Optional

from grounding.core.settings import shape_table
from grounding.errors import GroundingError
from grounding.options.table import OPTIONS


def _globs(specs: list[str]) -> dict[str, str]:
    """--schema-for GLOB=FILE options as the configuration's table."""
    table = {}
    for spec in specs:
        glob, sep, path = spec.partition("=")
        if not sep or not glob or not path:
            raise GroundingError(f"--schema-for: {spec!r} needs the form GLOB=FILE, for example 'billing-*=billing.json'")
        table[glob] = path
    return table


def storage_table(specs: list[str]) -> dict[str, object]:
    """--storage-option KEY=VALUE options as the configuration's table: true, false and numbers as such.

    >>> storage_table(["endpoint_url=http://127.0.0.1:9000", "anon=true", "default_block_size=1048576"])
    {'endpoint_url': 'http://127.0.0.1:9000', 'anon': True, 'default_block_size': 1048576}
    """
    table: dict[str, object] = {}
    for spec in specs:
        key, sep, value = spec.partition("=")
        if not sep or not key.strip():
            raise GroundingError(f"--storage-option: {spec!r} needs the form KEY=VALUE, for example 'anon=true'")
        table[key.strip()] = _scalar(value)
    return table


def _scalar(text: str) -> object:
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


# How a flag's value, when given, becomes its key's value (None and [] mean "not given" throughout).
_GIVEN: dict[str, Callable[[object], object]] = {
    "value": lambda value: value,
    "text": str,
    "choice": lambda value: value.value,
    "negated": lambda value: False if value else None,
    "shapes": lambda specs: shape_table(specs) if specs else None,
    "globs": lambda specs: _globs(specs) if specs else None,
    "storage": lambda specs: storage_table(specs) if specs else None,
}

def command_line(values: dict[str, object]) -> dict[str, object]:
    """What the command line gave, by configuration key (None: not given; the configuration or the default
    decides)."""
    given = {}
    for option in OPTIONS:
        value = values[option.name]
        if option.in_config:
            given[option.key] = None if value is None or value == [] else _GIVEN[option.given](value)
    return given


def with_options(command: Callable[..., None], leading: list[inspect.Parameter]) -> Callable[..., None]:
    """command, its signature made of the leading parameters and one per option, as typer reads it."""
    import typer  # the table itself is read without the CLI's libraries
    parameters = list(leading)
    for option in OPTIONS:
        # a configuration key is None until given (the configuration or the default decides)
        optional = option.in_config or option.default is None
        typed = Optional[option.typed] if optional else option.typed  # noqa: UP045 (typer reads Optional)
        flag = typer.Option(*option.flags, metavar=option.metavar, help=option.help, hidden=option.hidden)
        parameters.append(inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY,
                                            default=None if optional else option.default,
                                            annotation=Annotated[typed, flag]))
    command.__signature__ = inspect.Signature(parameters, return_annotation=None)
    command.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
    return command


# `ground check --help` in sections, as ruff's, by the options' parameter names; every option of the table
# is in one (tests/edges/test_cli.py)
HELP_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Output", ("output_format", "output", "output_dir", "statistics", "explain", "quiet", "verbose", "no_progress")),
    ("Readings", ("shape", "exempt", "exempt_regex", "min_digits", "count_min_digits", "figures", "no_derived",
                  "standard_names", "extend_standard_names", "code_blocks")),
    ("Rules and exit status", ("select", "ignore", "strict", "fail_on_derived", "fail_on_example",
                               "fail_on_unjudgeable", "fail_on_unchecked", "exit_zero", "allow_empty",
                               "require_tool", "code_needs_execution")),
    ("Output contracts", ("schema", "schema_for", "contract_warn_only")),
    ("Input", ("input_format", "exclude", "extend_exclude", "stdin_filename", "max_record_bytes",
               "storage_option", "config")),
    ("Baseline", ("baseline", "write_baseline", "stale_baseline_fails")),
    ("Performance", ("jobs", "flush_after", "engine", "scheduler", "workers")),
)
