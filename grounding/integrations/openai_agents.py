"""The evidence gate in an OpenAI Agents SDK run.

    from agents import Agent
    from grounding.openai_agents import run_guarded

    agent = Agent(name="support", instructions="You help with orders.", tools=[lookup_order])
    guarded = await run_guarded(agent, "Where is my order?", posture="guard")
    print(guarded.final_output, guarded.decision.action)

The SDK has no in-loop retry of a final output, so ``run_guarded`` (and ``run_guarded_sync``) makes the
revision a second run: the first run's input list, its answer, and the correction as the next user turn,
the tools still on the agent. ``guard`` returns the revised run (its decision says whether it is still
flagged); ``rails`` raises UnsupportedValuesError when the revision still carries an invention.

For a plain ``Runner.run``, ``EvidenceCheck`` gives the pieces: ``hooks`` (RunHooks that capture each model
call's system prompt and input items: the evidence the final answer is judged against) and
``guardrail`` (an output guardrail; under ``assist`` and ``guard`` it never trips, under ``rails``, where a
plain run has no revision to give, a flagged answer trips it). The guardrail runs after the SDK has
parsed the output type (schema first, evidence second).

With ``contract=grounding.Contract(schema, retries=…)`` the final output's shape is judged first: in
``run_guarded`` a re-ask is one more run with the contract's frame as the next user turn, a fallback tier's
value is the guarded run's ``final_output``, and nothing standing in raises OutputSchemaError; the
guardrail trips when nothing met the contract (a plain run has no re-ask to give).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from grounding.integrations.base import Framework

FRAMEWORK = Framework("OpenAI Agents SDK", ("agents",), extra="openai-agents")

try:
    from agents import Agent, GuardrailFunctionOutput, OutputGuardrail, RunContextWrapper, RunHooks, Runner
    from agents.result import RunResult
except ImportError as error:  # pragma: no cover - the message is the point
    raise FRAMEWORK.missing("grounding.openai_agents", "the OpenAI Agents SDK") from error

from grounding.contract import Contract, ContractDecision
from grounding.errors import EmptyAnswerError
from grounding.gate import Decision, Gate, Posture, not_judged
from grounding.library import Options
from grounding.session import stream
from grounding.streaming import Stream, StreamPosture

__all__ = ["EvidenceCheck", "GuardedRun", "StreamCheck", "run_guarded", "run_guarded_sync"]

log = logging.getLogger("grounding.openai_agents")


class _CaptureInput(RunHooks[Any]):
    """Each model call's system prompt and input items, by run (its context wrapper), for the guardrail; the
    app's own RunHooks (inner), when given, see every event too.

    A run's entry goes when the guardrail reads it, or when the run's context is gone: a run that ends
    early (max_turns, an error) leaves nothing behind."""

    def __init__(self, inner: RunHooks[Any] | None = None) -> None:
        self.inner = inner
        self.inputs: dict[int, tuple[weakref.ref, str | None, list]] = {}

    def take(self, context: RunContextWrapper[Any]) -> tuple[str | None, list] | None:
        """The run's last model call's system prompt and input, or None when nothing was captured."""
        entry = self.inputs.pop(id(context), None)
        if entry is None or entry[0]() is not context:
            return None
        return entry[1], entry[2]

    async def on_llm_start(self, context: RunContextWrapper[Any], agent: Agent[Any], system_prompt: str | None,
                           input_items: list) -> None:
        for key in [key for key, entry in self.inputs.items() if entry[0]() is None]:
            del self.inputs[key]  # the runs that ended without reaching the guardrail
        self.inputs[id(context)] = (weakref.ref(context), system_prompt, list(input_items))
        if self.inner is not None:
            await self.inner.on_llm_start(context, agent, system_prompt, input_items)

    async def on_llm_end(self, context: Any, agent: Any, response: Any) -> None:
        if self.inner is not None:
            await self.inner.on_llm_end(context, agent, response)

    async def on_agent_start(self, context: Any, agent: Any) -> None:
        if self.inner is not None:
            await self.inner.on_agent_start(context, agent)

    async def on_agent_end(self, context: Any, agent: Any, output: Any) -> None:
        if self.inner is not None:
            await self.inner.on_agent_end(context, agent, output)

    async def on_handoff(self, context: Any, from_agent: Any, to_agent: Any) -> None:
        if self.inner is not None:
            await self.inner.on_handoff(context, from_agent, to_agent)

    async def on_tool_start(self, context: Any, agent: Any, tool: Any) -> None:
        if self.inner is not None:
            await self.inner.on_tool_start(context, agent, tool)

    async def on_tool_end(self, context: Any, agent: Any, tool: Any, result: object) -> None:
        if self.inner is not None:
            await self.inner.on_tool_end(context, agent, tool, result)


class EvidenceCheck:
    """The gate for ``Runner.run``: pass ``hooks`` to the run and add ``guardrail`` to the agent's
    ``output_guardrails``. Each run's decision is handed to on_verdict. hooks= takes the app's own RunHooks:
    ``hooks`` then calls them on every event, so one object goes to Runner.run.

    A run given the guardrail but not ``hooks`` has captured nothing to judge against: the guardrail logs a
    warning and gives no decision (output_info None, never tripped), rather than judge an empty history."""

    def __init__(self, posture: Posture = "assist", options: Options | None = None,
                 on_verdict: Callable[[Decision], None] | None = None, hooks: RunHooks[Any] | None = None,
                 contract: Contract | None = None) -> None:
        self.gate = Gate(posture, options, on_verdict)
        self.contract = contract
        self.hooks = _CaptureInput(hooks)
        self.guardrail = OutputGuardrail(guardrail_function=self._check, name="ground.evidence")

    async def _check(self, context: RunContextWrapper[Any], agent: Agent[Any], output: Any) -> GuardrailFunctionOutput:
        captured = self.hooks.take(context)
        if captured is None:
            log.warning("EvidenceCheck: nothing captured for this run (pass hooks=check.hooks to Runner.run): "
                        "no decision on its output")
            return GuardrailFunctionOutput(output_info=None, tripwire_triggered=False)
        system_prompt, input_items = captured
        try:
            decision = await asyncio.to_thread(decide, self.gate, system_prompt, input_items, output,
                                               self.contract)  # off the event loop
        except EmptyAnswerError as empty:  # an empty final output: nothing to judge, never called grounded
            not_judged(empty, "EvidenceCheck")
            return GuardrailFunctionOutput(output_info=None, tripwire_triggered=False)
        tripped = decision.action in ("retry", "failed") or (
            self.gate.posture == "rails" and decision.action in ("revision-asked", "refused"))
        return GuardrailFunctionOutput(output_info=decision, tripwire_triggered=tripped)


def decide(gate: Gate, system_prompt: str | None, input_items: list, output: Any,
           contract: Contract | None = None) -> Decision | ContractDecision:
    """The gate's decision on output, given the system prompt and the input items of the model call that
    wrote it (OpenAI Responses items, as the SDK sends them); with a contract, the contract's decision."""
    history = {"instructions": system_prompt, "input": list(input_items)}
    if contract is not None:
        return contract.with_gate(gate).decide(history, output, format="openai-responses")
    return gate.decide(history, output, format="openai-responses")


