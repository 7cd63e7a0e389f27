"""Read records from files and standard input, line by line, losing nothing.

A JSON Lines input is read one line at a time, so memory follows the largest
record, not the file. A ``.json`` file holds one conversation or an array of
them. Every line that cannot be read becomes a ``Problem`` with its file and
line; the rest of the input is still read.
"""

from __future__ import annotations

import io
import os
import stat
import sys
import zipfile
from collections.abc import Generator, Iterator
from typing import BinaryIO

from grounding.errors import InputError
from grounding.model import Problem, Record
from grounding.transcripts.compressed import READ_BUFFER, decompressed, open_transcript
from grounding.transcripts.folders import NotRegular
from grounding.transcripts.formats import inspect_ai
from grounding.transcripts.names import COMPRESSED_SUFFIXES, WHOLE_DOCUMENT_SUFFIXES
from grounding.transcripts.records import described, loads_exactly, loads_unchecked
from grounding.transcripts.remote import StorageOptions, is_remote

_BOM = b"\xef\xbb\xbf"


def known_size(files: list[str]) -> int | None:
    """The bytes a run will read, when every input is a plain file; None when one is compressed or a stream."""
    total = 0
    for path in files:
        if path == "-" or path.endswith(COMPRESSED_SUFFIXES) or is_remote(path):
            return None
        try:
            status = os.stat(path)
        except OSError:
            return None
        if not stat.S_ISREG(status.st_mode):
            return None
        total += status.st_size
    return total


def read_records(path: str, max_record_bytes: int | None = None,
                 storage_options: StorageOptions | None = None) -> Iterator[Record | Problem]:
    """Yield each record of one input (a path, a URL, or - for standard input)."""
    if path == "-":
        try:
            stream = decompressed(sys.stdin.buffer)
        except InputError as error:
            yield Problem("-", None, str(error))
            return
        try:
            yield from _lines(stream, "-", max_record_bytes)
        except (EOFError, OSError, ValueError) as error:  # a truncated or corrupt compressed stream
            yield Problem("-", None, f"cannot read the rest of standard input: {_reason(error)}")
        return
    if isinstance(path, NotRegular):
        yield Problem(path, None, "not a regular file (a FIFO, socket or device found in a folder), so not read: "
                                  "name it on the command line to read it")
        return
    if not is_remote(path) and os.path.isdir(path):  # a folder expand could not list
        try:
            os.listdir(path)
        except OSError as error:
            yield Problem(path, None, f"cannot read this folder ({error.strerror or error}); its transcripts "
                                      "were not checked")
        return
    try:
        stream = open_transcript(path, storage_options)
    except OSError as error:
        yield Problem(path, None, f"cannot open: {error.strerror or error}")
        return
    except InputError as error:
        yield Problem(path, None, str(error))
        return
    except Exception as error:  # noqa: BLE001 - a remote file system's own errors (credentials, network) vary
        yield Problem(path, None, f"cannot open: {type(error).__name__}: {error}")
        return
    with stream:
        try:
            if path.removesuffix(".gz").removesuffix(".zst").endswith(WHOLE_DOCUMENT_SUFFIXES):
                limit = max_record_bytes or MAX_RECORD_BYTES
                data = stream.read(limit + 1)
                if len(data) > limit:
                    yield Problem(path, 1, f"document is larger than the limit of {limit} bytes "
                                           "(--max-record-bytes); it was not read")
                    return
                yield from _document(data, path, limit)
            else:
                yield from _lines(stream, path, max_record_bytes)
        except (EOFError, OSError, ValueError) as error:  # a truncated or corrupt compressed file
            yield Problem(path, None, f"cannot read the rest of the file: {_reason(error)}")


def _reason(error: Exception) -> str:
    """An exception as a reason: some decompressors raise with no message at all."""
    return str(error) or type(error).__name__


# Real tool results reach tens of megabytes; a record past this is reported, never read into memory whole.
MAX_RECORD_BYTES = 128 * 1024 * 1024
# Lines of transcripts run to kilobytes and more: reading a file 1 MB at a time instead of 8 KB took
# reading the 50 MB benchmark's lines from 58 ms to 16 ms here.


