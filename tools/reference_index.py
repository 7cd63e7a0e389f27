"""The reference path the lazy index is held equal to (DESIGN.md: a seam, not a mode).

``check_conversation(conversation, settings, index=ReferenceIndex)`` judges with an index that reads every
piece whole the moment it is seen and works its components out at once: no search text, no verbatim
shortcut, nothing left for a question to read. The equivalence tests (tests/equivalence) and the benchmark
pass it in; production code never names it.
"""

from __future__ import annotations

from grounding.core.evidence import verbatim
from grounding.core.evidence.index import EvidenceIndex
from grounding.core.evidence.reading import Examined, read_examined, read_exempt


class ReferenceIndex(EvidenceIndex):
    """An EvidenceIndex whose pieces are all read as they are seen."""

    def _keep(self, source: Examined | str, seen: verbatim.Seen) -> None:
        forms = read_exempt(source, self.options) if isinstance(source, str) else read_examined(source, self.options)
        forms.resolve()
        self.add(forms)
