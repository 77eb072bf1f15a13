"""A hostile authorization server: absurd token lifetimes, refused renewals, and secrets it tries to echo.

The server is the local one of ``tests/actors/test_oauth_http.py`` (127.0.0.1 only, an MCP server behind
its own authorization server), taught the client credentials and jwt-bearer grants here, and made to send
``expires_in`` as raw JSON literals: ``-5``, ``1e17``, a 400-digit integer, ``NaN``, ``true``, a word. Every
case runs a real troupe (the actors, the HTTP transport, the sealed store) and ``troupe status`` in-process;
none may crash, say "never expires", or put a secret in a log, the status or an error (issue 15, item 4).
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import logging
import math
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote_plus

import pytest
from tests.actors.test_oauth_http import ProtectedMcpServer

from mcp_troupe import ReconnectPolicy, ServerConfig, ServerState, Troupe, TroupeConfig
from mcp_troupe.cli import main as troupe_main
from mcp_troupe.config import OAuthConfig
from mcp_troupe.credentials import CredentialStore
from mcp_troupe.protocol import oauth

pytestmark = [pytest.mark.faults, pytest.mark.timeout(90)]

NAME = "hostile"
CLIENT_ID = "agent-7"
CLIENT_SECRET = "cc-secret-9f8e7d"
WAIT = 20.0


class HostileAuthServer(ProtectedMcpServer):
    """Issues tokens by client credentials or jwt-bearer, with whatever ``expires_in`` literal it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.expires_literal = "3600"
        self.refuse_with: str | None = None
        self.assertions: list[str] = []
        self.secrets_seen.add(CLIENT_SECRET)
        self.auth_methods = ["client_secret_basic"]

    def _token(self, form: dict[str, str], headers: Mapping[str, str]) -> tuple[int, dict[str, str], bytes]:
        grant = form.get("grant_type", "")
        if grant not in ("client_credentials", oauth.JWT_BEARER_GRANT):
            return super()._token(form, headers)
        self.grants.append(grant)
        if grant == "client_credentials":
            basic = headers.get("Authorization", "")
            decoded = base64.b64decode(basic[6:]).decode() if basic.startswith("Basic ") else ":"
            client_id, _, secret = (unquote_plus(part) for part in decoded.partition(":"))
            if (client_id, secret) != (CLIENT_ID, CLIENT_SECRET):
                return self._json(401, {"error": "invalid_client"})
        else:
            self.assertions.append(form.get("assertion", ""))
        if self.refuse_with is not None:
            # A hostile server echoes the client's secret back in its error description.
            return self._json(400, {"error": self.refuse_with, "error_description": f"bad {CLIENT_SECRET}"})
        access = self._secret("AT")
        self.access[access] = {"read", "write"}
        body = f'{{"access_token": "{access}", "token_type": "Bearer", "expires_in": {self.expires_literal}}}'
        return 200, {"Content-Type": "application/json"}, body.encode()


@pytest.fixture
def server(caplog: pytest.LogCaptureFixture) -> Iterator[HostileAuthServer]:
    caplog.set_level(logging.DEBUG)
    hostile = HostileAuthServer()
    hostile.start()
    try:
        yield hostile
    finally:
        hostile.stop()
    leaked = hostile.leaks([record.getMessage() for record in caplog.records])
    assert leaked == [], "a secret reached the logs"


@pytest.fixture(autouse=True)
def cli_logging_restored() -> Iterator[None]:
    """``troupe_main`` configures the ``mcp_troupe`` logger (WARNING, a stderr handler); undo it afterwards,
    so that later tests in this process still see the INFO records they check."""
    logger = logging.getLogger("mcp_troupe")
    level, handlers = logger.level, list(logger.handlers)
    try:
        yield
    finally:
        logger.setLevel(level)
        for handler in list(logger.handlers):
            if handler not in handlers:
                logger.removeHandler(handler)


