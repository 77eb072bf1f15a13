"""A hostile stdio MCP server that stops reading its stdin after the handshake (standard library only).

It answers the legacy handshake and ``tools/list`` (one tool, ``upload``), then, on the first ``tools/call``,
never reads another byte: the client's writes pile up in the pipe and then in the client. It exits when
killed (the client's stop escalates to SIGKILL).
"""

from __future__ import annotations

import json
import sys
import time


def reply(request_id: object, result: object = None, error: object = None) -> None:
    message: dict[str, object] = {"jsonrpc": "2.0", "id": request_id}
    if error is not None:
        message["error"] = error
    else:
        message["result"] = result
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue
        if method == "initialize":
            reply(
                request_id,
                {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "stuck-reader", "version": "1"},
                },
            )
        elif method == "tools/list":
            tool = {"name": "upload", "description": "Upload a blob.", "inputSchema": {"type": "object"}}
            reply(request_id, {"tools": [tool]})
        elif method == "tools/call":
            while True:  # stop reading: stdin fills up
                time.sleep(3600)
        else:
            reply(request_id, error={"code": -32601, "message": f"Method not found: {method}"})


if __name__ == "__main__":
    main()
