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


# The contract's story: the model first answers in prose; re-asked for the shape, it answers JSON with an
# invented id; given the gate's correction, it reads the order and answers JSON with the real one.
SCHEMA = {"type": "object", "required": ["order", "status"], "additionalProperties": False,
          "properties": {"order": {"type": "string"}, "status": {"enum": ["shipped", "pending"]}}}
PROSE = "Your last order has shipped."
INVENTED_JSON = json.dumps({"order": "ORD-55120", "status": "shipped"})
REAL_JSON = json.dumps({"order": "ORD-40001", "status": "shipped"})
CANNED = {"order": "unknown", "status": "pending"}


def contract_reply(texts: list[str], read_result: bool, stubborn: bool = False) -> str | None:
    """The scripted model's next answer under a contract (None: it calls the tool)."""
    if read_result:
        return REAL_JSON
    if corrected(texts):
        return None
    if any(grounding.contract.SCHEMA_CHECK in text for text in texts) and not stubborn:
        return INVENTED_JSON
    return PROSE
