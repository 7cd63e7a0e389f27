"""The judge's routes for identifiers written in another notation than read (SPEC §9.13, §9.25, §9.26, and
the readings of verdict quality VI): composites, labels, code locations and paths, references, hash
prefixes, addresses, URLs, version ranges, and a value the answer was cut off inside.
"""

from __future__ import annotations

import regex

from grounding.core.answer import code_notation, labels
from grounding.core.answer.candidates import Candidate
from grounding.core.answer.clauses import words_before
from grounding.core.answer.cut_off import cut_off_fragment
from grounding.core.evidence.code_reads import name_of
from grounding.core.evidence.index import EvidenceIndex
from grounding.core.judging import Judging, found, grounded_by_early_routes
from grounding.core.text.normalise import normalise
from grounding.core.text.values import COMPOSITE_JOINER, IDENTIFIER
from grounding.model import Finding

_HEX = regex.compile(r"[0-9a-f]*[0-9][0-9a-f]*")
_WILDCARD_VERSION = regex.compile(r"(\d+(?:\.\d+)*)\.[x*]")
_DIGIT = regex.compile(r"\d")
_REFERENCE_WORD = regex.compile(r"[A-Za-z][A-Za-z_-]{2,}")  # a resource's name: Order, customers, line-items
_PATH = regex.compile(r"~?/?(?:[\w.-]+/)+[\w.-]*")  # a/b, /a/b/, ~/a/b.txt: a folder or more, then a name
# https://github.com/owner/repo/pull/212, …/issues/7, GitLab's group/sub/repo/-/merge_requests/9
# a URL or host:port on this machine: the loopback names and the wildcard address a server binds
_LOCAL_URL = regex.compile(r"(?:(?P<scheme>[a-z][a-z0-9+.-]*)://)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\])"
                           r":(?P<port>\d{1,5})(?P<path>/\S*)?")
_LOCAL_HOSTS = ("localhost", "127.0.0.1", "0.0.0.0", "[::1]", "[::]")  # noqa: S104 (names, not a bind)
_REPOSITORY_LINK = regex.compile(r"https?://(?P<host>[\w.-]+)/(?P<repository>[\w.-]+(?:/[\w.-]+)+?)/(?:-/)?"
                                 r"(?:pull|pulls|issues|merge_requests)/(?P<number>\d{1,7})")



def composite(candidate: Candidate, judging: Judging) -> Finding | None:
    """Route 8 (§9.13): every ``+``/``/`` part of an identifier is a grounded value."""
    if candidate.kind is not IDENTIFIER or not COMPOSITE_JOINER.search(candidate.value):
        return None
    parts = COMPOSITE_JOINER.split(candidate.value)
    if len(parts) < 2 or not all(parts):
        return None
    settings = judging.settings
    values = []  # every part that is no value fails the route: told before any is looked up (lookups read)
    for part in parts:
        value = normalise(part)
        if settings.is_exempt(value):
            continue
        classified = settings.classify(value)
        if classified is None:
            return None
        values.append((classified, part))
    for classified, part in values:
        if not grounded_by_early_routes(classified.value, classified.kind, part, judging.index):
            return None
    joiner = " + " if "+" in candidate.value else " / "
    return found(candidate, "composite", matched=joiner.join(parts))


def label(candidate: Candidate, judging: Judging) -> Finding | None:
    """§9.25: a snake_case label or a list of attributes, judged by its value parts alone (words and short
    codes are prose); the first part not grounded is reported in the label's place."""
    if candidate.shape != "identifier":
        return None
    settings = judging.settings
    written = candidate.text
    if "/" in written and "_" not in written and candidate.occurrences:  # a list of attributes written with spaces
        first = candidate.occurrences[0]
        written += labels.unit_continuing_list(judging.answer.segments[first.segment][first.end : first.end + 8])
    parts = labels.parts_of(written, settings.min_digits)
    if parts is None or _is_reference(candidate, parts, judging):
        return None
    for part, offset in parts:
        classified = settings.classify(normalise(part))
        if classified is None or judging.index.says_verbatim(classified.value):
            continue
        if not grounded_by_early_routes(classified.value, classified.kind, part, judging.index):
            at = candidate.at + offset if candidate.at >= 0 else -1
            return Finding(classified.value, classified.shape, part, at=at)
    return found(candidate, "label")


