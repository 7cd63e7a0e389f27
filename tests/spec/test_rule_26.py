"""SPEC §9 rule 26, code and its tools' notation: what each notation grounds, and what it still refuses."""

import pytest
from conftest import judge, unsupported, via

from grounding.core.answer.candidates import read_answer
from grounding.core.settings import Settings, build_settings
from grounding.library import Options

GIT_LOG = "commit 9f3c2e1d0b7a4c55e1f0a9b8c7d6e5f4a3b2c1d0\nAuthor: Dev <dev@example.com>\n\n    Fix cache"


def _values(answer: str, settings: Settings | None = None) -> list[str]:
    return [c.value for c in read_answer(answer, settings or Settings()).candidates]


@pytest.mark.parametrize(
    ("answer", "values"),
    [
        ("Cache.fetch/2 returns {:ok, v}", []),  # a name without digits is prose; the arity too
        (":ets.insert/2 and GenServer.handle_call/3", []),
        ("parse_v2/1 and Base64Codec.decode64/1", ["parse_v2", "decode64"]),  # a function's own name
        ("ports fc1/9 and eth1/12", ["fc1/9", "eth1/12"]),  # ports stay whole (§9.13)
        ("uses jason v1.4.4 and tokio v1.38.0", ["1.4.4", "1.38.0"]),
        ("hashes with SHA-512, encodes as UTF-16, dates per ISO 8601, builds for x86_64 and arm64", []),
        ("the year 8601 of the calendar", ["8601"]),  # only after "ISO" is 8601 a standard's name
    ],
)
def test_what_an_answer_about_code_cites(answer, values):
    assert _values(answer) == values


def test_the_standard_names_are_configurable():
    answer = "hashes with SHA-512 and signs with RFC 9457"
    assert _values(answer) == ["9457"]
    assert _values(answer, Options(extend_standard_names=["RFC 9457"]).settings) == []
    assert _values(answer, Options(standard_names=[]).settings) == ["sha-512", "9457"]
    assert build_settings().standard_names == Options().settings.standard_names


@pytest.mark.parametrize(
    ("evidence", "arguments", "answer", "expected_unsupported", "expected_via"),
    [
        # Python: a Read of the file, numbered lines
        ("     1→import os\n     2→\n    60→    return hit", {"file_path": "/srv/app/src/cache.py"},
         "see src/cache.py:60", [], {"src/cache.py:60": "line"}),
        # grep -n output names the file itself
        ("src/cache.py:88:    return hit", {"pattern": "return hit"}, "see src/cache.py:88", [], {}),  # as read
        ("src/cache.py:88:    return hit", {"pattern": "return hit"}, "see cache.py:88", [], {"cache.py:88": "component"}),
        # TypeScript: a range, a GitHub-style anchor
        ("    12→export function plan() {\n    40→}", {"file_path": "/w/src/agents/plan.ts"},
         "src/agents/plan.ts#L12-L40", [], {"src/agents/plan.ts#l12-l40": "line"}),
        # Go: a traceback-like path:line:col
        ('panic: boom\n\tFile "cmd/server/main.go", line 212', {}, "cmd/server/main.go:212:3", [],
         {"cmd/server/main.go:212:3": "line"}),
        # refused: a line no listing showed, a path never read
        ("     1→import os\n    60→    return hit", {"file_path": "/srv/app/src/cache.py"}, "see src/cache.py:88",
         ["src/cache.py:88"], {}),
        ("     1→import os\n    60→    return hit", {"file_path": "/srv/app/src/cache.py"}, "see src/store.py:60",
         ["src/store.py:60"], {}),
        ("src/cache.py:88:    return hit", {}, "see src/cache.py:89", ["src/cache.py:89"], {}),
    ],
)
def test_path_and_line(evidence, arguments, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer, arguments=arguments)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_a_failed_read_grounds_no_path_it_named():
    verdict = judge("Error: file not found", answer="see src/cache.py:1", arguments={"file_path": "src/cache.py"})
    assert unsupported(verdict) == ["src/cache.py:1"]


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        (GIT_LOG, "commit 9f3c2e1 fixed it", [], {"9f3c2e1": "hash-prefix"}),
        (GIT_LOG, "commit 9f3c2e1d0b7a fixed it", [], {"9f3c2e1d0b7a": "hash-prefix"}),
        (GIT_LOG, "commit 9f3c2e7 fixed it", ["9f3c2e7"], {}),  # one digit off: no prefix of the read hash
        ("short a1b2c3d only", "commit a1b2c3d", [], {}),  # read as written: grounded plainly
    ],
)
def test_hash_prefixes(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported"),
    [
        ('%{"jason": {:hex, :jason, "1.4.4"}}', "uses jason v1.4.4", []),  # Elixir's mix.lock
        ('[[package]]\nname = "tokio"\nversion = "1.38.0"', "tokio v1.38.0", []),  # Rust's Cargo.lock
        ('"jason": "1.4.4"', "uses jason v1.4.5", ["1.4.5"]),  # a version no manifest holds
        ("def parse_v1(x):", "parse_v2/1 parses", ["parse_v2"]),  # an invented function name
        ("def parse_v2(x):", "parse_v2/1 parses", []),
    ],
)
def test_versions_and_function_names(evidence, answer, expected_unsupported):
    assert unsupported(judge(evidence, answer=answer)) == expected_unsupported


