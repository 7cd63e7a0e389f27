"""Scripts that measure ground, run from the repository root (``python -m tools.bench``); not in the wheel."""