def _is_reference(candidate: Candidate, parts: list[tuple[str, int]], judging: Judging) -> bool:
    """§9.25's guard: a label shaped or written as a reference, or coining an identifier of a family read, is
    judged whole (labels.shaped_as_identifier, labels.presented_as_reference, labels.id_spans)."""
    if "_" not in candidate.text:
        return False  # a list of attributes
    if labels.shaped_as_identifier(parts):
        return True
    answer, index = judging.answer, judging.index
    if any(labels.presented_as_reference(parts, words_before(answer, occurrence, labels.WORDS_BEFORE))
           for occurrence in candidate.occurrences):
        return True
    return any(_reads_id_family(index, prefix) and not index.says_verbatim(span)
               for prefix, span in labels.id_spans(parts))


def code_location(candidate: Candidate, judging: Judging) -> Finding | None:
    """§9.26: ``path:line``, ``path:line:col``, ``path#L12-L40``: the path was read (holds_path: in a result or
    a call's arguments, the end of a longer one, below the working directory) and each line number was read
    as a line number of that file."""
    if candidate.kind is not IDENTIFIER:
        return None
    cited = code_notation.code_location(candidate.text)
    if cited is None:
        return None
    path, lines = cited
    stated = judging.index.stated
    if not stated.holds_path(path):
        return None
    marks, name = stated.line_marks(), name_of(path)
    if all((name, line) in marks or (None, line) in marks for line in lines):
        return found(candidate, "line", matched=path)
    return None


def path(candidate: Candidate, judging: Judging) -> Finding | None:
    """§9.26: a path (with a digit, so a value) read as written, as the end of a longer one, as a folder a
    read path lies in, or below the session's working directory."""
    written = candidate.text
    if candidate.kind is not IDENTIFIER or "/" not in written or "://" in written or not _PATH.fullmatch(written):
        return None
    return found(candidate, "path") if judging.index.stated.holds_path(written) else None


def reference(candidate: Candidate, judging: Judging) -> Finding | None:
    """A reference composed from a resource and an id (``Order/ORD-4471``, ``customers/C-2291``), or a base
    URL stated plus such a path: each id part grounded (read, or given by the user), each word a name the
    conversation writes (its prompt, a tool's schema or results), the base a URL it writes."""
    written = candidate.text
    if candidate.kind is not IDENTIFIER or "/" not in written:
        return None
    stated, rest, base = judging.index.stated, written, None
    if "://" in written:
        base = stated.base_url_of(written)
        if base is None:
            return None
        rest = written[len(base) + 1 :]
    parts = rest.strip("/").split("/")
    words = [part for part in parts if part and not _DIGIT.search(part)]
    values = [part for part in parts if _DIGIT.search(part)]
    if not values or not (words or base) or "" in parts:
        return None
    if not all(_REFERENCE_WORD.fullmatch(word) and stated.writes_word(word) for word in words):
        return None
    settings, index = judging.settings, judging.index
    classified = [(value, part) for part in values if (value := settings.classify(normalise(part))) is not None]
    if not classified:
        return None  # (a part under min_digits, such as v2, is prose: no value to ground)
    for value, part in classified:
        if not grounded_by_early_routes(value.value, value.kind, part, index):
            return None
    return found(candidate, "reference", matched=base)


def repository_link(candidate: Candidate, judging: Judging) -> Finding | None:
    """A link to a pull request, an issue, a merge request or a commit, built from a repository the session
    read (``git remote -v``, the session's metadata, a URL in a result: ssh or https) and a number it read
    as that item's (``Merge pull request #212``, ``pull/212``, ``!212``)."""
    match = _REPOSITORY_LINK.fullmatch(candidate.text.rstrip("/"))
    if match is None:
        return None
    stated = judging.index.stated
    if not stated.holds_repository(match.group("host"), match.group("repository")):
        return None
    return found(candidate, "reference") if stated.holds_item_number(match.group("number")) else None


