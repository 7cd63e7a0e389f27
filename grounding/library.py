"""The library face: ``Options`` (the one option table as Python values), ``check``, ``check_answer`` and
``run``. What ``ground check`` does, for a program that already holds its records, or its files' paths.

>>> options = Options(shapes={"order": r"ord-\\d{4,}"}, exempt=["v2"])
>>> options.min_digits, options.shapes
(4, {'order': 'ord-\\\\d{4,}'})
>>> Options(min_digits=0)
Traceback (most recent call last):
    ...
grounding.errors.OptionError: Options(min_digits=0): must be a whole number of 1 or more
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field, fields, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grounding.answers import judged_text
from grounding.errors import GroundingError, OptionError, RecordError
from grounding.history import as_record
from grounding.model import (
    ANSWER,
    EVIDENCE,
    Conversation,
    Item,
    JudgedAnswer,
    Problem,
    Record,
    Status,
    Summary,
    Verdict,
)
from grounding.options.config import resolve, settings_from, value_problem
from grounding.options.table import KEYS

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from grounding.core.settings import Settings
    from grounding.run.baseline import Baseline
    from grounding.run.parallel import Engine

# The table's keys a library caller has no use for: how the command line shows a run.
TERMINAL_KEYS = frozenset(key for key, option in KEYS.items() if option.terminal)


def _default(key: str) -> Any:  # noqa: ANN401 (a field's default, of the field's own type)
    """The option table's default for key (a fresh copy of a list or table)."""
    value = KEYS[key].default
    if isinstance(value, (list, dict)):
        return field(default_factory=lambda: type(value)(value))
    return value


@dataclass(frozen=True)
class Options:
    """Every option of ``ground check`` that decides a verdict or an exit status, as Python values: the same
    names as the configuration keys (``exempt-regex`` is ``exempt_regex``), the same defaults, checked the
    same way. ``ground check --help`` says what each does; ``Options.from_config()`` reads a
    ``[tool.ground]`` table. A bad value raises OptionError naming the option and what it must be."""

    shapes: Mapping[str, str] = _default("shapes")  # name -> regex: see docs/configuration.md
    exempt: Sequence[str] = _default("exempt")  # values never flagged
    exempt_regex: Sequence[str] = _default("exempt-regex")  # values matching one of these are never flagged
    min_digits: int = _default("min-digits")  # digits a bare number needs to be examined
    figures: bool = _default("figures")  # numbers with a unit, a percent sign or a scale word at any length
    count_min_digits: int | None = _default("count-min-digits")  # a count's digit bar (182 visits); None: min_digits
    derived: bool = _default("derived")  # explain values by arithmetic and date offsets
    fail_on_derived: bool = _default("fail-on-derived")
    fail_on_example: bool = _default("fail-on-example")
    fail_on_unjudgeable: bool = _default("fail-on-unjudgeable")
    fail_on_unchecked: bool = _default("fail-on-unchecked")
    exit_zero: bool = _default("exit-zero")
    strict: bool = _default("strict")  # exit 2 when any record cannot be read
    select: Sequence[str] = _default("select")  # report only these rules (code, name or prefix)
    ignore: Sequence[str] = _default("ignore")
    allow_empty: bool = _default("allow-empty")
    input_format: str | None = _default("input-format")  # a format name `ground formats` lists; None: detect
    exclude: Sequence[str] = _default("exclude")  # globs a folder search passes over (default: .git, .venv, …)
    extend_exclude: Sequence[str] = _default("extend-exclude")  # ... and these as well
    standard_names: Sequence[str] = _default("standard-names")  # read as prose: SHA-256, UTF-8, ISO 8601 …
    extend_standard_names: Sequence[str] = _default("extend-standard-names")  # ... and these as well
    stdin_filename: str | None = _default("stdin-filename")  # what standard input (-) is reported as
    baseline: str | os.PathLike | None = _default("baseline")
    stale_baseline_fails: bool = _default("stale-baseline-fails")
    explain: bool = _default("explain")  # fill each answer's explanation: where every value was read
    schema: str | os.PathLike | None = _default("schema")
    schema_for: Mapping[str, str] = _default("schema-for")  # conversation-id glob -> schema file
    require_tool: Sequence[str] = _default("require-tool")
    code_needs_execution: str | None = _default("code-needs-execution")
    code_blocks: str = _default("code-blocks")  # "examples": code the answer authors holds examples; "judge"
    contract_warn_only: bool = _default("contract-warn-only")
    jobs: int | str = _default("jobs")  # worker processes for run(): "auto", N, or 0 (one per usable core)
    flush_after: float | None = _default("flush-after")
    max_record_bytes: int = _default("max-record-bytes")
    storage_options: Mapping[str, object] = _default("storage-options")  # for URL inputs (s3://, gs://, …)
    engine: str = _default("engine")  # where the workers run: "local" (jobs processes here) or "dask"
    scheduler: str | None = _default("scheduler")  # engine "dask": a running scheduler's address
    workers: int | None = _default("workers")  # engine "dask" and no scheduler: a cluster started here
    _settings: Settings = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for spec in fields(self):
            if spec.init:
                object.__setattr__(self, spec.name, _checked(spec.name, getattr(self, spec.name)))
        if self.engine != "dask" and (self.scheduler is not None or self.workers is not None):
            raise OptionError("--scheduler and --workers are for --engine dask (engine='dask'); --jobs sets the "
                              "processes of the local engine")
        try:
            object.__setattr__(self, "_settings", settings_from(self))
        except OptionError:
            raise
        except GroundingError as error:  # a schema file that cannot be read, a bad pattern
            raise OptionError(str(error)) from None

    def __getitem__(self, key: str) -> object:
        """The value of a configuration key (``min-digits``), as the option table names it."""
        value = getattr(self, key.replace("-", "_"))
        return list(value) if isinstance(value, tuple) else value

    @property
    def excluded(self) -> tuple[str, ...]:
        """Every glob a folder search passes over: exclude's, then extend_exclude's."""
        return (*self.exclude, *self.extend_exclude)

    @property
    def settings(self) -> Settings:
        """What the core judges with (grounding.core.settings.Settings)."""
        return self._settings

    @classmethod
    def from_config(cls, path: str | os.PathLike | None = None, **overrides: object) -> Options:
        """The options a ``ground.toml`` or ``[tool.ground]`` table gives (path, or the nearest one from the
        current directory up), with overrides on top."""
        return cls.of(resolve({}, Path(path) if path is not None else None).values, **overrides)

    @classmethod
    def of(cls, values: Mapping[str, object], **overrides: object) -> Options:
        """The options of values by configuration key (as ``ground config`` shows them; the command line's
        own keys, such as output-format, are left out), with overrides on top."""
        named: dict[str, Any] = {key.replace("-", "_"): value for key, value in values.items()
                                 if key not in TERMINAL_KEYS}
        return cls(**{**named, **overrides})


