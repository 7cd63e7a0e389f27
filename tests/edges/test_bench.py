"""The benchmark: its parse-only baseline (what it reads, and that it carries nothing else into its run), its table."""

import ast
import subprocess
import sys

from conftest import REPO

from grounding.core.settings import Settings
from grounding.model import Summary
from grounding.run.runner import judge_inputs
from tools.parse_only import parse_only


def test_the_baseline_sees_every_answer_ground_judges():
    for name in ("support_bot.jsonl", "storage_anthropic.jsonl"):
        path = str(REPO / "fixtures" / name)
        summary = Summary()
        list(judge_inputs([path], Settings(), summary))
        assert parse_only(path) == summary.answers > 0


def test_the_baseline_process_imports_nothing_but_orjson():
    # its start-up is part of (a): modules the benchmark script needs must not weigh on it
    alone = "import runpy, sys, orjson\nprint(sorted(sys.modules), file=sys.stderr)"
    baseline = ("import runpy, sys\nsys.argv = ['x', sys.argv[1]]\n"
                "runpy.run_module('tools.parse_only', run_name='__main__')\nprint(sorted(sys.modules), file=sys.stderr)")
    path = str(REPO / "fixtures" / "support_bot.jsonl")
    found = [subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, check=True, cwd=REPO)
             for code in (alone, baseline)]
    assert found[1].stdout.strip().isdigit()
    modules = [set(ast.literal_eval(proc.stderr.strip().splitlines()[-1])) for proc in found]
    assert modules[1] - modules[0] <= {"tools", "tools.parse_only"}


def test_the_gates_benchmark_history_is_twenty_messages_with_one_invented_value():
    import grounding
    from tools.bench import typical_history

    history, answer = typical_history()
    decision = grounding.Gate("guard").decide(history, answer)
    assert len(history) == 20 and decision.verdict.candidates == 8
    assert [f.text for f in decision.unsupported] == ["1Z999AA10123456799"]


def test_the_table_splits_the_cpu_ratio_into_start_up_and_judging(capsys, tmp_path):
    from tools.bench import Run, _print_table

    path = tmp_path / "in.jsonl"
    path.write_bytes(b"x" * 1_000_000)
    runs = [Run("parse-only", 0.05, 15, 100, 0.05), Run("ground check", 0.30, 25, 100, 0.30),
            Run("check --jobs 2", 0.25, 24, 100, 0.35), Run("start-up only", 0.10, 22, 0, 0.10)]
    _print_table(str(path), runs, 1)
    printed = capsys.readouterr().out.splitlines()
    start_up = next(line for line in printed if line.lstrip().startswith("start-up only")).split()
    assert start_up[3:5] == ["-", "-"] and start_up[-1] == "2.00"  # no rate of a run that reads nothing
    assert printed[-1].strip() == "of (b)'s CPU ratio, start-up is 2.00 and judging the input 4.00"


def test_a_judging_share_under_the_start_ups_noise_is_said_so(capsys, tmp_path):
    from tools.bench import Run, _print_table

    path = tmp_path / "tiny.jsonl"
    path.write_bytes(b"x")
    runs = [Run("parse-only", 0.05, 15, 1, 0.05), Run("ground check", 0.11, 25, 1, 0.11),
            Run("check --jobs 2", 0.20, 24, 1, 0.20), Run("start-up only", 0.12, 22, 0, 0.12)]
    _print_table(str(path), runs, 1)
    assert capsys.readouterr().out.splitlines()[-1].endswith("judging the input within the start-up's noise")


def test_the_streaming_floor_times_the_checks_a_stream_asks_and_no_other():
    # the floor row times a stream over a proxy of the session: the proxy must judge as the session does
    from grounding import Session
    from grounding.streaming import Stream
    from tools.bench import _checks_alone, _TimedChecks, typical_history

    history, answer = typical_history()
    session = Session()
    session.extend(history)
    answer = answer + "\nIt left on line two.\n" + answer
    timed = _TimedChecks(session)
    stream = Stream(timed, "guard")
    for at in range(0, len(answer), 32):
        stream.feed(answer[at : at + 32])
    _, verdict = stream.finish()
    assert verdict == session.check(answer) and timed.cpu > 0
    assert [f.text for f in verdict.unsupported] == ["1Z999AA10123456799"]
    assert stream.released == answer[: answer.index("1Z999AA10123456799")]
    assert _checks_alone(session, [answer]) > 0
