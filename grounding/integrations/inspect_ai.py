"""Inspect AI: a sample's messages read as held, and the check as a scorer.

A task's state holds Inspect's own ``ChatMessage`` models (``state.messages``); grounding.history reads them as
the logs Inspect writes (format inspect-ai: a call names its function, a tool message the function it
answers), so ``grounding.check_answer(state.messages[:-1], state.output.completion)`` reads them as held. The
logs themselves (``.eval``, ``.json``) are read by ``ground check logs/``, one conversation per sample.

    @task
    def orders():
        return Task(dataset=[Sample(input="Where is my order?")], solver=[use_tools([lookup()]), generate()],
                    scorer=evidence())
"""

from __future__ import annotations

from typing import Any

from grounding.integrations.base import Framework

FRAMEWORK = Framework("Inspect AI", ("inspect_ai",), extra="inspect")


def evidence(options: Any = None) -> Any:  # noqa: ANN401 (grounding.Options; an Inspect Scorer)
    """A scorer (Inspect's ``@scorer``, metrics accuracy and stderr) that checks each sample's final answer
    against the tool results of its messages: ``C`` when every value it states was read (grounded, or
    derived from read values), ``I`` when one was not (the unsupported values in the explanation and the
    metadata), ``N`` when nothing could be checked (no answer, no value stated, the evidence unreadable: never
    a pass). options: grounding.Options (shapes, exempt values, …)."""
    from inspect_ai.scorer import CORRECT, INCORRECT, NOANSWER, Score, accuracy, scorer, stderr

    from grounding.library import check

    @scorer(metrics=[accuracy(), stderr()], name="evidence")
    def grounded_in_evidence() -> Any:  # noqa: ANN401 (an Inspect Scorer)
        async def score(state: Any, target: Any) -> Any:  # noqa: ANN401, ARG001 (no target: the tools are)
            judged = check(list(state.messages), options)
            if not judged:
                return Score(value=NOANSWER, explanation="no final answer to check")
            verdict = judged[-1].verdict
            unsupported = [finding.text for finding in verdict.unsupported]
            value = {"grounded": CORRECT, "derived": CORRECT, "flagged": INCORRECT}.get(verdict.status.value, NOANSWER)
            explanation = (f"{verdict.status.value}: not read in any tool result: {', '.join(unsupported)}"
                           if unsupported else f"{verdict.status.value} ({verdict.candidates} values examined)")
            return Score(value=value, answer=judged[-1].text, explanation=explanation,
                         metadata={"status": verdict.status.value, "unsupported": unsupported})

        return score

    return grounded_in_evidence()
