"""grounding.integrations.dspy: a ReAct trajectory read as held, and the gate as BestOfN's reward, with
DSPy's own ReAct and BestOfN and its DummyLM (no network)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("dspy", reason="the dspy extra is not installed (pip install '.[dspy]')")

import dspy  # noqa: E402
from dspy.utils.dummies import DummyLM  # noqa: E402
from scripted import INVENTED, ORDER, QUESTION, REAL  # noqa: E402

import grounding  # noqa: E402
from grounding.integrations.dspy import reward  # noqa: E402


def latest_order(customer: str) -> str:
    """The customer's last order."""
    return json.dumps(ORDER)


def _script(answer: str) -> list[dict]:
    """One ReAct run: look the order up, finish, answer."""
    return [{"next_thought": "Look the order up.", "next_tool_name": "latest_order",
             "next_tool_args": {"customer": "me"}},
            {"next_thought": "I have it.", "next_tool_name": "finish", "next_tool_args": {}},
            {"reasoning": "From the lookup.", "answer": answer}]


def test_a_react_trajectory_read_as_held():
    with dspy.context(lm=DummyLM(_script(INVENTED))):
        prediction = dspy.ReAct("question -> answer", tools=[latest_order])(question=QUESTION)
    verdict = grounding.check_answer(prediction.trajectory, prediction.answer)
    assert [finding.value for finding in verdict.unsupported] == ["ord-55120"]
    assert grounding.check_answer(prediction.trajectory, REAL).status.value == "grounded"
    with pytest.raises(TypeError, match="prediction.answer"):
        grounding.check_answer(prediction.trajectory, prediction)  # the Prediction: its answer field is named


def test_best_of_n_runs_again_until_the_answer_is_grounded():
    actions: list = []
    gate = grounding.Gate("guard", on_verdict=lambda decision: actions.append(decision.action))
    best = dspy.BestOfN(module=dspy.ReAct("question -> answer", tools=[latest_order]), N=3,
                        reward_fn=reward(gate), threshold=1.0)
    with dspy.context(lm=DummyLM(_script(INVENTED) + _script(REAL))):
        chosen = best(question=QUESTION)
    assert actions == ["flagged", "grounded"] and chosen.answer == REAL


def test_the_reward_scores_the_named_field_against_the_inputs():
    score = reward(grounding.Gate("assist"), answer="reply")
    said = dspy.Prediction(reply="Order ORD-40001 shipped.")
    assert score({"question": "Where is ORD-40001?"}, said) == 1.0  # the user's own id: exempt
    assert score({"question": "Where is my order?"}, said) == 0.0  # nothing read, nothing asked
    assert score({"question": "Where is my order?"}, dspy.Prediction(reply="")) == 0.0
