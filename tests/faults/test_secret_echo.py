"""Servers that echo our secrets back (issue 15): none of it reaches an error text, a status or a log.

An HTTP error page that prints the request headers, a JSON-RPC error that quotes them, a 401 page, a
connect-time failure; a stdio server that prints its environment to stderr. Each runs for real (the
scripted HTTP server of ``test_http_edges`` on 127.0.0.1, a stdio child), with logging captured at DEBUG.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import Any

import pytest
from tests.faults.test_http_edges import Exchange, FakeMcp, ScriptedServer, Seen, http_troupe, ready

from mcp_troupe import (
    HttpError,
    ReconnectPolicy,
    RemoteError,
    ServerState,
    Troupe,
    TroupeConfig,
    stdio_server,
)
from mcp_troupe.policy.redaction import REDACTED

pytestmark = [pytest.mark.faults, pytest.mark.timeout(30)]

TOKEN = "tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0"
API_KEY = "key-1234567890abcdef-XYZ"
HEADERS = {"Authorization": f"Bearer {TOKEN}", "X-Api-Key": API_KEY}
SECRETS = (TOKEN, API_KEY)
FAST_NO_RETRY = ReconnectPolicy(initial_delay=0.05, max_delay=0.1, max_attempts=0)


def dump_headers(seen: Seen) -> str:
    return "\n".join(f"{name}: {value}" for name, value in seen.headers.items())


async def html_echo(mcp: FakeMcp, seen: Seen, exchange: Exchange, message: dict[str, Any]) -> None:
    page = f"<html><body><h1>500 Internal Error</h1><pre>{dump_headers(seen)}</pre></body></html>"
    await exchange.reply(500, page.encode(), content_type="text/html")


async def json_rpc_echo(mcp: FakeMcp, seen: Seen, exchange: Exchange, message: dict[str, Any]) -> None:
    error = {"code": -32000, "message": f"bad request; you sent {json.dumps(seen.headers)}"}
    body = json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": error}).encode()
    await exchange.reply(400, body, content_type="application/json")


async def cut_echo(mcp: FakeMcp, seen: Seen, exchange: Exchange, message: dict[str, Any]) -> None:
    # The token straddles the 300-character excerpt limit: a redactor that ran after the cut would miss it.
    page = "x" * (300 - 40) + " " + seen.headers["authorization"]
    await exchange.reply(502, page.encode(), content_type="text/plain")


async def wrong_type_echo(mcp: FakeMcp, seen: Seen, exchange: Exchange, message: dict[str, Any]) -> None:
    await exchange.reply(200, dump_headers(seen).encode(), content_type="text/plain")


def assert_no_secret(*texts: str) -> None:
    for text in texts:
        for secret in SECRETS:
            assert secret not in text, f"a secret leaked into: {text[:400]!r}"


@pytest.mark.parametrize("script", [html_echo, json_rpc_echo, cut_echo, wrong_type_echo])
def test_an_error_answer_echoing_our_headers_is_redacted_in_the_error_and_the_logs(
    script: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="mcp_troupe")
    mcp = FakeMcp(tools={"boom": script})
    with ScriptedServer(mcp) as server, http_troupe(server.url, headers=HEADERS) as troupe:
        ready(troupe)
        # A JSON-RPC error body is the server's answer (RemoteError); any other error page an HttpError.
        with pytest.raises((HttpError, RemoteError)) as caught:
            troupe.call("mcp__edge__boom", {})
        # The server did see the token (the attack is real), and it echoed it.
        assert server.requests(rpc_method="tools/call")[0].headers["authorization"] == f"Bearer {TOKEN}"
        error = caught.value
        if isinstance(error, HttpError):
            assert REDACTED in str(error) or not error.body_excerpt
            assert_no_secret(str(error), error.body_excerpt, error.reason, repr(error))
        else:
            assert REDACTED in str(error)
            assert_no_secret(str(error), error.remote_message, repr(error))
    assert_no_secret(caplog.text)


def test_a_connect_failure_echoing_headers_is_redacted_in_the_status(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="mcp_troupe")

    async def always_500(seen: Seen, exchange: Exchange) -> None:
        await exchange.reply(500, dump_headers(seen).encode(), content_type="text/html")

    with ScriptedServer(always_500) as server, http_troupe(server.url, headers=HEADERS) as troupe:
        assert troupe.wait_ready(10)
        (status,) = troupe.status()
        assert status.state is ServerState.FAILED
        assert status.last_error and REDACTED in status.last_error
        assert_no_secret(status.last_error or "", repr(status), *status.stderr_tail)
    assert_no_secret(caplog.text)


ENV_DUMPER = """
import os, sys
for key, value in sorted(os.environ.items()):
    print(f"{key}={value}", file=sys.stderr)
sys.exit(3)
"""


def test_a_stdio_server_printing_its_environment_leaves_no_secret_in_the_stderr_tail(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="mcp_troupe")
    env = {"SERVICE_TOKEN": TOKEN, "OPAQUE": API_KEY, "MODE": "production"}
    server = stdio_server("dump", sys.executable, "-c", ENV_DUMPER, env=env, connect_timeout=5)
    config = TroupeConfig(servers={"dump": server}, reconnect=FAST_NO_RETRY)
    with Troupe(config) as troupe:
        assert troupe.wait_ready(10)
        (status,) = troupe.status()
        tail = "\n".join(status.stderr_tail)
        assert "MODE=production" in tail  # not a secret: shown as it is
        assert f"SERVICE_TOKEN={REDACTED}" in tail and f"OPAQUE={REDACTED}" in tail
        assert_no_secret(tail, status.last_error or "")
    assert_no_secret(caplog.text)
