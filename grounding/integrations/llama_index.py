"""LlamaIndex: a FunctionAgent's run read as held, and the gate on each of its final answers.

An agent's memory (``await (await ctx.store.get("memory")).aget_all()``) holds ``ChatMessage``s: pydantic
models, read as their dump (format llamaindex, ``ToolCallBlock`` turns as calls). A run's event stream
(``handler.stream_events()``) holds ``ToolCallResult`` events: each is its call and its result. A
``ToolCall`` or a streamed delta is already in the result or the message after it; any other event is a
RecordError naming it. The reading is duck-typed (LlamaIndex is never imported for it); the adapter,
``evidence_checked``, imports it.

    verdict = grounding.check_answer(memory[:-1], await handler)

and, in the loop, the gate on each final answer: ``evidence_checked(FunctionAgent, grounding.Gate("guard"))``.
"""

from __future__ import annotations

import logging
from typing import Any

from grounding.errors import EmptyAnswerError, RecordError
from grounding.integrations.base import Framework

FRAMEWORK = Framework("LlamaIndex", ("llama_index",), extra="llama-index")
_EVENTS = ("llama_index.core.agent",)  # where the agent workflow's events are defined
_ALREADY_READ = frozenset({"ToolCall", "AgentStream"})
log = logging.getLogger("grounding.llama_index")


def is_event(value: object) -> bool:
    return (type(value).__module__ or "").startswith(_EVENTS)


def history_messages(history: list, first: int = 0) -> list:
    """history with each ToolCallResult event as its call and its result (ChatMessage dumps, LlamaIndex's own
    form); first: the index of history's first element in the whole history, for the error naming one."""
    read: list = []
    for at, event in enumerate(history, first):
        kind = type(event).__name__
        if not is_event(event):
            read.append(event)
        elif kind == "ToolCallResult":
            call = {"block_type": "tool_call", "tool_call_id": event.tool_id, "tool_name": event.tool_name,
                    "tool_kwargs": event.tool_kwargs}
            output = getattr(event.tool_output, "content", event.tool_output)
            read += [{"role": "assistant", "blocks": [call], "additional_kwargs": {}},
                     {"role": "tool", "blocks": [{"block_type": "text", "text": str(output)}],
                      "additional_kwargs": {"tool_call_id": event.tool_id, "name": event.tool_name}}]
        elif kind not in _ALREADY_READ:
            raise RecordError(f"messages[{at}] is a LlamaIndex {kind}, which ground cannot read as a message: pass "
                              "the agent's memory (its ChatMessages), or the ToolCallResult events")
    return read


def evidence_checked(agent_class: type, gate: Any) -> type:  # noqa: ANN401 (a grounding.Gate)
    """agent_class (LlamaIndex's FunctionAgent, or a subclass) with the gate (a grounding.Gate) on each
    step's final answer: a step that calls no tool is judged against what the model was sent and the step's
    own messages. A grounded answer ends the run. Under ``guard`` and ``rails`` a flagged one is sent back
    with the gate's correction (the step's ``retry_messages``, LlamaIndex's own re-ask), its tools still on
    offer; the latch reads the correction back (one revision a run). After it, ``guard`` ends the run with
    the answer flagged and ``rails`` raises UnsupportedValuesError out of it. ``assist`` records and ends.
    An answer with no text ends the run undecided (logged).

        agent = evidence_checked(FunctionAgent, grounding.Gate("guard"))(tools=[...], llm=llm)
    """
    from llama_index.core.llms import ChatMessage

    class EvidenceChecked(agent_class):  # type: ignore[misc, valid-type] (a class given at run time)
        async def take_step(self, ctx: Any, llm_input: list, tools: Any, memory: Any) -> Any:  # noqa: ANN401
            output = await super().take_step(ctx, llm_input, tools, memory)
            if output.tool_calls:
                return output
            scratchpad = await ctx.store.get(self.scratchpad_key, default=[])
            try:  # the scratchpad ends with the answer itself
                decision = gate.decide([*llm_input, *scratchpad[:-1]], output.response)
            except EmptyAnswerError as error:
                log.warning("LlamaIndex agent answer not judged: %s", error)
                return output
            if decision.action == "revision-asked":
                output.retry_messages = [output.response, ChatMessage(role="user", content=decision.message)]
            decision.raise_if_refused()
            return output

    EvidenceChecked.__name__ = EvidenceChecked.__qualname__ = f"EvidenceChecked{agent_class.__name__}"
    return EvidenceChecked
