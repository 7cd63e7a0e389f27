"""Coding sessions (issue 48): what a coding agent's answer is judged against, and what it is not."""

from __future__ import annotations

import pytest
from conftest import unsupported
from test_rule_26 import _rollout

from grounding.core.engine import check_conversation
from grounding.core.settings import build_settings
from grounding.transcripts.formats import claude_code

EDITED = "    12→TIMEOUT_MS = 45000\n    13→RETRIES = 3\n    14→\n    15→def sync(order_id):"
EDIT_INPUT = {"file_path": "/srv/app/worker.py", "old_string": "TIMEOUT_MS = 30000", "new_string": "TIMEOUT_MS = 45000"}


def _session(call: str, call_input: dict, result: object, answer: str) -> list[tuple[int, dict]]:
    base = {"sessionId": "s", "cwd": "/srv/app"}
    records = [
        {**base, "type": "user", "uuid": "u1", "parentUuid": None,
         "message": {"role": "user", "content": "Raise the sync timeout."}},
        {**base, "type": "assistant", "uuid": "a1", "parentUuid": "u1", "message": {"id": "m1", "role": "assistant",
         "content": [{"type": "tool_use", "id": "t1", "name": call, "input": call_input}]}},
        {**base, "type": "user", "uuid": "u2", "parentUuid": "a1", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": result}]}},
        {**base, "type": "assistant", "uuid": "a2", "parentUuid": "u2", "message": {"id": "m2", "role": "assistant",
         "content": [{"type": "text", "text": answer}]}},
    ]
    return list(enumerate(records, start=1))


def _judged(call: str, call_input: dict, result: object, answer: str):
    conversation = claude_code.assemble(_session(call, call_input, result, answer), "session.jsonl")
    [judged] = check_conversation(conversation, build_settings(min_digits=2))
    return judged.verdict


ECHO = f"The file /srv/app/worker.py has been updated. Here's the result of running `cat -n` on a snippet:\n{EDITED}"


@pytest.mark.parametrize("result", [ECHO, [{"type": "text", "text": ECHO}]])
def test_an_edits_echo_of_what_the_agent_typed_grounds_nothing(result):
    assert unsupported(_judged("Edit", EDIT_INPUT, result, "The timeout is now 45000 ms.")) == ["45000"]


@pytest.mark.parametrize(
    "answer",
    [
        "Changed worker.py:12; retries stay at 3.",  # the line number of the edited line, the context the file held
        "The timeout is set at /srv/app/worker.py:12.",
    ],
)
def test_an_edits_echo_still_gives_its_line_numbers_and_the_lines_the_agent_did_not_type(answer):
    assert unsupported(_judged("Edit", EDIT_INPUT, ECHO, answer)) == []


def test_a_write_of_a_whole_file_and_a_multi_edit_are_the_agents_words_too():
    typed = {"file_path": "/srv/app/worker.py", "content": "TIMEOUT_MS = 45000\nRETRIES = 3\n"}
    assert unsupported(_judged("Write", typed, ECHO, "Timeout 45000, and sync() at worker.py:15.")) == ["45000"]
    edits = {"file_path": "/srv/app/worker.py", "edits": [{"old_string": "30000", "new_string": "TIMEOUT_MS = 45000"}]}
    assert unsupported(_judged("MultiEdit", edits, ECHO, "The timeout is now 45000 ms.")) == ["45000"]


def test_a_read_of_the_same_lines_grounds_them():
    read = {"file_path": "/srv/app/worker.py"}
    assert unsupported(_judged("Read", read, EDITED, "The timeout is now 45000 ms.")) == []


_NUMBERED_115_158 = "\n".join(f"{n:6d}→    line {n}" for n in range(115, 159))


@pytest.mark.parametrize(
    ("call", "call_input", "result", "answer", "expected_unsupported"),
    [
        # grounded: the path read, both ends read as line numbers of that file (Read's numbering, grep -n)
        ("Read", {"file_path": "/srv/app/store.ts"}, _NUMBERED_115_158, "See store.ts:120-158.", []),
        ("Bash", {"command": "grep -n x store.ts"}, "store.ts:120:a\nstore.ts:158:b", "See store.ts:120-158.", []),
        ("Read", {"file_path": "/srv/app/order_sync_worker_test.go"}, _NUMBERED_115_158,
         "The test is order_sync_worker_test.go:120-158.", []),
        # refused: an end one past what was read, an end no line of the file shows, another file, a path not read
        ("Read", {"file_path": "/srv/app/store.ts"}, _NUMBERED_115_158, "See store.ts:120-159.", ["store.ts:120-159"]),
        ("Bash", {"command": "grep -n x store.ts"}, "store.ts:120:a\nstore.ts:158:b", "See store.ts:120-157.",
         ["store.ts:120-157"]),
        ("Bash", {"command": "grep -n x store.ts"}, "store.ts:120:a\nother.ts:158:b", "See store.ts:120-158.",
         ["store.ts:120-158"]),
        ("Read", {"file_path": "/srv/app/store.ts"}, _NUMBERED_115_158, "See src/store.ts:120-158.",
         ["src/store.ts:120-158"]),
    ],
)
def test_a_line_range_is_read_when_the_path_and_both_ends_were(call, call_input, result, answer,
                                                               expected_unsupported):
    verdict = _judged(call, call_input, result, answer)
    assert unsupported(verdict) == expected_unsupported
    assert [finding.via for finding in verdict.grounded_via] == ([] if expected_unsupported else ["line"])


# Code the answer authors versus output it quotes --------------------------------------------------------

TEST_RUN = "===== 12 passed in 0.84s =====\nworker_pool.py:88: ResourceWarning: unclosed socket fd=4242\n"
AUTHORED = [
    # a proposed config, a test sketch, an example payload: examples, never failing the answer
    "Set the timeout in `config.yaml`:\n\n```yaml\nsync:\n  timeout_ms: 45000\n```\n",
    "A test for it:\n\n```python\ndef test_sync():\n    assert sync(order_id=\"xyz-7891\") == 200\n```\n",
    "Send it a payload like\n\n```json\n{\"id\": \"req-20391\", \"pid\": 93021}\n```\n",
    "Raise it with `timeout = 45000` in the worker's settings.",
    "The handler expects `{\"id\": \"req-20391\"}` as its body.",
]


@pytest.mark.parametrize("answer", AUTHORED)
def test_literals_in_code_the_answer_authors_are_examples(answer):
    verdict = _judged("Bash", {"command": "pytest"}, TEST_RUN, answer)
    assert unsupported(verdict) == [] and verdict.examples


@pytest.mark.parametrize(
    ("answer", "expected_unsupported"),
    [
        # quoted output: tagged as output, presented as what a command printed, or mostly lines read
        ("```console\n===== 12 passed in 0.84s =====\nfd=4343\n```", ["4343"]),
        ("The test run printed:\n\n```\nResourceWarning: unclosed socket fd=4343\n```", ["4343"]),
        ("Here is line 88 from the log:\n\n```\nworker_pool.py:88: ResourceWarning fd=4343\n```", ["4343"]),
        ("```\n===== 12 passed in 0.84s =====\nworker_pool.py:88: ResourceWarning: unclosed socket fd=4343\n```",
         ["4343"]),
        # the prose around a block, and an inline span that is one value or a command, are judged
        ("Fixed in commit `4f2a9c1e`:\n\n```python\nTIMEOUT = 45000\n```", ["4f2a9c1e"]),
        ("Run `git checkout 4f2a9c1e` first.", ["4f2a9c1e"]),
        ("The socket is fd 4343.\n\n```python\nTIMEOUT = 45000\n```", ["4343"]),
        # an example one character off a value read looks like a typo of it: still unsupported
        ("```python\nsock = socket_for(\"worker_pool.py:89\")\n```", ["worker_pool.py:89"]),
    ],
)
def test_output_the_answer_quotes_and_the_prose_around_code_are_judged(answer, expected_unsupported):
    assert unsupported(_judged("Bash", {"command": "pytest"}, TEST_RUN, answer)) == expected_unsupported


def test_code_blocks_judge_judges_authored_code_like_prose():
    from grounding.library import Options

    answer = AUTHORED[0]
    conversation = claude_code.assemble(_session("Bash", {"command": "pytest"}, TEST_RUN, answer), "session.jsonl")
    [judged] = check_conversation(conversation, Options(code_blocks="judge").settings)
    assert unsupported(judged.verdict) == ["45000"]


RUN_ID = '{"run": "3f2a9c1e-5b7d-4c1a-9e2f-0a1b2c3d4e5f", "status": "failed"}'


@pytest.mark.parametrize(
    ("answer", "expected_unsupported", "expected_via"),
    [
        ("Run 3f2a9c1e failed.", [], ["component"]),  # a UUID cited by its first group: one of its parts
        ("Run 3F2A9C1E failed.", [], ["component"]),
        # refused: a first group no UUID read has, and (SPEC-READINGS §5.3) a prefix that ends inside the token
        ("Run 3f2a9c1f failed.", ["3f2a9c1f"], []),
        ("Run 3f2a9c1e-5b7d failed.", ["3f2a9c1e-5b7d"], []),
    ],
)
def test_a_uuid_cited_by_its_first_group(answer, expected_unsupported, expected_via):
    verdict = _judged("Bash", {"command": "runs show"}, RUN_ID, answer)
    assert unsupported(verdict) == expected_unsupported
    assert [finding.via for finding in verdict.grounded_via] == expected_via


# Placeholders and labels: examples, not claims ---------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "expected_examples"),
    [
        ("Pass the commit as <40hex>.", ["40hex"]),
        ("The fixture uses id xyz789 and abc-123.", ["abc-123", "xyz789"]),
        ("Use card 0000-1111 or 1234-5678 in tests.", ["0000-1111", "1234-5678"]),
        ("The sample row has 123e4567-e89b-12d3-a456-426614174000.", ["123e4567-e89b-12d3-a456-426614174000"]),
    ],
)
def test_placeholder_shapes_are_examples(answer, expected_examples):
    verdict = _judged("Bash", {"command": "pytest"}, TEST_RUN, answer)
    assert unsupported(verdict) == [] and sorted(f.value for f in verdict.examples) == expected_examples


