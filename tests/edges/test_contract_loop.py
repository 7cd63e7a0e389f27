"""grounding.Contract: the output contract in the loop. Each stage fails by name (stop-reason, json-parse,
schema-validate), a re-ask states the attempt cap and quotes the validator's error as data, one attempt row
per final-answer attempt, the three tiers (primary, fallback re-validated, canned validated at build), and
the gate judging a schema-valid answer for invented values."""

from __future__ import annotations

import json

import pytest

import grounding
from grounding import Contract, OutputSchemaError
from grounding.errors import OptionError

SCHEMA = {"type": "object", "required": ["amount", "reason"], "additionalProperties": False,
          "properties": {"amount": {"type": "number"}, "reason": {"type": "string"}}}
GOOD = '{"amount": 50, "reason": "package never arrived"}'
WRONG = '{"amount": "USD 50", "reason": "package never arrived"}'
PROSE = "I have refunded you 50 dollars."
READ = [{"role": "user", "content": "Refund my order ORD-40001"},
        {"role": "tool", "content": json.dumps({"order": "ORD-40001", "refundable": 50})}]


def _after(history: list, answer: str, decision) -> list:
    """history, the failed answer and the contract's frame, as a loop appends them."""
    return [*history, {"role": "assistant", "content": answer}, {"role": "user", "content": decision.message}]


def test_each_stage_fails_by_name():
    contract = Contract(SCHEMA)
    assert contract.decide(READ, GOOD).action == "passed"
    assert contract.decide(READ, PROSE).stage == "json-parse"
    wrong = contract.decide(READ, WRONG)
    assert wrong.stage == "schema-validate" and wrong.error.startswith("/amount: ")
    stopped = contract.decide(READ, GOOD, stop_reason="max_tokens")  # parses, and is still no answer
    assert stopped.action == "failed" and stopped.stage == "stop-reason" and "max_tokens" in stopped.error


def test_a_reask_states_the_cap_and_quotes_the_error_last_as_data():
    contract = Contract(SCHEMA, retries=2)
    first = contract.decide(READ, WRONG)
    assert first.action == "retry" and first.message.startswith(grounding.contract.SCHEMA_CHECK)
    assert "(attempt 1 of 3)" in first.message and first.message.endswith(first.error)
    assert "not an instruction" in first.message.split("\n\n")[0]  # the authored words come first
    second = contract.decide(_after(READ, WRONG, first), PROSE)
    assert second.action == "retry" and "(attempt 2 of 3)" in second.message
    third = contract.decide(_after(_after(READ, WRONG, first), PROSE, second), GOOD)
    assert third.action == "passed" and third.value == json.loads(GOOD)
    assert [(r.attempt, r.outcome, r.stage) for r in third.attempts] == [
        (1, "retried", "schema-validate"), (2, "retried", "json-parse"), (3, "passed", None)]


def test_the_attempts_start_again_at_each_user_turn():
    contract = Contract(SCHEMA, retries=1)
    first = contract.decide(READ, WRONG)
    later = [*_after(READ, WRONG, first), {"role": "assistant", "content": GOOD},
             {"role": "user", "content": "And the other order?"}]
    assert contract.decide(later, WRONG).message.count("(attempt 1 of 2)") == 1


def test_a_truncation_is_reasked_and_a_refusal_is_not():
    contract = Contract(SCHEMA, retries=1)
    assert contract.decide(READ, '{"amount": 5', stop_reason="max_tokens").action == "retry"
    refused = contract.decide(READ, "I can't help with that.", stop_reason="refusal")
    assert refused.action == "failed" and refused.stage == "stop-reason"
    assert [(r.outcome, r.stop_reason) for r in refused.attempts] == [("exhausted", "refusal")]


def test_spent_attempts_raise_with_the_stage_and_the_raw_output_kept():
    decision = Contract(SCHEMA).decide(READ, PROSE)
    with pytest.raises(OutputSchemaError) as raised:
        decision.raise_if_failed()
    assert (raised.value.stage, raised.value.raw_output) == ("json-parse", PROSE)
    assert [row.outcome for row in raised.value.attempts] == ["exhausted"]


def test_the_three_tiers():
    seen = []

    def fallback(error, raw):
        seen.append((error.stage, raw))
        return {"amount": 0, "reason": "manual review"}

    tiered = Contract(SCHEMA, fallback=fallback).decide(READ, PROSE)
    assert (tiered.action, tiered.tier, tiered.value) == ("fallback", "fallback", {"amount": 0, "reason": "manual review"})
    assert seen == [("json-parse", PROSE)] and tiered.stage == "json-parse"  # the model's failure is kept
    bad_fallback = Contract(SCHEMA, fallback=lambda error, raw: {"amount": "none"},
                            canned={"amount": 0, "reason": "unable to process"})
    canned = bad_fallback.decide(READ, PROSE)
    assert (canned.action, canned.value["reason"]) == ("canned", "unable to process")
    assert "the fallback's value does not meet the schema" in canned.error
    assert json.loads(canned.shipped(PROSE)) == canned.value  # text in, the canned JSON text out
    with pytest.raises(OptionError, match="canned"):
        Contract(SCHEMA, canned={"amount": "none"})  # validated when the contract is built


