"""One official-SDK server (``mcp`` 2.3.0, ``MCPServer``) in each protocol-era form, over stdio or HTTP.

Run it as::

    python tests/interop/servers/sdk_eras.py --era modern|dual|legacy                 # stdio
    python tests/interop/servers/sdk_eras.py --era E --http [--json] [--stateless] [--port N]

Over HTTP it binds 127.0.0.1, prints the port on the first line of stdout, and serves ``/mcp`` until SIGTERM
(or, with ``--exit-on-stdin-eof``, until its stdin closes, so a test that dies cannot leave it behind). Over
stdio it serves until stdin reaches EOF.

The three forms (the SDK itself has no era switch: "Both eras are always on", docs/run/legacy-clients.md):

- ``dual``: the SDK's default. stdio runs ``Server.run`` (the dual-era loop: the client's first request picks
  the era); HTTP serves ``streamable_http_app()``, which routes each request by ``MCP-Protocol-Version``.
  The SDK client lands on 2026-07-28; a client that sends ``initialize`` gets up to 2025-11-25.
- ``modern``: answers only 2026-07-28. A server middleware (the SDK's documented way to refuse a message,
  docs/advanced/middleware.md) refuses ``initialize`` with ``-32022`` naming the supported versions (spec
  2026-07-28 versioning: a modern-only server SHOULD name them in any error it returns to ``initialize``).
  On stdio an ``initialize`` is answered before the era is decided, so a client that tried ``initialize``
  first can still probe with ``server/discover`` on the same process. Over HTTP a POST without a modern
  ``MCP-Protocol-Version`` gets ``400`` with that ``-32022`` body, and GET/DELETE get ``405`` (spec
  2026-07-28 streamable-http: what a server supporting only this revision SHOULD do).
- ``legacy``: an old server, up to 2025-11-25. stdio runs the SDK's handshake-only ``serve_loop``;
  ``server/discover`` gets ``-32601`` (Method not found) as from a 2025 server, and so does any request that
  carries the modern ``_meta`` envelope. Over HTTP a POST whose ``MCP-Protocol-Version`` is not a handshake
  version gets ``400`` with a plain ``-32600`` "Unsupported protocol version" body, as the 1.x SDKs sent.
  With ``--ignore-discover`` (stdio) it never answers ``server/discover`` at all, as some old servers drop
  methods they do not know: a client must give up on its probe after a short timeout and fall back.

Every form serves the same catalog:

- ``add(a, b) -> int``: ``structuredContent`` ``{"result": a + b}`` and an ``outputSchema``.
- ``forecast(city, days=3) -> Forecast``: an object ``outputSchema`` and matching ``structuredContent``.
- ``slow(seconds, steps=4)``: sleeps in steps, reporting progress after each.
- ``route(region, query)``: ``region`` carries ``"x-mcp-header": "Region"``; the answer says which
  ``Mcp-Param-Region`` header the server saw (``header=-`` when none: stdio, or a legacy era).
- ``confirm(action)``: asks the user through ``Resolve``/``Elicit``, so a 2026-07-28 client gets
  ``resultType: input_required`` (MRTR) and a legacy one an ``elicitation/create`` request. It answers
  ``confirmed <action>`` or ``not confirmed <action>``.
- ``add_tool(name)``: registers a tool ``name`` (answering ``<name> ok``), then announces the change both
  ways: ``subscriptions/listen`` (2026-07-28) and ``notifications/tools/list_changed`` (legacy sessions).
- ``touch(uri)``: announces that the resource ``uri`` changed, on the ``subscriptions/listen`` streams whose
  filter names it (2026-07-28).
- ``whoami()``: the protocol version the server used for this very request.
- ``fail()``: a ``ToolError``, so a result with ``isError: true``.

plus the resource ``resource://eras/readme``, the templates ``resource://eras/greeting/{name}`` and
``resource://eras/secret/{name}``, and the prompts ``review(code)`` and ``release_notes(version)``. ``secret``
and ``release_notes`` ask like ``confirm`` (MRTR for ``resources/read`` and ``prompts/get`` on 2026-07-28) and
answer ``confirmed reveal <name>`` / ``confirmed release <version>``, or ``not confirmed ...``.
The server name is ``sdk-eras-<era>``.
"""

