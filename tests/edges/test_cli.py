"""The CLI as a user sees it: output, exit status and messages together."""

import json
import subprocess
import sys

import pytest
from conftest import REPO
from typer.testing import CliRunner

import grounding
from grounding.cli.app import app
from grounding.reporters import OutputFormat

runner = CliRunner()
FIXTURES = sorted(path.name for path in (REPO / "fixtures").glob("*.jsonl"))
# Every fixture alone, and those whose statuses need an option with it: contract-unmet by a schema and by the
# tool-call ledger (unjudgeable needs none: fixtures/server_state.jsonl). The golden is NAME[+LABEL].FORMAT.
GOLDEN_RUNS = [(name, "", ()) for name in FIXTURES] + [
    ("contracts.jsonl", "+schema", ("--schema", "fixtures/refund.schema.json")),
    ("tool_ledger.jsonl", "+ledger", ("--require-tool", "refund_order", "--code-needs-execution", "python")),
]


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    for name in ("GITHUB_STEP_SUMMARY", "CI_PROJECT_DIR", "GROUND_OUTPUT_FORMAT"):
        monkeypatch.delenv(name, raising=False)


def invoke(*args, stdin=None):
    return runner.invoke(app, list(args), input=stdin, prog_name="ground")


@pytest.mark.parametrize("name, label, options", GOLDEN_RUNS)
@pytest.mark.parametrize("output_format", [f.value for f in OutputFormat])
def test_golden(name, label, options, output_format, update_golden):
    result = invoke("check", f"fixtures/{name}", *options, "--output-format", output_format)
    golden = REPO / "tests" / "golden" / f"{name}{label}.{output_format}"
    got = f"exit {result.exit_code}\n--- stdout\n{result.stdout}--- stderr\n{result.stderr}"
    if update_golden:
        golden.write_text(got)
    assert got == golden.read_text()


def test_the_goldens_hold_every_status():
    statuses = set()
    for name, label, _options in GOLDEN_RUNS:
        document = json.loads((REPO / "tests" / "golden" / f"{name}{label}.json").read_text().split("--- stdout\n", 1)[1]
                              .split("--- stderr\n", 1)[0])
        statuses |= {answer["status"] for answer in document["answers"]}
    assert statuses == {"grounded", "derived", "flagged", "unjudgeable", "contract-unmet", "truncated", "refused",
                        "unchecked"}


def test_json_is_one_document_with_the_contract_fields():
    result = invoke("check", "fixtures/support_bot.jsonl", "--format", "json")
    document = json.loads(result.stdout)
    assert set(document) >= {"tool", "version", "summary", "answers", "errors"}
    assert set(document["summary"]) >= {
        "files", "conversations", "answers", "grounded", "flagged", "candidates", "unsupported", "errors",
        "derived", "derived_values", "via", "examples"}
    answer = document["answers"][1]
    assert set(answer) >= {"source", "line", "conversation", "turn", "status", "candidates", "unsupported",
                           "evidence_truncated", "grounded_via", "examples"}
    assert answer["unsupported"][0] == {"value": "1z999aa10123456785", "shape": "identifier", "text": "1Z999AA10123456785"}


def test_stdin_reads_the_same_as_a_file():
    data = (REPO / "fixtures" / "support_bot.jsonl").read_text()
    from_stdin = json.loads(invoke("check", "-", "--format", "json", stdin=data).stdout)
    from_file = json.loads(invoke("check", "fixtures/support_bot.jsonl", "--format", "json").stdout)
    for answer in from_file["answers"]:
        answer["source"] = "-"
    assert from_stdin["answers"] == from_file["answers"]


def test_several_files_are_counted():
    result = invoke("check", "fixtures/support_bot.jsonl", "fixtures/absence.jsonl", "--format", "json")
    assert json.loads(result.stdout)["summary"]["files"] == 2


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["fixtures/storage_anthropic.jsonl"], 1),  # flagged
        (["fixtures/storage_anthropic.jsonl", "--exit-zero"], 0),  # reporting only
        (["fixtures/absence.jsonl", "--exempt", "978-0-262-04632-9"], 0),
        (["fixtures/support_bot.jsonl", "--exempt-regex", r"1z999aa\d+", "--exempt", "RMA-40213"], 0),
        (["fixtures/support_bot.jsonl", "--exempt-regex", r"1z999aa\d+", "--exempt", "RMA-40213",
          "--fail-on-derived"], 1),
        (["fixtures/support_bot.jsonl", "--exempt-regex", r"1z999aa\d+", "--exempt", "RMA-40213",
          "--fail-on-example"], 1),
    ],
)
def test_exit_status(args, code):
    assert invoke("check", *args).exit_code == code


