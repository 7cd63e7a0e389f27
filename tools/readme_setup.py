"""The README's two set-up commands, read out of its marked block, and what it says the first prints.

``python3 -m tools.readme_setup expect FILE`` exits 1 unless FILE (what the first command printed) ends with
the output the README shows for it: CI's check. tests/edges/test_readme.py holds the commands .ci/run runs
to the block (``commands``). Standard library only: CI calls it before anything is installed.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
_BLOCK = re.compile(r"<!-- set-up -->\n```sh\n(.*?)```\n<!-- /set-up -->", re.DOTALL)
_SHOWN = re.compile(r"The first command prints[^\n]*\n(?:[^\n]+\n)*?\n```\n(.*?)```", re.DOTALL)


def commands(readme: str) -> list[str]:
    """The marked block's commands, one a line, each as written (a trailing comment is the shell's)."""
    match = _BLOCK.search(readme)
    if match is None:
        raise ValueError("README.md has no <!-- set-up --> ```sh block")
    return [line for line in match.group(1).splitlines() if line.strip()]


def shown_output(readme: str) -> str:
    """What the README says the first command prints."""
    match = _SHOWN.search(readme)
    if match is None:
        raise ValueError("README.md does not show what the first command prints")
    return match.group(1)


def main(argv: list[str]) -> int:
    readme = README.read_text(encoding="utf-8")
    if argv[:1] == ["expect"] and len(argv) == 2:
        printed = Path(argv[1]).read_text(encoding="utf-8")
        if printed.endswith(shown_output(readme)):
            return 0
        print(f"the first command did not print what README.md shows; it printed:\n{printed}", file=sys.stderr)
        return 1
    print("usage: python3 -m tools.readme_setup expect FILE", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
