"""The I/O half of OAuth: run the sans-I/O flows of :mod:`mcp_troupe.protocol.oauth` on the event loop.

- :func:`drive` sends a flow's requests with httpx (never following redirects on its own: every hop is checked
  first) and hands its :class:`~mcp_troupe.protocol.oauth.UserAuthorization` step to a callback;
- :class:`LoopbackRedirect` is the one-shot ``http://127.0.0.1:<port>/callback`` listener that receives the
  browser's redirect (RFC 8252 §7.3: a loopback IP literal, any port);
- :func:`open_browser` hands a validated authorization URL to :mod:`webbrowser` — never to a shell;
- :func:`read_pasted_redirect` / :func:`paste_redirect` are the fallback without a browser: print the URL,
  read back the address the browser was redirected to;
- :class:`SharedRefresh` makes concurrent 401s of one server share one refresh.

On these sits the **OAuthFlow** actor, one per HTTP server with ``auth: oauth``, owned by its supervisor
and living across incarnations (credentials outlive connections). It is split in two:

- :class:`BearerTokens`, its loop side, owns the :class:`~mcp_troupe.protocol.oauth.AuthState`, the
  :class:`SharedRefresh` and the credential-store handle. Every incarnation's HTTP transport holds a
  reference and, on the loop, awaits ``token()`` before each request and ``on_unauthorized()`` /
  ``on_insufficient_scope()`` on a challenge. Renewals are loop tasks; store I/O and the cross-process lock
  run in worker threads.
- :class:`OAuthFlow`, the actor, owns the lifecycle (load on start, close the OAuth HTTP client on stop) and
  turns every change the loop side reports (``_TokensChanged``) into a secret-free ``AuthStateChanged`` for
  its supervisor, which shows it in status.

Why the hot path does not go through the actor: a token is needed by *every* request, on the loop. Asking
an actor would break DESIGN §2 rule 2 (the loop never asks), and telling it with a ``reply_to`` future would
cost two thread hops per request for what is, nearly always, reading one attribute. Renewal, the only part
that waits, already has to run on the loop (it is HTTP), and :class:`SharedRefresh` needs every caller on
one event loop to share one task. So the state lives where it is used, and the actor keeps what actors are
for: a lifetime, a mailbox for reports, and a place in the supervision tree.

A process that cannot ask its user never waits for one: a flow that needs the user raises
:class:`~mcp_troupe.errors.NeedsLogin` (the server's state becomes ``needs_login``), unless an embedding
application installed an :class:`InteractiveLogin`. :func:`login` and :func:`logout` serve ``troupe login``
and ``troupe logout``. Logs name URLs without their query and never a token, code or secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import secrets
import sys
import time
import webbrowser
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Final, TextIO, TypeVar, assert_never
from urllib.parse import parse_qsl, urlsplit

import anyio
import anyio.to_thread
import httpx
import pykka

from mcp_troupe.actors.loop import Runtime, safe_tell
from mcp_troupe.actors.oauth_events import AuthStateChanged
from mcp_troupe.actors.supervision import Supervised
from mcp_troupe.config import OAuthConfig, ServerConfig
from mcp_troupe.credentials import CredentialLock, CredentialStore
from mcp_troupe.errors import (
    AuthError,
    AuthRefused,
    AuthUnreachable,
    CredentialStoreError,
    NeedsLogin,
    TroupeClosed,
)
from mcp_troupe.protocol.jose import KeyError_, SigningKey, dpop_nonce_challenge
from mcp_troupe.protocol.oauth import (
    MAX_STEP_UP_ATTEMPTS,
    AuthState,
    ClientSettings,
    Flow,
    Tokens,
    UserAuthorization,
    describe_url,
    obtain_tokens,
    parse_www_authenticate,
    require_secure_url,
    resource_matches,
    step_up_scopes,
    validate_authorization_url,
)

__all__ = [
    "CALLBACK_PATH",
    "DEFAULT_LOGIN_TIMEOUT",
    "BearerTokens",
    "InteractiveLogin",
    "LoopbackRedirect",
    "OAuthFlow",
    "SharedRefresh",
    "client_settings",
    "describe_auth",
    "drive",
    "holding_lock",
    "login",
    "logout",
    "oauth_http_client",
    "open_browser",
    "paste_redirect",
    "probe_challenge",
    "read_pasted_redirect",
    "set_interactive_login",
    "start_oauth_flow",
]

log = logging.getLogger("mcp_troupe.oauth")

_T = TypeVar("_T")

CALLBACK_PATH: Final = "/callback"
DEFAULT_LOGIN_TIMEOUT: Final = 300.0
"""Seconds a login waits for the browser's redirect."""
MAX_REDIRECTS: Final = 5
MAX_BODY_BYTES: Final = 1024 * 1024
"""Metadata and token responses are small; a larger body is refused rather than buffered."""
_MAX_REQUEST_HEAD: Final = 16 * 1024

UserAuthorizationHandler = Callable[[UserAuthorization], Awaitable[Mapping[str, str]]]


# --- driving a flow ------------------------------------------------------------------------------------


