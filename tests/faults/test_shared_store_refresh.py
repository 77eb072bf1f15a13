"""Two processes, one credential store, one rotating refresh token: only one of them may spend it.

The local authorization server of ``tests/actors/test_oauth_http.py`` rotates refresh tokens and answers a
spent one with ``invalid_grant`` (as RFC 9700 §4.14.2 has servers do). After a login, two agent processes
connect with the stored tokens; then every access token is revoked and both are told to call at once. Both
meet a 401 together and both want to renew: the store's file lock must let exactly one refresh happen, and
the other process must pick up the token the first one saved instead of spending the old refresh token —
which would fail, and a non-interactive agent would then be stuck at ``needs_login``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.actors.test_oauth_http import NAME, ProtectedMcpServer, do_login, fake_browser, server, store
from tests.interop.npm import ROOT

from mcp_troupe.credentials import CredentialStore

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.timeout(180)]

__all__ = ["fake_browser", "server", "store"]  # fixtures, used by name

AGENT = """
import json, sys
from mcp_troupe import ReconnectPolicy, ServerConfig, Troupe, TroupeConfig
from mcp_troupe.config import OAuthConfig

name, url = sys.argv[1], sys.argv[2]
config = TroupeConfig(
    servers={name: ServerConfig(name=name, url=url, auth="oauth", oauth=OAuthConfig(), connect_timeout=60)},
    approval_mode="auto",
    network_policy="allow",
    reconnect=ReconnectPolicy(max_attempts=0),
)
with Troupe(config) as troupe:
    troupe.wait_ready(timeout=90)
    (tool,) = [spec.name for spec in troupe.tools() if spec.original_name == "echo"]
    print("ready", flush=True)
    sys.stdin.readline()
    try:
        text = troupe.call(tool, {"text": "hi"}, timeout=60).text
    except Exception as error:  # reported to the test, which fails with it
        text = f"failed: {error}"
    (status,) = troupe.status()
    print(json.dumps({"text": text, "auth": status.auth}), flush=True)
"""


@pytest.fixture
def agents(server: ProtectedMcpServer) -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    try:
        for _ in range(2):
            started.append(
                subprocess.Popen(
                    [sys.executable, "-c", AGENT, NAME, server.server_url],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                    cwd=ROOT,
                    env=dict(os.environ),  # the store's XDG directories, set by the `store` fixture
                )
            )
        yield started
    finally:
        for agent in started:
            agent.kill()
            agent.wait(10)


def test_two_processes_never_both_spend_a_rotating_refresh_token(
    server: ProtectedMcpServer,
    store: CredentialStore,
    fake_browser: list[str],
    agents: list[subprocess.Popen[str]],
    tmp_path: Path,
) -> None:
    do_login(server, store)
    for agent in agents:
        assert agent.stdout is not None
        assert agent.stdout.readline().strip() == "ready"
    refreshes_before = server.grants.count("refresh_token")
    with server._lock:
        server.access.clear()  # every access token revoked: both agents' next calls meet a 401

    for agent in agents:
        assert agent.stdin is not None
        agent.stdin.write("go\n")
        agent.stdin.flush()
    reports = []
    for agent in agents:
        assert agent.stdout is not None
        reports.append(json.loads(agent.stdout.readline()))

    assert [report["text"] for report in reports] == ["echo: hi", "echo: hi"], reports
    assert server.grants.count("refresh_token") - refreshes_before == 1  # one process refreshed
    assert "authorization_code" not in server.grants[1:]  # nobody fell back to a new login
    assert all(report["auth"]["needs_login"] is False for report in reports)
