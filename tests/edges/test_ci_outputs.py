"""The CI gate as users of ruff, detect-secrets and gitleaks expect it: formats, config, baseline."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest
from conftest import REPO, openai_record
from typer.testing import CliRunner

from grounding.cli.app import app
from grounding.reporters import REPORTERS, OutputFormat

runner = CliRunner()
SUPPORT = str(REPO / "fixtures" / "support_bot.jsonl")


@pytest.fixture(autouse=True)
def _clean(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no configuration file above the test's folder
    for name in ("GITHUB_STEP_SUMMARY", "CI_PROJECT_DIR", "CI"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "120")


def invoke(*args):
    return runner.invoke(app, list(args), prog_name="ground")


def test_every_output_format_has_a_reporter():
    assert set(REPORTERS) == set(OutputFormat)


def test_sarif_validates_against_the_official_schema():
    schema = json.loads((REPO / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
    result = invoke("check", SUPPORT, str(REPO / "fixtures" / "malformed_line.jsonl"), "--format", "sarif")
    document = json.loads(result.stdout)
    jsonschema.validate(document, schema)
    results = document["runs"][0]["results"]
    unsupported = [r for r in results if r["ruleId"] == "GR001"]  # unsupported-value
    assert len(unsupported) == 4
    first = unsupported[0]
    assert first["locations"][0]["physicalLocation"]["region"]["startLine"] == 2
    assert first["locations"][0]["logicalLocations"][0]["fullyQualifiedName"].startswith("order-status-invented/turn/0/")


def test_sarif_fingerprints_are_stable_when_lines_move(tmp_path):
    lines = (REPO / "fixtures" / "support_bot.jsonl").read_text().splitlines()
    log = tmp_path / "log.jsonl"

    def prints(path):
        results = json.loads(invoke("check", str(path), "--format", "sarif").stdout)["runs"][0]["results"]
        return sorted(r["partialFingerprints"]["groundValue/v1"] for r in results)

    log.write_text("\n".join(lines) + "\n")
    before = prints(log)
    log.write_text("\n".join(["{}"] + list(reversed(lines))) + "\n")  # the same findings, on other lines
    assert prints(log) == before


def test_the_same_value_in_two_turns_or_two_files_has_two_fingerprints(tmp_path):
    record = {"id": "c", "messages": [
        {"role": "user", "content": "a"}, {"role": "assistant", "content": "ORD-77123"},
        {"role": "user", "content": "b"}, {"role": "assistant", "content": "ORD-77123"}]}
    for name in ("a.jsonl", "b.jsonl"):
        (tmp_path / name).write_text(json.dumps(record) + "\n")
    issues = json.loads(invoke("check", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"),
                               "--format", "gitlab").stdout)
    prints = [issue["fingerprint"] for issue in issues]
    assert len(prints) == 4 and len(set(prints)) == 4


def test_junit_has_one_unique_case_per_answer():
    result = invoke("check", SUPPORT, "--format", "junit")
    root = ElementTree.fromstring(result.stdout)
    cases = root.findall(".//testcase")
    assert len(cases) == 3 and len({(c.get("classname"), c.get("name")) for c in cases}) == 3
    assert root.get("failures") == "1"


def test_github_caps_annotations_and_writes_the_step_summary(tmp_path, monkeypatch):
    record = json.loads((REPO / "fixtures" / "support_bot.jsonl").read_text().splitlines()[1])
    record["messages"][-1]["content"] = " ".join(f"RMA-{40000 + i}" for i in range(14))
    path = tmp_path / "many.jsonl"
    path.write_text(json.dumps(record) + "\n")
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    result = invoke("check", str(path), "--format", "github")
    lines = result.stdout.splitlines()
    assert sum(line.startswith("::error ") for line in lines) == 10
    assert any(line.startswith("::notice title=ground::4 more errors") for line in lines)
    assert summary.read_text().count("| GR001 unsupported-value |") == 14


def test_github_escapes_properties_and_data():
    from grounding.reporters.github import _data, _property
    assert _property("a:b,c%") == "a%3Ab%2Cc%25" and _data("50%\n") == "50%25%0A"


def test_gitlab_paths_are_relative_to_the_project(monkeypatch):
    monkeypatch.setenv("CI_PROJECT_DIR", str(REPO))
    issues = json.loads(invoke("check", SUPPORT, "--format", "gitlab").stdout)
    assert {issue["location"]["path"] for issue in issues} == {"fixtures/support_bot.jsonl"}
    assert len({issue["fingerprint"] for issue in issues}) == len(issues)


def test_json_lines_is_one_answer_per_line():
    lines = invoke("check", SUPPORT, "--format", "json-lines").stdout.splitlines()
    assert [json.loads(line)["status"] for line in lines] == ["grounded", "flagged", "derived"]


def test_output_file_gets_the_report_and_the_terminal_the_summary(tmp_path):
    report = tmp_path / "report.json"
    result = invoke("check", SUPPORT, "--format", "json", "--output", str(report))
    assert json.loads(report.read_text())["summary"]["flagged"] == 1
    assert result.stdout.startswith("3 conversations") and "report written to" in result.stdout
    assert result.exit_code == 1


def test_statistics():
    result = invoke("check", SUPPORT, "--format", "concise", "--statistics")
    assert "unsupported values by shape:" in result.stdout and "  RMA-40213" in result.stdout  # as the answer wrote it


def test_every_value_is_shown_as_written_where_it_was_written():
    # the nearest read value as the tool wrote it (compared normalised), in the report and in the JSON
    shown = invoke("check", SUPPORT, "--explain").stdout
    assert "nearest: 1Z999AA10123456784 (distance 1)" in shown
    document = json.loads(invoke("check", SUPPORT, "--explain", "--format", "json").stdout)
    [flagged] = [a for a in document["answers"] if a["unsupported"]]
    assert [(n["value"], n["text"]) for f in flagged["unsupported"] for n in f.get("nearest", [])] == [
        ("1z999aa10123456784", "1Z999AA10123456784")]


def test_progress_never_reaches_stdout_and_is_off_without_a_terminal():
    result = invoke("check", SUPPORT, "--format", "json")
    json.loads(result.stdout)  # nothing but the report on stdout
    assert result.stderr == ""


# configuration ---------------------------------------------------------------------------------------


def test_pyproject_is_found_from_a_subfolder_and_the_cli_wins(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text('[tool.ground]\nexempt = ["RMA-40213"]\noutput-format = "concise"\n')
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    result = invoke("check", SUPPORT)
    assert "RMA-40213" not in result.stdout and "1Z999AA10123456785" in result.stdout
    assert ":2: GR001 conversation order-status-invented turn 0 1Z999AA10123456785" in result.stdout  # concise lines
    result = invoke("check", SUPPORT, "--format", "json")
    json.loads(result.stdout)


def test_ground_toml_wins_over_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.ground]\nmin-digits = 6\n')
    (tmp_path / "ground.toml").write_text('min-digits = 3\n')
    assert re.search(r"^min-digits += 3  # ", invoke("config").stdout, re.MULTILINE)


def test_config_shows_where_each_value_came_from(tmp_path):
    (tmp_path / "ground.toml").write_text('exempt-regex = ["build-\\\\d+"]\n')
    lines = invoke("config").stdout.splitlines()
    assert any(line.startswith("exempt-regex") and line.endswith("ground.toml") for line in lines)
    assert any(line.startswith("min-digits") and line.endswith("# default") for line in lines)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("min_digit = 3\n", "unknown key 'min_digit' in ground.toml; did you mean 'min-digits'?"),
        ('output-format = "jsn"\n', "key 'output-format' must be one of"),
        ("min-digits = 0\n", "key 'min-digits' must be a whole number of 1 or more"),
        ("exempt = 5\n", "key 'exempt' must be a list of strings"),
        ("[shapes]\nbad = '('\n", "ground.toml: key 'shapes': '(' is not a valid regular expression"),
        ("min-digits = \n", "not valid TOML"),
    ],
)
def test_bad_configuration_is_refused_naming_file_and_key(tmp_path, content, message):
    (tmp_path / "ground.toml").write_text(content)
    result = invoke("check", SUPPORT)
    assert result.exit_code == 2
    assert message in result.stderr


def test_config_option_names_a_file(tmp_path):
    named = tmp_path / "other.toml"
    named.write_text('exempt = ["RMA-40213", "1Z999AA10123456785"]\n')
    assert invoke("check", SUPPORT, "--config", str(named)).exit_code == 0
    assert invoke("check", SUPPORT, "--config", str(tmp_path / "missing.toml")).exit_code == 2


# baseline -----------------------------------------------------------------------------------------------


def test_baseline_reports_only_new_findings_and_stale_entries(tmp_path):
    baseline = tmp_path / "ground-baseline.json"
    assert invoke("check", SUPPORT, "--baseline", str(baseline), "--write-baseline").exit_code == 0
    entries = json.loads(baseline.read_text())["entries"]
    assert [e["value"] for e in entries] == ["1z999aa10123456785", "rma-40213"]
    assert [e["text"] for e in entries] == ["1Z999AA10123456785", "RMA-40213"]  # as written, for a reader
    assert invoke("check", SUPPORT, "--baseline", str(baseline)).exit_code == 0  # nothing new
    entries.append({"conversation": "gone", "turn": 0, "value": "ord-1", "source": SUPPORT})
    baseline.write_text(json.dumps({"entries": entries}))
    result = invoke("check", SUPPORT, "--baseline", str(baseline))
    assert result.exit_code == 0 and "1 baseline entry stale" in result.stderr
    assert invoke("check", SUPPORT, "--baseline", str(baseline), "--stale-baseline-fails").exit_code == 1


def test_only_entries_of_the_files_checked_can_be_stale(tmp_path):
    # a pre-commit run checks the files that changed: the entries of the others are not stale
    baseline = tmp_path / "ground-baseline.json"
    assert invoke("check", SUPPORT, "--baseline", str(baseline), "--write-baseline").exit_code == 0
    entries = json.loads(baseline.read_text())["entries"]
    entries.append({"conversation": "elsewhere", "turn": 0, "value": "ord-1", "source": "other/file.jsonl"})
    baseline.write_text(json.dumps({"entries": entries}))
    result = invoke("check", SUPPORT, "--baseline", str(baseline), "--stale-baseline-fails")
    assert result.exit_code == 0 and "stale" not in result.stderr


def test_write_baseline_writes_the_baseline_not_the_report(tmp_path):
    baseline = tmp_path / "b.json"
    result = invoke("check", SUPPORT, "--baseline", str(baseline), "--write-baseline")
    assert result.exit_code == 0 and "1Z999AA10123456785" not in result.stdout
    assert "wrote 2 baseline entries to" in result.stderr
    assert (result.stdout + result.stderr).count("3 conversations, 3 answers judged") == 1  # the summary once


def test_write_baseline_refuses_an_input_as_the_baseline(tmp_path):
    transcript = tmp_path / "t.jsonl"
    transcript.write_bytes(Path(SUPPORT).read_bytes())
    result = invoke("check", str(transcript), "--baseline", str(transcript), "--write-baseline")
    assert result.exit_code == 2 and "is one of the inputs" in result.stderr
    assert transcript.read_bytes() == Path(SUPPORT).read_bytes()


def test_a_new_invention_fails_despite_the_baseline(tmp_path):
    baseline = tmp_path / "b.json"
    baseline.write_text(json.dumps({"entries": [
        {"conversation": "order-status-invented", "turn": 0, "value": "rma-40213", "source": SUPPORT}]}))
    result = invoke("check", SUPPORT, "--baseline", str(baseline), "--format", "json")
    answer = json.loads(result.stdout)["answers"][1]
    assert [u["value"] for u in answer["unsupported"]] == ["1z999aa10123456785"] and result.exit_code == 1


def test_missing_or_broken_baseline_is_a_usage_error(tmp_path):
    assert invoke("check", SUPPORT, "--baseline", str(tmp_path / "none.json")).exit_code == 2
    (tmp_path / "bad.json").write_text("{}")
    assert invoke("check", SUPPORT, "--baseline", str(tmp_path / "bad.json")).exit_code == 2
    assert invoke("check", SUPPORT, "--write-baseline").exit_code == 2


def test_strict_turns_record_errors_into_exit_2():
    malformed = str(REPO / "fixtures" / "malformed_line.jsonl")
    assert invoke("check", malformed, "--exit-zero").exit_code == 0
    assert invoke("check", malformed, "--strict").exit_code == 2


def test_pre_commit_hook_is_declared_for_transcripts_only_and_runs_serially():
    import re

    text = (REPO / ".pre-commit-hooks.yaml").read_text()
    assert "id: ground" in text and "entry: ground check" in text and "require_serial: true" in text
    pattern = re.search(r"^  files: (.+)$", text, re.MULTILINE).group(1)
    matches = [name for name in ["package.json", "tsconfig.json", "runs.jsonl", "traces.ndjson", "a.jsonl.gz",
                                 "b.jsonl.zst", "notes.md", "x.jsonl.bak"] if re.search(pattern, name)]
    assert matches == ["runs.jsonl", "traces.ndjson", "a.jsonl.gz", "b.jsonl.zst"]


# explain ----------------------------------------------------------------------------------------------


def test_explain_names_where_each_value_was_read_and_the_nearest_for_an_invention():
    result = invoke("explain", str(REPO / "fixtures" / "storage_anthropic.jsonl"), "--conversation",
                    "storage-port-anthropic")
    assert result.exit_code == 0
    lines = [line.strip() for line in result.stdout.splitlines()]
    assert "fc1/3 (identifier) — grounded: line 1, item 3 (tool result of show_interface_counters) at /interfaces/0/port" in lines
    assert "fc1/9 (identifier) — grounded: line 1, item 4 (exempt: user or system text)" in lines
    assert any(line.startswith("ef0301 (identifier) — not found; nearest: ef0101 (distance 1)") for line in lines)


def test_explain_filters_by_turn_and_value_and_speaks_json():
    result = invoke("explain", SUPPORT, "--conversation", "refund-arithmetic", "--turn", "0", "--value", "$889.50",
                    "--format", "json")
    document = json.loads(result.stdout)
    assert document["values"] == [{"value": "889.5", "shape": "number", "text": "$889.50", "status": "derived",
                                   "sources": [], "detail": "889.5 = 318 + 571.5 (total of 'price' over 2 items)"}]


def test_explain_places_a_value_read_as_written(tmp_path):
    record = openai_record("Revenue was $8.7B in 2024", answer="Revenue: $8.7B.")
    (tmp_path / "t.jsonl").write_text(json.dumps(record) + "\n")
    result = invoke("explain", str(tmp_path / "t.jsonl"), "--conversation", "test")
    assert "$8.7B (number) — verbatim: line 1, item 2 (tool result of lookup)" in result.stdout


def test_explain_places_the_id_of_a_composed_reference(tmp_path):
    record = openai_record({"id": "ORD-4471"}, answer="Created Order/ORD-4471.", system="Resources: Order.")
    (tmp_path / "t.jsonl").write_text(json.dumps(record) + "\n")
    result = invoke("explain", str(tmp_path / "t.jsonl"), "--conversation", "test")
    assert "Order/ORD-4471 (identifier) — reference: line 1, item 3 (tool result of lookup) at /id" in result.stdout


def test_explain_an_unknown_conversation_is_a_usage_error():
    assert invoke("explain", SUPPORT, "--conversation", "nope").exit_code == 2


def test_check_explain_puts_provenance_in_the_json():
    answers = json.loads(invoke("check", SUPPORT, "--format", "json", "--explain").stdout)["answers"]
    flagged = answers[1]["explain"]
    assert [e["status"] for e in flagged] == ["grounded", "unsupported", "unsupported"]
    assert flagged[0]["sources"] == ["line 2, item 0 (exempt: user or system text)", "line 2, item 2 (tool result of get_order) at /order_id"]


def test_quiet_drops_the_summary_and_no_progress_is_accepted():
    result = invoke("check", SUPPORT, "--quiet", "--no-progress")
    assert "conversations" not in result.stdout and "1Z999AA10123456785" in result.stdout


def test_progress_shows_only_on_an_interactive_stderr(monkeypatch):
    from grounding.cli.progress import Progress
    monkeypatch.setenv("CI", "true")
    assert not Progress.start(enabled=True).shown


def test_formats_lists_every_reader_in_detection_order():
    from grounding.transcripts.formats import FORMAT_NAMES
    lines = invoke("formats").stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(FORMAT_NAMES)


def test_max_record_bytes_on_the_command_line(tmp_path):
    result = invoke("check", SUPPORT, "--max-record-bytes", "100", "--format", "json")
    document = json.loads(result.stdout)
    assert document["summary"]["errors"] == 3 and result.exit_code == 2


def test_jobs_give_the_same_output_in_the_same_order():
    corpus = REPO.parent / "shared" / "corpus" / "real" / "dev.jsonl"
    path = str(corpus) if corpus.exists() else SUPPORT
    one = invoke("check", path, "--format", "json", "--jobs", "1")
    two = invoke("check", path, "--format", "json", "--jobs", "2")
    assert one.stdout == two.stdout and one.exit_code == two.exit_code


def test_fail_on_unjudgeable(tmp_path):
    record = {"previous_response_id": "resp_1", "input": [], "output": [
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ORD-12345"}]}]}
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(record) + "\n")
    assert invoke("check", str(path)).exit_code == 0
    assert invoke("check", str(path), "--fail-on-unjudgeable").exit_code == 1


def test_a_baseline_entry_of_one_file_does_not_suppress_the_same_finding_in_another(tmp_path):
    other = tmp_path / "other.jsonl"
    other.write_bytes(Path(SUPPORT).read_bytes())
    baseline = tmp_path / "b.json"
    assert invoke("check", SUPPORT, "--baseline", str(baseline), "--write-baseline").exit_code == 0
    assert invoke("check", SUPPORT, "--baseline", str(baseline)).exit_code == 0
    assert invoke("check", str(other), "--baseline", str(baseline)).exit_code == 1  # same ids, another file


def test_sarif_is_written_as_answers_are_judged_and_reads_as_one_document():
    import io

    import grounding
    from grounding.model import Summary
    from grounding.reporters.sarif import SarifReporter

    line = next(line for line in (REPO / "fixtures" / "support_bot.jsonl").read_text().splitlines() if "RMA-40213" in line)
    flagged = [answer for answer in grounding.check(line) if answer.verdict.unsupported]
    out = io.StringIO()
    reporter = SarifReporter(out, io.StringIO())
    for _ in range(200):  # 400 results: more than a batch, so some are out before the run ends
        for answer in flagged:
            reporter.answer(answer)
    assert out.getvalue().count('"ruleId"') >= 256  # memory does not grow with the input
    reporter.finish(Summary())
    document = json.loads(out.getvalue())
    assert len(document["runs"][0]["results"]) == 200 * sum(len(a.verdict.unsupported) for a in flagged)


# --- versioned outputs --------------------------------------------------------------------------------------


def _schema(name: str) -> dict:
    from importlib.resources import files

    return json.loads(files("grounding").joinpath("schemas", name).read_text(encoding="utf-8"))


def test_every_golden_json_report_is_valid_under_the_shipped_schema():
    import jsonschema

    validator = jsonschema.Draft202012Validator(_schema("report.schema.json"))
    goldens = sorted((REPO / "tests" / "golden").glob("*.json"))
    assert len(goldens) >= 9
    for golden in goldens:
        document = json.loads(golden.read_text().split("--- stdout\n", 1)[1].split("\n--- stderr", 1)[0])
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]
        assert not errors, (golden.name, errors)
        assert document["schema_version"] == 2


def test_an_explained_report_with_every_optional_field_is_valid_under_the_schema(tmp_path):
    import jsonschema

    proc = subprocess.run([sys.executable, "-m", "grounding", "check", *sorted(map(str, (REPO / "fixtures").glob("*.jsonl"))),
                           "--format", "json", "--explain", "--exit-zero"], capture_output=True, text=True, cwd=REPO)
    document = json.loads(proc.stdout)
    assert any("explain" in answer for answer in document["answers"]) and document["errors"]
    jsonschema.validate(document, _schema("report.schema.json"), cls=jsonschema.Draft202012Validator)


def test_the_shipped_config_schema_is_the_option_tables():
    from grounding.options.table import config_schema

    assert _schema("config.schema.json") == json.loads(json.dumps(config_schema()))


def test_the_config_schema_accepts_a_real_configuration_and_refuses_a_bad_one():
    import tomllib

    import jsonschema

    good = tomllib.loads('min-digits = 5\nexempt = ["v2"]\noutput-format = "concise"\n[shapes]\norder = "ord-\\\\d+"\n')
    jsonschema.validate(good, _schema("config.schema.json"))
    for bad in ({"min-digits": 0}, {"output-format": "xml"}, {"exempt": "v2"}, {"min_digit": 4}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, _schema("config.schema.json"))


def test_a_baseline_of_another_schema_version_is_refused_by_name(tmp_path):
    baseline = tmp_path / "b.json"
    baseline.write_text(json.dumps({"tool": "ground", "schema_version": 2, "version": "9.0", "entries": []}))
    proc = subprocess.run([sys.executable, "-m", "grounding", "check", str(REPO / "fixtures" / "support_bot.jsonl"),
                           "--baseline", str(baseline)], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2 and "schema_version 2" in proc.stderr and "--write-baseline" in proc.stderr


def test_explain_a_value_without_a_conversation_searches_every_answer():
    result = invoke("explain", SUPPORT, "--value", "$889.50")
    assert result.exit_code == 0
    assert "conversation refund-arithmetic turn 0: derived" in result.stdout and "$889.50 (number)" in result.stdout
    assert invoke("explain", SUPPORT, "--value", "$1.00").exit_code == 2  # written by no answer
    assert invoke("explain", SUPPORT, "--turn", "0").exit_code == 2  # a turn needs its conversation


def test_config_writes_an_unset_key_as_one_comment():
    lines = invoke("config").stdout.splitlines()
    assert "# output is not set (default)" in lines


def test_the_html_report_is_not_dumped_on_a_terminal(monkeypatch, tmp_path):
    from grounding.cli import commands as cli_app

    monkeypatch.setattr(cli_app, "_is_terminal", lambda stream: True)
    result = invoke("check", SUPPORT, "--format", "html")
    assert result.exit_code == 2 and "give -o report.html" in result.stderr
    report = tmp_path / "report.html"
    assert invoke("check", SUPPORT, "--format", "html", "-o", str(report)).exit_code == 1  # to a file: written
    assert report.read_text().startswith("<!doctype html>")


def test_explain_and_html_reports_are_the_same_whatever_the_hash_seed(tmp_path):
    """A composite's parts are a set: the snippet shown was the one around whichever part the set gave first,
    which changed with PYTHONHASHSEED from one run to the next. It is the text around the first place read."""
    record = openai_record("G159 departs 08:00, first class 1060 yuan. " + "Other services and fares. " * 6
                           + "G153 departs 09:00, second class 662 yuan.", answer="Take G153/G159 to Shanghai.")
    path = tmp_path / "trains.jsonl"
    path.write_text(json.dumps(record) + "\n")
    reports = set()
    for seed in range(8):
        for output in ("json", "html"):
            report = tmp_path / f"{seed}.{output}"
            proc = subprocess.run([sys.executable, "-m", "grounding", "check", str(path), "--format", output,
                                   "--explain", "-o", str(report)], capture_output=True, text=True, cwd=REPO, check=False,
                                  env={**os.environ, "PYTHONHASHSEED": str(seed)})
            assert proc.returncode == 0, proc.stderr
            reports.add((output, report.read_text()))
    assert len(reports) == 2
    explained = json.loads(next(text for output, text in reports if output == "json"))["answers"][0]["explain"]
    assert explained[0]["status"] == "composite" and explained[0]["snippets"][0].startswith("G159 departs 08:00")