async def drive(
    flow: Flow[_T],
    client: httpx.AsyncClient,
    *,
    on_user_authorization: UserAuthorizationHandler | None,
    server: str = "",
    max_redirects: int = MAX_REDIRECTS,
) -> _T:
    """Run ``flow`` to its result: send each request it yields and run its user step.

    Requests are sent with ``follow_redirects=False``. A redirect on a ``GET`` (metadata) is followed here,
    at most ``max_redirects`` hops, each hop checked with :func:`require_secure_url` first (spec: security
    best practices, SSRF — "validate each redirect hop"); a redirect on a ``POST`` (token, registration) is
    handed to the flow as it is, which treats it as an error: re-posting a code or a secret to wherever a 307
    points is how they leak. Network failures become :class:`AuthUnreachable`.
    ``on_user_authorization=None`` means there is nobody to ask: a user step raises :class:`NeedsLogin`.
    """
    try:
        step = next(flow)
        while True:
            if isinstance(step, httpx.Request):
                response = await _send(client, step, server=server, max_redirects=max_redirects)
                step = flow.send(response)
            else:
                if on_user_authorization is None:
                    raise NeedsLogin(server)
                params = await on_user_authorization(step)
                step = flow.send(dict(params))
    except StopIteration as stop:
        result: _T = stop.value
        return result
    finally:
        flow.close()


async def _send(
    client: httpx.AsyncClient, request: httpx.Request, *, server: str, max_redirects: int
) -> httpx.Response:
    for _hop in range(max_redirects + 1):
        response = await _send_once(client, request, server=server)
        log.debug(
            "server %s: OAuth %s %s -> %d",
            server,
            request.method,
            describe_url(str(request.url)),
            response.status_code,
        )
        if not (response.is_redirect and request.method == "GET"):
            return response
        location = response.headers.get("location", "")
        target = str(request.url.join(location))
        require_secure_url(target, server=server, what="redirect target")
        request = httpx.Request("GET", target, headers=_without_authorization(request.headers))
    raise AuthUnreachable(
        server, f"more than {max_redirects} redirects from {describe_url(str(request.url))}"
    )


def _without_authorization(headers: httpx.Headers) -> dict[str, str]:
    # Discovery requests carry no credentials, but a hop to another host must never inherit any; Host too
    # must be recomputed for the new URL.
    return {
        key: value for key, value in headers.items() if key.lower() not in ("authorization", "host", "cookie")
    }


def _transport_reason(error: httpx.TransportError) -> str:
    """``ConnectError: [Errno 111] Connection refused``: the class and the socket's reason (never headers)."""
    kind, text = type(error).__name__, str(error)
    return f"{kind}: {text}" if text and text != kind else kind


async def _send_once(client: httpx.AsyncClient, request: httpx.Request, *, server: str) -> httpx.Response:
    try:
        response = await client.send(request, stream=True, follow_redirects=False)
    except httpx.TransportError as error:
        raise AuthUnreachable(
            server, f"{request.method} {describe_url(str(request.url))} failed: {_transport_reason(error)}"
        ) from error
    try:
        body = bytearray()
        async for chunk in response.aiter_bytes():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                raise AuthUnreachable(
                    server, f"{describe_url(str(request.url))} answered more than {MAX_BODY_BYTES} bytes"
                )
    except httpx.TransportError as error:
        raise AuthUnreachable(
            server, f"reading {describe_url(str(request.url))} failed: {_transport_reason(error)}"
        ) from error
    finally:
        await response.aclose()
    # The body is already decoded: drop the headers that describe the encoded form.
    headers = [
        (key, value)
        for key, value in response.headers.multi_items()
        if key.lower() not in ("content-encoding", "content-length", "transfer-encoding")
    ]
    return httpx.Response(response.status_code, headers=headers, content=bytes(body), request=request)


# --- the loopback redirect -----------------------------------------------------------------------------

_DONE_PAGE: Final = (
    "<!doctype html><html><head><meta charset='utf-8'><title>mcp-troupe</title></head>"
    "<body><p>Login received. You can close this window and return to mcp-troupe.</p></body></html>"
)
_SECURITY_HEADERS: Final = (
    # The page's URL holds the code: no referrer may carry it anywhere, nothing may frame or script it.
    "Referrer-Policy: no-referrer\r\n"
    "Content-Security-Policy: default-src 'none'\r\n"
    "X-Frame-Options: DENY\r\n"
    "Cache-Control: no-store\r\n"
)


