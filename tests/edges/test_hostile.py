"""Broken, huge and adversarial input: never a crash, never a hang, never a lost record."""

import gzip
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from xml.etree import ElementTree

import pytest
from conftest import REPO, judge, openai_record, real_corpora, unsupported
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from grounding.cli.app import app
from grounding.core.engine import check_conversation
from grounding.core.settings import Settings
from grounding.model import Conversation, Problem, Record, Summary
from grounding.run.runner import judge_inputs
from grounding.transcripts.assembly import Assembler, Skipped
from grounding.transcripts.files import read_records

runner = CliRunner()
GOOD = (REPO / "fixtures" / "support_bot.jsonl").read_text().splitlines()
BAD_LINES = [
    '{"id": "truncated", "messages": [',  # truncated JSON
    b"\xff\xfe{}".decode("latin-1"),  # written below as bytes: invalid UTF-8
    '{"id": "nul\x00", "messages": []}',  # a raw NUL is not valid JSON
    "[" * 100_000 + "]" * 100_000,  # nested past any recursion limit
    '{"id": "nan", "messages": [{"role": "tool", "content": NaN}]}',  # NaN where a string belongs
    '{"id": "big", "n": ' + "9" * 400 + ', "messages": [{"role": "user", "content": "x"}]}',
    '{"id": "dup", "id": "dup2", "messages": [{"role": "user", "content": "hi"}]}',
    '{"id": "surrogate\\ud800", "messages": [{"role": "user", "content": "\\udfff"},'
    ' {"role": "assistant", "content": "ORD-\\ud800 ORD-55555"}]}',
    '"just a string"',
    "",  # a blank line is nothing at all
]


def _mixed(tmp_path):
    path = tmp_path / "mixed.jsonl"
    with path.open("wb") as stream:
        stream.write(b"\xef\xbb\xbf")  # a BOM at the start
        for good, bad in zip(GOOD * 4, BAD_LINES):
            stream.write(good.encode() + b"\r\n")  # CRLF line ends
            stream.write(b"\xff\xfe{}\n" if bad.startswith("\xff") else bad.encode("utf-8", "surrogatepass") + b"\n")
    return path


def _verdicts(path):
    summary = Summary()
    events = list(judge_inputs([str(path)], Settings(), summary))
    answers = {(e.conversation, e.turn): (e.verdict.status, e.verdict.unsupported) for e in events
               if not isinstance(e, Problem)}
    return answers, summary


def test_bad_records_are_reported_and_every_good_verdict_is_unchanged(tmp_path):
    answers, summary = _verdicts(_mixed(tmp_path))
    alone, _ = _verdicts(REPO / "fixtures" / "support_bot.jsonl")
    for key, verdict in alone.items():
        assert answers[key] == verdict
    # every non-blank record is accounted for: a conversation, or an error
    assert summary.records == summary.conversations + summary.errors + summary.skipped
    assert summary.errors == 6  # truncated, UTF-8, NUL, nesting, NaN content, a bare string


def test_hostile_file_through_the_cli_never_shows_a_traceback(tmp_path):
    path = _mixed(tmp_path)
    for output_format in ("full", "json", "sarif", "junit", "github", "gitlab", "concise", "json-lines"):
        proc = subprocess.run([sys.executable, "-m", "grounding", "check", str(path), "--format", output_format],
                              capture_output=True, text=True, encoding="utf-8", errors="replace")
        assert proc.returncode == 1, (output_format, proc.stderr[-500:])
        assert "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "grounding", "check", str(path), "--strict"], capture_output=True)
    assert proc.returncode == 2


def test_empty_and_blank_files_are_zero_conversations_and_fail_unless_allowed(tmp_path):
    for content in (b"", b"\n\n  \n"):
        path = tmp_path / "empty.jsonl"
        path.write_bytes(content)
        result = runner.invoke(app, ["check", str(path), "--format", "json"])
        assert result.exit_code == 2 and json.loads(result.stdout)["summary"]["conversations"] == 0
        assert "no answer judged" in result.stderr
        result = runner.invoke(app, ["check", str(path), "--format", "json", "--allow-empty"])
        assert result.exit_code == 0


