"""What a new user meets in the first ten minutes: exit codes that mean what they say, output that is not
garbled, reports that never destroy an input (issue 22)."""

from __future__ import annotations

import gzip
import json
import os
import pty
import select
import subprocess
import sys
import time

import pytest
from conftest import REPO, openai_record
from typer.testing import CliRunner

from grounding.cli.app import app

runner = CliRunner()
SUPPORT = str(REPO / "fixtures" / "support_bot.jsonl")


def invoke(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


# a run that judges nothing fails -------------------------------------------------------------------------


@pytest.mark.parametrize("make", ["empty file", "empty folder", "folder of other files", "wrong format",
                                  "response files"])
def test_a_run_that_judges_no_answer_exits_2_and_says_why(tmp_path, make):
    if make == "empty file":
        (tmp_path / "a.jsonl").write_text("")
        args = [str(tmp_path / "a.jsonl")]
    elif make == "empty folder":
        args = [str(tmp_path)]
    elif make == "folder of other files":
        (tmp_path / "notes.txt").write_text("hello")
        args = [str(tmp_path)]
    elif make == "wrong format":
        args = [SUPPORT, "--input-format", "gemini"]
    else:  # an API response alone holds no conversation
        (tmp_path / "r.json").write_text(json.dumps(
            {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude",
             "content": [{"type": "text", "text": "Order ORD-55120 shipped."}], "stop_reason": "end_turn"}))
        args = [str(tmp_path)]
    result = invoke("check", *args)
    assert result.exit_code == 2, result.output
    if make == "response files":  # not one record could be read: an error, whatever --allow-empty says
        assert "an API response" in result.stderr
        return
    assert "no answer judged" in result.stderr and "ground formats" in result.stderr
    assert invoke("check", *args, "--allow-empty").exit_code == 0


def test_empty_standard_input_exits_2_and_allow_empty_comes_from_the_configuration(tmp_path, monkeypatch):
    assert invoke("check", "-", stdin="").exit_code == 2
    (tmp_path / "ground.toml").write_text("allow-empty = true\n")
    monkeypatch.chdir(tmp_path)
    assert invoke("check", "-", stdin="").exit_code == 0


# -o never destroys anything -----------------------------------------------------------------------------


def test_an_output_that_is_an_input_is_refused_before_anything_is_written(tmp_path):
    transcript = tmp_path / "t.jsonl"
    original = (REPO / "fixtures" / "support_bot.jsonl").read_bytes()
    transcript.write_bytes(original)
    for target in (str(transcript), str(tmp_path / "." / "t.jsonl")):
        result = invoke("check", str(tmp_path), "-o", target)
        assert result.exit_code == 2 and "is one of the inputs" in result.stderr
        assert transcript.read_bytes() == original


@pytest.mark.parametrize("where", ["missing folder", "a folder"])
def test_a_bad_output_path_is_a_usage_error_naming_it(tmp_path, where):
    target = tmp_path / "no" / "such" / "report.json" if where == "missing folder" else tmp_path
    result = invoke("check", SUPPORT, "-o", str(target))
    assert result.exit_code == 2 and str(target) in result.stderr and "Traceback" not in result.output


def test_a_report_is_written_whole_and_replaces_the_old_one(tmp_path):
    report = tmp_path / "report.json"
    report.write_text("old")
    result = invoke("check", SUPPORT, "--format", "json", "-o", str(report))
    assert result.exit_code == 1
    assert json.loads(report.read_text())["summary"]["answers"] == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


# the summary says why a run fails -----------------------------------------------------------------------


@pytest.mark.parametrize(("option", "status"), [("--fail-on-derived", "derived"),
                                                ("--fail-on-example", "derived")])
def test_an_option_that_fails_the_run_names_the_answers_and_itself(tmp_path, option, status):
    path = tmp_path / "t.jsonl"
    # only the derived answer of the fixture: nothing is flagged, the run fails by the option alone
    path.write_text((REPO / "fixtures" / "support_bot.jsonl").read_text().splitlines()[2] + "\n")
    result = invoke("check", str(path), option)
    assert result.exit_code == 1
    assert f"conversation refund-arithmetic turn 0: {status}" in result.stdout
    assert f"fails the run: {option}" in result.stdout
    assert "0 answers flagged" in result.stdout and "the run fails: " in result.stdout and option in result.stdout


def test_fail_on_unjudgeable_names_the_answer(tmp_path):
    path = tmp_path / "t.jsonl"
    record = {"object": "trace.span", "id": "span_1", "trace_id": "trace_1", "parent_id": None,
              "started_at": "2026-01-01T00:00:00Z", "ended_at": "2026-01-01T00:00:01Z",
              "span_data": {"type": "response", "response_id": "resp_1"}}
    path.write_text(json.dumps(record) + "\n")
    result = invoke("check", str(path), "--fail-on-unjudgeable")
    if result.exit_code == 2:  # no answer at all in such a trace: then the option has nothing to say
        pytest.skip("the trace holds no answer")
    assert result.exit_code == 1 and "unjudgeable" in result.stdout
    assert "--fail-on-unjudgeable" in result.stdout


# the progress display never shares a line with the report ----------------------------------------------


def _run_in_a_terminal(args: list[str], seconds: float = 60) -> str:
    """Run ground with standard output and error on one pseudo-terminal, as a user's shell does."""
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GROUND_NO_PROGRESS", "NO_COLOR")}
    env["TERM"] = "xterm-256color"
    env["COLUMNS"] = "200"
    proc = subprocess.Popen([sys.executable, "-m", "grounding", *args], stdin=subprocess.DEVNULL,
                            stdout=follower, stderr=follower, env=env, close_fds=True)
    os.close(follower)
    chunks = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.5)
        if ready:
            try:
                data = os.read(leader, 65536)
            except OSError:  # the terminal closed: the process is done
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    proc.wait(timeout=10)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def _screen_lines(output: str) -> list[str]:
    """What stays on screen: each line as a terminal shows it, carriage returns and erases (ESC [ K) done."""
    shown = []
    for raw in _strip_styles(output).replace("\r\n", "\n").split("\n"):
        line, cursor, at = "", 0, 0
        while at < len(raw):
            if raw.startswith("\x1b[K", at):
                line, at = line[:cursor], at + 3
                continue
            char = raw[at]
            if char == "\r":
                cursor = 0
            else:
                line = line[:cursor] + char + line[cursor + 1:]
                cursor += 1
            at += 1
        shown.append(line)
    return shown


