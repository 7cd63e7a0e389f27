"""What a newcomer hit once installed (issue 39), each held the way ruff or pytest behaves."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from conftest import REPO, this_python_at
from typer.testing import CliRunner

from grounding.cli.app import app

SUPPORT = str(REPO / "fixtures" / "support_bot.jsonl")


def invoke(*args: str, stdin: str | None = None):
    return CliRunner().invoke(app, list(args), input=stdin, prog_name="ground")


# 1. the packaging tests' stand-in for an installed venv works inside a venv ------------------------------


def test_the_stand_in_for_an_installed_venv_runs_this_environment_with_its_packages(tmp_path):
    python = tmp_path / "ground-venv" / "bin" / "python"
    this_python_at(python)
    proc = subprocess.run([str(python), "-c", "import grounding, sys; print(sys.prefix)"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr  # a link, inside a venv, started the base interpreter: no grounding
    assert proc.stdout.strip() == sys.prefix


# 2. a folder search skips what is no transcript, and passes over what --exclude names --------------------


def _folder(tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "a.jsonl").write_bytes((REPO / "fixtures" / "support_bot.jsonl").read_bytes())
    (tmp_path / "runs" / "refund.schema.json").write_bytes((REPO / "fixtures" / "refund.schema.json").read_bytes())
    (tmp_path / "runs" / "node_modules" / "x").mkdir(parents=True)
    (tmp_path / "runs" / "node_modules" / "x" / "package.json").write_text('{"name": "x"}')
    (tmp_path / "runs" / "archive").mkdir()
    (tmp_path / "runs" / "archive" / "old.jsonl").write_text("not json\n")
    return tmp_path / "runs"


def test_a_json_file_found_in_a_folder_that_is_no_transcript_is_skipped_and_counted(tmp_path):
    folder = _folder(tmp_path)
    result = invoke("check", str(folder), "--format", "json", "--extend-exclude", "archive")
    assert result.exit_code == 1, result.stderr
    summary = json.loads(result.stdout)["summary"]
    assert summary["errors"] == 0 and summary["skipped"] == 1 and summary["files"] == 2  # node_modules not entered
    assert summary["skipped_reasons"] == {"a .json file found in a folder, in no transcript format": 1}
    full = invoke("check", str(folder), "--extend-exclude", "archive")
    assert full.stdout.rstrip().endswith("1 file skipped (in no transcript format)")


def test_a_json_file_named_on_the_command_line_that_is_no_transcript_is_still_an_error(tmp_path):
    folder = _folder(tmp_path)
    result = invoke("check", str(folder / "refund.schema.json"))
    assert result.exit_code == 2 and "refund.schema.json:1: not a conversation in a known format" in result.stderr


def test_exclude_replaces_the_defaults_and_extend_exclude_adds_to_them_also_from_the_configuration(tmp_path,
                                                                                                   monkeypatch):
    folder = _folder(tmp_path)
    seen = invoke("check", str(folder), "--format", "json")  # archive/old.jsonl is read: its line is an error
    assert json.loads(seen.stdout)["summary"]["errors"] == 1
    entered = invoke("check", str(folder), "--format", "json", "--exclude", "archive")  # node_modules entered now
    assert json.loads(entered.stdout)["summary"]["skipped"] == 2 and json.loads(entered.stdout)["summary"]["errors"] == 0
    (tmp_path / "ground.toml").write_text('extend-exclude = ["archive/*", "*.schema.json"]\n')
    monkeypatch.chdir(tmp_path)
    configured = json.loads(invoke("check", "runs", "--format", "json").stdout)["summary"]
    assert configured["files"] == 1 and configured["errors"] == configured["skipped"] == 0


def test_the_library_takes_the_same_exclusions(tmp_path):
    import grounding

    folder = _folder(tmp_path)
    result = grounding.run(folder, grounding.Options(extend_exclude=["archive"]))
    assert result.summary.files == 2 and result.summary.errors == 0 and result.summary.skipped == 1


# 3. the docs say what an empty input does ---------------------------------------------------------------


def test_the_docs_say_an_empty_file_exits_2_as_it_does(tmp_path):
    section = (REPO / "docs" / "limits.md").read_text()
    said = " ".join(section.split())
    assert "exits 0" not in said.split("--allow-empty")[0]
    assert "an empty file, an empty folder" in said
    (tmp_path / "empty.jsonl").write_text("")
    assert invoke("check", str(tmp_path / "empty.jsonl")).exit_code == 2
    assert invoke("check", str(tmp_path / "empty.jsonl"), "--allow-empty").exit_code == 0


# 4. what a user reads cites nothing a clone does not have --------------------------------------------------


def _user_facing_texts() -> dict[str, str]:
    texts = {page.name: page.read_text() for page in [REPO / "README.md", *(REPO / "docs").glob("*.md")]
             if page.name not in ("contributing.md", "architecture.md")}  # the maintainers' pages may
    for args in (["--help"], ["check", "--help"], ["explain", "--help"], ["config", "--help"]):
        texts[" ".join(args)] = invoke(*args).stdout
    for schema in (REPO / "grounding" / "schemas").glob("*.json"):
        texts[schema.name] = schema.read_text()
    texts["--statistics"] = invoke("check", SUPPORT, "--statistics").stdout
    return texts


@pytest.mark.parametrize("name", sorted(_user_facing_texts()))
def test_no_user_facing_text_cites_the_maintainers_files(name):
    text = _user_facing_texts()[name]
    for cited in ("../shared", "SPEC", "§"):
        assert cited not in text, f"{name} cites {cited}"


def test_the_quality_tool_says_where_its_corpora_are_when_they_are_absent(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "tools.quality", "--corpus", str(tmp_path)], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "dev.jsonl" in proc.stderr and "shared/" in proc.stderr
    assert "Traceback" not in proc.stderr


# 5. ground explain -------------------------------------------------------------------------------------------


def test_explain_refuses_a_format_it_does_not_write():
    result = invoke("explain", SUPPORT, "--conversation", "order-status-invented", "--format", "sarif")
    assert result.exit_code == 2 and "'sarif' is not one of 'full', 'json'" in result.stderr


def test_explain_names_the_conversations_an_unknown_id_is_not_among():
    result = invoke("explain", SUPPORT, "--conversation", "order-status")
    assert result.exit_code == 2
    assert ("its conversations: order-status-grounded, order-status-invented, refund-arithmetic"
            in " ".join(result.stderr.split()))


def test_explain_without_a_conversation_explains_every_flagged_answer():
    result = invoke("explain", str(REPO / "fixtures"))
    assert result.exit_code == 0
    headers = re.findall(r"^\S+ conversation (\S+) turn \d+: (\w+)$", result.stdout, re.MULTILINE)
    assert {status for _, status in headers} == {"flagged"}
    assert {"order-status-invented", "library-hold-absence", "storage-port-anthropic"} <= {c for c, _ in headers}
    assert "1Z999AA10123456785 (identifier) — not found" in result.stdout
    assert "malformed_line.jsonl:2: invalid JSON" in result.stderr  # an unreadable record is said, not dropped
    assert invoke("explain", SUPPORT, "--turn", "0").exit_code == 2  # --turn chooses within one conversation


# 6. derived answers and examples are shown, briefly, by default -------------------------------------------


def test_the_default_report_shows_a_derived_value_and_an_example_but_not_every_route():
    shown = invoke("check", SUPPORT).stdout
    assert "refund-arithmetic turn 0: derived (6 values examined)" in shown
    assert "GR006 derived-value $889.50 (via derived): 889.5 = 318 + 571.5" in shown
    assert "GR007 example #A0000000" in shown
    assert "grounded May 20, 2024 (via date-part)" not in shown  # -v's
    assert "grounded May 20, 2024 (via date-part)" in invoke("check", SUPPORT, "-v").stdout
    hidden = invoke("check", SUPPORT, "--ignore", "GR006", "--ignore", "GR007").stdout
    assert "refund-arithmetic" not in hidden


# 7. standard input under a name ------------------------------------------------------------------------------


def test_standard_input_is_annotated_under_the_name_given():
    data = (REPO / "fixtures" / "support_bot.jsonl").read_text()
    plain = invoke("check", "-", "--format", "github", stdin=data)
    assert "file=-," in plain.stdout
    named = invoke("check", "-", "--format", "github", "--stdin-filename", "logs/today.jsonl", stdin=data)
    assert named.exit_code == 1 and "file=-," not in named.stdout
    assert "::error file=logs/today.jsonl,line=2," in named.stdout
    broken = invoke("check", "-", "--stdin-filename", "logs/today.jsonl", "--format", "concise",
                    stdin='{"messages": [\n' + data)
    assert "logs/today.jsonl:1: error: invalid JSON" in broken.stderr


def test_a_baseline_written_from_a_named_pipe_matches_the_file_it_names(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.jsonl").write_bytes((REPO / "fixtures" / "support_bot.jsonl").read_bytes())
    data = (tmp_path / "t.jsonl").read_text()
    written = invoke("check", "-", "--stdin-filename", "t.jsonl", "--baseline", "base.json", "--write-baseline",
                     stdin=data)
    assert written.exit_code == 0, written.stderr
    assert invoke("check", "t.jsonl", "--baseline", "base.json").exit_code == 0  # every finding is known


# 8. what --help promises --------------------------------------------------------------------------------------


def test_the_help_says_names_with_no_digit_need_a_declared_shape():
    said = " ".join(invoke("--help").stdout.split())
    assert "a name with no digit (a person, a product) is checked only when a --shape declares its form" in said
    assert "Every number, identifier and name" not in said
