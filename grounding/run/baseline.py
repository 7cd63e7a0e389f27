"""Baseline: adopt the gate on an existing log corpus and fail only on new inventions.

Entries are keyed by conversation id (or, without one, file and line), turn
and normalised value — never by line number alone — and written in a stable
order, so a baseline diff shows exactly what changed.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from grounding import __version__
from grounding.errors import GroundingError
from grounding.model import JudgedAnswer, with_findings
from grounding.run.report_file import AtomicFile

Key = tuple[str, int, str]


class BaselineError(GroundingError):
    """A baseline file that cannot be read."""


def key_of(judged: JudgedAnswer, value: str) -> Key:
    owner = judged.conversation if judged.conversation is not None else f"{judged.source}:{judged.line}"
    return owner, judged.turn, value


# The baseline file's layout version: raised when an entry's key changes, so an old file is refused by name
# rather than silently matching nothing.
SCHEMA_VERSION = 1


@dataclass
class Baseline:
    entries: dict[Key, str] = field(default_factory=dict)  # key → source file it came from
    matched: set[Key] = field(default_factory=set)
    suppressed: int = 0

    @classmethod
    def load(cls, path: Path) -> Baseline:
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
            if document.get("schema_version", 1) != SCHEMA_VERSION:  # a baseline before versions is version 1
                raise BaselineError(f"--baseline: {path}: a baseline of schema_version "
                                    f"{document.get('schema_version')!r}, written by ground "
                                    f"{document.get('version', '?')}; this ground reads version {SCHEMA_VERSION}: "
                                    "upgrade ground, or write the baseline again with --write-baseline")
            entries = {
                (str(e["conversation"]), int(e["turn"]), str(e["value"])): str(e.get("source", ""))
                for e in document["entries"]
            }
        except FileNotFoundError:
            raise BaselineError(f"--baseline: {path}: No such file; create it with --write-baseline") from None
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise BaselineError(f"--baseline: {path}: not a ground baseline ({error})") from None
        except RecursionError:
            raise BaselineError(f"--baseline: {path}: not a ground baseline (nested too deep)") from None
        except OSError as error:
            raise BaselineError(f"--baseline: {path}: cannot read ({error.strerror or error})") from None
        return cls(entries)

    def apply(self, judged: JudgedAnswer) -> JudgedAnswer:
        """The answer with its baselined values taken out of its unsupported list."""
        verdict = judged.verdict
        if not verdict.unsupported:
            return judged
        kept = []
        for finding in verdict.unsupported:
            key = key_of(judged, finding.value)
            if key in self.entries and _same_source(self.entries[key], judged.source):
                self.matched.add(key)
                self.suppressed += 1
            else:
                kept.append(finding)
        if len(kept) == len(verdict.unsupported):
            return judged
        return replace(judged, verdict=with_findings(verdict, tuple(kept), verdict.examples))

    def stale(self, checked: list[str] | None = None) -> list[Key]:
        """Entries of the files checked (all entries when not said) that matched nothing in this run: the
        invention is gone (or the log moved). An entry of a file not checked in this run cannot be stale:
        a pre-commit run sees only the files that changed."""
        unmatched = set(self.entries) - self.matched
        if checked is not None:
            sources = {os.path.realpath(path) for path in checked}
            unmatched = {key for key in unmatched if os.path.realpath(self.entries[key]) in sources}
        return sorted(unmatched)


def _same_source(recorded: str, source: str) -> bool:
    """Whether a baseline entry recorded for a file is about this file (an entry of an old baseline, with no
    file recorded, is about any): the same id, turn and value in another file is another finding."""
    return not recorded or recorded == source or os.path.realpath(recorded) == os.path.realpath(source)


def write(path: str, answers: list[JudgedAnswer]) -> int:
    """Write every unsupported value of the run as a baseline, whole or not at all; return how many entries."""
    written = {(*key_of(judged, finding.value), judged.source): finding.text
               for judged in answers for finding in judged.verdict.unsupported}
    entries = sorted(written)
    document = {
        "tool": "ground",
        "schema_version": SCHEMA_VERSION,
        "version": __version__,
        # "text": the value as the answer wrote it, for a reader (matching is by the normalised "value")
        "entries": [{"conversation": c, "turn": t, "value": v, "text": written[(c, t, v, s)], "source": s}
                    for c, t, v, s in entries],
    }
    target = AtomicFile(path)
    try:
        target.stream.write(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
        target.commit()  # the write a full disk refuses may be this one's flush: its file is discarded too
    except BaseException:
        target.discard()
        raise
    return len(entries)
