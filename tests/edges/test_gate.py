"""The gate in the loop (grounding.Gate): what each posture does with a flagged answer, the one revision per
turn read from the history, the correction frame, the refusal, and that every decision is observable."""

from __future__ import annotations

import json
import logging

import pytest

import grounding
from grounding.gate import CORRECTION, revisions_asked
from grounding.library import to_conversation

USER = {"role": "user", "content": "What is the status of my last order?"}
CALL = {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                                             "function": {"name": "latest_order", "arguments": "{}"}}]}
RESULT = {"role": "tool", "tool_call_id": "c1", "content": '{"order": "ORD-40001", "status": "shipped"}'}
READ = [USER, CALL, RESULT]
INVENTED = "Your last order ORD-55120 has shipped."
REAL = "Your last order ORD-40001 has shipped."


def _after_correction(history: list[dict], answer: str) -> list[dict]:
    """history, the model's flagged answer, and the gate's correction sent back as the framework sends it."""
    message = grounding.Gate("guard").decide(history, answer).message
    return [*history, {"role": "assistant", "content": answer}, {"role": "user", "content": message}]


@pytest.mark.parametrize("posture", ["assist", "guard", "rails"])
def test_a_grounded_answer_ships_under_every_posture(posture):
    decision = grounding.Gate(posture).decide(READ, REAL)
    assert (decision.action, decision.message, decision.revised) == ("grounded", None, False)
    decision.raise_if_refused()


@pytest.mark.parametrize(("posture", "first", "after_one_revision"), [
    ("assist", "flagged", "flagged"),
    ("guard", "revision-asked", "flagged"),
    ("rails", "revision-asked", "refused"),
])
def test_what_each_posture_does_with_a_flagged_answer(posture, first, after_one_revision):
    gate = grounding.Gate(posture)
    assert gate.decide(READ, INVENTED).action == first
    second = gate.decide(_after_correction(READ, INVENTED), INVENTED)
    assert (second.action, second.revised) == (after_one_revision, True)


def test_a_revision_that_reads_the_value_ships_grounded():
    revised = [*_after_correction([USER], INVENTED), CALL, RESULT]
    decision = grounding.Gate("rails").decide(revised, REAL)
    assert (decision.action, decision.revised) == ("grounded", True)


def test_the_latch_is_one_revision_per_user_turn_read_from_the_history():
    spent = _after_correction(READ, INVENTED)
    assert revisions_asked(to_conversation(spent)) == 1
    next_turn = [*spent, {"role": "assistant", "content": INVENTED}, {"role": "user", "content": "And my other one?"}]
    assert revisions_asked(to_conversation(next_turn)) == 0
    assert grounding.Gate("guard").decide(next_turn, INVENTED).action == "revision-asked"


@pytest.mark.parametrize(("role", "wrapped"), [
    ("user", "Current Task: {question}\n\n### Previous attempt failed validation: {frame}\n\n### Previous result:\n"),
    ("tool", "Call id: c\nError:\nCheck grounded_in_tools failed with error: {frame}"),
    ("user", "Error:\nCheck grounded_in_tools failed with error: {frame}\nNow let's retry: take care not to repeat "
             "previous errors!"),
    ("user", "Validation feedback:\n{frame}\n\nFix the errors and try again."),
], ids=["crewai guardrail retry", "smolagents check error (tool)", "smolagents check error (user)", "pydantic-ai"])
def test_the_latch_counts_the_correction_a_framework_wraps_in_its_own_retry_text(role, wrapped):
    frame = grounding.Gate("guard").decide(READ, INVENTED).message
    message = {"role": role, "content": wrapped.format(question=USER["content"], frame=frame)}
    if role == "tool":
        message["tool_call_id"] = "c1"
    retried = [*READ, {"role": "assistant", "content": INVENTED}, message]
    assert revisions_asked(to_conversation(retried)) == 1
    assert grounding.Gate("guard").decide(retried, INVENTED).action == "flagged"  # never asked again
    assert grounding.Gate("rails").decide(retried, INVENTED).action == "refused"


def test_the_frames_words_written_by_someone_else_spend_no_revision():
    said = [*READ, {"role": "assistant", "content": INVENTED},
            {"role": "user", "content": "Did you run an [evidence check] on that? Check it again."}]
    assert revisions_asked(to_conversation(said)) == 0


def test_the_correction_is_the_authored_frame_then_the_quoted_values_and_nothing_after():
    decision = grounding.Gate("guard").decide(READ, "Order ORD-55120, tracking 1Z999AA10123456799, ships today.")
    frame, *values = decision.message.split("\n")
    assert frame == CORRECTION and frame.startswith(grounding.EVIDENCE_CHECK_FRAME_PREFIX)
    assert values == ['"ORD-55120"', '"1Z999AA10123456799"']