@pytest.mark.parametrize(
    "answer",
    [
        "The order is <ORD-4471>.",  # an id in angle brackets is no template
        "The fixture uses id xyz788.",  # no run: 7, 8, 8
        "Use card 4471-2290.",
        "The row has 123e4567-e89b-12d3-a456-426614174001.",  # one digit off the doc example
        "Run <sha256> on fd 4343.",  # the prose around a placeholder is judged
    ],
)
def test_what_only_looks_like_a_placeholder_is_judged(answer):
    assert unsupported(_judged("Bash", {"command": "pytest"}, TEST_RUN, answer))


@pytest.mark.parametrize(
    ("answer", "expected_unsupported"),
    [
        ("Phase 1B is done; Step 2A is next.", []),  # members of a numbered series, not billions
        ("Tier 3C ships with sprint 4a.", []),
        ("Phase 1B cost 2B.", ["2000000000"]),  # a scale after a number stays a magnitude
        ("They raised 1B.", ["1000000000"]),
    ],
)
def test_a_label_in_a_numbered_series_is_no_magnitude(answer, expected_unsupported):
    assert unsupported(_judged("Bash", {"command": "pytest"}, TEST_RUN, answer)) == expected_unsupported


# Links and references built from what was read --------------------------------------------------------

REMOTE = "origin  git@github.com:acme/order-sync.git (fetch)\norigin  git@github.com:acme/order-sync.git (push)"
LOG = "4f2a9c1 Merge pull request #212 from acme/fix-timeout\n9d81e07 Bump retries"