from __future__ import annotations

import argparse
import functools
import json
import socket
import sys
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Annotated, Any

import anyio
import anyio.abc
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.mcpserver import Context, Elicit, MCPServer, Resolve
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.runner import serve_loop
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from mcp_types import (
    METHOD_NOT_FOUND,
    PROTOCOL_VERSION_META_KEY,
    UNSUPPORTED_PROTOCOL_VERSION,
    ElicitRequest,
    ElicitRequestFormParams,
    ErrorData,
    InputRequiredResult,
    JSONRPCError,
    JSONRPCNotification,
    JSONRPCRequest,
)
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, Field

ERAS = ("modern", "dual", "legacy")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# ---- the catalog -------------------------------------------------------------------------------------------


class Forecast(BaseModel):
    """A made-up weather forecast: the shape of ``forecast``'s structured output."""

    city: str
    days: int
    highs: list[int]
    summary: str


class Approval(BaseModel):
    """What ``confirm`` asks the user."""

    confirm: bool = Field(description="Go ahead?")


def ask_approval(action: str) -> Elicit[Approval]:
    """The resolver ``confirm`` depends on: ask the user whether to do ``action``."""
    return Elicit(f"Really {action}?", Approval)


def build_server(era: str) -> MCPServer:
    """Return the ``MCPServer`` with the catalog above, with the middleware of ``era``."""
    middleware = {"modern": [refuse_initialize], "legacy": [refuse_modern], "dual": []}[era]
    server = MCPServer(
        f"sdk-eras-{era}",
        version="2.3.0-interop",
        instructions=f"mcp-troupe interop server, {era} era form.",
        middleware=middleware,
    )

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    def forecast(city: str, days: int = 3) -> Forecast:
        """A fixed forecast for a city, as structured output."""
        highs = [20 + (len(city) + day) % 7 for day in range(days)]
        return Forecast(city=city, days=days, highs=highs, summary=f"{days} days in {city}")

    @server.tool()
    async def slow(seconds: float, ctx: Context, steps: int = 4) -> str:
        """Sleep ``seconds`` in ``steps`` steps, reporting progress after each."""
        for step in range(1, steps + 1):
            await anyio.sleep(seconds / steps)
            await ctx.report_progress(step, steps, f"step {step} of {steps}")
        return f"slept {seconds}s in {steps} steps"

    @server.tool()
    def route(
        region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})], query: str, ctx: Context
    ) -> str:
        """Answer ``query`` for ``region``; ``region`` is mirrored into the ``Mcp-Param-Region`` header."""
        headers = _request_headers(ctx)
        seen = headers.get("mcp-param-region", "-") if headers else "-"
        return f"region={region} query={query} header={seen}"

    @server.tool()
    def confirm(action: str, approval: Annotated[Approval, Resolve(ask_approval)]) -> str:
        """Ask the user to confirm ``action`` (elicitation: MRTR on 2026-07-28, elicitation/create before)."""
        return f"{'confirmed' if approval.confirm else 'not confirmed'} {action}"

    @server.tool()
    async def add_tool(name: str, ctx: Context) -> str:
        """Register a tool called ``name`` and announce the new tool list in both eras."""

        def added() -> str:
            return f"{name} ok"

        server.add_tool(added, name=name, description=f"Added at run time by add_tool({name!r}).")
        await ctx.notify_tools_changed()  # subscriptions/listen streams (2026-07-28)
        # A legacy session's standalone stream; dropped quietly on a modern connection (legacy-clients.md).
        await ctx.request_context.session.send_tool_list_changed()
        return f"added {name}"

    @server.tool()
    async def touch(uri: str, ctx: Context) -> str:
        """Announce that the resource ``uri`` changed (to listen streams subscribed to it)."""
        await ctx.notify_resource_updated(uri)
        return f"touched {uri}"

    @server.tool()
    def whoami(ctx: Context) -> str:
        """The protocol version the server used for this request."""
        return ctx.request_context.protocol_version

    @server.tool()
    def fail() -> str:
        """Always fail; the SDK turns the exception into a result with isError set."""
        raise ToolError("fail was called, and it failed as asked")

    @server.resource("resource://eras/readme", name="readme", mime_type="text/plain")
    def readme() -> str:
        """A fixed text resource."""
        return f"mcp-troupe interop: the {era} era form of the SDK server."

    @server.resource("resource://eras/greeting/{name}", name="greeting", mime_type="text/plain")
    def greeting(name: str) -> str:
        """A greeting for the name in the URI."""
        return f"Hello, {name}, from the {era} era form."

    @server.prompt()
    def review(code: str) -> str:
        """Ask for a review of a piece of code."""
        return f"Please review this code:\n\n{code}"

    @server.prompt()
    async def release_notes(version: str, ctx: Context) -> Any:
        """Release notes for ``version``, once the user confirms the release (elicits, like ``confirm``)."""
        answer = await ask_in_either_era(ctx, f"Really release {version}?")
        if not isinstance(answer, bool):
            return answer  # the input_required round
        return f"{'confirmed' if answer else 'not confirmed'} release {version}"

    @server.resource("resource://eras/secret/{name}", name="secret", mime_type="text/plain")
    async def secret(name: str, ctx: Context) -> Any:
        """A secret that is read only once the user confirms (elicits, like ``confirm``)."""
        answer = await ask_in_either_era(ctx, f"Really reveal {name}?")
        if not isinstance(answer, bool):
            return answer
        return f"{'confirmed' if answer else 'not confirmed'} reveal {name}"

    # The legacy era's capabilities come from these options; the SDK defaults them to "no listChanged", but
    # add_tool does send notifications/tools/list_changed. (2026-07-28 derives listChanged from whether
    # subscriptions/listen is served, and ignores this.) MCPServer has no public seam for them: pinned SDK.
    lowlevel = server._lowlevel_server
    lowlevel.create_initialization_options = functools.partial(  # type: ignore[method-assign]
        type(lowlevel).create_initialization_options,
        lowlevel,
        NotificationOptions(prompts_changed=True, resources_changed=True, tools_changed=True),
    )
    return server


