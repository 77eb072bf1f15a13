"""A minimal, fast MCP server over Streamable HTTP, standard library only (raw asyncio), for benchmarks.

Run it as ``python benchmarks/echo_http_server.py [--sse] [--tools N] [--page-size K] [--ports N]
[--dual-era]``. It
listens on 127.0.0.1 on a port the system picks and prints ``PORT <n>`` as its first line of stdout (with
``--ports N``: N ports, each one server, and ``PORTS <n1> <n2> ...``). The endpoint is
``/mcp``; the tools and answers are those of ``echo_server.py`` (it imports them), so only the transport
differs. It does as little as an HTTP server can, so that the client's cost dominates:

- HTTP/1.1 with keep-alive, bodies with ``Content-Length`` (no chunked requests: no benchmark client sends
  them);
- stateful: ``initialize`` creates a session and answers its id in ``Mcp-Session-Id``; any other POST must
  carry a known id, else 404 (spec: 2025-06-18 transports, session management); ``DELETE`` ends it;
- a POST holding a request is answered 200 with the response as ``application/json``, or with ``--sse`` as
  a ``text/event-stream`` holding one ``message`` event; a POST holding only notifications or responses is
  answered 202 with no body; ``GET`` (the optional server stream) is 405;
- with ``--dual-era`` a POST whose ``MCP-Protocol-Version`` is 2026-07-28 is a modern request: it needs no
  session (spec: 2026-07-28 transports, the stateless Streamable HTTP) and is answered as
  ``echo_server.py --dual-era`` answers it; every other POST is handled as above.

It runs until killed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import echo_server

MAX_BODY = 16 * 1024 * 1024


class EchoHttp:
    """The HTTP side: parse requests off a stream, answer them with ``echo_server``'s answers."""

    def __init__(self, sse: bool) -> None:
        self.sse = sse
        self.sessions: set[str] = set()

    async def serve_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                lines = head.decode("latin-1").split("\r\n")
                method, _, _ = lines[0].partition(" ")
                headers: dict[str, str] = {}
                for line in lines[1:]:
                    if line:
                        key, _, value = line.partition(":")
                        headers[key.strip().lower()] = value.strip()
                length = int(headers.get("content-length", "0") or 0)
                if length > MAX_BODY:
                    writer.write(_reply(413, b"", close=True))
                    return
                body = await reader.readexactly(length) if length else b""
                writer.write(self.respond(method, headers, body))
                if headers.get("connection", "").lower() == "close":
                    await writer.drain()
                    return
                if writer.transport.get_write_buffer_size() > 1 << 20:
                    await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            return
        finally:
            writer.close()

    def respond(self, method: str, headers: dict[str, str], body: bytes) -> bytes:
        """Return the whole HTTP response to one request."""
        session = headers.get("mcp-session-id")
        if method == "DELETE":
            self.sessions.discard(session or "")
            return _reply(200, b"")
        if method != "POST":
            return _reply(405, b"", extra=b"Allow: POST, DELETE\r\n")
        try:
            message = json.loads(body)
        except ValueError:
            return _reply(400, b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}')
        if not isinstance(message, dict):
            return _reply(400, b'{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no batches"}}')
        extra = b""
        if echo_server.DUAL_ERA and headers.get("mcp-protocol-version") == echo_server.MODERN_VERSION:
            pass  # modern: no session, and the header's version is the one its _meta names (not checked)
        elif message.get("method") == "initialize":
            session = secrets.token_hex(16)
            self.sessions.add(session)
            extra = b"Mcp-Session-Id: " + session.encode() + b"\r\n"
        elif session not in self.sessions:
            return _reply(404, b"")
        if "id" not in message or "method" not in message:
            return _reply(202, b"", extra=extra)  # a notification (or a response): accepted
        answer = echo_server.answer(message)
        if self.sse:
            return _reply(200, b"event: message\ndata: " + answer + b"\n\n", "text/event-stream", extra)
        return _reply(200, answer, "application/json", extra)


_REASONS = {200: "OK", 202: "Accepted", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed"}


def _reply(
    status: int, body: bytes, content_type: str = "application/json", extra: bytes = b"", close: bool = False
) -> bytes:
    head = f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}\r\nContent-Length: {len(body)}\r\n"
    if body:
        head += f"Content-Type: {content_type}\r\n"
    if close:
        head += "Connection: close\r\n"
    return head.encode() + extra + b"\r\n" + body


def _listener() -> socket.socket:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY on accepted sockets only when the listener's proto
    # says TCP, and without it Nagle's algorithm meets delayed ACKs (40 ms a response written in two parts).
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    return listener


async def serve(sse: bool, ports: int = 0) -> None:
    """Serve one endpoint (``PORT <n>``), or with ``ports`` that many, each an MCP server of its own on a
    port of its own (``PORTS <n1> <n2> ...``): many servers, one process, for the gateway figure."""
    listeners = [_listener() for _ in range(max(ports, 1))]
    app = EchoHttp(sse)
    servers = [
        await asyncio.start_server(app.serve_connection, sock=listener, backlog=1024)
        for listener in listeners
    ]
    numbers = " ".join(str(listener.getsockname()[1]) for listener in listeners)
    print(f"PORTS {numbers}" if ports else f"PORT {numbers}", flush=True)
    await asyncio.gather(*(server.serve_forever() for server in servers))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sse", action="store_true", help="answer requests as SSE streams")
    parser.add_argument("--tools", type=int, default=1, help="how many tools (the first is echo)")
    parser.add_argument("--page-size", type=int, default=100, help="tools per tools/list page")
    parser.add_argument("--ports", type=int, default=0, help="serve this many endpoints, one port each")
    parser.add_argument("--dual-era", action="store_true", help="also speak 2026-07-28 (stateless)")
    args = parser.parse_args(argv)
    echo_server.CATALOG = echo_server.Catalog(args.tools, args.page_size)
    echo_server.DUAL_ERA = args.dual_era
    asyncio.run(serve(args.sse, args.ports))


if __name__ == "__main__":
    main()
