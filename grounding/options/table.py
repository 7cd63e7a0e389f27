"""Every option of ``ground check``, declared once: its configuration key, how its value is checked, its
default, its command-line flags and its help. The library's ``Options``, the configuration reader
(``[tool.ground]`` / ``ground.toml``), ``ground config``, the configuration's JSON Schema and the typer
signature of ``check`` (``grounding.cli.flags``) all come from OPTIONS; tests/edges/test_options.py holds
the ``--help`` text and the table equal.

A value is in the configuration's terms everywhere past the command line: ``--shape NAME=REGEX`` becomes
the ``shapes`` table, ``--no-derived`` sets ``derived = false``, a path becomes its text.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grounding.core.text.standards import STANDARD_NAMES
from grounding.reporters import OutputFormat
from grounding.transcripts.folders import DEFAULT_EXCLUDE


@dataclass(frozen=True, slots=True)
class Option:
    key: str  # the configuration key ("" for a command-line-only option), as `ground config` shows it
    kind: str  # how a value is checked: bool, int, jobs, seconds, str, list, table, paths, choice
    default: object
    flags: tuple[str, ...] = ()  # the command line's spellings; () for a key only the configuration sets
    help: str = ""
    metavar: str | None = None
    param: str = ""  # the Python parameter of `check` (the key in snake case unless it says)
    typed: object = None  # the type typer reads the flag as (Optional[...] of it: None = not given)
    given: str = "value"  # how a flag's value becomes the key's: value, text, choice, negated, shapes, globs
    choices: tuple[str, ...] = ()
    maximum: int | None = None  # the largest whole number allowed
    in_config: bool = True
    hidden: bool = False
    terminal: bool = False  # how the command line shows a run, not what is judged: no grounding.Options field

    @property
    def name(self) -> str:
        return self.param or self.key.replace("-", "_")


OUTPUT_FORMATS = tuple(output_format.value for output_format in OutputFormat)
_LIST = list[str]

# In the order `ground check --help` lists them.
OPTIONS: tuple[Option, ...] = (
    Option("output-format", "choice", "full", ("--output-format", "--format"), "How to report (default full).",
           typed=OutputFormat, given="choice", choices=OUTPUT_FORMATS, terminal=True),
    Option("output", "str", None, ("--output", "-o", "--output-file"),
           "Write the report to FILE; the terminal still gets the summary.", "FILE", typed=Path, given="text",
           terminal=True),
    Option("output-dir", "str", None, ("--output-dir",),
           "Write the JSON Lines report as one file per input file, in order, and a summary.json into DIR (a "
           "folder or a URL).", "DIR", typed=str, terminal=True),
    Option("shapes", "table", {}, ("--shape",),
           "Declare a value shape (repeatable): a whole word, any case; a regex with a space matches across words (a name), one starting (?-i) matches case.", "NAME=REGEX",
           param="shape", typed=_LIST, given="shapes"),
    Option("exempt", "list", [], ("--exempt",), "A value never flagged (repeatable).", "VALUE", typed=_LIST),
    Option("exempt-regex", "list", [], ("--exempt-regex",), "Values matching this are never flagged (repeatable).",
           "REGEX", typed=_LIST),
    Option("min-digits", "int", 4, ("--min-digits",), "Digits a bare number needs to be examined [4].", "N",
           typed=int),
    Option("count-min-digits", "int", None, ("--count-min-digits",),
           "Digits a number needs to be examined when a noun it counts follows it (182 visits, 3 rooms, 12 people) "
           "[min-digits].", "N", typed=int, maximum=64),
    Option("figures", "bool", False, ("--figures",),
           "Examine figures at any length: numbers with a unit of measure or a percent sign (53.2%, 6.3 TB, 120 ms) "
           "or a scale word ($55 million), checked against read numbers and their conversions.", typed=bool),
    Option("derived", "bool", True, ("--no-derived",),
           "Do not explain values by arithmetic (sums, differences, rates) or date offsets.", param="no_derived",
           typed=bool, given="negated"),
    Option("fail-on-derived", "bool", False, ("--fail-on-derived",), "Exit 1 when an answer holds a derived value.",
           typed=bool),
    Option("fail-on-example", "bool", False, ("--fail-on-example",), "Exit 1 when an example value is reported.",
           typed=bool),
    Option("fail-on-unjudgeable", "bool", False, ("--fail-on-unjudgeable",),
           "Exit 1 when an answer's evidence is not in the record.", typed=bool),
    Option("fail-on-unchecked", "bool", False, ("--fail-on-unchecked",),
           "Exit 1 when an answer states no value to look up (unchecked: nothing was checked).",
           typed=bool),
    Option("exit-zero", "bool", False, ("--exit-zero",), "Exit 0 even when answers are flagged.", typed=bool),
    Option("strict", "bool", False, ("--strict",), "Exit 2 when any record cannot be read.", typed=bool),
    Option("select", "list", [], ("--select",), "Report only these rules (code, name or prefix; repeatable).",
           "CODE", typed=_LIST),
    Option("ignore", "list", [], ("--ignore",), "Neither report nor fail on these rules (repeatable).", "CODE",
           typed=_LIST),
    Option("allow-empty", "bool", False, ("--allow-empty",),
           "Exit 0, not 2, when the inputs hold no answer to judge.", typed=bool),
    Option("input-format", "str", None, ("--input-format",), "Force a transcript format (see: ground formats).",
           "NAME", typed=str),
    Option("exclude", "list", list(DEFAULT_EXCLUDE), ("--exclude",),
           "A glob of files or folders a folder search passes over, by name or path below the folder (repeatable;"
           " replaces the defaults: .git, .venv, node_modules, caches).", "GLOB", typed=_LIST),
    Option("extend-exclude", "list", [], ("--extend-exclude",),
           "A glob passed over as well as --exclude's (repeatable), e.g. '*.schema.json'.", "GLOB", typed=_LIST),
    Option("standard-names", "list", list(STANDARD_NAMES), ("--standard-name",),
           "A name of a standard that carries digits, read as prose, not a value (repeatable; replaces the "
           "built-in list: SHA-256, UTF-8, HTTP/2, x86_64, ISO 8601, …; set it to [] to read them all as values).",
           "NAME", typed=_LIST),
    Option("extend-standard-names", "list", [], ("--extend-standard-name",),
           "Another standard's name read as prose, beside the built-in list or --standard-name (repeatable), e.g. "
           "'RFC 9457'.", "NAME",
           typed=_LIST),
    Option("stdin-filename", "str", None, ("--stdin-filename",),
           "The file name to report standard input (-) under, so CI annotations and baselines can place it.",
           "NAME", typed=str),
    Option("statistics", "bool", False, ("--statistics",),
           "Print counts per shape and the most frequent unsupported values.", typed=bool, terminal=True),
    Option("baseline", "str", None, ("--baseline",), "Report only findings not in this baseline.", "FILE",
           typed=Path, given="text"),
    Option("", "bool", False, ("--write-baseline",), "Write the current findings to the --baseline file and exit 0.",
           param="write_baseline", typed=bool, in_config=False),
    Option("stale-baseline-fails", "bool", False, ("--stale-baseline-fails",),
           "Exit 1 when a baseline entry no longer matches.", typed=bool),
    Option("", "str", None, ("--config",), "Read options from FILE (ground.toml or pyproject.toml).", "FILE",
           param="config", typed=Path, in_config=False),
    Option("progress", "bool", True, ("--no-progress",), "Never show a progress bar.", param="no_progress",
           typed=bool, given="negated", terminal=True),
    Option("quiet", "bool", False, ("--quiet", "-q"),
           "No progress bar and no summary line (full, concise and github reports).", typed=bool, terminal=True),
    Option("verbose", "bool", False, ("--verbose", "-v"), "List grounded answers too.", typed=bool,
           terminal=True),
    Option("explain", "bool", False, ("--explain",), "Say for every value where it was read, or what is nearest.",
           typed=bool),
    Option("schema", "str", None, ("--schema",), "Check every answer against this JSON Schema before its values.",
           "FILE", typed=Path, given="text"),
    Option("schema-for", "paths", {}, ("--schema-for",),
           "A JSON Schema for the conversations whose id matches GLOB (repeatable; first match wins).", "GLOB=FILE",
           typed=_LIST, given="globs"),
    Option("require-tool", "list", [], ("--require-tool",),
           "Fail an answer whose turn made no successful call of NAME.", "NAME", typed=_LIST),
    Option("code-needs-execution", "str", None, ("--code-needs-execution",),
           "Fail an answer that presents a fenced code block with no successful call of TOOL.", "TOOL", typed=str),
    Option("code-blocks", "choice", "examples", ("--code-blocks",),
           "Literals in code the answer writes: examples (code it authors is an example; output it quotes, as a "
           "command printed it, is judged) or judge (judged like prose) [examples].", "MODE", typed=str,
           choices=("examples", "judge")),
    Option("contract-warn-only", "bool", False, ("--contract-warn-only",),
           "Report contract-unmet answers without failing.", typed=bool),
    Option("jobs", "jobs", "auto", ("--jobs", "-j"),
           "Worker processes: auto (one per usable core for an input large enough to pay for them, else one), N, "
           "or 0 (one per usable core); output is the same [auto].", "N", typed=str),
    Option("flush-after", "seconds", None, ("--flush-after",),
           "On standard input, judge a trace with no new span for SECONDS as complete.", "SECONDS", typed=float),
    Option("max-record-bytes", "int", 128 * 1024 * 1024, ("--max-record-bytes",),
           "Largest record read; a larger one is reported, not read [134217728 = 128 MiB].", "N", typed=int,
           maximum=1 << 40),  # a record is read whole: 1 TiB at most
    Option("engine", "choice", "local", ("--engine",),
           "Where the workers run: local (--jobs processes here) or dask (a Dask cluster) [local].", "NAME",
           typed=str, choices=("local", "dask")),
    Option("scheduler", "str", None, ("--scheduler",), "With --engine dask: the address of a running scheduler.",
           "ADDR", typed=str),
    Option("workers", "int", None, ("--workers",),
           "With --engine dask and no --scheduler: start a cluster here of N worker processes.", "N", typed=int,
           maximum=4096),
    Option("storage-options", "storage", {}, ("--storage-option",),
           "An option of the file system URL inputs (s3://, gs://, az://, https://) are read through "
           "(repeatable), e.g. endpoint_url=http://127.0.0.1:9000.", "KEY=VALUE", param="storage_option",
           typed=_LIST, given="storage"),
)
KEYS: dict[str, Option] = {option.key: option for option in OPTIONS if option.in_config}


_SCHEMA_TYPES: dict[str, dict] = {
    "bool": {"type": "boolean"},
    "int": {"type": "integer", "minimum": 1},
    "jobs": {"anyOf": [{"type": "integer", "minimum": 0}, {"const": "auto"}]},
    "seconds": {"type": "number", "exclusiveMinimum": 0},
    "str": {"type": "string"},
    "list": {"type": "array", "items": {"type": "string"}},
    "table": {"type": "object", "additionalProperties": {"type": "string"}},
    "paths": {"type": "object", "additionalProperties": {"type": "string"}},
    "storage": {"type": "object", "additionalProperties": {"type": ["string", "boolean", "number"]}},
}


def config_schema() -> dict:
    """The JSON Schema of a ``[tool.ground]`` table or a ``ground.toml``, from OPTIONS (shipped as
    grounding/schemas/config.schema.json; a test holds the file equal to this)."""
    properties = {}
    for option in OPTIONS:
        if not option.in_config:
            continue
        entry = dict(_SCHEMA_TYPES.get(option.kind, {}))
        if option.kind == "choice":
            entry = {"enum": list(option.choices)}
        if option.maximum is not None:
            entry["maximum"] = option.maximum
        entry["description"] = option.help
        if option.default is not None:
            entry["default"] = option.default
        properties[option.key] = entry
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "ground-evidence/config.schema.json",
            "title": "ground configuration ([tool.ground] in pyproject.toml, or ground.toml)",
            "type": "object", "additionalProperties": False, "properties": properties}
