"""The pre-commit hook (.pre-commit-hooks.yaml), run by pre-commit itself from this repository: a commit
touching only package.json passes (the hook reads transcripts only), one adding a transcript with an
invented value fails."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO

pytestmark = pytest.mark.slow  # pre-commit builds the hook's environment: half a minute


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"})


def _try(folder: Path, home: Path, *files: str) -> subprocess.CompletedProcess:
    pre_commit = shutil.which("pre-commit")
    if pre_commit is None:
        pytest.skip("pre-commit is not installed (the test extra brings it)")
    env = {**os.environ, "PRE_COMMIT_HOME": str(home)}
    return subprocess.run([pre_commit, "try-repo", str(REPO), "ground", "--files", *files], cwd=folder,
                          capture_output=True, text=True, timeout=900, env=env)


def test_the_hook_skips_package_json_and_fails_an_invented_value(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    _git(project, "init", "-q")
    (project / "package.json").write_text('{"name": "app", "version": "1.0.0", "port": 8080}\n')
    (project / "runs.jsonl").write_bytes((REPO / "fixtures" / "support_bot.jsonl").read_bytes())
    _git(project, "add", ".")
    home = tmp_path / "pre-commit-home"
    only_package = _try(project, home, "package.json")
    assert only_package.returncode == 0, only_package.stdout + only_package.stderr
    assert "(no files to check)Skipped" in only_package.stdout.replace(".", "")
    with_transcript = _try(project, home, "package.json", "runs.jsonl")
    assert with_transcript.returncode == 1 and "RMA-40213" in with_transcript.stdout
