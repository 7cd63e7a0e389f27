"""The framework integrations as one family: each module declares its FRAMEWORK, its extra is declared and
tested alone in CI with its own test file (the scripted story), its framework is listed in the README and
the library page, and the first adapters' earlier import paths are the very same modules."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import tomllib

import pytest
from conftest import REPO

INTEGRATIONS = REPO / "grounding" / "integrations"
MODULES = sorted(path.stem for path in INTEGRATIONS.glob("*.py") if path.stem not in ("__init__", "base"))


def _declared(module: str) -> tuple[str, tuple[str, ...], str | None]:
    """The FRAMEWORK a module declares, read from its source (an adapter imports its framework)."""
    tree = ast.parse((INTEGRATIONS / f"{module}.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["FRAMEWORK"]:
            call = node.value
            assert isinstance(call, ast.Call) and getattr(call.func, "id", None) == "Framework", module
            name, modules = (ast.literal_eval(arg) for arg in call.args)
            extra = next((ast.literal_eval(k.value) for k in call.keywords if k.arg == "extra"), None)
            return name, modules, extra
    raise AssertionError(f"grounding/integrations/{module}.py declares no FRAMEWORK")


@pytest.mark.parametrize("module", MODULES)
def test_each_integration_declares_its_framework_and_its_extra_is_tested_alone(module):
    name, modules, extra = _declared(module)
    assert modules and all(isinstance(prefix, str) for prefix in modules)
    assert extra, f"{module}: an integration with an adapter names the extra that adapter needs"
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert extra in declared
    test = REPO / "tests" / "adapters" / f"test_{module}.py"
    assert test.exists() and "from scripted import" in test.read_text(), "the one story, told in this framework"
    ci = [line for line in (REPO / ".ci" / "run").read_text().splitlines() if f"extra_alone {extra} " in line]
    assert ci and f"tests/adapters/test_{module}.py" in ci[0], f".ci/run does not test the {extra} extra alone"
    assert name in (REPO / "README.md").read_text() and name in (REPO / "docs" / "library.md").read_text()


@pytest.mark.parametrize("former", ["autogen", "dspy", "smolagents"])
def test_an_earlier_import_path_is_the_integration_module_itself(former):
    assert importlib.import_module(f"grounding.{former}") is importlib.import_module(f"grounding.integrations.{former}")


def test_reading_histories_imports_no_framework():
    """The converters are duck-typed: judging a history imports none of the frameworks they read."""
    code = ("import sys, grounding; grounding.check_answer([{'role': 'tool', 'content': 'ORD-1'}], 'ORD-1'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('crewai', 'haystack', 'llama_index', 'google', 'autogen_agentchat', 'dspy', 'smolagents')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert out.stdout.strip() == "[]"
