"""ground: check that the values in an agent's final answers were read, not invented."""

__version__ = "0.1.0"
