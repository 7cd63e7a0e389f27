"""``--output-dir DIR`` (a folder, or a URL in object storage): the JSON Lines report cut into one file per
partition of the input, and a ``summary.json``.

A partition is what the run judged of one input file, in the order it was judged: ``part-00000.jsonl``,
``part-00001.jsonl``, … hold the answers of each file in turn, and a conversation put together from several
files (a trace's spans) comes in a partition of its own where the run judged it, last. Read in order of
their names, the files are the ``--output-format json-lines`` report of the same run, byte for byte.
``summary.json`` holds the run's summary and the records that could not be read (as the JSON report's
``summary`` and ``errors``); a job reads its exit status from it, or from ``ground``'s own.

In a local folder the run writes into a hidden folder inside it and moves its files in when it ends: a run
that fails (a full disk, a quota) or is stopped leaves the previous run's files as they were and nothing
half-written; a run that ends removes the previous run's partitions it did not write, so the folder only
ever holds one run. In object storage (no rename there) the partitions are written in place, and the
previous run's surplus ones removed at the end.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from typing import TextIO

import orjson

from grounding.errors import GroundingError
from grounding.model import JudgedAnswer, Problem, Summary
from grounding.reporters.json_report import problem_json
from grounding.transcripts.remote import StorageOptions, filesystem, is_remote

PART_NAME = "part-{:05d}.jsonl"
SUMMARY_NAME = "summary.json"


class OutputDir:
    """A reporter (answer, problem, finish) writing the partitions of a run into a folder or a URL; discard()
    leaves the folder as the previous run left it."""

    def __init__(self, directory: str, storage_options: StorageOptions | None = None) -> None:
        self.directory = directory.rstrip("/") or "/"
        self.storage_options = storage_options
        self.problems: list[dict] = []
        self.parts = 0
        self._source: str | None = None
        self._part: TextIO | None = None
        self._remote = is_remote(self.directory)
        self._staging = self._make_folder()

    def _make_folder(self) -> str:
        """Make the folder, and (local) the hidden folder the run writes in: a folder that cannot be written
        is refused here, before any input is read."""
        try:
            if self._remote:
                fs, path = filesystem(self.directory, self.storage_options)
                fs.makedirs(path, exist_ok=True)
                return self.directory
            os.makedirs(self.directory, exist_ok=True)
            # a hidden name with no transcript suffix: a folder search never reads it as an input
            return tempfile.mkdtemp(prefix=".ground-run-", dir=self.directory)
        except OSError as error:
            raise GroundingError(f"--output-dir {self.directory}: cannot write there ({error.strerror or error})") \
                from None

    def _open(self, name: str) -> TextIO:
        target = f"{self._staging}/{name}"
        try:
            if self._remote:
                fs, path = filesystem(target, self.storage_options)
                return fs.open(path, "w", encoding="utf-8")
            return open(target, "w", encoding="utf-8")  # noqa: SIM115 - closed when the partition ends
        except OSError as error:
            raise self.unwritable(error, name) from None

    def unwritable(self, error: OSError, name: str | None = None) -> GroundingError:
        """The error of a write that failed, naming the folder (and the file), the OS's reason and what is left."""
        where = f" {name}" if name else ""
        kept = "" if self._remote else "; the folder holds the previous run's files as they were"
        return GroundingError(f"--output-dir {self.directory}: cannot write{where} ({error.strerror or error}){kept}")

    def answer(self, judged: JudgedAnswer) -> None:
        try:
            if self._part is None or judged.source != self._source:  # the next partition
                self._close_part()
                self._part = self._open(PART_NAME.format(self.parts))
                self.parts += 1
                self._source = judged.source
            self._part.write(orjson.dumps(judged.to_dict()).decode() + "\n")
        except OSError as error:  # a full disk, a quota: the run's error, naming the partition
            raise self.unwritable(error, PART_NAME.format(self.parts - 1)) from None

    def problem(self, problem: Problem) -> None:
        self.problems.append(problem_json(problem))

    def _close_part(self) -> None:
        if self._part is not None:
            part, self._part = self._part, None
            part.close()

    def finish(self, summary: Summary) -> None:
        try:
            self._close_part()
            with self._open(SUMMARY_NAME) as out:
                out.write(orjson.dumps({"tool": "ground", "partitions": self.parts, "errors": self.problems,
                                        "summary": summary.as_json()}, option=orjson.OPT_INDENT_2).decode() + "\n")
            self._put_in_place()
        except OSError as error:
            raise self.unwritable(error) from None

    def _put_in_place(self) -> None:
        """The run's files moved into the folder, and the previous run's other partitions removed."""
        written = {PART_NAME.format(number) for number in range(self.parts)} | {SUMMARY_NAME}
        if self._remote:
            fs, path = filesystem(self.directory, self.storage_options)
            for found in fs.glob(f"{path}/part-*.jsonl"):
                if found.rsplit("/", 1)[-1] not in written:
                    fs.rm(found)
            return
        for name in os.listdir(self.directory):
            if _PART.fullmatch(name) and name not in written:
                os.remove(os.path.join(self.directory, name))
        for name in sorted(written):  # the partitions first, the summary last: it says the run is whole
            os.replace(os.path.join(self._staging, name), os.path.join(self.directory, name))
        os.rmdir(self._staging)

    def discard(self) -> None:
        """Leave no trace of this run (a failed or stopped one): the folder keeps what it held."""
        try:
            self._close_part()
        except OSError:
            pass  # the write that failed: its file goes with the rest
        if not self._remote:
            shutil.rmtree(self._staging, ignore_errors=True)


_PART = re.compile(r"part-\d{5,}\.jsonl")
