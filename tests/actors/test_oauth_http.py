"""OAuth end to end: ``troupe login`` → stored credentials → a ``Troupe`` whose HTTP requests carry the token.

The authorization server is the local one of ``tests/unit/test_oauth_flow_local.py`` (127.0.0.1 only); its
``/mcp`` route is replaced here by a scripted MCP server that requires the bearer token: ``echo`` needs the
``read`` scope, ``write`` needs ``write`` too (a 403 ``insufficient_scope`` otherwise). The user agent is
fake: it follows the authorization URL with ``http.client`` (which logs nothing) and, for ``troupe login``,
lands on the real loopback listener.

Every test checks that no token, code, verifier or secret the servers ever issued reached a log record, the
troupe's ``status()`` or the CLI's JSON.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from mcp_troupe import ReconnectPolicy, ServerConfig, ServerState, Troupe, TroupeConfig
from mcp_troupe.actors import oauth as oauth_actor
from mcp_troupe.actors.oauth import InteractiveLogin, login, set_interactive_login
from mcp_troupe.config import OAuthConfig
from mcp_troupe.credentials import CredentialStore
from mcp_troupe.errors import NeedsLogin
from tests.unit.test_oauth_flow_local import LocalAuthServer, approve_in_browser, browser_get

pytestmark = pytest.mark.timeout(60)

NAME = "remote"
WAIT = 20.0
REDIRECT = "http://127.0.0.1:9/callback"  # the in-process fake user agent never goes there


# ---- the protected MCP server ----------------------------------------------------------------------------


class ProtectedMcpServer(LocalAuthServer):
    """The local authorization server, whose ``/mcp`` is an MCP server that requires its bearer tokens."""

    def __init__(self) -> None:
        super().__init__()
        self.mcp_calls: list[tuple[str, str | None]] = []  # (JSON-RPC method, the token it carried)
        self.mcp_targets: list[str] = []
        self.unauthorized = 0
        self.call_arrived = threading.Condition()

    def handle(
        self, method: str, target: str, headers: Mapping[str, str], body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        if urlsplit(target).path != "/mcp":
            return super().handle(method, target, headers, body)
        if method != "POST":
            return 405, {}, b""
        message = json.loads(body)
        authorization = headers.get("Authorization", "")
        token = authorization[len("Bearer ") :] if authorization.startswith("Bearer ") else None
        with self._lock:
            self.mcp_targets.append(target)
            self.mcp_calls.append((message.get("method", ""), token))
            scopes = self.access.get(token or "")
            if scopes is None:
                self.unauthorized += 1
                challenge = self._challenge(scope=self.challenge_scope or "read")
                return self._json(401, {"error": "invalid_token"}, {"WWW-Authenticate": challenge})
            is_write = message.get("method") == "tools/call" and message["params"]["name"] == "write"
            if is_write and "write" not in scopes:
                challenge = self._challenge(error="insufficient_scope", scope="read write")
                return self._json(403, {"error": "insufficient_scope"}, {"WWW-Authenticate": challenge})
        if "id" not in message:
            return 202, {}, b""
        return self._json(200, {"jsonrpc": "2.0", "id": message["id"], "result": self._answer(message)})

    def _answer(self, message: dict[str, Any]) -> dict[str, Any]:
        method = message["method"]
        if method == "initialize":
            return {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "protected", "version": "1"},
            }
        if method == "tools/list":
            schema = {"type": "object", "properties": {"text": {"type": "string"}}}
            return {
                "tools": [
                    {"name": "echo", "description": "Echo.", "inputSchema": schema},
                    {"name": "write", "description": "Write.", "inputSchema": schema},
                ]
            }
        if method == "tools/call":
            text = message["params"].get("arguments", {}).get("text", "")
            return {"content": [{"type": "text", "text": f"{message['params']['name']}: {text}"}]}
        return {}

    def tokens_sent(self) -> list[str | None]:
        with self._lock:
            return [token for _method, token in self.mcp_calls]


@pytest.fixture
def server(caplog: pytest.LogCaptureFixture) -> Iterator[ProtectedMcpServer]:
    caplog.set_level(logging.DEBUG)
    protected = ProtectedMcpServer()
    protected.start()
    try:
        yield protected
    finally:
        protected.stop()
    leaked = protected.leaks([record.getMessage() for record in caplog.records])
    assert leaked == [], "a secret reached the logs"
    assert all("access_token" not in target for target in protected.mcp_targets)


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CredentialStore:
    """The default store of this process (what the troupe's OAuthFlow opens), under ``tmp_path``."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("MCP_TROUPE_CREDENTIALS_KEY", raising=False)
    return CredentialStore()


@pytest.fixture
def fake_browser(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``open_browser`` replaced by a user agent that approves and follows the redirect to the listener."""
    opened: list[str] = []

    def approve(url: str, *, server: str = "") -> bool:
        opened.append(server)
        status, location = browser_get(url)
        assert status == 302, status
        browser_get(location)  # the loopback listener's callback
        return True

    monkeypatch.setattr(oauth_actor, "open_browser", approve)
    return opened


@pytest.fixture
def in_process_login() -> Iterator[None]:
    """A process that can ask its user: step-ups run an authorization in-process (the fake agent approves)."""
    set_interactive_login(InteractiveLogin(REDIRECT, approve_in_browser))
    try:
        yield
    finally:
        set_interactive_login(None)


def server_config(server: LocalAuthServer) -> ServerConfig:
    return ServerConfig(
        name=NAME, url=server.server_url, auth="oauth", oauth=OAuthConfig(), connect_timeout=15
    )


def troupe_config(server: LocalAuthServer) -> TroupeConfig:
    return TroupeConfig(
        servers={NAME: server_config(server)},
        approval_mode="auto",  # approval has its own tests (tests/faults/test_policy.py)
        network_policy="allow",
        reconnect=ReconnectPolicy(initial_delay=0.05, max_delay=0.2, max_attempts=0),
    )


def do_login(server: LocalAuthServer, store: CredentialStore) -> None:
    output = io.StringIO()

    async def bounded() -> None:
        await asyncio.wait_for(
            login(server_config(server), store=store, input_stream=io.StringIO(), output=output), WAIT
        )

    asyncio.run(bounded())


@contextlib.contextmanager
def running(server: LocalAuthServer) -> Iterator[Troupe]:
    with Troupe(troupe_config(server)) as troupe:
        assert troupe.wait_ready(timeout=WAIT)
        yield troupe


def tool(troupe: Troupe, original: str) -> str:
    (name,) = [spec.name for spec in troupe.tools() if spec.original_name == original]
    return name


def status_of(troupe: Troupe) -> Any:
    (status,) = troupe.status()
    return status


def wait_for(predicate: Any, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.02)


def assert_no_secret(server: LocalAuthServer, *documents: object) -> None:
    assert server.leaks([repr(document) for document in documents]) == []


# ---- the tests ---------------------------------------------------------------------------------------


def test_login_stores_credentials_and_the_troupe_connects_with_them(
    server: ProtectedMcpServer, store: CredentialStore, fake_browser: list[str]
) -> None:
    do_login(server, store)
    assert server.unauthorized == 1  # the login's probe, for the server's challenge
    probes = len(server.mcp_calls)

    assert fake_browser == [NAME]
    assert store.describe(NAME)["state"] == "valid"
    with running(server) as troupe:
        status = status_of(troupe)
        assert status.state is ServerState.READY
        result = troupe.call(tool(troupe, "echo"), {"text": "hi"})
        assert result.text == "echo: hi"
        wait_for(lambda: (status_of(troupe).auth or {}).get("state") == "valid")
        auth = status_of(troupe).auth
        assert auth["issuer"] == server.issuer and "read" in auth["scopes"] and auth["expires_at"]
        assert_no_secret(server, troupe.status())
    # Every request carried the token: not one 401 (the stored token was used without discovery).
    assert server.unauthorized == 1
    assert None not in server.tokens_sent()[probes:]


def test_a_stale_token_is_refreshed_before_the_first_request(
    server: ProtectedMcpServer, store: CredentialStore, fake_browser: list[str]
) -> None:
    do_login(server, store)
    entry = store.load_latest(NAME)
    assert entry is not None and entry.state.tokens is not None
    stale = entry.state.tokens
    # Past its expiry on our side (the server would still take it): the client must refresh first.
    store.save(NAME, _with_tokens(entry.state, expires_at=time.time() - 5))

    with running(server) as troupe:
        assert status_of(troupe).state is ServerState.READY
        assert troupe.call(tool(troupe, "echo"), {"text": "x"}).text == "echo: x"

    assert server.grants.count("refresh_token") == 1
    assert stale.access_token not in server.tokens_sent()
    assert server.unauthorized == 1  # the login's probe only


def test_a_401_mid_session_renews_once_for_five_concurrent_calls(
    server: ProtectedMcpServer, store: CredentialStore, fake_browser: list[str]
) -> None:
    do_login(server, store)
    with running(server) as troupe:
        echo = tool(troupe, "echo")
        assert troupe.call(echo, {"text": "before"}).text == "echo: before"
        with server._lock:
            server.access.clear()  # every token revoked: the next requests meet 401

        async def five() -> list[str]:
            results = await asyncio.gather(*(troupe.acall(echo, {"text": str(i)}) for i in range(5)))
            return [result.text for result in results]

        texts = asyncio.run(asyncio.wait_for(five(), WAIT))

        assert sorted(texts) == [f"echo: {i}" for i in range(5)]
        assert server.grants.count("refresh_token") == 1
        assert status_of(troupe).state is ServerState.READY
        assert_no_secret(server, troupe.status())


def test_a_403_insufficient_scope_steps_up_and_retries_the_call(
    server: ProtectedMcpServer, store: CredentialStore, fake_browser: list[str], in_process_login: None
) -> None:
    do_login(server, store)
    with running(server) as troupe:
        result = troupe.call(tool(troupe, "write"), {"text": "w"})

        assert result.text == "write: w"
        assert server.grants.count("authorization_code") == 2  # the login, then the step-up
        wait_for(lambda: "write" in (status_of(troupe).auth or {}).get("scopes", []))
    stored = store.load_latest(NAME)
    assert stored is not None and stored.state.tokens is not None
    assert {"read", "write"} <= set(stored.state.tokens.scope)


def test_a_step_up_without_anyone_to_ask_fails_that_call_only(
    server: ProtectedMcpServer, store: CredentialStore, fake_browser: list[str]
) -> None:
    do_login(server, store)
    with running(server) as troupe:
        with pytest.raises(NeedsLogin):
            troupe.call(tool(troupe, "write"), {"text": "w"})

        assert troupe.call(tool(troupe, "echo"), {"text": "still"}).text == "echo: still"
        assert status_of(troupe).state is ServerState.READY


def test_without_credentials_the_server_needs_login_then_login_and_restart_connect(
    server: ProtectedMcpServer, store: CredentialStore, fake_browser: list[str]
) -> None:
    started = time.monotonic()
    with running(server) as troupe:
        status = status_of(troupe)
        assert status.state is ServerState.NEEDS_LOGIN
        assert "troupe login remote" in (status.last_error or "")
        assert time.monotonic() - started < 10  # settled at once: no backoff, no waiting for a browser
        assert fake_browser == []
        wait_for(lambda: (status_of(troupe).auth or {}).get("state") == "needs_login")

        do_login(server, store)
        troupe.restart(NAME)
        assert troupe.wait_ready(timeout=WAIT)
        wait_for(lambda: status_of(troupe).state is ServerState.READY)
        assert troupe.call(tool(troupe, "echo"), {"text": "in"}).text == "echo: in"
        assert_no_secret(server, troupe.status())


def test_with_an_in_process_login_the_first_401_runs_discovery_and_authorization(
    server: ProtectedMcpServer, store: CredentialStore, in_process_login: None
) -> None:
    with running(server) as troupe:
        assert status_of(troupe).state is ServerState.READY
        assert troupe.call(tool(troupe, "echo"), {"text": "a"}).text == "echo: a"

    assert server.unauthorized == 1  # initialize without a token, then never again
    assert store.describe(NAME)["state"] == "valid"


def _with_tokens(state: Any, **changes: Any) -> Any:
    import dataclasses

    return dataclasses.replace(state, tokens=dataclasses.replace(state.tokens, **changes))


# ---- the commands ------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _restore_troupe_logger() -> Iterator[None]:
    """``cli.main`` configures the ``mcp_troupe`` logger (level, stderr handler): undo it for later tests."""
    logger = logging.getLogger("mcp_troupe")
    level, handlers = logger.level, list(logger.handlers)
    yield
    logger.setLevel(level)
    logger.handlers[:] = handlers


def write_config(tmp_path: Path, server: LocalAuthServer) -> str:
    path = tmp_path / "troupe.yaml"
    path.write_text(
        "execution:\n  networkPolicy: allow\n"
        "tools:\n  mcp:\n    reconnect: {max_attempts: 0}\n"
        f"  mcp_servers:\n    {NAME}:\n      url: {server.server_url}\n      auth: oauth\n",
        encoding="utf-8",
    )
    return str(path)


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    from mcp_troupe.cli import main

    capsys.readouterr()
    code = main([*argv, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else None


def test_troupe_login_status_and_logout(
    server: ProtectedMcpServer,
    store: CredentialStore,
    fake_browser: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = write_config(tmp_path, server)

    code, logged_in = cli_json(capsys, "login", NAME, "-c", config)
    assert code == 0 and logged_in["auth"]["state"] == "valid"
    code, status = cli_json(capsys, "status", "-c", config, "--wait", "15")
    (remote,) = status["servers"]
    assert remote["state"] == "ready" and remote["auth"]["state"] == "valid"
    assert "read" in remote["auth"]["scopes"]
    assert_no_secret(server, logged_in, status)

    code, logged_out = cli_json(capsys, "logout", NAME)
    assert code == 0 and logged_out["deleted"] == 1
    code, status = cli_json(capsys, "status", "-c", config, "--wait", "15")
    (remote,) = status["servers"]
    assert remote["state"] == "needs_login" and remote["auth"]["state"] == "needs_login"


class _PastingUser(io.StringIO):
    """Standard input of a user without a browser here: reads the URL, approves, pastes the address."""

    def __init__(self, terminal: io.StringIO) -> None:
        super().__init__()
        self.terminal = terminal

    def readline(self, size: int | None = -1) -> str:
        (url,) = [word for word in self.terminal.getvalue().split() if "/authorize?" in word]
        status, location = browser_get(url)
        assert status == 302
        return location + "\n"


def test_troupe_login_without_a_browser_reads_the_pasted_address(
    server: ProtectedMcpServer,
    store: CredentialStore,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from mcp_troupe.cli import main

    config = write_config(tmp_path, server)
    terminal = io.StringIO()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setattr("sys.stdin", _PastingUser(terminal))

    assert main(["login", NAME, "-c", config, "--no-browser"]) == 0

    assert "logged in to remote: valid until" in capsys.readouterr().out
    assert store.describe(NAME)["state"] == "valid"
    assert_no_secret(server, terminal.getvalue().replace(_printed_url(terminal), ""))


def _printed_url(terminal: io.StringIO) -> str:
    (url,) = [word for word in terminal.getvalue().split() if "/authorize?" in word]
    return url
