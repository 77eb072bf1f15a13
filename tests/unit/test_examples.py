"""The agent loops in ``examples/``, run against the demo server with a scripted stand-in for each model.

Each provider's real SDK client sends its requests to an ``httpx.MockTransport`` that plays the model: the
first answer calls a tool (by the name the adapter gave it), the second answers in text quoting the tool
result it was sent. So the SDK itself serialises our tool list and our tool-result message, and parses
the scripted replies, exactly as it would against the service.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from mcp_troupe import Troupe, parse_config

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("openai")
pytest.importorskip("anthropic")
pytest.importorskip("google.genai")


def load_example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def troupe() -> Iterator[Troupe]:
    config = parse_config(
        {
            "tools": {
                "mcp_servers": {"demo": {"command": sys.executable, "args": ["-m", "mcp_troupe.demo"]}}
            },
            "permissions": {"approval": {"mode": "auto"}},
        }
    )
    with Troupe(config) as started:
        assert started.wait_ready(timeout=30)
        yield started


class ScriptedModel:
    """Two turns: call the echo tool with ``text``; then answer with what the tool result said."""

    def __init__(self, answer: Callable[[dict[str, Any], int], dict[str, Any]]) -> None:
        self.requests: list[dict[str, Any]] = []
        self._answer = answer

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        self.requests.append(body)
        return httpx.Response(200, json=self._answer(body, len(self.requests)))


def _echo_name(names: list[str]) -> str:
    return next(name for name in names if name.endswith("echo"))


def test_the_openai_chat_example_calls_a_tool_and_answers_with_its_result(troupe: Troupe) -> None:
    import openai

    def answer(body: dict[str, Any], turn: int) -> dict[str, Any]:
        if turn == 1:
            name = _echo_name([tool["function"]["name"] for tool in body["tools"]])
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": name, "arguments": '{"text": "hi"}'},
                    }
                ],
            }
        else:
            tool_message = body["messages"][-1]
            assert tool_message["role"] == "tool" and tool_message["tool_call_id"] == "call_1"
            message = {"role": "assistant", "content": f"The tool said: {tool_message['content']}"}
        return {
            "id": f"c{turn}",
            "object": "chat.completion",
            "created": 0,
            "model": "scripted",
            "choices": [{"index": 0, "finish_reason": "stop", "message": message}],
        }

    model = ScriptedModel(answer)
    client = openai.OpenAI(
        api_key="not-a-key",
        base_url="http://model.test/v1",
        http_client=httpx.Client(transport=httpx.MockTransport(model)),
    )
    example = load_example("openai_chat_agent")
    assert example.run(troupe, client, "Echo hi", model="scripted") == "The tool said: hi"
    strict_tools = [tool for tool in model.requests[0]["tools"] if tool["function"].get("strict")]
    assert strict_tools, "the example sends strict schemas"


def test_the_openai_responses_example_calls_a_tool_and_answers_with_its_result(troupe: Troupe) -> None:
    import openai

    def answer(body: dict[str, Any], turn: int) -> dict[str, Any]:
        common = {
            "id": f"r{turn}",
            "object": "response",
            "created_at": 0,
            "model": "scripted",
            "status": "completed",
        }
        if turn == 1:
            name = _echo_name([tool["name"] for tool in body["tools"]])
            output = [
                {
                    "type": "function_call",
                    "id": "fc_1",
                    "call_id": "call_1",
                    "name": name,
                    "arguments": '{"text": "hi"}',
                    "status": "completed",
                }
            ]
        else:
            item = body["input"][-1]
            assert item["type"] == "function_call_output" and item["call_id"] == "call_1"
            output = [
                {
                    "type": "message",
                    "id": "m1",
                    "role": "assistant",
                    "status": "completed",
                    "content": [
                        {"type": "output_text", "text": f"The tool said: {item['output']}", "annotations": []}
                    ],
                }
            ]
        return {**common, "output": output}

    model = ScriptedModel(answer)
    client = openai.OpenAI(
        api_key="not-a-key",
        base_url="http://model.test/v1",
        http_client=httpx.Client(transport=httpx.MockTransport(model)),
    )
    example = load_example("openai_responses_agent")
    assert example.run(troupe, client, "Echo hi", model="scripted") == "The tool said: hi"


def test_the_anthropic_example_calls_a_tool_and_answers_with_its_result(troupe: Troupe) -> None:
    import anthropic
    import httpx2  # the Anthropic SDK moved to httpx's successor, which has the same MockTransport

    def answer(body: dict[str, Any], turn: int) -> dict[str, Any]:
        if turn == 1:
            name = _echo_name([tool["name"] for tool in body["tools"]])
            content = [{"type": "tool_use", "id": "toolu_1", "name": name, "input": {"text": "hi"}}]
        else:
            block = body["messages"][-1]["content"][0]
            assert block["type"] == "tool_result" and block["tool_use_id"] == "toolu_1"
            content = [{"type": "text", "text": f"The tool said: {block['content'][0]['text']}"}]
        return {
            "id": f"msg_{turn}",
            "type": "message",
            "role": "assistant",
            "model": "scripted",
            "content": content,
            "stop_reason": "end_turn",
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }

    model = ScriptedModel(answer)

    def handler(request: Any) -> Any:
        reply = model(httpx.Request(request.method, str(request.url), content=request.content))
        return httpx2.Response(reply.status_code, json=reply.json())

    client = anthropic.Anthropic(
        api_key="not-a-key",
        base_url="http://model.test",
        http_client=httpx2.Client(transport=httpx2.MockTransport(handler)),
    )
    example = load_example("anthropic_agent")
    assert example.run(troupe, client, "Echo hi", model="scripted") == "The tool said: hi"


def test_the_gemini_example_calls_a_tool_and_answers_with_its_result(troupe: Troupe) -> None:
    from google import genai
    from google.genai import types

    def answer(body: dict[str, Any], turn: int) -> dict[str, Any]:
        if turn == 1:
            declarations = body["tools"][0]["functionDeclarations"]
            name = _echo_name([declaration["name"] for declaration in declarations])
            parts: list[dict[str, Any]] = [
                {"functionCall": {"name": name, "args": {"text": "hi"}, "id": "c1"}}
            ]
        else:
            response = body["contents"][-1]["parts"][0]["functionResponse"]
            assert response["id"] == "c1"
            parts = [{"text": f"The tool said: {response['response']['output']}"}]
        return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}]}

    model = ScriptedModel(answer)
    client = genai.Client(
        api_key="not-a-key",
        http_options=types.HttpOptions(
            base_url="http://model.test", httpx_client=httpx.Client(transport=httpx.MockTransport(model))
        ),
    )
    example = load_example("gemini_agent")
    assert example.run(troupe, client, "Echo hi", model="scripted") == "The tool said: hi"