@dataclass(frozen=True)
class GuardedRun:
    """A guarded run: the SDK's RunResult that is returned (the revision's, when one was asked), and every
    decision the gate made on the way (the last is the shipped answer's)."""

    result: RunResult
    decisions: tuple[Decision | ContractDecision, ...]

    @property
    def decision(self) -> Decision | ContractDecision:
        return self.decisions[-1]

    @property
    def final_output(self) -> Any:
        """The run's final output, or, under a contract, a fallback tier's value in its place."""
        last = self.decisions[-1]
        if isinstance(last, ContractDecision):
            return last.shipped(self.result.final_output)
        return self.result.final_output

    def to_input_list(self) -> list:
        return self.result.to_input_list()


async def run_guarded(agent: Agent[Any], input: str | list, *, posture: Posture = "guard",  # noqa: A002
                      options: Options | None = None, on_verdict: Callable[[Decision], None] | None = None,
                      contract: Contract | None = None, **run_kwargs: Any) -> GuardedRun:
    """``Runner.run(agent, input)``, gated: a flagged answer under guard or rails gets its one revision as a
    second run with the correction; rails raises UnsupportedValuesError when the revision still carries an
    invention. With a contract, each re-ask of the shape is a run too, and nothing standing in raises
    OutputSchemaError. run_kwargs go to Runner.run (context, max_turns, run_config, …; not hooks)."""
    gate = Gate(posture, options, on_verdict)
    capture = _CaptureInput()
    decisions: list[Decision | ContractDecision] = []
    result = await Runner.run(agent, input, hooks=capture, **run_kwargs)
    while True:
        system_prompt, input_items = _last_input(capture)
        decisions.append(await asyncio.to_thread(decide, gate, system_prompt, input_items, result.final_output,
                                                 contract))
        if decisions[-1].action not in ("revision-asked", "retry"):
            break
        again: list[Any] = [*result.to_input_list(), {"role": "user", "content": decisions[-1].message}]
        result = await Runner.run(result.last_agent, again, hooks=capture, **run_kwargs)
    last = decisions[-1]
    if isinstance(last, ContractDecision):
        last.raise_if_failed()
    else:
        last.raise_if_refused()
    return GuardedRun(result, tuple(decisions))