def test_claude_code_reads_lines_from_the_read_tools_result():
    record = [
        {"type": "user", "sessionId": "s", "uuid": "u1", "parentUuid": None, "cwd": "/srv/app",
         "message": {"role": "user", "content": "Where is the cache hit returned?"}},
        {"type": "assistant", "sessionId": "s", "uuid": "a1", "parentUuid": "u1",
         "message": {"id": "m1", "role": "assistant", "content": [
             {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "/srv/app/src/cache.py"}}]}},
        {"type": "user", "sessionId": "s", "uuid": "u2", "parentUuid": "a1",
         "message": {"role": "user", "content": [
             {"type": "tool_result", "tool_use_id": "t1", "content": "     1→import os\n    88→    return hit"}]}},
        {"type": "assistant", "sessionId": "s", "uuid": "a2", "parentUuid": "u2",
         "message": {"id": "m2", "role": "assistant", "content": [
             {"type": "text", "text": "It returns at src/cache.py:88 (not src/cache.py:89)."}]}},
    ]
    from grounding.core.engine import check_conversation
    from grounding.transcripts.formats import claude_code

    conversation = claude_code.assemble(list(enumerate(record, start=1)), "session.jsonl")
    [answer] = list(check_conversation(conversation, build_settings()))
    assert unsupported(answer.verdict) == ["src/cache.py:89"] and via(answer.verdict) == {"src/cache.py:88": "line"}


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        ("config :app, Web.Endpoint, http: [ip: {127, 0, 0, 1}, port: 4000]", "listening on 127.0.0.1:4000", [],
         {"127.0.0.1:4000": "address"}),
        ("config :app, Web.Endpoint, http: [ip: {127, 0, 0, 1}, port: 4000]", "bound to 127.0.0.1", [],
         {"127.0.0.1": "address"}),
        ('{"listen": [10, 0, 0, 7], "port": 8080}', "on 10.0.0.7:8080", [], {"10.0.0.7:8080": "address"}),
        # refused: another port, another address, a tuple of numbers over 255
        ("http: [ip: {127, 0, 0, 1}, port: 4000]", "listening on 127.0.0.1:4001", ["127.0.0.1:4001"], {}),
        ("http: [ip: {127, 0, 0, 2}, port: 4000]", "bound to 127.0.0.1", ["127.0.0.1"], {}),
        ("sizes {300, 0, 0, 1}", "at 300.0.0.1", ["300.0.0.1"], {}),
    ],
)
def test_an_address_read_as_a_tuple(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


SERVED = "Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ..."


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        # a server on this machine, under another of its names; a URL with or without its closing slash
        (SERVED, "open http://localhost:8000", [], {"http://localhost:8000": "url"}),
        (SERVED, "at localhost:8000 and http://127.0.0.1:8000/", [],
         {"localhost:8000": "url", "http://127.0.0.1:8000/": "url"}),
        (SERVED, "open http://0.0.0.0:8000", [], {"http://0.0.0.0:8000": "url"}),
        ("  Local:   http://localhost:5173/app/", "see http://127.0.0.1:5173/app", [],
         {"http://127.0.0.1:5173/app": "url"}),
        ('{"dashboard": "https://grafana.acme.io/d/ab12cd34"}', "https://grafana.acme.io/d/ab12cd34/", [],
         {"https://grafana.acme.io/d/ab12cd34/": "url"}),
        # refused: another port, a path not read, another scheme, a host not on this machine, another URL
        (SERVED, "open http://localhost:8001", ["http://localhost:8001"], {}),
        (SERVED, "the admin at http://localhost:8000/admin", ["http://localhost:8000/admin"], {}),
        (SERVED, "open https://localhost:8000", ["https://localhost:8000"], {}),
        (SERVED, "open http://example.com:8000", ["http://example.com:8000"], {}),
        (SERVED, "open http://10.0.0.7:8000", ["http://10.0.0.7:8000"], {}),
        ('{"dashboard": "https://grafana.acme.io/d/ab12cd34"}', "https://grafana.acme.io/d/ab12cd35/",
         ["https://grafana.acme.io/d/ab12cd35/"], {}),
    ],
)
def test_the_same_url_read_under_another_name(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


@pytest.mark.parametrize(
    ("evidence", "answer", "expected_unsupported", "expected_via"),
    [
        ("The latest version is 0.1.3, released in July.", "still early (0.1.x)", [], {"0.1.x": "version-range"}),
        ('{"go": "go1.22.4", "toolchain": "v1.22.4"}', "any 1.22.x toolchain", [], {"1.22.x": "version-range"}),
        ("The latest version is 0.1.3.", "the 0.2.x series", ["0.2.x"], {}),
        ("The latest version is 10.1.3.", "the 0.1.x series", ["0.1.x"], {}),  # 10.1.3 is no 0.1 release
    ],
)
def test_a_version_with_a_wildcard(evidence, answer, expected_unsupported, expected_via):
    verdict = judge(evidence, answer=answer)
    assert unsupported(verdict) == expected_unsupported and via(verdict) == expected_via


def test_values_in_a_sketch_are_examples_and_a_fenced_answer_is_still_judged():
    sketch = 'The event could look something like:\n\n```json\n{"created": "2030-01-01T00:00:00Z"}\n```\n'
    verdict = judge({"ok": True}, answer=sketch)
    assert unsupported(verdict) == [] and [f.value for f in verdict.examples] == ["2030-01-01t00:00:00z"]
    claimed = 'The event it wrote is:\n\n```json\n{"created": "2030-01-01T00:00:00Z"}\n```\n'
    assert unsupported(judge({"ok": True}, answer=claimed)) == ["2030-01-01t00:00:00z"]


def _session(answer: str, listing: str, cwd: str = "/srv/app2") -> list[dict]:
    return [
        {"type": "user", "sessionId": "s", "uuid": "u1", "parentUuid": None, "cwd": cwd,
         "message": {"role": "user", "content": "Where are the static files?"}},
        {"type": "assistant", "sessionId": "s", "uuid": "a1", "parentUuid": "u1", "cwd": cwd,
         "message": {"id": "m1", "role": "assistant", "content": [
             {"type": "tool_use", "id": "t1", "name": "Glob", "input": {"pattern": "**/*.css"}}]}},
        {"type": "user", "sessionId": "s", "uuid": "u2", "parentUuid": "a1", "cwd": cwd, "message": {
            "role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": listing}]}},
        {"type": "assistant", "sessionId": "s", "uuid": "a2", "parentUuid": "u2", "cwd": cwd,
         "message": {"id": "m2", "role": "assistant", "content": [{"type": "text", "text": answer}]}},
    ]


