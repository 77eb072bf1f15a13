"""A FastMCP 4.x server (the ``fastmcp`` package, built on ``mcp`` 2.x), over stdio or Streamable HTTP.

Run it as::

    python tests/interop/servers/fastmcp_server.py                       # stdio
    python tests/interop/servers/fastmcp_server.py --http [--json] [--stateless] [--port N]

Over HTTP it binds 127.0.0.1, prints the port on the first line of stdout and serves ``/mcp`` (FastMCP's
``http_app``) until SIGTERM, or until stdin closes with ``--exit-on-stdin-eof``. FastMCP serves both protocol
eras the way the SDK underneath it does, so an era-aware client lands on 2026-07-28.

The catalog mirrors ``servers/sdk_eras.py``: ``add``, ``forecast`` (object structured output), ``slow``
(progress), ``route`` (``region`` carries ``x-mcp-header: Region``), ``confirm`` (FastMCP's guard pattern on
2026-07-28: it returns an ``InputRequiredResult`` and reads ``ctx.input_responses`` on the retry; before that
``ctx.elicit``, an ``elicitation/create`` request), ``add_tool`` (announces the new tool to a legacy session
with ``notifications/tools/list_changed``; FastMCP 4.2.3 does not serve ``subscriptions/listen``), ``whoami``,
``fail``, the resource ``resource://eras/readme``, the template ``resource://eras/greeting/{name}`` and the
prompt ``review``. The server name is ``fastmcp``.
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
from typing import Annotated, Any

import anyio
import mcp_types
from fastmcp import Context, FastMCP
from fastmcp.exceptions import ToolError
from pydantic import BaseModel, Field

CONFIRM_KEY = "confirm"
"""The key of ``confirm``'s one input request (MRTR); the retry's ``inputResponses`` answer under it."""


class Forecast(BaseModel):
    """A made-up weather forecast: the shape of ``forecast``'s structured output."""

    city: str
    days: int
    highs: list[int]
    summary: str


class Approval(BaseModel):
    """What ``confirm`` asks the user."""

    confirm: bool = Field(description="Go ahead?")


APPROVAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"confirm": {"type": "boolean", "description": "Go ahead?"}},
    "required": ["confirm"],
}

server = FastMCP("fastmcp", instructions="mcp-troupe interop server on FastMCP 4.x.")


@server.tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool
def forecast(city: str, days: int = 3) -> Forecast:
    """A fixed forecast for a city, as structured output."""
    highs = [20 + (len(city) + day) % 7 for day in range(days)]
    return Forecast(city=city, days=days, highs=highs, summary=f"{days} days in {city}")


@server.tool
async def slow(seconds: float, ctx: Context, steps: int = 4) -> str:
    """Sleep ``seconds`` in ``steps`` steps, reporting progress after each."""
    for step in range(1, steps + 1):
        await anyio.sleep(seconds / steps)
        await ctx.report_progress(step, steps, f"step {step} of {steps}")
    return f"slept {seconds}s in {steps} steps"


@server.tool
def route(
    region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})], query: str, ctx: Context
) -> str:
    """Answer ``query`` for ``region``; ``region`` is mirrored into the ``Mcp-Param-Region`` header."""
    request = ctx.request_context.request if ctx.request_context is not None else None
    headers = getattr(request, "headers", None)
    seen = headers.get("mcp-param-region", "-") if headers is not None else "-"
    return f"region={region} query={query} header={seen}"


