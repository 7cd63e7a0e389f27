"""--jobs: worker processes give what one process gives, in the same order, problems included.

When every input is a JSON Lines file, the workers read them themselves: a plain
one in ranges of whole lines, a compressed one whole (one worker decompresses and
judges it), as is a .json document; a record of a conversation spread over several
records (Claude Code sessions, traces) comes back and is grouped where the inputs
are read. Standard input is read there, and a record that holds a whole
conversation is parsed again in the worker judging it.
"""

import gzip
import os
import time
from pathlib import Path

import pytest
from conftest import REPO, SHARED, needs_shared
from hypothesis import given
from hypothesis import strategies as st

from grounding.core.settings import Settings
from grounding.model import Summary
from grounding.run import parallel, runner
from grounding.run.runner import judge_inputs
from grounding.run.workers import WorkerDied, Workers
from grounding.transcripts import files as inputs

FORMATS = SHARED / "corpus" / "formats"


def _run(paths: list[str], jobs: int, input_format: str | None = None) -> tuple[list, dict]:
    summary = Summary()
    found = list(judge_inputs(paths, Settings(), summary, input_format, jobs=jobs))
    return found, summary.as_json()


def _mixed_file(tmp_path: Path, escape: bool = True) -> Path:
    """Good records of several formats, a Claude Code session, and every kind of bad line, interleaved."""
    fixtures = REPO / "fixtures"
    sample = FORMATS / "parity" / "claude-code" / "1070b713-97a9-5359-bfb2-24475197aef2.jsonl"
    session = sample.read_bytes().splitlines() if sample.exists() else []
    if escape and session:
        # a key spelled with an escape: it groups once parsed
        session[-1] = session[-1].replace(b'"sessionId"', b'"\\u0073essionId"')
    lines = [
        *(fixtures / "support_bot.jsonl").read_bytes().splitlines(),
        b'{"messages": [{"role": "user", "content": "hi"}',  # truncated
        b'{"messages": "\xff\xfe"}',  # not UTF-8
        b"null",
        *session[:2],
        b"[1, 2",
        *(fixtures / "storage_anthropic.jsonl").read_bytes().splitlines(),
        *session[2:],
        b"",
        *(fixtures / "tool_ledger.jsonl").read_bytes().splitlines(),
        b'{"messages": [], "note": "' + b"9" * 40 + b'"}',
    ]
    path = tmp_path / ("mixed.jsonl" if escape else "plain.jsonl")
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def test_a_mixed_file_gives_the_same_answers_and_problems_in_the_same_order(tmp_path):
    path = str(_mixed_file(tmp_path))
    one, two = _run([path], 1), _run([path], 2)
    assert one == two
    assert one[1]["errors"] == 4 and one[1]["answers"] >= 5


@needs_shared
def test_a_key_spelled_with_an_escape_groups_under_jobs(tmp_path):
    escaped, plain = str(_mixed_file(tmp_path)), str(_mixed_file(tmp_path, escape=False))
    assert _run([escaped], 2)[1]["conversations"] == _run([plain], 1)[1]["conversations"]


@pytest.mark.parametrize("input_format", ["openai", "claude-code"])
def test_a_format_named_on_the_command_line_gives_the_same_output(tmp_path, input_format):
    path = str(_mixed_file(tmp_path))
    assert _run([path], 1, input_format) == _run([path], 2, input_format)


@needs_shared
def test_every_format_sample_gives_the_same_output():
    paths = sorted(str(p) for p in FORMATS.rglob("*.json*") if p.suffix in (".json", ".jsonl"))
    assert paths
    assert _run(paths, 1) == _run(paths, 2)


@pytest.fixture
def one_line_ranges(monkeypatch):
    """Ranges of one line each: every record in a range of its own, read by whichever worker is free."""
    monkeypatch.setattr(parallel, "_RANGE_BYTES", 1)
    monkeypatch.setattr(parallel, "_MIN_RANGE_BYTES", 1)


def test_ranges_of_one_line_give_the_same_output(tmp_path, one_line_ranges):
    path = _mixed_file(tmp_path)
    one, two = _run([str(path)], 1), _run([str(path)], 2)
    assert one == two
    lines = [line for line in path.read_bytes().splitlines() if line.strip()]
    assert one[1]["records"] == len(lines) > 8 and one[1]["errors"] == 4


