"""An agent loop on the OpenAI Responses API over every ready MCP tool of a troupe.

    OPENAI_API_KEY=... python examples/openai_responses_agent.py troupe.yaml "What time is it?"

The tests run :func:`run` with a scripted stand-in for the model, without network.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from mcp_troupe import Troupe, adapters, load_config

MAX_TURNS = 8


def run(troupe: Troupe, client: Any, prompt: str, *, model: str = "gpt-4.1-mini", strict: bool = True) -> str:
    """Ask ``prompt``; let the model call tools until it answers in text; return that text."""
    tools = adapters.openai_tools(troupe.tools(ready_only=True), api="responses", strict=strict)
    items: list[Any] = [{"role": "user", "content": prompt}]
    for _turn in range(MAX_TURNS):
        response = client.responses.create(model=model, input=items, tools=list(tools))
        calls = [item for item in response.output if item.type == "function_call"]
        if not calls:
            return str(response.output_text)
        items.extend(item.model_dump(exclude_none=True) for item in response.output)
        for call in calls:
            name = tools.troupe_name(call.name)
            arguments = tools.arguments_for(call.name, json.loads(call.arguments or "{}"))
            result = troupe.call(name, arguments)
            items.append(adapters.openai_tool_message(call.call_id, result, api="responses"))
    raise RuntimeError(f"no answer after {MAX_TURNS} turns")


def main(argv: list[str]) -> int:
    import openai

    with Troupe(load_config(argv[0])) as troupe:
        troupe.wait_ready(timeout=30)
        print(run(troupe, openai.OpenAI(), argv[1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
