"""An answer argument as the check reads it: its text.

An answer is text, a message object whose text this module knows how to read (the SDKs' and the agent
frameworks' own classes, each read by its documented text field), or a structured output (a dict, a list,
a dataclass, an app's pydantic model), judged as its JSON. Anything else is a TypeError naming the type and
what to pass, and an answer with no text at all (None, a turn that only calls tools, "") is an
EmptyAnswerError: it is never judged, so never called grounded.

>>> judged_text("Order ORD-4417 has shipped.")
'Order ORD-4417 has shipped.'
>>> judged_text({"order": "ORD-4417"})
'{"order":"ORD-4417"}'
>>> judged_text("  ")
Traceback (most recent call last):
    ...
grounding.errors.EmptyAnswerError: the answer is empty: there is no text to judge (a model that returned nothing, or only tool calls, has not answered yet); judge the text of the turn that answers
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from grounding.errors import EmptyAnswerError

_NO_TEXT = ("there is no text to judge (a model that returned nothing, or only tool calls, has not answered "
            "yet); judge the text of the turn that answers")


def judged_text(answer: object) -> str:
    """The text of answer (answer_text) that the check judges: an empty or blank one is an EmptyAnswerError."""
    text = answer_text(answer)
    if not text.strip():
        raise EmptyAnswerError(f"the answer is empty: {_NO_TEXT}")
    return text


def answer_text(answer: object) -> str:
    """The text of answer, as written (it may be empty: a contract reads "" as an answer that is no JSON)."""
    if isinstance(answer, str):
        return answer
    if answer is None:
        raise EmptyAnswerError(f"the answer is None: {_NO_TEXT}")
    root = _root(answer)
    reader = _READERS.get(root)
    if reader is not None:
        return reader(answer)
    if root in _FRAMEWORKS:  # a framework's object this module has no reader for: never judged as its JSON
        raise _unreadable(answer)
    return _structured(answer)


def _structured(answer: object) -> str:
    """A structured output as its JSON: every field the object has is judged, or it is refused."""
    import orjson

    if _is_dataclass(answer):
        hidden = [spec.name for spec in dataclasses.fields(answer) if spec.name.startswith("_")]
        if hidden:  # orjson leaves private fields out: what they hold would never be judged
            raise TypeError(f"the answer is {_named(answer)}, whose fields {', '.join(hidden)} are private and "
                            "would not be judged: pass its text, or a dict of what it says")
    dump = getattr(answer, "model_dump", None)
    value = dump(mode="json") if callable(dump) else answer
    if not isinstance(value, (dict, list, tuple)) and not _is_dataclass(value):
        raise TypeError(f"the answer is {_named(answer)}: pass its text, a structured output (a dict, a list, a "
                        "dataclass or a pydantic model) or a message object of a framework ground reads")
    return orjson.dumps(value).decode()


# --- message objects, by the package that defines them ---------------------------------------------------


def _sdk_message(message: object) -> str:
    """An SDK's message object (OpenAI, LiteLLM, Anthropic, LangChain, pydantic-ai, Responses output)."""
    text = getattr(message, "text", None)
    if isinstance(text, str) and _root(message) == "langchain_core":
        return _said(message, text)
    if hasattr(message, "content") and (hasattr(message, "role") or hasattr(message, "type")):
        content = message.content
        if isinstance(content, str):
            return _said(message, content)
        if content is None:
            return _said(message, "")
        if isinstance(content, list):
            said = [block for block in content if _block_kind(block) not in _NOT_SAID]
            texts = [_block_text(block) for block in said]
            if all(text is not None for text in texts):
                return _said(message, "\n".join(texts))  # type: ignore[arg-type] (None ruled out above)
    hint = ("its message, completion.choices[0].message" if hasattr(message, "choices") else
            "response.output_text" if hasattr(message, "output_text") else "its text")
    raise TypeError(f"the answer is {_named(message)}, which is not a message with text: pass {hint}")


