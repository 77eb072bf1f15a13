"""The stdio loop that the small scripted fault servers share (standard library only).

Each server script names its tools and what a call does; this module reads newline-delimited JSON-RPC from
stdin and answers ``initialize`` (echoing the version asked for), ``tools/list`` and ``tools/call``, and
``-32601`` for anything else. Scripts run as ``python path/to/script.py``, so their folder is on ``sys.path``
and ``import _mini`` finds this file.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

ToolsFn = Callable[[], list[dict[str, object]]]
# A call handler gets the tool's name and returns whether to send notifications/tools/list_changed after the
# answer (it may block forever, like a server that stops reading).
CallFn = Callable[[str], bool]


def send(message: dict[str, object]) -> None:
    """Write one frame to stdout."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def serve(server_name: str, tools: ToolsFn, on_call: CallFn, *, list_changed: bool = True) -> None:
    """Answer requests from stdin until it closes."""
    capabilities: dict[str, object] = {"tools": {"listChanged": True} if list_changed else {}}
    for line in sys.stdin:
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue
        notify = False
        if method == "initialize":
            result: dict[str, object] = {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": capabilities,
                "serverInfo": {"name": server_name, "version": "1"},
            }
        elif method == "tools/list":
            result = {"tools": tools()}
        elif method == "tools/call":
            name = message["params"]["name"]
            notify = on_call(name)
            result = {"content": [{"type": "text", "text": f"{name} ran"}]}
        else:
            error = {"code": -32601, "message": f"Method not found: {method}"}
            send({"jsonrpc": "2.0", "id": request_id, "error": error})
            continue
        send({"jsonrpc": "2.0", "id": request_id, "result": result})
        if notify:
            send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
