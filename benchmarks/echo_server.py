"""A minimal, fast MCP server over stdio, standard library only, for benchmarking clients.

Run it as ``python benchmarks/echo_server.py [--tools N] [--page-size K] [--dual-era]``. Its first tool is
``echo``, whose result is the text of its ``text`` argument. ``--tools N`` (N > 1) adds ``relist``, which
answers and then sends ``notifications/tools/list_changed`` (so a full discovery can be timed without a
spawn), and ``tool_00002`` .. up to N tools in all (each with a description and a small input schema, so a
listing is shaped like a real one), served ``--page-size`` at a time with ``nextCursor`` (the offset of the
next page, as a string). It does as little as a server can, so that what a benchmark measures is the client:

- one request per line, answered in arrival order, one line each, flushed at once (many requests may be in
  flight; they simply queue in the pipe);
- ``initialize`` answers the version the client asked for when it knows it, else its newest;
- notifications are ignored; unknown methods (``server/discover`` among them) get ``-32601``, so the SDK's
  ``mode="auto"`` probe falls back to the handshake;
- with ``--dual-era`` it also speaks 2026-07-28 (spec: basic/versioning, dual-era servers): it answers
  ``server/discover``, and a request whose ``_meta`` names that version gets its result with
  ``resultType: "complete"``; everything else is answered as before. The modern-vs-legacy figure
  (``bench_eras``) calls this one server in both eras, so only the client's era differs;
- every ``tools/list`` page is encoded once, at start-up; answering one splices in the request id.

:func:`answer` is shared with ``echo_http_server.py``, which serves the same tools over Streamable HTTP.

It exits when stdin closes.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

KNOWN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_VERSION = "2026-07-28"
PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion"
DUAL_ERA = False
CACHEABLE = ("server/discover", "tools/list")
CACHE_HINT = {"ttlMs": 300_000, "cacheScope": "private"}
"""Whether ``server/discover`` and modern requests are answered (``--dual-era``); set once at start-up."""
ECHO_TOOL = {
    "name": "echo",
    "description": "Return the text unchanged.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}


RELIST_TOOL = {
    "name": "relist",
    "description": "Answer, then announce notifications/tools/list_changed (clients list the tools again).",
    "inputSchema": {"type": "object", "properties": {}},
}
LIST_CHANGED = b'{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}'


def make_tools(count: int) -> list[dict[str, Any]]:
    """Return ``count`` tools: ``echo``, ``relist`` (when ``count`` > 1), then ones shaped like real tools."""
    tools = [ECHO_TOOL, RELIST_TOOL][:count]
    for index in range(2, count):
        tools.append(
            {
                "name": f"tool_{index:05d}",
                "description": f"Benchmark tool number {index}: returns nothing useful, quickly.",
                "inputSchema": {
                    "type": "object",
                    "properties": {"path": {"type": "string", "description": "Where to look."}},
                    "required": ["path"],
                },
            }
        )
    return tools


class Catalog:
    """The tool listing, cut into pages that are JSON-encoded once (as ``result`` bodies)."""

    def __init__(self, count: int = 1, page_size: int = 100) -> None:
        tools = make_tools(max(1, count))
        size = max(1, page_size)
        self.pages: dict[str | None, bytes] = {}
        for start in range(0, len(tools), size):
            page: dict[str, Any] = {"tools": tools[start : start + size]}
            if start + size < len(tools):
                page["nextCursor"] = str(start + size)
            self.pages[str(start) if start else None] = json.dumps(page, separators=(",", ":")).encode()

    def answer(self, message: dict[str, Any]) -> bytes | None:
        """Return the encoded response to a ``tools/list`` request, or None for an unknown cursor."""
        cursor = (message.get("params") or {}).get("cursor")
        page = self.pages.get(cursor)
        if page is None:
            return None
        request_id = json.dumps(message["id"]).encode()
        return b'{"jsonrpc":"2.0","id":' + request_id + b',"result":' + page + b"}"


CATALOG = Catalog()


def is_modern(message: dict[str, Any]) -> bool:
    """Whether ``message`` is a 2026-07-28 request this server answers as one (``--dual-era`` only)."""
    if not DUAL_ERA:
        return False
    meta = (message.get("params") or {}).get("_meta")
    return isinstance(meta, dict) and meta.get(PROTOCOL_VERSION_META) == MODERN_VERSION


def answer(message: dict[str, Any]) -> bytes:
    """Return the encoded response (no newline) to one request."""
    if message.get("method") == "tools/list" and not is_modern(message):
        encoded = CATALOG.answer(message)
        if encoded is not None:
            return encoded
        return json.dumps(error(message, -32602, "invalid cursor"), separators=(",", ":")).encode()
    return json.dumps(handle(message), separators=(",", ":")).encode()


def handle(message: dict[str, Any]) -> dict[str, Any]:
    """Return the response to one request (``tools/list`` answers the first page only)."""
    response = handle_legacy(message)
    if is_modern(message) and "result" in response:
        result = response["result"]
        # spec: 2026-07-28 basic/index — every result carries resultType ("complete" here: no MRTR).
        result["resultType"] = "complete"
        if message.get("method") in CACHEABLE:
            # spec: 2026-07-28 server/utilities/caching — list (and discover) results say how long they
            # keep; the listing never changes on its own, so five minutes, for this client only.
            result.update(CACHE_HINT)
    return response


def handle_legacy(message: dict[str, Any]) -> dict[str, Any]:
    """The response of the handshake era, which the modern one extends (see :func:`handle`)."""
    method = message.get("method")
    params = message.get("params") or {}
    if method == "tools/call":
        if params.get("name") == "relist":
            return {"jsonrpc": "2.0", "id": message["id"], "result": {"content": []}}
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
            "capabilities": {"tools": {"listChanged": True}},
            "serverInfo": {"name": "bench-echo", "version": "1.0.0"},
        }
        return {"jsonrpc": "2.0", "id": message["id"], "result": result}
    if method == "tools/list":
        cursor = params.get("cursor")
        page = CATALOG.pages.get(cursor) if isinstance(cursor, str) or cursor is None else None
        if page is None:
            return error(message, -32602, "invalid cursor")
        return {"jsonrpc": "2.0", "id": message["id"], "result": json.loads(page)}
    if method == "server/discover" and is_modern(message):
        result = {
            "supportedVersions": [MODERN_VERSION, *reversed(KNOWN_VERSIONS)],
            "capabilities": {"tools": {"listChanged": True}},
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "bench-echo", "version": "1.0.0"}},
        }
        return {"jsonrpc": "2.0", "id": message["id"], "result": result}
    if method == "ping":
        return {"jsonrpc": "2.0", "id": message["id"], "result": {}}
    return error(message, -32601, f"Method not found: {method}")


def error(message: dict[str, Any], code: int, text: str) -> dict[str, Any]:
    """Build a JSON-RPC error response to ``message``."""
    return {"jsonrpc": "2.0", "id": message.get("id"), "error": {"code": code, "message": text}}


def main(argv: list[str] | None = None) -> None:
    """Answer requests on stdin until it closes."""
    global CATALOG, DUAL_ERA
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1, help="how many tools (the first is echo)")
    parser.add_argument("--page-size", type=int, default=100, help="tools per tools/list page")
    parser.add_argument("--dual-era", action="store_true", help="also speak 2026-07-28 (server/discover)")
    args = parser.parse_args(argv)
    CATALOG = Catalog(args.tools, args.page_size)
    DUAL_ERA = args.dual_era
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
        if message.get("method") == "tools/call":  # the hot path: no detour
            write(dumps(handle(message), separators=(",", ":")).encode() + b"\n")
            if (message.get("params") or {}).get("name") == "relist":
                write(LIST_CHANGED + b"\n")
        else:
            write(answer(message) + b"\n")
        flush()


if __name__ == "__main__":
    main()
