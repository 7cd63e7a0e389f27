"""The one option table (grounding.options.table): the command line, the configuration and `ground config`
are all read from it, so a flag and its key cannot drift apart."""

from __future__ import annotations

import re

import click
import typer.main
from typer.testing import CliRunner

from grounding.cli.app import app
from grounding.cli.flags import command_line
from grounding.options.config import resolve
from grounding.options.table import KEYS, OPTIONS


def _check_command() -> click.Command:
    return typer.main.get_command(app).commands["check"]


def test_the_check_command_has_one_flag_per_option_and_no_other():
    params = {param.name: param for param in _check_command().params}
    assert set(params) == {"inputs"} | {option.name for option in OPTIONS}
    for option in OPTIONS:
        param = params[option.name]
        assert tuple(param.opts + param.secondary_opts) == option.flags, option.name
        assert param.help == option.help and param.hidden == option.hidden


def test_help_lists_every_visible_flag_by_its_section():
    from grounding.cli.flags import HELP_SECTIONS

    shown = CliRunner().invoke(app, ["check", "--help"], env={"COLUMNS": "200"}).output
    listed = [flag for flag in re.findall(r"^\s+(?:-\w, )?(--[a-z-]+)", shown, re.M) if flag != "--help"]
    by_name = {option.name: option for option in OPTIONS if not option.hidden}
    assert listed == [next(flag for flag in by_name[name].flags if flag.startswith("--"))
                      for _, names in HELP_SECTIONS for name in names if name in by_name]


def test_every_configuration_key_is_an_option_and_resolves_to_its_default(tmp_path):
    resolved = resolve({}, start=tmp_path)
    assert list(resolved.values) == list(KEYS)
    assert all(resolved[key] == option.default for key, option in KEYS.items())


def test_flags_become_the_configuration_s_values():
    flags = {option.name: None for option in OPTIONS} | {
        "no_derived": True, "shape": ["order=ord-[0-9]+"], "schema_for": ["billing-*=b.json"], "exempt": [],
        "write_baseline": False,
    }
    given = command_line(flags)
    assert given["derived"] is False and given["progress"] is None
    assert given["shapes"] == {"order": "ord-[0-9]+"} and given["schema-for"] == {"billing-*": "b.json"}
    assert given["exempt"] is None  # an empty list is not given: the configuration's value stands
    assert "write-baseline" not in given and "" not in given
