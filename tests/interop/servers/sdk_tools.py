"""A high-level server from the official MCP Python SDK (``MCPServer``, FastMCP's 2.x name), over stdio.

Run it as ``python tests/interop/servers/sdk_tools.py``. Its tools cover the shapes a client must handle:

- ``add(a, b) -> int``: a plain result; the SDK also sends ``structuredContent`` ``{"result": a + b}`` and an
  ``outputSchema``, because the return type is annotated. Its definition has a ``title``, two ``icons`` (one
  with a ``javascript:`` source a client must not show) and a ``_meta`` naming an MCP Apps UI resource.
- ``echo(text) -> str`` and ``greet(name="world") -> str``: text, with a required and an optional argument.
- ``fail()``: raises ``ToolError``, so the SDK answers a ``CallToolResult`` with ``isError: true`` and the
  message as its text (not a JSON-RPC error). Any other exception would also give ``isError``, but the SDK
  hides its message (``Error executing tool fail``) and logs a traceback.
- ``slow(seconds) -> str``: sleeps first, for timeouts and cancellation.

It also serves one resource (``resource://troupe/readme``), one resource template
(``resource://troupe/greeting/{name}``) and one prompt (``review``) for the issues that cover resources and
prompts.
"""

from __future__ import annotations

import asyncio

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import Icon

server = MCPServer("sdk-tools", version="1.0.0", instructions="Interop test server for mcp-troupe.")


@server.tool(
    title="Add two numbers",
    icons=[
        Icon(src="https://example.com/icons/add.png", mime_type="image/png", sizes=["48x48"]),
        Icon(src="javascript:alert(1)"),  # not a scheme a client may show: dropped
    ],
    meta={"ui": {"resourceUri": "ui://troupe/add"}},
)
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


@server.tool()
def greet(name: str = "world") -> str:
    """Greet someone, the world by default."""
    return f"Hello, {name}!"


@server.tool()
def fail() -> str:
    """Always fail; the SDK turns the exception into a result with isError set."""
    raise ToolError("fail was called, and it failed as asked")


@server.tool()
async def slow(seconds: float) -> str:
    """Sleep for the given number of seconds, then answer."""
    await asyncio.sleep(seconds)
    return f"slept {seconds}s"


@server.resource("resource://troupe/readme", name="readme", mime_type="text/plain")
def readme() -> str:
    """A fixed text resource."""
    return "mcp-troupe interop: this text comes from an SDK resource."


@server.resource("resource://troupe/greeting/{name}", name="greeting", mime_type="text/plain")
def greeting(name: str) -> str:
    """A greeting for the name in the URI."""
    return f"Hello, {name}, from an SDK resource template."


@server.prompt()
def review(code: str) -> str:
    """Ask for a review of a piece of code."""
    return f"Please review this code:\n\n{code}"


if __name__ == "__main__":
    server.run("stdio")
