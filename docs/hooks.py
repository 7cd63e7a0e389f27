"""MkDocs hooks: the option reference is generated from the one option table, never written by hand."""

from __future__ import annotations

from grounding.options.table import OPTIONS

MARKER = "<!-- options-reference -->"


def options_reference() -> str:
    """A Markdown table of every option: its flags, configuration key, default and help."""
    rows = ["| flag | configuration key | default | what it does |", "| --- | --- | --- | --- |"]
    for option in OPTIONS:
        if option.hidden:
            continue
        flags = ", ".join(f"`{flag}`" for flag in option.flags) + (f" {option.metavar}" if option.metavar else "")
        key = f"`{option.key}`" if option.key and option.in_config else "(command line only)"
        default = "" if option.default in (None, [], {}) else f"`{_shown(option.default)}`"
        rows.append(f"| {flags or '(configuration only)'} | {key} | {default} | {_cell(option.help)} |")
    return "\n".join(rows)


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return str(value)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def on_page_markdown(markdown: str, page: object, config: object, files: object) -> str:
    return markdown.replace(MARKER, options_reference()) if MARKER in markdown else markdown