def test_the_correction_is_neither_exempt_nor_evidence_when_read_back():
    """Quoting the invented values back must not exempt them: the revised answer repeating them is flagged."""
    history = _after_correction(READ, INVENTED)
    verdict = grounding.check_answer(history, INVENTED)
    assert verdict.status is grounding.Status.FLAGGED
    [*_, judged] = grounding.check({"messages": [*history, {"role": "assistant", "content": INVENTED}]})
    assert judged.verdict.revision == {"values_named": ["ord-55120"], "after_revision": False}


def test_the_refusal_names_the_values_and_the_fix_not_the_answer():
    decision = grounding.Gate("rails").decide(_after_correction(READ, INVENTED), INVENTED)
    with pytest.raises(grounding.UnsupportedValuesError) as raised:
        decision.raise_if_refused()
    error = raised.value
    assert [f.value for f in error.values] == ["ord-55120"] and error.revised and error.candidates == 1
    assert "'ORD-55120'" in str(error) and "read from a tool result" in str(error)
    assert INVENTED not in str(error) and isinstance(error, grounding.GroundingError)


def test_options_reach_the_gate():
    gate = grounding.Gate("rails", grounding.Options(exempt=["ORD-55120"]))
    decision = gate.decide(READ, INVENTED)  # its one value exempt: nothing left to check, and it ships
    assert decision.action == "unchecked" and decision.message is None
    decision.raise_if_refused()


def test_a_bad_posture_is_an_option_error():
    with pytest.raises(grounding.OptionError, match="assist, guard, rails"):
        grounding.Gate("strict")


