"""What the run's reports take from the environment: reporters are told it, never read it themselves."""

from __future__ import annotations

import builtins
import os

# What may make rich write to a stream that is no terminal as to one: its environment overrides, a notebook.
TERMINAL_OVERRIDES = ("FORCE_COLOR", "TTY_COMPATIBLE", "DATABRICKS_RUNTIME_VERSION")


def report_environment() -> dict[str, object]:
    """The ReportOptions fields the environment sets: whether rich may take a stream that is no tty for a
    terminal, GitHub's step-summary file, GitLab's project folder (finding paths are made relative to it)."""
    return {
        "terminal_forced": "get_ipython" in vars(builtins) or any(name in os.environ for name in TERMINAL_OVERRIDES),
        "step_summary": os.environ.get("GITHUB_STEP_SUMMARY"),
        "project_dir": os.environ.get("CI_PROJECT_DIR", ""),
    }
