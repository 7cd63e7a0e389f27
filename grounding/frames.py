"""Corrections a framework writes into a conversation (SPEC §2): neither exempt nor evidence.

They quote the model's own values back to it: read as the user's words they would exempt an invention,
read as a tool's result they would ground it. A frame is recognised by a marker at the start of a line (a
framework may put its own text before it, or wrap it in a retry template), in whatever role it is sent:

- this project's gate: ``[evidence check`` and ``[schema check``;
- pydantic-ai's retry prompts: ``Validation feedback:`` and the closing ``Fix the errors and try again.``;
- CrewAI's guardrail retry: ``Previous attempt failed validation`` (under a ``###`` heading);
- smolagents' final-answer checks: ``Check NAME failed with error:``;
- LangChain's structured-output retry: ``Please fix your mistakes.``;
- Google ADK's recap of another agent's turn: a ``For context:`` line with ``[agent] said:`` lines after it.

Each marker is a whole phrase at a line start, so a user who writes "for context, my order is …" is not a
framework. A tool result is tested only when short: a framework's retry text is a few lines of errors, and
a long result is data.
"""

from __future__ import annotations

import re

# the retry texts that put their own words before what they quote, on the same line (CrewAI, smolagents)
_WRAPPERS = r"Previous attempt failed validation|Check [\w.]+ failed with error:"
_MARKERS = re.compile(
    r"^[ \t>*#]*(?:\[evidence check|\[schema check|Validation feedback:|Fix the errors and try again\."
    rf"|{_WRAPPERS}|Please fix your mistakes\.)",
    re.MULTILINE,
)
_RECAP = re.compile(
    r"^For context:[ \t]*\n(?:.*\n)*?\[[^\]\n]+\] (?:said:|called tool `|`[^`\n]+` tool returned result:)", re.MULTILINE)
# Each marker holds one of these: a text with none of them (nearly every text) is told at C speed, where
# the line-anchored patterns would read every user text, system prompt and short tool result. Measured:
# without it a run of the 50 MB benchmark corpus costs 5% more CPU (1.45 -> 1.53 s, best of 10); a property
# test (tests/equivalence) holds it to the patterns.
_NEEDLES = ("[evidence check", "[schema check", "Validation feedback:", "Fix the errors and try again.",
            "attempt failed validation", " failed with error:", "Please fix your mistakes.", "For context:")
# What the gate's correction starts with (grounding.gate): a reader or a test recognises the frame by it.
EVIDENCE_CHECK_FRAME_PREFIX = "[evidence check]"
# The gate's frame at a line start, or after the marker of a framework that wraps it on the same line
# (CrewAI's guardrail retry, smolagents' check error, and Claude Code's stop-hook feedback, which writes
# "[<hook command>]: " before the hook's reason): either way it is the gate's correction, and the revision
# latch counts it.
_EVIDENCE_CHECK = re.compile(rf"^[ \t>*#]*(?:(?:{_WRAPPERS}|\[[^\]\n]+\]):?[ \t]*)?\[evidence check", re.MULTILINE)
_SCHEMA_CHECK = re.compile(r"^[ \t>*#]*\[schema check", re.MULTILINE)
# A tool result longer than this is data, not a framework's retry text.
LONGEST_FRAME_IN_A_RESULT = 8192


def is_framework_frame(text: str) -> bool:
    """True for text a framework wrote to correct the model (any role).

    >>> is_framework_frame("Validation feedback:\\n[{'loc': ['order_id']}]\\n\\nFix the errors and try again.")
    True
    >>> is_framework_frame("### Previous attempt failed validation: id ORD-1 is not real")
    True
    >>> is_framework_frame("For context: my order is ORD-55120, and it is late.")
    False
    """
    for needle in _NEEDLES:
        if needle in text:
            return _MARKERS.search(text) is not None or ("For context:" in text and _RECAP.search(text) is not None)
    return False


def is_framework_result(text: str) -> bool:
    """True for a short tool result that is a framework's retry text (pydantic-ai sends its tool retries so)."""
    return len(text) <= LONGEST_FRAME_IN_A_RESULT and is_framework_frame(text)


def is_evidence_check(text: str) -> bool:
    """True for text holding the gate's correction frame, as sent or wrapped by a framework's retry.

    >>> is_evidence_check("Check grounded failed with error: [evidence check] Your answer states values")
    True
    >>> is_evidence_check("Stop hook feedback:\\n[ground hook claude-code]: [evidence check] Your answer states")
    True
    >>> is_evidence_check("I ran an [evidence check] myself.")
    False
    """
    return _EVIDENCE_CHECK.search(text) is not None


def is_schema_check(text: str) -> bool:
    return _SCHEMA_CHECK.search(text) is not None
