"""The core's annotations hold: mypy finds no error in the pure functions (grounding/core, json_exact).

Types that lie are harmless to CPython but mislead a reader, and they bar any compile that trusts them
(mypyc checks them at run time: a local first set to False that later holds None fails there). The rest of
the package is not held to this yet; --follow-imports=silent keeps its errors out of this test.
"""

import subprocess
import sys

import pytest
from conftest import REPO

pytestmark = pytest.mark.slow  # mypy, without a cache: about 20 s


def test_mypy_finds_no_error_in_the_core():
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--ignore-missing-imports", "--follow-imports=silent", "--no-incremental",
         "grounding/core", "grounding/json_exact.py"],
        cwd=REPO, capture_output=True, text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("Success: no issues found")