def test_a_record_over_the_limit_is_reported_without_being_read(tmp_path):
    path = tmp_path / "huge.jsonl"
    with path.open("w") as stream:
        stream.write(json.dumps({"id": "huge", "messages": [{"role": "user", "content": "x" * 2_000_000}]}) + "\n")
        stream.write(GOOD[1] + "\n")
    records = list(read_records(str(path), max_record_bytes=1_000_000))
    assert isinstance(records[0], Problem) and "larger than the limit" in records[0].message
    assert isinstance(records[1], Record) and records[1].line == 2


def test_the_default_limit_accepts_records_of_64_megabytes():
    from grounding.transcripts.files import MAX_RECORD_BYTES
    assert MAX_RECORD_BYTES >= 64 * 1024 * 1024


def test_truncated_gzip_and_decompression_bomb_stop_with_a_clear_error(tmp_path):
    line = (GOOD[0] + "\n").encode()
    truncated = tmp_path / "cut.jsonl.gz"
    truncated.write_bytes(gzip.compress(line * 200)[:300])
    records = list(read_records(str(truncated)))
    assert isinstance(records[-1], Problem) and "cannot read the rest" in records[-1].message
    bomb = tmp_path / "bomb.jsonl.gz"
    with gzip.open(bomb, "wb") as stream:
        for _ in range(64):
            stream.write(b"0" * (1 << 20))  # one 64 MB line of zeros, a few kilobytes on disk
        stream.write(b"\n")
    assert os.path.getsize(bomb) < 200_000
    records = list(read_records(str(bomb), max_record_bytes=4 << 20))
    assert len(records) == 1 and "larger than the limit" in records[0].message


def test_a_zstd_stream_is_read_no_more_at_a_time_than_asked_and_truncation_is_named():
    """A 6 KB frame holding 200 MB is read 1 MB at a time (it was decompressed whole per 128 KB read); every
    frame of a stream is read, skippable frames passed over, and a stream cut anywhere inside a frame
    (header, block, checksum) is an error, never the rest lost quietly."""
    import io

    import zstandard

    from grounding.transcripts.compressed import _zstd

    bomb = zstandard.ZstdCompressor().compress(b" " * 200_000_000)
    assert len(bomb) < 10_000
    reader = _zstd(io.BytesIO(bomb), "bomb")
    sizes = [len(reader.read(1 << 20)) for _ in range(5)]
    assert sizes == [1 << 20] * 5
    one = zstandard.ZstdCompressor(write_checksum=True).compress(b'{"a": 1}\n' * 50_000)
    two = zstandard.ZstdCompressor(write_content_size=False).compress(b"second\n")
    skippable = b"\x50\x2a\x4d\x18" + (5).to_bytes(4, "little") + b"notes"
    stream = skippable + one + two
    assert _zstd(io.BytesIO(stream), "s").read().endswith(b'{"a": 1}\nsecond\n')
    for cut in (len(skippable) + 2, len(skippable) + 5, len(skippable) + len(one) // 2, len(skippable) + len(one) - 2,
                len(stream) - 1):
        with pytest.raises(EOFError, match="ends inside a frame"):
            _zstd(io.BytesIO(stream[:cut]), "s").read()
    with pytest.raises(ValueError, match="not valid zstd data"):
        _zstd(io.BytesIO(b"\x28\xb5\x2f\xfd" + b"\xff" * 40), "s").read()


