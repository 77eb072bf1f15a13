"""An agent loop on the Gemini API (``google-genai``) over every ready MCP tool of a troupe.

    GEMINI_API_KEY=... python examples/gemini_agent.py troupe.yaml "Echo 'hello'."

Automatic function calling is turned off: the troupe calls the tools, so approval and policy apply. The
tests run :func:`run` with a scripted stand-in for the model, without network.
"""

from __future__ import annotations

import sys
from typing import Any

from mcp_troupe import Troupe, adapters, load_config

MAX_TURNS = 8


def run(troupe: Troupe, client: Any, prompt: str, *, model: str = "gemini-2.5-flash") -> str:
    """Ask ``prompt``; let the model call tools until it answers in text; return that text."""
    from google.genai import types

    declarations = adapters.gemini_tools(troupe.tools(ready_only=True))
    config = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=list(declarations))],  # type: ignore[arg-type]
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )
    contents: list[Any] = [types.Content(role="user", parts=[types.Part(text=prompt)])]
    for _turn in range(MAX_TURNS):
        response = client.models.generate_content(model=model, contents=contents, config=config)
        calls = response.function_calls or []
        if not calls:
            return str(response.text or "")
        contents.append(response.candidates[0].content)
        parts = []
        for call in calls:
            name = declarations.troupe_name(call.name)
            result = troupe.call(name, declarations.arguments_for(call.name, call.args))
            parts.append(adapters.gemini_function_response(call.name, result, call_id=call.id))
        contents.append(types.Content(role="user", parts=[types.Part.model_validate(p) for p in parts]))
    raise RuntimeError(f"no answer after {MAX_TURNS} turns")


def main(argv: list[str]) -> int:
    from google import genai

    with Troupe(load_config(argv[0])) as troupe:
        troupe.wait_ready(timeout=30)
        print(run(troupe, genai.Client(), argv[1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
