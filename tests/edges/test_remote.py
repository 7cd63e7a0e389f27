"""URL inputs (s3://, gs://, file://, …) read through fsspec: a local S3 server (moto, bound to 127.0.0.1)
stands in for object storage; the reports equal those of the same files read locally."""

from __future__ import annotations

import gzip
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO

import grounding

FIXTURES = ["support_bot.jsonl", "storage_anthropic.jsonl", "absence.jsonl"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def s3():
    """A local S3 server with a bucket of three .jsonl.gz parts; the storage options to reach it."""
    pytest.importorskip("s3fs", reason="the s3 extra is not installed (pip install '.[s3]')")
    pytest.importorskip("moto.server", reason="moto's server is not installed (the test extra brings it)")
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    endpoint = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    import s3fs

    options = {"endpoint_url": endpoint, "key": "testing", "secret": "testing"}
    fs = s3fs.S3FileSystem(**options)
    fs.mkdir("logs")
    for part, name in enumerate(FIXTURES):
        fs.pipe(f"logs/2026/11/part-{part}.jsonl.gz", gzip.compress((REPO / "fixtures" / name).read_bytes()))
    fs.pipe("logs/2026/11/notes.txt", b"not a transcript")
    fs.mkdir("plain")
    fs.pipe("plain/support_bot.jsonl", (REPO / "fixtures" / "support_bot.jsonl").read_bytes())
    yield options
    server.terminate()
    server.wait(timeout=10)


def _check(*arguments: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grounding", "check", *arguments], capture_output=True, text=True,
                          cwd=cwd)


def _flags(options: dict) -> list[str]:
    return [flag for key, value in options.items() for flag in ("--storage-option", f"{key}={value}")]


def _local(tmp_path: Path) -> list[str]:
    paths = []
    for part, name in enumerate(FIXTURES):
        path = tmp_path / f"part-{part}.jsonl.gz"
        path.write_bytes(gzip.compress((REPO / "fixtures" / name).read_bytes()))
        paths.append(str(path))
    return paths


def _without_sources(report: str) -> list[dict]:
    return [{key: value for key, value in answer.items() if key != "source"} for answer in json.loads(report)["answers"]]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_glob_in_object_storage_gives_the_report_of_the_same_files_read_locally(s3, tmp_path, jobs):
    remote = _check("s3://logs/2026/*/*.jsonl.gz", "--format", "json", "--jobs", jobs, *_flags(s3))
    local = _check(*_local(tmp_path), "--format", "json")
    assert remote.returncode == local.returncode == 1, remote.stderr
    assert _without_sources(remote.stdout) == _without_sources(local.stdout)
    sources = sorted({answer["source"] for answer in json.loads(remote.stdout)["answers"]})
    assert sources == [f"s3://logs/2026/11/part-{part}.jsonl.gz" for part in range(3)]
    assert json.loads(remote.stdout)["summary"]["files"] == 3  # notes.txt is not a transcript


def test_a_prefix_is_searched_for_transcripts_and_the_options_may_come_from_the_configuration(s3, tmp_path):
    table = ", ".join(f"{key} = {json.dumps(value)}" for key, value in s3.items())
    (tmp_path / "ground.toml").write_text(f"storage-options = {{{table}}}\n")
    proc = _check("s3://logs/2026", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert json.loads(proc.stdout)["summary"]["files"] == 3


def test_an_uncompressed_object_is_read_line_by_line_as_a_local_file_is(s3):
    # an fsspec file's readline takes no size limit: it is read through a buffer that takes one
    remote = _check("s3://plain/support_bot.jsonl", "--format", "concise", *_flags(s3))
    local = _check("fixtures/support_bot.jsonl", "--format", "concise")
    assert remote.returncode == local.returncode == 1, remote.stderr
    assert remote.stdout.replace("s3://plain/", "fixtures/") == local.stdout


def test_the_library_reads_object_storage_with_its_options(s3):
    result = grounding.run("s3://logs/2026/11/part-0.jsonl.gz", grounding.Options(storage_options=s3))
    assert result.exit_code == 1 and result.summary.files == 1 and result.answers[0].source.startswith("s3://")


def test_a_missing_object_or_an_empty_glob_is_an_error_naming_it(s3):
    for url, said in (("s3://logs/2026/11/nothing.jsonl", "No such file"), ("s3://logs/2027/*/*.jsonl.gz", "no file")):
        proc = _check(url, *_flags(s3))
        assert proc.returncode == 2 and url in proc.stderr and said in proc.stderr, proc.stderr


def test_a_scheme_whose_extra_is_missing_names_the_extra_to_install():
    pytest.importorskip("fsspec", reason="fsspec is not installed")
    try:
        import gcsfs  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("gcsfs is installed: no missing extra to report")
    proc = _check("gs://bucket/logs/a.jsonl")
    assert proc.returncode == 2 and "pip install 'ground-evidence[gcs]'" in proc.stderr, proc.stderr


def test_a_file_url_reads_the_local_file_as_its_path_does(tmp_path):
    pytest.importorskip("fsspec", reason="fsspec is not installed")
    path = REPO / "fixtures" / "support_bot.jsonl"
    by_url, by_path = _check(path.as_uri(), "--format", "json"), _check(str(path), "--format", "json")
    assert by_url.returncode == by_path.returncode == 1
    assert _without_sources(by_url.stdout) == _without_sources(by_path.stdout)


def test_a_bad_storage_option_is_refused_naming_the_form():
    proc = _check("s3://logs/a.jsonl", "--storage-option", "endpoint_url")
    assert proc.returncode == 2 and "KEY=VALUE" in proc.stderr


def test_the_output_dir_may_be_in_object_storage(s3, tmp_path):
    import s3fs

    proc = _check("s3://logs/2026/*/*.jsonl.gz", "--output-dir", "s3://logs/reports/run-1", *_flags(s3))
    assert proc.returncode == 1, proc.stderr
    fs = s3fs.S3FileSystem(**s3)
    parts = sorted(fs.glob("logs/reports/run-1/part-*.jsonl"))
    stream = _check("s3://logs/2026/*/*.jsonl.gz", "--format", "json-lines", *_flags(s3))
    assert len(parts) == 3 and b"".join(fs.cat(part) for part in parts).decode() == stream.stdout
    assert json.loads(fs.cat("logs/reports/run-1/summary.json"))["summary"]["files"] == 3
