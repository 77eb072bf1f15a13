"""Sans-I/O OAuth 2.1 for MCP: discovery, client registration, authorization code + PKCE, refresh.

Every flow here is a generator in the shape of httpx's ``Auth.auth_flow``: it *yields* an
:class:`httpx.Request` and is *sent* the :class:`httpx.Response`, or it yields a :class:`UserAuthorization`
(open this URL, wait for the redirect) and is sent the redirect's query parameters as a ``dict[str, str]``.
It *returns* its result (``StopIteration.value``) or raises an :class:`~mcp_troupe.errors.AuthError`.
Building an ``httpx.Request`` does no I/O, so everything in this module is pure: no sockets, no threads, no
clock reads and no hidden randomness. Time comes in as ``now`` (plain helpers) or as a ``clock`` callable
(flows that may wait minutes for a user, because a token's absolute expiry must be computed when its response
arrives, not when the flow started); randomness comes from an injectable ``secrets``-like source. A driver
(:func:`mcp_troupe.actors.oauth.drive`) sends the requests, follows and checks redirects, and runs the user
step; tests drive the same flows with canned responses.

The module is split along its seams: :mod:`~mcp_troupe.protocol.oauth_model` holds the data, the URL rules
and the bounds on server-sent numbers; :mod:`~mcp_troupe.protocol.oauth_tokens` the token endpoint and the
grants without a human (client credentials, jwt-bearer, token exchange, DPoP at the token endpoint);
:mod:`~mcp_troupe.protocol.jose` the signing; :mod:`~mcp_troupe.protocol.oauth_discovery` the challenge,
discovery and scope selection; :mod:`~mcp_troupe.protocol.oauth_registration` client registration. This module
has the code flow, the refresh and the composition, and re-exports every public name of the others, so callers
import from here only.

The flows, smallest first:

- :func:`discover` — Protected Resource Metadata (RFC 9728), then authorization-server metadata (RFC 8414 /
  OpenID Connect Discovery), with the 2025-03-26 fallback for servers without PRM;
- :func:`obtain_client` / :func:`register_client` — pre-registered client, Client ID Metadata Document, a
  stored dynamic registration, or Dynamic Client Registration (RFC 7591), in the spec's order;
- :func:`authorize` — authorization code with PKCE S256, ``state``, RFC 8707 ``resource`` and the RFC 9207
  ``iss`` check;
- :func:`refresh` — the refresh-token grant;
- :func:`obtain_tokens` — the composition an actor runs on a 401 or before its first request: refresh first,
  else discover, register and authorize; a failed refresh falls back to one authorization, never a loop.

Security rules enforced here (each raises :class:`~mcp_troupe.errors.AuthRefused` naming the rule):

- *https*: every URL fetched or named (PRM, issuer, every endpoint, every redirect hop, the authorization URL)
  is ``https``, or ``http`` on a loopback host only (spec: 2025-06-18 authorization, "All authorization server
  endpoints MUST be served over HTTPS"; security best practices, SSRF: "require HTTPS ... http only for
  loopback"); no userinfo in any of them;
- *same origin*: every ``*_endpoint`` in the authorization-server metadata has the issuer's origin, so a
  metadata document cannot send our code, verifier or secret to a third party (a mix-up defence);
- *resource*: the PRM's ``resource`` must be the server's URL (or a parent of it on the same origin) —
  RFC 9728 §3.3;
- *issuer*: the metadata's ``issuer`` must be the issuer we built the URL from — RFC 8414 §3.3, spec:
  2026-07-28 authorization-server-discovery;
- *pkce*: ``code_challenge_methods_supported`` must list ``S256`` — spec: 2025-11-25 authorization, "MUST
  refuse to proceed" when absent;
- *state* and *iss*: checked on the redirect before the code is redeemed (RFC 9207 table, spec: 2026-07-28).

Secrets: tokens, codes, verifiers and client secrets live only in fields left out of every ``repr`` and are
never put into an exception message; an authorization server's ``error_description`` is shown with any secret
of that request blanked out.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
import secrets as _secrets
from collections.abc import Mapping, Sequence

from mcp_troupe._httpx import httpx
from mcp_troupe.errors import (
    AuthError,
    AuthorizationDenied,
    AuthRefused,
    AuthServerError,
    ClientRejected,
    NeedsLogin,
)
from mcp_troupe.protocol.oauth_discovery import (
    discover,
    fetch_as_metadata,
    parse_www_authenticate,
    select_scopes,
    step_up_scopes,
)
from mcp_troupe.protocol.oauth_model import (
    DEFAULT_CLIENT_NAME,
    ID_JAG_TOKEN_TYPE,
    ID_TOKEN_TYPE,
    JWT_BEARER_GRANT,
    MAX_STEP_UP_ATTEMPTS,
    MAX_TIMESTAMP,
    MAX_TOKEN_LIFETIME,
    MIN_TOKEN_LIFETIME,
    OFFLINE_ACCESS,
    TOKEN_EXCHANGE_GRANT,
    AuthServerMetadata,
    AuthState,
    ClientKind,
    ClientRegistration,
    ClientSettings,
    Clock,
    Discovery,
    DpopMode,
    Flow,
    GrantKind,
    ProtectedResourceMetadata,
    Reply,
    Step,
    Tokens,
    UserAuthorization,
    _Random,
    _sanitize,
    _with_query,
    as_metadata_urls,
    canonical_resource,
    describe_url,
    is_loopback_host,
    legacy_metadata_url,
    lifetime_of,
    require_secure_url,
    resource_matches,
    validate_authorization_url,
    validate_endpoint,
    well_known_prm_urls,
)
from mcp_troupe.protocol.oauth_registration import obtain_client, register_client
from mcp_troupe.protocol.oauth_tokens import (
    TokenRequestContext,
    _dpop_key_for,
    _machine_tokens,
    _parse_tokens,
    _token_request,
    client_credentials,
    exchange_for_id_jag,
    jwt_bearer,
    machine_client,
    token_endpoint_auth_method,
)

__all__ = [
    "DEFAULT_CLIENT_NAME",
    "ID_JAG_TOKEN_TYPE",
    "ID_TOKEN_TYPE",
    "JWT_BEARER_GRANT",
    "MAX_STEP_UP_ATTEMPTS",
    "MAX_TIMESTAMP",
    "MAX_TOKEN_LIFETIME",
    "MIN_TOKEN_LIFETIME",
    "OFFLINE_ACCESS",
    "TOKEN_EXCHANGE_GRANT",
    "AuthServerMetadata",
    "AuthState",
    "ClientKind",
    "ClientRegistration",
    "ClientSettings",
    "Clock",
    "Discovery",
    "DpopMode",
    "Flow",
    "GrantKind",
    "ProtectedResourceMetadata",
    "Reply",
    "Step",
    "TokenRequestContext",
    "Tokens",
    "UserAuthorization",
    "as_metadata_urls",
    "authorize",
    "canonical_resource",
    "check_iss",
    "client_credentials",
    "describe_url",
    "discover",
    "exchange_for_id_jag",
    "fetch_as_metadata",
    "is_loopback_host",
    "jwt_bearer",
    "legacy_metadata_url",
    "lifetime_of",
    "machine_client",
    "obtain_client",
    "obtain_tokens",
    "parse_www_authenticate",
    "pkce_challenge",
    "refresh",
    "register_client",
    "require_secure_url",
    "resource_matches",
    "select_scopes",
    "step_up_scopes",
    "token_endpoint_auth_method",
    "validate_authorization_url",
    "validate_endpoint",
    "well_known_prm_urls",
]


def pkce_challenge(verifier: str) -> str:
    """The S256 ``code_challenge`` of ``verifier`` (RFC 7636 §4.2)."""
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def require_s256(metadata: AuthServerMetadata, *, server: str = "") -> None:
    """Refuse unless the metadata lists ``S256`` in ``code_challenge_methods_supported``.

    spec: 2025-11-25 authorization — "MUST use S256 when technically capable" and, when the field is absent,
    "MUST refuse to proceed". The 2025-03-26 defaults have no metadata to check; PKCE S256 is used anyway.
    """
    if metadata.from_defaults:
        return
    methods = metadata.code_challenge_methods_supported
    if methods is None or "S256" not in methods:
        shown = "absent" if methods is None else (", ".join(methods) or "empty")
        raise AuthRefused(
            server, "pkce", f"{describe_url(metadata.issuer)} does not advertise PKCE S256 ({shown})"
        )


def check_iss(params: Mapping[str, str], *, expected_issuer: str, advertised: bool, server: str = "") -> None:
    """The RFC 9207 check on an authorization response, success or error alike.

    | advertised | ``iss`` present | action |
    | yes        | yes             | exact string compare |
    | yes        | no              | reject |
    | no         | yes             | compare anyway |
    | no         | no              | proceed |

    spec: 2026-07-28 authorization, mix-up defence. On a mismatch nothing of the response (not even its
    ``error``) is shown: it may come from the attacker's server.
    """
    iss = params.get("iss")
    if iss is None:
        if advertised:
            raise AuthRefused(server, "iss", "the authorization response lacks the advertised iss parameter")
        return
    if iss != expected_issuer:
        raise AuthRefused(server, "iss", "the authorization response comes from another issuer")


def authorize(
    metadata: AuthServerMetadata,
    client: ClientRegistration,
    *,
    resource: str,
    scopes: Sequence[str],
    redirect_uri: str,
    clock: Clock,
    server: str = "",
    random: _Random = _secrets,
    context: TokenRequestContext | None = None,
) -> Flow[Tokens]:
    """Authorization code grant with PKCE S256, a random ``state``, ``resource`` and the ``iss`` check.

    Yields one :class:`UserAuthorization`, then the token request. ``resource`` goes into both the
    authorization and the token request (RFC 8707; spec: 2025-06-18, "MUST ... regardless of whether
    authorization servers support it").
    """
    require_s256(metadata, server=server)
    validate_endpoint(
        metadata.authorization_endpoint, metadata.issuer, server=server, name="authorization_endpoint"
    )
    verifier = random.token_urlsafe(64)
    if not 43 <= len(verifier) <= 128:  # RFC 7636 §4.1
        raise ValueError("the random source gave a PKCE verifier of the wrong length")
    state = random.token_urlsafe(32)
    query: dict[str, str] = {
        "response_type": "code",
        "client_id": client.client_id,
        "redirect_uri": redirect_uri,
        "code_challenge": pkce_challenge(verifier),
        "code_challenge_method": "S256",
        "state": state,
        "resource": resource,
    }
    if scopes:
        query["scope"] = " ".join(scopes)
    url = _with_query(metadata.authorization_endpoint, query)
    validate_authorization_url(url, server=server)

    reply = yield UserAuthorization(url=url, state=state, redirect_uri=redirect_uri)
    if isinstance(reply, httpx.Response):
        raise TypeError("the driver answered the user step with an HTTP response")
    params = dict(reply)

    # The issuer first: an unverified response's error fields must not even be shown (RFC 9207).
    check_iss(
        params,
        expected_issuer=metadata.issuer,
        advertised=metadata.authorization_response_iss_parameter_supported,
        server=server,
    )
    if not hmac.compare_digest(params.get("state", "").encode(), state.encode()):
        raise AuthRefused(server, "state", "the authorization response's state does not match this login")
    if "error" in params:
        raise AuthorizationDenied(
            server, _sanitize(params["error"], 64), _sanitize(params.get("error_description", ""))
        )
    code = params.get("code")
    if not code:
        raise AuthorizationDenied(server, "no_code", "the authorization response carried no code")

    body = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": redirect_uri,
        "code_verifier": verifier,
        "resource": resource,
    }
    document = yield from _token_request(
        metadata, client, body, server=server, secrets_sent=(code, verifier), context=context
    )
    return _parse_tokens(
        document,
        now=clock(),
        previous=None,
        requested=tuple(scopes),
        server=server,
        is_dpop=context is not None and context.dpop_key is not None,
    )


def refresh(
    metadata: AuthServerMetadata,
    client: ClientRegistration,
    tokens: Tokens,
    *,
    resource: str,
    clock: Clock,
    server: str = "",
    context: TokenRequestContext | None = None,
) -> Flow[Tokens]:
    """The refresh-token grant (RFC 6749 §6) with ``resource``.

    A response without a new refresh token keeps the old one, and one without ``scope`` keeps the old scopes
    (RFC 6749 §5.1, §6; overwriting them with nothing was a peer bug). Raises :class:`AuthServerError`;
    ``transient`` tells a 5xx or garbled answer from a refusal such as ``invalid_grant``.
    """
    if not tokens.refresh_token:
        raise AuthError(server, "no refresh token to refresh with")
    body = {"grant_type": "refresh_token", "refresh_token": tokens.refresh_token, "resource": resource}
    document = yield from _token_request(
        metadata, client, body, server=server, secrets_sent=(tokens.refresh_token,), context=context
    )
    return _parse_tokens(
        document,
        now=clock(),
        previous=tokens,
        requested=tokens.scope,
        server=server,
        is_dpop=context is not None and context.dpop_key is not None,
    )


def obtain_tokens(
    server_url: str,
    *,
    settings: ClientSettings,
    state: AuthState | None,
    www_authenticate: str | None,
    protocol_version: str | None,
    redirect_uri: str | None,
    clock: Clock,
    server: str = "",
    scopes: Sequence[str] | None = None,
    force_authorization: bool = False,
    random: _Random = _secrets,
) -> Flow[AuthState]:
    """Get usable tokens for ``server_url``: refresh if we can, else discover, register and authorize.

    Args:
        state: what we hold (from the store or memory), or ``None``.
        www_authenticate: the challenge of the 401 (or 403) that started this, if any.
        redirect_uri: the loopback redirect of an interactive login; ``None`` in a non-interactive process,
            where needing the user raises :class:`NeedsLogin` instead of waiting for one.
        scopes: explicit scopes (a step-up's union); otherwise :func:`select_scopes` decides.
        force_authorization: skip the refresh (``troupe login``).

    Returns the new :class:`AuthState`, to be stored by the caller. Each step runs at most once: one
    refresh; if it is refused, one authorization; if the code exchange meets a confirmed ``invalid_client``
    with a dynamic client, one re-registration and one more authorization. Never a loop.
    """
    if scopes is not None:
        scopes = tuple(dict.fromkeys(scopes))
    client = state.client if state else None

    # 1. Refresh, when it can give what is asked: a refresh cannot widen scopes (RFC 6749 §6).
    if (
        state is not None
        and state.tokens is not None
        and state.tokens.refresh_token
        and client is not None
        and not force_authorization
        and (scopes is None or set(scopes) <= set(state.tokens.scope))
    ):
        context = TokenRequestContext(
            clock=clock,
            random=random,
            signing_key=settings.signing_key,
            dpop_key=state.dpop_key if state.tokens.is_dpop_bound else None,
        )
        try:
            tokens = yield from refresh(
                state.metadata,
                client,
                state.tokens,
                resource=state.resource,
                clock=clock,
                server=server,
                context=context,
            )
        except ClientRejected:
            if client.kind != "dynamic":
                raise
            client = None  # a confirmed dead registration: register again below
        except AuthServerError as error:
            if error.transient:
                raise  # a hiccup is not a reason to make the user log in again
            # invalid_grant and friends: fall through to one new authorization (or, without a user, one new
            # run of the machine grant).
        else:
            return dataclasses.replace(state, client=client, tokens=tokens)

    # 2. Discovery. Credentials are bound to the issuer: another issuer means another client and tokens.
    discovery = yield from discover(
        server_url,
        www_authenticate=www_authenticate,
        protocol_version=protocol_version,
        server=server,
        preferred_issuer=state.issuer if state else None,
    )
    if state is None or discovery.issuer != state.issuer:
        client = None
    metadata = discovery.as_metadata
    if scopes is None:
        scopes = select_scopes(
            challenge=discovery.scopes_from_challenge,
            configured=settings.scopes,
            prm_supported=discovery.prm.scopes_supported if discovery.prm else None,
            # offline_access asks for a refresh token on a user's behalf (SEP-2207); a grant without a user
            # renews by running again, and RFC 6749 §4.4.3 issues it no refresh token anyway.
            as_supported=metadata.scopes_supported if settings.is_interactive else None,
        )

    dpop_key = _dpop_key_for(settings, metadata, state, server=server)
    context = TokenRequestContext(
        clock=clock, random=random, signing_key=settings.signing_key, dpop_key=dpop_key
    )

    def granted(client: ClientRegistration, tokens: Tokens, grant: GrantKind) -> AuthState:
        return AuthState(
            issuer=discovery.issuer,
            resource=discovery.resource,
            metadata=metadata,
            client=client,
            tokens=tokens,
            requested_scopes=tuple(scopes),
            dpop_key=dpop_key if tokens.is_dpop_bound else None,
            grant=grant,
        )

    # 3a. Without a human: the client's own credentials, a workload JWT, or the enterprise IdP's grant.
    if not settings.is_interactive:
        client, tokens = yield from _machine_tokens(
            discovery, settings, scopes=scopes, context=context, server=server
        )
        return granted(client, tokens, settings.grant)

    # 3b. The user is needed from here on.
    if redirect_uri is None:
        raise NeedsLogin(server)
    require_s256(metadata, server=server)

    # 4. Client, then authorization (one re-registration on a confirmed invalid_client).
    for last_try in (False, True):
        client = yield from obtain_client(
            metadata, settings, stored=client, redirect_uri=redirect_uri, clock=clock, server=server
        )
        try:
            tokens = yield from authorize(
                metadata,
                client,
                resource=discovery.resource,
                scopes=scopes,
                redirect_uri=redirect_uri,
                clock=clock,
                server=server,
                random=random,
                context=context,
            )
        except ClientRejected:
            if client.kind != "dynamic" or last_try:
                raise
            client = None
            continue
        return granted(client, tokens, "authorization_code")
    raise AssertionError("unreachable")  # pragma: no cover