def _haystack(answer: object) -> str:
    """Haystack's ChatMessage: its text parts (its fields are private; to_dict is its own shape)."""
    texts = getattr(answer, "texts", None)
    if isinstance(texts, list) and all(isinstance(text, str) for text in texts):
        return _said(answer, "\n".join(texts))
    raise _unreadable(answer, "a ChatMessage's .text")


def _llama_index(answer: object) -> str:
    """LlamaIndex: a ChatMessage (its text blocks), an AgentOutput (its response message), a chat or query
    engine's response (its response text)."""
    response = getattr(answer, "response", None)
    if response is not None and not isinstance(response, str) and hasattr(response, "blocks"):
        return _llama_index(response)  # AgentOutput.response, a ChatMessage
    if isinstance(response, str) or (response is None and hasattr(answer, "source_nodes")):
        return _said(answer, response or "")  # AgentChatResponse, Response
    if hasattr(answer, "blocks") and hasattr(answer, "role"):
        blocks = answer.blocks
        return _said(answer, "\n".join(block.text for block in blocks if isinstance(getattr(block, "text", None), str)))
    raise _unreadable(answer, "an AgentOutput's .response.content")


def _autogen(answer: object) -> str:
    """AutoGen: a chat message whose content is text (TextMessage, StopMessage, HandoffMessage,
    ToolCallSummaryMessage), text and images (MultiModalMessage, its text parts), or a structured output
    (StructuredMessage, its JSON); a model-context AssistantMessage's text. Events and a TaskResult are
    no answer."""
    content = getattr(answer, "content", None)
    if hasattr(answer, "messages") and hasattr(answer, "stop_reason"):
        raise TypeError(f"the answer is {_named(answer)}, a run's result: pass its final message, "
                        "result.messages[-1]")
    if type(answer).__name__.endswith("Event"):
        raise TypeError(f"the answer is {_named(answer)}, an event, not a message: pass the final "
                        "TextMessage (or its .content)")
    if isinstance(content, str):
        return _said(answer, content)
    if isinstance(content, list):  # MultiModalMessage (text and images); an AssistantMessage's FunctionCalls
        return _said(answer, "\n".join(part for part in content if isinstance(part, str)))
    if callable(getattr(content, "model_dump", None)):  # StructuredMessage: an app's own model
        return _structured(content)
    raise _unreadable(answer)


def _google(answer: object) -> str:
    """Google ADK and Gen AI: an Event or an LlmResponse (its content), a Content (its text parts, thoughts
    left out); a whole generateContent response is no answer."""
    content = getattr(answer, "content", None)
    if hasattr(content, "parts"):
        return _google(content)
    parts = getattr(answer, "parts", None)
    if hasattr(answer, "role") and (parts is None or isinstance(parts, list)):
        texts = [part.text for part in parts or () if isinstance(getattr(part, "text", None), str)
                 and not getattr(part, "thought", None)]
        return _said(answer, "\n".join(texts))
    if hasattr(answer, "candidates"):
        raise TypeError(f"the answer is {_named(answer)}, a whole response: pass its text, response.text")
    if hasattr(answer, "author") and content is None:  # an ADK Event with no content
        return _said(answer, "")
    raise _unreadable(answer, "an Event's content")


def _crewai(answer: object) -> str:
    """CrewAI: a CrewOutput, TaskOutput or LiteAgentOutput, by its raw text (a structured output's JSON)."""
    raw = getattr(answer, "raw", None)
    if isinstance(raw, str):
        return _said(answer, raw)
    raise _unreadable(answer, "a CrewOutput's .raw")


def _smolagents(answer: object) -> str:
    """smolagents: a ChatMessage (its text), a RunResult (its output, read as any answer)."""
    if hasattr(answer, "output") and hasattr(answer, "steps"):
        return answer_text(answer.output)
    if hasattr(answer, "role") and hasattr(answer, "content"):
        content = answer.content
        if content is None or isinstance(content, str):
            return _said(answer, content or "")
        if isinstance(content, list):
            return _said(answer, "\n".join(text for text in map(_block_text, content) if text is not None))
    raise _unreadable(answer)


