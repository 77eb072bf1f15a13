"""An agent loop on OpenAI Chat Completions over every ready MCP tool of a troupe.

    OPENAI_API_KEY=... python examples/openai_chat_agent.py troupe.yaml "What is 2 + 3? Use a tool."

The tests run :func:`run` with a scripted stand-in for the model (an ``httpx`` transport), so the loop is
checked end to end without network.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from mcp_troupe import Troupe, adapters, load_config

MAX_TURNS = 8


def run(troupe: Troupe, client: Any, prompt: str, *, model: str = "gpt-4.1-mini", strict: bool = True) -> str:
    """Ask ``prompt``; let the model call tools until it answers in text; return that text."""
    tools = adapters.openai_tools(troupe.tools(ready_only=True), api="chat", strict=strict)
    messages: list[dict[str, Any]] = [{"role": "user", "content": prompt}]
    for _turn in range(MAX_TURNS):
        response = client.chat.completions.create(model=model, messages=messages, tools=list(tools))
        message = response.choices[0].message
        if not message.tool_calls:
            return str(message.content or "")
        messages.append(message.model_dump(exclude_none=True))
        for call in message.tool_calls:
            name = tools.troupe_name(call.function.name)
            arguments = tools.arguments_for(call.function.name, json.loads(call.function.arguments or "{}"))
            result = troupe.call(name, arguments)
            messages.append(adapters.openai_tool_message(call.id, result, api="chat"))
    raise RuntimeError(f"no answer after {MAX_TURNS} turns")


def main(argv: list[str]) -> int:
    import openai

    with Troupe(load_config(argv[0])) as troupe:
        troupe.wait_ready(timeout=30)
        print(run(troupe, openai.OpenAI(), argv[1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
