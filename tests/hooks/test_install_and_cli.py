"""ground hook install, and the hook as the harness runs it: a process reading standard input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from sessions import claude_code_records, stop_event, write_session

from grounding.hooks.install import hook_command, merged, settings_block, write_settings

GROUND = [sys.executable, "-m", "grounding"]


def _ground(*args: str, stdin: bytes = b"", cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([*GROUND, *args], input=stdin, capture_output=True, cwd=cwd, timeout=120)


def test_the_hook_process_blocks_on_stdout_and_allows_in_silence(tmp_path):
    invented = write_session(tmp_path / "s.jsonl", claude_code_records("Build 8812043 passed."))
    blocked = _ground("hook", "claude-code", stdin=stop_event(invented))
    assert blocked.returncode == 0
    assert json.loads(blocked.stdout)["decision"] == "block"
    honest = write_session(tmp_path / "h.jsonl", claude_code_records("Build 8812034 passed."))
    allowed = _ground("hook", "claude-code", stdin=stop_event(honest))
    assert (allowed.returncode, allowed.stdout, allowed.stderr) == (0, b"", b"")


@pytest.mark.parametrize("args", [["--posture", "strict"], ["--cap", "0"], ["--cap", "x"], ["--unknown"],
                                  ["extra"], ["--config", "/no/such.toml"]])
def test_a_bad_option_never_blocks_the_stop(args, tmp_path):
    invented = write_session(tmp_path / "s.jsonl", claude_code_records("Build 8812043 passed."))
    result = _ground("hook", "claude-code", *args, stdin=stop_event(invented))
    assert (result.returncode, result.stdout) == (1, b"") and b"the stop is allowed" in result.stderr


def test_install_prints_the_block_for_both_stop_events():
    result = _ground("hook", "install", "claude-code", "--posture", "rails")
    assert result.returncode == 0
    block = json.loads(result.stdout)
    assert block == settings_block("ground hook claude-code --posture rails")
    assert sorted(block["hooks"]) == ["Stop", "SubagentStop"]


def test_install_write_merges_into_the_projects_settings_and_keeps_what_is_there(tmp_path):
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    mine = {"model": "opus", "permissions": {"allow": ["Bash(npm test)"]},
            "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./run-tests.sh"}]}],
                      "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}]}}
    settings.write_text(json.dumps(mine))
    result = _ground("hook", "install", "claude-code", "--write", "--project", str(tmp_path))
    assert result.returncode == 0 and b"registered" in result.stdout
    written = json.loads(settings.read_text())
    assert written["model"] == "opus" and written["permissions"] == mine["permissions"]
    assert written["hooks"]["PreToolUse"] == mine["hooks"]["PreToolUse"]
    assert [h["command"] for g in written["hooks"]["Stop"] for h in g["hooks"]] == ["./run-tests.sh",
                                                                                   "ground hook claude-code"]
    again = _ground("hook", "install", "claude-code", "--write", "--project", str(tmp_path))
    assert b"nothing changed" in again.stdout and json.loads(settings.read_text()) == written
    _ground("hook", "install", "claude-code", "--write", "--project", str(tmp_path), "--posture", "assist")
    stops = [h["command"] for g in json.loads(settings.read_text())["hooks"]["Stop"] for h in g["hooks"]]
    assert stops == ["./run-tests.sh", "ground hook claude-code --posture assist"]


def test_install_write_creates_codex_hooks_json(tmp_path):
    assert write_settings(tmp_path / ".codex" / "hooks.json", "codex", hook_command("codex")) is True
    written = json.loads((tmp_path / ".codex" / "hooks.json").read_text())
    assert written == settings_block("ground hook codex")


@pytest.mark.parametrize("content", ["{not json", "[]", '{"hooks": []}', '{"hooks": {"Stop": {}}}'])
def test_install_write_leaves_a_file_it_cannot_merge_as_it_was(tmp_path, content):
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(content)
    result = _ground("hook", "install", "claude-code", "--write", "--project", str(tmp_path))
    assert result.returncode == 2 and b"error:" in result.stderr and settings.read_text() == content


def test_install_refuses_an_unknown_harness():
    result = _ground("hook", "install", "cursor")
    assert result.returncode == 2 and b"claude-code, codex" in result.stderr


def test_a_full_path_to_ground_is_recognised_as_the_hook_already_there():
    existing = {"hooks": {event: [{"hooks": [{"type": "command", "command": "/opt/venv/bin/ground hook claude-code"}]}]
                          for event in ("Stop", "SubagentStop")}}
    settings, changed = merged(existing, "claude-code", "/opt/venv/bin/ground hook claude-code")
    assert not changed and settings == existing