class LoopbackRedirect:
    """A one-shot listener on ``http://127.0.0.1:<port>/callback`` for the authorization redirect.

    ``port=0`` picks a free port. Use it as an async context manager (bound on entry, closed on exit), then
    :meth:`wait` for the redirect's query parameters. Requests for other paths, without ``code`` or
    ``error``, with a duplicated parameter or with a ``state`` other than the expected one are answered with
    an error and ignored, so a stray or forged request cannot end the login (the flow checks ``state``
    again). The answer page shows nothing of the request.
    """

    def __init__(self, port: int = 0, *, path: str = CALLBACK_PATH, server: str = "") -> None:
        self._requested_port = port
        self._path = path
        self._server_name = server
        self._server: asyncio.Server | None = None
        self._result: asyncio.Future[dict[str, str]] | None = None
        self._expected_state: str | None = None
        self.port = 0

    @property
    def redirect_uri(self) -> str:
        """``http://127.0.0.1:<port><path>``; valid once started."""
        if self._server is None:
            raise RuntimeError("LoopbackRedirect is not started")
        return f"http://127.0.0.1:{self.port}{self._path}"

    async def start(self) -> None:
        """Bind 127.0.0.1 (not ``localhost``, which may resolve elsewhere: RFC 8252 §8.3)."""
        self._result = asyncio.get_running_loop().create_future()
        self._server = await asyncio.start_server(
            self._handle, host="127.0.0.1", port=self._requested_port, limit=_MAX_REQUEST_HEAD
        )
        self.port = self._server.sockets[0].getsockname()[1]

    async def aclose(self) -> None:
        """Stop listening."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 5.0)
        if self._result is not None and not self._result.done():
            self._result.cancel()

    async def __aenter__(self) -> LoopbackRedirect:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def wait(
        self, *, timeout: float = DEFAULT_LOGIN_TIMEOUT, expected_state: str | None = None
    ) -> dict[str, str]:
        """The redirect's query parameters; :class:`AuthError` after ``timeout`` seconds."""
        if self._result is None:
            raise RuntimeError("LoopbackRedirect is not started")
        self._expected_state = expected_state
        try:
            return await asyncio.wait_for(asyncio.shield(self._result), timeout)
        except TimeoutError:
            raise AuthError(self._server_name, f"no login redirect arrived within {timeout:g} s") from None

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            status, body = await asyncio.wait_for(self._answer(reader), 10.0)
        except (
            TimeoutError,
            asyncio.IncompleteReadError,
            asyncio.LimitOverrunError,
            ConnectionError,
            ValueError,
        ):
            status, body = "400 Bad Request", "<p>Bad request.</p>"
        payload = body.encode("utf-8")
        head = (
            f"HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\n"
            f"Content-Length: {len(payload)}\r\nConnection: close\r\n{_SECURITY_HEADERS}\r\n"
        )
        try:
            writer.write(head.encode("ascii") + payload)
            await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _answer(self, reader: asyncio.StreamReader) -> tuple[str, str]:
        # The stream's limit (set in start) bounds the head; a longer one raises LimitOverrunError.
        head = await reader.readuntil(b"\r\n\r\n")
        request_line = head.split(b"\r\n", 1)[0].decode("latin-1")
        parts = request_line.split(" ")
        if len(parts) != 3 or parts[0] != "GET":
            return "405 Method Not Allowed", "<p>Bad request.</p>"
        target = urlsplit(parts[1])
        if target.path != self._path:
            return "404 Not Found", "<p>Not found.</p>"
        pairs = parse_qsl(target.query, keep_blank_values=True)
        params = dict(pairs)
        if len(params) != len(pairs):
            # RFC 6749 §3.1: parameters MUST NOT be included more than once.
            return "400 Bad Request", "<p>Bad request.</p>"
        if "code" not in params and "error" not in params:
            return "400 Bad Request", "<p>Bad request.</p>"
        if self._expected_state is not None and params.get("state") != self._expected_state:
            log.warning("server %s: ignored a login redirect with the wrong state", self._server_name)
            return "400 Bad Request", "<p>This login link is not the one mcp-troupe is waiting for.</p>"
        if self._result is None or self._result.done():
            return "409 Conflict", "<p>This login was already received.</p>"
        self._result.set_result(params)
        return "200 OK", _DONE_PAGE


# --- browser and paste fallback ------------------------------------------------------------------------


def open_browser(url: str, *, server: str = "") -> bool:
    """Open a validated authorization URL in the user's browser; ``False`` when there is no browser.

    :func:`validate_authorization_url` runs first (https or loopback http only, no ``javascript:``/``data:``/
    ``file:``, no whitespace or quotes), and the URL goes to :func:`webbrowser.open`, which starts browsers
    with an argument list — never through a shell (spec: security best practices, "never open URLs through a
    shell"). On a Unix without a display (and no ``$BROWSER``) it returns ``False`` rather than start a
    console browser in our terminal; the caller then falls back to :func:`paste_redirect`.
    """
    validate_authorization_url(url, server=server)
    if (
        sys.platform not in ("darwin", "win32")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
        and not os.environ.get("BROWSER")
    ):
        return False
    try:
        return webbrowser.open(url, new=1, autoraise=True)
    except webbrowser.Error:
        return False


def read_pasted_redirect(
    authorization_url: str,
    redirect_uri: str,
    *,
    input_stream: TextIO,
    output: TextIO,
    server: str = "",
) -> dict[str, str]:
    """Print ``authorization_url`` and read back the redirect the browser ended on (blocking).

    Accepts the full address (which must be ``redirect_uri`` plus a query) or just its query string. The
    printed URL goes to the user's terminal, not to a log.
    """
    validate_authorization_url(authorization_url, server=server)
    who = f" to server {server!r}" if server else ""
    output.write(
        f"Open this URL in a browser to log in{who}:\n\n  {authorization_url}\n\n"
        f"After you approve, the browser goes to {redirect_uri}?code=... (that page may fail to load).\n"
        "Paste the full address from the browser's address bar here: "
    )
    output.flush()
    line = input_stream.readline().strip()
    if not line:
        raise AuthError(server, "no redirect URL was pasted")
    if "://" in line:
        pasted, expected = urlsplit(line), urlsplit(redirect_uri)
        if (pasted.scheme, pasted.netloc, pasted.path) != (expected.scheme, expected.netloc, expected.path):
            raise AuthRefused(server, "redirect", f"the pasted address is not {redirect_uri}")
        query = pasted.query
    else:
        query = line.lstrip("?")
    pairs = parse_qsl(query, keep_blank_values=True)
    params = dict(pairs)
    if len(params) != len(pairs) or ("code" not in params and "error" not in params):
        raise AuthError(server, "the pasted address carries no authorization response")
    return params