def _checked(name: str, value: object) -> object:
    """value held to its key's rule in the option table; lists become tuples, tables plain dicts."""
    key = name.replace("_", "-")
    kind = KEYS[key].kind
    if kind == "list" and isinstance(value, (list, tuple)):
        value = tuple(value)
    elif kind in ("table", "paths", "storage") and isinstance(value, Mapping):
        value = dict(value)
    elif kind == "str" and isinstance(value, os.PathLike):
        value = os.fspath(value)
    if value is None and KEYS[key].default is None:
        return None
    problem = value_problem(key, list(value) if isinstance(value, tuple) else value)
    if problem:
        raise OptionError(f"Options({name}={value!r}): {problem}")
    return value


def settings_of(options: Options | Settings | None) -> tuple[Settings, Options | None]:
    """What the core judges with, and the Options it came from (None: the caller gave Settings)."""
    if options is None:
        options = default_options()
    if isinstance(options, Options):
        return options.settings, options
    return options, None  # a grounding.core.settings.Settings, as the CLI builds


@cache
def default_options() -> Options:
    """Options(), built once: the defaults read no file."""
    return Options()


def check(record: object, options: Options | Settings | None = None, *, format: str | None = None,  # noqa: A002
          input_format: str | None = None, source: str = "<record>", system: str | None = None,
          instructions: str | None = None) -> list[JudgedAnswer]:
    """Judge every final answer of one record against the tool results read before it.

    record is a parsed record (a dict or list, as ``json.loads`` gives; parse with
    ``parse_float=decimal.Decimal`` to keep every digit of a long number), its JSON text (``str`` or
    ``bytes``, parsed exactly), a history as an agent loop holds it (grounding.history), or a Conversation.
    format (or ``options.input_format``; ``input_format`` is its older name) forces a format instead of
    detecting it; system and instructions go with a bare Anthropic or Responses list. A record that cannot
    be read raises RecordError, naming why.
    """
    from grounding.run.judging import judge_event

    settings, given = settings_of(options)
    chosen = format or input_format or (given.input_format if given else None)
    conversation = to_conversation(record, chosen, source, system=system, instructions=instructions)
    return judge_event(conversation, settings, explain=bool(given and given.explain))


