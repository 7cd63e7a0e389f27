"""The evidence gate in a LangChain v1 agent (``create_agent``), or in a hand-built LangGraph graph.

    from langchain.agents import create_agent
    from grounding.langchain import EvidenceGate

    agent = create_agent("openai:gpt-5", tools=[lookup_order], system_prompt="You help with orders.",
                         middleware=[EvidenceGate("guard")])
    result = agent.invoke({"messages": [{"role": "user", "content": "Where is my order?"}]})

``EvidenceGate`` is an ``AgentMiddleware``: its ``after_model`` hook judges each final answer (an AI message
with no tool calls) against the tool results in the agent state. Under ``guard`` and ``rails`` a flagged
answer gets the correction as one visible extra turn (a human message, ``jump_to: "model"``), the tools
still bound; under ``rails`` a revision that still carries an invention raises UnsupportedValuesError. The
system prompt, which is not in the agent state, is read in ``wrap_model_call`` and kept in the state
(``grounding_system_prompt``) as exempt text, so the gate stays stateless across checkpoints.
Structured output is judged after LangChain has parsed it (schema first, evidence second).

``StreamCheck(graph, inputs, "guard")`` streams a graph's (or an agent's) answer token by token, each model
message's text judged as it arrives (grounding.streaming): only judged text is shown, and the stream stops
at an invented value.

``gate_node()`` is the same check as a plain node for a graph built by hand. ``EvidenceCallback`` observes
only: a callback handler (``config={"callbacks": [EvidenceCallback()]}``) that judges every final answer a
chat model writes against the messages it was sent, for any chain or agent, and changes nothing.

With ``contract=grounding.Contract(schema, retries=…)`` a final answer's shape is judged first: a re-ask is
the contract's frame as one more visible turn; a fallback tier's value replaces the answer's text (the AI
message, by its id); nothing standing in raises OutputSchemaError. A schema-valid answer then meets the
gate. The answer's stop reason is read from its ``response_metadata``.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import aclosing
from typing import Any

from grounding.integrations.base import Framework

FRAMEWORK = Framework("LangChain", ("langchain", "langgraph"), extra="langchain")

try:
    from langchain.agents.middleware import AgentMiddleware, AgentState, ExtendedModelResponse, hook_config
    from langchain_core.callbacks import BaseCallbackHandler
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, messages_to_dict
    from langgraph.graph import END
    from langgraph.types import Command
    from typing_extensions import NotRequired
except ImportError as error:  # pragma: no cover - the message is the point
    raise FRAMEWORK.missing("grounding.langchain", "LangChain v1") from error

from grounding.contract import Contract, ContractDecision
from grounding.errors import EmptyAnswerError
from grounding.gate import Decision, Gate, Posture, not_judged
from grounding.library import Options
from grounding.session import stream
from grounding.streaming import Stream, StreamPosture

__all__ = ["EvidenceCallback", "EvidenceGate", "GroundingState", "StreamCheck", "decide", "gate_node"]
log = logging.getLogger("grounding.langchain")

SYSTEM_PROMPT_KEY = "grounding_system_prompt"


class GroundingState(AgentState):
    """The agent state with the system prompt the model was last sent (exempt text for the gate)."""

    grounding_system_prompt: NotRequired[str]


def decide(gate: Gate, messages: Sequence[BaseMessage], system_prompt: str | None = None,
           contract: Contract | None = None) -> Decision | ContractDecision | None:
    """The gate's decision on the last message when it is a final answer (an AI message with no tool
    calls), judged against the messages before it (with a contract, the contract's decision); None when it
    is not one, or has no text (logged: never called grounded)."""
    if not messages or not isinstance(messages[-1], AIMessage) or messages[-1].tool_calls:
        return None
    history = messages_to_dict(list(messages[:-1]))
    if system_prompt:
        history.insert(0, {"type": "system", "data": {"content": system_prompt}})
    answer = messages[-1]
    if contract is not None:
        metadata = answer.response_metadata or {}
        stop = metadata.get("finish_reason", metadata.get("stop_reason"))
        return contract.with_gate(gate).decide(history, str(answer.text), format="langchain",
                                               stop_reason=stop if isinstance(stop, str) else None)
    try:
        return gate.decide(history, str(answer.text), format="langchain")
    except EmptyAnswerError as empty:  # an AI message with no text and no calls: nothing to judge
        not_judged(empty, "LangChain")
        return None


def _update(decision: Decision | ContractDecision, answer: BaseMessage) -> dict[str, Any] | None:
    """The state update a decision makes: a re-ask as one more turn, a fallback's value in place of the
    answer, nothing for an answer that ships; a refusal or a contract nothing met raises."""
    if decision.action in ("revision-asked", "retry"):
        return {"messages": [HumanMessage(content=decision.message)], "jump_to": "model"}
    if isinstance(decision, ContractDecision):
        decision.raise_if_failed()
        shipped = decision.shipped(str(answer.text))
        return None if decision.tier not in ("fallback", "canned") else {
            "messages": [AIMessage(content=shipped, id=answer.id)]}
    decision.raise_if_refused()
    return None


class EvidenceGate(AgentMiddleware):
    """A LangChain v1 agent middleware: the gate under posture (``assist``, ``guard`` or ``rails``) on every
    final answer."""

    state_schema = GroundingState

    def __init__(self, posture: Posture = "guard", options: Options | None = None,
                 on_verdict: Callable[[Decision], None] | None = None, contract: Contract | None = None) -> None:
        super().__init__()
        self.gate = Gate(posture, options, on_verdict)
        self.contract = contract

    def wrap_model_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        return _with_system_prompt(request, handler(request))

    async def awrap_model_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        return _with_system_prompt(request, await handler(request))

    @hook_config(can_jump_to=["model"])
    async def aafter_model(self, state: AgentState[Any], runtime: Any) -> dict[str, Any] | None:
        """after_model for an async agent (ainvoke, astream): judged in a worker thread, off the event loop."""
        return await asyncio.to_thread(self.after_model, state, runtime)

    @hook_config(can_jump_to=["model"])
    def after_model(self, state: AgentState[Any], runtime: Any) -> dict[str, Any] | None:
        system_prompt = state.get(SYSTEM_PROMPT_KEY)
        decision = decide(self.gate, state["messages"], system_prompt if isinstance(system_prompt, str) else None,
                          self.contract)
        return None if decision is None else _update(decision, state["messages"][-1])


def _with_system_prompt(request: Any, response: Any) -> Any:
    """The model's response, with the system prompt it was sent kept in the state for the gate."""
    system = request.system_message
    if system is None or isinstance(response, ExtendedModelResponse):
        return response
    return ExtendedModelResponse(model_response=response, command=Command(update={SYSTEM_PROMPT_KEY: str(system.text)}))


def gate_node(posture: Posture = "guard", options: Options | None = None, *, model: str = "model",
              tools: str = "tools", then: str = END, system_prompt: str | None = None,
              on_verdict: Callable[[Decision], None] | None = None) -> Callable[[dict], Command]:
    """The gate as a node of a hand-built LangGraph graph, placed after the model node (as its router): tool
    calls go on to tools; a final answer that needs its revision goes back to model with the correction;
    any other final answer goes on to then."""
    gate = Gate(posture, options, on_verdict)

    def evidence_check(state: dict) -> Command:
        last = state["messages"][-1] if state["messages"] else None
        if isinstance(last, AIMessage) and last.tool_calls:
            return Command(goto=tools)
        decision = decide(gate, state["messages"], system_prompt)
        if decision is not None and decision.action == "revision-asked":
            return Command(goto=model, update={"messages": [HumanMessage(content=decision.message)]})
        if decision is not None:
            decision.raise_if_refused()
        return Command(goto=then)

    return evidence_check


class EvidenceCallback(BaseCallbackHandler):
    """Observe only: every final answer a chat model writes (an AI message with no tool calls) is judged, under
    ``assist``, against the messages that model call was sent; the decision goes to on_verdict, the
    ``grounding.gate`` logger and OpenTelemetry, and ``last`` holds the latest. Nothing is changed and nothing
    raised into the chain: a failure to judge is logged. What a call was sent is held only until it ends."""

    def __init__(self, options: Options | None = None, on_verdict: Callable[[Decision], None] | None = None) -> None:
        self.gate = Gate("assist", options, on_verdict)
        self.last: Decision | None = None
        self._sent: dict[Any, list[BaseMessage]] = {}
        self._lock = threading.Lock()  # LangChain calls a handler from worker threads in async runs

    def on_chat_model_start(self, serialized: Any, messages: list[list[BaseMessage]], *, run_id: Any,
                            **kwargs: Any) -> None:
        with self._lock:
            self._sent[run_id] = list(messages[0]) if messages else []

    def on_llm_end(self, response: Any, *, run_id: Any, **kwargs: Any) -> None:
        with self._lock:
            sent = self._sent.pop(run_id, None)
        generations = response.generations[0] if response.generations else []
        message = getattr(generations[0], "message", None) if generations else None
        if sent is None or not isinstance(message, AIMessage) or message.tool_calls:
            return
        try:
            self.last = decide(self.gate, [*sent, message])
        except Exception:  # noqa: BLE001 - an observer never breaks the chain it watches
            log.exception("EvidenceCallback: the answer could not be judged")

    def on_llm_error(self, error: BaseException, *, run_id: Any, **kwargs: Any) -> None:
        with self._lock:
            self._sent.pop(run_id, None)


class StreamCheck:
    """The text to show of a LangGraph graph (a ``create_agent`` agent too) streamed token by token::

        check = StreamCheck(agent, {"messages": [{"role": "user", "content": "Where is my order?"}]}, "guard",
                            system="You help with orders.")
        async for text in check:
            print(text, end="")
        if check.decision.action == "revision-asked":
            ...  # invoke again with the state's messages and the correction (check.decision.message)

    It runs ``graph.astream(inputs, config, stream_mode=["values", "messages"])``: each model message that
    writes text gets a Stream whose history is the state's messages before it (``system`` beside them: the
    agent's system prompt is not in its state), fed its chunks. When a stream stops, the graph's stream is
    closed (the run ends there). ``streams`` holds each message's Stream; ``decision`` is the last one's.
    """

    def __init__(self, graph: Any, inputs: Any, posture: StreamPosture = "guard", *, config: Any = None,
                 system: str | None = None, options: Options | None = None, can_revise: bool = True,
                 on_verdict: Callable[[Decision], None] | None = None) -> None:
        self.graph, self.inputs, self.config, self.posture = graph, inputs, config, posture
        self._system, self._options, self._can_revise, self._on_verdict = system, options, can_revise, on_verdict
        self.streams: list[Stream] = []

    @property
    def decision(self) -> Decision | None:
        """The gate's decision on the last message that wrote text (None before it finished)."""
        return self.streams[-1].decision if self.streams else None

    async def __aiter__(self) -> AsyncIterator[str]:
        events = self.graph.astream(self.inputs, self.config, stream_mode=["values", "messages"])
        async with aclosing(events):  # (a stream that stops closes the graph's: the run ends there)
            async for text in self._released(events):
                yield text

    async def _released(self, events: Any) -> AsyncIterator[str]:
        held: list = []  # the state's messages, as the last "values" event gave them
        current: Stream | None = None  # the stream of the message being written
        writing = None  # that message's id
        async for mode, payload in events:
            chunk = payload[0] if mode == "messages" else None
            text = _chunk_text(chunk)
            if current is not None and (mode == "values" or (text and chunk.id != writing)):
                last, current = current.finish()[0].text, None  # its message is whole: the step is over
                if last:
                    yield last
            if mode == "values":
                held = list(payload.get("messages", ())) if isinstance(payload, dict) else held
            if not text:
                continue
            if current is None:
                current, writing = self._stream(held), chunk.id
            release = current.feed(text)
            if release.text:
                yield release.text
            if release.stopped:
                break
        if current is not None and current.decision is None:
            last = current.finish()[0].text
            if last:
                yield last

    def _stream(self, held: list) -> Stream:
        started = stream(held, self.posture, options=self._options, system=self._system,
                         can_revise=self._can_revise, on_verdict=self._on_verdict)
        self.streams.append(started)
        return started


def _chunk_text(chunk: Any) -> str:
    """The text a model's message chunk writes: its content when a string, else its text blocks joined; ""
    for a chunk that calls a tool, and for any other message the graph streams (a tool's result)."""
    if not isinstance(chunk, AIMessage) or getattr(chunk, "tool_call_chunks", None):
        return ""
    content = chunk.content
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content
                   if isinstance(block, dict) and block.get("type") == "text")
