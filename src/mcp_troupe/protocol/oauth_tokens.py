"""The token endpoint, and the grants that need no human (split from :mod:`mcp_troupe.protocol.oauth`, which
re-exports everything public here).

- :func:`_token_request` / :func:`_token_post`: one token request with the client's authentication
  (``client_secret_basic``, ``client_secret_post``, ``private_key_jwt`` per RFC 7523 §2.2, or none) and,
  with a DPoP key, a proof (RFC 9449 §5), answering one ``use_dpop_nonce`` and one ``invalid_client`` at
  most;
- :func:`_parse_tokens`: the response, with the lifetime clamped and the token type checked;
- :func:`client_credentials` (RFC 6749 §4.4, SEP-1046), :func:`jwt_bearer` (RFC 7523 §2.1: a workload JWT,
  SEP-1933, or an ID-JAG) and :func:`exchange_for_id_jag` (RFC 8693 at the enterprise IdP, SEP-990).

Pure like the rest: time and randomness come in through :class:`TokenRequestContext`.
"""

from __future__ import annotations

import base64
import secrets as _secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, assert_never
from urllib.parse import quote_plus

from mcp_troupe._httpx import httpx
from mcp_troupe.errors import (
    AuthError,
    AuthServerError,
    ClientRejected,
)
from mcp_troupe.protocol.jose import (
    CLIENT_ASSERTION_TYPE,
    DpopKey,
    SigningKey,
    client_assertion,
    dpop_nonce_challenge,
)
from mcp_troupe.protocol.oauth_model import (
    _JSON_HEADERS,
    ID_JAG_TOKEN_TYPE,
    ID_TOKEN_TYPE,
    JWT_BEARER_GRANT,
    TOKEN_EXCHANGE_GRANT,
    AuthServerMetadata,
    AuthState,
    ClientRegistration,
    ClientSettings,
    Clock,
    Discovery,
    Flow,
    Tokens,
    _fetch,
    _json,
    _opt_str,
    _Random,
    _sanitize,
    _scopes_of,
    lifetime_of,
    require_secure_url,
    validate_endpoint,
)


def token_endpoint_auth_method(metadata: AuthServerMetadata, *, has_secret: bool, server: str = "") -> str:
    """The token endpoint client authentication to use, per the server's metadata.

    No secret: ``none``. With a secret: ``client_secret_basic`` if supported (it is the RFC 8414 default
    when the list is absent), else ``client_secret_post``.
    """
    if not has_secret:
        return "none"
    supported = metadata.token_endpoint_auth_methods_supported
    if supported is None or "client_secret_basic" in supported:
        return "client_secret_basic"
    if "client_secret_post" in supported:
        return "client_secret_post"
    raise AuthError(
        server,
        "the authorization server supports none of client_secret_basic, client_secret_post "
        f"(it lists: {', '.join(supported) or 'nothing'})",
    )


def machine_client(
    metadata: AuthServerMetadata, settings: ClientSettings, *, server: str = ""
) -> ClientRegistration:
    """Our client for a grant without a user: always pre-registered (a workload has no redirect to register).

    The client authentication: ``oauth.token_endpoint_auth_method`` if set; else ``private_key_jwt`` with a
    key (RFC 7523 §2.2), a secret by the metadata's choice of ``client_secret_basic`` / ``_post``, or none
    (a workload JWT may be the only credential, SEP-1933).
    """
    has_id = bool(settings.client_id)
    if settings.grant in ("client_credentials", "enterprise") and not has_id:
        raise AuthError(server, f"the {settings.grant} grant needs oauth.client_id")
    method = settings.token_endpoint_auth_method
    if method is None:
        if settings.signing_key is not None:
            method = "private_key_jwt"
        else:
            method = token_endpoint_auth_method(
                metadata, has_secret=bool(settings.client_secret), server=server
            )
    if method == "private_key_jwt" and settings.signing_key is None:
        raise AuthError(
            server, "token_endpoint_auth_method private_key_jwt needs oauth.private_key or private_key_file"
        )
    if method in ("client_secret_basic", "client_secret_post") and not settings.client_secret:
        raise AuthError(server, f"token_endpoint_auth_method {method} needs oauth.client_secret")
    supported = metadata.token_endpoint_auth_methods_supported
    if supported is not None and method not in supported and not metadata.from_defaults:
        raise AuthError(
            server,
            f"the authorization server does not support {method} "
            f"(it lists: {', '.join(supported) or 'nothing'})",
        )
    return ClientRegistration(
        client_id=settings.client_id or "",
        client_secret=settings.client_secret,
        token_endpoint_auth_method=method,
        issuer=metadata.issuer,
        kind="preregistered",
    )


