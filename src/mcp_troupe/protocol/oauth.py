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
import ipaddress
import math
import re
import secrets as _secrets
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol, TypeAlias, TypeVar, assert_never
from urllib.parse import parse_qsl, quote_plus, urlencode, urlsplit, urlunsplit

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
from mcp_troupe.protocol.jose import (
    CLIENT_ASSERTION_TYPE,
    DpopKey,
    KeyError_,
    SigningKey,
    client_assertion,
    dpop_nonce_challenge,
)

__all__ = [
    "DEFAULT_CLIENT_NAME",
    "MAX_STEP_UP_ATTEMPTS",
    "AuthServerMetadata",
    "AuthState",
    "ClientKind",
    "ClientRegistration",
    "ClientSettings",
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

DEFAULT_CLIENT_NAME: Final = "mcp-troupe"
MAX_STEP_UP_ATTEMPTS: Final = 3
"""Re-authorizations one ``insufficient_scope`` sequence may cost (spec: 2025-11-25, "limit retries")."""

OFFLINE_ACCESS: Final = "offline_access"
_PRM_SUFFIX: Final = "/.well-known/oauth-protected-resource"
_OAUTH_SUFFIX: Final = "/.well-known/oauth-authorization-server"
_OPENID_SUFFIX: Final = "/.well-known/openid-configuration"
_DESCRIPTION_LIMIT: Final = 200
_JSON_HEADERS: Final = {"Accept": "application/json"}

ClientKind: TypeAlias = Literal["preregistered", "metadata_document", "dynamic"]
GrantKind: TypeAlias = Literal["authorization_code", "client_credentials", "workload_identity", "enterprise"]
"""How tokens are obtained: a user in a browser (``authorization_code``), or without a human — the client's
own credentials (``client_credentials``), a platform-issued workload JWT (``workload_identity``: the RFC 7523
jwt-bearer grant, SEP-1933), or the enterprise IdP's ID token exchanged for an ID-JAG (``enterprise``:
RFC 8693 then RFC 7523, SEP-990)."""
DpopMode: TypeAlias = Literal["auto", "always", "never"]

JWT_BEARER_GRANT: Final = "urn:ietf:params:oauth:grant-type:jwt-bearer"
TOKEN_EXCHANGE_GRANT: Final = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_TOKEN_TYPE: Final = "urn:ietf:params:oauth:token-type:id_token"
ID_JAG_TOKEN_TYPE: Final = "urn:ietf:params:oauth:token-type:id-jag"

MIN_TOKEN_LIFETIME: Final = 30.0
"""Seconds: the shortest lifetime believed. An ``expires_in`` of 0, -5 or garbage is clamped up to this, so
that a hostile or broken server can neither make a token "never expire" nor make us renew in a loop."""
MAX_TOKEN_LIFETIME: Final = 366 * 24 * 3600.0
"""Seconds: the longest lifetime believed (a year and a day). ``1e17`` or ``10**400`` is clamped down to
this, so an absolute expiry always fits a timestamp (``troupe status`` formats it) and a float."""
MAX_TIMESTAMP: Final = 2**35
"""An absolute time (seconds since the epoch, ~year 3058) past which a stored or sent timestamp is absurd."""


# --- the flow protocol ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UserAuthorization:
    """Action: let the user open ``url``, then send the flow the redirect's query parameters.

    ``url`` and ``state`` are left out of the repr: ``state`` is the CSRF guard of this login. The driver may
    use ``state`` to ignore stray requests on the redirect listener; the flow checks it again anyway.
    """

    url: str = field(repr=False)
    state: str = field(repr=False)
    redirect_uri: str


_T = TypeVar("_T")
Step: TypeAlias = httpx.Request | UserAuthorization
"""What a flow yields: a request to send, or the user step."""
Reply: TypeAlias = httpx.Response | Mapping[str, str]
"""What a flow is sent back: the response to its request, or the redirect's query parameters."""
Flow: TypeAlias = Generator[Step, Reply, _T]
"""A sans-I/O OAuth flow returning ``_T``."""


class _Random(Protocol):
    def token_urlsafe(self, nbytes: int | None = ...) -> str: ...


Clock: TypeAlias = Callable[[], float]


def _fetch(request: httpx.Request) -> Generator[Step, Reply, httpx.Response]:
    reply = yield request
    if not isinstance(reply, httpx.Response):
        raise TypeError(f"the driver answered an HTTP request with {type(reply).__name__}, not a response")
    return reply


# --- data ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tokens:
    """An access token and what came with it; ``expires_at`` is absolute (seconds since the epoch).

    ``expires_at`` is ``None`` when the server gave no ``expires_in``: the token is used until a 401 says
    otherwise (re-authorizing on a timer instead was a peer bug). Secrets are left out of the repr.
    """

    access_token: str = field(repr=False)
    token_type: str = "Bearer"
    refresh_token: str | None = field(default=None, repr=False)
    expires_at: float | None = None
    scope: tuple[str, ...] = ()
    obtained_at: float | None = None

    @property
    def has_refresh_token(self) -> bool:
        """Whether a refresh token came with the access token."""
        return bool(self.refresh_token)

    def is_fresh(self, now: float, skew: float = 60.0) -> bool:
        """Whether the token is still good for ``skew`` seconds (or half its lifetime, if that is shorter).

        Capping the margin at half the lifetime keeps a token that lives less than ``2 * skew`` seconds from
        being "stale" the moment it arrives, which would refresh it in a loop.
        """
        if self.expires_at is None:
            return True
        margin = skew
        if self.obtained_at is not None:
            margin = min(skew, max(0.0, self.expires_at - self.obtained_at) / 2)
        return now + margin < self.expires_at

    def is_expired(self, now: float) -> bool:
        """Whether the token is past its expiry (no margin)."""
        return self.expires_at is not None and now >= self.expires_at

    @property
    def is_dpop_bound(self) -> bool:
        """Whether the token is bound to a DPoP key (presented with the ``DPoP`` scheme, RFC 9449 §7.1)."""
        return self.token_type.lower() == "dpop"

    def authorization_header(self) -> str:
        """The ``Authorization`` header value (RFC 6750 §2.1, RFC 9449 §7.1). Never log it."""
        return f"{'DPoP' if self.is_dpop_bound else 'Bearer'} {self.access_token}"

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the sealed store."""
        return {
            "access_token": self.access_token,
            "token_type": self.token_type,
            "refresh_token": self.refresh_token,
            "expires_at": self.expires_at,
            "scope": list(self.scope),
            "obtained_at": self.obtained_at,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tokens:
        """Rebuild from :meth:`to_dict` output; raises ``ValueError`` on a malformed record."""
        access = data.get("access_token")
        if not isinstance(access, str) or not access:
            raise ValueError("stored tokens have no access_token")
        return cls(
            access_token=access,
            token_type=_str_or(data.get("token_type"), "Bearer"),
            refresh_token=_opt_str(data.get("refresh_token")),
            # A stored expiry that is no sane timestamp (an older version kept 1e17 from a hostile server)
            # counts as already expired: renewal is cheap, trusting it forever is not.
            expires_at=None
            if data.get("expires_at") is None
            else (_opt_timestamp(data.get("expires_at")) or 0.0),
            scope=_str_tuple(data.get("scope")),
            obtained_at=_opt_timestamp(data.get("obtained_at")),
        )


@dataclass(frozen=True, slots=True)
class ClientRegistration:
    """Our OAuth client at one authorization server (``issuer``): pre-registered, CIMD or dynamic.

    ``client_secret`` is left out of the repr. ``secret_expires_at`` is absolute (RFC 7591
    ``client_secret_expires_at``; ``None`` for never).
    """

    client_id: str
    client_secret: str | None = field(default=None, repr=False)
    token_endpoint_auth_method: str = "none"
    issuer: str = ""
    redirect_uris: tuple[str, ...] = ()
    registered_at: float | None = None
    kind: ClientKind = "dynamic"
    secret_expires_at: float | None = None

    def is_usable(self, now: float) -> bool:
        """Whether the client's secret (if any) has not expired."""
        return self.secret_expires_at is None or now < self.secret_expires_at

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the sealed store."""
        return {
            "client_id": self.client_id,
            "client_secret": self.client_secret,
            "token_endpoint_auth_method": self.token_endpoint_auth_method,
            "issuer": self.issuer,
            "redirect_uris": list(self.redirect_uris),
            "registered_at": self.registered_at,
            "kind": self.kind,
            "secret_expires_at": self.secret_expires_at,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClientRegistration:
        """Rebuild from :meth:`to_dict` output; raises ``ValueError`` on a malformed record."""
        client_id = data.get("client_id")
        kind = data.get("kind")
        if not isinstance(client_id, str) or not client_id:
            raise ValueError("stored client has no client_id")
        if kind not in ("preregistered", "metadata_document", "dynamic"):
            raise ValueError("stored client has an unknown kind")
        return cls(
            client_id=client_id,
            client_secret=_opt_str(data.get("client_secret")),
            token_endpoint_auth_method=_str_or(data.get("token_endpoint_auth_method"), "none"),
            issuer=_str_or(data.get("issuer"), ""),
            redirect_uris=_str_tuple(data.get("redirect_uris")),
            registered_at=_opt_timestamp(data.get("registered_at")),
            kind=kind,
            secret_expires_at=_opt_timestamp(data.get("secret_expires_at")),
        )


@dataclass(frozen=True, slots=True)
class ClientSettings:
    """The operator's OAuth settings for one server (``config.OAuthConfig``), as the flows need them."""

    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    client_metadata_url: str | None = None
    scopes: tuple[str, ...] = ()
    client_name: str = DEFAULT_CLIENT_NAME
    grant: GrantKind = "authorization_code"
    token_endpoint_auth_method: str | None = None
    """An explicit client authentication; ``None``: ``private_key_jwt`` with a key, else per the metadata."""
    signing_key: SigningKey | None = field(default=None, repr=False)
    """The ``private_key_jwt`` key (RS256 or ES256)."""
    assertion: str | None = field(default=None, repr=False)
    """``workload_identity``: the platform's JWT; ``enterprise``: the IdP's ID token. Read fresh by the
    caller before each run (platforms rotate them)."""
    idp_token_endpoint: str | None = None
    idp_client_id: str | None = None
    idp_client_secret: str | None = field(default=None, repr=False)
    dpop: DpopMode = "auto"

    @property
    def is_interactive(self) -> bool:
        """Whether a user must take part (the authorization code grant)."""
        return self.grant == "authorization_code"


@dataclass(frozen=True, slots=True)
class ProtectedResourceMetadata:
    """RFC 9728 metadata of the MCP server (the protected resource)."""

    resource: str
    authorization_servers: tuple[str, ...]
    scopes_supported: tuple[str, ...] | None = None
    url: str = ""
    """Where it was fetched from."""


@dataclass(frozen=True, slots=True)
class AuthServerMetadata:
    """RFC 8414 / OpenID Connect Discovery metadata of an authorization server, already validated.

    ``from_defaults`` marks the 2025-03-26 fallback (no metadata document: ``/authorize``, ``/token`` and
    ``/register`` at the server's origin). ``raw`` is the document as fetched, kept for the store.
    """

    issuer: str
    authorization_endpoint: str
    token_endpoint: str
    registration_endpoint: str | None = None
    scopes_supported: tuple[str, ...] | None = None
    code_challenge_methods_supported: tuple[str, ...] | None = None
    token_endpoint_auth_methods_supported: tuple[str, ...] | None = None
    authorization_response_iss_parameter_supported: bool = False
    client_id_metadata_document_supported: bool = False
    dpop_signing_alg_values_supported: tuple[str, ...] | None = None
    grant_types_supported: tuple[str, ...] | None = None
    from_defaults: bool = False
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def parse(
        cls, document: object, *, expected_issuer: str, server: str = "", same_origin_issuer: bool = False
    ) -> AuthServerMetadata:
        """Validate a fetched metadata document against the issuer its URL was built from.

        ``same_origin_issuer`` is the one relaxation, for the 2025-03-26 fallback only (no PRM; metadata at
        the server's own origin): an issuer on that origin whose path differs is accepted — see
        :func:`_legacy_metadata` for why that is safe there and nowhere else.

        Raises :class:`AuthRefused` (rule ``issuer``, ``https`` or ``same-origin endpoints``) or
        :class:`DiscoveryFailed` for a document that lacks what the code flow needs.
        """
        if not isinstance(document, Mapping):
            raise DiscoveryFailed(server, "authorization-server metadata is not a JSON object")
        issuer = document.get("issuer")
        is_same_origin = (
            same_origin_issuer
            and isinstance(issuer, str)
            and _is_http_url(issuer)
            and _origin(issuer) == _origin(expected_issuer)
            and not urlsplit(issuer).query
            and not urlsplit(issuer).fragment
        )
        # spec: 2026-07-28 authorization-server-discovery; RFC 8414 §3.3 — the issuer MUST be identical to
        # the one the well-known URL was built from, else the document MUST NOT be used.
        if not isinstance(issuer, str) or not (_same_issuer(issuer, expected_issuer) or is_same_origin):
            raise AuthRefused(
                server,
                "issuer",
                f"metadata for {describe_url(expected_issuer)} names another issuer "
                f"({describe_url(issuer) if isinstance(issuer, str) else 'none'})",
            )
        # From here on the issuer is spelled as the server spells it: that is what RFC 9207's iss carries.
        for key, value in document.items():
            # "Every endpoint named in the metadata": every *_endpoint string, used by us or not.
            if isinstance(key, str) and key.endswith("_endpoint") and isinstance(value, str):
                validate_endpoint(value, issuer, server=server, name=key)
        authorization_endpoint = document.get("authorization_endpoint")
        token_endpoint = document.get("token_endpoint")
        if not isinstance(authorization_endpoint, str) or not isinstance(token_endpoint, str):
            raise DiscoveryFailed(
                server, f"metadata of {describe_url(issuer)} lacks authorization_endpoint or token_endpoint"
            )
        response_types = _opt_str_tuple(document.get("response_types_supported"))
        if response_types is not None and "code" not in response_types:
            raise DiscoveryFailed(server, f"{describe_url(issuer)} does not support response_type=code")
        registration = document.get("registration_endpoint")
        return cls(
            issuer=issuer,
            authorization_endpoint=authorization_endpoint,
            token_endpoint=token_endpoint,
            registration_endpoint=registration if isinstance(registration, str) else None,
            scopes_supported=_opt_str_tuple(document.get("scopes_supported")),
            code_challenge_methods_supported=_opt_str_tuple(document.get("code_challenge_methods_supported")),
            token_endpoint_auth_methods_supported=_opt_str_tuple(
                document.get("token_endpoint_auth_methods_supported")
            ),
            authorization_response_iss_parameter_supported=document.get(
                "authorization_response_iss_parameter_supported"
            )
            is True,
            client_id_metadata_document_supported=document.get("client_id_metadata_document_supported")
            is True,
            dpop_signing_alg_values_supported=_opt_str_tuple(
                document.get("dpop_signing_alg_values_supported")
            ),
            grant_types_supported=_opt_str_tuple(document.get("grant_types_supported")),
            raw=dict(document),
        )

    @classmethod
    def defaults_for(cls, server_url: str, *, server: str = "") -> AuthServerMetadata:
        """The 2025-03-26 fallback: ``/authorize``, ``/token``, ``/register`` at the server's origin.

        spec: 2025-03-26 authorization, "Fallbacks for Servers without Metadata Discovery".
        """
        origin = _origin_url(server_url)
        require_secure_url(origin, server=server, what="authorization base URL")
        return cls(
            issuer=origin,
            authorization_endpoint=origin + "/authorize",
            token_endpoint=origin + "/token",
            registration_endpoint=origin + "/register",
            from_defaults=True,
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the sealed store (the fetched document, or the defaults marker)."""
        if self.from_defaults:
            return {"from_defaults": True, "issuer": self.issuer}
        return {"from_defaults": False, "document": dict(self.raw)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, server: str = "") -> AuthServerMetadata:
        """Rebuild from :meth:`to_dict` output, validating it again like a freshly fetched document."""
        if data.get("from_defaults") is True:
            issuer = data.get("issuer")
            if not isinstance(issuer, str):
                raise ValueError("stored default metadata has no issuer")
            return cls.defaults_for(issuer, server=server)
        document = data.get("document")
        if not isinstance(document, Mapping) or not isinstance(document.get("issuer"), str):
            raise ValueError("stored metadata has no document")
        return cls.parse(document, expected_issuer=document["issuer"], server=server)


@dataclass(frozen=True, slots=True)
class Discovery:
    """What discovery found: the PRM (``None`` on the 2025-03-26 path), the authorization server, and the
    RFC 8707 ``resource`` to send; ``scopes_from_challenge`` is the 401's ``scope``, if it had one."""

    prm: ProtectedResourceMetadata | None
    as_metadata: AuthServerMetadata
    issuer: str
    resource: str
    scopes_from_challenge: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class AuthState:
    """Everything an OAuthFlow keeps (and the credential store seals) for one server at one issuer.

    ``requested_scopes`` is what we last asked for (step-up takes the union with it); the scopes actually
    granted are ``tokens.scope``.
    """

    issuer: str
    resource: str
    metadata: AuthServerMetadata
    client: ClientRegistration | None = None
    tokens: Tokens | None = None
    requested_scopes: tuple[str, ...] = ()
    dpop_key: DpopKey | None = field(default=None, repr=False, compare=False)
    """The key the tokens are bound to (RFC 9449); kept in the sealed store beside them."""
    grant: GrantKind = "authorization_code"

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the sealed store."""
        return {
            "issuer": self.issuer,
            "resource": self.resource,
            "metadata": self.metadata.to_dict(),
            "client": self.client.to_dict() if self.client else None,
            "tokens": self.tokens.to_dict() if self.tokens else None,
            "requested_scopes": list(self.requested_scopes),
            "dpop_key": self.dpop_key.to_pem() if self.dpop_key else None,
            "grant": self.grant,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, server: str = "") -> AuthState:
        """Rebuild from :meth:`to_dict` output; raises ``ValueError`` (or an :class:`AuthError`) if bad."""
        issuer, resource, metadata = data.get("issuer"), data.get("resource"), data.get("metadata")
        if not isinstance(issuer, str) or not isinstance(resource, str) or not isinstance(metadata, Mapping):
            raise ValueError("stored state lacks issuer, resource or metadata")
        client, tokens = data.get("client"), data.get("tokens")
        pem, grant = data.get("dpop_key"), data.get("grant", "authorization_code")
        if grant not in ("authorization_code", "client_credentials", "workload_identity", "enterprise"):
            raise ValueError("stored state has an unknown grant")
        try:
            dpop_key = DpopKey.from_pem(pem) if isinstance(pem, str) else None
        except KeyError_ as error:
            raise ValueError(f"stored DPoP key: {error}") from None
        return cls(
            issuer=issuer,
            resource=resource,
            metadata=AuthServerMetadata.from_dict(metadata, server=server),
            client=ClientRegistration.from_dict(client) if isinstance(client, Mapping) else None,
            tokens=Tokens.from_dict(tokens) if isinstance(tokens, Mapping) else None,
            requested_scopes=_str_tuple(data.get("requested_scopes")),
            dpop_key=dpop_key,
            grant=grant,
        )


# --- URLs ----------------------------------------------------------------------------------------------


def describe_url(url: str) -> str:
    """``url`` without userinfo, query and fragment: safe for logs and error messages."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return "<malformed URL>"
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{port}" if port is not None else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def is_loopback_host(host: str | None) -> bool:
    """Whether ``host`` is ``localhost`` or a loopback IP address (127.0.0.0/8, ::1)."""
    if not host:
        return False
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def require_secure_url(url: str, *, server: str = "", what: str = "URL") -> str:
    """Return ``url`` if it is ``https``, or ``http`` on a loopback host, without userinfo; else refuse.

    spec: 2025-06-18 authorization, "All authorization server endpoints MUST be served over HTTPS"; security
    best practices, SSRF and authorization URL validation — http only for loopback (development).
    """
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        raise AuthRefused(server, "https", f"{what} is not a valid URL") from None
    scheme = parts.scheme.lower()
    if not host:
        raise AuthRefused(server, "https", f"{what} {describe_url(url)} has no host")
    if scheme == "https" or (scheme == "http" and is_loopback_host(host)):
        if parts.username is not None or parts.password is not None:
            raise AuthRefused(server, "https", f"{what} {describe_url(url)} carries credentials in the URL")
        return url
    raise AuthRefused(
        server, "https", f"{what} {describe_url(url)} is not https (http is allowed for loopback hosts only)"
    )


def _origin(url: str) -> tuple[str, str, int]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    port = parts.port or (443 if scheme == "https" else 80)
    return scheme, (parts.hostname or "").lower(), port


def _origin_url(url: str) -> str:
    scheme, host, port = _origin(url)
    default = 443 if scheme == "https" else 80
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}" + ("" if port == default else f":{port}")


def validate_endpoint(url: str, issuer: str, *, server: str = "", name: str = "endpoint") -> str:
    """Return ``url`` if it is secure (:func:`require_secure_url`) and on the issuer's origin; else refuse.

    The same-origin rule keeps a metadata document from sending our code, verifier, refresh token or client
    secret anywhere but the authorization server that the PRM named.
    """
    require_secure_url(url, server=server, what=name)
    if urlsplit(url).fragment:
        raise AuthRefused(server, "https", f"{name} {describe_url(url)} has a fragment")
    if _origin(url) != _origin(issuer):
        raise AuthRefused(
            server,
            "same-origin endpoints",
            f"{name} {describe_url(url)} is not on the issuer's origin {_origin_url(issuer)}",
        )
    return url


_FORBIDDEN_URL_CHARACTERS = re.compile(r"[\x00-\x20\x7f\"'<>\\^`{|}]")


def validate_authorization_url(url: str, *, server: str = "") -> str:
    """Return ``url`` if it may be handed to a browser: https (or loopback http), no odd characters.

    spec: security best practices, "OAuth Authorization URL Validation" — allow only https (http for
    loopback), reject ``javascript:``, ``data:``, ``file:``, ``vbscript:`` and the like, never open through a
    shell, sanitize. The scheme allow-list rejects every other scheme; whitespace, quotes and control
    characters are refused outright, so nothing downstream can split or reinterpret the URL.
    """
    if not isinstance(url, str) or _FORBIDDEN_URL_CHARACTERS.search(url):
        raise AuthRefused(server, "authorization URL", "the authorization URL contains forbidden characters")
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if scheme not in ("https", "http"):
        raise AuthRefused(
            server, "authorization URL", f"the authorization URL scheme {scheme or '(none)'!r} is not allowed"
        )
    require_secure_url(url, server=server, what="authorization URL")
    return url


def canonical_resource(url: str) -> str:
    """The canonical URI of an MCP server, for RFC 8707 ``resource`` and PRM matching.

    Lowercase scheme and host, default port dropped, no userinfo, no fragment, no trailing slash (spec:
    2025-06-18 authorization, "Canonical Server URI"). The query is kept: it may identify the resource.
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = parts.hostname
    if scheme not in ("http", "https") or not host:
        raise ValueError(f"not an http(s) URL: {describe_url(url)}")
    port = parts.port
    if ":" in host:
        host = f"[{host}]"
    default = 443 if scheme == "https" else 80
    netloc = host if port in (None, default) else f"{host}:{port}"
    return urlunsplit((scheme, netloc, parts.path.rstrip("/"), parts.query, ""))


def resource_matches(prm_resource: str, server_url: str) -> bool:
    """Whether a PRM ``resource`` identifies the server: the same canonical URI, or a parent path of it on the
    same origin (a PRM at ``https://host`` covering ``https://host/mcp``, as RFC 8707 audiences allow)."""
    try:
        prm, ours = canonical_resource(prm_resource), canonical_resource(server_url)
    except ValueError:
        return False
    if prm == ours:
        return True
    prm_parts, our_parts = urlsplit(prm), urlsplit(ours)
    if _origin(prm) != _origin(ours) or prm_parts.query:
        return False
    return our_parts.path.startswith(prm_parts.path + "/")


def well_known_prm_urls(url: str) -> list[str]:
    """The PRM URLs to try, in the spec's order: path-inserted, then root (spec: 2025-11-25 authorization)."""
    parts = urlsplit(url)
    origin = _origin_url(url)
    path = parts.path.rstrip("/")
    urls = []
    if path or parts.query:
        # RFC 9728 §3.1: the well-known segment goes between the host and the path (and query).
        urls.append(origin + _PRM_SUFFIX + path + (f"?{parts.query}" if parts.query else ""))
    urls.append(origin + _PRM_SUFFIX)
    return urls


def as_metadata_urls(issuer: str) -> list[str]:
    """The authorization-server metadata URLs to try for ``issuer``, in the spec's order.

    spec: 2025-11-25 authorization, "Authorization Server Metadata Discovery": with a path, RFC 8414
    path-inserted, OIDC path-inserted, OIDC path-appended; without, RFC 8414 then OIDC.
    """
    origin = _origin_url(issuer)
    path = urlsplit(issuer).path.rstrip("/")
    if path:
        return [origin + _OAUTH_SUFFIX + path, origin + _OPENID_SUFFIX + path, origin + path + _OPENID_SUFFIX]
    return [origin + _OAUTH_SUFFIX, origin + _OPENID_SUFFIX]


def legacy_metadata_url(server_url: str) -> str:
    """2025-03-26: the metadata URL at the server's origin, the path discarded."""
    return _origin_url(server_url) + _OAUTH_SUFFIX


def _is_http_url(url: str) -> bool:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)


def _same_issuer(found: str, expected: str) -> bool:
    # Exact comparison, with one allowance: an empty path and "/" are the same URI for http(s)
    # (RFC 3986 §6.2.3), and servers differ on writing the root issuer with or without the slash.
    if found == expected:
        return True
    f, e = urlsplit(found), urlsplit(expected)
    return (f.path in ("", "/") and e.path in ("", "/")) and found.rstrip("/") == expected.rstrip("/")


# --- WWW-Authenticate ----------------------------------------------------------------------------------

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


def _scopes_of(value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(dict.fromkeys(value.split()))


# --- discovery -----------------------------------------------------------------------------------------

_LEGACY_VERSIONS: Final = frozenset({"2024-11-05", "2025-03-26"})


def _get(url: str, protocol_version: str | None) -> httpx.Request:
    headers = dict(_JSON_HEADERS)
    if protocol_version:
        # spec: 2025-03-26 authorization — clients SHOULD send MCP-Protocol-Version during discovery.
        headers["MCP-Protocol-Version"] = protocol_version
    return httpx.Request("GET", url, headers=headers)


def _json(response: httpx.Response) -> object:
    try:
        return response.json()
    except ValueError:
        return None


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


# --- scopes --------------------------------------------------------------------------------------------


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


# --- clients -------------------------------------------------------------------------------------------


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


# --- authorization code + PKCE -------------------------------------------------------------------------


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


# --- grants without a human ----------------------------------------------------------------------------


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
    if scopes:
        body["scope"] = " ".join(scopes)
    document = yield from _token_request(
        metadata, client, body, server=server, secrets_sent=(), context=context
    )
    return _parse_tokens(
        document,
        now=context.clock(),
        previous=None,
        requested=tuple(scopes),
        server=server,
        is_dpop=context.dpop_key is not None,
    )


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
    if scopes:
        body["scope"] = " ".join(scopes)
    document = yield from _token_request(
        metadata, client, body, server=server, secrets_sent=(assertion,), context=context
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


# --- the composition an actor runs ---------------------------------------------------------------------


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


# --- small helpers -------------------------------------------------------------------------------------


def _with_query(url: str, params: Mapping[str, str]) -> str:
    # RFC 6749 §3.1: the endpoint's own query component MUST be retained.
    parts = urlsplit(url)
    existing = parse_qsl(parts.query, keep_blank_values=True)
    query = urlencode([*existing, *params.items()])
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))


def _sanitize(text: object, limit: int = _DESCRIPTION_LIMIT, *, redact: Sequence[str] = ()) -> str:
    """Server-supplied text made safe to show: printable, bounded, with any secret we sent blanked out."""
    if not isinstance(text, str):
        return ""
    for secret in redact:
        if secret:
            text = text.replace(secret, "[redacted]")
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _opt_str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _str_or(value: object, default: str) -> str:
    return value if isinstance(value, str) and value else default


def _opt_float(value: object) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def _opt_timestamp(value: object) -> float | None:
    """A stored absolute time, or ``None`` when it is not a finite number in range (a store written by an
    older version from a hostile ``expires_in`` may hold 1e17: that must not crash ``troupe status``)."""
    number = _opt_float(value)
    if number is None or not math.isfinite(number) or not 0 <= number <= MAX_TIMESTAMP:
        return None
    return number


def lifetime_of(value: object) -> float | None:
    """The token lifetime an ``expires_in`` value means, validated and clamped; ``None`` when absent.

    RFC 6749 §5.1: a positive number of seconds. A numeric string is accepted (seen in the wild). Anything
    else — a bool, NaN, infinity, a negative or zero number, 10**400, a word — is a broken or hostile server:
    it is clamped into [:data:`MIN_TOKEN_LIFETIME`, :data:`MAX_TOKEN_LIFETIME`] (garbage counts as the
    minimum), so a token never "never expires" because of it and no arithmetic on it can overflow.
    """
    if value is None:
        return None
    number: float
    if isinstance(value, bool):
        number = MIN_TOKEN_LIFETIME
    elif isinstance(value, int):
        # An int of 400 digits does not fit a float (OverflowError): compare as ints first.
        number = MAX_TOKEN_LIFETIME if value > MAX_TOKEN_LIFETIME else float(value)
    elif isinstance(value, float):
        number = value if math.isfinite(value) else (MAX_TOKEN_LIFETIME if value > 0 else MIN_TOKEN_LIFETIME)
    elif isinstance(value, str) and re.fullmatch(r"\s*\d{1,12}(\.\d{1,6})?\s*", value):
        number = float(value)
    else:
        number = MIN_TOKEN_LIFETIME
    return min(max(number, MIN_TOKEN_LIFETIME), MAX_TOKEN_LIFETIME)


def _opt_str_tuple(value: object) -> tuple[str, ...] | None:
    if not isinstance(value, list | tuple):
        return None
    return tuple(item for item in value if isinstance(item, str))


def _str_tuple(value: object) -> tuple[str, ...]:
    return _opt_str_tuple(value) or ()
