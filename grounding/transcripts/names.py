"""What a transcript file is called: the name endings a folder search, a URL prefix and the readers go by."""

from __future__ import annotations

TRANSCRIPT_SUFFIXES = (".jsonl", ".json", ".ndjson")
COMPRESSED_SUFFIXES = (".gz", ".zst")


def is_transcript_name(name: str) -> bool:
    """Whether a file name is a transcript's: .jsonl, .json or .ndjson, plain or .gz / .zst."""
    for suffix in COMPRESSED_SUFFIXES:
        name = name.removesuffix(suffix)
    return name.endswith(TRANSCRIPT_SUFFIXES)