@server.tool
async def confirm(action: str, ctx: Context) -> Any:
    """Ask the user to confirm ``action`` (MRTR on 2026-07-28, elicitation/create before)."""
    message = f"Really {action}?"
    if _is_modern(ctx):
        answers = ctx.input_responses
        if answers is None or CONFIRM_KEY not in answers:
            params = mcp_types.ElicitRequestFormParams(message=message, requested_schema=APPROVAL_SCHEMA)
            return mcp_types.InputRequiredResult(
                input_requests={CONFIRM_KEY: mcp_types.ElicitRequest(params=params)}
            )
        answer = answers[CONFIRM_KEY]
        content = getattr(answer, "content", None) or {}
        yes = getattr(answer, "action", None) == "accept" and content.get("confirm") is True
        return f"{'confirmed' if yes else 'not confirmed'} {action}"
    outcome = await ctx.elicit(message, Approval)
    yes = outcome.action == "accept" and outcome.data.confirm
    return f"{'confirmed' if yes else 'not confirmed'} {action}"


@server.tool
async def add_tool(name: str, ctx: Context) -> str:
    """Register a tool called ``name`` and announce the new tool list in both eras."""

    def added() -> str:
        return f"{name} ok"

    server.tool(added, name=name, description=f"Added at run time by add_tool({name!r}).")
    if not _is_modern(ctx):
        # FastMCP sends nothing by itself. On 2026-07-28 a list change belongs on subscriptions/listen (which
        # FastMCP 4.2.3 does not serve), not on this call's stream, so only a legacy session is told.
        await ctx.send_notification(mcp_types.ToolListChangedNotification())
    return f"added {name}"


def _is_modern(ctx: Context) -> bool:
    return ctx.request_context is not None and ctx.request_context.protocol_version == "2026-07-28"


@server.tool
def whoami(ctx: Context) -> str:
    """The protocol version the server used for this request."""
    return ctx.request_context.protocol_version if ctx.request_context is not None else "unknown"


@server.tool
def fail() -> str:
    """Always fail, as an isError result."""
    raise ToolError("fail was called, and it failed as asked")


@server.resource("resource://eras/readme", name="readme", mime_type="text/plain")
def readme() -> str:
    """A fixed text resource."""
    return "mcp-troupe interop: the FastMCP 4.x server."


@server.resource("resource://eras/greeting/{name}", name="greeting", mime_type="text/plain")
def greeting(name: str) -> str:
    """A greeting for the name in the URI."""
    return f"Hello, {name}, from FastMCP."


@server.prompt
def review(code: str) -> str:
    """Ask for a review of a piece of code."""
    return f"Please review this code:\n\n{code}"


def serve_http(*, json_response: bool, stateless: bool, port: int, eof: bool) -> None:
    """Serve ``/mcp`` over Streamable HTTP on 127.0.0.1; print the port first."""
    import uvicorn

    app = server.http_app(path="/mcp", json_response=json_response, stateless_http=stateless)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    print(sock.getsockname()[1], flush=True)
    uvicorn_server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
    )
    if eof:
        threading.Thread(target=_exit_on_stdin_eof, args=(uvicorn_server,), daemon=True).start()
    uvicorn_server.run(sockets=[sock])


def _exit_on_stdin_eof(uvicorn_server: Any) -> None:
    while sys.stdin.buffer.read(4096):
        pass
    uvicorn_server.should_exit = True


def main(argv: list[str]) -> None:
    """Parse the command line and serve."""
    parser = argparse.ArgumentParser(description="The FastMCP 4.x interop server.")
    parser.add_argument("--http", action="store_true", help="Streamable HTTP on 127.0.0.1 (default: stdio)")
    parser.add_argument("--json", action="store_true", help="HTTP: answer with application/json, not SSE")
    parser.add_argument("--stateless", action="store_true", help="HTTP: no legacy sessions (stateless_http)")
    parser.add_argument("--port", type=int, default=0, help="HTTP: the port (default: a free one)")
    parser.add_argument("--exit-on-stdin-eof", action="store_true", help="HTTP: stop when stdin closes")
    args = parser.parse_args(argv)
    if args.http:
        serve_http(
            json_response=args.json, stateless=args.stateless, port=args.port, eof=args.exit_on_stdin_eof
        )
    else:
        server.run("stdio", show_banner=False)


if __name__ == "__main__":
    main(sys.argv[1:])
