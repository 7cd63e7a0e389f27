"""--engine dask: the cluster judges what --jobs judges, with the output of one process byte for byte; the
spans of a trace dealt across files are put together before they are judged; a task the cluster loses is
an error of its file, never a smaller report."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

import grounding

pytest.importorskip("dask.distributed", reason="the dask extra is not installed (pip install '.[dask]')")

from dask.distributed import Client, LocalCluster  # noqa: E402

from grounding.dask import DaskEngine  # noqa: E402
from grounding.run.dask_engine import _Task  # noqa: E402
from grounding.run.parallel import TaskLost  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as connected:
        yield connected


def _inputs(tmp_path: Path) -> list[str]:
    """The in-repository real sample and the fixtures, as three .jsonl.gz parts and a plain .jsonl file."""
    lines = (REPO / "tests" / "data" / "real" / "sample.jsonl").read_bytes().splitlines(keepends=True)
    for name in ("support_bot.jsonl", "storage_anthropic.jsonl", "malformed_line.jsonl"):
        lines += (REPO / "fixtures" / name).read_bytes().splitlines(keepends=True)
    paths = []
    for part in range(3):
        path = tmp_path / f"part-{part}.jsonl.gz"
        path.write_bytes(gzip.compress(b"".join(lines[part::4])))
        paths.append(str(path))
    plain = tmp_path / "part-3.jsonl"
    plain.write_bytes(b"".join(lines[3::4]))
    return [*paths, str(plain)]


def _check(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grounding", "check", *arguments], capture_output=True, text=True,
                          cwd=REPO)


def test_the_cluster_gives_the_report_of_one_process_byte_for_byte(client, tmp_path):
    paths = _inputs(tmp_path)
    address = client.scheduler.address
    for output_format in ("json", "json-lines", "sarif"):
        here = _check(*paths, "--format", output_format)
        there = _check(*paths, "--format", output_format, "--engine", "dask", "--scheduler", address)
        jobs = _check(*paths, "--format", output_format, "--jobs", "2")
        assert here.returncode == there.returncode == jobs.returncode == 1, there.stderr
        assert here.stdout == there.stdout == jobs.stdout


def test_the_library_runs_on_a_client(client, tmp_path):
    paths = _inputs(tmp_path)
    import grounding.dask

    there, here = grounding.dask.run(paths, client=client), grounding.run(paths)
    assert [a.to_dict() for a in there.answers] == [a.to_dict() for a in here.answers] and here.answers
    assert there.summary.as_json() == here.summary.as_json() and there.exit_code == here.exit_code == 1
    assert [p.message for p in there.problems] == [p.message for p in here.problems] and here.problems


def _span(trace: str, span: str, parent: str, inputs: list, outputs: list) -> dict:
    attributes = [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
                  {"key": "gen_ai.input.messages", "value": {"stringValue": json.dumps(inputs)}},
                  {"key": "gen_ai.output.messages", "value": {"stringValue": json.dumps(outputs)}}]
    record = {"traceId": trace, "spanId": span, "parentSpanId": parent, "startTimeUnixNano": span,
              "endTimeUnixNano": span, "attributes": attributes}
    return {"resourceSpans": [{"scopeSpans": [{"spans": [record]}]}]}


def _trace(trace: str) -> list[dict]:
    """Three chat spans of one trace: the question and a call, the result and a second call, the answer."""
    user = {"role": "user", "parts": [{"type": "text", "content": "Which port is down?"}]}
    call = {"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "ports", "arguments": {}}]}
    result = {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1",
                                         "response": {"port": f"fc{trace[-1]}/3", "ticket": f"INC-{trace}"}}]}
    answer = {"role": "assistant", "parts": [{"type": "text", "content": f"Port fc{trace[-1]}/3 is down (INC-{trace})."}],
              "finish_reason": "stop"}
    return [_span(trace, "1", "", [user], [call]), _span(trace, "2", "1", [user, call, result], [call]),
            _span(trace, "3", "1", [user, call, result], [answer])]


def test_the_spans_of_a_trace_dealt_across_files_are_put_together_first(client, tmp_path):
    traces = [_trace(f"{7000 + number}") for number in range(4)]
    files = []
    for part in range(3):  # span k of every trace in file k
        path = tmp_path / f"spans-{part}.jsonl.gz"
        path.write_bytes(gzip.compress("".join(json.dumps(t[part]) + "\n" for t in traces).encode()))
        files.append(str(path))
    here = _check(*files, "--format", "json-lines")
    there = _check(*files, "--format", "json-lines", "--engine", "dask", "--scheduler", client.scheduler.address)
    assert here.returncode == there.returncode and here.stdout == there.stdout
    assert len(here.stdout.splitlines()) == 4  # one answer per trace
    per_file = "".join(_check(path, "--format", "json-lines", "--allow-empty").stdout for path in files)
    assert per_file != here.stdout  # a naive fan-out, file by file, judges partial traces


class _Losing:
    """An engine whose cluster loses the task of one file."""

    def __init__(self, engine: DaskEngine, lost: str) -> None:
        self.engine, self.lost = engine, lost

    def size(self) -> int:
        return self.engine.size()

    def workers(self, count, initializer, initargs):
        workers = self.engine.workers(count, initializer, initargs)
        submit = workers.apply_async

        def apply_async(function, arguments):
            if arguments and arguments[0] == self.lost:
                return _Task(_Failed())
            return submit(function, arguments)

        workers.apply_async = apply_async
        return workers


class _Failed:
    def result(self):
        from distributed.comm.core import CommClosedError

        raise CommClosedError("the worker holding the task died")

    def done(self):
        return True


def test_a_task_the_cluster_loses_is_an_error_of_its_file_and_the_rest_is_judged(client, tmp_path):
    paths = _inputs(tmp_path)
    result = grounding.run(paths, engine=_Losing(DaskEngine(client), paths[1]))
    lost = [p for p in result.problems if p.source == paths[1]]
    assert len(lost) == 1 and "not judged" in lost[0].message and "CommClosedError" in lost[0].message
    assert not any(a.source == paths[1] for a in result.answers) and result.answers
    assert result.summary.errors >= 1


def test_a_lost_task_is_told_from_the_tasks_own_error():
    with pytest.raises(TaskLost):
        _Task(_Failed()).get()


def test_the_output_dir_holds_the_json_lines_report_cut_per_input_file(client, tmp_path):
    paths = _inputs(tmp_path)
    traces = [_trace(f"{8000 + number}") for number in range(2)]
    for part in range(3):
        span_file = tmp_path / f"spans-{part}.jsonl"
        span_file.write_text("".join(json.dumps(t[part]) + "\n" for t in traces))
        paths.append(str(span_file))
    stream = _check(*paths, "--format", "json-lines")
    out = tmp_path / "out"
    written = _check(*paths, "--output-dir", str(out), "--engine", "dask", "--scheduler", client.scheduler.address)
    assert written.returncode == stream.returncode == 1, written.stderr
    parts = sorted(out.glob("part-*.jsonl"))
    assert "".join(part.read_text() for part in parts) == stream.stdout
    assert len(parts) == 5  # the four files with answers of their own, and the traces put together last
    summary = json.loads((out / "summary.json").read_text())
    report = json.loads(_check(*paths, "--format", "json").stdout)
    assert summary["summary"] == report["summary"] and summary["errors"] == report["errors"] and report["errors"]


def test_the_output_dir_refuses_a_folder_that_holds_an_input_and_another_format(tmp_path):
    transcript = tmp_path / "a.jsonl"
    transcript.write_bytes((REPO / "fixtures" / "support_bot.jsonl").read_bytes())
    inside = _check(str(transcript), "--output-dir", str(tmp_path))
    assert inside.returncode == 2 and "holds the input" in inside.stderr and not list(tmp_path.glob("part-*"))
    other = _check(str(transcript), "--output-dir", str(tmp_path / "out"), "--format", "sarif")
    assert other.returncode == 2 and "--output-dir" in other.stderr


def test_the_answers_as_a_bag_and_the_summary_are_the_runs(client, tmp_path):
    import grounding.dask

    paths = _inputs(tmp_path)
    traces = [_trace(f"{9000 + number}") for number in range(3)]
    for part in range(3):
        spans = tmp_path / f"spans-{part}.jsonl.gz"
        spans.write_bytes(gzip.compress("".join(json.dumps(t[part]) + "\n" for t in traces).encode()))
        paths.append(str(spans))
    options = grounding.Options(ignore=["GR007"])  # a rule not selected takes its findings out, as in a run
    bag, summary = grounding.dask.answers(paths, options)
    here = grounding.run(paths, options)
    assert bag.npartitions == len(paths) + 1
    assert [a.to_dict() for a in bag.compute()] == [a.to_dict() for a in here.answers]
    assert summary.compute().as_json() == here.summary.as_json()
    flagged = bag.filter(lambda answer: answer.verdict.status.value == "flagged").count().compute()
    assert flagged == here.summary.flagged > 0