def test_a_byte_order_mark_is_dropped_at_the_start_of_the_file_only(tmp_path, one_line_ranges):
    line = (REPO / "fixtures" / "support_bot.jsonl").read_bytes().splitlines()[0]
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + line + b"\n" + line + b"\n\xef\xbb\xbf" + line + b"\n")
    one, two = _run([str(path)], 1), _run([str(path)], 2)
    assert one == two
    assert one[1]["errors"] == 1 and [p.line for p in one[0] if isinstance(p, inputs.Problem)] == [3]


def test_files_read_in_ranges_and_a_compressed_one_give_the_same_output(tmp_path, one_line_ranges):
    mixed = _mixed_file(tmp_path)
    packed = tmp_path / "mixed.jsonl.gz"
    packed.write_bytes(gzip.compress(mixed.read_bytes()))
    support = str(REPO / "fixtures" / "support_bot.jsonl")
    for paths in ([str(mixed), support], [support, str(packed), str(mixed)]):
        assert _run(paths, 1) == _run(paths, 2)


def test_an_over_long_line_is_reported_in_its_range(tmp_path, one_line_ranges):
    path = str(_mixed_file(tmp_path))
    summary_one, summary_two = Summary(), Summary()
    one = list(runner.judge_inputs([path], Settings(), summary_one, max_record_bytes=300, jobs=1))
    two = list(runner.judge_inputs([path], Settings(), summary_two, max_record_bytes=300, jobs=2))
    assert one == two and summary_one.as_json() == summary_two.as_json()
    assert any("larger than the limit" in getattr(found, "message", "") for found in two)


def test_plain_json_lines_files_are_read_in_ranges_and_compressed_ones_whole(tmp_path):
    plain, packed, document = tmp_path / "a.jsonl", tmp_path / "a.jsonl.gz", tmp_path / "a.json"
    packed_document = tmp_path / "b.json.gz"
    for path in (plain, packed, document, packed_document):
        path.write_bytes(b"{}\n")
    assert inputs.can_read_in_ranges(str(plain))
    assert not any(inputs.can_read_in_ranges(p) for p in ("-", str(packed), str(document), str(tmp_path)))
    assert inputs.can_read_whole(str(packed))
    assert all(inputs.can_read_whole(p) for p in (str(document), str(packed_document)))
    assert not any(inputs.can_read_whole(p) for p in ("-", str(plain), str(tmp_path)))
    assert not parallel._in_ranges([str(plain)], "claude-code") and parallel._in_ranges([str(plain)], "openai")
    assert parallel._in_ranges([str(plain), str(packed), str(document)], None)
    assert list(parallel._ranges_of(str(packed), 2)) == [(0, parallel._WHOLE)]


def test_compressed_files_read_whole_by_workers_give_the_same_output(tmp_path, monkeypatch):
    import zstandard

    mixed = _mixed_file(tmp_path)  # bad lines, a Claude Code session spread over records, several formats
    packed, squeezed = tmp_path / "mixed.jsonl.gz", tmp_path / "mixed.ndjson.zst"
    packed.write_bytes(gzip.compress(mixed.read_bytes()))
    squeezed.write_bytes(zstandard.ZstdCompressor().compress(mixed.read_bytes()))
    truncated = tmp_path / "cut.jsonl.gz"
    truncated.write_bytes(packed.read_bytes()[: len(packed.read_bytes()) // 2])
    whole = []
    monkeypatch.setattr(parallel, "_ranges_of", lambda path, workers: whole.append(path) or iter([(0, -1)]))
    paths = [str(packed), str(squeezed), str(truncated)]
    one, two = _run(paths, 1), _run(paths, 2)
    assert one == two and whole == paths
    assert one[1]["errors"] > 8 and one[1]["files"] == 3  # each file's bad lines, and the cut one's end
    lines = [p.line for p in one[0] if isinstance(p, inputs.Problem) and p.source == str(squeezed)]
    assert lines == [p.line for p in two[0] if isinstance(p, inputs.Problem) and p.source == str(squeezed)] and lines


def test_json_documents_are_read_whole_by_workers_with_the_same_output(tmp_path):
    import json

    packed = tmp_path / "a.jsonl.gz"
    packed.write_bytes(gzip.compress((REPO / "fixtures" / "support_bot.jsonl").read_bytes()))
    records = [json.loads(line) for line in (REPO / "fixtures" / "support_bot.jsonl").read_text().splitlines()]
    document = tmp_path / "b.json"  # pretty-printed: each answer is located on its own line of the document
    document.write_text(json.dumps(records, indent=2))
    spans = tmp_path / "c.json"  # a document of a trace's spans: read by the reading process, as one process does
    spans.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [{
        "traceId": "t1", "spanId": "s1", "startTimeUnixNano": "1", "endTimeUnixNano": "2", "attributes": [
            {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
            {"key": "gen_ai.output.messages", "value": {"stringValue": json.dumps([{"role": "assistant", "parts": [
                {"type": "text", "content": "Ticket INC-4417 is open."}], "finish_reason": "stop"}])}}]}]}]}]},
        indent=2))
    paths = [str(packed), str(document), str(spans)]
    assert parallel._in_ranges(paths, None)
    one, two = _run(paths, 1), _run(paths, 2)
    assert one == two
    lines = [answer.line for answer in one[0] if getattr(answer, "source", "") == str(document)]
    assert len(lines) == 3 and len(set(lines)) == 3 and min(lines) > 1  # located in the document
    assert any(getattr(answer, "source", "") == str(spans) for answer in one[0])


