"""``--output-dir DIR`` (a folder, or a URL in object storage): the JSON Lines report cut into one file per
partition of the input, and a ``summary.json``.

A partition is what the run judged of one input file, in the order it was judged: ``part-00000.jsonl``,
``part-00001.jsonl``, … hold the answers of each file in turn, and a conversation put together from several
files (a trace's spans) comes in a partition of its own where the run judged it, last. Read in order of
their names, the files are the ``--output-format json-lines`` report of the same run, byte for byte.
``summary.json`` holds the run's summary and the records that could not be read (as the JSON report's
``summary`` and ``errors``); a job reads its exit status from it, or from ``ground``'s own.
"""

from __future__ import annotations

import os
from typing import TextIO

import orjson

from grounding.errors import GroundingError
from grounding.model import JudgedAnswer, Problem, Summary
from grounding.reporters.json_report import problem_json
from grounding.transcripts.remote import StorageOptions, filesystem, is_remote

PART_NAME = "part-{:05d}.jsonl"
SUMMARY_NAME = "summary.json"


class OutputDir:
    """A reporter (answer, problem, finish) writing the partitions of a run into a folder or a URL."""

    def __init__(self, directory: str, storage_options: StorageOptions | None = None) -> None:
        self.directory = directory.rstrip("/")
        self.storage_options = storage_options
        self.problems: list[dict] = []
        self.parts = 0
        self._source: str | None = None
        self._part: TextIO | None = None
        self._make_folder()

    def _make_folder(self) -> None:
        try:
            if is_remote(self.directory):
                fs, path = filesystem(self.directory, self.storage_options)
                fs.makedirs(path, exist_ok=True)
            else:
                os.makedirs(self.directory, exist_ok=True)
        except OSError as error:
            raise GroundingError(f"--output-dir {self.directory}: cannot make the folder ({error})") from None

    def _open(self, name: str) -> TextIO:
        target = f"{self.directory}/{name}"
        try:
            if is_remote(self.directory):
                fs, path = filesystem(target, self.storage_options)
                return fs.open(path, "w", encoding="utf-8")
            return open(target, "w", encoding="utf-8")  # noqa: SIM115 - closed when the partition ends
        except OSError as error:
            raise GroundingError(f"--output-dir: cannot write {target} ({error.strerror or error})") from None

    def answer(self, judged: JudgedAnswer) -> None:
        if self._part is None or judged.source != self._source:  # the next partition
            self._close_part()
            self._part = self._open(PART_NAME.format(self.parts))
            self.parts += 1
            self._source = judged.source
        self._part.write(orjson.dumps(judged.to_dict()).decode() + "\n")

    def problem(self, problem: Problem) -> None:
        self.problems.append(problem_json(problem))

    def _close_part(self) -> None:
        if self._part is not None:
            self._part.close()
            self._part = None

    def finish(self, summary: Summary) -> None:
        self._close_part()
        with self._open(SUMMARY_NAME) as out:
            out.write(orjson.dumps({"tool": "ground", "partitions": self.parts, "errors": self.problems,
                                    "summary": summary.as_json()}, option=orjson.OPT_INDENT_2).decode() + "\n")
