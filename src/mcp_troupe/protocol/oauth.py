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
:mod:`~mcp_troupe.protocol.jose` the signing. This module has discovery, registration, the code flow and the
composition, and re-exports every public name of the others, so callers import from here only.

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
import re
import secrets as _secrets
from collections.abc import Mapping, Sequence
from typing import Any, Final
from urllib.parse import urlsplit

import httpx

from mcp_troupe.errors import (
    AuthError,
    AuthorizationDenied,
    AuthRefused,
    AuthServerError,
    ClientRejected,
    DiscoveryFailed,
    InsufficientScope,
    NeedsLogin,
)
from mcp_troupe.protocol.oauth_model import (
    _JSON_HEADERS,
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
    _fetch,
    _json,
    _opt_str,
    _opt_str_tuple,
    _opt_timestamp,
    _origin_url,
    _Random,
    _sanitize,
    _scopes_of,
    _str_tuple,
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
from mcp_troupe.protocol.oauth_tokens import (
    TokenRequestContext,
    _dpop_key_for,
    _endpoint_error,
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
    "challenge_scheme",
    "check_iss",
    "client_credentials",
    "describe_url",
    "discover",
    "exchange_for_id_jag",
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


_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")


def parse_www_authenticate(header: str | None) -> dict[str, str]:
    """The auth-params of the ``Bearer`` challenge in a ``WWW-Authenticate`` value (lowercase keys).

    Handles several challenges in one value (``Basic realm="x", Bearer scope="a b"``), quoted strings with
    backslash escapes, and bare tokens (RFC 9110 §11.6.1). Yields e.g. ``resource_metadata`` (RFC 9728 §5.1),
    ``scope``, ``error``, ``error_description`` (RFC 6750 §3). Without a Bearer challenge, the ``DPoP``
    challenge's (RFC 9449 §7.1: same parameters, plus ``algs``); ``{}`` without either.
    """
    if not header:
        return {}
    challenges: list[tuple[str, dict[str, str]]] = []
    i, n = 0, len(header)
    while i < n:
        while i < n and header[i] in " \t,":
            i += 1
        match = _TOKEN.match(header, i)
        if match is None:
            i += 1  # skip a stray character rather than give up on the whole header
            continue
        word, i = match.group(), match.end()
        j = i
        while j < n and header[j] in " \t":
            j += 1
        if j < n and header[j] == "=" and challenges:
            # An auth-param of the current challenge.
            j += 1
            while j < n and header[j] in " \t":
                j += 1
            if j < n and header[j] == '"':
                value_chars: list[str] = []
                j += 1
                while j < n and header[j] != '"':
                    if header[j] == "\\" and j + 1 < n:
                        j += 1
                    value_chars.append(header[j])
                    j += 1
                value, i = "".join(value_chars), j + 1
            else:
                value_match = _TOKEN.match(header, j)
                value, i = (value_match.group(), value_match.end()) if value_match else ("", j)
            challenges[-1][1].setdefault(word.lower(), value)
        else:
            challenges.append((word.lower(), {}))
            # A token68 credential right after the scheme is skipped; Bearer challenges do not use one.
            if j < n and header[j] not in ",":
                token68 = re.match(r"[A-Za-z0-9\-._~+/]+=*(?=\s*(,|$))", header[j:])
                if token68 is not None:
                    i = j + token68.end()
    for wanted in ("bearer", "dpop"):
        for scheme, params in challenges:
            if scheme == wanted:
                return params
    return {}


def challenge_scheme(header: str | None) -> str | None:
    """The first auth scheme a ``WWW-Authenticate`` value offers, lowercased (``bearer``, ``dpop``...)."""
    if not header:
        return None
    match = _TOKEN.match(header.lstrip(" \t,"))
    return match.group().lower() if match else None


_LEGACY_VERSIONS: Final = frozenset({"2024-11-05", "2025-03-26"})


def _get(url: str, protocol_version: str | None) -> httpx.Request:
    headers = dict(_JSON_HEADERS)
    if protocol_version:
        # spec: 2025-03-26 authorization — clients SHOULD send MCP-Protocol-Version during discovery.
        headers["MCP-Protocol-Version"] = protocol_version
    return httpx.Request("GET", url, headers=headers)


def discover(
    server_url: str,
    *,
    www_authenticate: str | None,
    protocol_version: str | None,
    server: str = "",
    preferred_issuer: str | None = None,
) -> Flow[Discovery]:
    """Find the authorization server of ``server_url``.

    PRM from the challenge's ``resource_metadata``, else the path-inserted well-known URL, else the root one
    (the well-known URLs are also tried when the challenge's URL answers with an error). A PRM whose
    ``resource`` is not this server stops the flow. Of the PRM's ``authorization_servers``, the
    ``preferred_issuer`` (the one we hold credentials for) is chosen if listed, else the first (RFC 9728 §7.6
    leaves the choice to the client). Without any PRM, servers on 2025-03-26 — or of unknown revision, since a
    401 may answer ``initialize`` itself — get the 2025-03-26 path: metadata at the origin, else defaults.
    """
    challenge = parse_www_authenticate(www_authenticate)
    server_url = require_secure_url(server_url, server=server, what="server URL")
    candidates = well_known_prm_urls(server_url)
    header_url = challenge.get("resource_metadata")
    if header_url:
        candidates = [header_url, *(url for url in candidates if url != header_url)]
    prm: ProtectedResourceMetadata | None = None
    for url in candidates:
        require_secure_url(url, server=server, what="protected resource metadata URL")
        response = yield from _fetch(_get(url, protocol_version))
        if response.status_code != 200:
            continue
        document = _json(response)
        if not isinstance(document, Mapping):
            continue
        prm = _parse_prm(document, url=url, server_url=server_url, server=server)
        break

    if prm is None:
        if protocol_version is not None and protocol_version not in _LEGACY_VERSIONS:
            raise DiscoveryFailed(
                server,
                f"no protected resource metadata for {describe_url(server_url)} "
                f"(tried {', '.join(describe_url(url) for url in candidates)})",
            )
        metadata = yield from _legacy_metadata(server_url, protocol_version, server)
        return Discovery(
            prm=None,
            as_metadata=metadata,
            issuer=metadata.issuer,
            resource=canonical_resource(server_url),
            scopes_from_challenge=_scopes_of(challenge.get("scope")),
        )

    if preferred_issuer in prm.authorization_servers:
        issuer = preferred_issuer
    else:
        issuer = prm.authorization_servers[0]
    metadata = yield from fetch_as_metadata(issuer, protocol_version=protocol_version, server=server)
    return Discovery(
        prm=prm,
        as_metadata=metadata,
        issuer=metadata.issuer,
        resource=canonical_resource(prm.resource),
        scopes_from_challenge=_scopes_of(challenge.get("scope")),
    )


def _parse_prm(
    document: Mapping[str, Any], *, url: str, server_url: str, server: str
) -> ProtectedResourceMetadata:
    resource = document.get("resource")
    if not isinstance(resource, str) or not resource_matches(resource, server_url):
        # RFC 9728 §3.3 / §7.3: metadata for another resource must not be used — it would bind our token to
        # a resource the server merely names.
        shown = describe_url(resource) if isinstance(resource, str) else "none"
        raise AuthRefused(
            server,
            "resource",
            f"protected resource metadata at {describe_url(url)} is for {shown}, "
            f"not {describe_url(server_url)}",
        )
    servers = _opt_str_tuple(document.get("authorization_servers"))
    if not servers:
        # spec: 2025-06-18 authorization — the PRM MUST list authorization_servers.
        raise DiscoveryFailed(server, f"protected resource metadata at {describe_url(url)} names no server")
    return ProtectedResourceMetadata(
        resource=resource,
        authorization_servers=servers,
        scopes_supported=_opt_str_tuple(document.get("scopes_supported")),
        url=url,
    )


def fetch_as_metadata(
    issuer: str, *, protocol_version: str | None = None, server: str = ""
) -> Flow[AuthServerMetadata]:
    """Fetch and validate the metadata of ``issuer`` from :func:`as_metadata_urls`, first that answers 200."""
    require_secure_url(issuer, server=server, what="issuer")
    parts = urlsplit(issuer)
    if parts.query or parts.fragment:
        # RFC 8414 §2: an issuer has no query or fragment.
        raise AuthRefused(server, "issuer", f"issuer {describe_url(issuer)} has a query or fragment")
    urls = as_metadata_urls(issuer)
    for url in urls:
        response = yield from _fetch(_get(url, protocol_version))
        if response.status_code != 200:
            continue
        document = _json(response)
        if not isinstance(document, Mapping):
            continue
        return AuthServerMetadata.parse(document, expected_issuer=issuer, server=server)
    raise DiscoveryFailed(
        server,
        f"no authorization-server metadata for {describe_url(issuer)} "
        f"(tried {', '.join(describe_url(url) for url in urls)})",
    )


def _legacy_metadata(server_url: str, protocol_version: str | None, server: str) -> Flow[AuthServerMetadata]:
    # spec: 2025-03-26 authorization — the authorization base URL is the server URL with the path
    # discarded; metadata MUST be tried first, and only when it is missing (404) do the defaults apply.
    url = legacy_metadata_url(server_url)
    response = yield from _fetch(_get(url, protocol_version))
    if response.status_code == 200:
        document = _json(response)
        if isinstance(document, Mapping):
            # The one place the issuer rule bends (the 2025-03-26 backcompat case): 2025-03-26 had no PRM and
            # told clients to take the metadata from the MCP server's own origin, and servers of that era
            # name issuers such as https://host/oauth there. What the rule defends against — a document that
            # sends our code, verifier or secret to another party — cannot happen here: the document came
            # from the very origin we are about to send the MCP requests to, and validate_endpoint still holds
            # every endpoint to that origin. So an issuer on this origin whose path differs is accepted;
            # another origin, a query or a fragment is refused as everywhere else.
            return AuthServerMetadata.parse(
                document, expected_issuer=_origin_url(server_url), server=server, same_origin_issuer=True
            )
    if response.status_code == 404:
        return AuthServerMetadata.defaults_for(server_url, server=server)
    raise DiscoveryFailed(
        server, f"authorization-server metadata at {describe_url(url)} answered HTTP {response.status_code}"
    )


def select_scopes(
    *,
    challenge: Sequence[str] | None,
    configured: Sequence[str] = (),
    prm_supported: Sequence[str] | None = None,
    as_supported: Sequence[str] | None = None,
) -> tuple[str, ...]:
    """The scopes of a first authorization.

    spec: 2025-11-25 authorization, "Scope Selection Strategy": the 401's ``scope`` (authoritative), else
    all of the PRM's ``scopes_supported``, else none. The operator's ``oauth.scopes`` sit between the two:
    more specific than the PRM's whole list, never overriding a challenge. ``offline_access`` is added only
    when the authorization server lists it (spec: 2026-07-28, "Refresh Tokens") and something else is asked
    for: requesting ``offline_access`` alone could narrow a default grant to nothing useful.
    """
    if challenge:
        chosen = tuple(challenge)
    elif configured:
        chosen = tuple(configured)
    elif prm_supported:
        chosen = tuple(prm_supported)
    else:
        chosen = ()
    chosen = tuple(dict.fromkeys(chosen))
    if chosen and as_supported and OFFLINE_ACCESS in as_supported and OFFLINE_ACCESS not in chosen:
        chosen = (*chosen, OFFLINE_ACCESS)
    return chosen


def step_up_scopes(
    *,
    requested: Sequence[str],
    granted: Sequence[str],
    www_authenticate: str | None,
    attempts: int,
    server: str = "",
    limit: int = MAX_STEP_UP_ATTEMPTS,
) -> tuple[str, ...]:
    """The scopes to re-authorize with after a 403 ``insufficient_scope``: previous + challenged.

    ``attempts`` counts the step-ups already made for this operation. Raises :class:`InsufficientScope` when
    the budget is spent, when the challenge names no scope, or when we already hold every challenged scope
    (asking again could not help: the denial is cached instead of looping; spec: security best practices,
    "Scope Minimization"). spec: 2026-07-28 authorization, step-up — "union of previously requested scopes
    and the challenged scopes"; 2025-11-25 — "limit retries and track attempts".
    """
    challenge = parse_www_authenticate(www_authenticate)
    needed = _scopes_of(challenge.get("scope")) or ()
    if attempts >= limit:
        raise InsufficientScope(server, needed, attempts, "step-up attempts exhausted")
    if not needed:
        raise InsufficientScope(server, needed, attempts, "the server's 403 names no scope to ask for")
    if granted and set(needed) <= set(granted):
        raise InsufficientScope(server, needed, attempts, "every challenged scope is already granted")
    return tuple(dict.fromkeys((*requested, *needed)))


def _registration_auth_method(metadata: AuthServerMetadata) -> str:
    supported = metadata.token_endpoint_auth_methods_supported
    if supported is not None and "none" in supported:
        return "none"  # a native public client: nothing to keep secret (PKCE protects the code)
    if supported is None or "client_secret_basic" in supported:
        return "client_secret_basic"
    if "client_secret_post" in supported:
        return "client_secret_post"
    return "none"


def obtain_client(
    metadata: AuthServerMetadata,
    settings: ClientSettings,
    *,
    stored: ClientRegistration | None,
    redirect_uri: str,
    clock: Clock,
    server: str = "",
) -> Flow[ClientRegistration]:
    """Our client at this authorization server, in the spec's order (spec: 2025-11-25, client registration):

    1. pre-registered credentials from the config;
    2. a Client ID Metadata Document, when the server advertises ``client_id_metadata_document_supported``
       and one is configured;
    3. a stored dynamic registration *of this issuer* (credentials are bound to the issuer: spec 2026-07-28),
       reused across runs — re-registering every run was a peer bug;
    4. Dynamic Client Registration at ``registration_endpoint``.
    """
    if settings.client_id:
        return ClientRegistration(
            client_id=settings.client_id,
            client_secret=settings.client_secret,
            token_endpoint_auth_method=token_endpoint_auth_method(
                metadata, has_secret=bool(settings.client_secret), server=server
            ),
            issuer=metadata.issuer,
            kind="preregistered",
        )
    if settings.client_metadata_url and metadata.client_id_metadata_document_supported:
        url = require_secure_url(settings.client_metadata_url, server=server, what="client_metadata_url")
        return ClientRegistration(
            client_id=url, token_endpoint_auth_method="none", issuer=metadata.issuer, kind="metadata_document"
        )
    now = clock()
    if (
        stored is not None
        and stored.kind == "dynamic"
        and stored.issuer == metadata.issuer
        and stored.is_usable(now)
    ):
        return stored
    if metadata.registration_endpoint:
        return (
            yield from register_client(
                metadata,
                redirect_uris=(redirect_uri,),
                client_name=settings.client_name,
                clock=clock,
                server=server,
            )
        )
    raise AuthError(
        server,
        "the authorization server offers no client registration; configure oauth.client_id "
        "(or oauth.client_metadata_url if it supports Client ID Metadata Documents)",
    )


def register_client(
    metadata: AuthServerMetadata,
    *,
    redirect_uris: Sequence[str],
    client_name: str = DEFAULT_CLIENT_NAME,
    clock: Clock,
    server: str = "",
) -> Flow[ClientRegistration]:
    """Dynamic Client Registration (RFC 7591) as a native public client with the refresh grant.

    ``application_type: native`` (spec: 2026-07-28, "MUST send application_type"); ``grant_types`` names
    ``refresh_token`` (omitting it denied refresh at one peer). No ``scope`` is registered, so that a later
    step-up is not capped by what the first login asked for.
    """
    if metadata.registration_endpoint is None:
        raise AuthError(server, "the authorization server has no registration_endpoint")
    method = _registration_auth_method(metadata)
    body = {
        "client_name": client_name,
        "redirect_uris": list(redirect_uris),
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": method,
        "application_type": "native",
    }
    request = httpx.Request(
        "POST",
        metadata.registration_endpoint,
        json=body,
        headers={**_JSON_HEADERS, "Content-Type": "application/json"},
    )
    response = yield from _fetch(request)
    document = _json(response)
    if response.status_code not in (200, 201) or not isinstance(document, Mapping):
        raise _endpoint_error(server, "registration", response, document, secrets_sent=())
    client_id = document.get("client_id")
    if not isinstance(client_id, str) or not client_id or "error" in document:
        raise _endpoint_error(server, "registration", response, document, secrets_sent=())
    now = clock()
    secret = _opt_str(document.get("client_secret"))
    expires = document.get("client_secret_expires_at")
    # The response's method is authoritative (RFC 7591 §3.2.1); without one, what we asked for — unless we
    # asked for a secret-based method and got no secret, which leaves a public client.
    granted_method = _opt_str(document.get("token_endpoint_auth_method"))
    if granted_method is None:
        granted_method = method if secret is not None else "none"
    return ClientRegistration(
        client_id=client_id,
        client_secret=secret,
        token_endpoint_auth_method=granted_method,
        issuer=metadata.issuer,
        redirect_uris=_str_tuple(document.get("redirect_uris")) or tuple(redirect_uris),
        registered_at=now,
        kind="dynamic",
        # RFC 7591 §3.2.1: 0 means the secret does not expire.
        secret_expires_at=_opt_timestamp(expires) if _opt_timestamp(expires) else None,
    )


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

    # 3a. Without a human: the client's own credentials, a workload JWT, or the enterprise IdP's grant.
    if not settings.is_interactive:
        client, tokens = yield from _machine_tokens(
            discovery, settings, scopes=scopes, context=context, server=server
        )
        return AuthState(
            issuer=discovery.issuer,
            resource=discovery.resource,
            metadata=metadata,
            client=client,
            tokens=tokens,
            requested_scopes=tuple(scopes),
            dpop_key=dpop_key if tokens.is_dpop_bound else None,
            grant=settings.grant,
        )

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
        return AuthState(
            issuer=discovery.issuer,
            resource=discovery.resource,
            metadata=metadata,
            client=client,
            tokens=tokens,
            requested_scopes=tuple(scopes),
            dpop_key=dpop_key if tokens.is_dpop_bound else None,
        )
    raise AssertionError("unreachable")  # pragma: no cover
