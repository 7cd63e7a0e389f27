"""The distribution as a user gets it: the wheel and the sdist build; the wheel installs by its name into a
fresh virtual environment (and runs one-shot through uv's tool runner, as pipx run would) and the README's
first command gives the README's output."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import REPO

SYSTEM_CERTIFICATES = "/etc/ssl/certs/ca-certificates.crt"
pytestmark = pytest.mark.slow  # builds and installs: a minute; CI runs the slow suite too


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--sdist", "--outdir", str(out), str(REPO)],
                   check=True, capture_output=True, timeout=600)
    return out


def _readme_output() -> str:
    readme = (REPO / "README.md").read_text()
    return readme.split("so it exits 1):\n\n```\n", 1)[1].split("```", 1)[0]


def test_the_wheel_carries_its_name_licence_types_and_schemas(dist):
    [wheel] = dist.glob("ground_evidence-*-py3-none-any.whl")
    assert [sdist.name for sdist in dist.glob("*.tar.gz")] == [wheel.name.split("-py3")[0] + ".tar.gz"]
    names = zipfile.ZipFile(wheel).namelist()
    assert {"grounding/py.typed", "grounding/schemas/report.schema.json",
            "grounding/schemas/config.schema.json"} <= set(names)
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "Name: ground-evidence\n" in metadata and "License-Expression: MIT\n" in metadata
    entry_points = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "ground = grounding.cli.app:main" in entry_points


def test_a_fresh_venv_installs_the_wheel_and_runs_the_readmes_first_command(dist, tmp_path):
    [wheel] = dist.glob("*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    str(wheel)], check=True, capture_output=True, timeout=600)
    proc = subprocess.run([str(venv / "bin" / "ground"), "check", "fixtures/support_bot.jsonl"], cwd=REPO,
                          capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "COLUMNS": "200"})
    assert proc.returncode == 1 and proc.stdout == _readme_output()
    imported = subprocess.run([str(venv / "bin" / "python"), "-c",
                               "import sys, grounding; print(sorted(m for m in sys.modules if m in ('typer', 'rich')))"],
                              capture_output=True, text=True, check=True)
    assert imported.stdout.strip() == "[]"


def test_the_wheel_runs_one_shot_as_a_tool(dist, tmp_path):
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not installed (the test extra brings it): no tool runner to run the wheel one-shot")
    [wheel] = dist.glob("*.whl")
    env = {**os.environ, "HOME": str(tmp_path), "NO_COLOR": "1", "COLUMNS": "200",
           "UV_CACHE_DIR": str(tmp_path / "uv-cache"), "UV_TOOL_DIR": str(tmp_path / "uv-tools")}
    if Path(SYSTEM_CERTIFICATES).exists():  # the certificates pip is told to use here (a proxy's), for uv too
        env.setdefault("SSL_CERT_FILE", SYSTEM_CERTIFICATES)
    proc = subprocess.run([uv, "tool", "run", "--from", str(wheel), "ground", "check", "fixtures/support_bot.jsonl"],
                          cwd=REPO, capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == _readme_output()
