"""A DSPy ReAct trajectory as the OpenAI Chat messages it stands for: a history as DSPy holds it.

``dspy.ReAct`` returns a Prediction whose ``trajectory`` is a dict of numbered steps: ``thought_0``,
``tool_name_0``, ``tool_args_0``, ``observation_0``, ``thought_1`` … Each step is a call (its thought the
text beside it) and its observation the call's result; the closing ``finish`` step calls no tool and is
left out. Duck-typed: DSPy is never imported.

    prediction = react(question=question)
    verdict = grounding.check_answer(prediction.trajectory, prediction.answer)
"""

from __future__ import annotations

import json
import re

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
