"""grounding.nemo: the gate as a NeMo Guardrails output-rail action, run offline with NeMo's own fake model
(passthrough: no embedding model is needed)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("nemoguardrails", reason="the nemo extra is not installed (pip install '.[nemo]')")

from nemoguardrails import LLMRails, RailsConfig  # noqa: E402
from nemoguardrails.testing.fake_model import FakeLLMModel  # noqa: E402
from scripted import INVENTED, ORDER, QUESTION, REAL  # noqa: E402

from grounding.nemo import evidence_action  # noqa: E402

REFUSAL = "I could not verify that answer."
COLANG = f"""
define subflow look up the order
  $order = execute latest_order

define subflow check evidence
  $grounded = execute check_evidence
  if not $grounded
    bot inform cannot verify
    stop

define bot inform cannot verify
  "{REFUSAL}"
"""


def _rails(answer: str, posture: str, decisions: list, flows: tuple[str, ...] = ("check evidence",)) -> LLMRails:
    yaml = "models: []\npassthrough: true\nrails:\n  output:\n    flows:\n" + "".join(f"      - {f}\n" for f in flows)
    rails = LLMRails(RailsConfig.from_content(colang_content=COLANG, yaml_content=yaml),
                     llm=FakeLLMModel(responses=[answer]))
    rails.register_action(evidence_action(posture, on_verdict=decisions.append), name="check_evidence")

    async def latest_order() -> dict:  # the app's own action: its result is what the bot read
        return ORDER

    rails.register_action(latest_order, name="latest_order")
    return rails


ASKED = [{"role": "user", "content": QUESTION}]
LOOKED_UP = ("look up the order", "check evidence")  # the app's action runs, then the check


@pytest.mark.parametrize(("answer", "posture", "shipped", "action"), [
    (REAL, "rails", REAL, "grounded"),
    (INVENTED, "rails", REFUSAL, "refused"),
    (INVENTED, "guard", INVENTED, "flagged"),  # no revision in an output rail: guard ships it flagged
    (INVENTED, "assist", INVENTED, "flagged"),
])
def test_the_bot_message_is_judged_against_what_the_apps_actions_returned(answer, posture, shipped, action):
    decisions = []
    response = _rails(answer, posture, decisions, LOOKED_UP).generate(messages=ASKED)
    assert response["content"] == shipped and [d.action for d in decisions] == [action]


def test_the_users_words_are_exempt_and_the_retrieved_chunks_are_evidence():
    from grounding.nemo import history_of

    decisions = []
    told = [{"role": "user", "content": "My order is ORD-55120, where is it?"}]
    assert _rails(INVENTED, "rails", decisions).generate(messages=told)["content"] == INVENTED  # the user said it
    history = history_of({"relevant_chunks": json.dumps(ORDER)}, [{"type": "UtteranceUserActionFinished",
                                                                   "final_transcript": QUESTION}])
    assert history == [{"role": "user", "content": QUESTION},
                       {"role": "tool", "name": "relevant_chunks", "content": json.dumps(ORDER)}]
    system = {"type": "InternalSystemActionFinished", "is_system_action": True, "return_value": INVENTED}
    assert history_of({}, [system]) == []  # NeMo's own actions (the bot message itself among them) ground nothing


def test_nothing_read_refuses_an_invention_under_rails():
    decisions = []
    response = _rails(INVENTED, "rails", decisions).generate(messages=[{"role": "user", "content": QUESTION}])
    assert response["content"] == REFUSAL and "no tool result was read" in decisions[-1].verdict.reason


def test_an_empty_bot_message_gets_no_decision_and_is_never_called_grounded(caplog):
    import asyncio
    import logging

    decisions = []
    check = evidence_action("rails", on_verdict=decisions.append)
    with caplog.at_level(logging.WARNING, logger="grounding.gate"):
        shipped = asyncio.run(check(context={"bot_message": "  "}, events=[]))
    assert shipped is True and decisions == [] and "the bot message is empty" in caplog.text