def check_answer(history: object, answer: object, options: Options | Settings | None = None, *,
                 format: str | None = None, system: str | None = None,  # noqa: A002 (the readers' word)
                 instructions: str | None = None) -> Verdict:
    """The verdict on a candidate answer that is not yet in the history: judged against every tool result
    the history holds. history is a record in any format, a list of messages as the loop holds it (SDK
    objects too: grounding.history), a Conversation, or ``[]``; answer is the text, an SDK message object
    (its text), or a structured output (judged as its JSON); None or an API response is a TypeError."""
    settings, given = settings_of(options)
    text = judged_text(answer)
    history = to_conversation(history, format or (given.input_format if given else None), system=system,
                              instructions=instructions)
    return verdict_on(history, text, settings, given)


async def acheck_answer(history: object, answer: object, options: Options | Settings | None = None, *,
                        format: str | None = None, system: str | None = None,  # noqa: A002
                        instructions: str | None = None, executor: Executor | None = None) -> Verdict:
    """check_answer for an async loop: judged in a worker thread, so the event loop goes on serving (a large
    history takes milliseconds to judge, a large tool result more). executor: whose threads (see
    grounding.worker_threads.off_the_loop)."""
    from grounding.worker_threads import off_the_loop

    return await off_the_loop(executor, check_answer, history, answer, options, format=format, system=system,
                              instructions=instructions)


def verdict_on(history: Conversation, answer: str, settings: Settings, given: Options | None = None) -> Verdict:
    """The verdict on answer judged as the next final answer of history, under the Options given (None: the
    caller gave Settings). A tool result larger than ``max_record_bytes`` (as ``ground check`` bounds a
    record) is not read: the answer is then unjudgeable, never grounded. With ``explain``, each unsupported
    value's finding carries its near misses."""
    from grounding.core.engine import check_conversation

    bound = given.max_record_bytes if given is not None else KEYS["max-record-bytes"].default
    for item in history.items:
        if item.kind is EVIDENCE:
            too_large = too_large_verdict(item.text, bound)
            if too_large is not None:
                return too_large
    *_, judged = check_conversation(with_answer(history, answer), settings)
    return explained(history, answer, judged.verdict, settings) if given is not None and given.explain \
        else judged.verdict


def explained(history: Conversation, answer: str, verdict: Verdict, settings: Settings) -> Verdict:
    """verdict, on answer as the next answer of history, with each unsupported value's near misses (the read
    values a character or two away, and where they are: Finding.nearest). Reads the history again: asked
    for with ``explain`` only."""
    if not verdict.unsupported:
        return verdict
    from grounding.core.explain import explain_answers, with_near_misses

    turn = sum(1 for item in history.items if item.kind is ANSWER)
    found = explain_answers(with_answer(history, answer), {turn: verdict}, settings)
    return with_near_misses(verdict, found[turn])


def too_large_verdict(result: str, limit: int) -> Verdict | None:
    """The unjudgeable verdict a tool result larger than limit bytes gives every answer after it, or None when
    it is within the limit (a text is encoded only when its characters alone cannot tell: one character is
    one to four bytes)."""
    if 4 * len(result) <= limit:
        return None
    size = len(result) if len(result) > limit else len(result.encode("utf-8", "surrogatepass"))
    if size <= limit:
        return None
    return Verdict(Status.UNJUDGEABLE, 0, reason=f"a tool result of {size} bytes is larger than the limit of "
                   f"{limit} bytes (max_record_bytes): it was not read, so the answer is not judged")


def to_conversation(record: object, input_format: str | None = None, source: str = "<record>", *,
                    system: str | None = None, instructions: str | None = None) -> Conversation:
    """A record in any supported format (its JSON text too), a history as an agent loop holds it (SDK
    message objects, a bare Anthropic or Responses list with its system or instructions: grounding.history),
    or a Conversation, as a Conversation."""
    if isinstance(record, Conversation):
        return record
    from grounding.transcripts.formats import read_record, resolve_format
    from grounding.transcripts.records import loads

    canonical = resolve_format(input_format) if input_format else None
    record = as_record(record, format=canonical, system=system, instructions=instructions)

    if isinstance(record, (str, bytes)):
        try:
            record = loads(record.encode() if isinstance(record, str) else record)
        except ValueError as error:
            raise RecordError(f"{source}: not JSON ({error})") from None
    if isinstance(record, (list, tuple)) and not record:
        return Conversation(source, 1, None, (), input_format or "")
    if isinstance(record, tuple):
        record = list(record)
    try:
        return read_record(record, source, 1, canonical)
    except RecordError as error:  # a reader's hint names the CLI's flag: a library caller passes format=
        raise type(error)(_FLAG.sub(r'format="\1"', str(error))) from None