def _dspy(answer: object) -> str:
    """DSPy: a Prediction holds the whole module's outputs (a ReAct trajectory's observations among them):
    judged whole it would read the answer against itself, so it is refused with its fields named."""
    keys = getattr(answer, "keys", None)
    fields = ", ".join(f"prediction.{key}" for key in keys()) if callable(keys) else ""
    raise TypeError(f"the answer is {_named(answer)}: pass the output field that answers"
                    + (f" (one of {fields})" if fields else ""))


def _inspect(answer: object) -> str:
    """Inspect AI: a ChatMessage (its text content, its reasoning left out), a ModelOutput (its completion)."""
    if hasattr(answer, "completion") and hasattr(answer, "choices"):
        return _said(answer, answer.completion)
    content = getattr(answer, "content", None)
    if hasattr(answer, "role") and isinstance(content, (str, list)):
        if isinstance(content, str):
            return _said(answer, content)
        texts = (_block_text(block) for block in content if _block_kind(block) not in _NOT_SAID)
        return _said(answer, "\n".join(text for text in texts if text is not None))
    raise _unreadable(answer, "a ChatMessage's .text, or state.output.completion")


_SDKS = ("openai", "anthropic", "litellm", "langchain_core", "pydantic_ai", "agents")
_READERS: dict[str, Callable[[object], str]] = {
    **dict.fromkeys(_SDKS, _sdk_message),
    "haystack": _haystack,
    "llama_index": _llama_index,
    "autogen_agentchat": _autogen,
    "autogen_core": _autogen,
    "google": _google,
    "crewai": _crewai,
    "smolagents": _smolagents,
    "dspy": _dspy,
    "inspect_ai": _inspect,
}
# agent frameworks whose objects are messages, events or run results, never an app's structured output
_FRAMEWORKS = frozenset({*_READERS, "langgraph", "langchain", "autogen_ext", "mcp", "semantic_kernel", "mistralai",
                         "cohere", "groq", "vertexai", "strands", "agno", "camel", "swarm", "letta"})


def _unreadable(answer: object, example: str = "") -> TypeError:
    """The refusal of a framework's object no reader here can read (example: where its text is)."""
    where = f" ({example})" if example else ""
    return TypeError(f"the answer is {_named(answer)}, which ground cannot read as a message: pass its text{where}")


def _said(message: object, text: str) -> str:
    """A message's text; a message with none (one that only calls tools) is an EmptyAnswerError."""
    if not text.strip():
        raise EmptyAnswerError(f"the answer is {_named(message)} with no text: {_NO_TEXT}")
    return text


# content blocks that are not what a message says to its reader: its calls and its reasoning
_NOT_SAID = frozenset({"tool_use", "server_tool_use", "function_call", "tool_call", "thinking",
                       "redacted_thinking", "reasoning"})


def _block_kind(block: object) -> object:
    return block.get("type") if isinstance(block, dict) else getattr(block, "type", None)


def _block_text(block: object) -> str | None:
    if isinstance(block, str):
        return block
    text = block.get("text") if isinstance(block, dict) else getattr(block, "text", None)
    return text if isinstance(text, str) else None


def _root(value: object) -> str:
    """The package that defines value's type, or the first of its bases a reader knows (a framework's class
    parametrised or subclassed in the app, as AutoGen's StructuredMessage[Model] is)."""
    roots = [(kind.__module__ or "").split(".")[0] for kind in type(value).__mro__]
    return next((root for root in roots if root in _FRAMEWORKS), roots[0])


def _named(value: object) -> str:
    """A type as a user finds it, with its article: its package, then its name (``a haystack ChatMessage``)."""
    root = _root(value)
    named = type(value).__name__ if root in ("builtins", "__main__", "") else f"{root} {type(value).__name__}"
    return ("an " if named[0].lower() in "aeiou" else "a ") + named


def _is_dataclass(value: object) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, type)
