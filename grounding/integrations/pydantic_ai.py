"""The evidence gate in a pydantic-ai agent: a capability (or an output validator) that judges every final
output against the tool results the run has read.

    from pydantic_ai import Agent
    from grounding.pydantic_ai import EvidenceGate

    agent = Agent("openai:gpt-5", tools=[lookup_order], capabilities=[EvidenceGate("guard")],
                  retries={"output": 1})  # guard and rails send one correction: an output retry
    result = agent.run_sync("Where is my order?")

It hooks in after pydantic-ai's own output validation (schema first, evidence second): an output that
exhausted its schema retries never reaches it. Under ``guard`` a flagged output raises
``ModelRetry(correction)``, so the model gets one more ordinary turn with its tools; the revised output
ships, flagged if it still carries an invention. Under ``rails`` a revised output that still carries one
raises UnsupportedValuesError. In a stream (``run_stream``) only the final output is judged, once; as
pydantic-ai cannot retry a streamed output, no revision is asked there: under ``guard`` a flagged streamed
output ships flagged, under ``rails`` it raises UnsupportedValuesError. (The capability knows a stream by
its streamed model request, however it is read: ``stream_text()``, ``stream_output()`` or ``get_output()``
alone; a ``run()`` with an ``event_stream_handler`` streams too, and is decided so. The ``output_validator``
form sees no request: it knows a stream only by the partial outputs ``stream_output()`` validates.) Under
``assist`` every output ships; each decision goes to ``on_verdict``,
the ``grounding.gate`` logger and OpenTelemetry. The history is read from ``ModelMessagesTypeAdapter``'s
JSON, the form ``ground check`` reads a saved pydantic-ai run in.

With ``contract=grounding.Contract(schema, retries=…)`` the output's shape is judged first (its re-ask is a
``ModelRetry`` with the contract's frame; a fallback tier's value replaces the output; nothing standing in
raises OutputSchemaError), then its values by the gate. The output retry budget must cover both.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from grounding.integrations.base import Framework

FRAMEWORK = Framework("pydantic-ai", ("pydantic_ai",), extra="pydantic-ai")

try:
    from pydantic_ai import ModelRetry, RunContext
    from pydantic_ai.capabilities import AbstractCapability
    from pydantic_ai.messages import ModelMessage, ModelMessagesTypeAdapter, ModelResponse
except ImportError as error:  # pragma: no cover - the message is the point
    raise FRAMEWORK.missing("grounding.pydantic_ai", "pydantic-ai (or pydantic-ai-slim)") from error

from grounding.contract import Contract, ContractDecision
from grounding.errors import EmptyAnswerError
from grounding.gate import Decision, Gate, Posture, not_judged
from grounding.library import Options
from grounding.session import stream
from grounding.streaming import Stream, StreamPosture

__all__ = ["EvidenceGate", "decide", "output_validator", "stream_of"]


def decide(gate: Gate, messages: Sequence[ModelMessage], output: object, *, can_revise: bool = True,
           contract: Contract | None = None) -> Decision | ContractDecision:
    """The gate's decision on output, the run's final output, given the run's messages (the response that
    carries the output, when it is the last message, is not history); with a contract, the contract's
    decision (the gate judging a schema-valid output), the response's finish reason read as its stop."""
    history, stop = list(messages), None
    if history and isinstance(history[-1], ModelResponse):
        stop = history.pop().finish_reason
    held = ModelMessagesTypeAdapter.dump_python(history, mode="json")
    if contract is not None:
        return contract.with_gate(gate).decide(held, output, format="pydantic-ai", stop_reason=stop,
                                               can_revise=can_revise)
    return gate.decide(held, output, format="pydantic-ai", can_revise=can_revise)