@pytest.fixture(autouse=True)
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CredentialStore:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("MCP_TROUPE_CREDENTIALS_KEY", raising=False)
    return CredentialStore()


def client_credentials() -> OAuthConfig:
    return OAuthConfig(grant="client_credentials", client_id=CLIENT_ID, client_secret=CLIENT_SECRET)


@contextlib.contextmanager
def running(server: HostileAuthServer, settings: OAuthConfig) -> Iterator[Troupe]:
    config = TroupeConfig(
        servers={
            NAME: ServerConfig(
                name=NAME, url=server.server_url, auth="oauth", oauth=settings, connect_timeout=15
            )
        },
        approval_mode="auto",
        network_policy="allow",
        reconnect=ReconnectPolicy(initial_delay=0.05, max_delay=0.2, max_attempts=0),
    )
    with Troupe(config) as troupe:
        troupe.wait_ready(timeout=WAIT)
        yield troupe


def echo(troupe: Troupe) -> str:
    (name,) = [spec.name for spec in troupe.tools() if spec.original_name == "echo"]
    return troupe.call(name, {"text": "hi"}).text


def troupe_status_json(server: HostileAuthServer, tmp_path: Path, settings: dict[str, Any]) -> dict[str, Any]:
    """``troupe status --json`` in this process, on a config file naming the hostile server."""
    path = tmp_path / "troupe.yaml"
    document = {
        "tools": {
            "mcp": {"reconnect": {"max_attempts": 0}},
            "mcp_servers": {NAME: {"url": server.server_url, "auth": "oauth", "oauth": settings}},
        },
        "execution": {"networkPolicy": "allow"},
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        status = troupe_main(["status", "-c", str(path), "--json", "--wait", str(WAIT)])
    assert status == 0, stdout.getvalue()
    assert CLIENT_SECRET not in stdout.getvalue()
    (entry,) = [item for item in json.loads(stdout.getvalue())["servers"] if item["name"] == NAME]
    return entry


HOSTILE_LIFETIMES = {
    "-5": oauth.MIN_TOKEN_LIFETIME,
    "0": oauth.MIN_TOKEN_LIFETIME,
    "1e17": oauth.MAX_TOKEN_LIFETIME,
    "1" + "0" * 400: oauth.MAX_TOKEN_LIFETIME,
    "1e400": oauth.MAX_TOKEN_LIFETIME,
    "NaN": oauth.MIN_TOKEN_LIFETIME,
    "true": oauth.MIN_TOKEN_LIFETIME,
    '"soon"': oauth.MIN_TOKEN_LIFETIME,
    '"-5"': oauth.MIN_TOKEN_LIFETIME,
}


@pytest.mark.parametrize("literal", list(HOSTILE_LIFETIMES), ids=lambda text: text[:12])
def test_a_hostile_lifetime_is_clamped_and_troupe_status_still_works(
    server: HostileAuthServer, tmp_path: Path, literal: str
) -> None:
    server.expires_literal = literal
    before = time.time()

    with running(server, client_credentials()) as troupe:
        assert echo(troupe) == "echo: hi"
        (status,) = troupe.status()

    assert status.state is ServerState.READY
    assert status.auth is not None
    expires_at = status.auth["expires_at"]
    assert isinstance(expires_at, float) and math.isfinite(expires_at)  # never "never expires"
    lifetime = HOSTILE_LIFETIMES[literal]
    assert before + lifetime - 1 <= expires_at <= time.time() + lifetime + 1
    assert status.auth["grant"] == "client_credentials"

    entry = troupe_status_json(
        server,
        tmp_path,
        {"grant": "client_credentials", "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET},
    )
    assert entry["auth"]["expires_at"] is not None


def test_client_credentials_renew_without_a_human_when_the_token_is_revoked(
    server: HostileAuthServer,
) -> None:
    with running(server, client_credentials()) as troupe:
        assert echo(troupe) == "echo: hi"
        with server._lock:
            server.access.clear()  # every token revoked: the next call meets a 401

        assert echo(troupe) == "echo: hi"
        (status,) = troupe.status()

    assert server.grants.count("client_credentials") == 2
    assert status.auth is not None and status.auth["needs_login"] is False


def test_a_refused_renewal_says_no_login_is_needed_and_never_shows_the_secret(
    server: HostileAuthServer,
) -> None:
    server.refuse_with = "invalid_client"

    with running(server, client_credentials()) as troupe:
        (status,) = troupe.status()

    assert status.state is not ServerState.READY
    assert status.auth is not None
    assert status.auth["needs_login"] is False  # a machine grant needs its credentials fixed, not a login
    assert "invalid_client" in (status.last_error or "")
    assert CLIENT_SECRET not in json.dumps(status.auth) + (status.last_error or "")


def test_a_workload_jwt_file_is_read_again_at_each_renewal(server: HostileAuthServer, tmp_path: Path) -> None:
    jwt_file = tmp_path / "workload.jwt"
    jwt_file.write_text("first.workload.jwt\n", encoding="utf-8")
    settings = OAuthConfig(grant="workload_identity", client_id="wl", assertion_file=str(jwt_file))
    server.auth_methods = ["none"]

    with running(server, settings) as troupe:
        assert echo(troupe) == "echo: hi"
        jwt_file.write_text("second.workload.jwt", encoding="utf-8")  # the platform rotated it
        with server._lock:
            server.access.clear()
        assert echo(troupe) == "echo: hi"

    assert server.assertions == ["first.workload.jwt", "second.workload.jwt"]


def test_a_missing_workload_jwt_file_is_named_in_the_status(
    server: HostileAuthServer, tmp_path: Path
) -> None:
    settings = OAuthConfig(grant="workload_identity", assertion_file=str(tmp_path / "nope.jwt"))

    with running(server, settings) as troupe:
        (status,) = troupe.status()

    assert status.state is not ServerState.READY
    assert "oauth.assertion_file" in (status.last_error or "")
    assert "cannot be read" in (status.last_error or "")


def test_an_absurd_expiry_in_an_old_store_does_not_break_status(
    server: HostileAuthServer, tmp_path: Path
) -> None:
    store = CredentialStore()
    metadata = oauth.AuthServerMetadata.defaults_for(server.base)
    tokens = oauth.Tokens(access_token="AT-old", expires_at=1e17)
    state = oauth.AuthState(
        issuer=server.issuer, resource=server.server_url, metadata=metadata, tokens=tokens
    )
    store.save(NAME, state)

    entry = troupe_status_json(
        server,
        tmp_path,
        {"grant": "client_credentials", "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET},
    )

    # The stored 1e17 reads as expired; the machine grant then simply runs and the server is ready.
    assert entry["state"] == "ready"
    assert entry["auth"]["expires_at"] < time.time() + oauth.MAX_TOKEN_LIFETIME + 1


def test_troupe_login_runs_a_machine_grant_at_once_and_names_it(
    server: HostileAuthServer, tmp_path: Path
) -> None:
    path = tmp_path / "troupe.yaml"
    settings = {"grant": "client_credentials", "client_id": CLIENT_ID, "client_secret": "${CC_SECRET}"}
    document = {
        # A login is network access: troupe login honours the same switch as every other command.
        "execution": {"networkPolicy": "allow"},
        "tools": {"mcp_servers": {NAME: {"url": server.server_url, "auth": "oauth", "oauth": settings}}},
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    stdout = io.StringIO()

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CC_SECRET", CLIENT_SECRET)
        with contextlib.redirect_stdout(stdout):
            status = troupe_main(["login", NAME, "-c", str(path)])

    assert status == 0
    line = stdout.getvalue()
    assert line.startswith(f"logged in to {NAME}: valid until ")
    assert "grant client_credentials" in line
    assert CLIENT_SECRET not in line
    assert server.grants == ["client_credentials"]
    assert CredentialStore().describe(NAME)["state"] == "valid"
