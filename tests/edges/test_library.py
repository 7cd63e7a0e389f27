"""grounding.check: the library face judges a record a program holds as ground check judges it in a file."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import REPO

import grounding
from grounding.core.settings import build_settings


def _records() -> list[str]:
    return [line for line in (REPO / "fixtures" / "support_bot.jsonl").read_text().splitlines() if line.strip()]


def test_check_gives_the_verdicts_of_the_command_line():
    proc = subprocess.run([sys.executable, "-m", "grounding", "check", str(REPO / "fixtures" / "support_bot.jsonl"),
                           "--format", "json"], capture_output=True, text=True, cwd=REPO)
    expected = [(a["conversation"], a["status"], [u["value"] for u in a["unsupported"]])
                for a in json.loads(proc.stdout)["answers"]]
    found = [(a.conversation, a.verdict.status.value, [f.value for f in a.verdict.unsupported])
             for line in _records() for a in grounding.check(line)]
    assert found == expected and any(status == "flagged" for _, status, _ in found)


def test_check_takes_a_parsed_record_its_text_or_a_conversation_alike():
    line = _records()[0]
    from grounding.transcripts.formats import read_record

    as_text, as_dict = grounding.check(line), grounding.check(json.loads(line))
    as_conversation = grounding.check(read_record(json.loads(line), "<record>", 1))
    assert [a.verdict for a in as_text] == [a.verdict for a in as_dict] == [a.verdict for a in as_conversation]


def test_check_honours_settings():
    line = next(line for line in _records() if "RMA-40213" in line)
    assert any(f.value == "rma-40213" for a in grounding.check(line) for f in a.verdict.unsupported)
    exempt = build_settings(exempt=["RMA-40213"])
    assert not any(f.value == "rma-40213" for a in grounding.check(line, exempt) for f in a.verdict.unsupported)


@pytest.mark.parametrize("bad", ['{"messages": ', "[1, 2]", {"nothing": "here"}])
def test_a_record_that_cannot_be_read_raises_record_error(bad):
    with pytest.raises(grounding.RecordError):
        grounding.check(bad)


def test_every_public_name_is_listed():
    import types

    public = {name for name, value in vars(grounding).items()
              if not name.startswith("_") and name != "annotations" and not isinstance(value, types.ModuleType)}
    assert set(grounding.__all__) == public | {"__version__"}
