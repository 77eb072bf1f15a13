"""Sans-I/O OAuth client registration: which client we are at an authorization server.

A pre-registered client, a Client ID Metadata Document, a stored dynamic registration of the same issuer,
or Dynamic Client Registration (RFC 7591), in the spec's order. Flows in the shape
:mod:`mcp_troupe.protocol.oauth` describes; it re-exports every public name here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mcp_troupe._httpx import httpx
from mcp_troupe.errors import AuthError
from mcp_troupe.protocol.oauth_model import (
    _JSON_HEADERS,
    DEFAULT_CLIENT_NAME,
    AuthServerMetadata,
    ClientRegistration,
    ClientSettings,
    Clock,
    Flow,
    _fetch,
    _json,
    _opt_str,
    _opt_timestamp,
    _str_tuple,
    require_secure_url,
)
from mcp_troupe.protocol.oauth_tokens import _endpoint_error, token_endpoint_auth_method

__all__ = ["obtain_client", "register_client"]


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
