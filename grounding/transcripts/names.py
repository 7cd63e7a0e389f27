"""What a transcript file is called: the name endings a folder search, a URL prefix and the readers go by."""

from __future__ import annotations

TRANSCRIPT_SUFFIXES = (".jsonl", ".json", ".ndjson", ".eval")
WHOLE_DOCUMENT_SUFFIXES = (".json", ".eval")  # read whole, as one document (.eval: an Inspect AI zip archive)
COMPRESSED_SUFFIXES = (".gz", ".zst")


def is_transcript_name(name: str) -> bool:
    """Whether a file name is a transcript's: .jsonl, .json, .ndjson or .eval, plain or .gz / .zst."""
    for suffix in COMPRESSED_SUFFIXES:
        name = name.removesuffix(suffix)
    return name.endswith(TRANSCRIPT_SUFFIXES)
