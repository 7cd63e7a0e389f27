"""Why each value of an answer is grounded — where it was read — or why not: the nearest read values.

A reviewer needs to tell a typo from an invention: ``0xef0101 — not found;
nearest: 0xef0101ab in item 3 at /note``. Explaining re-reads the items of one
conversation one by one, so it costs nothing when it is not asked for.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal

from grounding.core.answer import labels
from grounding.core.answer.candidates import Candidate, read_answer
from grounding.core.evidence.forms import Forms, ReadOptions
from grounding.core.evidence.index import EvidenceIndex
from grounding.core.evidence.reading import read_exempt, read_tool_result
from grounding.core.evidence.search_keys import keys, search_text
from grounding.core.settings import Settings
from grounding.core.text.normalise import is_number, lookup_forms, normalise
from grounding.core.text.tokens import token_texts
from grounding.core.text.units import written_before_words
from grounding.json_exact import NotJson, looks_like_json, parse
from grounding.model import COMPUTED_VIA, Conversation, Item, Kind, NearMiss, Status, Verdict, shown_shape

_ROUTE_SETS = {"unit": "unit", "date-part": "date", "component": "component"}
_NEAREST = 3


@dataclass(frozen=True, slots=True)
class Explanation:
    value: str
    shape: str
    text: str
    status: str  # "grounded", "unsupported", "example", or the via of a §9 route
    sources: list[str] = field(default_factory=list)  # where it was read: "line 4, item 3 (tool result) at /note"
    detail: str | None = None  # formula or matched form
    near_misses: list[NearMiss] = field(default_factory=list)  # for an unsupported value: close read values
    typed_in_calls: list[str] = field(default_factory=list)  # an unsupported value the model passed to a tool
    said_by_model: list[str] = field(default_factory=list)  # …or wrote itself before (its text, reasoning: §9.24)
    snippets: list[str] = field(default_factory=list)  # per source: the tool result's text around it ("" if none)

    @property
    def nearest(self) -> list[str]:
        """The near misses as a report writes them: "ord-4417 (distance 1) in line 4, item 3 (...) at /id"."""
        return [f"{near.text or near.value} (distance {near.distance}) in {near.where}" for near in self.near_misses]

    def as_json(self) -> dict:
        entry = {"value": self.value, "shape": self.shape, "text": self.text, "status": self.status,
                 "sources": self.sources}
        if any(self.snippets):
            entry["snippets"] = self.snippets
        if self.detail:
            entry["detail"] = self.detail
        if self.status == "unsupported":
            entry["nearest"] = self.nearest
            if self.typed_in_calls:
                entry["only_in_call_arguments"] = self.typed_in_calls
            if self.said_by_model:
                entry["only_in_the_models_words"] = self.said_by_model
        return entry

    def line(self) -> str:
        if self.status == "unsupported":
            near = f"; nearest: {', '.join(self.nearest)}" if self.nearest else "; nothing close was read"
            typed = (f"; it appears only in the model's own call arguments: {', '.join(self.typed_in_calls)}"
                     if self.typed_in_calls else "")
            if self.said_by_model:
                typed += f"; it appears only in the model's own words: {', '.join(self.said_by_model)}"
            return f"{self.text} ({shown_shape(self.value, self.shape)}) — not found{typed}{near}"
        how = self.status + (f" ({self.detail})" if self.detail else "")
        unplaced = "computed" if self.status in COMPUTED_VIA else "read, but no place found to show"
        return f"{self.text} ({shown_shape(self.value, self.shape)}) — {how}: {', '.join(self.sources) or unplaced}"


def explain_answers(conversation: Conversation, verdicts: Mapping[int, Verdict],
                    settings: Settings) -> dict[int, list[Explanation]]:
    """One explanation per candidate of each answer whose verdict is given, by its turn (the answer's number
    among the conversation's answers); each item of the conversation is read once, for all of them.

    An answer that was not judged for evidence (contract unmet, truncated, refused, unjudgeable) has none:
    its status and reason say why.
    """
    options = ReadOptions(settings.min_digits, keep_words=True)
    read: list[tuple[int, Item, Forms]] = []
    line = conversation.line
    explained: dict[int, list[Explanation]] = {turn: [] for turn in verdicts}
    answers_seen = 0
    said: list[tuple[int, str]] = []  # what the assistant wrote itself before each answer: (item, text)
    for position, item in enumerate(conversation.items):
        if item.work:
            said.append((position, item.work))
        if item.kind is Kind.ANSWER:
            verdict = verdicts.get(answers_seen)
            if verdict is not None and verdict.status in (Status.GROUNDED, Status.DERIVED, Status.FLAGGED):
                explained[answers_seen] = _explained(item.text, verdict, read, settings, said)
            said.append((position, item.text))
            answers_seen += 1
            if answers_seen > max(verdicts, default=-1):
                break
        elif item.kind is Kind.EVIDENCE:
            forms = read_tool_result(item.text, options, is_error=item.is_error, arguments=item.call_arguments,
                                     document=item.document)
            read.append((position, _located(item, line), forms))
        elif item.kind is Kind.EXEMPT:
            read.append((position, _located(item, line), read_exempt(item.text, options)))
    return explained


def _explained(answer_text: str, verdict: Verdict, read: list[tuple[int, Item, Forms]],
               settings: Settings, said: list[tuple[int, str]]) -> list[Explanation]:
    routes = {f.value: f for f in verdict.grounded_via}
    unsupported = {f.value for f in verdict.unsupported}
    examples = {f.value for f in verdict.examples}
    explained = []
    for candidate in read_answer(answer_text, settings).candidates:
        finding = routes.get(candidate.value)
        if finding is None and candidate.value not in unsupported and candidate.value not in examples:
            # a label whose value part is unsupported (§9.25): the part is reported in its place
            part = next((f for f in verdict.unsupported if f.text in candidate.text and f.at >= candidate.at), None)
            if part is not None:
                candidate = Candidate(part.value, part.shape, candidate.kind, part.text)
        if candidate.value in unsupported:
            explained.append(Explanation(candidate.value, candidate.shape, candidate.text, "unsupported",
                                         near_misses=_nearest(candidate.value, read),
                                         typed_in_calls=_in_call_arguments(candidate.value, read),
                                         said_by_model=_in_own_words(candidate, said)))
        elif candidate.value in examples:
            explained.append(Explanation(candidate.value, candidate.shape, candidate.text, "example"))
        else:
            status = finding.via if finding is not None and finding.via else "grounded"
            detail = (finding.formula or finding.matched) if finding else None
            if finding is not None and finding.formula and finding.matched:  # shown-earlier: where, too
                detail = f"{finding.formula}, written in {finding.matched}"
            sources, snippets = _sources(candidate.value, candidate.text, status, detail, read, settings.min_digits)
            explained.append(Explanation(candidate.value, candidate.shape, candidate.text, status, sources, detail,
                                         snippets=snippets))
    return explained


def _in_own_words(candidate: Candidate, said: list[tuple[int, str]]) -> list[str]:
    """The items before the answer where the assistant itself wrote the value (at most three)."""
    return [f"item {position + 1}" for position, text in said if candidate.text in text][:3]


def _located(item: Item, line: int) -> Item:
    """The item with the file line it was read from (a conversation of one record: that record's line)."""
    return item if item.line else replace(item, line=line)


def _in_call_arguments(value: str, read: list[tuple[int, Item, Forms]]) -> list[str]:
    """Where the model itself passed value to a tool: the call whose result is item, and the argument."""
    wanted = set(lookup_forms(value))
    found = []
    for position, item, _forms in read:
        if item.kind is not Kind.EVIDENCE or not item.call_arguments:
            continue
        argument = _argument_carrying(item.call_arguments, wanted)
        if argument is not None:
            call = f"the call of {item.tool}" if item.tool else "a tool call"
            named = f", argument {argument}" if argument else ""
            found.append(f"{call} answered at line {item.line}, item {position}{named}")
    return found[:3]


def _argument_carrying(arguments: str, wanted: set[str]) -> str | None:
    """The name (JSON pointer) of the argument that carries a wanted form, "" when the arguments are not
    JSON but carry it, None when they do not."""
    try:
        document = parse(arguments) if looks_like_json(arguments) else None
    except NotJson:
        document = None
    if isinstance(document, (dict, list)):
        pointer = _pointer(replace(Item(Kind.EVIDENCE, ""), document=document), wanted)
        return None if pointer is None else pointer.removesuffix(" (key)")
    return "" if any(_carries(token, wanted) for token in token_texts(arguments)) else None


def _sources(value: str, written: str, via: str, detail: str | None,
             read: list[tuple[int, Item, Forms]], min_digits: int) -> tuple[list[str], list[str]]:
    """Where value was read (at most three places), and the tool result's text around it in each (a
    label's: where its value parts were)."""
    wanted = set(lookup_forms(value))
    if via in ("label", "reference"):  # where its value parts were read
        parts = labels.parts_of(written, min_digits) if via == "label" else [(p, 0) for p in written.split("/")]
        wanted = {normalise(part) for part, _ in parts or () if _HAS_DIGIT.search(part)}
    elif via == "verbatim":  # read as written, not as its reading ($8.7B, not 8700000000)
        written_form = normalise(written)
        wanted = {written_form, written_before_words(written_form) or written_form}
    snippets: list[str] = []
    if detail and via in ("masked", "composite"):
        wanted |= {part.strip() for part in detail.replace("+", "/").split("/")} if via == "composite" else {detail}
    found = []
    for position, item, forms in read:
        forms.resolve()
        held = getattr(forms, _ROUTE_SETS.get(via, "plain"))
        if via in ("sign", "rounded") and is_number(value):
            hit = _number_near(value, forms)
        else:
            hit = bool(wanted & held) or bool(wanted & forms.plain) or (
                via in ("label", "reference") and bool(wanted & forms.component))
        if hit:
            found.append(_where(position, item, wanted))
            snippets.append(snippet(item.text, (written, *wanted)) if item.kind is Kind.EVIDENCE else "")
        if len(found) >= 3:
            break
    if not found and via in _READ_AS_WRITTEN:
        return _written_in(_READ_AS_WRITTEN[via](written, detail), read)
    if not found and via == "grounded" and " " in value:  # a phrase a declared shape matches: no form holds it
        return _written_in(value, read)
    return found, snippets


# The notations of code (§9.26) are read from a result's text, not its forms: what each looks for there
_READ_AS_WRITTEN = {
    "line": lambda written, detail: detail or written,  # the path (its line numbers are in the same result)
    "hash-prefix": lambda written, _: written,
    "version-range": lambda written, _: written.rstrip("x*"),
    "address": lambda written, _: written.split(":")[0].replace(".", ", "),  # {127, 0, 0, 1}
    "truncated": lambda written, detail: detail or written,  # the value read that the fragment begins
    "url": lambda written, _: _url_key(written),
}


def _url_key(written: str) -> str:
    """What a URL read under another name shares with it: on this machine its port and path (``:8000``, the
    host named otherwise), elsewhere the URL without its scheme and closing slash."""
    bare = written.rstrip("/").split("://", 1)[-1]
    return bare[bare.index(":"):] if ":" in bare else bare


def _written_in(key: str, read: list[tuple[int, Item, Forms]]) -> tuple[list[str], list[str]]:
    """The items (at most three) whose text, or whose call's arguments, hold key as written, any case."""
    key = key.lower()
    found, snippets = [], []
    for position, item, _forms in read:
        if key in item.text.lower() or (item.call_arguments is not None and key in item.call_arguments.lower()):
            found.append(f"line {item.line}, item {position}" + (f" (tool result of {item.tool})" if item.tool else ""))
            snippets.append(snippet(item.text, (key,)) if item.kind is Kind.EVIDENCE else "")
        if len(found) >= 3:
            break
    return found, snippets


_HAS_DIGIT = re.compile(r"\d")
# A snippet's reach either side of the value (characters), and the most of a result shown without the value.
_SNIPPET_REACH = 60


def snippet(text: str, spellings: tuple[str, ...]) -> str:
    """The text around the first place it holds one of spellings (any case), on one line; its start when it
    holds none. (The first place, not the first spelling found: spellings may come from a set, whose order
    changes from one run to the next.)

    >>> snippet('{"order_id": "ORD-55120", "status": "shipped", "eta": "2024-06-03"}', ("ord-55120",))
    '{"order_id": "ORD-55120", "status": "shipped", "eta": "2024-06-03"}'
    >>> snippet("x" * 100 + " tracking 1Z999 " + "y" * 100, ("1z999",)).replace("x" * 50, "x…x").replace("y" * 54, "y…y")
    '…x…x tracking 1Z999 y…y…'
    """
    lowered = text.lower()
    at = min((found for found in (lowered.find(s.lower()) for s in spellings if s) if found >= 0), default=-1)
    start, end = (max(0, at - _SNIPPET_REACH), at + _SNIPPET_REACH) if at >= 0 else (0, 2 * _SNIPPET_REACH)
    shown = " ".join(text[start:end].split())
    return ("…" if start > 0 else "") + shown + ("…" if end < len(text) else "")


def _number_near(value: str, forms: Forms) -> bool:
    magnitude = abs(Decimal(value))
    index = EvidenceIndex()
    index.add(forms)
    return index.has_number(magnitude) or index.has_number_near(magnitude - 1, magnitude + 1)


def _where(position: int, item: Item, wanted: set[str]) -> str:
    if item.kind is Kind.EVIDENCE:
        kind = f"tool result of {item.tool}" if item.tool else "tool result"
    else:
        kind = "exempt: user or system text"
    pointer = _pointer(item, wanted) if item.kind is Kind.EVIDENCE else None
    return f"line {item.line}, item {position} ({kind})" + (f" at {pointer}" if pointer else "")


def _pointer(item: Item, wanted: set[str]) -> str | None:
    """The JSON pointer of the key or leaf of a tool result that carries one of the wanted forms."""
    document = item.document
    if not isinstance(document, (dict, list)):
        if not looks_like_json(item.text):
            return None
        try:
            document = parse(item.text)
        except NotJson:
            return None
    needles = {key for form in wanted for key in keys(form)}
    stack: list[tuple[str, object]] = [("", document)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            for key, child in node.items():
                child_path = f"{path}/{_escape(str(key))}"
                if _may_carry(str(key), needles) and _carries(str(key), wanted):
                    return child_path + " (key)"
                stack.append((child_path, child))
        elif isinstance(node, list):
            stack.extend((f"{path}/{i}", child) for i, child in reversed(list(enumerate(node))))
        elif _may_carry(str(node), needles) and _carries(str(node), wanted):
            return path or "/"
    return None


def _may_carry(text: str, needles: set[str]) -> bool:
    """False when text surely carries none of the forms whose keys are needles (search_keys.keys): every form a
    token is read as is spelled inside its search text, but for a number written with an exponent. Ruling a
    leaf out so, before tokenising it: --explain on dev.jsonl 1.03 -> 0.78 s, the HTML report of the 5 MB
    benchmark slice 3.37 -> 3.00 s; a property test (tests/equivalence) holds it to _carries."""
    if _EXPONENT.search(text):
        return True
    searchable = search_text(text)
    return any(needle in searchable for needle in needles)


_EXPONENT = re.compile(r"\d[eE][-+]?\d")


def _carries(text: str, wanted: set[str]) -> bool:
    """True when text, or one of its tokens, is a wanted form, or ends with one after a joiner
    (``certificate_7504069``), or starts with one (a date's year, a time's hour and minute)."""
    if normalise(text) in wanted:
        return True
    endings = tuple(joiner + form for form in wanted for joiner in "_-./:#")
    for token in token_texts(text):
        value = normalise(token)
        if not wanted.isdisjoint(lookup_forms(value)) or value.endswith(endings) or any(value.startswith(form) for form in wanted if len(form) >= 4):
            return True
    return False


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


def _nearest(value: str, read: list[tuple[int, Item, Forms]]) -> list[NearMiss]:
    """Read values of the same kind within a small edit distance: a typo, or a neighbour of an invention."""
    numeric = is_number(value)
    limit = max(2, len(value) // 4)
    scored: list[tuple[int, str, int, Item]] = []
    seen: set[str] = set()
    for position, item, forms in read:
        for form in forms.plain | forms.resolve():
            if form in seen or is_number(form) != numeric or abs(len(form) - len(value)) > limit:
                continue
            seen.add(form)
            distance = _distance(value, form, limit)
            if distance <= limit:
                scored.append((distance, form, position, item))
    scored.sort(key=lambda entry: (entry[0], entry[1]))
    return [NearMiss(form, d, _where(p, item, {form}), _pointer(item, {form}) if item.kind is Kind.EVIDENCE else None,
                     _as_written(form, item.text))
            for d, form, p, item in scored[:_NEAREST]]


def _as_written(form: str, text: str) -> str | None:
    """form as text spells it, where text holds it whole in another case (None: spelled otherwise)."""
    found = re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text, re.IGNORECASE)
    return found.group(0) if found is not None else None


def with_near_misses(verdict: Verdict, explanations: list[Explanation]) -> Verdict:
    """The verdict with each unsupported value's near misses on its finding (Finding.nearest)."""
    nearest = {e.value: e.near_misses for e in explanations if e.status == "unsupported" and e.near_misses}
    if not nearest:
        return verdict
    return replace(verdict, unsupported=tuple(replace(f, nearest=tuple(nearest.get(f.value, ())))
                                              for f in verdict.unsupported))


def _distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, giving up (limit + 1) once it must exceed limit."""
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        for j, char_b in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]