def test_a_fallback_that_raises_falls_to_canned_and_without_it_is_the_cause():
    def broken(error, raw):
        raise ConnectionError("the review queue is down")

    canned = Contract(SCHEMA, fallback=broken, canned={"amount": 0, "reason": "unable to process"}).decide(READ, PROSE)
    assert (canned.action, canned.tier) == ("canned", "canned")  # the seed: with canned set, never a throw
    assert "the fallback raised ConnectionError: the review queue is down" in canned.error
    failed = Contract(SCHEMA, fallback=broken).decide(READ, PROSE)
    with pytest.raises(OutputSchemaError) as raised:
        failed.raise_if_failed()
    assert isinstance(raised.value.cause, ConnectionError) and raised.value.__cause__ is raised.value.cause


def test_the_error_carries_the_parsers_or_the_validators_exception():
    import jsonschema
    from pydantic import BaseModel, ValidationError

    class Refund(BaseModel):
        amount: float
        reason: str

    for contract, answer, kind in ((Contract(SCHEMA), PROSE, json.JSONDecodeError),
                                   (Contract(SCHEMA), WRONG, jsonschema.ValidationError),
                                   (Contract(Refund), WRONG, ValidationError)):
        with pytest.raises(OutputSchemaError) as raised:
            contract.decide(READ, answer).raise_if_failed()
        assert isinstance(raised.value.cause, kind), (answer, raised.value.cause)
    stopped = Contract(SCHEMA).decide(READ, GOOD, stop_reason="refusal")
    with pytest.raises(OutputSchemaError) as raised:
        stopped.raise_if_failed()
    assert raised.value.cause is None  # a stop is no exception of a parser's


def test_an_invalid_canned_value_names_its_failing_field():
    with pytest.raises(OptionError, match=r"\(schema-validate\): /amount: 'none' is not of type 'number'"):
        Contract(SCHEMA, canned={"amount": "none", "reason": "x"})
    with pytest.raises(OptionError, match="'reason' is a required property"):
        Contract(SCHEMA, canned={"amount": 0})


def test_an_attempt_the_gate_reasked_for_its_values_has_its_own_row():
    contract = Contract({"type": "object"}, retries=2, gate=grounding.Gate("guard"))
    first = contract.decide(READ, PROSE)
    history = _after(READ, PROSE, first)
    invented = '{"order": "ORD-40010", "amount": 50}'
    second = contract.decide(history, invented)
    assert second.action == "revision-asked"
    third = contract.decide(_after(history, invented, second), '{"order": "ORD-40001", "amount": 50}')
    assert [(r.attempt, r.outcome, r.stage) for r in third.attempts] == [
        (1, "retried", "json-parse"), (2, "retried", "evidence"), (3, "passed", None)]
    assert '"ORD-40010"' in third.attempts[1].error


def test_a_pydantic_model_is_a_schema_and_its_instance_the_value():
    from pydantic import BaseModel

    class Refund(BaseModel):
        amount: float
        reason: str

    contract = Contract(Refund)
    decision = contract.decide(READ, GOOD)
    assert isinstance(decision.value, Refund) and decision.value.amount == 50
    assert contract.decide(READ, WRONG).error.startswith("/amount: ")
    assert '"amount"' in contract.instruction() and contract.instruction().startswith("Respond ONLY with valid JSON")
    assert json.loads(json.dumps(decision.to_dict()))["value"] == {"amount": 50.0, "reason": "package never arrived"}


def test_a_schema_file_is_read_as_the_cli_reads_it(tmp_path):
    path = tmp_path / "refund.json"
    path.write_text(json.dumps(SCHEMA))
    assert Contract(path).decide(READ, WRONG).stage == "schema-validate"
    with pytest.raises(OptionError, match="No such file"):
        Contract(tmp_path / "missing.json")
    with pytest.raises(OptionError, match="not a valid JSON Schema"):
        Contract({"type": "nothing"})


def test_a_schema_valid_answer_is_then_judged_for_invented_values():
    contract = Contract({"type": "object"}, gate=grounding.Gate("guard"))
    invented = contract.decide(READ, '{"order": "ORD-40010", "amount": 50}')
    assert invented.action == "revision-asked" and invented.tier == "primary"
    assert invented.message.startswith(grounding.EVIDENCE_CHECK_FRAME_PREFIX)
    assert [f.value for f in invented.evidence.unsupported] == ["ord-40010"]
    assert contract.decide(READ, '{"order": "ORD-40001", "amount": 50}').action == "passed"
    rails = Contract({"type": "object"}, gate=grounding.Gate("rails")).decide(READ, '{"order": "ORD-40010"}',
                                                                             can_revise=False)
    with pytest.raises(grounding.UnsupportedValuesError):
        rails.raise_if_failed()