def test_no_derived_makes_a_derived_value_unsupported():
    result = invoke("check", "fixtures/support_bot.jsonl", "--format", "json", "--no-derived")
    answer = json.loads(result.stdout)["answers"][2]
    assert [u["value"] for u in answer["unsupported"]] == ["889.5"]


def test_shape_labels_values():
    result = invoke("check", "fixtures/support_bot.jsonl", "--format", "json", "--shape", "rma=rma-\\d+")
    shapes = {u["value"]: u["shape"] for a in json.loads(result.stdout)["answers"] for u in a["unsupported"]}
    assert shapes["rma-40213"] == "rma"


def test_min_digits_examines_shorter_numbers():
    result = invoke("check", "fixtures/storage_anthropic.jsonl", "--format", "json", "--min-digits", "3")
    assert json.loads(result.stdout)["answers"][0]["candidates"] == 7  # 892 is now examined


def test_input_format_can_be_forced():
    result = invoke("check", "fixtures/storage_anthropic.jsonl", "--format", "json", "--input-format", "openai")
    document = json.loads(result.stdout)
    assert document["summary"]["errors"] == 1 and result.exit_code == 2


def test_verbose_lists_grounded_answers():
    result = invoke("check", "fixtures/support_bot.jsonl", "--verbose")
    assert "order-status-grounded turn 0: grounded" in result.stdout


def test_missing_file():
    result = invoke("check", "nope.jsonl")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", "error: nope.jsonl: No such file or directory\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--shape", "noequals"], "error: --shape: 'noequals' needs the form NAME=REGEX"),
        (["--shape", "a=x", "--shape", "a=y"], "error: --shape: the name 'a' is declared twice"),
        (["--shape", "=x"], "error: --shape: '=x' needs the form NAME=REGEX"),
        (["--exempt-regex", "("], "error: --exempt-regex: '(' is not a valid regular expression"),
        (["--min-digits", "0"], "error: --min-digits: must be a whole number of 1 or more, not 0"),
        (["--input-format", "xml"], "error: --input-format: unknown format 'xml'"),
    ],
)
def test_bad_options_are_refused_before_input_is_read(args, message):
    result = invoke("check", "-", *args, stdin="this would be an error if it were read\n")
    assert result.exit_code == 2 and result.stdout == "" and result.stderr.startswith(message)


@pytest.mark.parametrize(
    ("command", "option", "said"),
    [
        ("check", "--frobnicate", "No such option: --frobnicate\n"),  # click named --format, --strict
        ("check", "--formt", "No such option: --formt; did you mean --format?"),
        ("check", "--outptu-format", "No such option: --outptu-format; did you mean --output-format?"),
        ("explain", "--valu", "No such option: --valu; did you mean --value?"),
    ],
)
def test_an_unknown_option_names_only_an_option_close_to_it(command, option, said):
    result = invoke(command, "-", option, stdin="")
    assert result.exit_code == 2 and said in result.stderr and "Possible options" not in result.stderr


def test_malformed_records_are_reported_and_the_rest_is_checked():
    result = invoke("check", "fixtures/malformed_line.jsonl", "--format", "json")
    document = json.loads(result.stdout)
    assert [(e["line"], e["message"][:20]) for e in document["errors"]] == [
        (2, "invalid JSON: Expect"), (3, "not a conversation i")]
    assert document["summary"]["records"] == 4 and document["summary"]["conversations"] == 2
    assert result.exit_code == 1  # the findings of the good records decide


def test_no_readable_record_is_exit_2():
    assert invoke("check", "-", stdin="not json\n{also not\n").exit_code == 2


def test_empty_input_is_zero_conversations_and_exit_0_only_when_allowed():
    result = invoke("check", "-", "--format", "json", stdin="\n\n")
    assert result.exit_code == 2 and json.loads(result.stdout)["summary"]["conversations"] == 0
    result = invoke("check", "-", "--format", "json", "--allow-empty", stdin="\n\n")
    assert result.exit_code == 0


def test_bom_and_crlf_are_accepted():
    line = (REPO / "fixtures" / "absence.jsonl").read_text().strip()
    result = invoke("check", "-", "--format", "json", stdin="\ufeff" + line + "\r\n")
    assert json.loads(result.stdout)["summary"]["conversations"] == 1


