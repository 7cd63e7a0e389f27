"""The plain streaming loops of docs/streaming.md, run with the OpenAI and Anthropic SDKs themselves: their
clients read a scripted server-sent event stream (an httpx mock transport, no network), the history is
built as each SDK's docs build it (its own message objects), and the invented value never reaches what was
released."""

from __future__ import annotations

import json

import pytest

httpx = pytest.importorskip("httpx")

import grounding  # noqa: E402

ORDER = {"order_id": "ORD-40001", "status": "shipped"}
STREAMED = "Your last order ORD-40001 has shipped.\nIts parcel is ORD-55120, arriving Monday.\n"
SHOWN = "Your last order ORD-40001 has shipped.\nIts parcel is "


def _pieces(text: str, size: int = 5) -> list[str]:
    return [text[at : at + size] for at in range(0, len(text), size)]


def _sse(events: list[tuple[str | None, dict | str]]) -> bytes:
    lines = []
    for name, data in events:
        if name is not None:
            lines.append(f"event: {name}")
        lines.append(f"data: {data if isinstance(data, str) else json.dumps(data)}")
        lines.append("")
    return ("\n".join(lines) + "\n").encode()


def _client(body: bytes, http: object = httpx) -> object:
    """An HTTP client (of the httpx flavour the SDK takes) whose every response is body, as a stream."""
    return http.Client(transport=http.MockTransport(
        lambda request: http.Response(200, content=body, headers={"content-type": "text/event-stream"})))


def _anthropic_http() -> object:
    """The httpx the Anthropic SDK takes: recent releases moved to its fork, httpx2."""
    try:
        import httpx2
    except ImportError:
        return httpx
    return httpx2


def test_an_openai_chat_completions_stream():
    openai = pytest.importorskip("openai")
    from openai.types.chat import ChatCompletionMessage

    chunks = [{"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "gpt-test",
               "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
              for piece in _pieces(STREAMED)]
    client = openai.OpenAI(api_key="test", http_client=_client(
        _sse([(None, chunk) for chunk in chunks] + [(None, "[DONE]")])))
    call = {"id": "call_1", "type": "function", "function": {"name": "latest_order", "arguments": "{}"}}
    messages = [{"role": "user", "content": "Where is my last order?"},
                ChatCompletionMessage(role="assistant", content=None, tool_calls=[call]),
                {"role": "tool", "tool_call_id": "call_1", "content": json.dumps(ORDER)}]

    stream = grounding.stream(messages, "guard")
    shown = []
    response = client.chat.completions.create(model="gpt-test", messages=[], stream=True)
    for event in response:
        delta = event.choices[0].delta.content if event.choices else None
        if delta:
            release = stream.feed(delta)
            shown.append(release.text)
            if release.stopped:
                response.close()
                break
    release, verdict = stream.finish()
    shown.append(release.text)
    assert "".join(shown) == SHOWN and [f.text for f in verdict.unsupported] == ["ORD-55120"]
    assert stream.decision.action == "revision-asked"


def test_an_anthropic_messages_stream():
    anthropic = pytest.importorskip("anthropic")
    from anthropic.types import ToolUseBlock

    message = {"id": "msg_1", "type": "message", "role": "assistant", "content": [], "model": "claude-test",
               "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}
    events = [("message_start", {"type": "message_start", "message": message}),
              ("content_block_start", {"type": "content_block_start", "index": 0,
                                       "content_block": {"type": "text", "text": ""}})]
    events += [("content_block_delta", {"type": "content_block_delta", "index": 0,
                                        "delta": {"type": "text_delta", "text": piece}})
               for piece in _pieces(STREAMED)]
    events += [("content_block_stop", {"type": "content_block_stop", "index": 0}),
               ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                                  "usage": {"output_tokens": 20}}),
               ("message_stop", {"type": "message_stop"})]
    client = anthropic.Anthropic(api_key="test", http_client=_client(_sse(events), _anthropic_http()))
    messages = [{"role": "user", "content": "Where is my last order?"},
                {"role": "assistant", "content": [ToolUseBlock(id="toolu_1", name="latest_order", input={},
                                                               type="tool_use")]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                              "content": json.dumps(ORDER)}]}]

    stream = grounding.stream(messages, "guard", system="You help with orders.")
    shown = []
    with client.messages.stream(model="claude-test", max_tokens=100, messages=[]) as response:
        for text in response.text_stream:
            release = stream.feed(text)
            shown.append(release.text)
            if release.stopped:
                break
    release, verdict = stream.finish()
    shown.append(release.text)
    assert "".join(shown) == SHOWN and [f.text for f in verdict.unsupported] == ["ORD-55120"]


def test_a_grounded_stream_is_shown_whole_through_released():
    openai = pytest.importorskip("openai")

    grounded = "Your last order ORD-40001 has shipped.\n"
    chunks = [{"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "gpt-test",
               "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
              for piece in _pieces(grounded, 3)]
    client = openai.OpenAI(api_key="test", http_client=_client(
        _sse([(None, chunk) for chunk in chunks] + [(None, "[DONE]")])))
    stream = grounding.stream([{"role": "tool", "content": json.dumps(ORDER)}], "guard")
    response = client.chat.completions.create(model="gpt-test", messages=[], stream=True)
    deltas = (event.choices[0].delta.content or "" for event in response if event.choices)
    assert "".join(grounding.released(stream, deltas)) == grounded and stream.decision.action == "grounded"