def hash_prefix(candidate: Candidate, judging: Judging) -> Finding | None:
    """§9.26: 7 or more hex digits that begin a longer hash read (``9f3c2e1`` after git log's full hash)."""
    value = candidate.value
    if candidate.kind is not IDENTIFIER or not 7 <= len(value) <= 40 or _HEX.fullmatch(value) is None:
        return None
    return found(candidate, "hash-prefix") if judging.index.stated.holds_hash_starting(value) else None


def address(candidate: Candidate, judging: Judging) -> Finding | None:
    """§9.26: an IPv4 address (and port) read as a tuple of four numbers (``{127, 0, 0, 1}``, ``port: 4000``)."""
    if candidate.value[:1].isdigit() and candidate.value.count(".") == 3:
        return found(candidate, "address") if candidate.value in judging.index.stated.addresses() else None
    return None


def same_url(candidate: Candidate, judging: Judging) -> Finding | None:
    """A URL read with or without its closing slash (``http://host:8000`` after ``http://host:8000/``), and
    a URL or host:port on this machine read under another of its names: a server that says it serves on
    ``0.0.0.0:8000`` serves ``localhost:8000`` (loopback and wildcard hosts; the scheme when written, the
    port and the path the same)."""
    value = candidate.value
    if "/" not in value and ":" not in value:
        return None
    index = judging.index
    local = _LOCAL_URL.fullmatch(value)
    if local is None:
        if "://" not in value:
            return None
        other = value[:-1] if value.endswith("/") else f"{value}/"
        return found(candidate, "url") if index.is_plain(other) else None
    scheme, port, path = local.group("scheme"), local.group("port"), (local.group("path") or "").rstrip("/")
    schemes = [f"{scheme}://"] if scheme else ["", "http://", "https://"]
    for host in _LOCAL_HOSTS:
        for prefix in schemes:
            for tail in (path, f"{path}/") if prefix else (path,):
                form = f"{prefix}{host}:{port}{tail}"
                if form != value and index.is_plain(form):
                    return found(candidate, "url")
    return None


def version_range(candidate: Candidate, judging: Judging) -> Finding | None:
    """§9.26: a version with a wildcard (``1.4.x``, ``2.*``) is grounded by a read version it matches."""
    match = _WILDCARD_VERSION.fullmatch(candidate.value)
    if match is None or not judging.index.stated.holds_version_under(match.group(1)):
        return None
    return found(candidate, "version-range")


def truncated(candidate: Candidate, judging: Judging) -> Finding | None:
    """The answer ends inside this value (cut_off) and a value read begins with the fragment: the output
    was cut, not invented."""
    fragment = cut_off_fragment(candidate, judging.answer)
    if fragment is None:
        return None
    read = _form_starting_with(judging.index, fragment)
    return found(candidate, "truncated", matched=read) if read is not None else None


def _reads_id_family(index: EvidenceIndex, prefix: str) -> bool:
    """True when an identifier read is prefix and one part with a digit (``credit_card_7815826`` for
    ``credit_card_``): a label holding prefix and other digits names an identifier of that family (§9.25)."""
    size = len(prefix)
    return any(form.startswith(prefix) and "_" not in form[size:] and _DIGIT.search(form, size)
               for form in index.forms_for((prefix,), beginning=True).plain)


def _form_starting_with(index: EvidenceIndex, head: str) -> str | None:
    """A read form longer than head that begins with it, the shortest first: what the fragment an answer was
    cut off inside is a beginning of."""
    found = [form for form in index.forms_for((head,), beginning=True).plain
             if len(form) > len(head) and form.startswith(head)]
    return min(found, key=lambda form: (len(form), form)) if found else None