def test_a_zstd_bomb_is_skipped_in_bounded_memory(tmp_path):
    """R32: one 1 GB line in 33 KB of zstd, under a 4 MB record limit: reported and skipped, the next record
    read, in the memory a .gz bomb takes (a 3 GB one reached a MemoryError)."""
    import zstandard

    bomb = tmp_path / "bomb.jsonl.zst"
    with open(bomb, "wb") as raw, zstandard.ZstdCompressor().stream_writer(raw) as stream:
        for _ in range(1024):
            stream.write(b"0" * (1 << 20))
        stream.write(b"\n" + (GOOD[0] + "\n").encode())
    assert os.path.getsize(bomb) < 100_000
    code = f"""
from grounding.transcripts.files import read_records
records = list(read_records({str(bomb)!r}, max_record_bytes=4 << 20))
peak = [line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:")]
print(len(records), type(records[0]).__name__, type(records[1]).__name__, int(peak[0]) // 1024)
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    count, first, second, peak_mb = proc.stdout.split()
    assert (count, first, second) == ("2", "Problem", "Record") and int(peak_mb) < 200, proc.stdout


@pytest.mark.parametrize(("name", "pack", "says"), [
    ("t.jsonl.zst", gzip.compress, "not zstd data: it holds gzip data (rename it t.jsonl.gz)"),
    ("t.jsonl.gz", "zstd", "not gzip data: it holds zstd data (rename it t.jsonl.zst)"),
    ("t.jsonl.zst", bytes, "not zstd data (it begins with no zstd header)"),
    ("t.jsonl.gz", bytes, "not gzip data (it begins with no gzip header)"),
])
def test_a_mislabelled_archive_is_named_by_what_it_holds(tmp_path, name, pack, says):
    """R38: gzip data named .zst let a ZstdError out as a traceback (exit 1)."""
    import zstandard

    line = (GOOD[0] + "\n").encode()
    path = tmp_path / name
    path.write_bytes(zstandard.ZstdCompressor().compress(line) if pack == "zstd" else pack(line))
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 2 and f"error: {path}: {says}" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_pattern_just_under_the_per_value_limit_on_every_value_is_bounded_in_all(tmp_path, monkeypatch):
    """R28: each token under the per-value limit, a pattern ran without end in total (320 tokens: 17 s).
    Its slow matches now share one budget a run (2 s; 0.5 s here), past which the run ends naming it."""
    import grounding.core.settings as settings

    monkeypatch.setattr(settings, "PATTERN_BUDGET_SECONDS", 0.5)
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps({"id": "x", "messages": [
        {"role": "user", "content": "hi"}, {"role": "tool", "content": '{"a": "x"}'},
        {"role": "assistant", "content": " ".join("a" * 24 + "bcd" + str(1000 + i) for i in range(320))}]}) + "\n")
    started = time.monotonic()
    result = runner.invoke(app, ["check", str(path), "--shape", "evil=(a|aa)+$", "--format", "json"])
    assert time.monotonic() - started < 10
    assert result.exit_code == 2 and "pattern '(a|aa)+$' took over 0.5s in all" in result.stderr
    assert json.loads(result.stdout)["summary"]  # the report is still closed whole


def test_a_catastrophic_pattern_ends_with_an_error_naming_it(tmp_path):
    path = tmp_path / "a.jsonl"
    # the token holds a digit: a token without one is never a value when no shape is declared, so no
    # user pattern is tried on it
    path.write_text(json.dumps({"id": "x", "messages": [
        {"role": "user", "content": "hi"}, {"role": "assistant", "content": "a" * 30 + "7b"}]}) + "\n")
    started = time.monotonic()
    result = runner.invoke(app, ["check", str(path), "--exempt-regex", "(a|a)+c", "--format", "json"])
    assert time.monotonic() - started < 10
    assert result.exit_code == 2 and "pattern '(a|a)+c' took longer than" in result.stderr
    json.loads(result.stdout)  # the report was closed before the run ended


def test_a_run_that_cannot_go_on_leaves_no_half_report_and_keeps_the_old_one(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps({"id": "x", "messages": [
        {"role": "user", "content": "hi"}, {"role": "assistant", "content": "a" * 30 + "7b"}]}) + "\n")
    report = tmp_path / "report.json"
    report.write_text("the last run's report\n")
    proc = subprocess.run([sys.executable, "-m", "grounding", "check", str(path), "--exempt-regex", "(a|a)+c",
                           "--format", "json", "-o", str(report)], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2 and "took longer than" in proc.stderr
    assert report.read_text() == "the last run's report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl", "report.json"]  # no temporary file left


def test_ctrl_c_prints_the_summary_so_far_and_exits_130():
    proc = subprocess.Popen([sys.executable, "-m", "grounding", "check", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdin.write((GOOD[1] + "\n").encode())
    proc.stdin.flush()
    ready, _, _ = select.select([proc.stdout], [], [], 30)  # the flagged answer is printed as soon as it is judged
    assert ready, "no finding printed within 30 s"
    first = proc.stdout.readline()
    proc.send_signal(signal.SIGINT)  # the run is now waiting for more input
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert b"order-status-invented" in first
    assert b"1 conversation" in out + err and b"Traceback" not in err


def test_ctrl_c_with_worker_processes_ends_them_and_exits_130():
    proc = subprocess.Popen([sys.executable, "-m", "grounding", "check", "-", "--jobs", "2"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    proc.stdin.write((GOOD[1] + "\n").encode())
    proc.stdin.flush()
    deadline = time.monotonic() + 30
    while _children(proc.pid) < 2 and time.monotonic() < deadline:  # the workers have started
        time.sleep(0.05)
    time.sleep(0.2)  # and wait for their tasks; the run waits for more input
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: to every process of the run
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert err.strip().endswith(b"(interrupted)") and len(err.strip().splitlines()) == 1  # no worker's traceback


def _children(pid: int) -> int:
    """How many processes pid started and that still run (read from /proc; 2 where there is none)."""
    if not os.path.isdir("/proc"):
        time.sleep(1)
        return 2
    found = 0
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                found += int(stat.read().rsplit(")", 1)[1].split()[1]) == pid
        except (OSError, ValueError, IndexError):
            continue
    return found


def test_a_closed_downstream_pipe_ends_quietly():
    corpus = real_corpora()[0]
    proc = subprocess.run(f"{sys.executable} -m grounding check {corpus} --format json-lines | head -n 1",
                          shell=True, capture_output=True, text=True)
    assert proc.stdout.count("\n") == 1 and "Traceback" not in proc.stderr and "Broken pipe" not in proc.stderr


# fuzzing ----------------------------------------------------------------------------------------------------

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20)),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["role", "content", "messages", "type", "text", "tool_calls", "parts", "id", "kind",
                         "sessionId", "message", "resourceSpans", "tool_call_id", "contents", "input", "output"])
        | st.text(max_size=6), inner, max_size=5),
    max_leaves=25,
)
fuzz = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)


@fuzz
@given(json_values)
def test_fuzz_any_json_record_is_read_or_reported_never_raised(value):
    assembler = Assembler()
    events = list(assembler.feed(Record("fuzz", 1, value))) + list(assembler.end_of_source("fuzz"))
    events += list(assembler.finish())
    assert events  # every record is accounted for
    for event in events:
        assert isinstance(event, (Conversation, Problem, Skipped))
        if isinstance(event, Conversation):
            list(check_conversation(event, Settings()))


@fuzz
@given(st.lists(st.binary(max_size=60), max_size=6))
def test_fuzz_any_bytes_are_read_or_reported_never_raised(tmp_path_factory, lines):
    path = tmp_path_factory.mktemp("fuzz") / "f.jsonl"
    path.write_bytes(b"\n".join(lines))
    summary = Summary()
    list(judge_inputs([str(path)], Settings(), summary))
    data = b"\n".join(lines).removeprefix(b"\xef\xbb\xbf")  # a BOM opening the file is not content
    nonblank = sum(1 for line in data.split(b"\n") if line.strip())
    assert summary.records == nonblank


# one bad record never aborts the run (issue 24: R04, R05, R06) -------------------------------------------

_GOOD = {"id": "good", "messages": [
    {"role": "user", "content": "Tracking?"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "track", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "c1", "content": '{"tracking": "JD014600004567"}'},
    {"role": "assistant", "content": "Tracking JD014600004567."}]}


@pytest.mark.parametrize("arguments", [True, 5, ["a"], {"order": "ORD-55120"}])
def test_responses_call_arguments_that_are_not_a_string_are_read_as_json(tmp_path, arguments):
    record = {"input": [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "where is it?"}]},
        {"type": "function_call", "call_id": "c1", "name": "track", "arguments": arguments},
        {"type": "function_call_output", "call_id": "c1", "output": '{"tracking": "JD014600004567"}'}],
        "output": [{"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "Tracking JD014600004567."}]}]}
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(record) + "\n" + json.dumps(_GOOD) + "\n")
    result = runner.invoke(app, ["check", str(path), "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["summary"]["answers"] == 2


@pytest.mark.parametrize("number", ["-Infinity", "Infinity", "NaN"])
def test_a_non_finite_number_in_a_structured_result_is_a_word_not_an_operand(tmp_path, number):
    gemini = ('{"contents": [{"role": "user", "parts": [{"text": "serial?"}]}, '
              '{"role": "model", "parts": [{"functionCall": {"name": "get", "args": {}}}]}, '
              '{"role": "user", "parts": [{"functionResponse": {"name": "get", "response": '
              f'{{"serial": {number}, "count": 1200}}}}}}]}}, '
              '{"role": "model", "parts": [{"text": "Count 1200, total 2400."}]}]}')
    path = tmp_path / "g.jsonl"
    path.write_text(gemini + "\n" + json.dumps(_GOOD) + "\n")
    result = runner.invoke(app, ["check", str(path), "--format", "json"])
    document = json.loads(result.stdout)
    assert result.exit_code in (0, 1) and document["summary"]["answers"] == 2


def test_a_record_with_an_unhashable_type_is_one_error_under_jobs_2_as_under_jobs_1(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text('{"type": {}}\n' + json.dumps(_GOOD) + "\n")
    outputs = [runner.invoke(app, ["check", str(path), "--format", "json", "--jobs", jobs]).stdout
               for jobs in ("1", "2")]
    assert outputs[0] == outputs[1] and json.loads(outputs[0])["summary"]["errors"] == 1


# a transcript writes no control into a report (issue 24: R13 R14 R19 R27), whatever the console (R20 R21) -

_HOSTILE_ID = "x\n<img src=x onerror=alert(1)>\n| a |\x1b]0;t\x07"
_HOSTILE_ANSWER = "Order ORD-77123\x1b[2J\x1b]52;c;cHduZWQ=\x07 \u202egnp.exe \x00\x9b done"


def _hostile(tmp_path, name: str = "t.jsonl"):
    record = {"id": _HOSTILE_ID, "messages": [{"role": "user", "content": "x"},
                                              {"role": "assistant", "content": _HOSTILE_ANSWER}]}
    path = tmp_path / name
    path.write_text(json.dumps(record) + "\n")
    return path


@pytest.mark.parametrize("output_format", ["full", "concise", "github", "junit"])
def test_no_report_writes_a_control_or_bidirectional_mark_from_the_transcript(tmp_path, output_format):
    proc = subprocess.run([sys.executable, "-m", "grounding", "check", str(_hostile(tmp_path)), "--format",
                           output_format], capture_output=True, check=False, timeout=60,
                          env={**os.environ, "FORCE_COLOR": "1"} if output_format == "full" else None)
    out = proc.stdout.decode()
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)  # the report's own colours
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", plain), repr(plain)
    if output_format == "junit":
        ElementTree.fromstring(proc.stdout)  # well-formed XML


def test_the_github_step_summary_holds_no_html_and_no_broken_row(tmp_path):
    summary = tmp_path / "summary.md"
    subprocess.run([sys.executable, "-m", "grounding", "check", str(_hostile(tmp_path)), "--format", "github"],
                   capture_output=True, check=False, timeout=60,
                   env={**os.environ, "GITHUB_STEP_SUMMARY": str(summary)})
    text = summary.read_text()
    assert "<img" not in text and "&lt;img" in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and "ORD-77123" in line]
    assert len(rows) == 1 and rows[0].count(" | ") == 5  # six cells, one row


@pytest.mark.skipif(sys.platform != "linux", reason="a file name that is not UTF-8 needs a POSIX file system")
@pytest.mark.parametrize("output_format", ["json", "json-lines", "sarif", "gitlab", "full", "concise"])
def test_a_file_name_that_is_not_utf8_is_reported_escaped(tmp_path, output_format):
    folder = tmp_path / "logs"
    folder.mkdir()
    name = os.fsdecode(b"caf\xe9.jsonl")
    _hostile(folder, name)
    proc = subprocess.run([sys.executable, "-m", "grounding", "check", str(folder), "--format", output_format],
                          capture_output=True, check=False, timeout=60)
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr
    if output_format == "sarif":  # a URI: the name's own byte, percent-encoded
        assert b'"uri": "logs/caf%E9.jsonl"' in proc.stdout.replace(str(tmp_path).encode() + b"/", b"")
    else:
        assert b"caf\\\\xe9" in proc.stdout or b"caf\\xe9" in proc.stdout  # as JSON writes a backslash, or as text


def test_a_closed_standard_error_leaves_a_clean_run_clean(tmp_path):
    proc = subprocess.run(f"{sys.executable} -m grounding check {_hostile(tmp_path)} --exit-zero 2>&-",
                          shell=True, capture_output=True, check=False, timeout=60)
    assert proc.returncode == 0


@pytest.mark.parametrize("output_format", ["full", "json", "sarif", "junit"])
def test_a_console_that_cannot_encode_a_value_gets_an_escape_not_a_traceback(tmp_path, output_format):
    record = {"id": "u", "messages": [{"role": "user", "content": "x"},
                                      {"role": "assistant", "content": "Zürich-99 and Köln-12"}]}
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "grounding", "check", str(path), "--format", output_format],
                          capture_output=True, check=False, timeout=60, env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr
    if output_format == "json":
        assert json.loads(proc.stdout.decode("utf-8"))["answers"][0]["unsupported"][0]["text"] == "Zürich-99"


# inputs that mislead, configuration and baselines that cannot be used (issue 24: R22 R23 R25 R26) ---------


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-32-be"])
@pytest.mark.parametrize("name", ["t.jsonl", "t.json"])
def test_a_utf16_or_utf32_file_is_named_so_once(tmp_path, encoding, name):
    """A UTF-32 file was called UTF-16 (its little-endian mark begins with UTF-16's)."""
    path = tmp_path / name
    marked = "\ufeff" if encoding.endswith("-be") else ""  # the -be codecs write no byte order mark
    path.write_bytes((marked + json.dumps(_GOOD) + "\n" + json.dumps(_GOOD) + "\n").encode(encoding))
    result = runner.invoke(app, ["check", str(path)])
    named = encoding[:6].upper()
    assert result.exit_code == 2 and result.stderr.count(f"the file is {named}") == 1
    assert f"iconv -f {named} -t UTF-8" in result.stderr


def test_a_json_file_holding_json_lines_is_read_as_json_lines(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_GOOD) + "\n" + json.dumps(dict(_GOOD, id="second")) + "\n")
    document = json.loads(runner.invoke(app, ["check", str(path), "--format", "json"]).stdout)
    assert [a["line"] for a in document["answers"]] == [1, 2] and document["summary"]["errors"] == 0


