"""The README says what the tool does: its --help excerpt is the real one."""

import re

from conftest import REPO
from typer.testing import CliRunner

from grounding.cli.app import app

_BLOCK = re.compile(r"<!-- help:check -->\n```\n(.*?)```\n<!-- /help -->", re.DOTALL)


def current_help(monkeypatch) -> str:
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("TERMINAL_WIDTH", "100")
    return CliRunner().invoke(app, ["check", "--help"], prog_name="ground").stdout


def test_readme_help_excerpt_is_the_real_help(monkeypatch, update_golden):
    readme = (REPO / "README.md").read_text()
    real = current_help(monkeypatch)
    if update_golden:
        block = f"<!-- help:check -->\n```\n{real}```\n<!-- /help -->"
        readme = re.sub(r"<!-- help:check -->.*?<!-- /help -->", lambda _: block, readme, flags=re.DOTALL)
        (REPO / "README.md").write_text(readme)
    match = _BLOCK.search(readme)
    assert match is not None, "README has no help:check block"
    assert match.group(1) == real


def test_readme_set_up_commands_come_first_and_are_what_ci_runs():
    from tools import readme_setup

    readme = (REPO / "README.md").read_text()
    first_block = readme.split("```sh\n", 1)[1].split("```", 1)[0]
    one, two = readme_setup.commands(readme)
    assert first_block.splitlines() == [one, two]  # the marked block is the first one a reader sees
    assert one.startswith("pip install -e . && ground check fixtures/support_bot.jsonl")  # the core alone
    assert two.startswith("pip install -e '.[test]' -c constraints.txt && python3 -m pytest")
    assert (REPO / "constraints.txt").exists()
    ci = (REPO / ".ci" / "run").read_text()
    assert "python3 -m tools.readme_setup 1" in ci and "python3 -m tools.readme_setup 2" in ci
    assert 'bash -c "$one"' in ci and 'bash -c "$two"' in ci and "-m venv" in ci
    assert "pip install" not in ci.split("\nreadme_commands \"$base_python\"", 1)[0]  # nothing installed but by the README


def test_ci_checks_the_first_command_prints_what_the_readme_shows(tmp_path):
    from tools import readme_setup

    readme = (REPO / "README.md").read_text()
    printed = tmp_path / "one.out"
    printed.write_text("Successfully installed ground-evidence\n" + readme_setup.shown_output(readme))
    assert readme_setup.main(["expect", str(printed)]) == 0
    printed.write_text("Successfully installed ground-evidence\n")
    assert readme_setup.main(["expect", str(printed)]) == 1


def test_every_pinned_constraint_is_one_exact_version():
    lines = [line for line in (REPO / "constraints.txt").read_text().splitlines() if line and not line.startswith("#")]
    assert lines and all(line.count("==") == 1 and " " not in line for line in lines)
    names = [line.split("==")[0].lower().replace("_", "-") for line in lines]
    assert len(names) == len(set(names)) and "ground-evidence" not in names
    for needed in ("pytest", "hypothesis", "pydantic-ai-slim", "langchain", "openai-agents", "s3fs", "gcsfs", "adlfs",
                   "aiohttp", "distributed", "opentelemetry-sdk", "moto"):
        assert needed in names, needed


def test_readme_example_output_is_what_the_first_command_prints(monkeypatch):
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    readme = (REPO / "README.md").read_text()
    shown = readme.split("so it exits 1):\n\n```\n", 1)[1].split("```", 1)[0]
    result = CliRunner().invoke(app, ["check", "fixtures/support_bot.jsonl"], prog_name="ground")
    assert result.exit_code == 1
    assert result.stdout == shown


def test_readme_json_example_is_the_whole_real_document(monkeypatch):
    import json

    monkeypatch.chdir(REPO)
    readme = (REPO / "README.md").read_text()
    section = readme.split("### JSON output", 1)[1]
    shown = section.split("```json\n", 1)[1].split("```", 1)[0]
    result = CliRunner().invoke(app, ["check", "fixtures/support_bot.jsonl", "--format", "json"], prog_name="ground")
    assert json.loads(shown) == json.loads(result.stdout)


def test_readme_agent_examples_are_python_and_the_api_reference_lists_every_public_name():
    import ast

    import grounding

    section = (REPO / "README.md").read_text().split("## In your agent", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    assert len(blocks) == 5
    for block in blocks:
        ast.parse(block)
    reference = section.split("### API reference", 1)[1]
    listed = set(re.findall(r"^\| `([A-Za-z_]+)", reference, re.MULTILINE))
    listed |= set(re.findall(r"`([A-Z][A-Za-z]+)`", reference))
    assert set(grounding.__all__) <= listed, set(grounding.__all__) - listed
