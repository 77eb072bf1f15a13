"""The official SDK's own server (``MCPServer``, FastMCP in 1.x) with one ``echo`` tool, for benchmarks.

Run it as ``python benchmarks/sdk_server.py stdio`` or ``python benchmarks/sdk_server.py http [--json]``.
Over HTTP it serves Streamable HTTP at ``/mcp`` on 127.0.0.1, on a port the system picks, and prints
``PORT <n>`` as its first line of stdout once it listens. ``--json`` makes it answer POSTs with JSON
bodies (``json_response=True``); without it every answer is an SSE stream. Sessions are stateful.

This is the server a user of the SDK would write: the figures measured against it include the SDK's own
server-side cost (1-2 ms a call, about 1 s of imports per spawn), the same for every client.
"""

from __future__ import annotations

import argparse
import socket
import sys

from mcp.server.mcpserver import MCPServer


def build() -> MCPServer:
    """The server: one tool, ``echo``, that returns its ``text`` argument."""
    server = MCPServer("bench-sdk", version="1.0.0", log_level="WARNING")

    @server.tool(description="Return the text unchanged.")
    def echo(text: str) -> str:
        return text

    return server


def serve_http(server: MCPServer, json_response: bool) -> None:
    """Listen on 127.0.0.1 (a free port), say which, and serve until killed."""
    import anyio
    import uvicorn

    app = server.streamable_http_app(json_response=json_response, host="127.0.0.1")
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY on accepted sockets only when the listener's proto
    # says TCP, and without it Nagle's algorithm meets delayed ACKs (40 ms a response written in two parts).
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1024)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    uvicorn_server = uvicorn.Server(config)
    print(f"PORT {listener.getsockname()[1]}", flush=True)
    anyio.run(lambda: uvicorn_server.serve(sockets=[listener]))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("transport", choices=("stdio", "http"))
    parser.add_argument("--json", action="store_true", help="HTTP: JSON responses instead of SSE")
    args = parser.parse_args(argv)
    server = build()
    if args.transport == "stdio":
        server.run("stdio")
    else:
        serve_http(server, args.json)


if __name__ == "__main__":
    sys.exit(main())
