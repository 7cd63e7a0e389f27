"""Shared helpers: build small conversations and judge their last answer."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from grounding.core.engine import check_conversation
from grounding.core.settings import build_settings
from grounding.transcripts.formats import read_record

# A fixed seed in CI (same examples every run); `HYPOTHESIS_PROFILE=long pytest` explores more by hand.
hypothesis_settings.register_profile("ci", derandomize=True, deadline=None, max_examples=150)
hypothesis_settings.register_profile("long", max_examples=5000, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
# A sample of the real corpora inside the repository (tests/data/real/README.md): what a fresh clone reads
SAMPLE = REPO / "tests" / "data" / "real"
# Tests that read the project's shared data (the full real corpora, the format corpus, the public
# conformance cases) are marked so; without ../shared they are not run, and the run says so once.
needs_shared = pytest.mark.needs_shared


def this_python_at(path: Path) -> None:
    """An installed venv's ``bin/python`` faked by this environment's interpreter: a script that runs it. (A
    symbolic link would not do: inside a venv, the link's own folder has no pyvenv.cfg, so the interpreter it
    starts is the base one, without this environment's packages.)"""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n')
    path.chmod(0o755)


def real_corpora() -> list[Path]:
    """The real transcripts to read: the full corpora beside the repository, else the in-repository sample."""
    full = [SHARED / "corpus" / "real" / name for name in ("dev.jsonl", "dev2.jsonl")]
    return full if all(path.exists() for path in full) else [SAMPLE / "sample.jsonl"]


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", help="rewrite the golden files under tests/golden")


def pytest_configure(config):
    config.addinivalue_line("markers", "needs_shared: reads ../shared (the full corpora, formats, conformance)")
    config.addinivalue_line("markers", "slow: an equivalence suite (tests/equivalence): `pytest -m slow` runs it")


def pytest_collection_modifyitems(config, items):
    if SHARED.exists():
        return
    left_out = [item for item in items if item.get_closest_marker("needs_shared")]
    if left_out:
        items[:] = [item for item in items if not item.get_closest_marker("needs_shared")]
        config.hook.pytest_deselected(items=left_out)
        config._ground_left_out = len(left_out)


def pytest_terminal_summary(terminalreporter, config):
    left_out = getattr(config, "_ground_left_out", 0)
    if left_out:
        terminalreporter.write_line(f"{left_out} tests read ../shared (the full real corpora, the format corpus, "
                                    f"the public conformance cases), which is not beside the repository: not run. "
                                    f"The real-data tests ran on tests/data/real.")


@pytest.fixture
def update_golden(request):
    return request.config.getoption("--update-golden")


def openai_record(*steps, answer: str, user: str = "Please check.", system: str | None = None, arguments=None):
    """An OpenAI conversation: system, user, then one call + result per step, then the answer.

    A step is a tool result: a dict/list (sent as JSON text) or a string.
    """
    messages = []
    if system is not None:
        messages.append({"role": "system", "content": system})
    messages.append({"role": "user", "content": user})
    for number, step in enumerate(steps):
        call_id = f"call_{number}"
        args = json.dumps(arguments if arguments is not None else {})
        messages.append(
            {"role": "assistant", "content": None,
             "tool_calls": [{"id": call_id, "type": "function", "function": {"name": "lookup", "arguments": args}}]}
        )
        content = step if isinstance(step, str) else json.dumps(step)
        messages.append({"role": "tool", "tool_call_id": call_id, "content": content})
    messages.append({"role": "assistant", "content": answer})
    return {"id": "test", "messages": messages}


def verdict_of(record, **options):
    """The verdict on the last answer of a record, under the given options."""
    settings = build_settings(
        options.pop("shapes", None),
        options.pop("exempt", None),
        options.pop("exempt_regex", None),
        options.pop("min_digits", 4),
        **options,
    )
    answers = list(check_conversation(read_record(record, "test.jsonl", 1), settings))
    return answers[-1].verdict


def judge(*steps, answer: str, **kwargs):
    """Judge one answer after the given tool results; returns the verdict."""
    record_options = {k: kwargs.pop(k) for k in ("user", "system", "arguments") if k in kwargs}
    return verdict_of(openai_record(*steps, answer=answer, **record_options), **kwargs)


def unsupported(verdict) -> list[str]:
    return sorted(finding.value for finding in verdict.unsupported)


def via(verdict) -> dict[str, str]:
    return {finding.value: finding.via for finding in verdict.grounded_via}
