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

    assert all(getattr(grounding, name) is not None for name in grounding.__all__)  # the lazy ones load
    public = {name for name, value in vars(grounding).items()
              if not name.startswith("_") and name != "annotations" and not isinstance(value, types.ModuleType)}
    assert set(grounding.__all__) == public | {"__version__"}
    assert all(getattr(grounding, name).__doc__ for name in grounding.__all__ if name[0].isupper() or
               callable(getattr(grounding, name)))


# --- Options: the option table as Python values ----------------------------------------------------------


def test_options_are_the_option_tables_keys_less_the_terminals_own():
    from dataclasses import fields

    from grounding.library import TERMINAL_KEYS
    from grounding.options.table import KEYS

    named = {spec.name for spec in fields(grounding.Options) if spec.init}
    assert named == {key.replace("-", "_") for key in KEYS if key not in TERMINAL_KEYS}
    defaults = grounding.Options()
    assert all(defaults[key] == KEYS[key].default for key in KEYS if key not in TERMINAL_KEYS)


@pytest.mark.parametrize(("given", "named"), [
    ({"min_digits": 0}, "min_digits"),
    ({"exempt": "RMA-1"}, "exempt"),  # a string, not a list of strings
    ({"shapes": {"order": 5}}, "shapes"),
    ({"derived": "no"}, "derived"),
    ({"jobs": -1}, "jobs"),
])
def test_a_bad_option_raises_option_error_naming_it(given, named):
    with pytest.raises(grounding.OptionError, match=rf"^Options\({named}="):
        grounding.Options(**given)


@pytest.mark.parametrize("given", [{"shapes": {"order": "ord-(["}}, {"exempt_regex": ["(unclosed"]},
                                   {"select": ["GR999"]}, {"schema": "/no/such/schema.json"}])
def test_a_bad_pattern_rule_or_schema_is_an_option_error_too(given):
    with pytest.raises(grounding.OptionError):
        grounding.Options(**given)


def test_an_unknown_option_is_a_type_error_as_python_says():
    with pytest.raises(TypeError, match="min_digit"):
        grounding.Options(min_digit=3)


def test_options_decide_the_verdict_as_the_command_lines_flags_do():
    line = next(line for line in _records() if "RMA-40213" in line)
    assert not any(f.value == "rma-40213" for a in grounding.check(line, grounding.Options(exempt=["RMA-40213"]))
                   for f in a.verdict.unsupported)
    shaped = grounding.check(line, grounding.Options(shapes={"rma": r"rma-\d{5}"}))
    assert any(f.shape == "rma" for a in shaped for f in a.verdict.unsupported)


def test_options_from_config_read_the_table_and_take_overrides(tmp_path):
    (tmp_path / "ground.toml").write_text('min-digits = 6\nexempt = ["RMA-40213"]\n')
    options = grounding.Options.from_config(tmp_path / "ground.toml", derived=False)
    assert (options.min_digits, options.exempt, options.derived) == (6, ("RMA-40213",), False)


def test_explain_fills_each_answers_explanation():
    line = next(line for line in _records() if "RMA-40213" in line)
    [*_, answer] = grounding.check(line, grounding.Options(explain=True))
    assert answer.explanation and answer.to_dict()["explain"]


# --- check_answer: a candidate answer not yet in the history ---------------------------------------------

_HISTORY = [{"role": "user", "content": "Where is my order?"},
            {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                                                  "function": {"name": "latest_order", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": '{"order": "ORD-40001", "status": "shipped"}'}]


def test_check_answer_judges_the_candidate_against_the_historys_results():
    assert grounding.check_answer(_HISTORY, "Order ORD-40001 has shipped.").status is grounding.Status.GROUNDED
    verdict = grounding.check_answer(_HISTORY, "Order ORD-55120 has shipped.")
    assert verdict.status is grounding.Status.FLAGGED and [f.value for f in verdict.unsupported] == ["ord-55120"]
    assert verdict.to_dict()["unsupported"][0]["value"] == "ord-55120"


def test_check_answer_reads_a_structured_answer_as_its_json():
    verdict = grounding.check_answer(_HISTORY, {"order": "ORD-55120", "status": "shipped"})
    assert [f.value for f in verdict.unsupported] == ["ord-55120"]


def test_check_answer_with_no_history_flags_every_value():
    verdict = grounding.check_answer([], "Your order ORD-55120 has shipped.")
    assert verdict.status is grounding.Status.FLAGGED


# --- run: what ground check does over files -------------------------------------------------------------


def test_run_gives_the_answers_summary_and_exit_status_of_ground_check(tmp_path):
    fixture = REPO / "fixtures" / "support_bot.jsonl"
    proc = subprocess.run([sys.executable, "-m", "grounding", "check", str(fixture), "--format", "json"],
                          capture_output=True, text=True, cwd=REPO)
    report = json.loads(proc.stdout)
    result = grounding.run(fixture)
    assert [a.to_dict() for a in result.answers] == report["answers"]
    assert result.summary.as_json() == report["summary"] and result.exit_code == proc.returncode == 1
    assert grounding.run([fixture], grounding.Options(exit_zero=True)).exit_code == 0


def test_run_reports_a_bad_line_and_goes_on(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"messages": \n' + _records()[0] + "\n")
    result = grounding.run(bad)
    assert [p.line for p in result.problems] == [1] and result.answers and result.summary.errors == 1


def test_run_keeps_its_name_after_the_run_subpackage_is_imported():
    import grounding.run.runner  # noqa: F401 (a submodule import would rebind grounding.run)

    assert callable(grounding.run) and grounding.run.__module__ == "grounding"


def test_importing_grounding_loads_neither_typer_nor_rich():
    code = ("import sys, grounding; grounding.Options; grounding.Gate; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'rich', 'click')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert proc.stdout.strip() == "[]"