def client_credentials(
    metadata: AuthServerMetadata,
    client: ClientRegistration,
    *,
    resource: str,
    scopes: Sequence[str],
    context: TokenRequestContext,
    server: str = "",
) -> Flow[Tokens]:
    """The client credentials grant (RFC 6749 §4.4; SEP-1046) with ``resource`` and the chosen scopes."""
    body = {"grant_type": "client_credentials", "resource": resource}
    return (yield from _fresh_grant(metadata, client, body, scopes, (), context, server))


def jwt_bearer(
    metadata: AuthServerMetadata,
    client: ClientRegistration,
    *,
    assertion: str,
    resource: str,
    scopes: Sequence[str],
    context: TokenRequestContext,
    server: str = "",
) -> Flow[Tokens]:
    """The JWT-bearer authorization grant (RFC 7523 §2.1): a workload JWT (SEP-1933) or an ID-JAG (SEP-990).

    A refusal (``invalid_grant``, ``invalid_scope``, ``unauthorized_client``) is raised as it is: retrying the
    same assertion or switching grants could not help and would hide the reason (SEP-1933).
    """
    body = {"grant_type": JWT_BEARER_GRANT, "assertion": assertion, "resource": resource}
    return (yield from _fresh_grant(metadata, client, body, scopes, (assertion,), context, server))


def _fresh_grant(
    metadata: AuthServerMetadata,
    client: ClientRegistration,
    body: dict[str, str],
    scopes: Sequence[str],
    secrets_sent: tuple[str, ...],
    context: TokenRequestContext,
    server: str,
) -> Flow[Tokens]:
    """A grant that starts from nothing (no previous tokens): ask for ``scopes`` and parse the answer."""
    if scopes:
        body["scope"] = " ".join(scopes)
    document = yield from _token_request(
        metadata, client, body, server=server, secrets_sent=secrets_sent, context=context
    )
    return _parse_tokens(
        document,
        now=context.clock(),
        previous=None,
        requested=tuple(scopes),
        server=server,
        is_dpop=context.dpop_key is not None,
    )


def exchange_for_id_jag(
    settings: ClientSettings,
    *,
    audience: str,
    resource: str,
    scopes: Sequence[str],
    server: str = "",
) -> Flow[str]:
    """Leg 1 of enterprise-managed authorization (SEP-990): RFC 8693 token exchange at the enterprise IdP.

    The IdP's ID token (``subject_token``) becomes an Identity Assertion JWT Authorization Grant for the MCP
    server's authorization server (``audience``: its issuer) and the MCP server (``resource``).
    """
    endpoint = settings.idp_token_endpoint
    if not endpoint:
        raise AuthError(server, "the enterprise grant needs oauth.idp_token_endpoint")
    require_secure_url(endpoint, server=server, what="oauth.idp_token_endpoint")
    if not settings.assertion:
        raise AuthError(
            server, "the enterprise grant needs the IdP's ID token (oauth.id_token or id_token_file)"
        )
    body = {
        "grant_type": TOKEN_EXCHANGE_GRANT,
        "subject_token": settings.assertion,
        "subject_token_type": ID_TOKEN_TYPE,
        "requested_token_type": ID_JAG_TOKEN_TYPE,
        "audience": audience,
        "resource": resource,
    }
    if scopes:
        body["scope"] = " ".join(scopes)
    idp_client = ClientRegistration(
        client_id=settings.idp_client_id or "",
        client_secret=settings.idp_client_secret,
        token_endpoint_auth_method="client_secret_basic" if settings.idp_client_secret else "none",
        issuer=endpoint,
        kind="preregistered",
    )
    dummy = AuthServerMetadata(issuer=endpoint, authorization_endpoint=endpoint, token_endpoint=endpoint)
    document = yield from _token_request(
        dummy, idp_client, body, server=server, secrets_sent=(settings.assertion,), endpoint=endpoint
    )
    issued_type = document.get("issued_token_type")
    jag = document.get("access_token")
    if issued_type != ID_JAG_TOKEN_TYPE or not isinstance(jag, str) or not jag:
        # RFC 8693 §2.2.1: issued_token_type says what access_token holds; anything but an ID-JAG is not a
        # grant the MCP server's authorization server can take.
        raise AuthServerError(
            server, "token exchange", error="invalid_response", description="the IdP issued no ID-JAG"
        )
    return jag