@pytest.mark.parametrize(
    ("answer", "listing", "expected_unsupported", "expected_via"),
    [
        ("They are in /srv/app2/priv/static/.", "priv/static/app.css", [], {"/srv/app2/priv/static/": "path"}),
        ("They are in priv/v2/static/.", "priv/v2/static/app.css", [], {"priv/v2/static/": "path"}),
        ("See /srv/app2/priv/static/app.css:12.", "    12→.row {", [], {}),  # (no path read: see below)
        # refused: a folder no read path lies in, a path below another directory than the session's
        ("They are in /srv/app2/priv/assets/.", "priv/static/app.css", ["/srv/app2/priv/assets/"], {}),
        ("They are in /srv/app3/priv/static/.", "priv/static/app.css", ["/srv/app3/priv/static/"], {}),
    ],
)
def test_paths_against_the_sessions_working_directory(answer, listing, expected_unsupported, expected_via):
    from grounding.core.engine import check_conversation
    from grounding.transcripts.formats import claude_code

    conversation = claude_code.assemble(list(enumerate(_session(answer, listing), start=1)), "session.jsonl")
    [judged] = list(check_conversation(conversation, build_settings()))
    if expected_unsupported or expected_via:
        assert unsupported(judged.verdict) == expected_unsupported and via(judged.verdict) == expected_via
    else:
        assert unsupported(judged.verdict) == ["/srv/app2/priv/static/app.css:12"]


def _rollout(answer: str, listing: str, cwd: str = "/srv/app2") -> list[dict]:
    stamp = "2026-11-30T10:00:00.000Z"
    return [
        {"timestamp": stamp, "type": "session_meta", "payload": {"id": "r", "cwd": cwd}},
        {"timestamp": stamp, "type": "event_msg", "payload": {"type": "user_message", "message": "Where is the CSS?"}},
        {"timestamp": stamp, "type": "response_item", "payload": {
            "type": "function_call", "name": "shell", "call_id": "c1", "arguments": '{"command": ["ls", "-R"]}'}},
        {"timestamp": stamp, "type": "response_item", "payload": {
            "type": "function_call_output", "call_id": "c1", "output": listing}},
        {"timestamp": stamp, "type": "response_item", "payload": {
            "type": "message", "role": "assistant", "content": [{"type": "output_text", "text": answer}]}},
    ]


@pytest.mark.parametrize(
    ("answer", "expected_unsupported"),
    [
        ("They are in /srv/app2/priv/static/.", []),
        ("They are in /srv/app3/priv/static/.", ["/srv/app3/priv/static/"]),  # another directory than the session's
    ],
)
def test_a_codex_rollouts_working_directory_is_its_session_metas(answer, expected_unsupported):
    from grounding.core.engine import check_conversation
    from grounding.transcripts.formats import codex_cli

    conversation = codex_cli.assemble(list(enumerate(_rollout(answer, "priv/static/app.css"), start=1)), "r.jsonl")
    assert conversation.cwd == "/srv/app2"
    [judged] = list(check_conversation(conversation, build_settings()))
    assert unsupported(judged.verdict) == expected_unsupported
