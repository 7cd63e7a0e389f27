"""Write an injected-fabrication twin of coding-agent sessions, the way ``dev.injected.jsonl`` is built.

    python -m tools.inject_coding OUT_DIR [SESSION.jsonl ...]

For each session (default: ``shared/corpus/coding/*.jsonl`` and the Claude Code samples beside it), the
last final answer that holds a grounded value has one digit of one such value changed (``9`` to ``0``,
``a1b2c3d`` to ``a1b2c4d``): a line number, a version, a hash, a function's name, an id. The changed
spelling occurs nowhere else in the session (a case-insensitive substring of every line), and every other
byte of the file is kept. Each twin is written under OUT_DIR with the session's name, and
``OUT_DIR/injected.json`` lists, per file, the original and the mutated text. The tests build the twin in
a temporary folder and ask that ``ground check`` flags every mutated value.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from grounding.core.answer.candidates import read_answer
from grounding.core.settings import Settings
from grounding.model import JudgedAnswer, Summary
from grounding.run.runner import judge_inputs
from tools.quality import one_digit_away

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def default_sessions() -> list[Path]:
    coding = sorted((SHARED / "coding").glob("*.jsonl"))
    samples = sorted((SHARED / "formats" / "real" / "claude-code").rglob("*.jsonl"))
    return coding + samples


def inject(session: Path, out: Path) -> dict | None:
    """Write the twin of session into out and say what changed; None when no final answer holds a
    grounded value that can be changed into a spelling found nowhere in the session."""
    answers = [event for event in judge_inputs([str(session)], Settings(), Summary())
               if isinstance(event, JudgedAnswer)]
    lines = session.read_bytes().decode("utf-8").split("\n")
    lowered = session.read_text(encoding="utf-8").lower()
    for answer in reversed(answers):
        unsupported = {finding.value for finding in answer.verdict.unsupported}
        for candidate in read_answer(answer.text, Settings()).candidates:
            if candidate.value in unsupported or not answer.line:
                continue
            for mutated in reversed(one_digit_away(candidate.text)):  # the last digit first
                at = answer.line - 1
                if candidate.text not in lines[at] or mutated.lower() in lowered:
                    continue
                twin = list(lines)
                cut = twin[at].rindex(candidate.text)
                twin[at] = twin[at][:cut] + mutated + twin[at][cut + len(candidate.text) :]
                (out / session.name).write_bytes("\n".join(twin).encode("utf-8"))
                return {"file": session.name, "line": answer.line, "original": candidate.text, "mutated": mutated}
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder the twin is written into (created)")
    parser.add_argument("sessions", nargs="*", type=Path, help="session files (default: the shared coding corpus)")
    args = parser.parse_args(argv)
    sessions = args.sessions or default_sessions()
    if not sessions:
        print("no session given, and shared/corpus/coding is not beside the repository", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    made = [found for session in sessions if (found := inject(session, args.out)) is not None]
    (args.out / "injected.json").write_text(json.dumps(made, indent=2) + "\n")
    print(f"{len(made)} of {len(sessions)} sessions have an injected twin in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
