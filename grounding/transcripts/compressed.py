"""Compressed transcripts: gzip, and zstd (every frame, as `zstd -d` reads them)."""

from __future__ import annotations

import gzip
import io
from collections.abc import Mapping
from typing import BinaryIO

from grounding.errors import InputError
from grounding.transcripts.remote import is_remote, open_remote

_GZIP_MAGIC = b"\x1f\x8b"
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
READ_BUFFER = 1 << 20


def open_transcript(path: str, storage_options: Mapping[str, object] | None = None) -> BinaryIO:
    """A transcript file opened for reading its decompressed bytes: a local path, or a URL (transcripts.remote)."""
    if is_remote(path):
        raw = open_remote(path, storage_options)
        if path.endswith(".gz"):
            return _Closing(gzip.GzipFile(fileobj=raw, mode="rb"), raw)
        # an fsspec file's readline takes no size (a record's limit): read through a buffer that does
        return _zstd(raw, path) if path.endswith(".zst") else io.BufferedReader(raw, READ_BUFFER)
    if path.endswith(".gz"):
        return gzip.open(path, "rb")
    if path.endswith(".zst"):
        return _zstd(open(path, "rb"), path)
    return open(path, "rb", buffering=READ_BUFFER)


class _Closing(io.BufferedReader):
    """A decompressing reader that closes the stream under it too (GzipFile leaves a file object it was
    given open)."""

    def __init__(self, reader: BinaryIO, under: BinaryIO) -> None:
        super().__init__(reader, READ_BUFFER)
        self._under = under

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._under.close()


def _zstd(raw: BinaryIO, name: str) -> BinaryIO:
    try:
        import zstandard
    except ImportError:  # pragma: no cover - a declared dependency
        raise InputError(f"{name}: reading zstd needs the zstandard package (pip install zstandard)") from None
    # a buffered reader gives readline (zstandard's own reader has none) and reads 1 MB at a time
    return io.BufferedReader(_ZstdFrames(raw, zstandard.ZstdDecompressor()), READ_BUFFER)


class _ZstdFrames(io.RawIOBase):
    """The decompressed bytes of a zstd stream of one or more frames. A stream that ends inside a frame is
    an error (zstandard's stream reader ends quietly there, which would lose the rest without a word)."""

    def __init__(self, raw: BinaryIO, decompressor: object) -> None:
        self._raw, self._decompressor = raw, decompressor
        self._frame = decompressor.decompressobj()
        self._pending = b""
        self._started = False  # a frame has begun and not ended

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while not self._pending:
            chunk = self._raw.read(1 << 17)
            if not chunk:
                if self._started:
                    raise EOFError("the compressed data ends inside a frame (truncated?)")
                return 0
            self._feed(chunk)
        size = min(len(buffer), len(self._pending))
        buffer[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        return size

    def _feed(self, chunk: bytes) -> None:
        while chunk:
            self._started = True
            self._pending += self._frame.decompress(chunk)
            if not self._frame.eof:
                return
            chunk = self._frame.unused_data  # a next frame follows in the same chunk
            self._frame = self._decompressor.decompressobj()
            self._started = False

    def close(self) -> None:
        self._raw.close()
        super().close()


def decompressed(stream: BinaryIO) -> BinaryIO:
    """Standard input as text lines: gzip and zstd are told by their first bytes (a pipe has no name)."""
    if not hasattr(stream, "peek"):  # a stream in memory (a test's, an embedding program's)
        stream = io.BufferedReader(stream)
    head = stream.peek(4)[:4]
    if head.startswith(_GZIP_MAGIC):
        return gzip.GzipFile(fileobj=stream, mode="rb")
    if head.startswith(_ZSTD_MAGIC):
        return _zstd(stream, "standard input")
    return stream