ASK_KEY = "approval"
"""The key of the one input request that ``release_notes`` and ``secret`` make on 2026-07-28."""


async def ask_in_either_era(ctx: Context, message: str) -> bool | InputRequiredResult:
    """Ask the user ``message`` (a yes/no form): the user's answer, or the round that asks for it.

    ``Resolve`` serves tools only; prompts and resource templates use the SDK's two primitives themselves:
    on 2026-07-28 an ``InputRequiredResult`` (MRTR), answered in the retry's ``inputResponses``; before, a
    live ``elicitation/create`` (``ctx.elicit``).
    """
    if ctx.request_context.protocol_version in MODERN_PROTOCOL_VERSIONS:
        answers = ctx.input_responses
        answer = answers.get(ASK_KEY) if answers is not None else None
        if answer is None:
            params = ElicitRequestFormParams(message=message, requested_schema=Approval.model_json_schema())
            return InputRequiredResult(input_requests={ASK_KEY: ElicitRequest(params=params)})
        content = getattr(answer, "content", None) or {}
        return getattr(answer, "action", None) == "accept" and content.get("confirm") is True
    outcome = await ctx.elicit(message, Approval)
    return outcome.action == "accept" and outcome.data.confirm


def _request_headers(ctx: Context) -> dict[str, str] | None:
    request = ctx.request_context.request
    headers = getattr(request, "headers", None)
    return {key.lower(): value for key, value in headers.items()} if headers is not None else None


# ---- the era gates -----------------------------------------------------------------------------------------


def _unsupported_initialize(params: Any) -> MCPError:
    requested = params.get("protocolVersion") if isinstance(params, dict) else None
    data: dict[str, Any] = {"supported": list(MODERN_PROTOCOL_VERSIONS)}
    if isinstance(requested, str):
        data["requested"] = requested
    return MCPError(
        code=UNSUPPORTED_PROTOCOL_VERSION,
        message=f"this server speaks only {', '.join(MODERN_PROTOCOL_VERSIONS)}; initialize is not accepted",
        data=data,
    )


