"""The bundled demo MCP server: stdlib only, stdio, with misbehaviour flags for fault-injection tests.

Start it with ``command(*flags)`` (or ``python -m mcp_troupe.demo --help`` for the flags); the server itself
lives in ``mcp_troupe.demo.server``, whose docstring documents every flag.
"""

from __future__ import annotations

import sys

from mcp_troupe.demo.server import (
    CRASH_EXIT_CODE,
    GARBAGE_LINE,
    SERVER_NAME,
    SERVER_VERSION,
    START_GARBAGE_LINES,
    SUPPORTED_PROTOCOL_VERSIONS,
    main,
)

__all__ = [
    "CRASH_EXIT_CODE",
    "GARBAGE_LINE",
    "SERVER_NAME",
    "SERVER_VERSION",
    "START_GARBAGE_LINES",
    "SUPPORTED_PROTOCOL_VERSIONS",
    "command",
    "main",
]


def command(*flags: str) -> list[str]:
    """Return the argv that starts the demo server with this interpreter and the given flags."""
    return [sys.executable, "-m", "mcp_troupe.demo", *flags]