def _machine_tokens(
    discovery: Discovery,
    settings: ClientSettings,
    *,
    scopes: Sequence[str],
    context: TokenRequestContext,
    server: str,
) -> Flow[tuple[ClientRegistration, Tokens]]:
    metadata = discovery.as_metadata
    client = machine_client(metadata, settings, server=server)
    match settings.grant:
        case "client_credentials":
            tokens = yield from client_credentials(
                metadata, client, resource=discovery.resource, scopes=scopes, context=context, server=server
            )
        case "workload_identity":
            if not settings.assertion:
                raise AuthError(
                    server, "the workload_identity grant needs a JWT (oauth.assertion or assertion_file)"
                )
            tokens = yield from jwt_bearer(
                metadata,
                client,
                assertion=settings.assertion,
                resource=discovery.resource,
                scopes=scopes,
                context=context,
                server=server,
            )
        case "enterprise":
            jag = yield from exchange_for_id_jag(
                settings, audience=metadata.issuer, resource=discovery.resource, scopes=scopes, server=server
            )
            tokens = yield from jwt_bearer(
                metadata,
                client,
                assertion=jag,
                resource=discovery.resource,
                scopes=scopes,
                context=context,
                server=server,
            )
        case "authorization_code":
            raise AssertionError("the authorization code grant needs a user")
        case _:
            assert_never(settings.grant)
    return client, tokens


def _dpop_key_for(
    settings: ClientSettings, metadata: AuthServerMetadata, stored: AuthState | None, *, server: str
) -> DpopKey | None:
    """The DPoP key to bind tokens with, or ``None`` for bearer tokens.

    ``auto`` (the default) uses DPoP when the authorization server advertises ES256 in
    ``dpop_signing_alg_values_supported`` (RFC 9449 §5.1: how an AS says it binds tokens); ``always`` asks
    for it whatever the metadata says; ``never`` does not. A stored key of the same issuer is kept, so tokens
    bound to it stay usable; another issuer gets a new key (credentials are bound to their issuer).
    """
    advertised = metadata.dpop_signing_alg_values_supported
    match settings.dpop:
        case "never":
            return None
        case "auto":
            if not advertised or "ES256" not in advertised:
                return None
        case "always":
            if advertised is not None and "ES256" not in advertised:
                raise AuthError(
                    server,
                    "oauth.dpop is always, but the authorization server's DPoP algorithms "
                    f"({', '.join(advertised) or 'none'}) do not include ES256",
                )
        case _:
            assert_never(settings.dpop)
    if stored is not None and stored.dpop_key is not None and stored.issuer == metadata.issuer:
        return stored.dpop_key
    return DpopKey.generate()


@dataclass(frozen=True, slots=True)
class TokenRequestContext:
    """What a token request may need beyond its form: the time and randomness (client assertions and DPoP
    proofs carry ``iat`` and a unique ``jti``), the ``private_key_jwt`` key, and the DPoP key."""

    clock: Clock
    random: _Random = _secrets
    signing_key: SigningKey | None = None
    dpop_key: DpopKey | None = None


def _token_request(
    metadata: AuthServerMetadata,
    client: ClientRegistration,
    body: dict[str, str],
    *,
    server: str,
    secrets_sent: tuple[str, ...],
    context: TokenRequestContext | None = None,
    endpoint: str | None = None,
) -> Flow[dict[str, Any]]:
    token_endpoint = endpoint or metadata.token_endpoint
    if endpoint is None:
        validate_endpoint(token_endpoint, metadata.issuer, server=server, name="token_endpoint")
    all_secrets = (*secrets_sent, *((client.client_secret,) if client.client_secret else ()))
    nonce: str | None = None
    is_nonce_retried = False
    # One invalid_client is retried once before it counts: a transient invalid_client that "poisoned" a
    # stored client and orphaned its refresh token was a peer bug, as was never re-registering at all. One
    # use_dpop_nonce is answered once with the nonce the server gave (RFC 9449 §8): neither can loop.
    attempt = 0
    while True:
        attempt += 1
        request = _token_post(token_endpoint, client, body, metadata=metadata, context=context, nonce=nonce)
        response = yield from _fetch(request)
        document = _json(response)
        error = document.get("error") if isinstance(document, Mapping) else None
        # Some servers answer errors with HTTP 200: an "error" member wins over the status.
        if response.status_code == 200 and isinstance(document, Mapping) and error is None:
            return dict(document)
        challenged = dpop_nonce_challenge(
            error if isinstance(error, str) else None, response.headers.get("dpop-nonce")
        )
        is_dpop = context is not None and context.dpop_key is not None
        if challenged is not None and is_dpop and not is_nonce_retried:
            nonce, is_nonce_retried = challenged, True
            attempt -= 1
            continue
        if error == "invalid_client" and attempt == 1:
            continue
        raise _endpoint_error(
            server,
            "token",
            response,
            document,
            secrets_sent=all_secrets,
            confirmed_invalid_client=attempt == 2,
        )