async def refuse_initialize(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Modern-only: refuse the handshake with -32022 naming the versions served."""
    if ctx.method == "initialize":
        raise _unsupported_initialize(ctx.params)
    return await call_next(ctx)


def _carries_modern_envelope(params: Any) -> bool:
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and PROTOCOL_VERSION_META_KEY in meta


async def refuse_modern(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Legacy-only: answer server/discover and enveloped requests as a 2025 server does (-32601)."""
    if ctx.method == "server/discover" or (
        ctx.request_id is not None and _carries_modern_envelope(ctx.params)
    ):
        raise MCPError(code=METHOD_NOT_FOUND, message="Method not found", data=ctx.method)
    return await call_next(ctx)


# ---- stdio -------------------------------------------------------------------------------------------------


async def serve_stdio(server: MCPServer, era: str, ignore_discover: bool = False) -> None:
    """Serve one client over stdin/stdout until EOF, in the form of ``era``."""
    lowlevel = server._lowlevel_server  # the loops below take the low-level Server (pinned SDK)
    options = lowlevel.create_initialization_options()
    async with stdio_server() as (read_stream, write_stream):
        if era == "dual":
            await lowlevel.run(read_stream, write_stream, options)
        elif era == "legacy":
            # Server.run's docstring: transports that want the handshake era only call serve_loop directly.
            async with lowlevel.lifespan(lowlevel) as state, anyio.create_task_group() as tg:
                if ignore_discover:
                    read_stream = _without_discover(read_stream, tg)
                await serve_loop(
                    lowlevel, read_stream, write_stream, lifespan_state=state, init_options=options
                )
                tg.cancel_scope.cancel()
        else:
            await _serve_modern_only_stdio(lowlevel, read_stream, write_stream, options)


def _without_discover(read_stream: Any, tg: anyio.abc.TaskGroup) -> Any:
    """A copy of ``read_stream`` from which ``server/discover`` requests vanish unanswered."""
    send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)

    async def drop() -> None:
        async with send:
            async for item in read_stream:
                message = item.message if isinstance(item, SessionMessage) else None
                if not (isinstance(message, JSONRPCRequest) and message.method == "server/discover"):
                    await send.send(item)

    tg.start_soon(drop)
    return receive


async def _serve_modern_only_stdio(lowlevel: Any, read_stream: Any, write_stream: Any, options: Any) -> None:
    # The dual-era loop locks a connection to the era of its first request; an `initialize` refused by the
    # middleware would lock it to the handshake era and then refuse the client's server/discover retry. So
    # the handshake is answered here, before the loop sees it, and never picks an era.
    send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)

    async def gate() -> None:
        async with send:
            async for item in read_stream:
                message = item.message if isinstance(item, SessionMessage) else None
                if isinstance(message, JSONRPCRequest) and message.method == "initialize":
                    error = _unsupported_initialize(message.params)
                    reply = JSONRPCError(
                        jsonrpc="2.0",
                        id=message.id,
                        error=ErrorData(code=error.code, message=error.message, data=error.data),
                    )
                    await write_stream.send(SessionMessage(reply))
                elif (
                    isinstance(message, JSONRPCNotification) and message.method == "notifications/initialized"
                ):
                    continue  # the tail of a handshake that was refused
                else:
                    await send.send(item)

    async with anyio.create_task_group() as tg:
        tg.start_soon(gate)
        await lowlevel.run(receive, write_stream, options)
        tg.cancel_scope.cancel()


# ---- HTTP --------------------------------------------------------------------------------------------------


def _header(scope: Scope, name: bytes) -> str | None:
    return next((value.decode("latin-1") for key, value in scope["headers"] if key == name), None)


async def _read_body(receive: Receive, limit: int = 1 << 20) -> bytes:
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if len(body) > limit or not message.get("more_body", False):
            return body