def run_guarded_sync(agent: Agent[Any], input: str | list, **kwargs: Any) -> GuardedRun:  # noqa: A002
    """run_guarded, for code that is not async (as ``Runner.run_sync``)."""
    return asyncio.run(run_guarded(agent, input, **kwargs))


def _last_input(capture: _CaptureInput) -> tuple[str | None, list]:
    """The system prompt and input of the model call that wrote the run's final output (the latest)."""
    if not capture.inputs:
        return None, []
    _, system_prompt, input_items = capture.inputs.pop(next(reversed(capture.inputs)))
    return system_prompt, input_items


class StreamCheck:
    """The text to show of a ``Runner.run_streamed`` run, each model response's text judged as it streams
    (grounding.streaming)::

        result = Runner.run_streamed(agent, "Where is my order?")
        check = StreamCheck(result, "guard")
        async for text in check:
            print(text, end="")
        if check.decision.action == "revision-asked":  # the run was cancelled at the invented value
            ...  # run again: result.to_input_list() + the correction (check.decision.message) as the user turn

    Each response that writes text gets a Stream whose history is the run's items so far (the agent's
    instructions when they are a string beside them), fed its ``response.output_text.delta`` events. When a
    stream stops, the run is cancelled (``result.cancel()``): nothing after the invented value is shown.
    ``streams`` holds every response's Stream; ``decision`` is the last one's.
    """

    def __init__(self, result: Any, posture: StreamPosture = "guard", *, options: Options | None = None,
                 can_revise: bool = True, on_verdict: Callable[[Decision], None] | None = None) -> None:
        self.result = result
        self.posture = posture
        self._options, self._can_revise, self._on_verdict = options, can_revise, on_verdict
        self.streams: list[Stream] = []

    @property
    def decision(self) -> Decision | None:
        """The gate's decision on the last response that wrote text (None before it finished)."""
        return self.streams[-1].decision if self.streams else None

    async def __aiter__(self) -> AsyncIterator[str]:
        current: Stream | None = None
        async for event in self.result.stream_events():
            kind = getattr(getattr(event, "data", None), "type", None) if event.type == "raw_response_event" else None
            if kind == "response.output_text.delta":
                if current is None:
                    current = self._stream()
                release = current.feed(event.data.delta)
                if release.text:
                    yield release.text
                if release.stopped:
                    self.result.cancel()
                    break
            elif kind == "response.completed" and current is not None:
                text = current.finish()[0].text
                current = None
                if text:
                    yield text
        if current is not None and current.decision is None:
            text = current.finish()[0].text
            if text:
                yield text

    def _stream(self) -> Stream:
        """A Stream for the response starting to write: the run's items so far are its history."""
        instructions = getattr(self.result.current_agent, "instructions", None)
        started = stream(list(self.result.to_input_list()), self.posture, options=self._options,
                         format="openai-responses", can_revise=self._can_revise, on_verdict=self._on_verdict,
                         instructions=instructions if isinstance(instructions, str) else None)
        self.streams.append(started)
        return started
