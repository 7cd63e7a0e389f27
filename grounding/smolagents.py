"""smolagents' memory as the OpenAI Chat messages it stands for: a history as smolagents holds it.

An agent's memory is read as ``agent.write_memory_to_messages()`` gives it (``ChatMessage``s with the roles
system, user, assistant, tool-call and tool-response) or as its steps (``agent.memory.steps``: each step's
own messages). A tool-call message's calls are read from the text smolagents writes (``Calling tools:``
and the calls' list), and the tool-response after it is their result. The final answer is never evidence:
the observation of a call to ``final_answer`` (a ToolCallingAgent's tool, or a CodeAgent's code that calls
it) is the answer itself, and read as a result it would ground any invention in it; a step that is the
final answer is left out whole. Duck-typed: smolagents is never imported.

    verdict = grounding.check_answer(agent.write_memory_to_messages(), agent.run(task))
"""

from __future__ import annotations

import ast
import json

from grounding.errors import RecordError

_FINAL_ANSWER = "final_answer"


def is_smolagents(message: object) -> bool:
    return (type(message).__module__ or "").startswith("smolagents")


def openai_messages(history: list, first: int = 0) -> list[dict]:
    """history (smolagents' ChatMessages, or memory steps, or plain dicts among them) as OpenAI Chat
    messages; first: the index of history's first element in the whole history, for the error naming one."""
    messages: list = []
    for at, element in enumerate(history, first):
        if not is_smolagents(element) or hasattr(element, "role"):  # a message
            messages.append(element)
        elif hasattr(element, "to_messages"):  # a memory step: its own messages, unless it is the final answer
            if not getattr(element, "is_final_answer", False):
                messages += element.to_messages()
        else:
            raise RecordError(f"messages[{at}] is a smolagents {type(element).__name__}, which ground cannot read "
                              "as a message: pass agent.write_memory_to_messages() or agent.memory.steps")
    return _lowered(messages)


def _lowered(messages: list) -> list[dict]:
    lowered: list[dict] = []
    calls: list[dict] = []  # the calls of the last tool-call message
    for message in messages:
        if not is_smolagents(message):
            lowered.append(message)  # a dict the loop wrote itself
            continue
        role = getattr(message.role, "value", message.role)
        text = _text(message.content)
        if role == "tool-call":
            calls = _calls(text)
            lowered.append({"role": "assistant", "content": None, "tool_calls": calls} if calls
                           else {"role": "assistant", "content": text})
        elif role == "tool-response":
            if any(_FINAL_ANSWER in call["function"]["name"] + call["function"]["arguments"] for call in calls):
                continue  # the final answer's own observation: the answer, never its evidence
            answered = {"tool_call_id": calls[0]["id"]} if len(calls) == 1 and calls[0]["id"] else {}
            lowered.append({"role": "tool", "content": text, **answered})
        else:
            lowered.append({"role": role, "content": text})
    return lowered


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(part["text"] for part in content if isinstance(part, dict) and isinstance(part.get("text"), str))
    return ""


def _calls(text: str) -> list[dict]:
    """The calls a tool-call message's text lists (``Calling tools:\\n[{'id': …, 'function': {…}}]``, the
    list's Python form), as OpenAI calls; none when the text is not that."""
    body = text.removeprefix("Calling tools:").strip()
    try:
        listed = ast.literal_eval(body)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return []
    calls = []
    for call in listed if isinstance(listed, list) else []:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            return []
        arguments = function.get("arguments")
        calls.append({"id": call.get("id"), "type": "function",
                      "function": {"name": str(function.get("name")),
                                   "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments)}})
    return calls
