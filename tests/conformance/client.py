"""The mcp-troupe client that the official MCP conformance suite drives: ``client.py <server-url>``.

``conformance client --command "python tests/conformance/client.py" --scenario NAME`` starts a mock server
for the scenario, runs this script with the server's URL appended as its last argument and the scenario's
name in ``MCP_CONFORMANCE_SCENARIO``, then judges what its mock server saw. The script connects through the
public API only, lists the tools, calls the tool the scenario expects (see :data:`SCENARIOS`), and exits 0
when everything went as the scenario's server promises, 1 otherwise with the reason on stderr.

The expectations come from the scenario definitions of ``@modelcontextprotocol/conformance`` 0.1.16
(``src/scenarios/client/*.ts``): the mock servers are fixed, so their answers are known in advance.

The ``auth/*`` scenarios put an authorization server in front of the mock server. The server is configured
with ``auth: oauth``; the credential store lives in a fresh temporary directory (nothing is reused between
runs); and the client installs an in-process login (:class:`~mcp_troupe.actors.oauth.InteractiveLogin`)
whose "user" follows the authorization URL itself and reads the code from the redirect's ``Location``, as
the suite's mock authorization server approves every request without a page. What the suite hands over in
``MCP_CONFORMANCE_CONTEXT`` (a pre-registered ``client_id`` / ``client_secret``) becomes ``oauth:`` config.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
import os
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from mcp_troupe import AuthError, ReconnectPolicy, ServerState, Troupe, TroupeConfig, TroupeError
from mcp_troupe.actors.oauth import InteractiveLogin, set_interactive_login
from mcp_troupe.config import OAuthConfig, ServerConfig
from mcp_troupe.protocol.oauth import UserAuthorization

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

# The auth scenarios' mock MCP server (behind its authorization server) offers one tool, `test-tool`.
AUTH_CALL = ExpectedCall("test-tool", {}, "test")
AUTH_SCENARIOS = (
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/metadata-var2",
    "auth/metadata-var3",
    "auth/basic-cimd",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/pre-registration",
    "auth/2025-03-26-oauth-metadata-backcompat",
    "auth/2025-03-26-oauth-endpoint-fallback",
)
SCENARIOS.update(dict.fromkeys(AUTH_SCENARIOS, AUTH_CALL))
CIMD_URL = "https://conformance-test.local/client-metadata.json"
"""The Client ID Metadata Document URL the ``auth/basic-cimd`` scenario expects as ``client_id``."""
REDIRECT_URI = "http://127.0.0.1:9/callback"
"""Registered and sent, never listened on: the redirect's ``Location`` is read without following it."""


def oauth_settings(scenario: str) -> OAuthConfig:
    """What an operator would configure for the scenario's server (the suite's context, a CIMD URL)."""
    context: dict[str, Any] = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    return OAuthConfig(
        client_id=context.get("client_id"),
        client_secret=context.get("client_secret"),
        client_metadata_url=CIMD_URL if scenario == "auth/basic-cimd" else None,
    )


def _authorization_redirect(url: str) -> tuple[int, str]:
    """GET the authorization URL as a browser would, without following the redirect (logs nothing)."""
    parts = urlsplit(url)
    connection_class = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = connection_class(parts.hostname or "", parts.port, timeout=10)
    try:
        connection.request("GET", f"{parts.path}?{parts.query}")
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Location", "")
    finally:
        connection.close()


async def approve(action: UserAuthorization) -> dict[str, str]:
    """The user agent: the mock authorization server approves at once and redirects with the code."""
    status, location = await asyncio.to_thread(_authorization_redirect, action.url)
    if status not in (301, 302, 303, 307, 308) or not location:
        raise AuthError(SERVER, f"the authorization endpoint answered HTTP {status}, not a redirect")
    return dict(parse_qsl(urlsplit(location).query))


def main(argv: list[str]) -> int:
    """Run the scenario named in ``MCP_CONFORMANCE_SCENARIO`` against the server URL in ``argv[-1]``."""
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s %(message)s")
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    if len(argv) < 2:
        return _fail("usage: client.py <server-url> (the suite appends the URL)")
    if scenario not in SCENARIOS:
        return _fail(f"unknown scenario {scenario!r}; this client knows {sorted(SCENARIOS)}")
    url, expected = argv[-1], SCENARIOS[scenario]
    if scenario in AUTH_SCENARIOS:
        with tempfile.TemporaryDirectory(prefix="troupe-conformance-") as home:
            # A fresh credential store per run: the stores and key live under this directory only.
            os.environ["XDG_STATE_HOME"] = os.path.join(home, "state")
            os.environ["XDG_CONFIG_HOME"] = os.path.join(home, "config")
            os.environ.pop("MCP_TROUPE_CREDENTIALS_KEY", None)
            set_interactive_login(InteractiveLogin(REDIRECT_URI, approve))
            server = ServerConfig(
                name=SERVER,
                url=url,
                connect_timeout=CONNECT_TIMEOUT,
                timeout=CALL_TIMEOUT,
                auth="oauth",
                oauth=oauth_settings(scenario),
            )
            return run(scenario, server, expected)
    server = ServerConfig(name=SERVER, url=url, connect_timeout=CONNECT_TIMEOUT, timeout=CALL_TIMEOUT)
    return run(scenario, server, expected)


def run(scenario: str, server: ServerConfig, expected: ExpectedCall | None) -> int:
    """Connect, list the tools, make the scenario's call; 0 when everything went as promised."""
    config = TroupeConfig(
        approval_mode="auto",  # approval has its own tests (tests/faults/test_policy.py)
        servers={SERVER: server},
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
