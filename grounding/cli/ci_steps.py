"""The steps of the CI templates (the GitHub Action's action.yml, the GitLab CI component's
templates/ground.yml): ``ground check`` with the template's inputs, read from the environment.

Paths and options are split as a POSIX shell splits words (shlex), and a path with a glob character is
expanded here, so no shell ever evaluates an input:

    GROUND_PATHS='logs/ "two words.jsonl"' GROUND_OPTIONS='--min-digits 5' python -m grounding.cli.ci_steps github

Steps: ``github`` (the report on the log, in GROUND_FORMAT, github by default; the exit status goes to the
step's ``exit-code`` output), ``sarif`` (GROUND_SARIF, never failing), ``gitlab`` (the Code Quality report
GROUND_CODEQUALITY, never failing, then the JUnit report GROUND_JUNIT, whose run's exit status is the
step's).
"""

from __future__ import annotations

import glob
import os
import shlex
import sys

from grounding.cli.commands import app


def inputs(environ: dict[str, str]) -> list[str]:
    """The paths and options the template was given, as ``ground check`` arguments."""
    paths = []
    for word in shlex.split(environ.get("GROUND_PATHS", "")):
        matched = sorted(glob.glob(word, recursive=True)) if glob.has_magic(word) else []
        paths += matched or [word]  # a pattern that matches nothing is left for ground to report
    return [*paths, *shlex.split(environ.get("GROUND_OPTIONS", ""))]


def runs(step: str, environ: dict[str, str]) -> list[list[str]]:
    """The ``ground`` runs of a step, in order; the last one's exit status is the step's."""
    given = ["check", *inputs(environ)]
    if step == "sarif":
        return [[*given, "--output-format", "sarif", "--output", environ["GROUND_SARIF"], "--exit-zero"]]
    if step == "gitlab":
        quality = environ.get("GROUND_CODEQUALITY") or "gl-code-quality-report.json"
        junit = environ.get("GROUND_JUNIT") or "ground-junit.xml"
        return [[*given, "--output-format", "gitlab", "--output", quality, "--exit-zero", "--quiet"],
                [*given, "--output-format", "junit", "--output", junit]]
    return [[*given, "--output-format", environ.get("GROUND_FORMAT") or "github"]]


def _ground(arguments: list[str]) -> int:
    try:
        app(arguments, prog_name="ground")
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else (0 if done.code is None else 2)
    return 0


def main() -> None:
    step = sys.argv[1] if len(sys.argv) > 1 else "github"
    if step not in ("github", "sarif", "gitlab"):
        sys.exit(f"usage: python -m grounding.cli.ci_steps github|sarif|gitlab (not {step!r})")
    code = 0
    for arguments in runs(step, dict(os.environ)):
        code = _ground(arguments)
        if code == 2:  # a usage error: the next run would only say it again
            break
    output = os.environ.get("GITHUB_OUTPUT")
    if output and step == "github":  # the action's exit-code output
        with open(output, "a", encoding="utf-8") as stream:
            stream.write(f"exit-code={code}\n")
    sys.exit(code)


if __name__ == "__main__":
    main()
