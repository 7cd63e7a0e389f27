"""A file of a known tool's log that no reader takes yet is refused by name, with what to do; a zip archive
that is not an Inspect AI log is one refusal, not a line of "invalid UTF-8" per line (issue 50)."""

from __future__ import annotations

import json
import zipfile

import pytest

from grounding.core.settings import Settings
from grounding.model import Problem, Summary
from grounding.run.runner import judge_inputs


def _problems(path) -> list[str]:
    return [event.message for event in judge_inputs([str(path)], Settings(), Summary()) if isinstance(event, Problem)]


def test_a_zip_archive_is_one_refusal_that_names_it(tmp_path):
    """A zip that is not an Inspect AI .eval log (no header.json) is one refusal saying what it is."""
    archive = tmp_path / "run.eval"
    with zipfile.ZipFile(archive, "w") as built:
        built.writestr("data/1.json", json.dumps({"id": 1, "messages": []}) * 40)
    [message] = _problems(archive)
    assert "zip archive" in message and "Inspect AI .eval" in message and "JSON Lines" in message
    as_json = tmp_path / "run.json"
    as_json.write_bytes(archive.read_bytes())
    assert ["zip archive" in message for message in _problems(as_json)] == [True]
    as_jsonl = tmp_path / "run.jsonl"
    as_jsonl.write_bytes(archive.read_bytes())
    assert ["zip archive" in message for message in _problems(as_jsonl)] == [True]


@pytest.mark.parametrize(
    ("document", "named"),
    [
        ({"version": 2, "status": "success", "eval": {"task": "t"}, "plan": {}, "results": {}, "stats": {}},
         "an Inspect AI evaluation log without its samples"),
        ([{"id": 0, "source": "user", "action": "message", "args": {"content": "hi"}}, {"id": 1, "note": "x"}],
         "an OpenHands trajectory whose element [1] is no event (keys 'id', 'note')"),
    ],
)
def test_a_known_tools_log_is_named_in_its_refusal(tmp_path, document, named):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(document))
    [message] = _problems(path)
    assert named in message


def test_a_file_of_no_known_shape_still_lists_its_keys(tmp_path):
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"alpha": 1, "beta": 2}))
    [message] = _problems(path)
    assert "keys seen: 'alpha', 'beta'" in message


@pytest.mark.parametrize(
    ("document", "looks", "nearest"),
    [
        ([{"ts": 1, "speaker": "bot"}, {"ts": 2, "speaker": "user", "said": "hi"}],
         "a JSON list of 2 objects, keys seen: 'ts', 'speaker', 'said'", None),
        (["hello", 3], "a JSON list of 2 values (number, string)", None),
        ("a note", "a JSON string, not an object or a list", None),
        ({"contents": [{"role": "user", "text": "hi"}]}, "keys seen: 'contents'", "gemini (Gemini generateContent"),
        ({"run_type": "llm", "inputs": {}, "outputs": {}}, "keys seen: 'run_type', 'inputs', 'outputs'", "langsmith"),
    ],
)
def test_a_file_in_no_format_says_what_it_looks_like_and_the_formats_nearest_it(tmp_path, document, looks, nearest):
    path = tmp_path / "other.json"
    path.write_text(json.dumps(document))
    [message] = _problems(path)
    assert f"({looks})" in message and "`ground formats`, and docs/formats.md" in message
    if nearest:
        assert f"the formats nearest by its keys: {nearest}" in message
    else:
        assert 'expected {"messages": [...]}' in message
