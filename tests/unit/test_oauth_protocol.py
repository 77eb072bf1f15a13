"""The sans-I/O OAuth flows (``mcp_troupe.protocol.oauth``), driven with canned responses: no I/O, no clock.

Each rule of the spec (NOTES §f) and of the issue has a test here, refusals included; the same flows run
against a real local authorization server in ``test_oauth_flow_local.py``.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

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
from mcp_troupe.protocol import oauth
from mcp_troupe.protocol.oauth import (
    AuthServerMetadata,
    AuthState,
    ClientRegistration,
    ClientSettings,
    Flow,
    Tokens,
    UserAuthorization,
    as_metadata_urls,
    authorize,
    canonical_resource,
    check_iss,
    discover,
    obtain_client,
    obtain_tokens,
    parse_www_authenticate,
    pkce_challenge,
    refresh,
    register_client,
    select_scopes,
    step_up_scopes,
    token_endpoint_auth_method,
    validate_authorization_url,
    validate_endpoint,
    well_known_prm_urls,
)

T = TypeVar("T")

SERVER_URL = "https://mcp.example.com/mcp"
ISSUER = "https://auth.example.com"
REDIRECT = "http://127.0.0.1:8765/callback"
NOW = 1_000_000.0


def clock() -> float:
    return NOW


class FixedRandom:
    """A deterministic ``secrets`` stand-in: distinct, recognisable values."""

    def __init__(self) -> None:
        self.calls = 0

    def token_urlsafe(self, nbytes: int | None = None) -> str:
        self.calls += 1
        return f"random{self.calls}-" + "x" * max(0, (nbytes or 32) - 8)


def metadata_document(issuer: str = ISSUER, **overrides: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "issuer": issuer,
        "authorization_endpoint": f"{issuer}/authorize",
        "token_endpoint": f"{issuer}/token",
        "registration_endpoint": f"{issuer}/register",
        "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post"],
        "scopes_supported": ["read", "write", "offline_access"],
    }
    document.update(overrides)
    return {key: value for key, value in document.items() if value is not None}


def metadata(**overrides: Any) -> AuthServerMetadata:
    return AuthServerMetadata.parse(metadata_document(**overrides), expected_issuer=ISSUER)


def prm_document(resource: str = SERVER_URL, **overrides: Any) -> dict[str, Any]:
    return {"resource": resource, "authorization_servers": [ISSUER], **overrides}


def json_response(status: int, body: object, headers: Mapping[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, json=body, headers=headers)


class Router:
    """Canned answers by (method, URL); anything else is a 404. Records every request."""

    def __init__(self, routes: Mapping[tuple[str, str], Any] | None = None) -> None:
        self.routes: dict[tuple[str, str], Any] = dict(routes or {})
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        key = (request.method, str(request.url))
        answer = self.routes.get(key)
        if answer is None:
            return httpx.Response(404)
        if callable(answer):
            result: httpx.Response = answer(request)
            return result
        assert isinstance(answer, httpx.Response)
        return answer

    def urls(self, method: str = "GET") -> list[str]:
        return [str(request.url) for request in self.requests if request.method == method]


def approve(
    issuer: str | None = ISSUER, code: str = "the-code"
) -> Callable[[UserAuthorization], dict[str, str]]:
    """A user who approves: the redirect carries the code, the state and (optionally) iss."""

    def user(action: UserAuthorization) -> dict[str, str]:
        params = {"code": code, "state": action.state}
        if issuer is not None:
            params["iss"] = issuer
        return params

    return user


def run(
    flow: Flow[T],
    respond: Callable[[httpx.Request], httpx.Response],
    user: Callable[[UserAuthorization], Mapping[str, str]] | None = None,
) -> T:
    """A synchronous driver, the twin of ``actors.oauth.drive``."""
    try:
        step = next(flow)
        while True:
            if isinstance(step, httpx.Request):
                step = flow.send(respond(step))
            else:
                assert user is not None, "the flow asked for the user"
                step = flow.send(dict(user(step)))
    except StopIteration as stop:
        result: T = stop.value
        return result


def form(request: httpx.Request) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(request.content.decode()).items()}


def token_route(body: Mapping[str, Any], status: int = 200) -> Callable[[httpx.Request], httpx.Response]:
    return lambda request: json_response(status, dict(body))


# --- WWW-Authenticate ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (
            'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", '
            'scope="read write"',
            {
                "resource_metadata": "https://mcp.example.com/.well-known/oauth-protected-resource",
                "scope": "read write",
            },
        ),
        (
            'Bearer error="insufficient_scope", scope="files:write", error_description="need \\"write\\""',
            {"error": "insufficient_scope", "scope": "files:write", "error_description": 'need "write"'},
        ),
        (
            'Basic realm="x", Bearer realm="mcp", error=invalid_token',
            {"realm": "mcp", "error": "invalid_token"},
        ),
        ('bearer Scope="a"', {"scope": "a"}),
        ("Bearer", {}),
        ('Basic realm="only basic"', {}),
        ("", {}),
        ('Bearer scope="first", scope="second"', {"scope": "first"}),
        ('Negotiate abc123==, Bearer scope="a"', {"scope": "a"}),
    ],
)
def test_www_authenticate_yields_the_bearer_challenge_params(header: str, expected: dict[str, str]) -> None:
    assert parse_www_authenticate(header) == expected


# --- URLs ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "canonical"),
    [
        ("HTTPS://MCP.Example.com/mcp", "https://mcp.example.com/mcp"),
        ("https://mcp.example.com/mcp/", "https://mcp.example.com/mcp"),
        ("https://mcp.example.com/", "https://mcp.example.com"),
        ("https://mcp.example.com:443/mcp#frag", "https://mcp.example.com/mcp"),
        ("https://mcp.example.com:8443/mcp", "https://mcp.example.com:8443/mcp"),
        ("https://user:pw@mcp.example.com/mcp", "https://mcp.example.com/mcp"),
        ("http://127.0.0.1:80/x?tenant=a", "http://127.0.0.1/x?tenant=a"),
    ],
)
def test_canonical_resource(url: str, canonical: str) -> None:
    assert canonical_resource(url) == canonical


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "https://example.com/public/mcp",
            [
                "https://example.com/.well-known/oauth-protected-resource/public/mcp",
                "https://example.com/.well-known/oauth-protected-resource",
            ],
        ),
        ("https://example.com/", ["https://example.com/.well-known/oauth-protected-resource"]),
        ("https://example.com", ["https://example.com/.well-known/oauth-protected-resource"]),
        (
            "https://example.com/mcp/",
            [
                "https://example.com/.well-known/oauth-protected-resource/mcp",
                "https://example.com/.well-known/oauth-protected-resource",
            ],
        ),
    ],
)
def test_prm_urls_are_path_inserted_then_root(url: str, expected: list[str]) -> None:
    assert well_known_prm_urls(url) == expected


@pytest.mark.parametrize(
    ("issuer", "expected"),
    [
        (
            "https://auth.example.com/tenant1",
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ],
        ),
        (
            "https://auth.example.com",
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ],
        ),
        (
            "https://auth.example.com/",
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ],
        ),
    ],
)
def test_as_metadata_urls_follow_the_spec_order(issuer: str, expected: list[str]) -> None:
    assert as_metadata_urls(issuer) == expected


@pytest.mark.parametrize(
    "url",
    [
        "https://auth.example.com/token",
        "https://AUTH.example.com:443/token",
    ],
)
def test_an_https_endpoint_on_the_issuers_origin_is_accepted(url: str) -> None:
    assert validate_endpoint(url, ISSUER) == url


@pytest.mark.parametrize(
    ("url", "issuer"),
    [
        ("http://127.0.0.1:9000/token", "http://127.0.0.1:9000"),
        ("http://localhost:9000/token", "http://localhost:9000"),
        ("http://[::1]:9000/token", "http://[::1]:9000"),
    ],
)
def test_http_is_accepted_for_loopback_hosts(url: str, issuer: str) -> None:
    assert validate_endpoint(url, issuer) == url


@pytest.mark.parametrize(
    ("url", "issuer", "rule"),
    [
        ("http://auth.example.com/token", "http://auth.example.com", "https"),
        ("http://10.0.0.1/token", "http://10.0.0.1", "https"),
        ("ftp://auth.example.com/token", ISSUER, "https"),
        ("https://user:pw@auth.example.com/token", ISSUER, "https"),
        ("https://evil.example.com/token", ISSUER, "same-origin endpoints"),
        ("https://auth.example.com:8443/token", ISSUER, "same-origin endpoints"),
        ("http://127.0.0.1:9001/token", "http://127.0.0.1:9000", "same-origin endpoints"),
        ("https://sub.auth.example.com/token", ISSUER, "same-origin endpoints"),
    ],
)
def test_insecure_or_cross_origin_endpoints_are_refused(url: str, issuer: str, rule: str) -> None:
    with pytest.raises(AuthRefused) as caught:
        validate_endpoint(url, issuer, server="remote")

    assert caught.value.rule == rule
    assert "remote" in str(caught.value)


@pytest.mark.parametrize(
    "key", ["token_endpoint", "authorization_endpoint", "registration_endpoint", "revocation_endpoint"]
)
def test_metadata_with_any_endpoint_off_the_issuers_origin_is_refused(key: str) -> None:
    with pytest.raises(AuthRefused) as caught:
        metadata(**{key: "https://elsewhere.example.net/x"})

    assert caught.value.rule == "same-origin endpoints"


def test_metadata_with_a_plain_http_endpoint_is_refused() -> None:
    with pytest.raises(AuthRefused) as caught:
        metadata(token_endpoint="http://auth.example.com/token")

    assert caught.value.rule == "https"


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "file:///etc/passwd",
        "vbscript:msgbox",
        "http://auth.example.com/authorize?x=1",
        "https://auth.example.com/authorize?x=1 --flag",
        'https://auth.example.com/authorize?x="1"',
        "https://auth.example.com/authorize?x=1\nrm",
        "https://auth.example.com/authorize?x=1;`id`",
        "//auth.example.com/authorize",
        "https:///no-host",
    ],
)
def test_authorization_urls_other_than_https_or_loopback_http_are_refused(url: str) -> None:
    with pytest.raises(AuthRefused) as caught:
        validate_authorization_url(url)

    assert caught.value.rule in ("authorization URL", "https")


@pytest.mark.parametrize(
    "url", ["https://auth.example.com/authorize?a=1&b=%20", "http://127.0.0.1:9/authorize?state=x"]
)
def test_https_and_loopback_authorization_urls_are_accepted(url: str) -> None:
    assert validate_authorization_url(url) == url


# --- discovery -----------------------------------------------------------------------------------------


def discovery_routes(prm_url: str, **prm_overrides: Any) -> dict[tuple[str, str], Any]:
    return {
        ("GET", prm_url): json_response(200, prm_document(**prm_overrides)),
        ("GET", f"{ISSUER}/.well-known/oauth-authorization-server"): json_response(200, metadata_document()),
    }


def test_discovery_uses_the_challenges_resource_metadata_first() -> None:
    header_url = "https://mcp.example.com/custom/prm"
    router = Router(discovery_routes(header_url))

    found = run(
        discover(
            SERVER_URL,
            www_authenticate=f'Bearer resource_metadata="{header_url}", scope="read"',
            protocol_version="2025-06-18",
        ),
        router,
    )

    assert router.urls()[0] == header_url
    assert found.issuer == ISSUER
    assert found.resource == SERVER_URL
    assert found.scopes_from_challenge == ("read",)
    assert found.prm is not None and found.prm.url == header_url


def test_discovery_tries_the_path_inserted_prm_then_the_root_one() -> None:
    root = "https://mcp.example.com/.well-known/oauth-protected-resource"
    router = Router(discovery_routes(root))

    found = run(discover(SERVER_URL, www_authenticate=None, protocol_version="2025-06-18"), router)

    assert router.urls()[:2] == ["https://mcp.example.com/.well-known/oauth-protected-resource/mcp", root]
    assert found.issuer == ISSUER
    assert found.scopes_from_challenge is None


def test_discovery_falls_back_to_the_well_known_prm_when_the_challenges_url_fails() -> None:
    path_inserted = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
    router = Router(discovery_routes(path_inserted))

    run(
        discover(
            SERVER_URL,
            www_authenticate='Bearer resource_metadata="https://mcp.example.com/gone"',
            protocol_version="2025-06-18",
        ),
        router,
    )

    assert router.urls()[:2] == ["https://mcp.example.com/gone", path_inserted]


def test_discovery_sends_the_protocol_version_header() -> None:
    path_inserted = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
    router = Router(discovery_routes(path_inserted))

    run(discover(SERVER_URL, www_authenticate=None, protocol_version="2025-06-18"), router)

    assert all(request.headers["mcp-protocol-version"] == "2025-06-18" for request in router.requests)


@pytest.mark.parametrize(
    "resource",
    [
        "https://other.example.com/mcp",
        "https://mcp.example.com/other",
        "https://mcp.example.com/mcpx",
        "http://mcp.example.com/mcp",
        "https://mcp.example.com/mcp/deeper",
    ],
)
def test_a_prm_for_another_resource_stops_the_flow(resource: str) -> None:
    path_inserted = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
    router = Router(discovery_routes(path_inserted, resource=resource))

    with pytest.raises(AuthRefused) as caught:
        run(
            discover(SERVER_URL, www_authenticate=None, protocol_version="2025-06-18", server="remote"),
            router,
        )

    assert caught.value.rule == "resource"
    assert router.urls() == [path_inserted]  # nothing fetched from the authorization server


@pytest.mark.parametrize("resource", ["https://MCP.example.com/mcp/", "https://mcp.example.com"])
def test_a_prm_for_the_same_resource_or_its_parent_is_accepted(resource: str) -> None:
    root = "https://mcp.example.com/.well-known/oauth-protected-resource"
    router = Router(discovery_routes(root, resource=resource))

    found = run(discover(SERVER_URL, www_authenticate=None, protocol_version="2025-06-18"), router)

    assert found.resource == canonical_resource(resource)


def test_a_prm_without_authorization_servers_fails_discovery() -> None:
    router = Router(
        {
            ("GET", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"): json_response(
                200, {"resource": SERVER_URL}
            )
        }
    )

    with pytest.raises(DiscoveryFailed):
        run(discover(SERVER_URL, www_authenticate=None, protocol_version="2025-06-18"), router)


def test_an_insecure_resource_metadata_url_in_the_challenge_is_refused() -> None:
    with pytest.raises(AuthRefused) as caught:
        run(
            discover(
                SERVER_URL,
                www_authenticate='Bearer resource_metadata="http://evil.example.com/prm"',
                protocol_version="2025-06-18",
            ),
            Router(),
        )

    assert caught.value.rule == "https"


def test_a_plain_http_server_url_is_refused_before_any_request() -> None:
    router = Router()

    with pytest.raises(AuthRefused):
        run(discover("http://mcp.example.com/mcp", www_authenticate=None, protocol_version=None), router)

    assert router.requests == []


@pytest.mark.parametrize("hit", [0, 1, 2])
def test_as_metadata_with_an_issuer_path_is_tried_in_the_spec_order(hit: int) -> None:
    issuer = "https://auth.example.com/tenant1"
    urls = as_metadata_urls(issuer)
    router = Router(
        {
            ("GET", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"): json_response(
                200, {"resource": SERVER_URL, "authorization_servers": [issuer]}
            ),
            ("GET", urls[hit]): json_response(200, metadata_document(issuer)),
        }
    )

    found = run(discover(SERVER_URL, www_authenticate=None, protocol_version="2025-06-18"), router)

    assert router.urls()[1:] == urls[: hit + 1]
    assert found.issuer == issuer
    assert found.as_metadata.token_endpoint == f"{issuer}/token"


def test_as_metadata_without_an_issuer_path_tries_oauth_then_openid() -> None:
    router = Router(
        {
            ("GET", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"): json_response(
                200, prm_document()
            ),
            ("GET", f"{ISSUER}/.well-known/openid-configuration"): json_response(200, metadata_document()),
        }
    )

    run(discover(SERVER_URL, www_authenticate=None, protocol_version="2025-06-18"), router)

    assert router.urls()[1:] == [
        f"{ISSUER}/.well-known/oauth-authorization-server",
        f"{ISSUER}/.well-known/openid-configuration",
    ]


@pytest.mark.parametrize(
    "found_issuer",
    ["https://evil.example.com", "https://auth.example.com/tenant2", "https://AUTH.example.com"],
)
def test_metadata_naming_another_issuer_is_refused(found_issuer: str) -> None:
    router = Router(
        {
            ("GET", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"): json_response(
                200, prm_document()
            ),
            ("GET", f"{ISSUER}/.well-known/oauth-authorization-server"): json_response(
                200, metadata_document(found_issuer)
            ),
        }
    )

    with pytest.raises(AuthRefused) as caught:
        run(discover(SERVER_URL, www_authenticate=None, protocol_version="2025-06-18"), router)

    assert caught.value.rule == "issuer"


def test_a_root_issuer_written_with_a_slash_is_the_same_issuer() -> None:
    parsed = AuthServerMetadata.parse(metadata_document(ISSUER + "/"), expected_issuer=ISSUER)

    assert parsed.issuer == ISSUER + "/"


def test_the_preferred_issuer_is_chosen_when_the_prm_lists_it() -> None:
    other = "https://login.example.org"
    router = Router(
        {
            ("GET", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"): json_response(
                200, {"resource": SERVER_URL, "authorization_servers": [ISSUER, other]}
            ),
            ("GET", f"{other}/.well-known/oauth-authorization-server"): json_response(
                200, metadata_document(other)
            ),
        }
    )

    found = run(
        discover(SERVER_URL, www_authenticate=None, protocol_version="2025-06-18", preferred_issuer=other),
        router,
    )

    assert found.issuer == other


def test_a_2025_03_26_server_without_prm_uses_metadata_at_its_origin() -> None:
    router = Router(
        {
            ("GET", "https://mcp.example.com/.well-known/oauth-authorization-server"): json_response(
                200, metadata_document("https://mcp.example.com")
            )
        }
    )

    found = run(discover(SERVER_URL, www_authenticate=None, protocol_version="2025-03-26"), router)

    assert router.urls()[-1] == "https://mcp.example.com/.well-known/oauth-authorization-server"
    assert found.prm is None
    assert found.issuer == "https://mcp.example.com"
    assert found.resource == SERVER_URL
    assert not found.as_metadata.from_defaults


def test_a_2025_03_26_server_without_any_metadata_gets_the_default_endpoints() -> None:
    router = Router()

    found = run(discover(SERVER_URL, www_authenticate=None, protocol_version="2025-03-26"), router)

    assert found.as_metadata.from_defaults
    assert found.as_metadata.authorization_endpoint == "https://mcp.example.com/authorize"
    assert found.as_metadata.token_endpoint == "https://mcp.example.com/token"
    assert found.as_metadata.registration_endpoint == "https://mcp.example.com/register"


def test_the_2025_03_26_defaults_apply_only_after_a_404_not_a_server_error() -> None:
    router = Router(
        {("GET", "https://mcp.example.com/.well-known/oauth-authorization-server"): httpx.Response(503)}
    )

    with pytest.raises(DiscoveryFailed):
        run(discover(SERVER_URL, www_authenticate=None, protocol_version="2025-03-26"), router)


def test_an_unknown_revision_without_prm_takes_the_2025_03_26_path() -> None:
    # A 401 may answer `initialize` itself, before any revision is negotiated.
    found = run(discover(SERVER_URL, www_authenticate=None, protocol_version=None), Router())

    assert found.as_metadata.from_defaults


def test_a_2025_06_18_server_without_prm_fails_discovery() -> None:
    with pytest.raises(DiscoveryFailed):
        run(discover(SERVER_URL, www_authenticate=None, protocol_version="2025-06-18"), Router())


# --- PKCE, state, iss, resource ------------------------------------------------------------------------

CLIENT = ClientRegistration(client_id="client-1", issuer=ISSUER, token_endpoint_auth_method="none")


def authorize_flow(meta: AuthServerMetadata | None = None, **kwargs: Any) -> Flow[Tokens]:
    return authorize(
        meta or metadata(),
        kwargs.pop("client", CLIENT),
        resource=kwargs.pop("resource", SERVER_URL),
        scopes=kwargs.pop("scopes", ("read",)),
        redirect_uri=REDIRECT,
        clock=clock,
        server="remote",
        random=kwargs.pop("random", FixedRandom()),
    )


def token_router(**body: Any) -> Router:
    answer = {"access_token": "AT-1", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "RT-1"}
    answer.update(body)
    return Router({("POST", f"{ISSUER}/token"): token_route(answer)})


@pytest.mark.parametrize("methods", [None, [], ["plain"]])
def test_authorization_is_refused_without_advertised_s256(methods: list[str] | None) -> None:
    router = token_router()

    with pytest.raises(AuthRefused) as caught:
        run(authorize_flow(metadata(code_challenge_methods_supported=methods)), router, approve())

    assert caught.value.rule == "pkce"
    assert router.requests == []


def test_authorization_uses_pkce_s256_state_and_resource() -> None:
    router = token_router()
    seen: list[UserAuthorization] = []

    def user(action: UserAuthorization) -> dict[str, str]:
        seen.append(action)
        return approve()(action)

    run(authorize_flow(), router, user)

    query = {key: values[0] for key, values in parse_qs(urlsplit(seen[0].url).query).items()}
    body = form(router.requests[0])
    assert query["code_challenge_method"] == "S256"
    assert query["code_challenge"] == pkce_challenge(body["code_verifier"])
    assert query["state"] == seen[0].state
    assert query["resource"] == SERVER_URL and body["resource"] == SERVER_URL
    assert query["redirect_uri"] == REDIRECT == body["redirect_uri"]
    assert query["scope"] == "read"
    assert query["client_id"] == "client-1" == body["client_id"]
    assert body["grant_type"] == "authorization_code" and body["code"] == "the-code"


def test_the_s256_challenge_is_rfc_7636s() -> None:
    # RFC 7636 appendix B.
    verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    assert pkce_challenge(verifier) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    digest = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    assert pkce_challenge(verifier) == digest


def test_the_endpoints_own_query_is_kept_in_the_authorization_url() -> None:
    seen: list[UserAuthorization] = []
    meta = metadata(authorization_endpoint=f"{ISSUER}/authorize?tenant=a")

    def user(action: UserAuthorization) -> dict[str, str]:
        seen.append(action)
        return approve()(action)

    run(authorize_flow(meta), token_router(), user)

    assert parse_qs(urlsplit(seen[0].url).query)["tenant"] == ["a"]


@pytest.mark.parametrize("state", ["wrong", "", None])
def test_a_redirect_with_another_state_is_refused_before_the_code_is_redeemed(state: str | None) -> None:
    router = token_router()

    def user(action: UserAuthorization) -> dict[str, str]:
        params = {"code": "the-code", "iss": ISSUER}
        if state is not None:
            params["state"] = state
        return params

    with pytest.raises(AuthRefused) as caught:
        run(authorize_flow(), router, user)

    assert caught.value.rule == "state"
    assert router.requests == []


@pytest.mark.parametrize(
    ("advertised", "iss", "accepted"),
    [
        (True, ISSUER, True),  # advertised, present, equal: proceed
        (True, "https://evil.example.com", False),  # advertised, present, different: reject
        (True, None, False),  # advertised, absent: reject
        (False, ISSUER, True),  # not advertised, present: compare anyway (equal)
        (False, "https://evil.example.com", False),  # not advertised, present, different: reject
        (False, None, True),  # not advertised, absent: proceed
        (True, ISSUER + "/", False),  # exact string comparison, no normalisation
    ],
)
def test_the_rfc_9207_iss_table(advertised: bool, iss: str | None, accepted: bool) -> None:
    router = token_router()
    meta = metadata(authorization_response_iss_parameter_supported=advertised)

    if accepted:
        run(authorize_flow(meta), router, approve(issuer=iss))
        assert len(router.requests) == 1
    else:
        with pytest.raises(AuthRefused) as caught:
            run(authorize_flow(meta), router, approve(issuer=iss))
        assert caught.value.rule == "iss"
        assert router.requests == []


def test_an_error_response_from_the_wrong_issuer_is_not_shown() -> None:
    params = {
        "error": "access_denied",
        "error_description": "click here: https://phish",
        "iss": "https://evil",
    }

    with pytest.raises(AuthRefused) as caught:
        check_iss(params, expected_issuer=ISSUER, advertised=True, server="remote")

    assert "phish" not in str(caught.value) and "access_denied" not in str(caught.value)


def test_an_authorization_error_from_the_right_issuer_is_reported() -> None:
    def user(action: UserAuthorization) -> dict[str, str]:
        return {"error": "access_denied", "error_description": "user said no", "state": action.state}

    with pytest.raises(AuthorizationDenied) as caught:
        run(authorize_flow(), token_router(), user)

    assert caught.value.error == "access_denied"
    assert "user said no" in str(caught.value)


def test_the_user_step_hides_url_and_state_from_its_repr() -> None:
    action = UserAuthorization(url="https://a/authorize?state=S3CRET", state="S3CRET", redirect_uri=REDIRECT)

    assert "S3CRET" not in repr(action)


# --- tokens --------------------------------------------------------------------------------------------


def test_token_expiry_is_stored_as_an_absolute_time() -> None:
    tokens = run(authorize_flow(), token_router(expires_in=3600), approve())

    assert tokens.expires_at == NOW + 3600
    assert tokens.obtained_at == NOW
    assert tokens.is_fresh(NOW + 3000)
    assert not tokens.is_fresh(NOW + 3590)
    assert tokens.is_expired(NOW + 3600)


@pytest.mark.parametrize(
    ("value", "expires_at"),
    [
        ("120", NOW + 120),
        (None, None),
        # Hostile or broken lifetimes are clamped, never "never expires" (issue 15, item 4).
        (0, NOW + oauth.MIN_TOKEN_LIFETIME),
        (-5, NOW + oauth.MIN_TOKEN_LIFETIME),
        (True, NOW + oauth.MIN_TOKEN_LIFETIME),
        ("soon", NOW + oauth.MIN_TOKEN_LIFETIME),
        ("-5", NOW + oauth.MIN_TOKEN_LIFETIME),
        ({"s": 1}, NOW + oauth.MIN_TOKEN_LIFETIME),
        (1e17, NOW + oauth.MAX_TOKEN_LIFETIME),
        (10**400, NOW + oauth.MAX_TOKEN_LIFETIME),
    ],
)
def test_odd_expires_in_values(value: object, expires_at: float | None) -> None:
    tokens = run(authorize_flow(), token_router(expires_in=value), approve())

    assert tokens.expires_at == expires_at


def test_a_token_without_expiry_is_fresh_until_a_401_says_otherwise() -> None:
    assert Tokens(access_token="a").is_fresh(NOW + 10**9)


def test_a_short_lived_token_is_not_stale_the_moment_it_arrives() -> None:
    tokens = Tokens(access_token="a", expires_at=NOW + 30, obtained_at=NOW)

    assert tokens.is_fresh(NOW)
    assert not tokens.is_fresh(NOW + 16)


def test_the_granted_scope_is_the_requested_one_when_the_response_omits_it() -> None:
    assert run(authorize_flow(scopes=("read",)), token_router(), approve()).scope == ("read",)
    assert run(authorize_flow(), token_router(scope="read write"), approve()).scope == ("read", "write")


@pytest.mark.parametrize("token_type", ["DPoP", "mac"])
def test_a_non_bearer_token_is_refused(token_type: str) -> None:
    with pytest.raises(AuthServerError) as caught:
        run(authorize_flow(), token_router(token_type=token_type), approve())

    assert caught.value.error == "unsupported_token_type"


def test_an_error_answered_with_http_200_is_an_error() -> None:
    router = Router(
        {("POST", f"{ISSUER}/token"): json_response(200, {"ok": False, "error": "invalid_grant"})}
    )

    with pytest.raises(AuthServerError) as caught:
        run(authorize_flow(), router, approve())

    assert caught.value.error == "invalid_grant"


def test_a_token_error_never_echoes_the_code_or_the_verifier() -> None:
    def echo(request: httpx.Request) -> httpx.Response:
        body = form(request)
        return json_response(
            400,
            {"error": "invalid_grant", "error_description": f"bad {body['code']} / {body['code_verifier']}"},
        )

    with pytest.raises(AuthServerError) as caught:
        run(authorize_flow(), Router({("POST", f"{ISSUER}/token"): echo}), approve(code="SECRET-CODE"))

    assert "SECRET-CODE" not in str(caught.value)
    assert "random1" not in str(caught.value)  # the verifier
    assert "[redacted]" in str(caught.value)


def test_tokens_hide_their_secrets_from_repr() -> None:
    tokens = Tokens(access_token="AT-SECRET", refresh_token="RT-SECRET", expires_at=5.0, scope=("a",))

    assert "SECRET" not in repr(tokens) and "SECRET" not in str(tokens)


def test_a_client_registration_hides_its_secret_from_repr() -> None:
    client = ClientRegistration(client_id="id", client_secret="CS-SECRET", issuer=ISSUER)

    assert "CS-SECRET" not in repr(client)


def refresh_flow(tokens: Tokens, client: ClientRegistration = CLIENT) -> Flow[Tokens]:
    return refresh(metadata(), client, tokens, resource=SERVER_URL, clock=clock, server="remote")


OLD = Tokens(
    access_token="AT-0", refresh_token="RT-0", expires_at=NOW - 1, scope=("read",), obtained_at=NOW - 99
)


def test_a_refresh_without_a_new_refresh_token_keeps_the_old_one() -> None:
    router = Router({("POST", f"{ISSUER}/token"): token_route({"access_token": "AT-1", "expires_in": 60})})

    tokens = run(refresh_flow(OLD), router)

    assert tokens.access_token == "AT-1"
    assert tokens.refresh_token == "RT-0"
    assert tokens.scope == ("read",)
    assert tokens.expires_at == NOW + 60


def test_a_refresh_with_a_rotated_refresh_token_takes_the_new_one() -> None:
    router = Router(
        {("POST", f"{ISSUER}/token"): token_route({"access_token": "AT-1", "refresh_token": "RT-1"})}
    )

    assert run(refresh_flow(OLD), router).refresh_token == "RT-1"


def test_a_refresh_sends_the_refresh_token_and_the_resource() -> None:
    router = Router({("POST", f"{ISSUER}/token"): token_route({"access_token": "AT-1"})})

    run(refresh_flow(OLD), router)

    body = form(router.requests[0])
    assert body == {
        "grant_type": "refresh_token",
        "refresh_token": "RT-0",
        "resource": SERVER_URL,
        "client_id": "client-1",
    }


# --- client authentication -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("supported", "has_secret", "expected"),
    [
        (None, True, "client_secret_basic"),
        (["client_secret_basic", "client_secret_post"], True, "client_secret_basic"),
        (["client_secret_post"], True, "client_secret_post"),
        (["client_secret_basic"], False, "none"),
        (None, False, "none"),
    ],
)
def test_the_token_endpoint_auth_method_follows_the_metadata(
    supported: list[str] | None, has_secret: bool, expected: str
) -> None:
    meta = metadata(token_endpoint_auth_methods_supported=supported)

    assert token_endpoint_auth_method(meta, has_secret=has_secret) == expected


def test_no_supported_secret_method_is_an_error() -> None:
    with pytest.raises(AuthError):
        token_endpoint_auth_method(
            metadata(token_endpoint_auth_methods_supported=["private_key_jwt"]), has_secret=True
        )


def test_client_secret_basic_sends_an_encoded_authorization_header() -> None:
    client = ClientRegistration("my id", "s&cret", "client_secret_basic", ISSUER)
    router = Router({("POST", f"{ISSUER}/token"): token_route({"access_token": "AT-1"})})

    run(refresh_flow(OLD, client), router)

    request = router.requests[0]
    assert request.headers["authorization"] == "Basic " + base64.b64encode(b"my+id:s%26cret").decode()
    assert "client_secret" not in form(request) and "client_id" not in form(request)


def test_client_secret_post_sends_the_credentials_in_the_body() -> None:
    client = ClientRegistration("id", "secret", "client_secret_post", ISSUER)
    router = Router({("POST", f"{ISSUER}/token"): token_route({"access_token": "AT-1"})})

    run(refresh_flow(OLD, client), router)

    request = router.requests[0]
    assert "authorization" not in request.headers
    assert form(request)["client_id"] == "id" and form(request)["client_secret"] == "secret"


def test_a_public_client_sends_only_its_id() -> None:
    router = Router({("POST", f"{ISSUER}/token"): token_route({"access_token": "AT-1"})})

    run(refresh_flow(OLD), router)

    assert "authorization" not in router.requests[0].headers
    assert "client_secret" not in form(router.requests[0])


# --- registration --------------------------------------------------------------------------------------


def registration_route(counter: list[int]) -> Callable[[httpx.Request], httpx.Response]:
    def register(request: httpx.Request) -> httpx.Response:
        counter.append(1)
        body = json.loads(request.content)
        return json_response(201, {**body, "client_id": f"dyn-{len(counter)}"})

    return register


def test_dynamic_registration_is_a_native_client_with_the_refresh_grant() -> None:
    router = Router({("POST", f"{ISSUER}/register"): registration_route([])})

    client = run(register_client(metadata(), redirect_uris=[REDIRECT], clock=clock), router)

    body = json.loads(router.requests[0].content)
    assert body["application_type"] == "native"
    assert body["grant_types"] == ["authorization_code", "refresh_token"]
    assert body["redirect_uris"] == [REDIRECT]
    assert body["token_endpoint_auth_method"] == "none"
    assert "scope" not in body
    assert client.kind == "dynamic" and client.client_id == "dyn-1" and client.registered_at == NOW
    assert client.issuer == ISSUER


def test_a_registration_error_is_reported() -> None:
    router = Router({("POST", f"{ISSUER}/register"): json_response(400, {"error": "invalid_redirect_uri"})})

    with pytest.raises(AuthServerError) as caught:
        run(register_client(metadata(), redirect_uris=[REDIRECT], clock=clock), router)

    assert caught.value.endpoint == "registration" and caught.value.error == "invalid_redirect_uri"


def client_flow(
    settings: ClientSettings, meta: AuthServerMetadata | None = None, stored: ClientRegistration | None = None
) -> Flow[ClientRegistration]:
    return obtain_client(meta or metadata(), settings, stored=stored, redirect_uri=REDIRECT, clock=clock)


def test_preregistered_credentials_come_first() -> None:
    router = Router()
    settings = ClientSettings(client_id="pre", client_secret="s", client_metadata_url="https://me.example/c")

    client = run(client_flow(settings, metadata(client_id_metadata_document_supported=True)), router)

    assert client.kind == "preregistered" and client.client_id == "pre"
    assert client.token_endpoint_auth_method == "client_secret_basic"
    assert router.requests == []


def test_a_client_id_metadata_document_is_used_when_the_server_supports_it() -> None:
    settings = ClientSettings(client_metadata_url="https://me.example/client.json")

    client = run(client_flow(settings, metadata(client_id_metadata_document_supported=True)), Router())

    assert client.kind == "metadata_document"
    assert client.client_id == "https://me.example/client.json"
    assert client.token_endpoint_auth_method == "none"


def test_without_cimd_support_the_client_registers_dynamically() -> None:
    counter: list[int] = []
    router = Router({("POST", f"{ISSUER}/register"): registration_route(counter)})

    client = run(client_flow(ClientSettings(client_metadata_url="https://me.example/c")), router)

    assert client.kind == "dynamic" and counter == [1]


def test_a_stored_dynamic_registration_of_the_same_issuer_is_reused() -> None:
    stored = ClientRegistration("dyn-old", issuer=ISSUER, kind="dynamic")
    router = Router()

    assert run(client_flow(ClientSettings(), stored=stored), router) is stored
    assert router.requests == []


def test_a_stored_registration_of_another_issuer_is_not_reused() -> None:
    counter: list[int] = []
    stored = ClientRegistration("dyn-old", issuer="https://old-as.example.com", kind="dynamic")

    client = run(
        client_flow(ClientSettings(), stored=stored),
        Router({("POST", f"{ISSUER}/register"): registration_route(counter)}),
    )

    assert client.client_id == "dyn-1"


def test_a_registration_with_an_expired_secret_is_not_reused() -> None:
    stored = ClientRegistration("dyn-old", "s", "client_secret_basic", ISSUER, secret_expires_at=NOW - 1)
    counter: list[int] = []

    run(
        client_flow(ClientSettings(), stored=stored),
        Router({("POST", f"{ISSUER}/register"): registration_route(counter)}),
    )

    assert counter == [1]


def test_no_way_to_get_a_client_is_an_error_naming_the_setting() -> None:
    with pytest.raises(AuthError, match=r"oauth\.client_id"):
        run(client_flow(ClientSettings(), metadata(registration_endpoint=None)), Router())


def invalid_client_then(
    answers: list[int], success: Mapping[str, Any]
) -> Callable[[httpx.Request], httpx.Response]:
    """A token endpoint answering invalid_client for the first ``answers[0]`` requests."""

    def token(request: httpx.Request) -> httpx.Response:
        if answers[0] > 0:
            answers[0] -= 1
            return json_response(401, {"error": "invalid_client"})
        return json_response(200, dict(success))

    return token


def test_one_transient_invalid_client_is_retried_not_fatal() -> None:
    router = Router({("POST", f"{ISSUER}/token"): invalid_client_then([1], {"access_token": "AT-1"})})

    tokens = run(refresh_flow(OLD), router)

    assert tokens.access_token == "AT-1" and len(router.requests) == 2


def test_invalid_client_twice_is_a_confirmed_rejection() -> None:
    router = Router({("POST", f"{ISSUER}/token"): invalid_client_then([2], {"access_token": "AT-1"})})

    with pytest.raises(ClientRejected):
        run(refresh_flow(OLD), router)


# --- scopes --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("challenge", "configured", "prm", "as_supported", "expected"),
    [
        (("a",), ("b",), ("c",), None, ("a",)),  # the challenge is authoritative
        (None, ("b",), ("c",), None, ("b",)),  # then the operator's
        (None, (), ("c", "d"), None, ("c", "d")),  # then all of the PRM's
        (None, (), None, None, ()),  # else none
        (None, (), (), ["offline_access"], ()),  # offline_access never alone
        (("a",), (), None, ["a", "offline_access"], ("a", "offline_access")),  # added when listed
        (("a",), (), None, ["a"], ("a",)),  # not when not listed
        (("a", "offline_access"), (), None, ["offline_access"], ("a", "offline_access")),  # not twice
        (("a", "a"), (), None, None, ("a",)),
    ],
)
def test_scope_selection_order(
    challenge: tuple[str, ...] | None,
    configured: tuple[str, ...],
    prm: tuple[str, ...] | None,
    as_supported: list[str] | None,
    expected: tuple[str, ...],
) -> None:
    assert (
        select_scopes(
            challenge=challenge, configured=configured, prm_supported=prm, as_supported=as_supported
        )
        == expected
    )


def test_step_up_asks_for_the_union_of_previous_and_challenged_scopes() -> None:
    scopes = step_up_scopes(
        requested=("read", "offline_access"),
        granted=("read",),
        www_authenticate='Bearer error="insufficient_scope", scope="read write"',
        attempts=0,
    )

    assert scopes == ("read", "offline_access", "write")


@pytest.mark.parametrize("attempts", [0, 1, 2])
def test_step_up_is_allowed_three_times(attempts: int) -> None:
    header = 'Bearer error="insufficient_scope", scope="write"'
    assert step_up_scopes(requested=(), granted=(), www_authenticate=header, attempts=attempts) == ("write",)


@pytest.mark.parametrize(
    ("header", "granted", "attempts"),
    [
        ('Bearer error="insufficient_scope", scope="write"', (), 3),  # budget spent
        ('Bearer error="insufficient_scope"', (), 0),  # nothing to ask for
        ('Bearer error="insufficient_scope", scope="write"', ("write",), 0),  # already granted: no loop
    ],
)
def test_step_up_gives_up(header: str, granted: tuple[str, ...], attempts: int) -> None:
    with pytest.raises(InsufficientScope):
        step_up_scopes(
            requested=("read",), granted=granted, www_authenticate=header, attempts=attempts, server="s"
        )


# --- the composition -----------------------------------------------------------------------------------


class FakeAuthorizationServer:
    """PRM + metadata + register + token, as canned routes with counters, for :func:`obtain_tokens`."""

    def __init__(self, **metadata_overrides: Any) -> None:
        self.registrations: list[int] = []
        self.token_bodies: list[dict[str, str]] = []
        self.token_answers: list[httpx.Response] = []
        self.issued = 0
        self.logins = 0
        self.router = Router(
            {
                ("GET", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"): json_response(
                    200, prm_document(scopes_supported=["read"])
                ),
                ("GET", f"{ISSUER}/.well-known/oauth-authorization-server"): json_response(
                    200, metadata_document(**metadata_overrides)
                ),
                ("POST", f"{ISSUER}/register"): registration_route(self.registrations),
                ("POST", f"{ISSUER}/token"): self.token,
            }
        )

    def token(self, request: httpx.Request) -> httpx.Response:
        self.token_bodies.append(form(request))
        if self.token_answers:
            return self.token_answers.pop(0)
        self.issued += 1
        return json_response(
            200, {"access_token": f"AT-{self.issued}", "refresh_token": f"RT-{self.issued}", "expires_in": 60}
        )

    def grants(self) -> list[str]:
        return [body["grant_type"] for body in self.token_bodies]


def obtain(
    fake: FakeAuthorizationServer,
    state: AuthState | None,
    *,
    interactive: bool = True,
    settings: ClientSettings | None = None,
    **kwargs: Any,
) -> AuthState:
    users: list[UserAuthorization] = []

    def user(action: UserAuthorization) -> dict[str, str]:
        users.append(action)
        return approve()(action)

    result = run(
        obtain_tokens(
            SERVER_URL,
            settings=settings or ClientSettings(),
            state=state,
            www_authenticate=kwargs.pop("www_authenticate", None),
            protocol_version="2025-06-18",
            redirect_uri=REDIRECT if interactive else None,
            clock=clock,
            server="remote",
            random=FixedRandom(),
            **kwargs,
        ),
        fake.router,
        user,
    )
    fake.logins = len(users)
    return result


def stored_state(refresh_token: str | None = "RT-0", scope: tuple[str, ...] = ("read",)) -> AuthState:
    return AuthState(
        issuer=ISSUER,
        resource=SERVER_URL,
        metadata=metadata(),
        client=ClientRegistration("dyn-0", issuer=ISSUER, kind="dynamic"),
        tokens=Tokens(
            "AT-0", refresh_token=refresh_token, expires_at=NOW - 1, scope=scope, obtained_at=NOW - 61
        ),
        requested_scopes=scope,
    )


def test_a_first_login_discovers_registers_and_authorizes() -> None:
    fake = FakeAuthorizationServer()

    state = obtain(fake, None)

    assert state.tokens is not None and state.tokens.access_token == "AT-1"
    assert state.client is not None and state.client.client_id == "dyn-1"
    assert state.issuer == ISSUER and state.resource == SERVER_URL
    assert state.requested_scopes == ("read", "offline_access")
    assert fake.registrations == [1] and fake.grants() == ["authorization_code"]


def test_a_stored_refresh_token_is_used_before_any_discovery_or_login() -> None:
    fake = FakeAuthorizationServer()

    state = obtain(fake, stored_state(), interactive=False)

    assert state.tokens is not None and state.tokens.access_token == "AT-1"
    assert fake.grants() == ["refresh_token"]
    assert fake.router.urls("GET") == []


def test_a_refused_refresh_falls_back_to_one_new_authorization() -> None:
    fake = FakeAuthorizationServer()
    fake.token_answers.append(json_response(400, {"error": "invalid_grant"}))

    state = obtain(fake, stored_state())

    assert fake.grants() == ["refresh_token", "authorization_code"]
    assert fake.logins == 1
    assert fake.registrations == []  # the stored client of this issuer is reused
    assert state.tokens is not None and state.tokens.access_token == "AT-1"


def test_a_refused_refresh_and_a_failed_authorization_do_not_loop() -> None:
    fake = FakeAuthorizationServer()
    fake.token_answers += [json_response(400, {"error": "invalid_grant"})] * 2

    with pytest.raises(AuthServerError):
        obtain(fake, stored_state())

    assert fake.grants() == ["refresh_token", "authorization_code"]


def test_a_refused_refresh_in_a_non_interactive_process_needs_login() -> None:
    fake = FakeAuthorizationServer()
    fake.token_answers.append(json_response(400, {"error": "invalid_grant"}))

    with pytest.raises(NeedsLogin, match="troupe login remote"):
        obtain(fake, stored_state(), interactive=False)


def test_a_transient_refresh_failure_does_not_force_a_new_login() -> None:
    fake = FakeAuthorizationServer()
    fake.token_answers.append(httpx.Response(503, text="busy"))

    with pytest.raises(AuthServerError) as caught:
        obtain(fake, stored_state())

    assert caught.value.transient
    assert fake.grants() == ["refresh_token"]


def test_a_first_request_without_tokens_in_a_non_interactive_process_needs_login() -> None:
    fake = FakeAuthorizationServer()

    with pytest.raises(NeedsLogin):
        obtain(fake, None, interactive=False)

    assert fake.registrations == []  # nothing registered for a login that cannot happen


def test_a_confirmed_invalid_client_on_refresh_re_registers_a_dynamic_client() -> None:
    fake = FakeAuthorizationServer()
    fake.token_answers += [json_response(401, {"error": "invalid_client"})] * 2

    state = obtain(fake, stored_state())

    assert fake.registrations == [1]
    assert state.client is not None and state.client.client_id == "dyn-1"


def test_a_confirmed_invalid_client_on_the_code_exchange_re_registers_once() -> None:
    fake = FakeAuthorizationServer()
    fake.token_answers += [json_response(401, {"error": "invalid_client"})] * 2

    state = obtain(fake, None)

    assert fake.registrations == [1, 1]
    assert state.client is not None and state.client.client_id == "dyn-2"
    assert fake.logins == 2


def test_a_confirmed_invalid_client_of_a_preregistered_client_is_not_re_registered() -> None:
    fake = FakeAuthorizationServer()
    fake.token_answers += [json_response(401, {"error": "invalid_client"})] * 2

    with pytest.raises(ClientRejected):
        obtain(fake, None, settings=ClientSettings(client_id="pre"))

    assert fake.registrations == []


def test_a_step_up_skips_the_refresh_and_asks_for_the_union() -> None:
    fake = FakeAuthorizationServer()
    union = step_up_scopes(
        requested=("read",),
        granted=("read",),
        www_authenticate='Bearer error="insufficient_scope", scope="write"',
        attempts=0,
    )

    state = obtain(fake, stored_state(), scopes=union)

    assert fake.grants() == ["authorization_code"]
    assert state.requested_scopes == ("read", "write")


def test_another_issuer_means_another_client_and_no_reuse() -> None:
    fake = FakeAuthorizationServer()
    old = stored_state(refresh_token=None)
    old = AuthState(
        issuer="https://old-as.example.com",
        resource=SERVER_URL,
        metadata=AuthServerMetadata.parse(
            metadata_document("https://old-as.example.com"), expected_issuer="https://old-as.example.com"
        ),
        client=ClientRegistration("dyn-old", issuer="https://old-as.example.com"),
        tokens=old.tokens,
    )

    state = obtain(fake, old)

    assert state.issuer == ISSUER
    assert state.client is not None and state.client.client_id == "dyn-1"


def test_login_forces_a_new_authorization() -> None:
    fake = FakeAuthorizationServer()

    obtain(fake, stored_state(), force_authorization=True)

    assert fake.grants() == ["authorization_code"]


def test_a_server_without_s256_is_refused_before_registering() -> None:
    fake = FakeAuthorizationServer(code_challenge_methods_supported=None)

    with pytest.raises(AuthRefused):
        obtain(fake, None)

    assert fake.registrations == []


def test_the_state_survives_a_round_trip_through_plain_data() -> None:
    state = stored_state()

    again = AuthState.from_dict(json.loads(json.dumps(state.to_dict())))

    assert again == state
    assert again.tokens is not None and again.tokens.refresh_token == "RT-0"


@pytest.mark.parametrize(
    ("literal", "lifetime"),
    [
        ("NaN", oauth.MIN_TOKEN_LIFETIME),
        ("-Infinity", oauth.MIN_TOKEN_LIFETIME),
        ("Infinity", oauth.MAX_TOKEN_LIFETIME),
        ("1e400", oauth.MAX_TOKEN_LIFETIME),
        ("1" + "0" * 400, oauth.MAX_TOKEN_LIFETIME),
        ("-1e400", oauth.MIN_TOKEN_LIFETIME),
        ("3600.5", 3600.5),
    ],
)
def test_hostile_expires_in_literals_are_clamped(literal: str, lifetime: float) -> None:
    # The token endpoint's body as bytes: NaN and Infinity are what Python's json module accepts.
    body = f'{{"access_token": "AT-1", "token_type": "Bearer", "expires_in": {literal}}}'.encode()
    router = Router({("POST", f"{ISSUER}/token"): lambda _: httpx.Response(200, content=body)})

    tokens = run(authorize_flow(), router, approve())

    assert tokens.expires_at == NOW + lifetime
    assert tokens.is_fresh(NOW)
    assert not tokens.is_fresh(NOW + oauth.MAX_TOKEN_LIFETIME + 1)


@pytest.mark.parametrize("stored", [1e17, float("inf"), -1.0, "1e17", True, 2.0**40])
def test_absurd_stored_expiry_reads_as_expired(stored: object) -> None:
    tokens = oauth.Tokens.from_dict({"access_token": "AT", "expires_at": stored, "obtained_at": stored})

    assert tokens.expires_at == 0.0
    assert tokens.is_expired(NOW)
    assert tokens.obtained_at is None