@pytest.mark.parametrize(
    ("answer", "expected_unsupported"),
    [
        ("Merged in https://github.com/acme/order-sync/pull/212.", []),
        ("Tracked in https://github.com/acme/order-sync/issues/212", []),
        # refused: a number no item was read as, another repository, another host, a number read otherwise
        ("Merged in https://github.com/acme/order-sync/pull/213.", ["https://github.com/acme/order-sync/pull/213"]),
        ("Merged in https://github.com/acme/order-sync-v2/pull/212.",
         ["https://github.com/acme/order-sync-v2/pull/212"]),
        ("Merged in https://gitlab.com/acme/order-sync/-/merge_requests/212",
         ["https://gitlab.com/acme/order-sync/-/merge_requests/212"]),
        ("Merged in https://github.com/acme/order-sync/pull/9.", ["https://github.com/acme/order-sync/pull/9"]),
    ],
)
def test_a_pull_request_link_built_from_the_repository_and_a_number_read(answer, expected_unsupported):
    verdict = _judged("Bash", {"command": "git remote -v && git log --oneline -2"}, REMOTE + "\n" + LOG, answer)
    assert unsupported(verdict) == expected_unsupported
    assert [f.via for f in verdict.grounded_via] == ([] if expected_unsupported else ["reference"])


