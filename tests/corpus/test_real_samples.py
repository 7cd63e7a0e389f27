"""Every real public sample in shared/corpus/formats/real is read without a crash, and its verdicts
are pinned. Each was read by hand when it was pinned: see the comments."""

import pytest
from conftest import SHARED, needs_shared

from grounding.core.settings import Settings
from grounding.model import Problem, Summary
from grounding.run.runner import judge_inputs

REAL = SHARED / "corpus" / "formats" / "real"
pytestmark = needs_shared

# file → (answers, flagged, unsupported values, errors, skipped)
EXPECTED = {
    # Requests: the conversations the model read. Responses alone hold only the reply and are
    # reported as such (an error naming why), never judged without their evidence.
    "anthropic/test_anthropic_tool_with_thinking.request.json": (0, 0, 0, 0, 0),
    "anthropic/test_anthropic_tool_with_thinking.response.json": (0, 0, 0, 1, 0),
    "anthropic/test_multiple_parallel_tool_calls.request.json": (0, 0, 0, 0, 0),
    "anthropic/test_multiple_parallel_tool_calls.response.json": (0, 0, 0, 1, 0),
    "bedrock-converse/test_bedrock_model_retry.request.json": (0, 0, 0, 0, 0),
    "bedrock-converse/test_bedrock_model_retry.response.json": (0, 0, 0, 1, 0),
    "bedrock-converse/test_bedrock_moonshotai_tool_call.request.json": (0, 0, 0, 0, 0),
    "bedrock-converse/test_bedrock_moonshotai_tool_call.response.json": (0, 0, 0, 1, 0),
    # A compaction sub-agent summarises a session whose tool results are in the parent session's file:
    # its first message follows a record of that file, so its answer is unjudgeable here, not flagged.
    "claude-code/258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-acompact-fffbd0.jsonl": (1, 0, 0, 0, 0),
    # A research sub-agent: four release dates read from fetched pages (via prose-date); "0.1.x" ("still in
    # early development (0.1.x)") names the series of the 0.1.3 a page gave, grounded by it since §9.26
    # (flagged before: 1 answer, 1 value).
    "claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl": (1, 0, 0, 0, 12),
    "claude-code/short.jsonl": (0, 0, 0, 0, 6),  # tool calls rejected by the user, no final answer
    "claude-code/subagent.jsonl": (1, 0, 0, 0, 48),  # progress records repeat the sub-agent: skipped
    "claude-code/tool_heavy.jsonl": (0, 0, 0, 0, 17),  # ends "[Request interrupted by user]"
    "gemini/test_google_instructions_only_with_tool_calls.request.json": (0, 0, 0, 0, 0),
    "gemini/test_google_instructions_only_with_tool_calls.response.json": (0, 0, 0, 1, 0),
    "gemini/test_google_model_retry.request.json": (0, 0, 0, 0, 0),
    "gemini/test_google_model_retry.response.json": (0, 0, 0, 1, 0),
    "openai-chat/test_multiple_agent_tool_calls.request.json": (1, 0, 0, 0, 0),
    "openai-chat/test_multiple_agent_tool_calls.response.json": (0, 0, 0, 1, 0),
    "openai-chat/test_openai_instructions_with_tool_calls_keep_instructions.request.json": (0, 0, 0, 0, 0),
    "openai-chat/test_openai_instructions_with_tool_calls_keep_instructions.response.json": (0, 0, 0, 1, 0),
    "openai-responses/test_openai_responses_model_simple_response_with_tool_call.request.json": (0, 0, 0, 0, 0),
    "openai-responses/test_openai_responses_model_simple_response_with_tool_call.response.json": (0, 0, 0, 1, 0),
    "openai-responses/test_openai_responses_phase_live.request.json": (0, 0, 0, 0, 0),
    "openai-responses/test_openai_responses_phase_live.response.json": (0, 0, 0, 1, 0),
    "pydantic-ai/test_messages.tool_return_content_with_url_field.json": (0, 0, 0, 0, 0),
    # a codex exec session whose recording stops after the third tool output: no final answer to judge;
    # its turn_context and event records other than the user's message are skipped, not read twice
    "codex-cli/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl": (0, 0, 0, 0, 11),
    # Inspect AI logs, one conversation per sample: "71 + 31 = 102" and "The sum of 91 and 13 is 104." (each
    # sum read from the take_sum tool) and "1 + 1 = 2 ..." (no tool) state no value long enough to look up
    "inspect-ai/2025-04-07T11-00-30-05-00_arithmetic-with-tool_gKECTBvzvzgtPqQCd3cirF.json": (2, 0, 0, 0, 0),
    "inspect-ai/2025-11-07T10-59-47-05-00_websearch-addition-problem_LqPDntDnkk4h2fSqQ8i6CE.eval": (1, 0, 0, 0, 0),
    # OpenHands: the todo app "served on port 8000 ... http://localhost:8000" (the server printed
    # http://0.0.0.0:8000/); the renamed file, read back in /workspace's listing
    "openhands/basic_gui_mode.json": (1, 0, 0, 0, 0),
    "openhands/wrong_initial_state.json": (1, 0, 0, 0, 0),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_sample(name):
    summary = Summary()
    events = list(judge_inputs([str(REAL / name)], Settings(), summary))
    problems = [e for e in events if isinstance(e, Problem)]
    assert len(problems) == summary.errors
    got = (summary.answers, summary.flagged, summary.unsupported, summary.errors, summary.skipped)
    assert got == EXPECTED[name]


def test_every_real_sample_is_pinned_or_a_documented_non_transcript():
    found = {str(p.relative_to(REAL)) for p in [*REAL.rglob("*.json*"), *REAL.rglob("*.eval")]}
    unread = {name for name in found - set(EXPECTED)
              if not name.startswith("otel-genai/")}  # spec examples
    assert unread == set()
