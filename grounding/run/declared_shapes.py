"""The declared shapes a run's answers never matched. A shape that matches nothing in a whole run is most
likely written wrong (a one-word regex asked to match a name of two words, a pattern that says more than the
values do), and it fails silently: every value it was meant to examine passes unexamined. The run says so."""

from __future__ import annotations

from itertools import chain

from grounding.core.answer.candidates import read_answer
from grounding.core.settings import Settings
from grounding.model import JudgedAnswer

HOW_SHAPES_MATCH = ("a shape's regex is matched against one whole word, ignoring case, unless it writes a space "
                    "(then across words: a name) or starts with (?-i) (then as the answer spells it)")


class DeclaredShapes:
    """The run's declared shapes not matched yet, told by each judged answer as it is reported."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self.unmatched = [shape.name for shape in settings.shapes]

    def see(self, judged: JudgedAnswer) -> None:
        if not self.unmatched:
            return  # (most runs: every shape matched early, and no answer is read again)
        verdict = judged.verdict
        matched = {finding.shape for finding in chain(verdict.unsupported, verdict.grounded_via, verdict.examples)}
        if any(name not in matched for name in self.unmatched) and verdict.candidates:
            # a value grounded plainly is listed nowhere: the answer's candidates say which shapes it matched
            matched.update(candidate.shape for candidate in read_answer(judged.text, self._settings).candidates)
        self.unmatched = [name for name in self.unmatched if name not in matched]

    def warnings(self, answers: int) -> list[str]:
        """A line for each shape no answer matched (none when no answer was judged: nothing to say), and for
        each that writes an upper-case range but ignores case (it matches lower-case words too: ``from``)."""
        judged = f"{answers} answer{'' if answers == 1 else 's'} judged"
        lines = [f"warning: --shape {name} matched no value in the {judged}; {HOW_SHAPES_MATCH}"
                 for name in (self.unmatched if answers else ())]
        lines.extend(f"warning: --shape {shape.name} writes A-Z but ignores case, so it matches lower-case words "
                     "too; start its regex with (?-i) to match case" for shape in self._settings.shapes
                     if not shape.cased and _tells_case(shape.pattern.source))
        return lines


def _tells_case(source: str) -> bool:
    """The regex writes an upper-case range apart from a lower-case one (``[A-Z][a-z]+``): it means case."""
    return "A-Z" in source and "A-Za-z" not in source and "a-zA-Z" not in source