def can_read_in_ranges(path: str) -> bool:
    """Whether a path is a plain JSON Lines file that worker processes can each read a range of."""
    if path == "-" or path.endswith(COMPRESSED_SUFFIXES) or path.endswith(".json"):
        return False
    return _readable_file(path)


def can_read_whole(path: str) -> bool:
    """Whether a path is a file a worker process can read whole: a compressed one (it cannot be cut into
    ranges), a ``.json`` document, or one in object storage (a worker reads it as well as the reading process)."""
    if path == "-":
        return False
    if is_remote(path):
        return True
    if not path.endswith(COMPRESSED_SUFFIXES) and not path.endswith(".json"):
        return False
    return _readable_file(path)


def _readable_file(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode) and os.access(path, os.R_OK)
    except OSError:
        return False


def line_ranges(path: str, size: int) -> Iterator[tuple[int, int]]:
    """(start, end) of consecutive byte ranges of a file, each of about size bytes and ending just after a
    line end (the last at the end of the file). Each end is found by seeking and reading on to the next line
    end: the lines between are not read here (their numbers are counted where they are read, see
    read_range)."""
    total = os.path.getsize(path)
    start = 0
    with open(path, "rb") as stream:
        while start < total:
            end = _after_line_end(stream, start + size - 1, total)
            yield start, end
            start = end


def _after_line_end(stream: BinaryIO, at: int, total: int) -> int:
    """The offset just after the first line end at or after at, or total when none comes before it."""
    stream.seek(at)
    while at < total:
        block = stream.read(_SCAN_BLOCK)
        if not block:
            break
        found = block.find(b"\n")
        if found >= 0:
            return min(at + found + 1, total)
        at += len(block)
    return total


_SCAN_BLOCK = 1 << 16  # a few lines: most records are shorter


def read_range(
    path: str, start: int, end: int, max_record_bytes: int | None = None
) -> Generator[Record | Problem, None, int | None]:
    """The records of a range of a JSON Lines file (see line_ranges), as read_records gives them, but for
    their line numbers: the range's first line is line 1. Returns how many lines the range holds (None when
    it could not be read), so that whoever reads the ranges in order can number their lines."""
    try:
        with open(path, "rb", buffering=max(io.DEFAULT_BUFFER_SIZE, min(READ_BUFFER, end - start))) as stream:
            stream.seek(start)
            return (yield from _lines(stream, path, max_record_bytes, start, end))
    except OSError as error:  # the file was readable when it was cut into ranges
        yield Problem(path, None, f"cannot read bytes {start} to {end}: {error.strerror or error}")
        return None


def count_lines(path: str, start: int, end: int) -> int:
    """How many lines a byte range of a file holds (0 when it cannot be read)."""
    try:
        with open(path, "rb") as stream:
            stream.seek(start)
            data = stream.read(end - start)
    except OSError:
        return 0
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def _lines(
    stream: BinaryIO,
    source: str,
    limit: int | None = None,
    offset: int = 0,
    end: int | None = None,
) -> Generator[Record | Problem, None, int]:
    """The records of the lines of stream, from byte offset (a line's start) up to byte end (another) or
    the end of the stream, numbered from 1; returns how many lines were read."""
    limit = limit or MAX_RECORD_BYTES
    number = 0
    while end is None or offset < end:
        raw = stream.readline(limit + 1)
        if not raw:
            break
        number += 1
        start = offset
        if len(raw) > limit and not raw.endswith(b"\n"):
            skipped = _skip_line(stream)
            offset += len(raw) + skipped
            yield Problem(source, number, f"record of {len(raw) + skipped} bytes is larger than the limit of "
                                          f"{limit} bytes (--max-record-bytes); it was not read")
            continue
        offset += len(raw)
        if start == 0 and raw.startswith(_BOM):
            raw = raw[len(_BOM) :]
        elif start == 0 and raw.startswith(_UTF16_BOMS + _UTF32_BOMS[1:]):
            yield Problem(source, number, _wide(raw))  # every line would be "invalid UTF-8": say why once
            return number
        elif start == 0 and raw.startswith(_ZIP):
            yield Problem(source, number, _ARCHIVE)  # every line would be "invalid UTF-8": say why once
            return number
        if raw.isspace():
            continue
        try:  # parsed with its line end: JSON allows whitespace after a document, and no copy is made
            value, exact = loads_unchecked(raw)
        except ValueError:
            yield Problem(source, number, _line_error(raw, start))
            continue
        yield Record(source, number, value, len(raw), raw, exact)
    return number