_FLAG = re.compile(r"--input-format ([\w-]+)")


def with_answer(conversation: Conversation, answer: str) -> Conversation:
    """The conversation with answer as its last item: the history's own answers stay, judged as before."""
    # replace keeps every other field: an unjudgeable history (turns the API holds) stays unjudgeable
    return replace(conversation, items=(*conversation.items, Item(ANSWER, answer)))


@dataclass(frozen=True)
class RunResult:
    """What one run over files gives: every judged answer and every problem, in input order, the summary
    that counts them, and the exit status ``ground check`` would end with."""

    answers: tuple[JudgedAnswer, ...]
    problems: tuple[Problem, ...]
    summary: Summary
    exit_code: int

    def to_dict(self) -> dict:
        """The run as JSON-ready values: the answers and problems as the JSON report writes them, the summary's
        counts and the exit status."""
        return {"answers": [answer.to_dict() for answer in self.answers],
                "problems": [problem.to_dict() for problem in self.problems],
                "summary": self.summary.as_json(), "exit_code": self.exit_code}


def judged(files: list[str], options: Options, summary: Summary, known: Baseline | None = None, *,
           on_record: Callable[[Record | Problem], None] | None = None,
           engine: Engine | None = None) -> Iterator[JudgedAnswer | Problem]:
    """Every judged answer and every problem of files (expanded already), in input order, counted in
    summary: the baseline known takes its values out, a rule not selected its findings. The one loop that
    run() and ``ground check`` share. engine runs the workers (see engine_for); None: jobs processes here."""
    from grounding.run.runner import judge_inputs

    return judge_inputs(files, options.settings, summary, options.input_format, on_record=on_record,
                        adjust=adjusting(options, known), explain=options.explain,
                        max_record_bytes=options.max_record_bytes, jobs=options.jobs, expanded=True,
                        flush_after=options.flush_after, storage_options=options.storage_options,
                        engine=engine, stdin_name=options.stdin_filename)


def adjusting(options: Options, known: Baseline | None = None) -> Callable[[JudgedAnswer], JudgedAnswer] | None:
    """What rewrites an answer before it is counted: the baseline known takes its values out, a rule not
    selected its findings (None: nothing does)."""
    from grounding.options.rules import adjustment

    return adjustment(known, options.settings)


@contextmanager
def engine_for(options: Options) -> Iterator[Engine | None]:
    """The engine options ask for, while a run uses it: None for local processes, or a Dask cluster (connected
    to, or started here and closed after)."""
    if options.engine != "dask":
        yield None
        return
    try:
        from grounding.run.dask_engine import cluster
    except ImportError as error:
        raise OptionError(f"--engine dask: {error}") from None
    with cluster(options.scheduler, options.workers) as engine:
        yield engine


def run(paths: str | os.PathLike | Iterable[str | os.PathLike], options: Options | None = None, *,
        jobs: int | str | None = None, engine: Engine | None = None) -> RunResult:
    """Judge every answer in the given files and folders exactly as ``ground check PATH…`` does (its
    baseline, rule selection and exit status included), collecting the answers instead of reporting them."""
    from grounding.options.exit_codes import exit_code
    from grounding.run.baseline import Baseline
    from grounding.transcripts.folders import check_readable, expand

    options = options if options is not None else default_options()
    if jobs is not None:
        options = replace(options, jobs=jobs)
    inputs = [os.fspath(paths)] if isinstance(paths, (str, os.PathLike)) else [os.fspath(p) for p in paths]
    check_readable(inputs)
    known = Baseline.load(Path(options.baseline)) if options.baseline is not None else None
    files = expand(inputs, storage_options=options.storage_options, exclude=options.excluded)
    summary = Summary()
    answers: list[JudgedAnswer] = []
    problems: list[Problem] = []
    with engine_for(options) if engine is None else nullcontext(engine) as chosen:
        for event in judged(files, options, summary, known, engine=chosen):
            if isinstance(event, Problem):
                problems.append(event)
            else:
                answers.append(event)
    stale = known is not None and bool(known.stale(files)) and options.stale_baseline_fails
    code = exit_code(summary, options.settings, strict=options.strict, stale_fails=stale)
    return RunResult(tuple(answers), tuple(problems), summary, int(code))