async def paste_redirect(
    authorization_url: str,
    redirect_uri: str,
    *,
    input_stream: TextIO,
    output: TextIO,
    server: str = "",
) -> dict[str, str]:
    """:func:`read_pasted_redirect` in a worker thread, so the event loop keeps running."""
    return await anyio.to_thread.run_sync(
        lambda: read_pasted_redirect(
            authorization_url, redirect_uri, input_stream=input_stream, output=output, server=server
        ),
        abandon_on_cancel=True,
    )


# --- sharing refreshes ---------------------------------------------------------------------------------


class SharedRefresh:
    """One token renewal at a time for one server, shared by everyone who saw the same token fail.

    Several calls hitting 401 at once each call :meth:`renew` with the token they sent; the first starts
    ``renewer()``, the others await that same task. A caller whose failed token is already replaced gets the
    current tokens at once instead of starting another renewal. Lives on the event loop (one per server).
    """

    def __init__(self, tokens: Tokens | None = None) -> None:
        self._tokens = tokens
        self._task: asyncio.Task[Tokens] | None = None

    @property
    def tokens(self) -> Tokens | None:
        """The current tokens."""
        return self._tokens

    def replace(self, tokens: Tokens | None) -> None:
        """Set the current tokens (after a login, a logout or a reload from the store)."""
        self._tokens = tokens

    async def renew(self, rejected: Tokens | None, renewer: Callable[[], Awaitable[Tokens]]) -> Tokens:
        """Fresh tokens after ``rejected`` failed or went stale (``None``: the caller had none).

        Pass the tokens the caller used; to renew proactively (not fresh any more), pass the current ones.
        """
        current = self._tokens
        if self._task is None:
            if current is not None and (rejected is None or current.access_token != rejected.access_token):
                return current  # someone already renewed the token this caller saw fail (or had none)
            self._task = asyncio.ensure_future(self._run(renewer))
        # shield: one impatient caller's cancellation must not cancel everyone's renewal.
        return await asyncio.shield(self._task)

    async def _run(self, renewer: Callable[[], Awaitable[Tokens]]) -> Tokens:
        try:
            tokens = await renewer()
            self._tokens = tokens
            return tokens
        finally:
            self._task = None


@contextlib.asynccontextmanager
async def holding_lock(
    store: CredentialStore, server: str, *, timeout: float = 30.0
) -> AsyncIterator[CredentialLock]:
    """Hold ``server``'s cross-process credential lock around a load → refresh → save sequence.

    The blocking ``flock`` wait runs in a worker thread, so the event loop never blocks on another process.
    """
    lock = store.lock(server, timeout=timeout)
    await anyio.to_thread.run_sync(lock.acquire)
    try:
        yield lock
    finally:
        lock.release()


# --- in-process logins (embedding applications, the conformance client) --------------------------------


@dataclass(frozen=True, slots=True)
class InteractiveLogin:
    """How a process that *can* ask its user completes an authorization without ``troupe login``.

    ``on_user_authorization`` is handed each :class:`UserAuthorization` (the URL to open) and returns the
    redirect's query parameters; ``redirect_uri`` is the address registered and sent in the request. A GUI
    would open the URL and listen on a :class:`LoopbackRedirect`; the conformance client follows the URL
    itself. Without one (the default) a troupe never waits for a user: it reports ``needs_login``.
    """

    redirect_uri: str
    on_user_authorization: UserAuthorizationHandler


_interactive_login: InteractiveLogin | None = None


def set_interactive_login(login: InteractiveLogin | None) -> None:
    """Install (or remove, with ``None``) the in-process login of this process's troupes.

    Process-wide on purpose: it describes the process (is there a user to ask?), not a server, and the
    facade's constructor is not the place to thread a UI callback through every actor.
    """
    global _interactive_login
    _interactive_login = login


def client_settings(config: OAuthConfig | None) -> ClientSettings:
    """The flows' view of a server's ``oauth:`` settings, reading no file (:func:`resolve_settings` does).

    Inline key material (``private_key``, ``assertion``, ``id_token``) is taken as it is; a ``*_file`` is read
    later, at each renewal.
    """
    if config is None:
        return ClientSettings()
    return ClientSettings(
        client_id=config.client_id,
        client_secret=config.client_secret,
        client_metadata_url=config.client_metadata_url,
        scopes=config.scopes,
        grant=config.grant,
        token_endpoint_auth_method=config.token_endpoint_auth_method,
        assertion=config.assertion if config.grant == "workload_identity" else config.id_token,
        idp_token_endpoint=config.idp_token_endpoint,
        idp_client_id=config.idp_client_id,
        idp_client_secret=config.idp_client_secret,
        dpop=config.dpop,
    )


MAX_MATERIAL_BYTES: Final = 64 * 1024
"""A key, a workload JWT or an ID token file larger than this is refused instead of read."""


