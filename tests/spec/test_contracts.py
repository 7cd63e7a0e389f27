"""Output contracts: the answer's shape is judged before its values (the seeds' output-schema contract)."""

import json

import pytest
from conftest import REPO
from typer.testing import CliRunner

from grounding.cli.app import app

runner = CliRunner()
FIXTURE = str(REPO / "fixtures" / "contracts.jsonl")
SCHEMA = str(REPO / "fixtures" / "refund.schema.json")


def answers(*extra):
    result = runner.invoke(app, ["check", FIXTURE, "--schema", SCHEMA, "--format", "json", *extra])
    document = json.loads(result.stdout)
    return {a["conversation"]: a for a in document["answers"]}, document["summary"], result.exit_code


def test_each_stage_and_outcome():
    found, summary, code = answers()
    assert found["passes"]["status"] == "grounded"
    assert found["passes"]["contract"] == {"stage": None, "error": None, "attempts": [
        {"attempt": 1, "outcome": "passed", "stage": None, "error": None}]}
    assert found["json-parse"]["status"] == "contract-unmet"
    assert found["json-parse"]["contract"]["stage"] == "json-parse"
    assert found["schema-validate"]["contract"]["stage"] == "schema-validate"
    assert (summary["contract_unmet"], summary["truncated"], summary["refused"]) == (4, 1, 1)
    assert code == 1


def test_validator_messages_are_quoted_verbatim_with_the_pointer():
    found, _, _ = answers()
    assert found["schema-validate"]["contract"]["error"] == "/refund: '318 USD' is not of type 'number'"


def test_composition_a_contract_unmet_answer_is_reported_once_and_not_judged_for_evidence():
    found, _, _ = answers()
    unmet = found["unmet-with-invented-id"]
    assert unmet["status"] == "contract-unmet" and unmet["unsupported"] == [] and unmet["candidates"] == 0
    assert found["passes-with-invented-id"]["status"] == "flagged"  # the contract held: the values are judged
    assert [u["value"] for u in found["passes-with-invented-id"]["unsupported"]] == ["ord-55129"]


@pytest.mark.parametrize(
    ("conversation", "outcomes"),
    [
        ("passes", ["passed"]),
        ("reask-then-passes", ["retried", "passed"]),
        ("reask-exhausted", ["retried", "retried", "exhausted"]),
    ],
)
def test_re_ask_chains_are_one_answer_with_attempts(conversation, outcomes):
    found, _, _ = answers()
    assert found[conversation]["turn"] == 0
    assert [a["outcome"] for a in found[conversation]["contract"]["attempts"]] == outcomes


def test_a_fenced_answer_fails_json_parse():
    found, _, _ = answers()
    last = found["reask-exhausted"]["contract"]["attempts"][-1]
    assert last["stage"] == "json-parse"


def test_a_stop_is_not_an_answer_even_when_its_text_parses():
    found, _, _ = answers()
    assert found["truncated"]["status"] == "truncated" and "length" in found["truncated"]["reason"]
    assert found["refused"]["status"] == "refused"


def test_contract_warn_only_reports_without_failing():
    found, summary, code = answers("--contract-warn-only", "--exempt", "ORD-55129")
    assert summary["contract_unmet"] == 4 and code == 0


def test_schema_for_picks_a_contract_by_conversation_id(tmp_path):
    loose = tmp_path / "loose.json"
    loose.write_text(json.dumps({"type": "object"}))
    result = runner.invoke(app, ["check", FIXTURE, "--schema", SCHEMA, "--schema-for", f"schema-*={loose}",
                                 "--format", "json"])
    found = {a["conversation"]: a for a in json.loads(result.stdout)["answers"]}
    assert found["schema-validate"]["status"] == "grounded"  # the loose schema applies to it
    assert found["json-parse"]["status"] == "contract-unmet"  # the default schema still applies here


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--schema", "missing.json"], "--schema: missing.json: No such file"),
        (["--schema-for", "nofile"], "--schema-for: 'nofile' needs the form GLOB=FILE"),
    ],
)
def test_bad_schema_options_are_refused_before_input(args, message):
    result = runner.invoke(app, ["check", FIXTURE, *args])
    assert result.exit_code == 2 and message in result.stderr


def test_an_invalid_schema_is_refused(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"type": "nonsense"}))
    result = runner.invoke(app, ["check", FIXTURE, "--schema", str(bad)])
    assert result.exit_code == 2 and "not a valid JSON Schema" in result.stderr


def test_contract_findings_reach_the_ci_formats():
    result = runner.invoke(app, ["check", FIXTURE, "--schema", SCHEMA, "--format", "sarif"])
    rules = {r["ruleId"] for r in json.loads(result.stdout)["runs"][0]["results"]}
    assert {"GR002", "GR004", "GR005", "GR001"} <= rules  # contract-unmet, truncated, refused, unsupported-value


