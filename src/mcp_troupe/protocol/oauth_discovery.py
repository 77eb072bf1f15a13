"""Sans-I/O OAuth discovery: the ``WWW-Authenticate`` challenge, Protected Resource Metadata (RFC 9728),
authorization-server metadata (RFC 8414 / OpenID Connect Discovery) and the 2025-03-26 fallback, and the
choice of scopes (first authorization and step-up).

Flows in the shape :mod:`mcp_troupe.protocol.oauth` describes (yield a request, be sent the response);
:mod:`mcp_troupe.protocol.oauth` re-exports every public name here, so callers import from there.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final
from urllib.parse import urlsplit

from mcp_troupe._httpx import httpx
from mcp_troupe.errors import AuthRefused, DiscoveryFailed, InsufficientScope
from mcp_troupe.protocol.oauth_model import (
    _JSON_HEADERS,
    MAX_STEP_UP_ATTEMPTS,
    OFFLINE_ACCESS,
    AuthServerMetadata,
    Discovery,
    Flow,
    ProtectedResourceMetadata,
    _fetch,
    _json,
    _opt_str_tuple,
    _origin_url,
    _scopes_of,
    as_metadata_urls,
    canonical_resource,
    describe_url,
    legacy_metadata_url,
    require_secure_url,
    resource_matches,
    well_known_prm_urls,
)

__all__ = [
    "discover",
    "fetch_as_metadata",
    "parse_www_authenticate",
    "select_scopes",
    "step_up_scopes",
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
