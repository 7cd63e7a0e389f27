"""grounding.guardrails_ai: the check as a Guardrails AI validator, in a Guard, offline (validate only)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("guardrails", reason="the guardrails extra is not installed (pip install '.[guardrails]')")

from guardrails import Guard  # noqa: E402
from scripted import INVENTED, ORDER, QUESTION, REAL  # noqa: E402

from grounding.guardrails_ai import GroundedInEvidence  # noqa: E402

@pytest.fixture(autouse=True)
def _no_metrics(monkeypatch, tmp_path):
    """Offline: Guardrails sends its own traces unless its rc file says no (as `guardrails configure
    --disable-metrics` writes it)."""
    (tmp_path / ".guardrailsrc").write_text("enable_metrics=false\n")
    monkeypatch.setenv("HOME", str(tmp_path))


HISTORY = [{"role": "user", "content": QUESTION},
           {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                                                 "function": {"name": "latest_order", "arguments": "{}"}}]},
           {"role": "tool", "tool_call_id": "c1", "content": json.dumps(ORDER)}]


def test_a_grounded_answer_passes_and_an_invented_one_is_fixed():
    guard = Guard().use(GroundedInEvidence(on_fail="fix"))
    passed = guard.validate(REAL, metadata={"history": HISTORY})
    assert passed.validation_passed and passed.validated_output == REAL
    fixed = guard.validate(INVENTED, metadata={"history": HISTORY})
    assert fixed.validated_output == "Your last order [unverified] has shipped."
    [summary] = fixed.validation_summaries
    assert "'ORD-55120'" in summary.failure_reason
    assert [(span.start, span.end) for span in summary.error_spans] == [(16, 25)]


def test_an_invented_answer_raises_under_exception_and_the_history_may_be_given_once():
    guard = Guard().use(GroundedInEvidence(history=HISTORY, on_fail="exception"))
    with pytest.raises(Exception, match="ORD-55120"):
        guard.validate(INVENTED)
    assert guard.validate(REAL).validation_passed


def test_no_history_is_a_clear_error_and_an_unreadable_one_never_passes():
    with pytest.raises(Exception, match="no history to judge against"):
        Guard().use(GroundedInEvidence(on_fail="exception")).validate(REAL)
    from grounding import Options

    huge = [*HISTORY[:2], {"role": "tool", "tool_call_id": "c1", "content": "x" * 5_000}]
    outcome = Guard().use(GroundedInEvidence(options=Options(max_record_bytes=1_000), on_fail="noop")).validate(
        REAL, metadata={"history": huge})
    assert not outcome.validation_passed


@pytest.mark.parametrize("answer", ["", "   "])
def test_an_answer_with_no_text_fails_never_passes(answer):
    outcome = Guard().use(GroundedInEvidence(history=HISTORY, on_fail="noop")).validate(answer)
    assert not outcome.validation_passed
    assert "no text to judge" in outcome.validation_summaries[0].failure_reason