async def _send_json(send: Send, status: int, payload: object) -> None:
    body = json.dumps(payload).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _request_id_and_params(body: bytes) -> tuple[Any, Any]:
    try:
        message = json.loads(body)
    except ValueError:
        return None, None
    if not isinstance(message, dict):
        return None, None
    return message.get("id"), message.get("params")


def modern_only_http(app: ASGIApp) -> ASGIApp:
    """Wrap ``app`` so that only 2026-07-28 requests reach it (spec 2026-07-28 streamable-http)."""

    async def gated(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].rstrip("/") != "/mcp":
            await app(scope, receive, send)
            return
        if scope["method"] in ("GET", "DELETE"):
            await send({"type": "http.response.start", "status": 405, "headers": [(b"allow", b"POST")]})
            await send({"type": "http.response.body", "body": b""})
            return
        version = _header(scope, b"mcp-protocol-version")
        if scope["method"] == "POST" and version not in MODERN_PROTOCOL_VERSIONS:
            request_id, params = _request_id_and_params(await _read_body(receive))
            error = _unsupported_initialize(params)
            if version is not None:
                error.error.data["requested"] = version
            payload = {"jsonrpc": "2.0", "id": request_id, "error": error.error.model_dump(exclude_none=True)}
            await _send_json(send, 400, payload)
            return
        await app(scope, receive, send)

    return gated


def legacy_only_http(app: ASGIApp) -> ASGIApp:
    """Wrap ``app`` so that a modern ``MCP-Protocol-Version`` gets the 400 a 1.x SDK server sent."""

    async def gated(scope: Scope, receive: Receive, send: Send) -> None:
        version = _header(scope, b"mcp-protocol-version") if scope["type"] == "http" else None
        if version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS:
            message = (
                f"Bad Request: Unsupported protocol version: {version}. "
                f"Supported versions: {', '.join(HANDSHAKE_PROTOCOL_VERSIONS)}"
            )
            payload = {"jsonrpc": "2.0", "id": "server-error", "error": {"code": -32600, "message": message}}
            await _send_json(send, 400, payload)
            return
        await app(scope, receive, send)

    return gated


def serve_http(
    server: MCPServer, era: str, *, json_response: bool, stateless: bool, port: int, eof: bool
) -> None:
    """Serve ``/mcp`` over Streamable HTTP on 127.0.0.1; print the port first."""
    import uvicorn

    app: ASGIApp = server.streamable_http_app(json_response=json_response, stateless_http=stateless)
    if era == "modern":
        app = modern_only_http(app)
    elif era == "legacy":
        app = legacy_only_http(app)
    # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY only on sockets that say so (see test_sdk_http.py).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    print(sock.getsockname()[1], flush=True)
    # The Starlette app's lifespan runs the session manager; uvicorn drives it ("on"), and exits on SIGTERM.
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
    parser = argparse.ArgumentParser(description="The SDK server in one protocol-era form.")
    parser.add_argument("--era", choices=ERAS, default="dual", help="modern-only, dual-era or legacy-only")
    parser.add_argument("--http", action="store_true", help="Streamable HTTP on 127.0.0.1 (default: stdio)")
    parser.add_argument("--json", action="store_true", help="HTTP: answer with application/json, not SSE")
    parser.add_argument("--stateless", action="store_true", help="HTTP: no legacy sessions (stateless_http)")
    parser.add_argument("--port", type=int, default=0, help="HTTP: the port (default: a free one)")
    parser.add_argument("--exit-on-stdin-eof", action="store_true", help="HTTP: stop when stdin closes")
    parser.add_argument(
        "--ignore-discover", action="store_true", help="legacy, stdio: never answer server/discover"
    )
    args = parser.parse_args(argv)
    if args.ignore_discover and (args.era != "legacy" or args.http):
        parser.error("--ignore-discover is for --era legacy over stdio")
    server = build_server(args.era)
    if args.http:
        serve_http(
            server,
            args.era,
            json_response=args.json,
            stateless=args.stateless,
            port=args.port,
            eof=args.exit_on_stdin_eof,
        )
    else:
        anyio.run(serve_stdio, server, args.era, args.ignore_discover)


if __name__ == "__main__":
    main(sys.argv[1:])
