"""templates/ground.yml: a GitLab CI/CD component (spec:inputs) whose inputs become job variables, never
script text; its script runs here as a runner would run it, and writes the codequality and junit reports."""

from __future__ import annotations

import json
import os
import re
import subprocess
from xml.etree import ElementTree

import yaml
from conftest import REPO, this_python_at

SPEC, JOBS = yaml.safe_load_all((REPO / "templates" / "ground.yml").read_text())
JOB = JOBS["ground"]


def test_the_component_declares_its_inputs_and_never_interpolates_one_into_a_script():
    assert set(SPEC["spec"]["inputs"]) == {"paths", "options", "version", "stage", "image"}
    for line in JOB["before_script"] + JOB["script"]:
        assert "$[[" not in line
    assert {"GROUND_PATHS": "$[[ inputs.paths ]]", "GROUND_OPTIONS": "$[[ inputs.options ]]"}.items() <= \
        JOB["variables"].items()
    assert JOB["artifacts"]["reports"] == {"codequality": "gl-code-quality-report.json", "junit": "ground-junit.xml"}
    assert JOB["artifacts"]["when"] == "always"


def test_the_script_writes_both_reports_and_fails_on_a_flagged_answer(tmp_path):
    work = tmp_path / "project"
    (work / "transcripts").mkdir(parents=True)
    for name in ("support_bot.jsonl", "absence.jsonl"):
        (work / "transcripts" / name).write_bytes((REPO / "fixtures" / name).read_bytes())
    venv = tmp_path / "ground-venv-7"
    this_python_at(venv / "bin" / "python")  # the before_script's install, from this environment
    inputs = {"inputs.paths": "transcripts/*.jsonl", "inputs.options": "--exempt '978-0-262-04632-9'"}
    variables = {key: re.sub(r"\$\[\[\s*([\w.]+)\s*\]\]", lambda m: inputs.get(m.group(1), ""), str(value))
                 for key, value in JOB["variables"].items()}
    env = {**os.environ, **variables, "TMPDIR": str(tmp_path), "CI_JOB_ID": "7", "CI_PROJECT_DIR": str(work)}
    [script] = JOB["script"]
    proc = subprocess.run(["bash", "-c", script], env=env, cwd=work, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    quality = json.loads((work / "gl-code-quality-report.json").read_text())
    assert sorted(issue["location"]["path"] for issue in quality if "GR001" in issue["check_name"]) == \
        ["transcripts/support_bot.jsonl"] * 2  # the exempted ISBN is not reported: the options arrived
    suite = ElementTree.parse(work / "ground-junit.xml").getroot()
    assert int(suite.get("tests") or suite[0].get("tests")) == 4