@pytest.mark.parametrize("content", [b"min-digits = 4 # \xff\n", b"max-record-bytes = 9223372036854775807\n"])
def test_a_configuration_that_cannot_be_used_is_exit_2_naming_it(tmp_path, content):
    (tmp_path / "ground.toml").write_bytes(content)
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(_GOOD) + "\n")
    result = runner.invoke(app, ["check", str(path), "--config", str(tmp_path / "ground.toml")])
    assert result.exit_code == 2 and "ground.toml" in result.stderr and isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("make", ["deep", "folder"])
def test_a_baseline_that_cannot_be_read_is_exit_2(tmp_path, make):
    baseline = tmp_path / "b.json"
    if make == "deep":
        baseline.write_bytes(b"[" * 100000 + b"]" * 100000)
    else:
        baseline.mkdir()
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(_GOOD) + "\n")
    result = runner.invoke(app, ["check", str(path), "--baseline", str(baseline)])
    assert result.exit_code == 2 and "--baseline" in result.stderr and isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigterm_closes_the_report_whole_and_exits_143(tmp_path, jobs):
    report = tmp_path / "r.json"
    proc = subprocess.Popen([sys.executable, "-m", "grounding", "check", "-", "--format", "json", "-o", str(report),
                             "--jobs", jobs], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdin.write((json.dumps(_GOOD) + "\n").encode())
    proc.stdin.flush()
    time.sleep(1.5)  # read and judged; now waiting for more input
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 143 and b"(terminated)" in err and b"Traceback" not in err
    summary = json.loads(report.read_text())["summary"]  # whole: valid JSON with its summary
    assert summary["answers"] == (1 if jobs == "1" else summary["answers"])  # workers take conversations in batches


def test_workers_die_with_a_killed_reading_process():
    proc = subprocess.Popen([sys.executable, "-m", "grounding", "check", "-", "--jobs", "2"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while _children(proc.pid) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = _child_pids(proc.pid)
    assert len(workers) >= 2
    proc.kill()  # SIGKILL: no handler of ours runs
    proc.wait(timeout=10)
    deadline = time.monotonic() + 10
    while any(os.path.exists(f"/proc/{pid}") and _alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in workers)
    proc.stdin.close()
    proc.stdout.close()
    proc.stderr.close()


def _child_pids(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    return found


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting to be reaped by init."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_folder_that_cannot_be_listed_is_reported_not_skipped(tmp_path, monkeypatch):
    (tmp_path / "ok").mkdir()
    (tmp_path / "ok" / "a.jsonl").write_text(json.dumps(_GOOD) + "\n")
    locked = tmp_path / "locked"
    locked.mkdir()
    real_scandir = os.scandir

    def scandir(path="."):
        if os.fspath(path) == str(locked):
            raise PermissionError(13, "Permission denied", str(locked))
        return real_scandir(path)

    real_listdir = os.listdir
    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "listdir", lambda p=".": scandir(p) and real_listdir(p))
    result = runner.invoke(app, ["check", str(tmp_path), "--format", "json"])
    document = json.loads(result.stdout)
    assert document["summary"]["answers"] == 1 and document["summary"]["errors"] == 1
    assert "cannot read this folder (Permission denied)" in document["errors"][0]["message"]
    assert runner.invoke(app, ["check", str(tmp_path), "--strict"]).exit_code == 2


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_fifo_in_a_folder_is_reported_not_read(tmp_path, jobs):
    os.mkfifo(tmp_path / "pipe.jsonl")
    (tmp_path / "a.jsonl").write_text(json.dumps(_GOOD) + "\n")
    proc = subprocess.run([sys.executable, "-m", "grounding", "check", str(tmp_path), "--format", "json", "--jobs", jobs],
                          capture_output=True, check=False, timeout=30)  # it used to block here for ever
    document = json.loads(proc.stdout)
    assert document["summary"]["answers"] == 1 and "not a regular file" in document["errors"][0]["message"]


# paths with no bound before, now bounded (issue 24 and 26: R07 R08 R11 R29) ----------------------------------
def test_a_million_digit_number_is_judged_as_written(tmp_path):
    # a number longer than values.LONGEST_NUMBER is judged like an identifier: no Decimal arithmetic on it
    verdict = judge({"a": "x"}, answer="Total " + "9" * 1_000_001)
    assert verdict.status.value == "flagged" and verdict.unsupported[0].shape == "identifier"
    assert unsupported(judge({"serial": "7" * 80}, answer="serial " + "7" * 80)) == []
    with_words = judge({"a": "x"}, answer="Total " + "9" * 100_000 + "b, a " + "7" * 100_000 + "-year-old")
    assert [finding.shape for finding in with_words.unsupported] == ["identifier", "identifier"]


def test_a_long_placeholder_is_no_example_and_its_typos_are_not_tried():
    started = time.process_time()
    verdict = judge({"a": "x"}, answer="Total " + "9" * 5000 + " units")
    assert time.process_time() - started < 2
    assert verdict.status.value == "flagged" and not verdict.examples


def test_a_blob_in_a_result_has_components_from_its_last_joiners_only():
    from grounding.core.evidence.token_readings import components_of

    blob = "/".join(f"Ab{n:05d}" for n in range(20_000))  # 160 KB, 20,000 joiners
    found = components_of(blob.lower(), 4)
    assert sum(map(len, found)) < 20 * len(blob)  # linear: every tail would be ~1.6 GB
    assert "ab19999" in found and "ab00007" in found
    assert unsupported(judge({"image": blob}, answer="part Ab00042")) == []


def test_an_example_typo_is_looked_for_verbatim_before_a_huge_result_is_read():
    rows = {"rows": ["R-%07d" % i for i in range(300_000)] + ["R-1999999"]}
    verdict = judge(rows, answer="Row R-0299999 and R-9999999.")
    assert unsupported(verdict) == ["r-9999999"]  # a placeholder, but one digit off R-1999999: a typo


def test_a_derived_search_that_reaches_its_bound_says_so_and_grounds_nothing(tmp_path):
    from grounding.core.evidence.derive import BOUND_NOTE

    # 700 operands a thousandth apart near 1000: their pairs near 2000 are more than the search counts
    rows = {"rows": [round(1000.001 + 0.002 * i, 3) for i in range(700)], "p": 1500, "q": 500}
    verdict = judge(rows, answer="Together $2,000.")
    assert unsupported(verdict) == ["2000"] and verdict.unsupported[0].note == BOUND_NOTE
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(openai_record(rows, answer="Together $2,000.")) + "\n")
    result = CliRunner().invoke(app, ["check", str(path), "--format", "json"])
    assert json.loads(result.stdout)["answers"][0]["unsupported"][0]["note"] == BOUND_NOTE
