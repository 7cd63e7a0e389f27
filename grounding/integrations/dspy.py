"""DSPy: a ReAct trajectory as the OpenAI Chat messages it stands for, and the gate as a reward.

``dspy.ReAct`` returns a Prediction whose ``trajectory`` is a dict of numbered steps: ``thought_0``,
``tool_name_0``, ``tool_args_0``, ``observation_0``, ``thought_1`` … Each step is a call (its thought the
text beside it) and its observation the call's result; the closing ``finish`` step calls no tool and is
left out. Duck-typed: DSPy is never imported.

    prediction = react(question=question)
    verdict = grounding.check_answer(prediction.trajectory, prediction.answer)

and the gate as the reward of ``dspy.BestOfN`` or ``dspy.Refine``: ``reward_fn=reward(grounding.Gate("guard"))``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from grounding.errors import EmptyAnswerError

from grounding.integrations.base import Framework

FRAMEWORK = Framework("DSPy", ("dspy",), extra="dspy")

_STEP_KEY = re.compile(r"(thought|tool_name|tool_args|observation)_(\d+)")
_FINISH = "finish"


def is_trajectory(document: object) -> bool:
    """Whether document is a ReAct trajectory: every key a numbered step's, with a tool named at step 0."""
    return (isinstance(document, dict) and "tool_name_0" in document
            and all(isinstance(key, str) and _STEP_KEY.fullmatch(key) for key in document))


def openai_messages(trajectory: dict) -> list[dict]:
    """The trajectory's steps as calls and their results, in order."""
    messages: list[dict] = []
    step = 0
    while f"tool_name_{step}" in trajectory:
        name = trajectory[f"tool_name_{step}"]
        if name != _FINISH:
            arguments = trajectory.get(f"tool_args_{step}")
            call = {"id": f"step_{step}", "type": "function",
                    "function": {"name": str(name), "arguments": json.dumps(arguments, default=str)}}
            thought = trajectory.get(f"thought_{step}")
            messages.append({"role": "assistant", "content": thought if isinstance(thought, str) else None,
                             "tool_calls": [call]})
            observation = trajectory.get(f"observation_{step}")
            messages.append({"role": "tool", "tool_call_id": f"step_{step}", "name": str(name), "content":
                             observation if isinstance(observation, str) else json.dumps(observation, default=str)})
        step += 1
    return messages


def reward(gate: Any, *, answer: str = "answer") -> Callable[[dict, Any], float]:  # noqa: ANN401 (a Gate)
    """The gate (a grounding.Gate) as the reward of ``dspy.BestOfN`` and ``dspy.Refine``, which run a module
    again until a prediction scores the threshold: 1.0 when the prediction's answer field (answer) ships as
    grounded or unchecked (it states no value to look up), 0.0 when it is flagged, not judgeable or has no
    text. The answer is judged against the module's inputs (the user's words) and its ReAct trajectory, if
    it has one. The posture does not apply: a reward only scores, and the module is what runs again.

        best = dspy.BestOfN(module=dspy.ReAct("question -> answer", tools=[...]), N=3,
                            reward_fn=reward(grounding.Gate("guard")), threshold=1.0)
    """

    def grounded_reward(args: dict, prediction: Any) -> float:  # noqa: ANN401 (a dspy Prediction)
        asked = "\n".join(f"{name}: {value}" for name, value in args.items())
        trajectory = getattr(prediction, "trajectory", None)
        steps = openai_messages(trajectory) if is_trajectory(trajectory) else []
        history = [{"role": "user", "content": asked}, *steps]
        try:
            decision = gate.decide(history, getattr(prediction, answer), can_revise=False)
        except EmptyAnswerError:
            return 0.0
        return 1.0 if decision.action in ("grounded", "unchecked") else 0.0

    return grounded_reward
