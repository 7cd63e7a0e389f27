"""Cline and Roo Code task histories (``api_conversation_history.json``): the Anthropic messages the
extension sent, in which tools are written in the text.

An assistant turn names one tool as XML in its text (``<read_file><path>a.py</path></read_file>``; the
``<thinking>`` before it is the model's own); the extension answers in the next user turn with text blocks,
``[read_file for 'a.py'] Result:`` then the tool's output (Roo Code also writes a ``<file>`` block), and
appends its own ``<environment_details>``. Those results are tools' output: evidence, never the user's
exempt text. The answer is ``attempt_completion``'s ``<result>`` (or an assistant text that names no tool);
what the user says back to it, or to ``ask_followup_question``, is the user's text. ``<environment_details>``
(open tabs, the time, a file listing the extension wrote) is neither. Native tool calls (``tool_use`` and
``tool_result`` blocks) are read as such, ``attempt_completion``'s input as the answer."""

from __future__ import annotations

import json
import re

from grounding.errors import RecordError
from grounding.model import Conversation
from grounding.transcripts.formats import openai
from grounding.transcripts.formats.common import arguments_text, messages_list

# the tools Cline and Roo Code describe to the model (a tag of any other name is the model's own text)
_TOOLS = ("execute_command", "read_file", "write_to_file", "replace_in_file", "apply_diff", "insert_content",
          "search_and_replace", "search_files", "list_files", "list_code_definition_names", "browser_action",
          "use_mcp_tool", "access_mcp_resource", "ask_followup_question", "attempt_completion", "plan_mode_respond",
          "new_task", "switch_mode", "fetch_instructions", "load_mcp_documentation", "web_fetch", "codebase_search",
          "update_todo_list", "new_rule", "condense", "report_bug")
_TOOL_CALL = re.compile(rf"<({'|'.join(_TOOLS)})>(.*?)</\1>", re.DOTALL)
_PARAMETER = re.compile(r"<([a-z_]+)>\n?(.*?)\n?</\1>", re.DOTALL)
_RESULT_HEADER = re.compile(r"\A\[(?P<tool>[a-z_]+)(?: (?:for|to|in) .*?)?\] Result:[ \t]*\n?", re.DOTALL)
_ROO_FILE = re.compile(r"\A<files?>\s*<(?:file>\s*<)?path>")
_THINKING = re.compile(r"<thinking>.*?</thinking>\s*", re.DOTALL)
_ENVIRONMENT = "<environment_details>"
_USERS_WORDS = ("attempt_completion", "ask_followup_question", "plan_mode_respond")  # their results: the user's
_MARKERS = (_ENVIRONMENT, "<attempt_completion>", "] Result:")


def recognises(record: object) -> bool:
    messages = messages_list(record)
    if not messages:
        return False
    for message in messages:  # a loop: an OpenAI record fails at its first message (its content is text)
        if not (isinstance(message, dict) and "role" in message and isinstance(message.get("content"), list)):
            return False
    return any(marker in text for message in messages for text in _texts(message) for marker in _MARKERS)


def _texts(message: dict) -> list[str]:
    return [block["text"] for block in message["content"]
            if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str)]


def read(record: object, source: str, line: int) -> Conversation:
    messages = messages_list(record)
    if not isinstance(messages, list):
        raise RecordError("expected a Cline or Roo Code task history: a list of {role, content: [blocks]}")
    lowered: list[dict] = []
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or not isinstance(message.get("content"), list):
            raise RecordError(f"messages[{index}] must be an object with a content list")
        lowered += _assistant(message, index) if message.get("role") == "assistant" else _user(message, lowered)
    conversation = openai.read({"messages": lowered}, source, line)
    return Conversation(source, line, None, conversation.items, "cline")


def _assistant(message: dict, index: int) -> list[dict]:
    """An assistant turn: its tool (XML in its text, or a tool_use block) as a call; attempt_completion's
    result, or a text naming no tool, as an answer."""
    text = "\n".join(_texts(message))
    uses = [block for block in message["content"] if isinstance(block, dict) and block.get("type") == "tool_use"]
    calls = [(str(use.get("id")), str(use.get("name")), use.get("input")) for use in uses]
    found = _TOOL_CALL.search(text)
    if found:
        parameters = {name: value.strip() for name, value in _PARAMETER.findall(found.group(2))}
        calls.insert(0, (f"xml_{index}", found.group(1), parameters))
    said = _THINKING.sub("", text[:found.start()] if found else text).strip()
    finished = [call for call in calls if call[1] == "attempt_completion"]
    if finished:
        result = finished[0][2].get("result") if isinstance(finished[0][2], dict) else None
        return [{"role": "assistant", "content": str(result or said)}]
    if not calls:
        return [{"role": "assistant", "content": said}]
    return [{"role": "assistant", "content": said or None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments_text(arguments)}}
        for call_id, name, arguments in calls]}]


def _user(message: dict, before: list[dict]) -> list[dict]:
    """A user turn: a tool's result (after its [tool] Result: header, Roo Code's <file> block, a tool_result
    block), the user's words (the task, feedback, an answer to the model's question), the extension's
    <environment_details> left out."""
    read: list[dict] = []
    words: list[str] = []
    pending: dict | None = None  # the result whose output blocks follow its header
    for block in message["content"]:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "tool_result":
            pending = None
            read.append({"role": "tool", "tool_call_id": block.get("tool_use_id"),
                         "content": _result_text(block.get("content"))})
            continue
        text = block.get("text") if block.get("type") == "text" and isinstance(block.get("text"), str) else None
        if text is None or text.lstrip().startswith(_ENVIRONMENT):
            continue
        header = _RESULT_HEADER.match(text)
        if header and header.group("tool") not in _USERS_WORDS:
            pending = {"role": "tool", "tool_call_id": _last_call_id(before), "name": header.group("tool"),
                       "content": text[header.end():]}
            read.append(pending)
        elif header:
            pending = None
            words.append(text[header.end():])
        elif _ROO_FILE.match(text):
            pending = None
            read.append({"role": "tool", "tool_call_id": _last_call_id(before), "name": "read_file", "content": text})
        elif pending is not None:
            pending["content"] = f"{pending['content']}\n{text}".strip("\n")
        else:
            words.append(text)
    said = [{"role": "user", "content": "\n".join(words)}] if words else []
    return [*read, *said]


def _last_call_id(before: list[dict]) -> str | None:
    for message in reversed(before):
        if message.get("tool_calls"):
            return message["tool_calls"][0]["id"]
    return None


def _result_text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(block.get("text", "") for block in content if isinstance(block, dict))
    return json.dumps(content, default=str)
