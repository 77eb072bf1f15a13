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

The code is split along those seams, and this module re-exports every public name: the driver, the
loopback redirect, the browser and the paste fallback are in :mod:`~mcp_troupe.actors.oauth_drive`; the loop
side (:class:`BearerTokens`, :class:`SharedRefresh`, the interactive-login switch and the settings) is in
:mod:`~mcp_troupe.actors.oauth_bearer`; the actor, its start, the status view and ``troupe login`` /
``logout`` stay here.

A process that cannot ask its user never waits for one: a flow that needs the user raises
:class:`~mcp_troupe.errors.NeedsLogin` (the server's state becomes ``needs_login``), unless an embedding
application installed an :class:`InteractiveLogin`. :func:`login` and :func:`logout` serve ``troupe login``
and ``troupe logout``. Logs name URLs without their query and never a token, code or secret.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, Final, TextIO, assert_never

import anyio
import anyio.to_thread
import pykka

from mcp_troupe._httpx import httpx
from mcp_troupe.actors.loop import Runtime, safe_tell
from mcp_troupe.actors.oauth_bearer import MAX_MATERIAL_BYTES as MAX_MATERIAL_BYTES
from mcp_troupe.actors.oauth_bearer import (
    BearerTokens,
    InteractiveLogin,
    SharedRefresh,
    _TokensChanged,
    client_settings,
    holding_lock,
    resolve_settings,
    set_interactive_login,
)
from mcp_troupe.actors.oauth_drive import (
    CALLBACK_PATH,
    DEFAULT_LOGIN_TIMEOUT,
    LoopbackRedirect,
    drive,
    open_browser,
    paste_redirect,
    read_pasted_redirect,
)
from mcp_troupe.actors.oauth_drive import MAX_BODY_BYTES as MAX_BODY_BYTES
from mcp_troupe.actors.oauth_drive import MAX_REDIRECTS as MAX_REDIRECTS
from mcp_troupe.actors.oauth_drive import UserAuthorizationHandler as UserAuthorizationHandler
from mcp_troupe.actors.oauth_events import AuthStateChanged
from mcp_troupe.actors.supervision import Supervised
from mcp_troupe.config import ServerConfig
from mcp_troupe.credentials import CredentialStore
from mcp_troupe.errors import (
    AuthError,
    AuthUnreachable,
    CredentialStoreError,
    NeedsLogin,
    TroupeClosed,
)
from mcp_troupe.protocol.oauth import (
    AuthState,
    UserAuthorization,
    obtain_tokens,
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


# --- the actor -----------------------------------------------------------------------------------------


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
