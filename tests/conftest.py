"""Shared helpers: build small conversations and judge their last answer."""

from __future__ import annotations

import json
import os
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


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", help="rewrite the golden files under tests/golden")


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
