"""The import rules of DESIGN.md, read from the package's own imports: a folder is one stage of the data
path, and imports only point down it. A rule broken here is a design decision to revisit, not a line to
waive: the table is DESIGN.md's, and a module that needs an exception belongs in another folder."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "grounding"
# the modules every folder may import: the values that cross folders, the errors, exact JSON, framework text
SHARED = ("model", "errors", "json_exact", "frames")
FORMER_PATHS = ("langchain", "pydantic_ai", "openai_agents", "nemo", "guardrails_ai", "smolagents", "autogen", "dspy")

# (folder, what it may import, what it never imports); the first folder a module is under decides
RULES: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("cli", ("",), ()),
    ("__init__", ("",), ("cli",)),
    ("__main__", ("cli",), ()),
    # the shared vocabulary beneath both faces: the option table, configuration, rule selection, exit codes
    ("options", ("options", "core", "run", "transcripts", "reporters", *SHARED), ("cli", "library", "gate")),
    # the library face: Options come from the option table beneath it, never from the CLI on top of it
    ("library", ("core", "transcripts", "run", "options", "history", "answers", "worker_threads", *SHARED), ("reporters", "cli", "dask")),
    # the converters of histories as agent loops hold them (SDK objects) into records
    ("history", ("answers", "integrations", *SHARED), ("cli", "run", "reporters", "core", "transcripts", "library")),
    # one module per agent framework: its converter (duck-typed, the framework never imported) and its
    # adapter (a framework's messages in, the gate's or the contract's decision out), side by side
    ("integrations", ("integrations", "gate", "contract", "library", "fixing", "session", "streaming", *SHARED),
     ("cli", "run", "reporters", "core", "transcripts")),
    # the first adapters' import paths, kept: each is its integration module itself
    *((former, ("integrations",), ()) for former in FORMER_PATHS),
    # the async API's calls judged in a worker thread
    ("worker_threads", (), ("cli", "run", "reporters", "core", "transcripts", "library")),
    # an answer argument (text, a framework's message object, a structured output) into its text
    ("answers", SHARED, ("cli", "run", "reporters", "core", "transcripts", "library", "history")),
    # an answer with its unsupported values masked: text in, text out
    ("fixing", SHARED, ("cli", "run", "reporters", "core", "transcripts", "library")),
    # one conversation's evidence kept between the loop's decisions
    ("session", ("library", "core", "transcripts", "options", "history", "answers", "worker_threads", "streaming",
                 "decisions", *SHARED), ("cli", "run", "reporters")),
    ("gate", ("library", "session", "decisions", "answers", "worker_threads", "core", *SHARED),
     ("cli", "run", "reporters", "transcripts")),
    # what the gate decides about a verdict, and how a decision is observed (the gate's and a stream's)
    ("decisions", ("fixing", *SHARED), ("cli", "run", "reporters", "transcripts", "library", "session", "gate")),
    # a streamed answer judged unit by unit as it arrives (Session.stream)
    ("streaming", ("session", "decisions", "fixing", "stream_units", *SHARED),
     ("cli", "run", "reporters", "transcripts", "gate")),
    # where a streamed answer's units end, and what of one is held back (core's tokens and month-name dates)
    ("stream_units", ("core", *SHARED), ("cli", "run", "reporters", "transcripts", "gate", "session")),
    # the output contract in the loop: a final answer's shape, then (through the gate) its values
    ("contract", ("library", "gate", "answers", "core", "options", *SHARED), ("cli", "run", "reporters")),
    # the stop hook of a coding agent's harness: its event in, the session file read, the gate's posture out
    ("hooks", ("hooks", "gate", "library", "session", "options", "run", *SHARED), ("cli", "reporters")),
    # the Dask engine: the run's workers on a cluster
    ("dask", ("run", "library", "transcripts", *SHARED), ("cli", "reporters", "core")),
    ("run", ("run", "core", "transcripts", *SHARED), ("reporters", "cli")),
    ("reporters", ("reporters", *SHARED), ("core", "run", "transcripts", "cli")),
    ("transcripts", ("transcripts", *SHARED), ("core", "run", "reporters", "cli")),
    ("core.judge", ("core", *SHARED), ()),
    ("core.explain", ("core", *SHARED), ()),
    ("core.answer", ("core.answer", "core.text", "core.settings", *SHARED), ("core.evidence",)),
    ("core.evidence", ("core.evidence", "core.text", *SHARED), ("core.answer",)),
    ("core.text", ("core.text",), ()),
    ("core", ("core", *SHARED), ("transcripts", "run", "reporters", "cli")),
    ("model", ("errors",), ()),
    ("frames", (), ()),
    ("errors", (), ()),
    ("json_exact", (), ()),
)
# what the pure core never imports: the CLI's libraries, the process, the file system
CORE_NEVER = {"typer", "rich", "sys", "os", "io", "pathlib", "subprocess", "shutil", "tempfile", "multiprocessing"}


def _modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" and len(parts) > 1 else parts)
        found.append((name, path))
    return found


def _imports(path: Path, name: str) -> list[tuple[int, str]]:
    """Every module path imports, anywhere in it (inside a function too), as (line, dotted name)."""
    tree = ast.parse(path.read_text(), str(path))
    package = name.rsplit(".", 1)[0] if path.name != "__init__.py" else name
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = ["grounding", *package.split(".")][: len(package.split(".")) + 2 - node.level]
                base = ".".join(anchor + ([base] if base else []))
            if base == "grounding":  # from grounding import model: each name is a module (or __version__)
                found += [(node.lineno, f"grounding.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, base))
    return found


def _rule(name: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    for rule in RULES:
        if name == rule[0] or name.startswith(rule[0] + "."):
            return rule
    raise AssertionError(f"grounding.{name} is in no folder of DESIGN.md's table: place it, or add its row")


def _under(target: str, folder: str) -> bool:
    return folder == "" or target == folder or target.startswith(folder + ".")


def _broken() -> list[str]:
    broken = []
    for name, path in _modules():
        folder, may, never = _rule(name)
        for line, imported in _imports(path, name):
            where = f"grounding/{path.relative_to(PACKAGE)}:{line}"
            if imported.startswith("grounding."):
                target = imported.removeprefix("grounding.")
                if target == "__version__" or target == name:
                    continue
                if any(_under(target, no) for no in never) or not any(_under(target, ok) for ok in may):
                    broken.append(f"{where}: {folder}/ imports grounding.{target}")
            elif imported == "grounding" and folder not in ("cli", "__init__", "__main__"):
                broken.append(f"{where}: {folder}/ imports the package face (import the module it needs)")
            elif name.startswith("core") and imported.split(".")[0] in CORE_NEVER:
                broken.append(f"{where}: the core imports {imported} (the core does no I/O)")
    return broken


def test_every_import_points_down_the_data_path():
    assert _broken() == []


def test_only_the_console_script_and_main_import_the_cli():
    importers = sorted({f"grounding.{name}" for name, path in _modules() if not _under(name, "cli")
                        and name != "__main__" for _, imported in _imports(path, name)
                        if imported == "grounding.cli" or imported.startswith("grounding.cli.")})
    assert importers == []  # the console script is grounding.cli.app:main (pyproject.toml)


def _graph() -> dict[str, set[str]]:
    """Each module and the package's modules it imports (at module level, in a function, or for types)."""
    names = {name for name, _ in _modules()}
    graph: dict[str, set[str]] = {}
    for name, path in _modules():
        targets = set()
        for _, imported in _imports(path, name):
            target = imported.removeprefix("grounding.")
            while target and target not in names:  # `from grounding.x import y`: y is a name in module x
                target = target.rpartition(".")[0]
            if imported.startswith("grounding.") and target and target != name:
                targets.add(target)
        graph[name] = targets
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of graph, each once, as the modules around it (Tarjan's strongly connected parts)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = []
            while True:
                member = stack.pop()
                part.append(member)
                if member == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_there_is_no_import_circle():
    assert _circles(_graph()) == []


def test_the_circle_finder_finds_a_circle_through_a_deferred_import():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_reporters_never_read_the_environment():
    reads = []
    for path in sorted((PACKAGE / "reporters").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
            if name in ("environ", "getenv", "environb"):
                reads.append(f"grounding/{path.relative_to(PACKAGE)}:{node.lineno}")
    assert reads == [], "a reporter is told its options (grounding.cli.environment), never reads the environment"


@pytest.mark.parametrize("limit, what", [(400, "lines")])
def test_no_module_is_over_the_limit(limit, what):
    long = [f"grounding/{path.relative_to(PACKAGE)}: {n} {what}" for _name, path in _modules()
            if (n := len(path.read_text().splitlines())) > limit]
    assert long == []


def test_no_function_is_over_sixty_lines():
    long = []
    for _name, path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > 60:
                    long.append(f"grounding/{path.relative_to(PACKAGE)}:{node.lineno} {node.name}: {length} lines")
    assert long == []


def test_importing_the_package_imports_no_cli_library():
    import subprocess
    import sys

    code = "import grounding, sys; print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'rich')))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "[]\n"