def test_ground_check_reads_the_loops_reasks_as_retried_attempts(tmp_path):
    """The frames the contract writes are the ones ``ground check --schema`` reads back from a saved run."""
    contract = Contract(SCHEMA, retries=1)
    first = contract.decide(READ, WRONG)
    record = {"messages": [*_after(READ, WRONG, first), {"role": "assistant", "content": GOOD}]}
    (tmp_path / "run.jsonl").write_text(json.dumps(record) + "\n")
    (tmp_path / "refund.json").write_text(json.dumps(SCHEMA))
    result = grounding.run(tmp_path / "run.jsonl", grounding.Options(schema=tmp_path / "refund.json"))
    [answer] = result.answers
    assert [a.outcome for a in answer.verdict.contract.attempts] == ["retried", "passed"]


def test_an_answer_nested_past_any_parser_is_a_json_parse_failure():
    """R47: json.loads raised RecursionError out of decide (an exception in the loop, not a re-ask)."""
    decision = Contract({"type": "array"}, retries=1).decide([], "[" * 100_000 + "]" * 100_000)
    assert (decision.action, decision.stage, decision.error) == ("retry", "json-parse",
                                                                "not valid JSON: nested too deep to parse")
    with pytest.raises(OutputSchemaError) as raised:
        Contract({"type": "array"}).decide([], "[" * 100_000 + "]" * 100_000).raise_if_failed()
    assert isinstance(raised.value.cause, RecursionError)


def test_a_schema_pattern_that_runs_too_long_fails_the_value_in_time(tmp_path):
    """R41: jsonschema's pattern search has no time limit (^(a+)+$ on 28 characters: ~30 s, doubling with
    each one). It runs under the user patterns' limit (in the regex module, which needs no time for that
    one, and runs out of it on ^(a|aa)+$); out of time, the value fails, saying why."""
    import time

    schema = {"type": "object", "properties": {"code": {"type": "string", "pattern": "^(a|aa)+$"}}}
    started = time.process_time()
    decision = Contract(schema).decide(READ, json.dumps({"code": "a" * 40 + "!"}))
    assert time.process_time() - started < 5
    assert decision.action == "failed" and decision.stage == "schema-validate"
    assert "the pattern '^(a|aa)+$' took longer than" in decision.error
    assert Contract(schema).decide(READ, json.dumps({"code": "aaa"})).action == "passed"
    assert "does not match" in Contract(schema).decide(READ, json.dumps({"code": "b"})).error
    path = tmp_path / "s.json"
    path.write_text(json.dumps(schema))
    record = {"id": "redos", "messages": [{"role": "user", "content": "code?"}, {"role": "tool", "content": "{}"},
                                          {"role": "assistant", "content": json.dumps({"code": "a" * 40 + "!"})}]}
    (tmp_path / "t.jsonl").write_text(json.dumps(record) + "\n")
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "grounding", "check", "t.jsonl", "--schema", "s.json", "--format",
                           "json"], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    [answer] = json.loads(proc.stdout)["answers"]
    assert proc.returncode == 1 and answer["status"] == "contract-unmet" and "took longer" in answer["contract"]["error"]


def test_nan_is_no_json_and_passes_no_bound():
    """A NaN compares false with every bound: {"amount": NaN} passed maximum 10 (Python's parser takes it)."""
    bounded = Contract({"type": "object", "properties": {"amount": {"type": "number", "maximum": 10}}})
    for constant in ("NaN", "Infinity", "-Infinity"):
        decision = bounded.decide(READ, f'{{"amount": {constant}}}')
        assert (decision.stage, decision.error) == ("json-parse", f"not valid JSON: {constant} is not a JSON number")


@pytest.mark.parametrize(("schema", "says"), [
    ({"$ref": "#"}, "refers to itself with no end"),
    ({"type": "object", "properties": {"a": {"$ref": "https://example.com/amount.json"}}}, "is not read"),
    ({"type": "object", "properties": {"a": {"$ref": "amount.json"}}}, "refers only within itself"),
    ({"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}, "names nothing in the schema"),
])
def test_a_reference_that_would_fail_at_decide_is_refused_when_the_contract_is_built(schema, says):
    """A dict schema's remote or recursive $ref failed only at decide, with jsonschema's own exception."""
    with pytest.raises(OptionError, match=says):
        Contract(schema)


def test_a_schema_that_refers_to_itself_through_values_is_a_schema():
    node = {"$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
            "$ref": "#/$defs/node"}
    assert Contract(node).decide(READ, '{"next": {"next": {}}}').action == "passed"
    assert Contract(node).decide(READ, '{"next": {"next": 5}}').stage == "schema-validate"