def _strip_styles(text: str) -> str:
    import re
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_progress_never_shares_a_line_with_the_report_in_a_terminal(tmp_path):
    path = tmp_path / "many.jsonl"
    lines = (REPO / "fixtures" / "support_bot.jsonl").read_text().splitlines()
    with path.open("w") as stream:
        for copy in range(3000):
            record = json.loads(lines[1])
            record["id"] = f"conversation-{copy}"
            stream.write(json.dumps(record) + "\n")
    output = _run_in_a_terminal(["check", str(path)])
    screen = [line for line in _screen_lines(output) if line.strip()]
    assert screen, output[:500]
    spinner = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
    for line in screen:
        assert not any(mark in line for mark in spinner) and "reading" not in line, line
        assert line.startswith((str(path), "  ", "3000 conversations")), line


class _Terminal:
    """An interactive terminal that keeps what is written to it."""

    def __init__(self):
        self.written = []

    def isatty(self):
        return True

    def write(self, text):
        self.written.append(text)

    def flush(self):
        pass


def test_progress_is_drawn_on_a_terminal_and_is_a_bar_for_a_file_of_known_size(tmp_path):
    from grounding.cli.progress import Progress

    terminal = _Terminal()
    progress = Progress(terminal, total_bytes=1000)
    line = progress.line(progress._started + 1)
    assert "0 B of 1.0 kB" in line and "left" in line
    spinner = Progress(terminal, total_bytes=None).line(time.monotonic())
    assert "reading" in spinner and "left" not in spinner
    guarded = progress.guard(terminal)
    progress._draw(time.monotonic())
    guarded.write("a report line\n")
    assert terminal.written[-2] == "\r\x1b[K" and terminal.written[-1] == "a report line\n"


def test_a_progress_line_too_wide_for_the_terminal_loses_whole_fields(monkeypatch):
    import os

    from grounding.cli.progress import Progress

    terminal = _Terminal()
    progress = Progress(terminal, total_bytes=52_400_000)
    progress._bytes = 46_700_000
    monkeypatch.setattr("shutil.get_terminal_size", lambda fallback: os.terminal_size((80, 24)))
    progress._draw(progress._started + 2)
    drawn = terminal.written[-1].removeprefix("\r\x1b[K")
    assert len(drawn) <= 79 and drawn.endswith(("left", "MB/s")), drawn  # never "0:00:00 lef"


def test_compressed_inputs_show_a_spinner_not_a_bar(tmp_path):
    from grounding.transcripts.files import known_size

    plain = tmp_path / "a.jsonl"
    plain.write_text("{}\n")
    packed = tmp_path / "b.jsonl.gz"
    packed.write_bytes(gzip.compress(b"{}\n"))
    assert known_size([str(plain)]) == 3
    assert known_size([str(plain), str(packed)]) is None
    assert known_size(["-"]) is None


def test_openai_record_helper_is_judged():  # the helper the tests above build on
    record = openai_record({"order": "ORD-55120"}, answer="Order ORD-55120 shipped.")
    result = invoke("check", "-", stdin=json.dumps(record) + "\n")
    assert result.exit_code == 0


