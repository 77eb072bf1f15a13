"""OAuth end to end against a local authorization server + protected resource of our own (127.0.0.1 only).

The flows of ``protocol/oauth.py`` run under the real driver (``actors/oauth.drive``) over real HTTP; a fake
user agent follows the authorization URL with httpx and hands back the redirect's parameters (one test lets it
land on a real :class:`LoopbackRedirect`). Every test also checks that no token, code, verifier or client
secret the server ever saw reached a log record.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import http.client
import io
import json
import logging
import secrets
import ssl
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar
from urllib.parse import parse_qsl, unquote_plus, urlencode, urlsplit

import httpx
import pytest

from mcp_troupe.actors.oauth import (
    LoopbackRedirect,
    SharedRefresh,
    drive,
    open_browser,
    read_pasted_redirect,
)
from mcp_troupe.credentials import CredentialStore
from mcp_troupe.errors import (
    AuthError,
    AuthRefused,
    AuthUnreachable,
    InsufficientScope,
    NeedsLogin,
)
from mcp_troupe.protocol.oauth import (
    AuthState,
    ClientSettings,
    Tokens,
    UserAuthorization,
    as_metadata_urls,
    obtain_tokens,
    refresh,
    step_up_scopes,
)

pytestmark = pytest.mark.timeout(30)

T = TypeVar("T")
# One TLS context for every client: building one per client costs ~30 ms, and nothing here uses TLS anyway.
_TLS = ssl.create_default_context()
REDIRECT = "http://127.0.0.1:9/callback"  # the fake user agent never goes there
TIMEOUT = 20.0


# --- the local authorization server and protected resource ---------------------------------------------


@dataclass
class LocalAuthServer:
    """An authorization server and an MCP resource at ``http://127.0.0.1:<port>``, configurable per test."""

    issuer_path: str = ""
    prm_location: str = "path"  # header (only at the challenge's URL) | path | root
    prm_resource: str | None = None
    metadata_location: int = 0  # index into as_metadata_urls(issuer)
    metadata_overrides: dict[str, Any] = field(default_factory=dict)
    iss_supported: bool = True
    dcr: bool = True
    cimd: bool = False
    auth_methods: list[str] = field(
        default_factory=lambda: ["none", "client_secret_basic", "client_secret_post"]
    )
    preregistered: dict[str, tuple[str | None, str]] = field(default_factory=dict)  # id -> (secret, method)
    expires_in: int = 3600
    rotate: bool = True
    required_scopes: set[str] = field(default_factory=set)
    challenge_scope: str | None = "read"
    invalid_client_failures: int = 0
    registered: int = 0

    requests: list[tuple[str, str]] = field(default_factory=list)
    grants: list[str] = field(default_factory=list)
    clients: dict[str, dict[str, Any]] = field(default_factory=dict)
    codes: dict[str, dict[str, Any]] = field(default_factory=dict)
    access: dict[str, set[str]] = field(default_factory=dict)
    refresh_tokens: dict[str, dict[str, Any]] = field(default_factory=dict)
    secrets_seen: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self._dispatch("GET")

            def do_POST(self) -> None:
                self._dispatch("POST")

            def _dispatch(self, method: str) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                status, headers, payload = owner.handle(method, self.path, dict(self.headers.items()), body)
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        # A short poll interval: shutdown() waits for the serving loop to notice, once per interval.
        self._thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)

    # lifecycle

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(10)

    # addresses

    @property
    def issuer(self) -> str:
        return self.base + self.issuer_path

    @property
    def server_url(self) -> str:
        return self.base + "/mcp"

    def prm_url(self) -> str:
        return {
            "header": self.base + "/prm",
            "path": self.base + "/.well-known/oauth-protected-resource/mcp",
            "root": self.base + "/.well-known/oauth-protected-resource",
        }[self.prm_location]

    def metadata(self) -> dict[str, Any]:
        issuer = self.issuer
        document: dict[str, Any] = {
            "issuer": issuer,
            "authorization_endpoint": issuer + "/authorize",
            "token_endpoint": issuer + "/token",
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": self.auth_methods,
            "scopes_supported": ["read", "write", "offline_access"],
            "authorization_response_iss_parameter_supported": self.iss_supported,
            "client_id_metadata_document_supported": self.cimd,
        }
        if self.dcr:
            document["registration_endpoint"] = issuer + "/register"
        document.update(self.metadata_overrides)
        return {key: value for key, value in document.items() if value is not None}

    # bookkeeping

    def _secret(self, prefix: str) -> str:
        value = f"{prefix}-{secrets.token_urlsafe(16)}"
        self.secrets_seen.add(value)
        return value

    def leaks(self, texts: list[str]) -> list[str]:
        return [secret for secret in self.secrets_seen for text in texts if secret in text]

    # HTTP

    def handle(
        self, method: str, target: str, headers: Mapping[str, str], body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        with self._lock:
            parts = urlsplit(target)
            self.requests.append((method, parts.path))
            query = dict(parse_qsl(parts.query))
            path = parts.path
            if method == "GET" and path == urlsplit(self.prm_url()).path:
                return self._json(
                    200,
                    {
                        "resource": self.prm_resource or self.server_url,
                        "authorization_servers": [self.issuer],
                        "scopes_supported": ["read"],
                    },
                )
            if method == "GET" and path == "/redirect-to-prm":
                return 302, {"Location": self.prm_url()}, b""
            if method == "GET" and path == "/redirect-away":
                return 302, {"Location": "http://example.invalid/prm"}, b""
            metadata_url = as_metadata_urls(self.issuer)[self.metadata_location]
            if method == "GET" and target == metadata_url[len(self.base) :]:
                return self._json(200, self.metadata())
            if method == "GET" and path == self.issuer_path + "/authorize":
                return self._authorize(query)
            if method == "POST" and path == self.issuer_path + "/register" and self.dcr:
                return self._register(json.loads(body))
            if method == "POST" and path == self.issuer_path + "/token":
                form = {
                    key: unquote_plus(value)
                    for key, value in parse_qsl(body.decode(), keep_blank_values=True)
                }
                for key in ("code", "code_verifier", "refresh_token", "client_secret"):
                    if form.get(key):
                        self.secrets_seen.add(form[key])
                return self._token(form, headers)
            if method == "POST" and path == "/mcp":
                return self._resource(headers)
            return 404, {}, b"not found"

    def _json(
        self, status: int, document: object, extra: Mapping[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        return status, {"Content-Type": "application/json", **(extra or {})}, json.dumps(document).encode()

    def _challenge(self, **params: str) -> str:
        values = dict(params)
        if self.prm_location == "header":
            values["resource_metadata"] = self.prm_url()
        return "Bearer " + ", ".join(f'{key}="{value}"' for key, value in values.items())

    def _resource(self, headers: Mapping[str, str]) -> tuple[int, dict[str, str], bytes]:
        authorization = headers.get("Authorization", "")
        token = authorization[len("Bearer ") :] if authorization.startswith("Bearer ") else None
        if token is None or token not in self.access:
            params = {"scope": self.challenge_scope} if self.challenge_scope else {}
            return self._json(401, {"error": "unauthorized"}, {"WWW-Authenticate": self._challenge(**params)})
        if not self.required_scopes <= self.access[token]:
            challenge = self._challenge(
                error="insufficient_scope", scope=" ".join(sorted(self.required_scopes))
            )
            return self._json(403, {"error": "forbidden"}, {"WWW-Authenticate": challenge})
        return self._json(200, {"jsonrpc": "2.0", "id": 1, "result": {}})

    def _register(self, document: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        method = document.get("token_endpoint_auth_method", "client_secret_basic")
        self.registered += 1
        client_id = f"dyn-{self.registered}"
        secret = self._secret("CS") if method != "none" else None
        self.clients[client_id] = {
            "secret": secret,
            "method": method,
            "redirect_uris": document["redirect_uris"],
        }
        answer = {**document, "client_id": client_id, "client_id_issued_at": int(time.time())}
        if secret:
            answer["client_secret"] = secret
            answer["client_secret_expires_at"] = 0
        return self._json(201, answer)

    def _client(self, client_id: str) -> dict[str, Any] | None:
        if client_id in self.clients:
            return self.clients[client_id]
        if client_id in self.preregistered:
            secret, method = self.preregistered[client_id]
            return {"secret": secret, "method": method, "redirect_uris": None}
        if self.cimd and client_id.startswith("https://"):
            return {"secret": None, "method": "none", "redirect_uris": None}
        return None

    def _authorize(self, query: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        client = self._client(query.get("client_id", ""))
        redirect = query.get("redirect_uri", "")
        if client is None or not redirect.startswith("http://127.0.0.1:"):
            return 400, {}, b"bad client or redirect"
        if client["redirect_uris"] is not None:
            # RFC 8252 §7.3: any port for a loopback redirect.
            registered = {
                urlsplit(uri)._replace(netloc="127.0.0.1").geturl() for uri in client["redirect_uris"]
            }
            if urlsplit(redirect)._replace(netloc="127.0.0.1").geturl() not in registered:
                return 400, {}, b"unregistered redirect"
        if query.get("response_type") != "code" or query.get("code_challenge_method") != "S256":
            return 400, {}, b"S256 required"
        if query.get("resource") != self.server_url or "state" not in query:
            return 400, {}, b"resource and state required"
        code = self._secret("CODE")
        self.codes[code] = {
            "client_id": query["client_id"],
            "redirect_uri": redirect,
            "challenge": query["code_challenge"],
            "scope": set(query.get("scope", "read").split()),
        }
        params = {"code": code, "state": query["state"]}
        if self.iss_supported:
            params["iss"] = self.issuer
        return 302, {"Location": f"{redirect}?{urlencode(params)}"}, b""

    def _token(self, form: dict[str, str], headers: Mapping[str, str]) -> tuple[int, dict[str, str], bytes]:
        self.grants.append(form.get("grant_type", ""))
        used_method = "none"
        client_id, secret = form.get("client_id", ""), form.get("client_secret")
        if headers.get("Authorization", "").startswith("Basic "):
            decoded = base64.b64decode(headers["Authorization"][6:]).decode()
            client_id, _, secret = (unquote_plus(part) for part in decoded.partition(":"))
            self.secrets_seen.add(secret)
            used_method = "client_secret_basic"
        elif secret is not None:
            used_method = "client_secret_post"
        client = self._client(client_id)
        if self.invalid_client_failures > 0:
            self.invalid_client_failures -= 1
            return self._json(401, {"error": "invalid_client"})
        if client is None or client["method"] != used_method or client["secret"] != secret:
            return self._json(401, {"error": "invalid_client"})
        if form.get("resource") != self.server_url:
            return self._json(400, {"error": "invalid_target"})
        grant = form.get("grant_type")
        if grant == "authorization_code":
            code = self.codes.pop(form.get("code", ""), None)
            if (
                code is None
                or code["client_id"] != client_id
                or code["redirect_uri"] != form.get("redirect_uri")
            ):
                return self._json(400, {"error": "invalid_grant"})
            verifier = form.get("code_verifier", "")
            digest = (
                base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
            )
            if digest != code["challenge"]:
                return self._json(400, {"error": "invalid_grant", "error_description": "PKCE"})
            return self._issue(client_id, code["scope"], new_refresh=True)
        if grant == "refresh_token":
            held = self.refresh_tokens.get(form.get("refresh_token", ""))
            if held is None or held["client_id"] != client_id:
                return self._json(400, {"error": "invalid_grant"})
            if self.rotate:
                del self.refresh_tokens[form["refresh_token"]]
            return self._issue(client_id, held["scope"], new_refresh=self.rotate)
        return self._json(400, {"error": "unsupported_grant_type"})

    def _issue(
        self, client_id: str, scope: set[str], *, new_refresh: bool
    ) -> tuple[int, dict[str, str], bytes]:
        access = self._secret("AT")
        self.access[access] = set(scope)
        answer: dict[str, Any] = {
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": self.expires_in,
            "scope": " ".join(sorted(scope)),
        }
        if new_refresh:
            refresh_token = self._secret("RT")
            self.refresh_tokens[refresh_token] = {"client_id": client_id, "scope": set(scope)}
            answer["refresh_token"] = refresh_token
        return self._json(200, answer)


@pytest.fixture
def auth_server(caplog: pytest.LogCaptureFixture) -> Iterator[LocalAuthServer]:
    caplog.set_level(logging.DEBUG)
    server = LocalAuthServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
    leaked = server.leaks([record.getMessage() for record in caplog.records])
    assert leaked == [], "a secret reached the logs"


# --- helpers -------------------------------------------------------------------------------------------


def http_client() -> httpx.AsyncClient:
    return httpx.AsyncClient(timeout=5, verify=_TLS)


def run(coroutine: Awaitable[T]) -> T:
    async def bounded() -> T:
        return await asyncio.wait_for(coroutine, TIMEOUT)

    return asyncio.run(bounded())


def browser_get(url: str) -> tuple[int, str]:
    """What a browser does with a URL on our local server: GET it, report status and Location.

    stdlib ``http.client`` logs nothing, so the code in the Location header stays out of the captured logs
    (httpcore would log response headers at DEBUG: fine for a browser, confusing for the leak check).
    """
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=5)
    try:
        connection.request("GET", f"{parts.path}?{parts.query}")
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Location", "")
    finally:
        connection.close()


async def approve_in_browser(action: UserAuthorization) -> dict[str, str]:
    """A user agent that approves: GET the authorization URL, read the redirect's query."""
    status, location = await asyncio.to_thread(browser_get, action.url)
    assert status == 302, status
    return dict(parse_qsl(urlsplit(location).query))


async def login(
    server: LocalAuthServer,
    *,
    settings: ClientSettings | None = None,
    state: AuthState | None = None,
    www_authenticate: str | None = None,
    scopes: tuple[str, ...] | None = None,
    protocol_version: str | None = "2025-06-18",
    redirect_uri: str | None = REDIRECT,
    user: Callable[[UserAuthorization], Awaitable[Mapping[str, str]]] | None = approve_in_browser,
    force_authorization: bool = False,
) -> AuthState:
    async with http_client() as client:
        return await drive(
            obtain_tokens(
                server.server_url,
                settings=settings or ClientSettings(),
                state=state,
                www_authenticate=www_authenticate,
                protocol_version=protocol_version,
                redirect_uri=redirect_uri,
                clock=time.time,
                server="local",
                scopes=scopes,
                force_authorization=force_authorization,
            ),
            client,
            on_user_authorization=user,
            server="local",
        )


async def call_resource(server: LocalAuthServer, tokens: Tokens | None) -> httpx.Response:
    headers = {"Authorization": tokens.authorization_header()} if tokens else {}
    async with http_client() as client:
        return await client.post(
            server.server_url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers=headers
        )


async def login_after_401(server: LocalAuthServer, **kwargs: Any) -> tuple[AuthState, httpx.Response]:
    """The whole story: a call without a token, its 401, the login, the call again."""
    first = await call_resource(server, None)
    assert first.status_code == 401
    state = await login(server, www_authenticate=first.headers["www-authenticate"], **kwargs)
    again = await call_resource(server, state.tokens)
    return state, again


def assert_no_secret_in(server: LocalAuthServer, error: BaseException) -> None:
    assert server.leaks([str(error), repr(error)]) == []


# --- discovery -----------------------------------------------------------------------------------------


def test_a_401_with_resource_metadata_leads_to_a_token_that_works(
    auth_server: LocalAuthServer, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Whatever an earlier test (an in-process CLI run) did to the loggers, ours reach the capture here.
    for name in ("mcp_troupe", "mcp_troupe.oauth"):
        monkeypatch.setattr(logging.getLogger(name), "propagate", True)
        caplog.set_level(logging.DEBUG, logger=name)
    auth_server.prm_location = "header"

    state, again = run(login_after_401(auth_server))

    # The leak check of the fixture looks at real log records, ours among them.
    assert any(record.name == "mcp_troupe.oauth" for record in caplog.records)
    assert again.status_code == 200
    assert ("GET", "/prm") in auth_server.requests
    assert ("GET", "/.well-known/oauth-protected-resource/mcp") not in auth_server.requests
    assert state.issuer == auth_server.issuer
    assert state.tokens is not None and set(state.tokens.scope) == {"read", "offline_access"}
    assert state.requested_scopes == ("read", "offline_access")  # the challenge's scope, plus offline_access


@pytest.mark.parametrize(
    ("location", "expected_gets"),
    [
        ("path", ["/.well-known/oauth-protected-resource/mcp"]),
        ("root", ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]),
    ],
)
def test_without_the_header_param_the_well_known_prm_urls_are_tried(
    auth_server: LocalAuthServer, location: str, expected_gets: list[str]
) -> None:
    auth_server.prm_location = location

    _, again = run(login_after_401(auth_server))

    gets = [path for method, path in auth_server.requests if method == "GET" and "protected-resource" in path]
    assert gets == expected_gets
    assert again.status_code == 200


@pytest.mark.parametrize("location", [0, 1, 2])
def test_an_issuer_with_a_path_is_found_at_each_metadata_url(
    auth_server: LocalAuthServer, location: int
) -> None:
    auth_server.issuer_path = "/tenant1"
    auth_server.metadata_location = location

    state, again = run(login_after_401(auth_server))

    assert state.issuer == auth_server.base + "/tenant1"
    assert again.status_code == 200


def test_a_redirected_metadata_request_is_followed(auth_server: LocalAuthServer) -> None:
    auth_server.prm_location = "header"
    challenge = f'Bearer resource_metadata="{auth_server.base}/redirect-to-prm"'

    state = run(login(auth_server, www_authenticate=challenge))

    assert state.tokens is not None
    assert ("GET", "/redirect-to-prm") in auth_server.requests


def test_a_redirect_hop_to_plain_http_elsewhere_is_refused(auth_server: LocalAuthServer) -> None:
    challenge = f'Bearer resource_metadata="{auth_server.base}/redirect-away"'

    with pytest.raises(AuthRefused) as caught:
        run(login(auth_server, www_authenticate=challenge))

    assert caught.value.rule == "https"


def test_a_2025_03_26_server_without_prm_uses_its_origins_metadata(auth_server: LocalAuthServer) -> None:
    # The PRM is only at /prm, which no challenge names here: both well-known PRM URLs answer 404.
    auth_server.prm_location = "header"

    state = run(login(auth_server, protocol_version="2025-03-26"))

    assert ("GET", "/.well-known/oauth-authorization-server") in auth_server.requests
    assert state.issuer == auth_server.base
    assert state.resource == auth_server.server_url


# --- clients -------------------------------------------------------------------------------------------


def test_a_dynamic_registration_is_stored_and_reused_by_the_next_run(
    auth_server: LocalAuthServer, tmp_path: Any
) -> None:
    store = CredentialStore(tmp_path / "creds", key_file=tmp_path / "key" / "k", environ={})
    first = run(login(auth_server))
    store.save("local", first)

    stored = store.load_latest("local")
    assert stored is not None
    second = run(login(auth_server, state=stored.state, force_authorization=True))

    assert [path for _, path in auth_server.requests].count("/register") == 1
    assert second.client == first.client
    assert second.tokens is not None and first.tokens is not None
    assert second.tokens.access_token != first.tokens.access_token


def test_a_client_id_metadata_document_is_used_when_supported(auth_server: LocalAuthServer) -> None:
    auth_server.cimd = True
    settings = ClientSettings(client_metadata_url="https://client.example.com/mcp-troupe.json")

    state = run(login(auth_server, settings=settings))

    assert state.client is not None and state.client.kind == "metadata_document"
    assert state.client.client_id == "https://client.example.com/mcp-troupe.json"
    assert ("POST", "/register") not in auth_server.requests


@pytest.mark.parametrize(
    ("methods", "expected"),
    [
        (["client_secret_basic", "client_secret_post"], "client_secret_basic"),
        (["client_secret_post"], "client_secret_post"),
    ],
)
def test_a_preregistered_client_authenticates_as_the_metadata_says(
    auth_server: LocalAuthServer, methods: list[str], expected: str
) -> None:
    auth_server.auth_methods = methods
    auth_server.preregistered = {"pre-1": ("pre-secret-value", expected)}
    auth_server.secrets_seen.add("pre-secret-value")
    settings = ClientSettings(client_id="pre-1", client_secret="pre-secret-value")

    state, again = run(login_after_401(auth_server, settings=settings))

    assert again.status_code == 200
    assert state.client is not None and state.client.token_endpoint_auth_method == expected
    assert ("POST", "/register") not in auth_server.requests


def test_a_confidential_dynamic_client_uses_its_secret(auth_server: LocalAuthServer) -> None:
    auth_server.auth_methods = ["client_secret_basic"]

    state, again = run(login_after_401(auth_server))

    assert again.status_code == 200
    assert state.client is not None and state.client.client_secret is not None


def test_one_transient_invalid_client_does_not_re_register(auth_server: LocalAuthServer) -> None:
    first = run(login(auth_server))
    auth_server.invalid_client_failures = 1

    refreshed = run(login(auth_server, state=first))

    assert refreshed.client == first.client
    assert [path for _, path in auth_server.requests].count("/register") == 1


def test_a_confirmed_invalid_client_re_registers(auth_server: LocalAuthServer) -> None:
    first = run(login(auth_server))
    auth_server.clients.clear()  # the authorization server purged our client

    again = run(login(auth_server, state=first))

    assert again.client is not None and first.client is not None
    assert again.client.client_id != first.client.client_id
    assert [path for _, path in auth_server.requests].count("/register") == 2


# --- tokens --------------------------------------------------------------------------------------------


def test_refresh_rotates_the_refresh_token_and_the_old_one_dies(auth_server: LocalAuthServer) -> None:
    first = run(login(auth_server))
    assert first.tokens is not None and first.tokens.expires_at is not None

    second = run(login(auth_server, state=first, redirect_uri=None))
    third = run(login(auth_server, state=second, redirect_uri=None))

    assert auth_server.grants == ["authorization_code", "refresh_token", "refresh_token"]
    assert second.tokens is not None and third.tokens is not None
    assert len({first.tokens.refresh_token, second.tokens.refresh_token, third.tokens.refresh_token}) == 3
    assert run(call_resource(auth_server, third.tokens)).status_code == 200
    with pytest.raises(NeedsLogin):  # the first refresh token was rotated away, and nobody can log in
        run(login(auth_server, state=first, redirect_uri=None))


def test_a_refresh_without_a_new_refresh_token_keeps_the_old_one(auth_server: LocalAuthServer) -> None:
    auth_server.rotate = False
    first = run(login(auth_server))

    second = run(login(auth_server, state=first, redirect_uri=None))

    assert first.tokens is not None and second.tokens is not None
    assert second.tokens.refresh_token == first.tokens.refresh_token
    assert second.tokens.access_token != first.tokens.access_token


def test_the_expiry_is_absolute(auth_server: LocalAuthServer) -> None:
    auth_server.expires_in = 120
    before = time.time()

    state = run(login(auth_server))

    assert state.tokens is not None and state.tokens.expires_at is not None
    assert before + 120 <= state.tokens.expires_at <= time.time() + 120


def test_a_failed_refresh_falls_back_to_one_authorization(auth_server: LocalAuthServer) -> None:
    first = run(login(auth_server))
    auth_server.refresh_tokens.clear()  # revoked

    second = run(login(auth_server, state=first))

    assert auth_server.grants == ["authorization_code", "refresh_token", "authorization_code"]
    assert run(call_resource(auth_server, second.tokens)).status_code == 200


def test_a_403_insufficient_scope_steps_up_with_the_union(auth_server: LocalAuthServer) -> None:
    state = run(login(auth_server))
    auth_server.required_scopes = {"read", "write"}
    denied = run(call_resource(auth_server, state.tokens))
    assert denied.status_code == 403
    assert state.tokens is not None

    union = step_up_scopes(
        requested=state.requested_scopes,
        granted=state.tokens.scope,
        www_authenticate=denied.headers["www-authenticate"],
        attempts=0,
        server="local",
    )
    stepped = run(
        login(auth_server, state=state, scopes=union, www_authenticate=denied.headers["www-authenticate"])
    )

    assert set(union) == {"read", "write", "offline_access"}
    assert stepped.tokens is not None and set(stepped.tokens.scope) >= {"read", "write"}
    assert run(call_resource(auth_server, stepped.tokens)).status_code == 200


def test_step_up_stops_after_three_attempts(auth_server: LocalAuthServer) -> None:
    state = run(login(auth_server))
    auth_server.required_scopes = {"admin"}
    attempts = 0
    with pytest.raises(InsufficientScope):
        while True:
            denied = run(call_resource(auth_server, state.tokens))
            assert denied.status_code == 403 and state.tokens is not None
            union = step_up_scopes(
                requested=state.requested_scopes,
                granted=state.tokens.scope,
                www_authenticate=denied.headers["www-authenticate"],
                attempts=attempts,
                server="local",
            )
            attempts += 1
            # A server that keeps moving the goalposts: each step-up is answered with a new 403.
            auth_server.required_scopes.add(f"more{attempts}")
            state = run(login(auth_server, state=state, scopes=union))

    assert attempts == 3


def test_concurrent_401s_share_one_refresh(auth_server: LocalAuthServer) -> None:
    first = run(login(auth_server))
    assert first.tokens is not None and first.client is not None
    renewals = 0

    async def scenario() -> list[Tokens]:
        shared = SharedRefresh(first.tokens)

        async def renewer() -> Tokens:
            nonlocal renewals
            renewals += 1
            assert first.tokens is not None and first.client is not None
            async with http_client() as client:
                flow = refresh(
                    first.metadata, first.client, first.tokens, resource=first.resource, clock=time.time
                )
                return await drive(flow, client, on_user_authorization=None, server="local")

        results = await asyncio.gather(*(shared.renew(first.tokens, renewer) for _ in range(5)))
        late = await shared.renew(first.tokens, renewer)  # a late 401 for the old token
        return [*results, late]

    tokens = run(scenario())

    assert renewals == 1
    assert auth_server.grants.count("refresh_token") == 1
    assert len({t.access_token for t in tokens}) == 1


# --- refusals ------------------------------------------------------------------------------------------


def refused(server: LocalAuthServer) -> AuthRefused:
    with pytest.raises(AuthRefused) as caught:
        run(login_after_401(server))
    assert_no_secret_in(server, caught.value)
    assert "local" in str(caught.value)
    return caught.value


def test_a_prm_for_another_resource_is_refused(auth_server: LocalAuthServer) -> None:
    auth_server.prm_resource = auth_server.base + "/other"

    assert refused(auth_server).rule == "resource"
    assert not any(path.endswith("/token") or path == "/register" for _, path in auth_server.requests)


def test_metadata_naming_another_issuer_is_refused(auth_server: LocalAuthServer) -> None:
    auth_server.metadata_overrides = {"issuer": auth_server.base + "/someone-else"}

    assert refused(auth_server).rule == "issuer"


def test_a_plain_http_endpoint_on_a_public_host_is_refused(auth_server: LocalAuthServer) -> None:
    auth_server.metadata_overrides = {"token_endpoint": "http://auth.example.com/token"}

    assert refused(auth_server).rule == "https"


def test_an_endpoint_on_another_origin_is_refused(auth_server: LocalAuthServer) -> None:
    auth_server.metadata_overrides = {"token_endpoint": f"http://127.0.0.1:{auth_server.port + 1}/token"}

    assert refused(auth_server).rule == "same-origin endpoints"


def test_a_server_without_s256_is_refused(auth_server: LocalAuthServer) -> None:
    auth_server.metadata_overrides = {"code_challenge_methods_supported": ["plain"]}

    assert refused(auth_server).rule == "pkce"
    assert ("POST", "/register") not in auth_server.requests


def test_a_wrong_iss_in_the_redirect_is_refused(auth_server: LocalAuthServer) -> None:
    async def mixed_up(action: UserAuthorization) -> dict[str, str]:
        params = await approve_in_browser(action)
        return {**params, "iss": "http://127.0.0.1:1"}

    with pytest.raises(AuthRefused) as caught:
        run(login(auth_server, user=mixed_up))

    assert caught.value.rule == "iss"
    assert "authorization_code" not in auth_server.grants


def test_a_forged_state_is_refused(auth_server: LocalAuthServer) -> None:
    async def forged(action: UserAuthorization) -> dict[str, str]:
        return {**(await approve_in_browser(action)), "state": "forged"}

    with pytest.raises(AuthRefused) as caught:
        run(login(auth_server, user=forged))

    assert caught.value.rule == "state"
    assert "authorization_code" not in auth_server.grants


def test_a_non_interactive_process_reports_needs_login_instead_of_waiting(
    auth_server: LocalAuthServer,
) -> None:
    with pytest.raises(NeedsLogin):
        run(login(auth_server, redirect_uri=None, user=None))


def test_a_user_step_without_anyone_to_ask_is_needs_login(auth_server: LocalAuthServer) -> None:
    with pytest.raises(NeedsLogin):
        run(login(auth_server, user=None))


def test_an_unreachable_authorization_server_is_reported(auth_server: LocalAuthServer) -> None:
    closed = LocalAuthServer()
    closed.httpd.server_close()  # bound once, now closed: connections are refused
    challenge = f'Bearer resource_metadata="{closed.base}/prm"'

    async def scenario() -> None:
        async with http_client() as client:
            await drive(
                obtain_tokens(
                    closed.server_url,
                    settings=ClientSettings(),
                    state=None,
                    www_authenticate=challenge,
                    protocol_version="2025-06-18",
                    redirect_uri=REDIRECT,
                    clock=time.time,
                    server="local",
                ),
                client,
                on_user_authorization=approve_in_browser,
                server="local",
            )

    with pytest.raises(AuthUnreachable):
        run(scenario())


# --- the loopback redirect, the browser and the paste fallback -----------------------------------------


def _get(port: int, target: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", target)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def test_a_login_through_a_real_loopback_redirect(auth_server: LocalAuthServer) -> None:
    async def scenario() -> AuthState:
        async with LoopbackRedirect(server="local") as redirect:

            async def browser(action: UserAuthorization) -> Mapping[str, str]:
                _, redirect_to = await asyncio.to_thread(browser_get, action.url)
                location = urlsplit(redirect_to)
                # The "browser" lands on the listener; stdlib http.client logs nothing.
                waiter = asyncio.ensure_future(redirect.wait(timeout=10, expected_state=action.state))
                status, page = await asyncio.to_thread(
                    _get, redirect.port, f"{location.path}?{location.query}"
                )
                assert status == 200 and "close this window" in page
                return await waiter

            return await login(auth_server, redirect_uri=redirect.redirect_uri, user=browser)

    state = run(scenario())

    assert state.tokens is not None
    assert state.client is not None and state.client.redirect_uris[0].startswith("http://127.0.0.1:")


def test_the_loopback_listener_ignores_stray_requests_and_times_out() -> None:
    async def scenario() -> list[int]:
        async with LoopbackRedirect(server="local") as redirect:
            waiter = asyncio.ensure_future(redirect.wait(timeout=0.5, expected_state="expected"))
            statuses = []
            for target in [
                "/favicon.ico",
                "/callback",
                "/callback?state=expected",
                "/callback?code=x&state=other",
                "/callback?code=x&code=y&state=expected",
            ]:
                status, page = await asyncio.to_thread(_get, redirect.port, target)
                assert "expected" not in page and "other" not in page  # nothing of the request is reflected
                statuses.append(status)
            with pytest.raises(AuthError, match="no login redirect"):
                await waiter
            return statuses

    assert run(scenario()) == [404, 400, 400, 400, 400]


def test_the_loopback_listener_returns_the_first_valid_redirect() -> None:
    async def scenario() -> tuple[dict[str, str], int]:
        async with LoopbackRedirect(server="local") as redirect:
            assert redirect.redirect_uri == f"http://127.0.0.1:{redirect.port}/callback"
            waiter = asyncio.ensure_future(redirect.wait(timeout=5, expected_state="s1"))
            first, _ = await asyncio.to_thread(_get, redirect.port, "/callback?code=c1&state=s1")
            assert first == 200
            second, _ = await asyncio.to_thread(_get, redirect.port, "/callback?code=c2&state=s1")
            return await waiter, second

    params, second = run(scenario())

    assert params == {"code": "c1", "state": "s1"}
    assert second == 409


def test_open_browser_validates_and_uses_webbrowser_not_a_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr("webbrowser.open", lambda url, new=0, autoraise=True: opened.append(url) or True)
    monkeypatch.setattr("subprocess.Popen", lambda *a, **k: pytest.fail("no process may be started"))
    monkeypatch.setattr("os.system", lambda *a: pytest.fail("no shell may be used"))

    assert open_browser("https://auth.example.com/authorize?state=x")
    for bad in ["javascript:alert(1)", "file:///etc/passwd", "http://evil.example.com/a", "https://a/b c"]:
        with pytest.raises(AuthRefused):
            open_browser(bad)

    assert opened == ["https://auth.example.com/authorize?state=x"]


def test_without_a_display_the_browser_is_not_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setattr("webbrowser.open", lambda *a, **k: pytest.fail("no browser without a display"))

    assert open_browser("https://auth.example.com/authorize") is False


def test_the_paste_fallback_prints_the_url_and_reads_the_redirect() -> None:
    output = io.StringIO()
    pasted = io.StringIO("http://127.0.0.1:8765/callback?code=abc&state=s1\n")

    params = read_pasted_redirect(
        "https://auth.example.com/authorize?x=1",
        "http://127.0.0.1:8765/callback",
        input_stream=pasted,
        output=output,
    )

    assert params == {"code": "abc", "state": "s1"}
    assert "https://auth.example.com/authorize?x=1" in output.getvalue()


@pytest.mark.parametrize(
    "line",
    ["https://evil.example.com/callback?code=abc&state=s1", "", "http://127.0.0.1:8765/callback?nothing=1"],
)
def test_the_paste_fallback_refuses_anything_but_the_redirect(line: str) -> None:
    with pytest.raises(AuthError):
        read_pasted_redirect(
            "https://auth.example.com/authorize",
            "http://127.0.0.1:8765/callback",
            input_stream=io.StringIO(line + "\n"),
            output=io.StringIO(),
        )