@given(
    lines=st.lists(st.binary(max_size=12).map(lambda b: b.replace(b"\n", b"")), max_size=12),
    last_ends=st.booleans(),
    size=st.integers(1, 40),
    block=st.integers(1, 16),
)
def test_line_ranges_cover_the_file_in_whole_lines_and_count_their_lines(tmp_path_factory, lines, last_ends, size,
                                                                        block):
    data = b"\n".join(lines) + (b"\n" if last_ends and lines else b"")
    path = tmp_path_factory.mktemp("ranges") / "f.jsonl"
    path.write_bytes(data)
    original = inputs._SCAN_BLOCK
    inputs._SCAN_BLOCK = block  # blocks shorter than lines: a line end is looked for across blocks
    try:
        ranges = list(inputs.line_ranges(str(path), size))
    finally:
        inputs._SCAN_BLOCK = original
    starts, ends = [start for start, _ in ranges], [end for _, end in ranges]
    assert starts == ([0] + ends[:-1] if data else []) and ends[-1:] == ([len(data)] if data else [])
    numbered = 0
    for start, end in ranges:
        line_end = data.find(b"\n", start + size - 1)  # the range ends with the line that reaches size
        assert end == (len(data) if line_end < 0 else line_end + 1)
        reading = inputs.read_range(str(path), start, end)
        while True:  # its lines are numbered from 1, and it says how many it holds
            try:
                record = next(reading)
            except StopIteration as finished:
                counted = finished.value
                break
            assert record.line == data.count(b"\n", start, _line_start(data, start, record.line)) + 1
        assert counted == inputs.count_lines(str(path), start, end) == _line_count(data[start:end])
        numbered += counted
    assert numbered == _line_count(data)


def _line_count(data: bytes) -> int:
    """Lines as readline cuts them: after each line end, and a last line without one."""
    return len(data.split(b"\n")) - data.endswith(b"\n") if data else 0


def _line_start(data: bytes, start: int, line: int) -> int:
    """The offset of a range's line'th line (1-based)."""
    for _ in range(line - 1):
        start = data.index(b"\n", start) + 1
    return start


def test_a_file_is_judged_in_ranges_that_shrink_near_its_end(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "_RANGE_BYTES", 400)
    monkeypatch.setattr(parallel, "_MIN_RANGE_BYTES", 1)
    monkeypatch.setattr(parallel, "_TAIL_RANGE_BYTES", 50)
    data = b"".join(b'{"n": %d}\n' % (i * 7919 % 100003) for i in range(300))
    path = tmp_path / "f.jsonl"
    path.write_bytes(data)
    ranges = list(parallel._ranges_of(str(path), 2))
    assert [start for start, _ in ranges] == [0] + [end for _, end in ranges[:-1]] and ranges[-1][1] == len(data)
    assert all(data[end - 1 : end] == b"\n" for _, end in ranges)  # whole lines
    sizes = [end - start for start, end in ranges]
    tail = len(data) - 400 * 2
    assert all(size >= 400 for (start, end), size in zip(ranges[:-1], sizes) if end <= tail)
    assert all(size < 80 for (start, _), size in zip(ranges, sizes) if start >= tail)


# the worker processes themselves -----------------------------------------------------------------------------


def _started(tag: str) -> None:
    global _TAG
    _TAG = tag


def _echo(n: int) -> tuple[str, int]:
    time.sleep(0.001 * (n % 3))  # results come back out of order
    return _TAG, n * n


def _fail(message: str) -> None:
    raise ValueError(message)


def _die(code: int) -> None:
    os._exit(code)


def _sized(size: int) -> bytes:
    return b"x" * size


