"""An agent loop on the Anthropic Messages API over every ready MCP tool of a troupe.

    ANTHROPIC_API_KEY=... python examples/anthropic_agent.py troupe.yaml "Count the words of 'a b c'."

The tests run :func:`run` with a scripted stand-in for the model, without network.
"""

from __future__ import annotations

import sys
from typing import Any

from mcp_troupe import Troupe, adapters, load_config

MAX_TURNS = 8


def run(troupe: Troupe, client: Any, prompt: str, *, model: str = "claude-sonnet-4-5") -> str:
    """Ask ``prompt``; let the model call tools until it answers in text; return that text."""
    tools = adapters.anthropic_tools(troupe.tools(ready_only=True))
    messages: list[dict[str, Any]] = [{"role": "user", "content": prompt}]
    for _turn in range(MAX_TURNS):
        response = client.messages.create(model=model, max_tokens=1024, messages=messages, tools=list(tools))
        uses = [block for block in response.content if block.type == "tool_use"]
        if not uses:
            return "".join(block.text for block in response.content if block.type == "text")
        messages.append({"role": "assistant", "content": [block.model_dump() for block in response.content]})
        results = []
        for use in uses:
            result = troupe.call(tools.troupe_name(use.name), tools.arguments_for(use.name, use.input))
            results.append(adapters.anthropic_tool_result(use.id, result))
        messages.append({"role": "user", "content": results})
    raise RuntimeError(f"no answer after {MAX_TURNS} turns")


def main(argv: list[str]) -> int:
    import anthropic

    with Troupe(load_config(argv[0])) as troupe:
        troupe.wait_ready(timeout=30)
        print(run(troupe, anthropic.Anthropic(), argv[1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
