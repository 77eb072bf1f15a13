"""Grants without a human, client assertions and DPoP, driven with canned responses (no sockets).

Signatures are checked with PyJWT's own verifier against the public half of the key, as an authorization or
resource server would; proofs are checked field by field against RFC 9449 §4.2.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from hypothesis import given
from hypothesis import strategies as st
from tests.unit.test_oauth_protocol import (
    ISSUER,
    NOW,
    SERVER_URL,
    FixedRandom,
    Router,
    clock,
    form,
    json_response,
    metadata_document,
    prm_document,
    run,
)

from mcp_troupe import errors as oauth_errors
from mcp_troupe.actors.oauth import describe_auth
from mcp_troupe.errors import AuthError, AuthRefused, AuthServerError
from mcp_troupe.protocol import oauth
from mcp_troupe.protocol.jose import (
    CLIENT_ASSERTION_TYPE,
    DpopKey,
    KeyError_,
    SigningKey,
    client_assertion,
    dpop_htu,
    dpop_nonce_challenge,
)
from mcp_troupe.protocol.oauth import AuthServerMetadata, ClientSettings, obtain_tokens

TOKEN_URL = f"{ISSUER}/token"
IDP_TOKEN_URL = "https://idp.example.com/token"


def ec_pem() -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


def rsa_pem(bits: int = 2048) -> str:
    key = rsa.generate_private_key(public_exponent=65537, key_size=bits)
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    ).decode()


def discovery_routes(**metadata_overrides: Any) -> dict[tuple[str, str], Any]:
    return {
        ("GET", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"): json_response(
            200, prm_document()
        ),
        ("GET", f"{ISSUER}/.well-known/oauth-authorization-server"): json_response(
            200, metadata_document(**metadata_overrides)
        ),
    }


def machine_flow(
    settings: ClientSettings, state: oauth.AuthState | None = None
) -> oauth.Flow[oauth.AuthState]:
    return obtain_tokens(
        SERVER_URL,
        settings=settings,
        state=state,
        www_authenticate=None,
        protocol_version="2025-11-25",
        redirect_uri=None,
        clock=clock,
        server="remote",
        random=FixedRandom(),
    )


def issuing(token_type: str = "Bearer", **extra: Any) -> Callable[[httpx.Request], httpx.Response]:
    body = {"access_token": "AT-machine", "token_type": token_type, "expires_in": 600, **extra}
    return lambda request: json_response(200, body)


# --- keys and client assertions ----------------------------------------------------------------------


@pytest.mark.parametrize(("pem", "algorithm"), [(ec_pem, "ES256"), (rsa_pem, "RS256")])
def test_a_client_assertion_verifies_with_the_public_key(pem: Callable[[], str], algorithm: str) -> None:
    key = SigningKey.from_pem(pem(), key_id="k1")

    token = client_assertion(key, client_id="agent", audience=ISSUER, now=NOW, jti="j-1")

    claims = jwt.decode(
        token,
        key.key.public_key(),
        algorithms=[algorithm],
        audience=ISSUER,
        options={"verify_exp": False, "verify_iat": False},
    )
    assert key.algorithm == algorithm
    assert jwt.get_unverified_header(token)["kid"] == "k1"
    assert claims == {
        "iss": "agent",
        "sub": "agent",
        "aud": ISSUER,
        "iat": int(NOW),
        "exp": int(NOW) + 60,
        "jti": "j-1",
    }


@pytest.mark.parametrize(
    ("pem", "algorithm", "message"),
    [
        ("not a key", None, "not an unencrypted PEM private key"),
        (ec_pem, "RS256", "cannot sign RS256"),
        (rsa_pem, "ES256", "cannot sign ES256"),
        (lambda: rsa_pem(1024), None, "at least 2048"),
    ],
)
def test_unusable_keys_are_refused_without_showing_them(
    pem: str | Callable[[], str], algorithm: Any, message: str
) -> None:
    text = pem() if callable(pem) else pem

    with pytest.raises(KeyError_, match=message) as caught:
        SigningKey.from_pem(text, algorithm=algorithm)

    assert "PRIVATE" not in str(caught.value) or "BEGIN PRIVATE KEY-----)" in str(caught.value)
    assert text not in str(caught.value)


def test_an_encrypted_or_other_curve_key_is_refused() -> None:
    p384 = ec.generate_private_key(ec.SECP384R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    with pytest.raises(KeyError_, match="P-256"):
        SigningKey.from_pem(p384)
    encrypted = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"pass"),
    )
    with pytest.raises(KeyError_, match="unencrypted"):
        SigningKey.from_pem(encrypted)


# --- DPoP proofs -------------------------------------------------------------------------------------


def test_a_dpop_proof_has_every_rfc_9449_member_and_verifies() -> None:
    key = DpopKey.generate()

    proof = key.proof(
        "post", "https://mcp.example.com/mcp?x=1#f", now=NOW, jti="p1", access_token="AT", nonce="n-1"
    )

    header = jwt.get_unverified_header(proof)
    assert header["typ"] == "dpop+jwt"
    assert header["alg"] == "ES256"
    assert set(header["jwk"]) == {"kty", "crv", "x", "y"}  # never the private "d"
    public = jwt.PyJWK(header["jwk"]).key
    claims = jwt.decode(proof, public, algorithms=["ES256"], options={"verify_iat": False})
    ath = base64.urlsafe_b64encode(hashlib.sha256(b"AT").digest()).rstrip(b"=").decode()
    assert claims == {
        "jti": "p1",
        "htm": "POST",
        "htu": "https://mcp.example.com/mcp",
        "iat": int(NOW),
        "ath": ath,
        "nonce": "n-1",
    }


def test_the_thumbprint_is_rfc_7638() -> None:
    # RFC 7638 §3.1 computes over the required members in lexicographic order; recompute independently.
    key = DpopKey.generate()
    jwk = key.public_jwk()
    members = f'{{"crv":"P-256","kty":"EC","x":"{jwk["x"]}","y":"{jwk["y"]}"}}'
    expected = base64.urlsafe_b64encode(hashlib.sha256(members.encode()).digest()).rstrip(b"=").decode()

    assert key.thumbprint() == expected
    assert DpopKey.from_pem(key.to_pem()).thumbprint() == expected


def test_dpop_htu_drops_query_and_fragment() -> None:
    assert dpop_htu("HTTPS://Auth.Example.com:8443/token?a=b#c") == "https://auth.example.com:8443/token"


@given(st.text(max_size=600))
def test_a_nonce_is_taken_only_when_it_is_a_bounded_nqchar_string(nonce: str) -> None:
    taken = dpop_nonce_challenge("use_dpop_nonce", nonce)

    if taken is not None:
        assert len(taken) <= 512
        assert all(0x21 <= ord(ch) <= 0x7E and ch not in '"\\' for ch in taken)
    assert dpop_nonce_challenge("invalid_token", nonce) is None


# --- client credentials ------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["client_secret_basic", "client_secret_post"])
def test_client_credentials_with_a_secret(method: str) -> None:
    router = Router(
        {**discovery_routes(token_endpoint_auth_methods_supported=[method]), ("POST", TOKEN_URL): issuing()}
    )
    settings = ClientSettings(
        grant="client_credentials", client_id="agent", client_secret="s3cret", scopes=("read",)
    )

    state = run(machine_flow(settings), router)

    (request,) = [r for r in router.requests if r.method == "POST"]
    body = form(request)
    assert body["grant_type"] == "client_credentials"
    assert body["resource"] == SERVER_URL
    assert body["scope"] == "read"  # no offline_access for a grant without a user
    if method == "client_secret_basic":
        assert request.headers["Authorization"] == "Basic " + base64.b64encode(b"agent:s3cret").decode()
        assert "client_secret" not in body
    else:
        assert (body["client_id"], body["client_secret"]) == ("agent", "s3cret")
    assert state.grant == "client_credentials"
    assert state.tokens is not None and state.tokens.access_token == "AT-machine"
    assert state.client is not None and state.client.kind == "preregistered"


def test_client_credentials_with_private_key_jwt() -> None:
    key = SigningKey.from_pem(ec_pem())
    router = Router(
        {
            **discovery_routes(token_endpoint_auth_methods_supported=["private_key_jwt"]),
            ("POST", TOKEN_URL): issuing(),
        }
    )
    settings = ClientSettings(grant="client_credentials", client_id="agent", signing_key=key)

    run(machine_flow(settings), router)

    body = form(router.requests[-1])
    assert body["client_assertion_type"] == CLIENT_ASSERTION_TYPE
    claims = jwt.decode(
        body["client_assertion"],
        key.key.public_key(),
        algorithms=["ES256"],
        audience=ISSUER,
        options={"verify_exp": False, "verify_iat": False},
    )
    assert (claims["iss"], claims["sub"]) == ("agent", "agent")
    assert "client_secret" not in body


def test_a_method_the_server_does_not_list_is_refused_before_sending() -> None:
    router = Router(discovery_routes(token_endpoint_auth_methods_supported=["private_key_jwt"]))
    settings = ClientSettings(grant="client_credentials", client_id="agent", client_secret="s3cret")

    with pytest.raises(AuthError, match="supports none of client_secret_basic, client_secret_post") as caught:
        run(machine_flow(settings), router)

    assert "s3cret" not in str(caught.value)
    assert router.urls("POST") == []


def test_a_refused_machine_grant_needs_no_login_and_names_the_error() -> None:
    router = Router(
        {
            **discovery_routes(),
            ("POST", TOKEN_URL): lambda r: json_response(
                400, {"error": "invalid_scope", "error_description": "no s3cret here"}
            ),
        }
    )
    settings = ClientSettings(grant="client_credentials", client_id="agent", client_secret="s3cret")

    with pytest.raises(AuthServerError) as caught:
        run(machine_flow(settings), router)

    assert caught.value.error == "invalid_scope"
    assert "s3cret" not in str(caught.value)  # the secret we sent is blanked even if the server echoes it
    assert len(router.urls("POST")) == 1


# --- workload identity (jwt-bearer) ------------------------------------------------------------------


@pytest.mark.parametrize("error", ["invalid_grant", "invalid_scope", "unauthorized_client"])
def test_a_refused_workload_jwt_is_surfaced_without_retry_or_another_grant(error: str) -> None:
    router = Router(
        {**discovery_routes(), ("POST", TOKEN_URL): lambda r: json_response(400, {"error": error})}
    )
    settings = ClientSettings(grant="workload_identity", client_id="wl", assertion="header.payload.sig")

    with pytest.raises(AuthServerError) as caught:
        run(machine_flow(settings), router)

    assert caught.value.error == error
    (request,) = [r for r in router.requests if r.method == "POST"]
    body = form(request)
    assert body["grant_type"] == oauth.JWT_BEARER_GRANT
    assert body["assertion"] == "header.payload.sig"
    assert "header.payload.sig" not in str(caught.value)


# --- enterprise (token exchange, then jwt-bearer) ----------------------------------------------------


def test_enterprise_exchanges_the_id_token_for_an_id_jag_then_uses_it() -> None:
    exchanged = {
        "access_token": "the-id-jag",
        "issued_token_type": oauth.ID_JAG_TOKEN_TYPE,
        "token_type": "N_A",
    }
    router = Router(
        {
            **discovery_routes(),
            ("POST", IDP_TOKEN_URL): lambda r: json_response(200, exchanged),
            ("POST", TOKEN_URL): issuing(),
        }
    )
    settings = ClientSettings(
        grant="enterprise",
        client_id="xaa-client",
        client_secret="xaa-secret",
        assertion="the-id-token",
        idp_token_endpoint=IDP_TOKEN_URL,
        idp_client_id="idp-client",
    )

    state = run(machine_flow(settings), router)

    exchange, grant = [r for r in router.requests if r.method == "POST"]
    body = form(exchange)
    assert str(exchange.url) == IDP_TOKEN_URL
    assert body == {
        "grant_type": oauth.TOKEN_EXCHANGE_GRANT,
        "subject_token": "the-id-token",
        "subject_token_type": oauth.ID_TOKEN_TYPE,
        "requested_token_type": oauth.ID_JAG_TOKEN_TYPE,
        "audience": ISSUER,
        "resource": SERVER_URL,
        "client_id": "idp-client",
    }
    assert form(grant)["assertion"] == "the-id-jag"
    assert grant.headers["Authorization"].startswith("Basic ")
    assert state.grant == "enterprise"


def test_an_idp_answer_that_is_no_id_jag_is_refused() -> None:
    router = Router(
        {
            **discovery_routes(),
            ("POST", IDP_TOKEN_URL): lambda r: json_response(
                200, {"access_token": "x", "issued_token_type": "urn:other"}
            ),
        }
    )
    settings = ClientSettings(
        grant="enterprise",
        client_id="c",
        client_secret="cs-secret",
        assertion="idt",
        idp_token_endpoint=IDP_TOKEN_URL,
    )

    with pytest.raises(AuthServerError, match="no ID-JAG"):
        run(machine_flow(settings), router)


def test_a_plain_http_idp_is_refused() -> None:
    settings = ClientSettings(
        grant="enterprise",
        client_id="c",
        client_secret="cs-secret",
        assertion="idt",
        idp_token_endpoint="http://idp.example.com/t",
    )
    with pytest.raises(AuthRefused, match="https"):
        run(machine_flow(settings), Router(discovery_routes()))


# --- DPoP at the token endpoint ----------------------------------------------------------------------


def test_dpop_is_used_when_the_server_advertises_es256_and_answers_a_nonce_challenge_once() -> None:
    proofs: list[dict[str, Any]] = []

    def token(request: httpx.Request) -> httpx.Response:
        proof = request.headers["DPoP"]
        claims = jwt.decode(proof, options={"verify_signature": False})
        proofs.append(claims)
        if "nonce" not in claims:
            return json_response(400, {"error": "use_dpop_nonce"}, {"DPoP-Nonce": "as-nonce"})
        return issuing("DPoP")(request)

    router = Router(
        {**discovery_routes(dpop_signing_alg_values_supported=["ES256"]), ("POST", TOKEN_URL): token}
    )
    settings = ClientSettings(grant="client_credentials", client_id="agent", client_secret="cs-secret")

    state = run(machine_flow(settings), router)

    assert [p.get("nonce") for p in proofs] == [None, "as-nonce"]
    assert proofs[0]["jti"] != proofs[1]["jti"]
    assert all(p["htm"] == "POST" and p["htu"] == TOKEN_URL for p in proofs)
    assert state.tokens is not None and state.tokens.is_dpop_bound
    assert state.tokens.authorization_header() == "DPoP AT-machine"
    assert state.dpop_key is not None
    restored = oauth.AuthState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored.dpop_key is not None and restored.dpop_key.thumbprint() == state.dpop_key.thumbprint()


def test_a_second_nonce_challenge_is_an_error_not_a_loop() -> None:
    router = Router(
        {
            **discovery_routes(dpop_signing_alg_values_supported=["ES256"]),
            ("POST", TOKEN_URL): lambda r: json_response(
                400, {"error": "use_dpop_nonce"}, {"DPoP-Nonce": "again"}
            ),
        }
    )
    settings = ClientSettings(grant="client_credentials", client_id="agent", client_secret="cs-secret")

    with pytest.raises(AuthServerError, match="use_dpop_nonce"):
        run(machine_flow(settings), router)

    assert len(router.urls("POST")) == 2


def test_without_advertised_dpop_no_proof_is_sent_and_a_dpop_token_is_refused() -> None:
    router = Router({**discovery_routes(), ("POST", TOKEN_URL): issuing("DPoP")})
    settings = ClientSettings(grant="client_credentials", client_id="agent", client_secret="cs-secret")

    with pytest.raises(AuthServerError, match="without a proof"):
        run(machine_flow(settings), router)

    assert "DPoP" not in router.requests[-1].headers


def test_dpop_never_sends_no_proof_even_when_advertised() -> None:
    router = Router(
        {**discovery_routes(dpop_signing_alg_values_supported=["ES256"]), ("POST", TOKEN_URL): issuing()}
    )
    settings = ClientSettings(
        grant="client_credentials", client_id="agent", client_secret="cs-secret", dpop="never"
    )

    state = run(machine_flow(settings), router)

    assert "DPoP" not in router.requests[-1].headers
    assert state.dpop_key is None


# --- the 2025-03-26 backcompat rule ------------------------------------------------------------------


LEGACY_URL = "https://legacy.example.com/mcp"


def legacy_discovery(issuer: str) -> oauth.Flow[oauth.Discovery]:
    return oauth.discover(LEGACY_URL, www_authenticate=None, protocol_version="2025-03-26", server="legacy")


@pytest.mark.parametrize("issuer", ["https://legacy.example.com/oauth", "https://legacy.example.com/a/b"])
def test_legacy_metadata_whose_issuer_differs_only_in_path_is_accepted(issuer: str) -> None:
    document = metadata_document(
        issuer, authorization_endpoint=f"{issuer}/authorize", token_endpoint=f"{issuer}/token"
    )
    router = Router(
        {
            ("GET", "https://legacy.example.com/.well-known/oauth-authorization-server"): json_response(
                200, document
            )
        }
    )

    found = run(legacy_discovery(issuer), router)

    assert found.prm is None
    assert found.issuer == issuer


@pytest.mark.parametrize(
    "issuer",
    [
        "https://other.example.com",
        "https://legacy.example.com:8443/oauth",
        "http://legacy.example.com/oauth",
        "https://legacy.example.com/oauth?x=1",
    ],
)
def test_legacy_metadata_of_another_origin_is_still_refused(issuer: str) -> None:
    document = metadata_document(issuer)
    router = Router(
        {
            ("GET", "https://legacy.example.com/.well-known/oauth-authorization-server"): json_response(
                200, document
            )
        }
    )

    with pytest.raises(AuthRefused):
        run(legacy_discovery(issuer), router)


def test_with_prm_the_issuer_rule_stays_strict() -> None:
    # Same origin, other path, but found through the PRM: RFC 8414 §3.3 applies unbent.
    document = metadata_document(f"{ISSUER}/tenant")
    router = Router(
        {
            ("GET", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"): json_response(
                200, prm_document()
            ),
            ("GET", f"{ISSUER}/.well-known/oauth-authorization-server"): json_response(200, document),
        }
    )
    flow = oauth.discover(SERVER_URL, www_authenticate=None, protocol_version="2025-11-25", server="s")

    with pytest.raises(AuthRefused, match="issuer"):
        run(flow, router)


def test_metadata_of_a_stored_state_round_trips_with_its_new_fields() -> None:
    parsed = AuthServerMetadata.parse(
        metadata_document(
            dpop_signing_alg_values_supported=["ES256"], grant_types_supported=["client_credentials"]
        ),
        expected_issuer=ISSUER,
    )
    again = AuthServerMetadata.from_dict(parsed.to_dict())

    assert again.dpop_signing_alg_values_supported == ("ES256",)
    assert again.grant_types_supported == ("client_credentials",)


# --- does a failure need a login? --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("grant", "problem", "needs"),
    [
        (None, AuthServerError("s", "token", error="invalid_grant", transient=False), True),
        (
            "authorization_code",
            AuthServerError("s", "token", error="server_error", status=503, transient=True),
            False,
        ),
        ("authorization_code", oauth_errors.AuthUnreachable("s", "POST /token failed: ConnectError"), False),
        ("authorization_code", oauth_errors.NeedsLogin("s"), True),
        ("client_credentials", AuthServerError("s", "token", error="invalid_client", transient=False), False),
        ("workload_identity", AuthServerError("s", "token", error="invalid_grant", transient=False), False),
        ("authorization_code", None, False),
    ],
)
def test_a_failure_says_whether_a_login_is_needed(
    grant: str | None, problem: AuthError | None, needs: bool
) -> None:
    info = describe_auth(None, now=NOW, problem=problem, grant=grant)

    assert info["needs_login"] is needs
    assert info["grant"] == grant
