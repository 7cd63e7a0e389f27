"""Sub-agents' files joined to the sessions they continue (SPEC §9.26).

Claude Code writes a sub-agent's conversation (a compaction, a resumed agent) in a file of its own whose
first message follows a record of the parent session's file. Judged alone, the evidence its answer was
written from is not there: unjudgeable. When the parent session's file is in the same run, the records on
the way to that first message (the parent's tool results, its user's texts) are put before it, so its
answers are judged against what was read; the parent's own answers stay the parent's (judged in its file),
and here are only words the model wrote (work shown, §9.24).
"""

from __future__ import annotations

from grounding.model import ANSWER, NEITHER, Conversation, Item


class ParentSessions:
    """The main-thread records of the Claude Code sessions read so far in a run, by record id."""

    def __init__(self) -> None:
        self._parents: dict[str, str | None] = {}  # every record's id and its parent's, of every file read
        self._records: dict[str, tuple[int, dict]] = {}  # the main thread's message records, by id

    def keep(self, records: list[tuple[int, dict]], ids: dict[str, str | None]) -> None:
        """A file's session records (and every id it holds, skipped records too: they sit in the chain)."""
        self._parents.update(ids)
        for line, record in records:
            if not record.get("isSidechain") and isinstance(record.get("uuid"), str):
                self._records[record["uuid"]] = (line, record)

    def context_of(self, first: dict) -> list[tuple[int, dict]] | None:
        """The parent session's message records on the way to first (root first), or None when the record
        first follows is not among those kept."""
        parent = first.get("parentUuid")
        if not isinstance(parent, str) or parent not in self._parents:
            return None
        chain, seen = [], set()
        while isinstance(parent, str) and parent not in seen:
            seen.add(parent)
            if parent in self._records:
                chain.append(self._records[parent])
            parent = self._parents.get(parent)
        chain.reverse()
        return chain or None


def joined(context: Conversation, own: Conversation) -> Conversation:
    """own's conversation with context's items before it, context's answers made work shown (not judged)."""
    before = tuple(Item(NEITHER, "", work=item.text, line=item.line) if item.kind is ANSWER else item
                   for item in context.items)
    return Conversation(own.source, own.line, own.id, before + own.items, own.input_format, cwd=own.cwd or context.cwd)
