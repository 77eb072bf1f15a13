"""A hostile stdio MCP server that stops reading its stdin after the handshake (standard library only).

It answers the legacy handshake and ``tools/list`` (one tool, ``upload``), then, on the first ``tools/call``,
never reads another byte: the client's writes pile up in the pipe and then in the client. It exits when
killed (the client's stop escalates to SIGKILL).
"""

from __future__ import annotations

import time

import _mini


def tools() -> list[dict[str, object]]:
    return [{"name": "upload", "description": "Upload a blob.", "inputSchema": {"type": "object"}}]


def on_call(name: str) -> bool:
    while True:  # stop reading: stdin fills up
        time.sleep(3600)


if __name__ == "__main__":
    _mini.serve("stuck-reader", tools, on_call, list_changed=False)
