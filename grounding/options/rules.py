"""The selection of findings that ``--select`` / ``--ignore`` make (the codes are grounding.model.RULES).

A finding whose rule is not selected is neither reported nor fails the run: an ignored unsupported value or
example is taken out of its answer's verdict (as a baseline takes a known one out); an ignored contract,
unjudgeable or derived finding no longer fails the run under the option that would make it fail.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from difflib import get_close_matches
from typing import TYPE_CHECKING

from grounding.errors import OptionError
from grounding.model import ALL_CODES, BY_NAME, RULES, JudgedAnswer, Verdict, with_findings

if TYPE_CHECKING:
    from grounding.core.settings import Settings
    from grounding.run.baseline import Baseline


def selection(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> frozenset[str]:
    """The codes selected: those --select names (all when it names none), less those --ignore names. A code,
    a name or a code prefix (``GR00``) names rules.

    >>> sorted(selection(["GR001", "example"]))
    ['GR001', 'GR007']
    >>> sorted(selection(ignore=["GR006", "GR007"]))
    ['GR001', 'GR002', 'GR003', 'GR004', 'GR005']
    """
    select, ignore = list(select), list(ignore)
    chosen = set().union(*(_named("--select", spec) for spec in select)) if select else set(ALL_CODES)
    for spec in ignore:
        chosen -= _named("--ignore", spec)
    return frozenset(chosen)


def _named(option: str, spec: str) -> set[str]:
    wanted = spec.strip()
    if wanted in BY_NAME:
        return {BY_NAME[wanted].code}
    codes = {rule.code for rule in RULES if rule.code.startswith(wanted.upper())} if wanted else set()
    if not codes:
        names = [rule.code for rule in RULES] + [rule.name for rule in RULES]
        near = get_close_matches(wanted, names, n=1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        listed = ", ".join(f"{rule.code} {rule.name}" for rule in RULES)
        raise OptionError(f"{option}: {spec!r} names no rule{hint}; the rules are {listed}")
    return codes


def without_ignored(verdict: Verdict, codes: frozenset[str]) -> Verdict:
    """The verdict less its unsupported values (GR001) and examples (GR007) when those rules are not selected."""
    drop_unsupported = "GR001" not in codes and verdict.unsupported
    drop_examples = "GR007" not in codes and verdict.examples
    if not (drop_unsupported or drop_examples):
        return verdict
    return with_findings(verdict, () if drop_unsupported else verdict.unsupported,
                         () if drop_examples else verdict.examples)


def adjustment(known: Baseline | None, settings: Settings) -> Callable[[JudgedAnswer], JudgedAnswer] | None:
    """What rewrites an answer before it is counted: the baseline takes known values out, an ignored rule
    its findings."""
    if settings.rules == ALL_CODES:
        return None if known is None else known.apply

    def adjust(judged: JudgedAnswer) -> JudgedAnswer:
        if known is not None:
            judged = known.apply(judged)
        verdict = without_ignored(judged.verdict, settings.rules)
        return judged if verdict is judged.verdict else replace(judged, verdict=verdict)

    return adjust
