"""Compressed transcripts: gzip, and zstd (every frame, as `zstd -d` reads them)."""

from __future__ import annotations

import gzip
import io
import os
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
    if path.endswith((".gz", ".zst")):
        _named_as_held(path)
    if path.endswith(".gz"):
        return gzip.open(path, "rb")
    if path.endswith(".zst"):
        return _zstd(open(path, "rb"), path)
    return open(path, "rb", buffering=READ_BUFFER)


def _named_as_held(path: str) -> None:
    """A .gz or .zst file holds what its name says, told by its first bytes (gzip's and zstd's magic
    numbers): a mislabelled archive is an InputError naming what it holds, not the other decompressor's
    error (a ZstdError escaped as a traceback)."""
    with open(path, "rb") as raw:
        head = raw.read(4)
    held = "gzip" if head.startswith(_GZIP_MAGIC) else "zstd" if head.startswith(_ZSTD_MAGIC) else None
    named = "gzip" if path.endswith(".gz") else "zstd"
    if not head or held == named:
        return
    suffix = "." + path.rsplit(".", 1)[1]
    if held is None:
        raise InputError(f"not {named} data (it begins with no {named} header): compress it with {named}, or "
                         f"drop {suffix} from its name")
    right = os.path.basename(path.removesuffix(suffix)) + (".gz" if held == "gzip" else ".zst")
    raise InputError(f"not {named} data: it holds {held} data (rename it {right})")


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
    return io.BufferedReader(_ZstdFrames(raw, zstandard), READ_BUFFER)


class _ZstdFrames(io.RawIOBase):
    """The decompressed bytes of a zstd stream of one or more frames, never more at a time than is asked
    for: zstandard's stream reader bounds its output by the read's size (a 92 KB frame can hold 3 GB; a
    decompressobj gives a chunk's output whole). That reader ends quietly where its input ends, so the
    compressed bytes are walked as they pass (_FrameWalk): a stream that ends inside a frame is an error,
    never the rest lost without a word."""

    def __init__(self, raw: BinaryIO, zstandard: object) -> None:
        self._raw = raw
        self._walk = _FrameWalk()
        self._reader = zstandard.ZstdDecompressor().stream_reader(  # type: ignore[attr-defined]
            _Walked(raw, self._walk), read_across_frames=True)
        self._error = zstandard.ZstdError  # type: ignore[attr-defined]

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        try:
            size = self._reader.readinto(buffer)
        except self._error as error:  # corrupt data: a ValueError, as a bad gzip stream's is an OSError
            raise ValueError(f"not valid zstd data ({error})") from None
        if size == 0 and not self._walk.at_frame_end:
            raise EOFError("the compressed data ends inside a frame (truncated?)")
        return size

    def close(self) -> None:
        self._raw.close()
        super().close()


class _Walked(io.RawIOBase):
    """The compressed bytes, each read shown to a _FrameWalk on its way to the decompressor."""

    def __init__(self, raw: BinaryIO, walk: _FrameWalk) -> None:
        self._raw, self._walk = raw, walk

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        chunk = self._raw.read(size)
        self._walk.feed(chunk)
        return chunk

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        chunk = self.read(len(buffer))
        buffer[: len(chunk)] = chunk
        return len(chunk)


class _FrameWalk:
    """Where a zstd stream stands between frames, from its frame and block headers alone (RFC 8878): each
    header says how many bytes follow it, so nothing is decompressed to know whether the stream ended at
    a frame's end. A header is gathered in ``_head`` until complete; ``_skip`` bytes of content follow."""

    def __init__(self) -> None:
        self._head = bytearray()
        self._want = 4  # the bytes the header being gathered needs: a frame's magic number first
        self._step = self._magic
        self._skip = 0

    @property
    def at_frame_end(self) -> bool:
        return self._step == self._magic and not self._head and self._skip == 0

    def feed(self, chunk: bytes) -> None:
        at, end = 0, len(chunk)
        while at < end:
            if self._skip:
                taken = min(self._skip, end - at)
                self._skip -= taken
                at += taken
                continue
            taken = min(self._want - len(self._head), end - at)
            self._head += chunk[at: at + taken]
            at += taken
            if len(self._head) == self._want:
                head = bytes(self._head)
                self._head.clear()
                self._step(head)

    def _next(self, step: object, want: int, skip: int = 0) -> None:
        self._step, self._want, self._skip = step, want, skip  # type: ignore[assignment]

    def _magic(self, head: bytes) -> None:
        if head == _ZSTD_MAGIC:
            self._next(self._descriptor, 1)
        elif head[1:] == b"\x2a\x4d\x18" and head[0] & 0xF0 == 0x50:  # a skippable frame: its size follows
            self._next(self._skippable, 4)
        else:  # not zstd: the decompressor says so; the walk stays where it is
            self._next(self._magic, 4)

    def _skippable(self, head: bytes) -> None:
        self._next(self._magic, 4, int.from_bytes(head, "little"))

    def _descriptor(self, head: bytes) -> None:
        flags = head[0]
        single_segment = bool(flags & 0x20)
        self._checksum = 4 if flags & 0x04 else 0
        content_size = (1 if single_segment else 0, 2, 4, 8)[flags >> 6]
        rest = (0 if single_segment else 1) + (0, 1, 2, 4)[flags & 0x03] + content_size
        if rest:
            self._next(self._block, 3, rest)  # the window, dictionary id and content size, skipped
        else:
            self._next(self._block, 3)

    def _block(self, head: bytes) -> None:
        header = int.from_bytes(head, "little")
        last, kind, size = header & 1, (header >> 1) & 3, header >> 3
        content = 1 if kind == 1 else size  # an RLE block holds one byte, repeated size times
        if last:
            self._next(self._magic, 4, content + self._checksum)
        else:
            self._next(self._block, 3, content)


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