def test_json_file_with_an_array_of_conversations(tmp_path):
    rows = [json.loads(line) for line in (REPO / "fixtures" / "support_bot.jsonl").read_text().splitlines()]
    path = tmp_path / "all.json"
    path.write_text(json.dumps(rows, indent=2))
    result = invoke("check", str(path), "--format", "json")
    assert json.loads(result.stdout)["summary"]["conversations"] == 3


def test_version():
    result = invoke("--version")
    assert result.exit_code == 0 and result.stdout.startswith("ground ")


def test_help_says_what_it_is_not():
    result = invoke("check", "--help")
    assert result.exit_code == 0 and "not a correctness judge" in " ".join(result.stdout.split())


def test_shell_completion_completes_commands_options_and_choices(tmp_path):
    import os
    import shutil
    import subprocess

    ground = shutil.which("ground")
    if ground is None:
        pytest.skip("the ground console script is not installed (pip install -e .): completion is keyed by its name")

    def complete(words: str) -> list[str]:
        env = {**os.environ, "_GROUND_COMPLETE": "complete_bash", "COMP_WORDS": words,
               "COMP_CWORD": str(len(words.split()) - 1)}
        return subprocess.run([ground], env=env, capture_output=True, text=True, cwd=tmp_path).stdout.split()

    assert complete("ground ch") == ["check"]
    assert "--output-format" in complete("ground check --output-f")
    assert complete("ground check --format sa") == ["sarif"]


def test_the_completion_script_and_the_version_are_one_flag_away(monkeypatch):
    import typer.completion
    from typer.testing import CliRunner

    from grounding import __version__
    from grounding.cli.app import app

    # with shellingham installed, --show-completion is for the shell pytest was started from ("Shell sh not
    # supported" under sh -c, exit 1): the user here is in bash, whatever shell runs the tests
    monkeypatch.setattr(typer.completion, "_get_shell_name", lambda: "bash")
    assert "complete" in CliRunner().invoke(app, ["--show-completion", "bash"], prog_name="ground").stdout
    for flag in ("--version", "-V"):
        assert CliRunner().invoke(app, [flag], prog_name="ground").stdout == f"ground {__version__}\n"


def test_check_help_is_in_sections_and_every_option_is_in_one():
    from grounding.cli.flags import HELP_SECTIONS
    from grounding.options.table import OPTIONS

    placed = [name for _, names in HELP_SECTIONS for name in names]
    assert sorted(placed) == sorted(option.name for option in OPTIONS if option.flags)
    shown = invoke("check", "--help").stdout
    titles = [line[:-1] for line in shown.splitlines() if line and not line.startswith(" ") and line.endswith(":")]
    assert titles == ["Arguments", *(title for title, _ in HELP_SECTIONS), "Other options"]
    assert shown.index("--jobs") > shown.index("Performance:") > shown.index("--baseline")


def _modules_loaded_by(*argv: str) -> tuple[str, list[str]]:
    """What `ground ARGV` prints, and which of the command line's heavy modules it loaded."""
    # (os._exit, which a command ends with, becomes sys.exit: the list is printed after it)
    code = (f"import os, sys\nos._exit = sys.exit\nsys.argv = ['ground', *{list(argv)!r}]\n"
            "from grounding.cli.app import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\nfinally:\n    sys.stdout.flush()\n"
            "    heavy = ('typer', 'rich', 'grounding.core.engine', 'grounding.run.runner', 'grounding.reporters')\n"
            "    print('LOADED', sorted({m.split('.')[0] if not m.startswith('grounding') else m for m in sys.modules"
            " if m.startswith(heavy)}))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    out, _, loaded = proc.stdout.rpartition("LOADED ")
    return out, eval(loaded)  # noqa: S307 - our own list's repr


def test_version_loads_neither_typer_nor_the_engine():
    # a stop hook or a pre-commit run that asks the version paid ~0.1 s of imports for one line
    out, loaded = _modules_loaded_by("--version")
    assert out == f"ground {grounding.__version__}\n" and loaded == []


def test_help_loads_the_command_line_but_not_the_engine():
    out, loaded = _modules_loaded_by("--help")
    assert "check" in out and "typer" in loaded
    assert not [name for name in loaded if name.startswith(("grounding.core.engine", "grounding.run.runner"))]