class _Streams:
    """The runs known to be streams (a streamed request, a partial output validated), which cannot retry
    their final output. The last few thousand are kept: a stream that never ends must not grow it."""

    def __init__(self, kept: int = 4096) -> None:
        self.kept = kept
        self.runs: OrderedDict[str, None] = OrderedDict()

    def note(self, run_id: str) -> None:
        """run_id is a stream: its final output cannot be retried."""
        self.runs[run_id] = None
        while len(self.runs) > self.kept:
            self.runs.popitem(last=False)

    def judge(self, gate: Gate, ctx: RunContext[Any], output: Any, contract: Contract | None = None) -> Any:
        """Judge a final output (a partial one is only noted), enforce the decision, and give what ships."""
        if ctx.partial_output:  # half-written: never judged; it says the run is a stream
            self.note(ctx.run_id)
            return output
        streamed = self.runs.pop(ctx.run_id, "no") is None
        try:
            decision = decide(gate, ctx.messages, output, can_revise=not streamed, contract=contract)
        except EmptyAnswerError as empty:  # an empty text output: nothing to judge, and never called grounded
            not_judged(empty, "pydantic-ai")
            return output
        return _enforce(decision, output)


def _enforce(decision: Decision | ContractDecision, output: Any) -> Any:
    if decision.action in ("revision-asked", "retry"):
        raise ModelRetry(decision.message or "")
    if isinstance(decision, ContractDecision):
        decision.raise_if_failed()
        return decision.shipped(output)
    decision.raise_if_refused()
    return output


@dataclass
class EvidenceGate(AbstractCapability[Any]):
    """A pydantic-ai capability: the gate under posture (``assist``, ``guard`` or ``rails``) on every final
    output. guard and rails need an output retry budget of at least 1."""

    posture: Posture = "guard"
    options: Options | None = None
    on_verdict: Callable[[Decision], None] | None = None
    contract: Contract | None = None  # the output's shape, judged before its values

    def __post_init__(self) -> None:
        self._gate = Gate(self.posture, self.options, self.on_verdict)
        self._streams = _Streams()

    async def before_model_request(self, ctx: RunContext[Any], request_context: Any) -> Any:
        """A streamed request says the run is a stream before any partial output does: stream_text() and a
        bare get_output() validate none, and pydantic-ai cannot retry a stream's final output. (A run() with
        an event_stream_handler streams too, and is decided as one: without a revision.)"""
        if getattr(request_context, "streaming", False):
            self._streams.note(ctx.run_id)
        return request_context

    async def after_output_process(self, ctx: RunContext[Any], *, output_context: Any, output: Any) -> Any:
        return await asyncio.to_thread(self._streams.judge, self._gate, ctx, output, self.contract)  # off the loop


def output_validator(posture: Posture = "guard", options: Options | None = None,
                     on_verdict: Callable[[Decision], None] | None = None, contract: Contract | None = None,
                     ) -> Callable[[RunContext[Any], Any], Awaitable[Any]]:
    """The same gate as an output validator, for ``agent.output_validator(output_validator("guard"))``."""
    gate = Gate(posture, options, on_verdict)
    streams = _Streams()

    async def validate(ctx: RunContext[Any], output: Any) -> Any:
        return await asyncio.to_thread(streams.judge, gate, ctx, output, contract)

    return validate


def stream_of(result: Any, posture: StreamPosture = "guard", *, options: Options | None = None,
              can_revise: bool = True, on_verdict: Callable[[Decision], None] | None = None) -> Stream:
    """A Stream (grounding.streaming) for the final answer a ``run_stream`` result is streaming: the run's
    messages so far are its history (a response already in them, the one streaming, left out). Feed it the
    text deltas (``grounding.areleased(stream, result.stream_text(delta=True, debounce_by=None))``, or
    ``stream_output()``'s growing text through ``grounding.streaming.text_deltas``); a structured output is
    held whole and judged at the end."""
    history = list(result.all_messages())
    if history and isinstance(history[-1], ModelResponse):
        history.pop()
    held = ModelMessagesTypeAdapter.dump_python(history, mode="json")
    return stream(held, posture, options=options, format="pydantic-ai", can_revise=can_revise,
                  on_verdict=on_verdict)
