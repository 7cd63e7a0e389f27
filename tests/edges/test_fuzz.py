"""A seeded mutation fuzzer over real-shaped transcripts of each format (issue 24).

Each mutant (byte flips, truncation, keys deleted or duplicated, types swapped, huge numbers, Unicode
oddities, deep nesting) must give no traceback, an exit code of 0, 1 or 2, no hang, a summary whose counts
add up, and the same output with ``--jobs 2`` as with one process, byte for byte.

CI runs a small fixed set. The long mode explores more::

    GROUND_FUZZ_MUTANTS=2000 GROUND_FUZZ_SEED=7 python3 -m pytest tests/test_fuzz.py -q
"""

from __future__ import annotations

import json
import os
import random
import signal

import pytest
from conftest import REPO, SHARED
from typer.testing import CliRunner

from grounding.cli.app import app

MUTANTS = int(os.environ.get("GROUND_FUZZ_MUTANTS", "24"))
SEED = int(os.environ.get("GROUND_FUZZ_SEED", "20261201"))
SECONDS_PER_MUTANT = 30
runner = CliRunner()


def _samples() -> dict[str, bytes]:
    """One sample per format: the fixtures, and the real format samples when shared/ is beside the repo."""
    found = {path.name: path.read_bytes() for path in sorted((REPO / "fixtures").glob("*.jsonl"))}
    real = SHARED / "corpus" / "formats" / "real"
    if real.is_dir():
        for path in sorted(real.rglob("*.json*")):
            if path.stat().st_size < 300_000:
                data = path.read_bytes()
                if path.suffix == ".json":  # one document: as one JSON Lines record
                    try:
                        data = json.dumps(json.loads(data)).encode() + b"\n"
                    except ValueError:
                        continue
                found[str(path.relative_to(real))] = data
    return found


def _mutate(data: bytes, rng: random.Random) -> bytes:
    how = rng.choice(["flip", "truncate", "structure", "structure", "unicode", "number", "nesting"])
    if how == "flip" and data:
        raw = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        return bytes(raw)
    if how == "truncate" and data:
        return data[: rng.randrange(len(data))]
    lines = data.splitlines()
    if not lines:
        return data
    index = rng.randrange(len(lines))
    try:
        record = json.loads(lines[index])
    except ValueError:
        return data
    if how == "structure":
        record = _change_structure(record, rng)
    elif how == "unicode":
        record = _replace_strings(record, rng, lambda text: text + rng.choice(
            ["\x00", "\x1b[2J", "\u202e", "\ud800", "\ufffd", "\u0301" * 50, "\U0001f600", "\r\n", "１２３４"]))
    elif how == "number":
        record = _replace_strings(record, rng, lambda text: rng.choice(
            ["9" * 5000, "-0", "1e999", "0x" + "f" * 64, "1,2,3,4,5", "NaN", "-1.5e-300"]))
    else:
        record = _nest(record, rng.choice([50, 500, 5000]))
    try:
        line = json.dumps(record, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")
    except (ValueError, RecursionError):
        return data
    lines[index] = line
    return b"\n".join(lines) + b"\n"


def _nodes(value: object) -> list[tuple[object, object]]:
    """(container, key) for every place in a parsed record."""
    found, stack = [], [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found += [(node, key) for key in node]
            stack += list(node.values())
        elif isinstance(node, list):
            found += [(node, i) for i in range(len(node))]
            stack += node
    return found


def _change_structure(record: object, rng: random.Random) -> object:
    places = _nodes(record)
    if not places:
        return record
    container, key = rng.choice(places)
    action = rng.choice(["delete", "duplicate", "swap"])
    if action == "delete":
        del container[key]
    elif action == "duplicate" and isinstance(container, list):
        container.insert(key, container[key])
    else:
        container[key] = rng.choice([None, True, 0, -1, "", "x", [], {}, [{}], {"type": {}}, 2**70, 1.5])
    return record


def _replace_strings(record: object, rng: random.Random, change) -> object:
    places = [(c, k) for c, k in _nodes(record) if isinstance(c[k], str)]
    for container, key in rng.sample(places, min(len(places), rng.randint(1, 3))):
        container[key] = change(container[key])
    return record


def _nest(record: object, depth: int) -> object:
    places = _nodes(record)
    if not places:
        return record
    container, key = places[0]
    inner: object = container[key]
    for _ in range(depth):
        inner = [inner]
    container[key] = inner
    return record


class _Hang(Exception):
    pass


def _on_alarm(signum, frame):
    raise _Hang


def _check(path) -> tuple[int, str]:
    result = runner.invoke(app, ["check", str(path), "--format", "json"], catch_exceptions=True)
    return result.exit_code, result.stdout if result.exception is None or isinstance(result.exception, SystemExit) \
        else f"EXCEPTION {type(result.exception).__name__}: {result.exception}"


def _adds_up(stdout: str) -> bool:
    document = json.loads(stdout)
    summary = document["summary"]
    statuses = sum(summary[k] for k in ("grounded", "derived", "flagged", "unjudgeable", "contract_unmet",
                                        "truncated", "refused", "unchecked"))
    return (statuses == summary["answers"] == len(document["answers"])
            and summary["errors"] == len(document["errors"])
            and summary["records"] >= summary["errors"] + summary["skipped"])


def _cases() -> list[tuple[str, int]]:
    names = sorted(_samples())
    return [(names[n % len(names)], n) for n in range(MUTANTS)]


@pytest.mark.parametrize(("sample", "number"), _cases())
def test_a_mutant_never_crashes_hangs_or_miscounts_and_jobs_2_agrees(tmp_path, sample, number):
    rng = random.Random(f"{SEED}/{sample}/{number}")
    mutant = _mutate(_samples()[sample], rng)
    path = tmp_path / "mutant.jsonl"
    path.write_bytes(mutant)
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(SECONDS_PER_MUTANT)
    try:
        code, out = _check(path)
        result = runner.invoke(app, ["check", str(path), "--format", "json", "--jobs", "2"])
    except _Hang:
        pytest.fail(f"{sample} mutant {number} ran past {SECONDS_PER_MUTANT} s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert not out.startswith("EXCEPTION"), f"{sample} mutant {number}: {out}"
    assert code in (0, 1, 2), f"{sample} mutant {number}: exit {code}"
    if out.strip():
        assert _adds_up(out), f"{sample} mutant {number}: the summary does not add up"
    assert result.stdout == out, f"{sample} mutant {number}: --jobs 2 differs from one process"
