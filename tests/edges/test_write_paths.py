"""Every path a run writes fails clearly (issue 51, R33-R37): a full disk, a file-size limit or a folder that
cannot be written is one line naming the path and the OS's reason, exit 2 (never a traceback and exit 1,
the code of a flagged answer), and never a half-written file left as if complete. An --output-dir holds one
run: the previous run's partitions are gone when a run ends, and kept whole when it fails."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

FORMATS = ["full", "concise", "json", "json-lines", "sarif", "junit", "gitlab", "html", "github"]


def _transcripts(folder: Path, count: int, name: str = "t.jsonl") -> Path:
    path = folder / name
    path.write_text("".join(json.dumps({"id": f"c{i}", "messages": [
        {"role": "user", "content": "Where is my order?"}, {"role": "tool", "content": f'{{"order": "ORD-{40000 + i}"}}'},
        {"role": "assistant", "content": f"Order ORD-{40000 + i} shipped; ORD-{90000 + i} is invented."}]}) + "\n"
        for i in range(count)))
    return path


def _ground(*arguments: str, cwd: Path, stdout: object = subprocess.PIPE, file_size: int | None = None
            ) -> subprocess.CompletedProcess:
    """ground check as a CI job runs it; file_size: the largest file it may write (a quota, a full disk)."""
    def limited() -> None:
        if file_size is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))

    return subprocess.run([sys.executable, "-m", "grounding", "check", *arguments], cwd=cwd, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, preexec_fn=limited, timeout=120, check=False)


@pytest.mark.parametrize("output_format", FORMATS)
@pytest.mark.parametrize("answers", [1, 2000], ids=["report-in-the-buffer", "report-past-the-buffer"])
def test_a_report_on_a_full_standard_output_is_one_line_and_exit_2(tmp_path, output_format, answers):
    """R36: `> /dev/full` gave a traceback and exit 1 in every format."""
    _transcripts(tmp_path, answers)
    with open("/dev/full", "w") as full:
        proc = _ground("t.jsonl", "--format", output_format, cwd=tmp_path, stdout=full)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == \
        "error: cannot write the report to standard output (No space left on device)"
    assert "Traceback" not in proc.stderr and proc.stderr.count("error:") == 1


def test_an_output_dir_past_a_file_size_limit_keeps_the_previous_run_whole(tmp_path):
    """R33: a quota under --output-dir was a traceback, exit 1, and half a partition left beside the summary."""
    _transcripts(tmp_path, 3)
    first = _ground("t.jsonl", "--output-dir", "out", "-q", cwd=tmp_path)
    assert first.returncode == 1, first.stderr
    before = {path.name: path.read_bytes() for path in (tmp_path / "out").iterdir()}
    _transcripts(tmp_path, 400)
    proc = _ground("t.jsonl", "--output-dir", "out", cwd=tmp_path, file_size=20_000)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert ("error: --output-dir out: cannot write part-00000.jsonl (File too large); the folder holds the "
            "previous run's files as they were") in proc.stderr
    assert {path.name: path.read_bytes() for path in (tmp_path / "out").iterdir()} == before  # nothing else


def test_an_output_dir_that_cannot_be_written_is_refused_before_reading(tmp_path):
    """R34: a folder that cannot be written was a traceback (raised again from its own handler). The run
    makes its hidden folder there before reading anything, so a folder it may not write (another user's,
    a read-only mount: EACCES, EROFS) is refused as this one is (root writes any folder: a file stands
    in the way here)."""
    _transcripts(tmp_path, 1)
    (tmp_path / "taken").write_text("a file where the folder would be")
    proc = _ground("t.jsonl", "--output-dir", "taken", cwd=tmp_path)
    assert proc.returncode == 2 and "error: --output-dir taken: cannot write there (File exists)" in proc.stderr


def test_an_output_dir_holds_one_run(tmp_path):
    """R35: a later, smaller run left the earlier run's partitions beside its own."""
    logs = tmp_path / "logs"
    logs.mkdir()
    for number in range(3):
        _transcripts(logs, 1, f"{number}.jsonl")
    assert _ground("logs", "--output-dir", "out", "-q", cwd=tmp_path).returncode == 1
    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == [
        "part-00000.jsonl", "part-00001.jsonl", "part-00002.jsonl", "summary.json"]
    (tmp_path / "out" / "notes.txt").write_text("the user's own file")
    assert _ground("logs/0.jsonl", "--output-dir", "out", "-q", cwd=tmp_path).returncode == 1
    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == ["notes.txt", "part-00000.jsonl",
                                                                        "summary.json"]
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["partitions"] == 1


def test_a_baseline_past_a_file_size_limit_is_one_line_and_the_old_one_stands(tmp_path):
    """R37: --write-baseline onto a full disk was a traceback and exit 1."""
    _transcripts(tmp_path, 50)
    (tmp_path / "b.json").write_text("{}")
    proc = _ground("t.jsonl", "--baseline", "b.json", "--write-baseline", cwd=tmp_path, file_size=200)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert ("error: --baseline b.json: cannot write the baseline (File too large); an older baseline there is "
            "left as it was") in proc.stderr
    assert (tmp_path / "b.json").read_text() == "{}" and not list(tmp_path.glob(".b.json.*"))
