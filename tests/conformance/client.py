"""The mcp-troupe client that the official MCP conformance suite drives: ``client.py <server-url>``.

``conformance client --command "python tests/conformance/client.py" --scenario NAME`` starts a mock server
for the scenario, runs this script with the server's URL appended as its last argument and the scenario's
name in ``MCP_CONFORMANCE_SCENARIO``, then judges what its mock server saw. The script connects through the
public API only, lists the tools, calls the tool the scenario expects (see :data:`SCENARIOS`), and exits 0
when everything went as the scenario's server promises, 1 otherwise with the reason on stderr.

The expectations come from the scenario definitions of ``@modelcontextprotocol/conformance`` 0.1.16
(``src/scenarios/client/*.ts``): the mock servers are fixed, so their answers are known in advance.
"""

from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass, field
from typing import Any

from mcp_troupe import ReconnectPolicy, ServerState, Troupe, TroupeConfig, TroupeError
from mcp_troupe.config import ServerConfig

SERVER = "conformance"
CONNECT_TIMEOUT = 10.0
CALL_TIMEOUT = 15.0
"""Seconds, well inside the suite's own 30 s limit for the whole client run."""


@dataclass(frozen=True)
class ExpectedCall:
    """A tool the scenario's server offers, the arguments to call it with, and the text it answers."""

    tool: str
    arguments: dict[str, Any] = field(default_factory=dict)
    text: str = ""


SCENARIOS: dict[str, ExpectedCall | None] = {
    # Handshake only: the server checks protocolVersion and clientInfo, and lists no tools.
    "initialize": None,
    # A stateless Streamable HTTP server (official TypeScript SDK) whose one tool records that it was called.
    "tools_call": ExpectedCall("add_numbers", {"a": 5, "b": 3}, "The sum of 5 and 3 is 8"),
    # The server ends the POST's SSE stream after a priming event (`id`, `retry: 500`) without the response;
    # the client must wait `retry` ms, resume with GET and Last-Event-ID, and read the response there
    # (SEP-1699).
    "sse-retry": ExpectedCall("test_reconnection", {}, "Reconnection test completed successfully"),
}


def main(argv: list[str]) -> int:
    """Run the scenario named in ``MCP_CONFORMANCE_SCENARIO`` against the server URL in ``argv[-1]``."""
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s %(message)s")
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    if len(argv) < 2:
        return _fail("usage: client.py <server-url> (the suite appends the URL)")
    if scenario not in SCENARIOS:
        return _fail(f"unknown scenario {scenario!r}; this client knows {sorted(SCENARIOS)}")
    url, expected = argv[-1], SCENARIOS[scenario]

    config = TroupeConfig(
        servers={
            SERVER: ServerConfig(name=SERVER, url=url, connect_timeout=CONNECT_TIMEOUT, timeout=CALL_TIMEOUT)
        },
        network_policy="allow",
        # One connect, no retry: the suite judges a single run, and a retry would only hide the first failure.
        reconnect=ReconnectPolicy(max_attempts=0),
    )
    with Troupe(config) as troupe:
        if not troupe.wait_ready(timeout=CONNECT_TIMEOUT + 5):
            return _fail(f"{SERVER} did not settle within {CONNECT_TIMEOUT + 5:.0f} s")
        (status,) = troupe.status()
        if status.state is not ServerState.READY:
            return _fail(f"{SERVER} is {status.state}: {status.last_error}")
        tools = {spec.original_name: spec.name for spec in troupe.tools()}
        print(f"{scenario}: ready ({status.protocol_version}), tools {sorted(tools)}", file=sys.stderr)
        if expected is None:
            return 0
        if expected.tool not in tools:
            return _fail(f"the server lists no tool {expected.tool!r}; it lists {sorted(tools)}")
        try:
            result = troupe.call(tools[expected.tool], expected.arguments)
        except TroupeError as exc:
            return _fail(f"calling {expected.tool} failed: {exc!r}")
        print(f"{scenario}: {expected.tool} answered {result.text!r}", file=sys.stderr)
        if result.is_error or result.text != expected.text:
            return _fail(f"{expected.tool} answered {result.text!r} (is_error={result.is_error})")
    return 0


def _fail(reason: str) -> int:
    print(f"conformance client: {reason}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