# values are shown as written, without the sentence's punctuation, at the right place --------------------


def test_values_are_shown_without_the_punctuation_that_ends_the_sentence():
    record = openai_record({"status": "ok"}, answer="Shipped with tracking 1Z999AA10123456785. Refund: $1,207.50. "
                                                    "Version v9.35.0.")
    result = invoke("check", "-", "--format", "json", stdin=json.dumps(record) + "\n")
    texts = [u["text"] for u in json.loads(result.stdout)["answers"][0]["unsupported"]]
    assert texts == ["1Z999AA10123456785", "$1,207.50", "v9.35.0"]
    full = invoke("check", "-", stdin=json.dumps(record) + "\n").stdout
    assert "unsupported-value 1Z999AA10123456785 (identifier)" in full
    assert "unsupported-value v9.35.0 (identifier)" in full


def test_the_value_is_highlighted_where_it_stands_not_inside_a_longer_token():
    from grounding.core.answer.candidates import read_answer
    from grounding.core.settings import Settings
    from grounding.model import Finding
    from grounding.reporters.full import _in_context

    text = "Host spotter-gqc.1 is up; the pool gqc.1: degraded."
    candidate = next(c for c in read_answer(text, Settings()).candidates if c.value == "gqc.1")
    assert candidate.text == "gqc.1"
    parts = _in_context(text, Finding(candidate.value, candidate.shape, candidate.text, at=candidate.at), "red")
    before, (highlighted, _), after = parts
    assert highlighted == "gqc.1" and before.endswith("the pool ") and after.startswith(": degraded")


def test_dates_and_times_are_labelled_so_in_human_reports_and_the_json_keeps_the_spec_shape():
    record = openai_record({"status": "ok"}, answer="It ran on 2026-03-14 at 14:35 on host ab-1234.")
    full = invoke("check", "-", stdin=json.dumps(record) + "\n").stdout
    assert "unsupported-value 2026-03-14 (date)" in full and "unsupported-value 14:35 (time)" in full
    assert "unsupported-value ab-1234 (identifier)" in full
    answer = json.loads(invoke("check", "-", "--format", "json", stdin=json.dumps(record) + "\n").stdout)["answers"][0]
    assert {u["shape"] for u in answer["unsupported"]} == {"identifier"}  # SPEC §4: the contract's shape


# an answer is reported at its own line ------------------------------------------------------------------


def _claude_code_session() -> list[dict]:
    session = {"sessionId": "s-1", "cwd": "/w", "version": "2.1.38"}
    return [
        {"type": "user", **session, "uuid": "u1", "parentUuid": None,
         "message": {"role": "user", "content": "Which order shipped?"}},
        {"type": "assistant", **session, "uuid": "a1", "parentUuid": "u1",
         "message": {"id": "m1", "role": "assistant", "content": [
             {"type": "tool_use", "id": "t1", "name": "orders", "input": {}}]}},
        {"type": "user", **session, "uuid": "u2", "parentUuid": "a1",
         "message": {"role": "user", "content": [
             {"type": "tool_result", "tool_use_id": "t1", "content": "ORD-55120 shipped"}]}},
        {"type": "assistant", **session, "uuid": "a2", "parentUuid": "u2",
         "message": {"id": "m2", "role": "assistant", "content": [{"type": "text", "text": "ORD-55120 shipped."}]}},
        {"type": "assistant", **session, "uuid": "a3", "parentUuid": "a2",
         "message": {"id": "m2", "role": "assistant", "content": [{"type": "text", "text": "Also ORD-99999."}]}},
    ]


def test_a_claude_code_answer_is_reported_at_the_line_of_its_record(tmp_path):
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in _claude_code_session()))
    result = invoke("check", str(path), "--format", "concise")
    assert f"{path}:4: GR001 conversation s-1 turn 0 ORD-99999 (identifier)" in result.stdout


# rule codes, --select / --ignore, errors capped per file ------------------------------------------------


def test_every_finding_format_names_the_rule_by_its_code():
    for output_format, mark in [("full", "GR001 unsupported-value"), ("concise", ": GR001 conversation"),
                                ("github", "title=ground GR001 (unsupported-value)"),
                                ("gitlab", '"check_name": "GR001 unsupported-value"'),
                                ("sarif", '"ruleId": "GR001"'), ("junit", "GR001 2 values appear")]:
        assert mark in invoke("check", SUPPORT, "--format", output_format).stdout, output_format


def test_ignoring_a_rule_neither_reports_nor_fails_on_it():
    result = invoke("check", SUPPORT, "--ignore", "GR001")
    assert result.exit_code == 0 and "unsupported-value" not in result.stdout
    assert invoke("check", SUPPORT, "--select", "GR007", "--format", "concise").stdout.count("GR001") == 0
    ignored = ("--ignore", "derived-value", "--ignore", "GR001")
    assert invoke("check", SUPPORT, "--fail-on-derived", *ignored).exit_code == 0
    assert invoke("check", SUPPORT, "--select", "GR0").exit_code == 1  # a prefix selects every rule it begins


