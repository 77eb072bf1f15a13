"""A stdio MCP server that answers ``initialize`` with whatever protocol version it is told to.

Run it as ``python tests/interop/servers/sdk_version.py --version 2025-03-26`` (or ``2024-11-05``,
``2025-06-18``, ``2099-01-01``, any string). It serves one tool, ``ping_tool``, which answers ``"pong"``.

Despite its name this is NOT built on the official SDK: it is a minimal raw JSON-RPC script, standard
library only. The SDK's server (mcp 2.3.0) refuses to answer an arbitrary version:
``ServerRunner._negotiate_initialize`` answers the client's requested version when it is one the SDK knows,
and otherwise counter-offers its own latest (``requested if requested in HANDSHAKE_PROTOCOL_VERSIONS else
LATEST_HANDSHAKE_VERSION``). So it never answers ``2099-01-01``, and never an older revision than the client
asked for. Rewriting the answer in an SDK middleware would leave the SDK's connection state on the client's
version while the wire says another, which is a worse imitation of an old server than this script.

It answers requests in arrival order, one line each, and ignores notifications. It exits when stdin closes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

PING_TOOL = {
    "name": "ping_tool",
    "description": "Answer pong.",
    "inputSchema": {"type": "object", "properties": {}},
}


def answer(message: Any, version: str) -> dict[str, Any] | None:
    """Return the response to one JSON-RPC message, or ``None`` for a notification."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" or "method" not in message:
        return error(message.get("id") if isinstance(message, dict) else None, -32600, "Invalid Request")
    if "id" not in message:
        return None
    request_id = message["id"]
    method = message["method"]
    params = message.get("params") or {}
    if method == "initialize":
        return result(
            request_id,
            {
                "protocolVersion": version,
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "sdk-version", "version": "1.0.0"},
            },
        )
    if method == "ping":
        return result(request_id, {})
    if method == "tools/list":
        return result(request_id, {"tools": [PING_TOOL]})
    if method == "tools/call":
        if params.get("name") != "ping_tool":
            return error(request_id, -32602, f"unknown tool {params.get('name')!r}")
        return result(request_id, {"content": [{"type": "text", "text": "pong"}], "isError": False})
    return error(request_id, -32601, f"Method not found: {method}")


def result(request_id: Any, value: dict[str, Any]) -> dict[str, Any]:
    """Build a JSON-RPC success response."""
    return {"jsonrpc": "2.0", "id": request_id, "result": value}


def error(request_id: Any, code: int, message: str) -> dict[str, Any]:
    """Build a JSON-RPC error response."""
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def serve(version: str) -> None:
    """Answer newline-delimited JSON-RPC on stdin until it closes."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    # The pid goes to stderr so a test can find this process from the client's stderr tail, even after the
    # client has dropped the connection and forgotten the pid.
    print(f"sdk_version: pid {os.getpid()} answers initialize with {version}", file=sys.stderr, flush=True)
    while line := stdin.readline():
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            reply: Any = error(None, -32700, "Parse error")
        else:
            if isinstance(message, list):
                # A JSON-RPC batch (2025-03-26 allows them): one array of the responses, none if all were
                # notifications. spec: JSON-RPC 2.0 §6.
                replies = [r for r in (answer(m, version) for m in message) if r is not None]
                reply = replies or (error(None, -32600, "Invalid Request") if not message else None)
            else:
                reply = answer(message, version)
        if reply is not None:
            stdout.write(json.dumps(reply).encode() + b"\n")
            stdout.flush()


def main() -> None:
    """Parse the command line and serve."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", required=True, help="the protocolVersion to answer initialize with")
    serve(parser.parse_args().version)


if __name__ == "__main__":
    main()
