"""The story every adapter test tells, framework by framework: a customer asks for their last order; the
scripted model first invents an order id; given the gate's correction it calls the tool and answers with
the real one (or, stubborn, repeats the invention). The recorded run is then checked as ground check reads it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import grounding

QUESTION = "What is the status of my last order?"
ORDER = {"order_id": "ORD-40001", "status": "shipped"}
INVENTED = "Your last order ORD-55120 has shipped."
REAL = "Your last order ORD-40001 has shipped."


def corrected(texts: list[str]) -> bool:
    """The model has been sent the gate's correction (inside whatever the framework wraps it in)."""
    return any(grounding.EVIDENCE_CHECK_FRAME_PREFIX in text for text in texts)


def recheck(record: object, tmp_path: Path) -> list[dict]:
    """The answers `ground check --format json` gives for the recorded run, written as one JSON line."""
    path = tmp_path / "run.jsonl"
    path.write_text(json.dumps(record) + "\n")
    proc = subprocess.run([sys.executable, "-m", "grounding", "check", str(path), "--format", "json"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)["answers"]