def test_a_rule_that_does_not_exist_is_a_usage_error_with_a_suggestion():
    result = invoke("check", SUPPORT, "--ignore", "unsuported-value")
    assert result.exit_code == 2 and "did you mean unsupported-value" in result.stderr


def test_errors_are_capped_per_file_with_a_hint(tmp_path):
    path = tmp_path / "other.jsonl"
    path.write_text("".join(json.dumps({"event": "x", "n": n}) + "\n" for n in range(40)))
    result = invoke("check", str(path), "--allow-empty")
    assert result.stderr.count("error:") == 11
    assert "and 30 more records that could not be read" in result.stderr and "ground formats" in result.stderr


# every compression, container and way in ----------------------------------------------------------------


def _compress(data: bytes, compression: str) -> bytes:
    import zstandard

    if compression == "gz":
        return gzip.compress(data)
    if compression == "zst":
        return zstandard.ZstdCompressor().compress(data)
    return data


@pytest.mark.parametrize("compression", ["", "gz", "zst"])
@pytest.mark.parametrize("container", ["jsonl", "json", "ndjson"])
@pytest.mark.parametrize("way", ["file", "folder", "stdin"])
def test_every_compression_container_and_way_in_reads_the_same(tmp_path, compression, container, way):
    lines = (REPO / "fixtures" / "support_bot.jsonl").read_bytes().splitlines()
    data = lines[1] + b"\n" if container == "json" else b"\n".join(lines) + b"\n"
    name = f"t.{container}" + (f".{compression}" if compression else "")
    path = tmp_path / name
    path.write_bytes(_compress(data, compression))
    if way == "stdin":
        if container == "json":
            pytest.skip("standard input is read as JSON Lines: a one-line document is one of them")
        proc = subprocess.run([sys.executable, "-m", "grounding", "check", "-", "--format", "json"],
                              input=path.read_bytes(), capture_output=True, check=False, timeout=60)
        stdout, stderr = proc.stdout.decode(), proc.stderr.decode()
    else:
        result = invoke("check", str(path if way == "file" else tmp_path), "--format", "json")
        stdout, stderr = result.stdout, result.stderr
    summary = json.loads(stdout)["summary"]
    assert summary["errors"] == 0, stderr
    assert summary["answers"] == (1 if container == "json" else 3)