def _read_material(path: str, *, server: str, key: str) -> str:
    """The text of a key or token file; errors name the config key and the path, never the content."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_MATERIAL_BYTES + 1)
    except OSError as error:
        raise AuthError(server, f"oauth.{key} {path!r} cannot be read: {error.strerror or error}") from None
    if len(data) > MAX_MATERIAL_BYTES:
        raise AuthError(server, f"oauth.{key} {path!r} is larger than {MAX_MATERIAL_BYTES} bytes")
    try:
        text = data.decode("ascii").strip()
    except UnicodeDecodeError:
        raise AuthError(server, f"oauth.{key} {path!r} is not ASCII text") from None
    if not text:
        raise AuthError(server, f"oauth.{key} {path!r} is empty")
    return text


def resolve_settings(config: OAuthConfig | None, *, server: str) -> ClientSettings:
    """:func:`client_settings` with the key and token files read now (blocking: call it in a worker thread).

    Run before each renewal: a platform rotates its workload JWT (a Kubernetes projected token lives about an
    hour) and an operator may rotate a key, and neither should need a restart. Raises :class:`AuthError`
    naming the config key; no key or token text is ever part of a message.
    """
    settings = client_settings(config)
    if config is None:
        return settings
    pem, pem_key = config.private_key, "private_key"
    if pem is None and config.private_key_file is not None:
        pem, pem_key = (
            _read_material(config.private_key_file, server=server, key="private_key_file"),
            "private_key_file",
        )
    signing_key: SigningKey | None = None
    if pem is not None:
        try:
            signing_key = SigningKey.from_pem(pem, algorithm=config.signing_algorithm, key_id=config.key_id)
        except KeyError_ as error:
            raise AuthError(server, f"oauth.{pem_key}: {error}") from None
    assertion = settings.assertion
    if config.grant == "workload_identity" and assertion is None and config.assertion_file is not None:
        assertion = _read_material(config.assertion_file, server=server, key="assertion_file")
    if config.grant == "enterprise" and assertion is None and config.id_token_file is not None:
        assertion = _read_material(config.id_token_file, server=server, key="id_token_file")
    return dataclasses.replace(settings, signing_key=signing_key, assertion=assertion)


def oauth_http_client() -> httpx.AsyncClient:
    """The OAuth endpoints' own HTTP client: the transport's TLS context, the environment's proxies, no
    default headers — nothing of the MCP server's configured headers may reach an authorization server.

    Build it on an actor thread (the TLS context may be built on first use); use it on the loop.
    """
    from mcp_troupe.actors.http import shared_ssl_context

    return httpx.AsyncClient(
        verify=shared_ssl_context(), trust_env=True, timeout=OAUTH_TIMEOUT, follow_redirects=False
    )


OAUTH_TIMEOUT: Final = 30.0
"""Seconds one request to an OAuth endpoint may take."""


def describe_auth(
    state: AuthState | None, *, now: float, problem: AuthError | None = None, grant: str | None = None
) -> dict[str, Any]:
    """What status output shows about a server's login: state, issuer, expiry, scopes — never a secret.

    ``state`` is ``logged_out``, ``valid``, ``refreshable`` (expired, with a refresh token), ``expired``,
    ``needs_login`` (a login is required and nobody could be asked) or ``unreadable`` (the store failed);
    ``error`` is the last failure's message (which never holds a secret: see :class:`AuthError`).
    """
    info: dict[str, Any] = {
        "state": "logged_out",
        "issuer": None,
        "expires_at": None,
        "scopes": [],
        "has_refresh_token": False,
        "error": None,
        "grant": grant,
        "token_type": None,
    }
    if state is not None:
        info["issuer"] = state.issuer
        info["grant"] = state.grant
        tokens = state.tokens
        if tokens is not None:
            if not tokens.is_expired(now):
                label = "valid"
            elif tokens.has_refresh_token:
                label = "refreshable"
            else:
                label = "expired"
            info.update(
                state=label,
                token_type=tokens.token_type,
                expires_at=tokens.expires_at,
                scopes=list(tokens.scope),
                has_refresh_token=tokens.has_refresh_token,
            )
    if problem is not None:
        info["error"] = str(problem)
        if isinstance(problem, NeedsLogin):
            info["state"] = "needs_login"
        elif isinstance(problem, CredentialStoreError):
            info["state"] = "unreadable"
    info["needs_login"] = needs_login(info, problem)
    return info


def needs_login(info: Mapping[str, Any], problem: AuthError | None) -> bool:
    """Whether a person must run ``troupe login`` (or fix the config) before this server works again.

    A refusal by the authorization server (``invalid_grant``: the refresh token is revoked or rotated away)
    or no tokens at all with a user grant needs a login; a network failure, a 5xx or a busy server does not
    — the next request retries by itself. Grants without a human never need a login: they need their
    credentials fixed, which the error says.
    """
    if problem is None:
        return info.get("state") in ("needs_login", "expired") and info.get("grant") in (
            None,
            "authorization_code",
        )
    if isinstance(problem, NeedsLogin):
        return True
    if isinstance(problem, AuthUnreachable):
        return False
    transient = getattr(problem, "transient", None)
    if transient is True:
        return False
    return info.get("grant") in (None, "authorization_code") and transient is False


class BearerTokens:
    """The loop side of one server's :class:`OAuthFlow`: the tokens every request of every incarnation uses.

    The HTTP transport holds a reference and awaits :meth:`token` before each request and
    :meth:`on_unauthorized` / :meth:`on_insufficient_scope` on a 401 / 403 challenge. Everything here runs on
    the I/O loop; renewals are loop tasks shared through :class:`SharedRefresh`; store I/O and the
    cross-process lock run in worker threads. Changes are reported to the owning actor with ``tell``.
    """

    def __init__(
        self,
        *,
        server: str,
        server_url: str,
        settings: ClientSettings,
        store: CredentialStore | None,
        client: httpx.AsyncClient,
        clock: Callable[[], float] = time.time,
        store_error: CredentialStoreError | None = None,
        oauth: OAuthConfig | None = None,
    ) -> None:
        self.server = server
        self.server_url = server_url
        self._settings = settings
        # With the config, key and token files are read again before each renewal (resolve_settings).
        self._oauth = oauth
        self._rs_nonce: str | None = None
        self._store = store
        self._store_error = store_error
        self._client = client
        self._clock = clock
        self._state: AuthState | None = None
        self._shared = SharedRefresh()
        self._loading: asyncio.Future[None] | None = None
        self._listener: pykka.ActorRef[Any] | None = None

    @property
    def grant(self) -> str:
        """How this server's tokens are obtained (``authorization_code``, ``client_credentials``...)."""
        return self._settings.grant

    def bind(self, listener: pykka.ActorRef[Any]) -> None:
        """Report every change to ``listener`` (the owning actor); call before the loop uses this object."""
        self._listener = listener

    # ---- what the transport calls (on the loop) -----------------------------------------------------------

    async def token(self) -> str | None:
        """The access token for the next request; ``None`` when there is none (the 401 starts discovery).

        A token about to expire is refreshed first (shared with every other caller); a stale token without
        a refresh token is sent anyway and the server's answer decides.
        """
        await self.load()
        tokens = self._shared.tokens
        if tokens is None:
            return None
        if tokens.is_fresh(self._clock()) or not tokens.has_refresh_token:
            return tokens.access_token
        renewed = await self._shared.renew(tokens, lambda: self._renew(None, None, tokens, None))
        return renewed.access_token

    async def on_unauthorized(
        self, sent: str | None, www_authenticate: str | None, protocol_version: str | None = None
    ) -> str:
        """A new access token after ``sent`` (``None``: none was sent) met a 401; raises an AuthError.

        Every caller that saw the same token fail shares one renewal; a caller whose token was already
        replaced gets the current one at once.
        """
        await self.load()
        rejected = self._rejected(sent)
        renewed = await self._shared.renew(
            rejected, lambda: self._renew(www_authenticate, None, rejected, protocol_version)
        )
        return renewed.access_token

    async def on_insufficient_scope(
        self,
        sent: str | None,
        www_authenticate: str | None,
        attempts: int,
        protocol_version: str | None = None,
    ) -> str:
        """A token with the scopes a 403 ``insufficient_scope`` asks for (previous plus challenged).

        ``attempts`` counts the step-ups already made for this call; :class:`InsufficientScope` ends it.
        """
        await self.load()
        current = self._shared.tokens
        is_replaced = current is not None and sent is not None and current.access_token != sent
        if is_replaced and attempts < MAX_STEP_UP_ATTEMPTS:
            assert current is not None
            return current.access_token  # another call stepped up (or renewed) meanwhile: try that first
        requested = self._state.requested_scopes if self._state is not None else ()
        scopes = step_up_scopes(
            requested=requested,
            granted=current.scope if current is not None else (),
            www_authenticate=www_authenticate,
            attempts=attempts,
            server=self.server,
        )
        rejected = self._rejected(sent)
        renewed = await self._shared.renew(
            rejected, lambda: self._renew(www_authenticate, scopes, rejected, protocol_version)
        )
        return renewed.access_token

    def authorization(self, token: str, method: str, url: str) -> dict[str, str]:
        """The headers that present ``token`` on one request: ``Authorization: Bearer …``, or for a DPoP-bound
        token ``Authorization: DPoP …`` with a fresh ``DPoP`` proof for this method and URL (RFC 9449 §7.1),
        carrying the resource server's nonce once it asked for one (§9). Synchronous: one ES256 signature."""
        current, state = self._shared.tokens, self._state
        if (
            current is not None
            and current.access_token == token
            and current.is_dpop_bound
            and state is not None
            and state.dpop_key is not None
        ):
            proof = state.dpop_key.proof(
                method,
                url,
                now=self._clock(),
                jti=secrets.token_urlsafe(24),
                access_token=token,
                nonce=self._rs_nonce,
            )
            return {"Authorization": f"DPoP {token}", "DPoP": proof}
        return {"Authorization": f"Bearer {token}"}

    def on_nonce_challenge(self, www_authenticate: str | None, nonce: str | None) -> bool:
        """Whether a 401 only asks for a (new) DPoP nonce: then it is kept for the next proofs and the request
        is sent again with the same token, not renewed (RFC 9449 §9). The caller bounds the retries."""
        current = self._shared.tokens
        if current is None or not current.is_dpop_bound:
            return False
        challenged = dpop_nonce_challenge(parse_www_authenticate(www_authenticate).get("error"), nonce)
        if challenged is None:
            return False
        self._rs_nonce = challenged
        return True

    # ---- lifecycle --------------------------------------------------------------------------------------

    async def load(self) -> None:
        """Read the stored credentials once (in a worker thread); every caller waits for the same read."""
        if self._loading is None:
            self._loading = asyncio.ensure_future(self._load())
        await asyncio.shield(self._loading)

    async def aclose(self) -> None:
        """Close the OAuth HTTP client."""
        await self._client.aclose()

    # ---- inside -----------------------------------------------------------------------------------------

    async def _load(self) -> None:
        problem: AuthError | None = None
        try:
            entry = await anyio.to_thread.run_sync(self._store_or_raise().load_latest, self.server)
        except (CredentialStoreError, OSError) as error:
            problem = (
                error
                if isinstance(error, CredentialStoreError)
                else CredentialStoreError(self.server, f"the credential store could not be read: {error}")
            )
            log.warning("server %s: stored credentials are unusable: %s", self.server, problem)
            entry = None
        state = entry.state if entry is not None else None
        if state is not None and not resource_matches(state.resource, self.server_url):
            # The server's URL changed since the login: those tokens are bound to another resource.
            log.info("server %s: stored credentials are for another URL; ignored", self.server)
            state = None
        self._adopt(state, problem)

    def _store_or_raise(self) -> CredentialStore:
        if self._store is None:
            assert self._store_error is not None
            raise self._store_error
        return self._store

    def _rejected(self, sent: str | None) -> Tokens | None:
        current = self._shared.tokens
        if current is not None and current.access_token == sent:
            return current
        return Tokens(access_token=sent) if sent else None

    def _adopt(self, state: AuthState | None, problem: AuthError | None = None) -> None:
        self._state = state
        self._shared.replace(state.tokens if state is not None else None)
        if self._listener is not None:
            safe_tell(self._listener, _TokensChanged(state, problem))

    async def _renew(
        self,
        www_authenticate: str | None,
        scopes: tuple[str, ...] | None,
        rejected: Tokens | None,
        protocol_version: str | None,
    ) -> Tokens:
        try:
            return await self._renew_locked(www_authenticate, scopes, rejected, protocol_version)
        except AuthError as error:
            if self._listener is not None:
                safe_tell(self._listener, _TokensChanged(self._state, error))
            raise

    async def _renew_locked(
        self,
        www_authenticate: str | None,
        scopes: tuple[str, ...] | None,
        rejected: Tokens | None,
        protocol_version: str | None,
    ) -> Tokens:
        store = self._store_or_raise()
        async with holding_lock(store, self.server):
            state = self._state
            # Another process holding the same lock may have renewed (and rotated the refresh token, which the
            # server has revoked since), or `troupe login` may have run since we last looked: use what it
            # stored instead of spending our copy or asking for a login.
            if state is not None:
                entry = await anyio.to_thread.run_sync(store.load, self.server, state.issuer)
            else:
                entry = await anyio.to_thread.run_sync(store.load_latest, self.server)
                if entry is not None and not resource_matches(entry.state.resource, self.server_url):
                    entry = None
            if entry is not None:
                if entry.state.tokens is not None:
                    stored = entry.state.tokens
                    is_other = rejected is None or stored.access_token != rejected.access_token
                    is_enough = scopes is None or set(scopes) <= set(stored.scope)
                    if is_other and is_enough and stored.is_fresh(self._clock()):
                        self._adopt(entry.state)
                        return stored
                state = entry.state
            login = _interactive_login
            settings = self._settings
            if self._oauth is not None:
                settings = await anyio.to_thread.run_sync(
                    lambda: resolve_settings(self._oauth, server=self.server)
                )
            if not settings.is_interactive:
                login = None  # a grant without a human never asks one, even where one could be asked
            new_state = await drive(
                obtain_tokens(
                    self.server_url,
                    settings=settings,
                    state=state,
                    www_authenticate=www_authenticate,
                    protocol_version=protocol_version,
                    redirect_uri=login.redirect_uri if login is not None else None,
                    clock=self._clock,
                    server=self.server,
                    scopes=scopes,
                ),
                self._client,
                on_user_authorization=login.on_user_authorization if login is not None else None,
                server=self.server,
            )
            try:
                await anyio.to_thread.run_sync(store.save, self.server, new_state)
            except OSError as error:
                # Propagates (the call fails, saying why): tokens we cannot keep would be lost on restart, and
                # a rotated refresh token lost with them. As an AuthError, so the connection survives.
                reason = f"the new tokens could not be saved: {error}"
                raise CredentialStoreError(self.server, reason) from error
        self._adopt(new_state)
        assert new_state.tokens is not None
        log.info("server %s: obtained a new access token", self.server)
        return new_state.tokens


