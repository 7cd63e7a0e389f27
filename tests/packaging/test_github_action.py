"""action.yml: a composite action whose inputs reach its scripts through env: only; its steps' scripts run
here, in a temporary directory, as a runner would run them."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import REPO, this_python_at

ACTION = yaml.safe_load((REPO / "action.yml").read_text())
STEPS = ACTION["runs"]["steps"]


def test_the_action_is_composite_and_no_script_interpolates_an_expression():
    assert ACTION["runs"]["using"] == "composite"
    assert {"paths", "options", "output-format", "sarif", "version"} <= set(ACTION["inputs"])
    for step in STEPS:
        if "run" in step:
            assert "${{" not in step["run"], step["name"]  # an input is data: it reaches the script as env
            assert step["shell"] == "bash"
    referenced = {name for step in STEPS for value in step.get("env", {}).values()
                  for name in re.findall(r"inputs\.([\w-]+)", value)}
    assert referenced == set(ACTION["inputs"])


def _runner(tmp_path: Path, **inputs: str) -> dict[str, str]:
    """The environment of each step as a runner builds it: its env: block with the inputs filled in."""
    venv = tmp_path / "runner-temp" / "ground-venv"
    values = {"github.action_path": str(REPO), "runner.temp": str(tmp_path / "runner-temp"),
              **{f"inputs.{name}": inputs.get(name.replace("-", "_"), spec.get("default", ""))
                 for name, spec in ACTION["inputs"].items()}}
    base = {**os.environ, "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
            "GITHUB_OUTPUT": str(tmp_path / "output.txt")}
    return {"values": values, "base": base, "venv": venv}


def _run_step(step: dict, runner: dict, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(runner["base"])
    for key, value in step.get("env", {}).items():
        env[key] = re.sub(r"\$\{\{\s*([\w.-]+)\s*\}\}", lambda m: runner["values"][m.group(1)], value)
    return subprocess.run(["bash", "-c", step["run"]], env=env, cwd=cwd, capture_output=True, text=True, timeout=600)


def _enabled(step: dict, runner: dict) -> bool:
    condition = step.get("if")
    return condition is None or runner["values"]["inputs.sarif"] != ""  # the only condition the action has


def _fake_venv(runner: dict) -> None:
    """The install step's result, from this environment (the slow test runs the real install)."""
    this_python_at(runner["venv"] / "bin" / "python")


def _copy_fixtures(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    (work / "transcripts").mkdir(parents=True)
    for name in ("support_bot.jsonl", "absence.jsonl"):
        (work / "transcripts" / name).write_bytes((REPO / "fixtures" / name).read_bytes())
    (work / "transcripts" / "two words.jsonl").write_bytes((REPO / "fixtures" / "absence.jsonl").read_bytes())
    return work


def _run_after_install(tmp_path: Path, runner: dict, work: Path) -> dict[str, subprocess.CompletedProcess]:
    done = {}
    for step in STEPS[1:]:
        if "run" in step and _enabled(step, runner):
            done[step["name"]] = _run_step(step, runner, work)
    return done


def test_the_check_step_annotates_writes_the_summary_and_its_exit_code(tmp_path):
    runner = _runner(tmp_path, paths='transcripts/support_bot.jsonl "transcripts/two words.jsonl"',
                     options="--min-digits 4 --exempt 978-0-262-04632-9")
    _fake_venv(runner)
    work = _copy_fixtures(tmp_path)
    check = _run_after_install(tmp_path, runner, work)["Check"]
    assert check.returncode == 1, check.stderr
    assert "::error file=transcripts/support_bot.jsonl,line=2" in check.stdout
    assert "978-0-262-04632-9" not in check.stdout  # the options reached ground: exempt
    assert (tmp_path / "output.txt").read_text() == "exit-code=1\n"
    assert (tmp_path / "summary.md").read_text().startswith("## ground")


def test_the_sarif_step_writes_sarif_and_a_glob_is_expanded(tmp_path):
    runner = _runner(tmp_path, paths="transcripts/*.jsonl", sarif="ground.sarif")
    _fake_venv(runner)
    work = _copy_fixtures(tmp_path)
    done = _run_after_install(tmp_path, runner, work)
    assert done["Write SARIF"].returncode == 0, done["Write SARIF"].stderr
    sarif = json.loads((work / "ground.sarif").read_text())
    located = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
    assert located == {"transcripts/support_bot.jsonl", "transcripts/absence.jsonl", "transcripts/two%20words.jsonl"}
    assert done["Check"].returncode == 1


def test_an_input_is_never_evaluated_by_a_shell(tmp_path):
    runner = _runner(tmp_path, paths="transcripts/absence.jsonl", options='--exempt "$(touch pwned)" `touch pwned2`')
    _fake_venv(runner)
    work = _copy_fixtures(tmp_path)
    _run_after_install(tmp_path, runner, work)
    assert not (work / "pwned").exists() and not (work / "pwned2").exists()


@pytest.mark.slow
def test_every_step_runs_with_a_real_install(tmp_path):
    runner = _runner(tmp_path, paths="transcripts/", output_format="concise")
    work = _copy_fixtures(tmp_path)
    install = _run_step(STEPS[0], runner, work)
    assert install.returncode == 0, install.stderr
    assert install.stdout.startswith("ground ")
    check = _run_after_install(tmp_path, runner, work)["Check"]
    assert check.returncode == 1 and "RMA-40213" in check.stdout
