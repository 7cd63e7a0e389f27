"""Readers: one module per transcript format, each lowering a record to the neutral model.

Detection is per record, in ``DETECTION_ORDER``: the formats with the most
specific markers first, OpenAI Chat Completions (the lingua franca) last.
"""

from __future__ import annotations

from collections.abc import Callable

from grounding.errors import NotATranscript, RecordError
from grounding.model import Conversation
from grounding.transcripts.formats import (
    anthropic,
    bedrock,
    cline,
    gemini,
    gemini_cli,
    haystack,
    inspect_ai,
    known_logs,
    langchain,
    llamaindex,
    mlflow,
    openai,
    openhands,
    openai_responses,
    pydantic_ai,
    unrecognised,
)
from grounding.transcripts.formats.common import RESPONSE_ALONE

Reader = Callable[[object, str, int], Conversation]

_MODULES = {
    "mlflow": mlflow,  # {"info": …, "data": {"spans": […]}}
    "inspect-ai": inspect_ai,  # {eval, samples: [one sample]}: the files reader splits a log by sample
    "openhands": openhands,  # a list of events with source and action / observation
    "gemini-cli": gemini_cli,  # {sessionId, projectHash, messages: [{type: user|gemini, toolCalls}]}
    "cline": cline,  # Anthropic blocks with tools written as XML, results as "[tool] Result:" user text
    "langchain": langchain,  # {"type": "human", "data": …} or dumpd constructors
    "pydantic-ai": pydantic_ai,  # [{"kind": "request", "parts": […]}, …]
    "gemini": gemini,  # contents[].parts
    "bedrock-converse": bedrock,  # single-key content blocks: toolUse, toolResult
    "anthropic": anthropic,  # top-level system, tool_use / tool_result blocks
    "openai-responses": openai_responses,  # function_call / function_call_output items
    "llamaindex": llamaindex,  # ChatMessage: role with blocks[] / additional_kwargs
    "haystack": haystack,  # ChatMessage.to_dict(): content parts keyed by their kind
    "openai": openai,  # {"messages": [{"role": …}]} or a bare messages array
}
READERS: dict[str, Reader] = {name: module.read for name, module in _MODULES.items()}
DETECTION_ORDER = tuple(_MODULES)
_RECOGNISERS = {name: module.recognises for name, module in _MODULES.items()}
# The formats an agent loop holds its history in, and which of their messages starts a turn: a Session reads
# a history again from its current turn's start (grounding.session)
TURN_STARTS: dict[str, Callable[[dict], bool]] = {
    name: module.starts_turn for name, module in _MODULES.items() if hasattr(module, "starts_turn")}
ALIASES = {"roo-code": "cline", "openai-chat": "openai", "bedrock": "bedrock-converse", "responses": "openai-responses",
           "otel": "otel-genai", "otel-genai-attributes": "otel-genai", "claude": "claude-code",
           "codex": "codex-cli"}
# Formats whose conversations span several records; the assembler groups them.
GROUPED_FORMATS = ("claude-code", "codex-cli", "otel-genai", "openinference", "otel-genai-events", "openai-agents",
                   "langsmith", "langfuse")
FORMAT_NAMES = (*GROUPED_FORMATS, *DETECTION_ORDER)  # the order records are tried in


def resolve_format(name: str) -> str:
    """The reader name for a user-given format name or alias; an unknown name is an OptionError."""
    canonical = ALIASES.get(name, name)
    if canonical not in READERS and canonical not in GROUPED_FORMATS:
        from grounding.errors import OptionError

        raise OptionError(f"--input-format: unknown format {name!r}; choose one of {', '.join(FORMAT_NAMES)}")
    return canonical


def read_record(record: object, source: str, line: int, input_format: str | None = None) -> Conversation:
    """Lower one record, parsed exactly (transcripts.records), to a Conversation, detecting its format unless
    one is forced. (Checking every record's numbers before it is read costs 40 ms on the 50 MB benchmark
    corpus, under 2%: readers are plain functions of an exact record.)"""
    if input_format is not None:
        name = ALIASES.get(input_format, input_format)
    else:
        for name in DETECTION_ORDER:  # the first that recognises it
            if _RECOGNISERS[name](record):
                break
        else:
            reason = _unrecognised(record)  # names keys and the record's type: no number
            raise RecordError(reason) if reason is RESPONSE_ALONE else NotATranscript(reason)
    return READERS[name](record, source, line)


def _unrecognised(record: object) -> str:
    """Why no reader took a record."""
    if isinstance(record, dict) and (record.get("object") == "chat.completion" or "choices" in record
                                     or "candidates" in record
                                     or (record.get("type") == "message" and record.get("role") == "assistant")
                                     or isinstance(record.get("output"), dict)):
        return RESPONSE_ALONE
    known = known_logs.named(record)
    if known is not None:
        return f"not a conversation in a known format: {known}"
    return unrecognised.reason(record, FORMAT_DESCRIPTIONS)


__all__ = ["ALIASES", "DETECTION_ORDER", "FORMAT_NAMES", "READERS", "TURN_STARTS", "RecordError", "read_record", "resolve_format"]


FORMAT_DESCRIPTIONS = {
    "claude-code": "Claude Code session JSONL: records with type and sessionId, grouped by session per file",
    "codex-cli": "Codex CLI rollouts: {timestamp, type, payload} lines (Responses items), one session per file",
    "langchain": "LangChain messages_to_dict items ({type, data}) or dumpd constructors ({lc: 1, ...})",
    "pydantic-ai": "pydantic-ai history: [{kind: request|response, parts: [{part_kind}]}]",
    "gemini": "Gemini generateContent: contents[].parts with functionCall / functionResponse",
    "bedrock-converse": "Bedrock Converse: single-key content blocks (text, toolUse, toolResult)",
    "anthropic": "Anthropic Messages: top-level system, tool_use / tool_result blocks",
    "openai-responses": "OpenAI Responses: instructions, input/output items, function_call_output",
    "openai": "OpenAI Chat Completions: {messages: [{role, ...}]} or a bare messages array",
    "otel-genai": "OTLP JSON spans with gen_ai.input.messages / gen_ai.output.messages, grouped by trace",
    "openinference": "OTLP JSON spans with llm.input_messages.N.* attributes (OpenInference), grouped by trace",
    "otel-genai-events": "OTLP JSON log records gen_ai.*.message / gen_ai.choice (conventions <= 1.36), by trace",
    "openai-agents": "OpenAI Agents SDK spans {object: trace.span, span_data}, grouped by trace",
    "langsmith": "LangSmith runs (run_type, dotted_order), grouped by trace",
    "langfuse": "Langfuse observations (GENERATION, TOOL, ... with traceId), grouped by trace",
    "mlflow": "MLflow traces {info, data: {spans}} with mlflow.spanInputs / mlflow.spanOutputs",
    "inspect-ai": "Inspect AI evaluation logs (.json, or .eval zip archives): each sample's messages",
    "openhands": "OpenHands trajectories: a list of events, actions (args) and observations (content, cause)",
    "gemini-cli": "Gemini CLI session files: {sessionId, projectHash, messages: [{type, content, toolCalls}]}",
    "cline": "Cline / Roo Code api_conversation_history.json: tools as XML, results as '[tool] Result:' text",
    "llamaindex": "LlamaIndex ChatMessage lists: role with blocks[].block_type and additional_kwargs",
    "haystack": "Haystack ChatMessage.to_dict() lists: content parts keyed text, tool_call, tool_call_result",
}