def test_the_history_may_be_any_supported_format_or_its_json_text():
    anthropic = {"system": "You help with orders.", "messages": [
        {"role": "user", "content": USER["content"]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "latest_order", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": RESULT["content"]}]}]}
    gate = grounding.Gate("guard")
    assert gate.decide(anthropic, REAL).action == "grounded"
    assert gate.decide(json.dumps(READ), INVENTED).action == "revision-asked"


def test_every_decision_is_logged_and_handed_to_on_verdict(caplog):
    seen = []
    gate = grounding.Gate("assist", on_verdict=seen.append)
    with caplog.at_level(logging.INFO, logger="grounding"):
        gate.decide(READ, REAL)
        gate.decide(READ, INVENTED)
    assert [d.action for d in seen] == ["grounded", "flagged"]
    assert [(r.levelname, r.grounding_action) for r in caplog.records] == [("INFO", "grounded"), ("WARNING", "flagged")]
    assert "ORD-55120" in caplog.records[1].getMessage()


def test_a_decision_is_an_open_telemetry_evaluation_event_on_the_current_span():
    pytest.importorskip("opentelemetry.sdk", reason="the otel extra (opentelemetry-sdk) is not installed")
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    with provider.get_tracer("test").start_as_current_span("invoke_agent"):
        grounding.Gate("guard").decide(READ, INVENTED)
    [span] = exporter.get_finished_spans()
    [event] = span.events
    assert event.name == "gen_ai.evaluation.result"
    assert dict(event.attributes) == {"gen_ai.evaluation.name": "ground.evidence",
                                      "gen_ai.evaluation.score.label": "revision-asked",
                                      "gen_ai.evaluation.explanation": "unsupported: ORD-55120"}


def test_a_failing_on_verdict_callback_is_logged_and_the_decision_still_returned(caplog):
    def sink(decision):
        raise ConnectionError("metrics backend down")

    gate = grounding.Gate("guard", on_verdict=sink)
    with caplog.at_level(logging.ERROR, logger="grounding.gate"):
        decision = gate.decide(READ, INVENTED)
    assert decision.action == "revision-asked"
    [record] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert "on_verdict" in record.getMessage() and record.exc_info[0] is ConnectionError


def test_a_decision_is_json_ready():
    decision = grounding.Gate("guard").decide(READ, INVENTED)
    shown = json.loads(json.dumps(decision.to_dict()))
    assert shown["action"] == "revision-asked" and shown["revised"] is False
    assert shown["message"] == decision.message
    assert shown["verdict"]["status"] == "flagged" and shown["verdict"]["unsupported"][0]["value"] == "ord-55120"


@pytest.mark.parametrize(("posture", "action"), [("assist", "flagged"), ("guard", "flagged"), ("rails", "refused")])
def test_an_answer_that_cannot_be_revised_is_decided_as_a_revision_would_be(posture, action):
    decision = grounding.Gate(posture).decide(READ, INVENTED, can_revise=False)
    assert decision.action == action and decision.message is None and not decision.revised
    assert grounding.Gate(posture).decide(READ, REAL, can_revise=False).action == "grounded"


def _with_result(size: int) -> list:
    return [USER, CALL, {**RESULT, "content": json.dumps({"order_id": "ORD-40001", "log": "x" * size})}]


def test_a_tool_result_over_the_limit_makes_the_answer_unjudgeable_never_grounded():
    options = grounding.Options(max_record_bytes=1_000_000)
    verdict = grounding.check_answer(_with_result(2_000_000), REAL, options)
    assert verdict.status.value == "unjudgeable" and "larger than the limit of 1000000 bytes" in verdict.reason
    for posture in ("assist", "guard", "rails"):
        decision = grounding.Gate(posture, options).decide(_with_result(2_000_000), REAL)
        assert decision.action == "unjudgeable" and decision.message is None
        decision.raise_if_refused()  # nothing is refused: nothing was judged
    assert grounding.check_answer(_with_result(10_000), REAL, options).status.value == "grounded"


def test_a_history_whose_turns_the_api_holds_is_unjudgeable_in_the_loop():
    from conftest import REPO

    record = json.loads((REPO / "fixtures" / "server_state.jsonl").read_text().splitlines()[0])
    decision = grounding.Gate("rails").decide(record, "Your refund of $318.00 is on its way.")
    assert decision.action == "unjudgeable" and "previous_response_id" in decision.verdict.reason


def test_a_48_mb_tool_result_over_the_limit_stays_small_in_memory():
    import subprocess
    import sys

    code = """
import json, resource, grounding
user = {"role": "user", "content": "Where is my last order?"}
call = {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
        "function": {"name": "latest_order", "arguments": "{}"}}]}
result = {"role": "tool", "tool_call_id": "c1", "content": '{"order_id": "ORD-40001", "log": "' + "x" * (48 << 20) + '"}'}
verdict = grounding.check_answer([user, call, result], "ORD-40001", grounding.Options(max_record_bytes=16 << 20))
peak = [line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:")]  # since exec
print(verdict.status.value, int(peak[0]) // 1024 if peak else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""
    # the peak is read in the child since its exec (/proc's VmHWM): ru_maxrss keeps the forking parent's
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    status, peak_mb = proc.stdout.split()
    assert status == "unjudgeable" and int(peak_mb) < 300, proc.stdout


def test_the_async_forms_judge_in_a_worker_thread_and_decide_alike():
    import asyncio
    import threading

    threads = []
    gate = grounding.Gate("guard", on_verdict=lambda d: threads.append(threading.get_ident()))

    async def both():
        return (threading.get_ident(), await gate.adecide(READ, INVENTED),
                await grounding.acheck_answer(READ, REAL))

    loop_thread, decision, verdict = asyncio.run(both())
    assert decision.action == "revision-asked" and verdict.status.value == "grounded"
    assert threads and loop_thread not in threads


def test_two_hundred_concurrent_decisions_use_a_bounded_pool_of_threads():
    """200 concurrent adecide / acheck_answer / Session.acheck calls queue on the loop's default executor (at
    most min(32, cores + 4) threads), or on the executor passed: never a thread each."""
    import asyncio
    import os
    import threading
    from concurrent.futures import ThreadPoolExecutor

    seen: set[int] = set()
    gate = grounding.Gate("guard", on_verdict=lambda decision: seen.add(threading.get_ident()))
    session = grounding.Session()
    session.extend(READ)

    async def many(executor=None):
        decisions = [gate.adecide(READ, INVENTED if n % 2 else REAL, executor=executor) for n in range(200)]
        verdicts = [grounding.acheck_answer(READ, REAL, executor=executor) for _ in range(20)]
        checked = [session.acheck(INVENTED, executor=executor) for _ in range(20)]
        return await asyncio.gather(*decisions), await asyncio.gather(*verdicts), await asyncio.gather(*checked)

    decisions, verdicts, checked = asyncio.run(many())
    assert [d.action for d in decisions[:2]] == ["grounded", "revision-asked"] and len(decisions) == 200
    assert {v.status.value for v in verdicts} == {"grounded"} and {v.status.value for v in checked} == {"flagged"}
    assert 1 <= len(seen) <= min(32, (os.cpu_count() or 1) + 4)
    seen.clear()
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="gate") as pool:
        asyncio.run(many(pool))
    assert 1 <= len(seen) <= 2