def test_a_link_needs_the_repository_read_too():
    answer = "Merged in https://github.com/acme/order-sync/pull/212."
    verdict = _judged("Bash", {"command": "git log --oneline -2"}, LOG, answer)
    assert unsupported(verdict) == ["https://github.com/acme/order-sync/pull/212"]


def test_the_sessions_git_branch_and_repository_are_stated_by_its_metadata():
    records = _session("Bash", {"command": "git log --oneline -2"}, LOG, "On branch fix/ORD-4471-timeout, see "
                       "https://github.com/acme/order-sync/pull/212.")
    for _, record in records:
        record["gitBranch"] = "fix/ORD-4471-timeout"
    [judged] = check_conversation(claude_code.assemble(records, "session.jsonl"), build_settings())
    assert unsupported(judged.verdict) == ["https://github.com/acme/order-sync/pull/212"]  # no repository read
    other = _session("Bash", {"command": "git log"}, LOG, "On branch fix/ORD-4472-timeout.")
    for _, record in other:
        record["gitBranch"] = "fix/ORD-4471-timeout"
    [judged] = check_conversation(claude_code.assemble(other, "session.jsonl"), build_settings())
    assert unsupported(judged.verdict) == ["fix/ord-4472-timeout"]


def test_a_codex_rollouts_git_metadata_is_stated():
    from grounding.transcripts.formats import codex_cli

    rollout = _rollout("Merged https://github.com/acme/order-sync/pull/212 on branch codex-fix-4471.", LOG)
    rollout[0]["payload"]["git"] = {"branch": "codex-fix-4471", "repository_url": "git@github.com:acme/order-sync.git",
                                    "commit_hash": "02942347cadda24d3080fbfbc2d13295bb3a496d"}
    [judged] = check_conversation(codex_cli.assemble(list(enumerate(rollout, 1)), "r.jsonl"), build_settings())
    assert unsupported(judged.verdict) == []


@pytest.mark.parametrize(
    ("result", "answer", "expected_unsupported"),
    [
        ('{"ts": 1712000000}', "Stamped at :1712000000.", []),  # a colon before a number separates it
        ("listening on :8080", "The server listens on port 8080.", []),
        ('{"port": 8080}', "It listens on :8080.", []),
        ('{"date": "2026-03-01"}', "Planned for 2026-\nQ1.", []),  # a hyphen at a line's end ends no value
        # refused: the number without its colon is still the number
        ('{"ts": 1712000000}', "Stamped at :1712000001.", ["1712000001"]),
        ('{"port": 8080}', "It listens on :8081.", ["8081"]),
    ],
)
def test_a_colon_before_a_number_and_a_hyphen_after_it_are_no_part_of_it(result, answer, expected_unsupported):
    assert unsupported(_judged("Bash", {"command": "cat"}, result, answer)) == expected_unsupported
