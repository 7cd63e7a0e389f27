"""The default report (``--output-format full``): plain text to files and pipes, colour on a terminal."""

import io
import json
import os
import re
import subprocess
import sys

import pytest
from conftest import REPO, openai_record
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

from grounding.cli.app import app
from grounding.cli.environment import TERMINAL_OVERRIDES
from grounding.reporters.escape import visible
from grounding.reporters.full import _Lines

runner = CliRunner()
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
MAC = "e4:cd:79:a2:ed:db"  # rich's emoji codes would turn ":cd:" into a disc


def _transcript(tmp_path):
    record = openai_record({"port": 4417, "mac": "e4:cd:79:a2:ed:dc"}, arguments={"port": 4417},
                           user="Which device is on port 4417?",
                           answer=f"Port 4417 has device {MAC} :tada:\tdone.")
    path = tmp_path / "mac.jsonl"
    path.write_text(json.dumps(record) + "\n")
    return str(path)


def test_a_value_is_shown_as_typed_never_as_an_emoji(tmp_path):
    result = runner.invoke(app, ["check", _transcript(tmp_path)])
    assert result.exit_code == 1
    assert f"unsupported-value {MAC} (identifier)" in result.stdout
    assert "\U0001f4bf" not in result.stdout and ":tada:" in result.stdout


def test_a_terminal_gets_the_same_text_in_colour(tmp_path):
    path = _transcript(tmp_path)
    plain = runner.invoke(app, ["check", path, "-v"]).stdout
    coloured = runner.invoke(app, ["check", path, "-v"], env={"FORCE_COLOR": "1", "COLUMNS": "80"}).stdout
    assert coloured != plain and _ANSI.search(coloured)
    assert _ANSI.sub("", coloured) == plain


parts = st.lists(
    st.one_of(
        st.text(max_size=20),
        st.text("ab:[]/\\\t\r\x07\x08\x0b\x0c\x1b 漢é", max_size=20),
        st.tuples(st.text("ab:[]\t漢", max_size=10), st.sampled_from(["bold", "red", "dim"])),
    ),
    max_size=5,
)


@given(parts)
def test_plain_lines_are_what_rich_writes_to_a_file(line_parts):
    written = io.StringIO()
    lines = _Lines(written)
    lines.line(*line_parts)
    lines.flush()
    expected = io.StringIO()
    shown = [(visible(p[0]), p[1]) if isinstance(p, tuple) else visible(p) for p in line_parts]
    Console(file=expected, highlight=False, soft_wrap=True, emoji=False).print(Text.assemble(*shown))
    assert written.getvalue() == expected.getvalue()


@pytest.mark.parametrize("stream", ["file", "terminal"])
def test_controls_and_bidirectional_marks_from_a_transcript_are_shown_escaped(stream):
    written = _Tty() if stream == "terminal" else io.StringIO()
    lines = _Lines(written)
    lines.line("value ", ("ORD-1\x1b]0;pwned\x07\x1b[2J\u202egnp\x9b", "bold red"), " end")
    lines.flush(final=True)
    out = written.getvalue()
    assert "\x1b]" not in out and "\x07" not in out and "\u202e" not in out and "\x9b" not in out
    assert "ORD-1\\x1b]0;pwned\\x07\\x1b[2J\\u202egnp\\x9b" in _ANSI.sub("", out)


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_rich_decides_wherever_a_terminal_is_possible(monkeypatch):
    from grounding.cli.environment import report_environment

    def lines() -> _Lines:
        return _Lines(io.StringIO(), report_environment()["terminal_forced"])

    for name in TERMINAL_OVERRIDES:
        monkeypatch.delenv(name, raising=False)
    assert lines().plain  # no tty, no override: plain, without asking rich
    assert not _Lines(_Tty()).plain
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert not lines().plain
    monkeypatch.setenv("FORCE_COLOR", "")  # rich: an empty FORCE_COLOR means no terminal
    assert lines().plain


def test_a_check_written_to_a_pipe_does_not_import_rich_multiprocessing_or_contracts(tmp_path):
    # the start-up rule: keep rich off the start-up path where it is not used,
    # nor multiprocessing, which only --jobs uses, nor the contract module, which only a schema uses
    # main ends the process with os._exit: the modules are listed there, just before it does
    code = ("import os, sys\nsys.argv = ['ground', 'check', sys.argv[1]]\nend = os._exit\n"
            "def listed(code):\n"
            "    print([m for m in sys.modules if m.split('.')[0] in ('rich', 'multiprocessing')\n"
            "           or m == 'grounding.core.contract'], file=sys.stderr)\n"
            "    sys.stderr.flush()\n    end(code)\n"
            "os._exit = listed\nfrom grounding.cli.app import main\nmain()\n")
    env = {k: v for k, v in os.environ.items() if k not in TERMINAL_OVERRIDES}
    proc = subprocess.run([sys.executable, "-c", code, _transcript(tmp_path)], capture_output=True, text=True, env=env,
                          check=False)
    assert "unsupported" in proc.stdout
    assert proc.stderr.strip().splitlines()[-1] == "[]"


def test_a_report_and_its_errors_in_one_file_keep_their_order(tmp_path):
    # to a regular file lines are written in blocks: an error must still follow the answers before it
    fixtures = REPO / "fixtures"
    paths = [str(fixtures / name) for name in ("support_bot.jsonl", "malformed_line.jsonl", "support_bot.jsonl")]
    log = tmp_path / "log.txt"
    with log.open("w") as both:
        subprocess.run([sys.executable, "-m", "grounding", "check", *paths], stdout=both, stderr=both, check=False)
    with subprocess.Popen([sys.executable, "-m", "grounding", "check", *paths], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True) as piped:
        expected = piped.stdout.read()  # a pipe is written once per answer and error, in order
    written = log.read_text()
    assert written == expected
    lines = written.splitlines()
    errors = [at for at, line in enumerate(lines) if line.startswith("error: ")]
    flagged = [at for at, line in enumerate(lines) if "flagged (" in line and line.startswith(paths[0])]
    assert len(errors) == 2 and flagged[0] < errors[0] and errors[-1] < flagged[-1]
    assert lines[-1].startswith("8 conversations")
