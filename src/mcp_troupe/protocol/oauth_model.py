"""The data and URL rules of the OAuth flows (split from :mod:`mcp_troupe.protocol.oauth`, which re-exports
everything public here): the flow protocol (what a flow yields and is sent), the records the credential store
seals (:class:`Tokens`, :class:`ClientRegistration`, :class:`AuthState`), validated metadata, the URL rules
(https, same origin, canonical resource, well-known locations), and the bounds on every number a server sends
(:func:`lifetime_of`). Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

import ipaddress
import math
import re
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol, TypeAlias, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from mcp_troupe._httpx import httpx
from mcp_troupe.errors import (
    AuthRefused,
    DiscoveryFailed,
)
from mcp_troupe.protocol.jose import (
    DpopKey,
    KeyError_,
    SigningKey,
)

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


def _scopes_of(value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(dict.fromkeys(value.split()))


def _json(response: httpx.Response) -> object:
    try:
        return response.json()
    except ValueError:
        return None


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