def _line_error(raw: bytes, start: int) -> str:
    """What is wrong with a line that did not parse, told on the line without its end (so a column is
    counted on the line, not past its end)."""
    try:
        loads_exactly(raw.rstrip(b"\r\n"))
    except ValueError as error:
        return described(error, raw, start)
    return "invalid JSON"  # not reached: the line end changes nothing else


def _skip_line(stream: BinaryIO) -> int:
    """Read past the rest of an over-long line in bounded chunks; return how many bytes were skipped."""
    skipped = 0
    while True:
        chunk = stream.readline(1 << 20)
        skipped += len(chunk)
        if not chunk or chunk.endswith(b"\n"):
            return skipped


def _document(data: bytes, source: str, limit: int = MAX_RECORD_BYTES) -> Iterator[Record | Problem]:
    if data.startswith(_UTF16_BOMS + _UTF32_BOMS[1:]):
        yield Problem(source, 1, _wide(data))
        return
    if data.startswith(_ZIP):
        yield from _archive(data, source, limit)
        return
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    if not data.strip():
        return
    try:
        document = loads_exactly(data)
    except ValueError as error:
        if _is_json_lines(data):  # a .json file that holds JSON Lines (a common misnaming): read it so
            yield from _lines(io.BytesIO(data), source)
            return
        yield Problem(source, 1, described(error, data))
        return
    if isinstance(document, list) and document and all(_is_conversation(item) for item in document):
        for item in document:
            yield Record(source, 1, item, document=data)
    elif inspect_ai.recognises(document):  # an evaluation: each sample its own conversation
        for item in inspect_ai.one_log_per_sample(document):
            yield Record(source, 1, item, document=data)
    else:
        yield Record(source, 1, document, document=data)


_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")  # UTF-32's little-endian mark begins with UTF-16's
_ZIP = b"PK\x03\x04"  # a zip archive's first bytes (Inspect AI's .eval logs are zip archives)
_ARCHIVE = ("the file is a zip archive, not JSON Lines; of archives ground reads Inspect AI .eval logs alone: "
            'export its conversations as JSON Lines, one {"messages": [...]} per line')


def _archive(data: bytes, source: str, limit: int) -> Iterator[Record | Problem]:
    """An Inspect AI .eval log's samples, each a record, read from the archive in memory (nothing is
    extracted to disk); any other archive is a problem saying what it is."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError) as error:
        yield Problem(source, 1, f"the file starts as a zip archive but cannot be read as one ({error})")
        return
    with archive:
        if "header.json" not in archive.namelist():
            yield Problem(source, 1, _ARCHIVE)
            return
        try:
            for item in inspect_ai.archive_logs(archive, data, limit):
                yield Problem(source, 1, item) if isinstance(item, str) else Record(source, 1, item)
        except (ValueError, zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError) as error:
            # NotImplementedError, RuntimeError: a compression method zipfile cannot read
            yield Problem(source, 1, f"the Inspect AI log cannot be read: {error}")
_UTF32_BOMS = (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")


def _wide(data: bytes) -> str:
    """Why a file with a UTF-16 or UTF-32 byte order mark is not read, naming which it is."""
    encoding = "UTF-32" if data.startswith(_UTF32_BOMS) else "UTF-16"
    return (f"the file is {encoding} (it starts with a {encoding} byte order mark); ground reads UTF-8: convert "
            f"it, e.g. iconv -f {encoding} -t UTF-8 FILE > FILE.utf8.jsonl")


def _is_json_lines(data: bytes) -> bool:
    """Whether a document that did not parse whole is JSON values one per line (two or more)."""
    lines = [line for line in data.splitlines() if line.strip()]
    if len(lines) < 2:
        return False
    try:
        for line in lines[:2]:
            loads_exactly(line)
    except ValueError:
        return False
    return True


def _is_conversation(item: object) -> bool:
    return (isinstance(item, dict) and "messages" in item) or isinstance(item, list)


















