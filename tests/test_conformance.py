"""The public conformance cases, run through the CLI as the shared runner drives it (v3: all of §9)."""

import os
import subprocess
import sys

import pytest
from conftest import SHARED

RUNNER = SHARED / "conformance" / "run_conformance.py"


@pytest.mark.skipif(not RUNNER.exists(), reason="shared/conformance is not beside the repo")
def test_every_public_case_agrees():
    env = dict(os.environ, GROUND_CMD=f"{sys.executable} -m grounding")
    proc = subprocess.run([sys.executable, str(RUNNER), "--semantics", "v3"], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "conformance: 91/91 cases agree" in proc.stdout
    assert "VIA " not in proc.stdout  # every route reported as the readings name it
