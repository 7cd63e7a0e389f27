"""What a reporter asks of the stream it writes to."""

from __future__ import annotations

import os
import stat
from typing import TextIO


def is_regular_file(stream: TextIO) -> bool:
    """Whether a stream writes to a regular file (read when the run ends), not a pipe or a terminal (read as
    it is written, where each answer's lines are flushed when written)."""
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):  # no file descriptor (a test's buffer), or a closed one
        return False
