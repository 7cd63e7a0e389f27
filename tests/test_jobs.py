"""--jobs: worker processes give what one process gives, in the same order, problems included.

Under --jobs a record that holds a whole conversation is parsed again in the
worker that judges it; one of a conversation spread over several records
(Claude Code sessions, traces) is grouped where the input is read.
"""

from pathlib import Path

import pytest
from conftest import REPO, SHARED

from grounding.report import Summary
from grounding.runner import judge_inputs
from grounding.settings import Settings

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


@pytest.mark.skipif(not FORMATS.exists(), reason="shared/corpus/formats is not beside the repo")
def test_a_key_spelled_with_an_escape_groups_under_jobs(tmp_path):
    escaped, plain = str(_mixed_file(tmp_path)), str(_mixed_file(tmp_path, escape=False))
    assert _run([escaped], 2)[1]["conversations"] == _run([plain], 1)[1]["conversations"]


@pytest.mark.parametrize("input_format", ["openai", "claude-code"])
def test_a_format_named_on_the_command_line_gives_the_same_output(tmp_path, input_format):
    path = str(_mixed_file(tmp_path))
    assert _run([path], 1, input_format) == _run([path], 2, input_format)


@pytest.mark.skipif(not FORMATS.exists(), reason="shared/corpus/formats is not beside the repo")
def test_every_format_sample_gives_the_same_output():
    paths = sorted(str(p) for p in FORMATS.rglob("*.json*") if p.suffix in (".json", ".jsonl"))
    assert paths
    assert _run(paths, 1) == _run(paths, 2)