@pytest.mark.parametrize("compression", ["gz", "zst"])
def test_a_truncated_compressed_file_is_an_error_not_a_shorter_report(tmp_path, compression):
    lines = (REPO / "fixtures" / "support_bot.jsonl").read_bytes() * 50
    packed = _compress(lines, compression)
    path = tmp_path / f"t.jsonl.{compression}"
    path.write_bytes(packed[: len(packed) // 2])
    result = invoke("check", str(path), "--format", "concise")
    assert "1 record with errors" in result.stdout and "cannot read the rest of the file: " in result.stderr
    assert result.stderr.split("cannot read the rest of the file: ", 1)[1].strip()  # a reason, not nothing


# small things a careful user notices --------------------------------------------------------------------


def test_config_prints_toml_that_reads_back(tmp_path, monkeypatch):
    import tomllib

    (tmp_path / "ground.toml").write_text('exempt = ["RMA-40213"]\nshapes = {order = "ord-\\\\d+"}\nstrict = true\n')
    monkeypatch.chdir(tmp_path)
    printed = invoke("config").stdout
    assert "True" not in printed and "None" not in printed and "strict" in printed
    read_back = tomllib.loads(printed)
    assert read_back["shapes"] == {"order": "ord-\\d+"} and read_back["strict"] is True
    assert read_back["exempt"] == ["RMA-40213"] and "input-format" not in read_back


@pytest.mark.parametrize(("option", "value"), [("--jobs", "-1"), ("--min-digits", "0"),
                                               ("--max-record-bytes", "0")])
def test_numbers_out_of_bounds_on_the_command_line_are_refused(option, value):
    result = invoke("check", SUPPORT, option, value)
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {option}: ")


@pytest.mark.parametrize("output_format", ["full", "concise", "github"])
def test_quiet_drops_the_summary_line_in_every_format_that_has_one(output_format):
    result = invoke("check", SUPPORT, "-q", "--format", output_format)
    assert "conversations," not in result.stdout and "1Z999AA10123456785" in result.stdout


def test_usage_help_and_version_read_as_a_user_expects():
    assert "check [OPTIONS] FILE...\n" in invoke("check", "--help").stdout
    top = invoke("--help").stdout
    assert "..." not in top.split("Commands:")[1] or "FILE..." in top
    assert invoke("-V").stdout.startswith("ground ") and invoke("--version").exit_code == 0


# a framework's retry feedback launders nothing ----------------------------------------------------------


def _retried(feedback: str, role: str = "user") -> dict:
    """An answer with two invented values, the framework's correction quoting them, the same answer again."""
    invented = "Your order ORD-77123 ships with tracking 1Z555XX10987654321."
    messages = [
        {"role": "user", "content": "Where is my order?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "orders", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"status": "shipped"}'},
        {"role": "assistant", "content": invented},
    ]
    if role == "tool":
        messages += [{"role": "assistant", "content": None, "tool_calls": [
            {"id": "c2", "type": "function", "function": {"name": "final_result", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c2", "content": feedback}]
    else:
        messages.append({"role": role, "content": feedback})
    messages.append({"role": "assistant", "content": invented})
    return {"id": "retry", "messages": messages}


@pytest.mark.parametrize(("feedback", "role"), [
    ("Validation feedback:\nORD-77123 and 1Z555XX10987654321 are not in the data\n\nFix the errors and try again.",
     "user"),
    ("The answer mentions ORD-77123 and 1Z555XX10987654321.\n\nFix the errors and try again.", "tool"),
    ("### Previous attempt failed validation: ORD-77123 and 1Z555XX10987654321 are unknown\n\n\n"
     "### Previous result:\nYour order ORD-77123 ships with tracking 1Z555XX10987654321.\n\n\n"
     "Try again, making sure to address the validation error.", "user"),
    ("Check no_unknown_ids failed with error: ORD-77123, 1Z555XX10987654321", "user"),
    ("Error: ORD-77123 and 1Z555XX10987654321 are not valid\n Please fix your mistakes.", "user"),
    ("Note from the harness.\n[evidence check] ORD-77123 and 1Z555XX10987654321 appear in no tool result", "user"),
    ("For context:\n[order_agent] said: Your order ORD-77123 ships with tracking 1Z555XX10987654321.", "user"),
])
def test_a_revised_answer_repeating_values_a_framework_quoted_back_is_still_flagged(feedback, role):
    result = invoke("check", "-", "--format", "json", stdin=json.dumps(_retried(feedback, role)) + "\n")
    revised = json.loads(result.stdout)["answers"][-1]
    assert revised["status"] == "flagged"
    assert {u["value"] for u in revised["unsupported"]} == {"ord-77123", "1z555xx10987654321"}


def test_a_user_who_writes_for_context_is_still_the_user():
    record = openai_record({"status": "shipped"}, user="For context: my order is ORD-77123, it is late.",
                           answer="Order ORD-77123 has shipped.")
    result = invoke("check", "-", "--format", "json", stdin=json.dumps(record) + "\n")
    assert json.loads(result.stdout)["answers"][0]["status"] == "grounded"


def test_an_openai_responses_response_alone_is_refused_as_every_providers_is(tmp_path):
    response = {"id": "resp_1", "object": "response", "status": "completed", "instructions": "Be brief.",
                "output": [{"type": "message", "role": "assistant", "content": [
                    {"type": "output_text", "text": "Your order ORD-55120 ships tomorrow."}]}]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(response))
    result = invoke("check", str(path))
    assert result.exit_code == 2 and "an API response" in result.stderr and "flagged" not in result.stdout.split(",")[0]
    logged = dict(response, input=[{"role": "user", "content": "Where is ORD-55120?"}])  # a logged exchange
    path.write_text(json.dumps(logged))
    assert invoke("check", str(path)).exit_code == 0


# explain ------------------------------------------------------------------------------------------------


def _invented_and_passed_to_a_tool(tmp_path):
    record = {"id": "c1", "messages": [
        {"role": "user", "content": "Status of my order?"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "t1", "type": "function", "function": {
            "name": "get_order", "arguments": json.dumps({"order_id": "ORD-77123"})}}]},
        {"role": "tool", "tool_call_id": "t1", "content": json.dumps({"order": "ORD-55120", "status": "shipped"})},
        {"role": "assistant", "content": "Order ORD-77123 is on its way; ORD-55120 too."}]}
    path = tmp_path / "t.jsonl"
    path.write_text("\n" + json.dumps(record) + "\n")  # on line 2
    return str(path)


def test_explain_gives_file_lines_and_says_a_value_was_only_in_the_models_own_call(tmp_path):
    result = invoke("explain", _invented_and_passed_to_a_tool(tmp_path), "--conversation", "c1")
    assert "ORD-55120 (identifier) — grounded: line 2, item 2 (tool result of get_order) at /order" in result.stdout
    assert ("ORD-77123 (identifier) — not found; it appears only in the model's own call arguments: "
            "the call of get_order answered at line 2, item 2, argument /order_id") in result.stdout


def test_explain_says_when_the_value_asked_for_is_not_in_the_answer(tmp_path):
    result = invoke("explain", _invented_and_passed_to_a_tool(tmp_path), "--conversation", "c1", "--value", "ORD-1")
    assert result.exit_code == 2 and "not a value of" in result.stderr and "ORD-77123" in result.stderr


def test_explain_takes_exemptions_and_shapes_as_check_does(tmp_path):
    path = _invented_and_passed_to_a_tool(tmp_path)
    result = invoke("explain", path, "--conversation", "c1", "--exempt", "ORD-77123")
    assert "ORD-77123" not in result.stdout and "ORD-55120" in result.stdout
    result = invoke("explain", path, "--conversation", "c1", "--shape", "word=shipp\\w+")
    assert result.exit_code == 0


def test_an_answer_with_no_tool_result_before_it_says_so():
    record = {"id": "n", "messages": [{"role": "user", "content": "hi"},
                                      {"role": "assistant", "content": "Your order ORD-77123 shipped."}]}
    full = invoke("check", "-", stdin=json.dumps(record) + "\n").stdout
    assert "no tool result was read before this answer" in full
    answer = json.loads(invoke("check", "-", "--format", "json", stdin=json.dumps(record) + "\n").stdout)["answers"][0]
    assert answer["status"] == "flagged" and answer["reason"].startswith("no tool result was read")
    ignored = json.loads(invoke("check", "-", "--format", "json", "--ignore", "GR001",
                                stdin=json.dumps(record) + "\n").stdout)["answers"][0]
    assert ignored["status"] == "grounded" and "reason" not in ignored


# Codex CLI rollouts -------------------------------------------------------------------------------------


def _rollout() -> list[dict]:
    def line(kind, payload):
        return {"timestamp": "2026-01-02T16:39:45.332Z", "type": kind, "payload": payload}

    output = json.dumps({"output": "pool tank-7 has 41,200 IOPS\n", "metadata": {"exit_code": 0}})
    return [
        line("session_meta", {"id": "019b7f94-51b4", "cli_version": "0.77.0", "instructions": "Be exact."}),
        line("response_item", {"type": "message", "role": "user",
                               "content": [{"type": "input_text", "text": "How fast is tank-7?"}]}),
        line("event_msg", {"type": "user_message", "message": "How fast is tank-7?", "images": []}),
        line("turn_context", {"cwd": "/w"}),
        line("response_item", {"type": "reasoning", "summary": [], "encrypted_content": "gAAAA"}),
        line("response_item", {"type": "function_call", "name": "shell", "call_id": "call_1",
                               "arguments": json.dumps({"command": ["bash", "-lc", "zpool iostat"]})}),
        line("event_msg", {"type": "token_count", "info": None}),
        line("response_item", {"type": "function_call_output", "call_id": "call_1", "output": output}),
        line("response_item", {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "tank-7 serves 41,200 IOPS on controller CTL-99812."}]}),
        line("event_msg", {"type": "agent_message", "message": "tank-7 serves 41,200 IOPS on controller CTL-99812."}),
    ]


def test_a_codex_cli_rollout_is_read_as_one_session(tmp_path):
    folder = tmp_path / "sessions" / "2026" / "01" / "02"
    folder.mkdir(parents=True)
    path = folder / "rollout-2026-01-02T18-39-45-019b7f94.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in _rollout()))
    document = json.loads(invoke("check", str(tmp_path / "sessions"), "--format", "json").stdout)
    (answer,) = document["answers"]  # the agent_message event repeats the answer: judged once
    assert answer["format"] == "codex-cli" and answer["conversation"] == "019b7f94-51b4"
    assert answer["line"] == 9 and answer["status"] == "flagged"
    assert [u["text"] for u in answer["unsupported"]] == ["CTL-99812"]  # 41,200 was read from the shell output
    assert document["summary"]["skipped"] == 3  # turn_context, token_count, agent_message


def test_a_claude_code_file_that_continues_a_conversation_elsewhere_is_unjudgeable_never_flagged(tmp_path):
    records = _claude_code_session()
    for record in records:
        record.update(isSidechain=True, agentId="acompact-1")
    records[0]["parentUuid"] = "a-record-of-the-parent-session"  # a compaction: its context is elsewhere
    folder = tmp_path / "s-1" / "subagents"
    folder.mkdir(parents=True)
    path = folder / "agent-acompact-1.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    document = json.loads(invoke("check", str(path), "--format", "json").stdout)
    (answer,) = document["answers"]
    assert answer["status"] == "unjudgeable" and "parent session" in answer["reason"]
    assert document["summary"]["flagged"] == 0


def test_a_sub_agent_file_with_its_own_start_is_judged_on_its_own_evidence(tmp_path):
    records = _claude_code_session()
    for record in records:
        record.update(isSidechain=True, agentId="a1")
    path = tmp_path / "agent-a1.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    (answer,) = json.loads(invoke("check", str(path), "--format", "json").stdout)["answers"]
    assert answer["status"] == "flagged" and [u["text"] for u in answer["unsupported"]] == ["ORD-99999"]


def _record(kind: str, uuid: str, parent: str | None, content, message_id: str | None = None) -> dict:
    message = {"role": kind, "content": content}
    if message_id is not None:
        message["id"] = message_id
    return {"type": kind, "sessionId": "s-2", "uuid": uuid, "parentUuid": parent, "message": message}


def test_a_branched_claude_code_session_is_read_along_the_branch_that_was_kept(tmp_path):
    tool = lambda uuid, parent, use: _record("assistant", uuid, parent, [  # noqa: E731
        {"type": "tool_use", "id": use, "name": "orders", "input": {}}], message_id=f"m-{uuid}")
    result = lambda uuid, parent, use, text: _record("user", uuid, parent, [  # noqa: E731
        {"type": "tool_result", "tool_use_id": use, "content": text}])
    records = [
        _record("user", "u1", None, "Which order?"),
        tool("a1", "u1", "t1"), result("r1", "a1", "t1", "ORD-55120 shipped"),
        _record("assistant", "a2", "r1", [{"type": "text", "text": "ORD-55120 shipped."}], message_id="m2"),
        # the abandoned branch: the user asked about another order, the agent read it and answered
        _record("user", "u2", "a2", "And ORD-66001?"),
        tool("a3", "u2", "t2"), result("r2", "a3", "t2", "ORD-66001 is on hold"),
        _record("assistant", "a4", "r2", [{"type": "text", "text": "ORD-66001 is on hold."}], message_id="m4"),
        # the user rewound and edited that prompt: the kept branch forks from a2
        _record("user", "u3", "a2", "Is it insured?"),
        _record("assistant", "a5", "u3", [{"type": "text", "text": "Yes; ORD-66001 is too."}], message_id="m5"),
    ]
    path = tmp_path / "s-2.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    answers = json.loads(invoke("check", str(path), "--format", "json").stdout)["answers"]
    assert [a["status"] for a in answers] == ["grounded", "flagged"]  # the abandoned answer is not judged
    assert [u["text"] for u in answers[1]["unsupported"]] == ["ORD-66001"]  # read only on the abandoned branch


def test_parallel_tool_calls_are_no_fork(tmp_path):
    records = [
        _record("user", "u1", None, "Both orders?"),
        _record("assistant", "a1", "u1", [{"type": "tool_use", "id": "t1", "name": "orders", "input": {}}], "m1"),
        _record("assistant", "a2", "a1", [{"type": "tool_use", "id": "t2", "name": "orders", "input": {}}], "m1"),
        _record("user", "r1", "a1", [{"type": "tool_result", "tool_use_id": "t1", "content": "ORD-55120"}]),
        _record("user", "r2", "a2", [{"type": "tool_result", "tool_use_id": "t2", "content": "ORD-66001"}]),
        _record("assistant", "a3", "r2", [{"type": "text", "text": "ORD-55120 and ORD-66001."}], "m3"),
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    (answer,) = json.loads(invoke("check", str(path), "--format", "json").stdout)["answers"]
    assert answer["status"] == "grounded"


# streaming: a trace is judged when it is complete, not at the end of input --------------------------------


def _otel_span(trace: str, span: str, parent: str, outputs: list, inputs: list, *, ended: bool) -> dict:
    attributes = [
        {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
        {"key": "gen_ai.input.messages", "value": {"stringValue": json.dumps(inputs)}},
        {"key": "gen_ai.output.messages", "value": {"stringValue": json.dumps(outputs)}},
    ]
    record = {"traceId": trace, "spanId": span, "parentSpanId": parent, "startTimeUnixNano": "1",
              "attributes": attributes}
    if ended:
        record["endTimeUnixNano"] = "2"
    return {"resourceSpans": [{"scopeSpans": [{"spans": [record]}]}]}


def _otel_trace(trace: str, *, root_ended: bool) -> dict:
    user = {"role": "user", "parts": [{"type": "text", "content": "Which port?"}]}
    call = {"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "show", "arguments": {}}]}
    result = {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": {"port": "fc1/3"}}]}
    answer = {"role": "assistant", "parts": [{"type": "text", "content": f"Port fc1/3, ticket INC-{trace}77"}],
              "finish_reason": "stop"}
    return _otel_span(trace, "s1", "", [answer], [user, call, result], ended=root_ended)


def _read_until(stream, marker: str, seconds: float = 20) -> str:
    seen = ""
    deadline = time.monotonic() + seconds
    while marker not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([stream], [], [], 0.2)
        if ready:
            chunk = os.read(stream.fileno(), 65536).decode()
            if not chunk:
                break
            seen += chunk
    return seen


def _streaming(*args: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return subprocess.Popen([sys.executable, "-m", "grounding", "check", "-", "--format", "concise", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


def test_a_streamed_trace_is_judged_when_its_root_span_ends_and_ctrl_c_says_what_was_left():
    import signal

    proc = _streaming()
    try:
        proc.stdin.write((json.dumps(_otel_trace("1001", root_ended=True)) + "\n").encode())
        proc.stdin.write((json.dumps(_otel_trace("2002", root_ended=False)) + "\n").encode())
        proc.stdin.flush()
        seen = _read_until(proc.stdout, "INC-100177")
        assert "INC-100177" in seen and "INC-200277" not in seen  # the input is still open
        time.sleep(0.3)  # let it wait for input again
        proc.send_signal(signal.SIGINT)
        _, err = (stream.decode() for stream in proc.communicate(timeout=20))
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert "1 conversation," in err and "1 trace not complete, not judged" in err


def test_flush_after_judges_a_streamed_trace_that_went_silent():
    proc = _streaming("--flush-after", "0.5")
    try:
        proc.stdin.write((json.dumps(_otel_trace("3003", root_ended=False)) + "\n").encode())
        proc.stdin.flush()
        seen = _read_until(proc.stdout, "INC-300377")
        assert "INC-300377" in seen
        late = (json.dumps(_otel_trace("3003", root_ended=False)) + "\n").encode()  # after it was judged
        _, err = (stream.decode() for stream in proc.communicate(late, timeout=20))
    finally:
        proc.kill()
    assert "a span arrived after the trace was judged" in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_answer_in_a_pretty_printed_json_document_is_reported_at_its_own_line(tmp_path, jobs):
    lines = (REPO / "fixtures" / "support_bot.jsonl").read_text().splitlines()
    conversations = [json.loads(lines[0]), json.loads(lines[1])]
    path = tmp_path / "pretty.json"
    path.write_text(json.dumps(conversations, indent=2))
    at = next(n for n, line in enumerate(path.read_text().splitlines(), 1) if "tracking 1Z999AA10123456785" in line)
    result = invoke("check", str(path), "--format", "concise", "--jobs", jobs)
    assert f"{path}:{at}: GR001 conversation order-status-invented turn 0 1Z999AA10123456785" in result.stdout


def test_an_answer_of_a_span_export_is_reported_at_the_line_of_the_span_that_wrote_it(tmp_path):
    user = {"role": "user", "parts": [{"type": "text", "content": "Which port?"}]}
    call = {"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "show", "arguments": {}}]}
    result = {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": {"port": "fc1/3"}}]}
    answer = {"role": "assistant", "parts": [{"type": "text", "content": "Port fc1/3, ticket INC-5577"}]}
    first = _otel_span("t9", "s1", "root", [call], [user], ended=True)
    second = _otel_span("t9", "s2", "root", [answer], [user, call, result], ended=True)
    path = tmp_path / "spans.jsonl"
    path.write_text(json.dumps(first) + "\n" + json.dumps(second) + "\n")
    result = invoke("check", str(path), "--format", "concise")
    assert f"{path}:2: GR001 conversation t9 turn 0 INC-5577" in result.stdout


@pytest.mark.parametrize(("output_format", "mark"), [("concise", "GR006 conversation refund-arithmetic turn 0 $889.50"),
                                                     ("github", "title=ground GR006 (derived-value)")])
def test_the_finding_formats_list_the_derived_values_that_fail_the_run(output_format, mark):
    assert mark not in invoke("check", SUPPORT, "--format", output_format).stdout
    assert mark in invoke("check", SUPPORT, "--format", output_format, "--fail-on-derived").stdout


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_a_report_that_cannot_be_written_is_exit_2_naming_the_path_and_a_device_is_never_replaced():
    import stat

    result = invoke("check", SUPPORT, "-o", "/dev/full")
    assert result.exit_code == 2 and "--output /dev/full: cannot write the report" in result.stderr
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)  # written in place, never renamed onto


def test_a_report_through_a_symbolic_link_replaces_the_file_it_names(tmp_path):
    target = tmp_path / "real.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    assert invoke("check", SUPPORT, "-o", str(link)).exit_code == 1
    assert link.is_symlink() and "RMA-40213" in target.read_text()


def test_progress_is_drawn_only_after_a_second_of_work():
    from grounding.cli.progress import Progress
    from grounding.model import Record

    terminal = _Terminal()
    progress = Progress(terminal, total_bytes=7_500)
    record = Record("small.jsonl", 1, {}, 7_500)
    progress.advance(record)
    assert terminal.written == []  # a small input read at once: no bar flashes
    progress._started -= 1.5
    progress.advance(record)
    assert any("reading" in text for text in terminal.written)