def test_workers_give_each_result_to_its_task_in_any_order_asked():
    with Workers(2, _started, ("ready",)) as workers:
        tasks = [workers.apply_async(_echo, (n,)) for n in range(20)]
        assert [task.get() for task in reversed(tasks)] == [("ready", n * n) for n in reversed(range(20))]
        assert workers.map(_echo, [3, 4]) == [("ready", 9), ("ready", 16)]


def test_a_workers_error_is_raised_where_its_result_is_asked_for():
    with Workers(2, _started, ("x",)) as workers:
        failing, fine = workers.apply_async(_fail, ("bad value",)), workers.apply_async(_echo, (2,))
        with pytest.raises(ValueError, match="bad value"):
            failing.get()
        assert fine.get() == ("x", 4)  # the worker goes on


def test_a_worker_that_dies_is_reported_not_waited_for():
    with pytest.raises(WorkerDied, match="exit code 3"), Workers(1, _started, ("x",)) as workers:
        workers.apply_async(_die, (3,)).get()


def test_tasks_and_results_larger_than_a_pipe_pass_both_ways():
    with Workers(2, _started, ("x",)) as workers:
        tasks = [workers.apply_async(_sized, (size,)) for size in (3 << 20, 1, 5 << 20)]
        assert [len(task.get()) for task in tasks] == [3 << 20, 1, 5 << 20]
        assert workers.apply_async(len, (b"y" * (4 << 20),)).get() == 4 << 20


# --jobs auto (the default) -----------------------------------------------------------------------------


def test_auto_uses_workers_only_for_inputs_large_enough_to_pay_for_them(tmp_path, monkeypatch):
    from grounding.run import cores

    monkeypatch.setattr(cores, "usable_cores", lambda: 4)
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    small.write_bytes(b"x" * 1000)
    large.write_bytes(b"x" * cores.AUTO_MIN_BYTES)
    assert cores.worker_count("auto", [str(small)]) == 1
    assert cores.worker_count("auto", [str(large)]) == 4
    assert cores.worker_count("auto", [str(small)] * (cores.AUTO_MIN_BYTES // 1000 + 1)) == 4  # many small files
    assert cores.worker_count("auto", ["-", str(tmp_path / "missing.jsonl")]) == 1  # stdin; a file not there
    assert cores.worker_count("auto", ["s3://logs/2026/a.jsonl.gz"]) == 4  # object storage: read in parallel
    assert (cores.worker_count(0, [str(small)]), cores.worker_count(3, [str(large)])) == (4, 3)


@pytest.mark.parametrize(("v2", "v1", "expected"), [
    ("max 100000\n", None, None),  # no quota
    ("150000 100000\n", None, 2),  # 1.5 CPUs: two workers share them
    ("50000 100000\n", None, 1),
    (None, ("-1\n", "100000\n"), None),
    (None, ("200000\n", "100000\n"), 2),
    (None, None, None),  # no cgroup files: the affinity alone
])
def test_a_cgroups_cpu_quota_bounds_the_usable_cores(tmp_path, v2, v1, expected):
    from grounding.run.cores import _cgroup_quota

    v2_path, quota, period = tmp_path / "cpu.max", tmp_path / "quota", tmp_path / "period"
    if v2 is not None:
        v2_path.write_text(v2)
    if v1 is not None:
        quota.write_text(v1[0])
        period.write_text(v1[1])
    assert _cgroup_quota(v2_path, (quota, period)) == expected


def test_usable_cores_is_at_least_one_and_at_most_the_affinity():
    from grounding.run.cores import usable_cores

    assert 1 <= usable_cores() <= len(os.sched_getaffinity(0))


def test_auto_over_a_large_input_gives_the_output_of_one_process_with_workers(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from grounding.cli.app import app
    from grounding.run import cores

    path = str(_mixed_file(tmp_path))
    monkeypatch.setattr(cores, "AUTO_MIN_BYTES", 1)
    monkeypatch.setattr(cores, "usable_cores", lambda: 2)
    used = []
    in_ranges = parallel._ranges_in_workers
    monkeypatch.setattr(runner, "_ranges_in_workers",
                        lambda *args, **kw: used.append(args[4]) or in_ranges(*args, **kw))
    cli = CliRunner()
    auto = cli.invoke(app, ["check", path, "--format", "json"])
    one = cli.invoke(app, ["check", path, "--format", "json", "--jobs", "1"])
    assert used == [2]  # the default, auto, judged it in two workers
    assert auto.stdout == one.stdout and auto.exit_code == one.exit_code == 1