# --- the actor -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _TokensChanged:
    """The loop side adopted new credentials, or failed to (``problem``)."""

    state: AuthState | None
    problem: AuthError | None = None


OAuthFlowMessage = _TokensChanged


class OAuthFlow(Supervised, pykka.ThreadingActor):
    """One HTTP server's OAuth: owns its :class:`BearerTokens` (the tokens, the shared refresh, the store
    handle) across connections, and reports each change to the supervisor as ``AuthStateChanged``."""

    use_daemon_thread = True

    def __init__(
        self,
        *,
        server: str,
        tokens: BearerTokens,
        supervisor: pykka.ActorRef[Any],
        runtime: Runtime,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__()
        self.server = server
        self.tokens = tokens
        self.supervisor = supervisor
        self.parent = supervisor
        self.runtime = runtime
        self._clock = clock
        # Constructed on the supervisor's thread, before any transport holds `tokens`.
        tokens.bind(self.actor_ref)

    def on_start(self) -> None:
        # Loading reads the disk: in a worker thread, started from the loop, reported back as _TokensChanged.
        try:
            self.runtime.loop.spawn(self.tokens.load, name=f"oauth load {self.server}")
        except TroupeClosed:
            pass

    def on_receive(self, message: Any) -> None:
        msg: OAuthFlowMessage = message
        match msg:
            case _TokensChanged(state=state, problem=problem):
                description = describe_auth(
                    state, now=self._clock(), problem=problem, grant=self.tokens.grant
                )
                safe_tell(self.supervisor, AuthStateChanged(self.server, description))
            case _:
                assert_never(msg)

    def on_stop(self) -> None:
        try:
            self.runtime.loop.spawn(self.tokens.aclose, name=f"oauth close {self.server}")
        except TroupeClosed:
            pass

    def on_crash(self, error: BaseException) -> None:
        """A bug in a handler: close the token client, as on a stop (the supervisor starts a new flow)."""
        self.on_stop()


def start_oauth_flow(
    config: ServerConfig, *, supervisor: pykka.ActorRef[Any], runtime: Runtime
) -> tuple[pykka.ActorRef[Any], BearerTokens]:
    """Start ``config``'s OAuthFlow; return its ref and the loop-side tokens to hand to every transport."""
    assert config.url is not None
    store: CredentialStore | None = None
    store_error: CredentialStoreError | None = None
    try:
        store = CredentialStore()
    except CredentialStoreError as error:
        store_error = error
    tokens = BearerTokens(
        server=config.name,
        server_url=config.url,
        settings=client_settings(config.oauth),
        store=store,
        store_error=store_error,
        client=oauth_http_client(),
        oauth=config.oauth,
    )
    ref = OAuthFlow.start(server=config.name, tokens=tokens, supervisor=supervisor, runtime=runtime)
    return ref, tokens


# --- troupe login / logout / status ------------------------------------------------------------------


async def probe_challenge(client: httpx.AsyncClient, config: ServerConfig) -> str | None:
    """The server's ``WWW-Authenticate`` challenge for a token-less ``initialize``, if it answers 401.

    A login started this way asks for the scopes the server names, as it would on a 401 mid-session.
    """
    assert config.url is not None
    from mcp_troupe.actors.http import ACCEPT_POST, SESSION_HEADER
    from mcp_troupe.actors.session import CLIENT_NAME
    from mcp_troupe.protocol import mcp as proto
    from mcp_troupe.protocol.jsonrpc import encode_request
    from mcp_troupe.protocol.versions import LATEST_LEGACY

    frame = encode_request(0, proto.INITIALIZE, proto.initialize_params(LATEST_LEGACY, CLIENT_NAME, "login"))
    headers = {"Accept": ACCEPT_POST, "Content-Type": "application/json"}
    try:
        response = await client.post(config.url, content=frame, headers=headers)
    except httpx.HTTPError as error:
        log.info("server %s: the login probe failed: %s", config.name, type(error).__name__)
        return None
    if response.status_code == 401:
        header: str | None = response.headers.get("www-authenticate")
        return header
    session_id = response.headers.get(SESSION_HEADER)
    if session_id:
        # Answered without authorization: end the session we just opened (spec: clients SHOULD DELETE).
        with contextlib.suppress(httpx.HTTPError):
            await client.delete(config.url, headers={SESSION_HEADER: session_id})
    return None


async def login(
    config: ServerConfig,
    *,
    store: CredentialStore,
    use_browser: bool = True,
    input_stream: TextIO,
    output: TextIO,
    clock: Callable[[], float] = time.time,
    timeout: float = DEFAULT_LOGIN_TIMEOUT,
) -> AuthState:
    """``troupe login NAME``: a fresh authorization (never just a refresh), stored on success.

    With the authorization code grant the browser is sent to the authorization URL and the redirect caught
    on ``127.0.0.1``; without a browser (``use_browser=False``, or no display) the URL is printed and the
    redirected address read back. A grant without a human (client credentials, workload identity,
    enterprise) runs at once: a login then checks the credentials end to end and stores the first tokens.
    """
    assert config.url is not None
    name = config.name
    oauth = config.oauth
    settings = await anyio.to_thread.run_sync(lambda: resolve_settings(oauth, server=name))
    async with oauth_http_client() as client:
        challenge = await probe_challenge(client, config)
        if not settings.is_interactive:
            async with holding_lock(store, name):
                entry = await anyio.to_thread.run_sync(store.load_latest, name)
                state = await drive(
                    obtain_tokens(
                        config.url,
                        settings=settings,
                        state=entry.state if entry is not None else None,
                        www_authenticate=challenge,
                        protocol_version=None,
                        redirect_uri=None,
                        clock=clock,
                        server=name,
                        force_authorization=True,
                    ),
                    client,
                    on_user_authorization=None,
                    server=name,
                )
                await anyio.to_thread.run_sync(store.save, name, state)
            return state
        async with LoopbackRedirect(oauth.redirect_port if oauth else 0, server=name) as redirect:

            async def on_user(step: UserAuthorization) -> Mapping[str, str]:
                is_opened = use_browser and await anyio.to_thread.run_sync(
                    lambda: open_browser(step.url, server=name)
                )
                if is_opened:
                    output.write(f"Opened the browser to log in to {name!r}; waiting for it to finish...\n")
                    output.flush()
                    return await redirect.wait(timeout=timeout, expected_state=step.state)
                return await paste_redirect(
                    step.url, step.redirect_uri, input_stream=input_stream, output=output, server=name
                )

            async with holding_lock(store, name):
                entry = await anyio.to_thread.run_sync(store.load_latest, name)
                previous = entry.state if entry is not None else None
                state = await drive(
                    obtain_tokens(
                        config.url,
                        settings=settings,
                        state=previous,
                        www_authenticate=challenge,
                        protocol_version=None,
                        redirect_uri=redirect.redirect_uri,
                        clock=clock,
                        server=name,
                        force_authorization=True,
                    ),
                    client,
                    on_user_authorization=on_user,
                    server=name,
                )
                await anyio.to_thread.run_sync(store.save, name, state)
    return state


def logout(name: str, *, store: CredentialStore) -> int:
    """``troupe logout NAME``: delete the server's stored credentials (every issuer); return how many."""
    return store.delete(name)
