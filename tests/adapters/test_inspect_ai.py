"""grounding.integrations.inspect_ai: a task state's messages read as held, the check as an Inspect scorer,
and the log Inspect writes read by ground check, with Inspect's own Task, tools and mock model (no network)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("inspect_ai", reason="the inspect extra is not installed (pip install '.[inspect]')")

from inspect_ai import Task, eval  # noqa: A004, E402
from inspect_ai.dataset import Sample  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402
from inspect_ai.solver import generate, use_tools  # noqa: E402
from inspect_ai.tool import tool  # noqa: E402
from scripted import INVENTED, ORDER, QUESTION, REAL  # noqa: E402

import grounding  # noqa: E402
from grounding.integrations.inspect_ai import evidence  # noqa: E402


@tool
def latest_order():  # noqa: ANN201 (Inspect's tool factory)
    async def execute(customer: str) -> str:
        """The customer's last order.

        Args:
            customer: who is asking
        """
        return json.dumps(ORDER)

    return execute


def _evaluate(answer: str, log_dir) -> object:
    """One sample: the model looks the order up, then answers."""
    outputs = [ModelOutput.for_tool_call("mockllm/model", "latest_order", {"customer": "me"}),
               ModelOutput.from_content("mockllm/model", answer)]
    for output in outputs:  # the mock counts missing usage with tiktoken, which downloads its encoding
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    task = Task(dataset=[Sample(input=QUESTION, id="order-1")], solver=[use_tools([latest_order()]), generate()],
                scorer=evidence())
    [log] = eval(task, model=get_model("mockllm/model", custom_outputs=outputs), log_dir=str(log_dir),
                 display="none")
    return log


def test_the_scorer_marks_an_invention_incorrect_and_names_it(tmp_path):
    log = _evaluate(INVENTED, tmp_path)
    [sample] = log.samples
    score = sample.scores["evidence"]
    assert score.value == "I" and "ORD-55120" in score.explanation
    assert score.metadata == {"status": "flagged", "unsupported": ["ORD-55120"]}
    # the state's messages read as held: the same verdict, the call's tool named
    history, answer = sample.messages[:-1], sample.messages[-1]
    verdict = grounding.check_answer(history, answer, grounding.Options(require_tool=["latest_order"]))
    assert [finding.value for finding in verdict.unsupported] == ["ord-55120"]


def test_the_scorer_marks_a_read_answer_correct_and_ground_check_reads_the_log_inspect_wrote(tmp_path):
    log = _evaluate(REAL, tmp_path)
    assert log.samples[0].scores["evidence"].value == "C"
    assert log.results.scores[0].metrics["accuracy"].value == 1.0
    _evaluate(INVENTED, tmp_path)  # a second log, in the same folder
    proc = subprocess.run([sys.executable, "-m", "grounding", "check", str(tmp_path), "--format", "json"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 1, proc.stderr
    answers = json.loads(proc.stdout)["answers"]
    assert sorted(answer["status"] for answer in answers) == ["flagged", "grounded"]
    assert all(answer["format"] == "inspect-ai" and answer["conversation"].endswith("/order-1/1") for answer in answers)
