"""A minimal, fast MCP server over stdio, standard library only, for benchmarking clients.

Run it as ``python benchmarks/echo_server.py``. It has one tool, ``echo``, whose result is the text of its
``text`` argument. It does as little as a server can, so that what a benchmark measures is the client:

- one request per line, answered in arrival order, one line each, flushed at once (many requests may be in
  flight; they simply queue in the pipe);
- ``initialize`` answers the version the client asked for when it knows it, else its newest;
- notifications are ignored; unknown methods (``server/discover`` among them) get ``-32601``, so the SDK's
  ``mode="auto"`` probe falls back to the handshake.

It exits when stdin closes.
"""

from __future__ import annotations

import json
import sys
from typing import Any

KNOWN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
ECHO_TOOL = {
    "name": "echo",
    "description": "Return the text unchanged.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}


def handle(message: dict[str, Any]) -> dict[str, Any]:
    """Return the response to one request."""
    method = message.get("method")
    params = message.get("params") or {}
    if method == "tools/call":
        if params.get("name") != "echo":
            return error(message, -32602, f"unknown tool {params.get('name')!r}")
        text = (params.get("arguments") or {}).get("text", "")
        return {
            "jsonrpc": "2.0",
            "id": message["id"],
            "result": {"content": [{"type": "text", "text": text}]},
        }
    if method == "initialize":
        requested = params.get("protocolVersion")
        version = requested if requested in KNOWN_VERSIONS else KNOWN_VERSIONS[-1]
        result = {
            "protocolVersion": version,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "bench-echo", "version": "1.0.0"},
        }
        return {"jsonrpc": "2.0", "id": message["id"], "result": result}
    if method == "tools/list":
        return {"jsonrpc": "2.0", "id": message["id"], "result": {"tools": [ECHO_TOOL]}}
    if method == "ping":
        return {"jsonrpc": "2.0", "id": message["id"], "result": {}}
    return error(message, -32601, f"Method not found: {method}")


def error(message: dict[str, Any], code: int, text: str) -> dict[str, Any]:
    """Build a JSON-RPC error response to ``message``."""
    return {"jsonrpc": "2.0", "id": message.get("id"), "error": {"code": code, "message": text}}


def main() -> None:
    """Answer requests on stdin until it closes."""
    readline, write, flush = sys.stdin.buffer.readline, sys.stdout.buffer.write, sys.stdout.buffer.flush
    dumps, loads = json.dumps, json.loads
    while line := readline():
        try:
            message = loads(line)
        except ValueError:
            write(b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n')
            flush()
            continue
        if not isinstance(message, dict) or "id" not in message:
            continue  # a notification (or a batch, which no benchmark client sends): nothing to answer
        write(dumps(handle(message), separators=(",", ":")).encode() + b"\n")
        flush()


if __name__ == "__main__":
    main()
