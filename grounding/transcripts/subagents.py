"""Sub-agents' files joined to the sessions they continue (SPEC §9.26).

Claude Code writes a sub-agent's conversation (a compaction, a resumed agent) in a file of its own whose
records follow records of the parent session's file. Judged alone, the evidence its answer was written
from is not there: unjudgeable. When the parent session's file is in the same run, the parent's records
up to the **latest** parent record the file follows (in the parent file's order: a compaction's records
hang off several) are put before it, less the turns a user abandoned there, and with every branch of
parallel tool calls (each result hangs off its own call, not off the one before it). Its answers are
judged against what was read; the parent's own answers stay the parent's (judged in its file), and here
are only words the model wrote (work shown, §9.24).
"""

from __future__ import annotations

from grounding.model import ANSWER, NEITHER, Conversation, Item


class ParentSessions:
    """The main-thread records of the Claude Code sessions read so far in a run, in file order."""

    def __init__(self) -> None:
        self.parents: dict[str, str | None] = {}  # every record's id and its parent's, of every file read
        self._place: dict[str, int] = {}  # every record's id and its place in the run (file order within a file)
        self._sessions: dict[str, list[tuple[int, dict]]] = {}  # the main thread's message records, by session

    def keep(self, records: list[tuple[int, dict]], ids: dict[str, str | None]) -> None:
        """A file's session records, and every id it holds in file order (skipped records too: they sit in
        the chain)."""
        self.parents.update(ids)
        for record_id in ids:
            self._place.setdefault(record_id, len(self._place))
        for line, record in records:
            if not record.get("isSidechain") and isinstance(record.get("uuid"), str):
                self._sessions.setdefault(str(record.get("sessionId")), []).append((line, record))

    def context_of(self, records: list[tuple[int, dict]]) -> list[tuple[int, dict]] | None:
        """The parent session's message records up to the latest record those of records follow, or None
        when none of them is among those kept."""
        own = {record.get("uuid") for _, record in records}
        followed = [record["parentUuid"] for _, record in records
                    if isinstance(record.get("parentUuid"), str) and record["parentUuid"] not in own
                    and record["parentUuid"] in self._place]
        if not followed:
            return None
        last = max(self._place[parent] for parent in followed)
        session = self._sessions.get(str(records[0][1].get("sessionId")), [])
        context = [(line, record) for line, record in session if self._place.get(record["uuid"], last + 1) <= last]
        return context or None


def joined(context: Conversation, own: Conversation) -> Conversation:
    """own's conversation with context's items before it, context's answers made work shown (not judged)."""
    before = tuple(Item(NEITHER, "", work=item.text, line=item.line) if item.kind is ANSWER else item
                   for item in context.items)
    return Conversation(own.source, own.line, own.id, before + own.items, own.input_format, cwd=own.cwd or context.cwd)