def test_evidence_re_asks_report_whether_the_revision_grounded_the_values(tmp_path):
    record = {"id": "recheck", "messages": [
        {"role": "user", "content": "Port?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c", "content": '{"fcid": "0xef0101"}'},
        {"role": "assistant", "content": "FCID 0xef0199"},
        {"role": "user", "content": "[evidence check] 0xef0199 appears in no tool result; check it."},
        {"role": "assistant", "content": "FCID 0xef0101"}]}
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(record) + "\n")
    document = json.loads(runner.invoke(app, ["check", str(path), "--format", "json"]).stdout)
    assert document["answers"][1]["evidence_recheck"] == {"values_named": ["0xef0199"], "after_revision": True}


def _ledger_record(tmp_path, result, answer="Done: ORD-55120 refunded."):
    record = {"id": "ledger", "messages": [
        {"role": "user", "content": "Refund ORD-55120"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "refund_order", "arguments": "{}"}}]},
        *([{"role": "tool", "tool_call_id": "c1", "content": result}] if result is not None else []),
        {"role": "assistant", "content": answer}]}
    path = tmp_path / "ledger.jsonl"
    path.write_text(json.dumps(record) + "\n")
    return str(path)


@pytest.mark.parametrize(
    ("result", "status", "outcome"),
    [
        ('{"refunded": "ORD-55120"}', "grounded", None),  # ok
        ('{"error": "card expired"}', "contract-unmet", "refund_order: error"),
        (None, "contract-unmet", "refund_order: not-run"),
    ],
)
def test_require_tool_classifies_each_call(tmp_path, result, status, outcome):
    path = _ledger_record(tmp_path, result)
    document = json.loads(runner.invoke(app, ["check", path, "--require-tool", "refund_order",
                                              "--format", "json"]).stdout)
    answer = document["answers"][0]
    assert answer["status"] == status
    if outcome:
        assert answer["contract"]["stage"] == "tool-ledger" and outcome in answer["contract"]["error"]


def test_code_needs_execution(tmp_path):
    with_code = _ledger_record(tmp_path, '{"refunded": "ORD-55120"}', answer="Run:\n```\nrefund ORD-55120\n```")
    result = runner.invoke(app, ["check", with_code, "--code-needs-execution", "python", "--format", "json"])
    assert json.loads(result.stdout)["answers"][0]["status"] == "contract-unmet" and result.exit_code == 1
    result = runner.invoke(app, ["check", with_code, "--code-needs-execution", "refund_order", "--format", "json"])
    assert json.loads(result.stdout)["answers"][0]["status"] == "grounded"


def test_the_ledger_fixture_shows_an_error_call_and_unexecuted_code():
    path = str(REPO / "fixtures" / "tool_ledger.jsonl")
    result = runner.invoke(app, ["check", path, "--require-tool", "refund_order", "--code-needs-execution", "python",
                                 "--format", "json"])
    contract = json.loads(result.stdout)["answers"][0]["contract"]
    assert contract["stage"] == "tool-ledger"
    assert "refund_order, python (the answer presents code)" in contract["error"]
    assert "get_order: ok, refund_order: error" in contract["error"]


def test_draft_07_schemas_are_read(tmp_path):
    schema = tmp_path / "d7.json"
    schema.write_text(json.dumps({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                                  "required": ["order_id"], "properties": {"order_id": {"type": "string"}}}))
    result = runner.invoke(app, ["check", FIXTURE, "--schema", str(schema), "--format", "json"])
    found = {a["conversation"]: a for a in json.loads(result.stdout)["answers"]}
    assert found["passes"]["status"] == "grounded"
    assert found["reask-exhausted"]["contract"]["attempts"][1]["error"] == "/: 'order_id' is a required property"


def test_explain_says_why_an_answer_was_not_judged(tmp_path):
    (tmp_path / "ground.toml").write_text(f'schema = "{SCHEMA}"\n')
    import os
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = runner.invoke(app, ["explain", FIXTURE, "--conversation", "json-parse"])
    finally:
        os.chdir(cwd)
    assert "not judged for evidence: contract unmet at json-parse" in result.stdout


def test_a_schema_reads_references_in_its_own_folder_only(tmp_path):
    (tmp_path / "order.json").write_text(json.dumps({"type": "string", "pattern": "^ORD-"}))
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({"type": "object", "properties": {"order_id": {"$ref": "order.json"}},
                                  "required": ["order_id"]}))
    record = {"id": "c", "messages": [{"role": "user", "content": "?"},
                                      {"role": "assistant", "content": '{"order_id": "X-1"}'}]}
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(record) + "\n")
    result = runner.invoke(app, ["check", str(path), "--schema", str(schema), "--format", "json"])
    assert json.loads(result.stdout)["answers"][0]["status"] == "contract-unmet"  # the local reference was read
    for reference in ("http://127.0.0.1:9/r.json", "file:///etc/passwd", "../outside.json"):
        schema.write_text(json.dumps({"properties": {"order_id": {"$ref": reference}}}))
        result = runner.invoke(app, ["check", str(path), "--schema", str(schema)])
        assert result.exit_code == 2 and "is not read: only files in the schema's own folder" in result.stderr
