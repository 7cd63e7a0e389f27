"""Inputs in object storage or on the web (``s3://``, ``gs://``, ``az://``, ``https://``, ``file://``): listed,
globbed and opened through fsspec, an optional extra. A path with no scheme is a local path, read as ever.

Storage options (``--storage-option KEY=VALUE``, the ``storage-options`` configuration table) go to the
file system as its keyword arguments: credentials, ``endpoint_url``, ``anon``, … as fsspec's
implementation for the scheme names them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import BinaryIO

from grounding.errors import InputError
from grounding.transcripts.names import is_transcript_name

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
# The extra that brings a scheme's file system (pip install 'ground-evidence[EXTRA]').
EXTRAS = {"s3": "s3", "s3a": "s3", "gs": "gcs", "gcs": "gcs", "az": "azure", "abfs": "azure", "abfss": "azure",
          "adl": "azure", "http": "http", "https": "http"}
_GLOB = re.compile(r"[*?\[]")

StorageOptions = Mapping[str, object]


def is_remote(path: str) -> bool:
    """Whether path names a file through a scheme (``s3://bucket/key``), not a local path.

    >>> is_remote("s3://logs/2026/a.jsonl.gz"), is_remote("logs/a.jsonl"), is_remote("C:/logs/a.jsonl")
    (True, False, False)
    """
    return _SCHEME.match(path) is not None


def filesystem(url: str, options: StorageOptions | None = None) -> tuple[object, str]:
    """The fsspec file system of url's scheme, and url's path in it; what is missing is an InputError naming
    the extra to install."""
    scheme = _SCHEME.match(url).group(1).lower()
    extra = EXTRAS.get(scheme)
    install = f"pip install 'ground-evidence[{extra}]'" if extra else "pip install fsspec and its file system"
    try:
        import fsspec.core
    except ImportError:
        raise InputError(f"{url}: reading {scheme}:// needs fsspec: {install}") from None
    try:
        return fsspec.core.url_to_fs(url, **dict(options or {}))
    except ImportError as error:  # fsspec knows the scheme; its implementation is not installed
        raise InputError(f"{url}: reading {scheme}:// needs its file system ({error.name or error}): {install}"
                         ) from None
    except ValueError as error:
        raise InputError(f"{url}: {error}") from None
    except TypeError as error:  # a storage option the file system does not take
        raise InputError(f"{url}: a storage option is not one the {scheme}:// file system takes ({error})") from None
    except OSError as error:  # a file system that connects when it is made (ftp://, sftp://): refused, no host
        raise InputError(f"{url}: cannot connect ({error.strerror or error})") from None


def expand_remote(url: str, options: StorageOptions | None = None) -> list[str]:
    """The files url names: itself, the transcripts under it (a prefix, sorted), or what its glob matches
    (sorted); each as a URL. None found is an InputError (a gate that reads nothing must not pass)."""
    fs, path = filesystem(url, options)
    try:
        if _GLOB.search(path):
            found = sorted(fs.glob(path))
        elif fs.isdir(path):
            found = sorted(p for p in fs.find(path) if is_transcript_name(p.rsplit("/", 1)[-1]))
        elif fs.exists(path):
            found = [path]
        else:
            raise InputError(f"{url}: No such file or directory")
    except InputError:
        raise
    except Exception as error:  # noqa: BLE001 - a file system's own errors (credentials, network) vary
        raise InputError(f"{url}: cannot list ({type(error).__name__}: {error})") from None
    if not found:
        raise InputError(f"{url}: no file matches")
    return [fs.unstrip_protocol(p) for p in found]


def open_remote(url: str, options: StorageOptions | None = None) -> BinaryIO:
    """url opened for reading, its bytes as stored (decompressing is the caller's)."""
    fs, path = filesystem(url, options)
    return fs.open(path, "rb")
