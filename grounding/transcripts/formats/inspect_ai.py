"""Inspect AI evaluation logs: one conversation per sample (``samples[i]``), its ``messages`` OpenAI-like.

A log file is one evaluation (``eval``, ``plan``, ``results``, ``samples``); a ``.eval`` log is a zip
archive holding ``header.json`` and one ``samples/<id>_epoch_<n>.json`` per sample. The files reader
hands each sample on as a log of that one sample, so a record here is ``{"eval": …, "samples": [sample]}``.
A sample's messages differ from OpenAI Chat's in three ways, lowered here: a call names its function as a
string with its arguments as an object; a tool message names the ``function`` it answers; a long text may
be kept once in ``attachments`` and referred to as ``attachment://<hash>`` (read back where it stands).
Reasoning blocks are the model's, never its answer or evidence. Id: task/sample/epoch."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator

from grounding.errors import RecordError
from grounding.model import Conversation
from grounding.transcripts.formats import openai
from grounding.transcripts.formats.common import arguments_text
from grounding.transcripts.records import loads_exactly

_ATTACHMENT = "attachment://"
# Inspect compresses a .eval's members with zstd where the zstandard package is installed (as it is beside
# ground); zipfile reads that method only from Python 3.14
_ZSTD = 93
READ_CHUNK = 1 << 20


def is_log(document: object) -> bool:
    """Whether document is an Inspect AI evaluation log (its samples, or only its header)."""
    return isinstance(document, dict) and isinstance(document.get("eval"), dict) and (
        isinstance(document.get("samples"), list) or {"plan", "results"} <= document.keys())


def recognises(record: object) -> bool:
    return is_log(record) and isinstance(record.get("samples"), list)


def one_log_per_sample(log: dict) -> list[dict]:
    """A log as logs of one sample each (the files reader's records): each keeps the evaluation's header."""
    return [{"eval": log["eval"], "samples": [sample]} for sample in log["samples"]]


def archive_logs(archive: zipfile.ZipFile, data: bytes, limit: int) -> Iterator[dict | str]:
    """A .eval archive's samples (data: its bytes), each as a log of one sample; a str says why one was not
    read (larger than limit once decompressed, or not JSON)."""
    names = archive.namelist()
    header = loads_exactly(_member(archive, data, "header.json", limit)) if "header.json" in names else {}
    task = header.get("eval") if isinstance(header, dict) and isinstance(header.get("eval"), dict) else {}
    for name in sorted(name for name in names if name.startswith("samples/") and name.endswith(".json")):
        try:
            sample = loads_exactly(_member(archive, data, name, limit))
        except (ValueError, OverflowError) as error:
            yield f"{name} in the archive was not read: {error}"
            continue
        yield {"eval": task, "samples": [sample]}


def _member(archive: zipfile.ZipFile, data: bytes, name: str, limit: int) -> bytes:
    """A member's bytes, refused before it is decompressed when it says it is larger than limit."""
    info = archive.getinfo(name)
    if info.file_size > limit:
        raise ValueError(f"it is {info.file_size} bytes decompressed, over the limit of {limit} (--max-record-bytes)")
    if info.compress_type == _ZSTD:
        read = _zstd_member(data, info, limit)
    else:
        with archive.open(info) as member:
            read = member.read(limit + 1)
    if len(read) > limit:
        raise ValueError(f"it is over the limit of {limit} bytes decompressed (--max-record-bytes)")
    return read


def _zstd_member(data: bytes, info: zipfile.ZipInfo, limit: int) -> bytes:
    """A zstd member's bytes: its compressed bytes follow its local header (30 bytes, then its name and
    extra field, their lengths at bytes 26 and 28), read no further than limit + 1 decompressed."""
    import zstandard

    at = info.header_offset
    start = at + 30 + int.from_bytes(data[at + 26:at + 28], "little") + int.from_bytes(data[at + 28:at + 30], "little")
    chunks, size = [], 0
    try:
        with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data[start:start + info.compress_size])) as read:
            while size <= limit:
                chunk = read.read(min(READ_CHUNK, limit + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
    except zstandard.ZstdError as error:
        raise ValueError(f"its zstd data is corrupt ({error})") from None
    return b"".join(chunks)


def read(record: object, source: str, line: int) -> Conversation:
    if not recognises(record):
        raise RecordError("expected an Inspect AI evaluation log: {eval, samples: [...]}")
    samples = record["samples"]
    if len(samples) != 1:
        raise RecordError(f"an Inspect AI log of {len(samples)} samples: pass its path (each sample is read as its "
                          "own conversation), or one sample's log, {eval, samples: [sample]}")
    sample = samples[0]
    if not isinstance(sample, dict) or not isinstance(sample.get("messages"), list):
        raise RecordError("samples[0] has no messages list")
    attachments = sample.get("attachments") if isinstance(sample.get("attachments"), dict) else {}
    lowered = [_openai_message(message, index, attachments) for index, message in enumerate(sample["messages"])]
    task = record["eval"].get("task")
    conversation = openai.read({"messages": lowered}, source, line)
    sample_id = "/".join(str(part) for part in (task, sample.get("id"), sample.get("epoch")) if part is not None)
    return Conversation(source, line, sample_id or None, conversation.items, "inspect-ai")


def _openai_message(message: object, index: int, attachments: dict) -> dict:
    if not isinstance(message, dict):
        raise RecordError(f"samples[0].messages[{index}] must be an object, not {type(message).__name__}")
    role, content = message.get("role"), _attached(message.get("content"), attachments)
    if role == "assistant":
        lowered: dict = {"role": role, "content": _texts(content)}
        calls = message.get("tool_calls")
        if isinstance(calls, list) and calls:
            lowered["tool_calls"] = [_call(call, attachments) for call in calls if isinstance(call, dict)]
        return lowered
    if role == "tool":
        return {"role": role, "tool_call_id": message.get("tool_call_id"), "name": message.get("function"),
                "content": content if content not in (None, "") or not message.get("error") else
                _error_text(message["error"])}
    return {"role": role, "content": content}


def _call(call: dict, attachments: dict) -> dict:
    arguments = _attached(call.get("arguments"), attachments)
    return {"id": call.get("id"), "type": "function",
            "function": {"name": call.get("function"), "arguments": arguments_text(arguments)}}


def _texts(content: object) -> object:
    """An assistant's content without its reasoning blocks (the model's own thinking)."""
    if isinstance(content, list):
        return [part for part in content if not (isinstance(part, dict) and part.get("type") == "reasoning")]
    return content


def _error_text(error: object) -> str:
    return str(error.get("message", "")) if isinstance(error, dict) else str(error)


def _attached(value: object, attachments: dict) -> object:
    """value with each ``attachment://<hash>`` text read back from the sample's attachments."""
    if isinstance(value, str):
        if value.startswith(_ATTACHMENT):
            found = attachments.get(value[len(_ATTACHMENT):])
            return found if isinstance(found, str) else value
        return value
    if isinstance(value, list):
        return [_attached(item, attachments) for item in value]
    if isinstance(value, dict):
        return {key: _attached(item, attachments) for key, item in value.items()}
    return value
