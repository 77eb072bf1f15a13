"""The loop side of an OAuthFlow: the tokens every request of every incarnation of one server uses.

Part of the OAuth actor layer (:mod:`mcp_troupe.actors.oauth` re-exports every public name here, and its
docstring says why this half lives on the loop rather than behind the actor's mailbox):

- :class:`BearerTokens` owns the :class:`~mcp_troupe.protocol.oauth.AuthState`, the :class:`SharedRefresh`
  and the credential-store handle; the HTTP transport awaits it before each request and on a challenge;
- :class:`SharedRefresh` makes concurrent 401s of one server share one refresh;
- :func:`holding_lock` holds the cross-process credential lock without blocking the loop;
- :class:`InteractiveLogin` / :func:`set_interactive_login`: whether this process can ask its user;
- :func:`client_settings` / :func:`resolve_settings`: the flows' view of a server's ``oauth:`` settings.

Every change is reported to the owning actor as a ``_TokensChanged`` with ``tell``; logs never hold a token,
code or secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

import anyio
import anyio.to_thread
import pykka

from mcp_troupe._httpx import httpx
from mcp_troupe.actors.loop import safe_tell
from mcp_troupe.actors.oauth_drive import UserAuthorizationHandler, drive
from mcp_troupe.config import OAuthConfig
from mcp_troupe.credentials import CredentialLock, CredentialStore
from mcp_troupe.errors import AuthError, CredentialStoreError
from mcp_troupe.protocol.jose import KeyError_, SigningKey, dpop_nonce_challenge
from mcp_troupe.protocol.oauth import (
    MAX_STEP_UP_ATTEMPTS,
    AuthState,
    ClientSettings,
    Tokens,
    obtain_tokens,
    parse_www_authenticate,
    resource_matches,
    step_up_scopes,
)

__all__ = [
    "MAX_MATERIAL_BYTES",
    "BearerTokens",
    "InteractiveLogin",
    "SharedRefresh",
    "client_settings",
    "holding_lock",
    "resolve_settings",
    "set_interactive_login",
]

# The logger of the whole OAuth layer: operators filter on one name, whichever module logs.
log = logging.getLogger("mcp_troupe.oauth")


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


@dataclass(frozen=True, slots=True)
class _TokensChanged:
    """The loop side adopted new credentials, or failed to (``problem``)."""

    state: AuthState | None
    problem: AuthError | None = None


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
