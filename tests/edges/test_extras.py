"""Each URL extra, installed (alone, as .ci/run installs each in a venv of its own), gives its schemes a file
system; the http one reads a transcript from a server on this machine as the local file reads."""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading
import tomllib

import pytest
from conftest import REPO

from grounding.transcripts.remote import EXTRAS

# extra: (a scheme it brings, the module that implements it)
URL_EXTRAS = {"s3": ("s3", "s3fs"), "gcs": ("gs", "gcsfs"), "azure": ("az", "adlfs"), "http": ("https", "aiohttp")}


def test_every_url_extra_is_declared_in_the_project_and_named_for_its_schemes():
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert set(EXTRAS.values()) == set(URL_EXTRAS) <= set(declared)
    for extra, (scheme, _) in URL_EXTRAS.items():
        assert EXTRAS[scheme] == extra


@pytest.mark.parametrize("extra", sorted(URL_EXTRAS))
def test_an_installed_url_extra_gives_its_scheme_a_file_system(extra):
    scheme, module = URL_EXTRAS[extra]
    pytest.importorskip(module, reason=f"the {extra} extra is not installed (pip install '.[{extra}]')")
    import fsspec

    implementation = fsspec.get_filesystem_class(scheme)
    assert implementation.__module__.split(".")[0] in (module, "fsspec")


def test_the_http_extra_reads_a_transcript_served_on_this_machine(tmp_path):
    pytest.importorskip("aiohttp", reason="the http extra is not installed (pip install '.[http]')")
    (tmp_path / "support_bot.jsonl").write_bytes((REPO / "fixtures" / "support_bot.jsonl").read_bytes())
    handler = functools.partial(_Quiet, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/support_bot.jsonl"
        served = _check(url, "--format", "concise")
    finally:
        server.shutdown()
    local = _check(str(tmp_path / "support_bot.jsonl"), "--format", "concise")
    assert served.returncode == local.returncode == 1, served.stderr
    assert served.stdout.replace(url, "X") == local.stdout.replace(str(tmp_path / "support_bot.jsonl"), "X")


def test_a_url_whose_host_refuses_is_one_line_naming_it(tmp_path):
    """R39: ftp:// connects when its file system is made: a refused host was a traceback and exit 1."""
    pytest.importorskip("fsspec", reason="fsspec is not installed (every URL extra brings it)")
    import socket

    with socket.socket() as closed:  # a port on this machine that nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    refused = _check(f"ftp://127.0.0.1:{port}/t.jsonl")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert f"error: ftp://127.0.0.1:{port}/t.jsonl: cannot connect (Connection refused)" in refused.stderr


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass


def _check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grounding", "check", *args], capture_output=True, text=True,
                          timeout=120, cwd=REPO)
