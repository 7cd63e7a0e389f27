"""Coding sessions (issue 48): what a coding agent's answer is judged against, and what it is not."""

from __future__ import annotations

import pytest
from conftest import unsupported

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