def _token_post(
    url: str,
    client: ClientRegistration,
    body: Mapping[str, str],
    *,
    metadata: AuthServerMetadata | None = None,
    context: TokenRequestContext | None = None,
    nonce: str | None = None,
) -> httpx.Request:
    form = dict(body)
    headers = {**_JSON_HEADERS}
    method = client.token_endpoint_auth_method
    if method == "client_secret_basic" and client.client_secret is not None:
        # RFC 6749 §2.3.1: both parts form-urlencoded before base64.
        pair = f"{quote_plus(client.client_id)}:{quote_plus(client.client_secret)}"
        headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode("ascii")
    elif method == "client_secret_post" and client.client_secret is not None:
        form["client_id"] = client.client_id
        form["client_secret"] = client.client_secret
    elif method == "private_key_jwt" and context is not None and context.signing_key is not None:
        # RFC 7523 §2.2: the assertion authenticates the client; client_id may go along (RFC 7521 §4.2).
        audience = metadata.issuer if metadata is not None else url
        form["client_id"] = client.client_id
        form["client_assertion_type"] = CLIENT_ASSERTION_TYPE
        form["client_assertion"] = client_assertion(
            context.signing_key,
            client_id=client.client_id,
            audience=audience,
            now=context.clock(),
            jti=context.random.token_urlsafe(24),
        )
    elif client.client_id:
        form["client_id"] = client.client_id
    if context is not None and context.dpop_key is not None:
        # RFC 9449 §5: a proof of possession with the token request binds the token to our key.
        headers["DPoP"] = context.dpop_key.proof(
            "POST", url, now=context.clock(), jti=context.random.token_urlsafe(24), nonce=nonce
        )
    return httpx.Request("POST", url, data=form, headers=headers)


def _parse_tokens(
    document: Mapping[str, Any],
    *,
    now: float,
    previous: Tokens | None,
    requested: tuple[str, ...],
    server: str,
    is_dpop: bool = False,
) -> Tokens:
    access = document.get("access_token")
    if not isinstance(access, str) or not access or not access.isascii() or not access.isprintable():
        raise AuthServerError(server, "token", error="invalid_response", description="no usable access_token")
    token_type = document.get("token_type", "Bearer")
    kind = token_type.lower() if isinstance(token_type, str) else ""
    if kind == "dpop" and not is_dpop:
        # RFC 9449 §5: a DPoP token is only ever issued against a proof; we sent none, so this is not ours.
        raise AuthServerError(
            server,
            "token",
            error="unsupported_token_type",
            description="a DPoP token was issued without a proof",
        )
    if kind not in ("bearer", "dpop"):
        # We can present bearer (RFC 6750) and DPoP (RFC 9449) tokens; a MAC token would be sent wrongly.
        raise AuthServerError(
            server,
            "token",
            error="unsupported_token_type",
            description="the token is neither Bearer nor DPoP",
        )
    lifetime = lifetime_of(document.get("expires_in"))
    refresh_token = _opt_str(document.get("refresh_token")) or (previous.refresh_token if previous else None)
    scope_value = document.get("scope")
    scope = _scopes_of(scope_value) if isinstance(scope_value, str) else None
    return Tokens(
        access_token=access,
        token_type="DPoP" if kind == "dpop" else "Bearer",
        refresh_token=refresh_token,
        expires_at=now + lifetime if lifetime is not None else None,
        scope=scope if scope is not None else (previous.scope if previous else requested),
        obtained_at=now,
    )


def _endpoint_error(
    server: str,
    endpoint: str,
    response: httpx.Response,
    document: object,
    *,
    secrets_sent: tuple[str, ...],
    confirmed_invalid_client: bool = False,
) -> AuthServerError:
    error = document.get("error") if isinstance(document, Mapping) else None
    description = document.get("error_description") if isinstance(document, Mapping) else None
    status = response.status_code
    if not isinstance(error, str):
        return AuthServerError(
            server,
            endpoint,
            error="server_error" if status >= 500 else "invalid_response",
            status=status,
            transient=status >= 500 or status == 429 or status == 200,
        )
    text = _sanitize(description, redact=secrets_sent) if isinstance(description, str) else ""
    code = _sanitize(error, 64, redact=secrets_sent)
    if error == "invalid_client" and confirmed_invalid_client:
        return ClientRejected(server, endpoint, error=code, description=text, status=status)
    return AuthServerError(
        server,
        endpoint,
        error=code,
        description=text,
        status=status,
        transient=error in ("temporarily_unavailable", "server_error") or status >= 500,
    )
