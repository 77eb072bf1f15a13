"""Signed JWTs for OAuth: client assertions (RFC 7523 ``private_key_jwt``) and DPoP proofs (RFC 9449).

Signing is done by PyJWT on ``cryptography`` keys, never by hand; this module only decides *what* is
signed. It stays pure: the time (``now``) and the token id (``jti``) come in as arguments, so tests pin
both and check the result with PyJWT's own verifier.

- :class:`SigningKey` — an RS256 or ES256 private key loaded from PEM (a file or an environment variable,
  read by the caller), with the algorithm checked against the key type;
- :func:`client_assertion` — the JWT a confidential client authenticates with at a token endpoint;
- :class:`DpopKey` — the per-server P-256 key DPoP binds tokens to (generated once, kept in the sealed
  store), with :meth:`DpopKey.proof` for one HTTP request and :meth:`DpopKey.thumbprint` (RFC 7638);
- :func:`dpop_nonce_challenge` — whether a response asks for a DPoP nonce (RFC 9449 §8, §9).
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias
from urllib.parse import urlsplit, urlunsplit

import jwt
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

__all__ = [
    "ASSERTION_LIFETIME",
    "CLIENT_ASSERTION_TYPE",
    "DpopKey",
    "KeyError_",
    "SigningAlgorithm",
    "SigningKey",
    "client_assertion",
    "dpop_htu",
    "dpop_nonce_challenge",
]

SigningAlgorithm: TypeAlias = Literal["RS256", "ES256"]
CLIENT_ASSERTION_TYPE: Final = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
ASSERTION_LIFETIME: Final = 60
"""Seconds a client assertion is valid: long enough for one token request, short enough to be useless
when captured (RFC 7523 §3: the AS MAY reject an ``exp`` "unreasonably far in the future")."""
_MIN_RSA_BITS: Final = 2048


class KeyError_(ValueError):
    """A private key that cannot be used: unreadable PEM, a public key, the wrong type or size for the
    algorithm. The message never holds key material."""


@dataclass(frozen=True, slots=True)
class SigningKey:
    """A private key for ``private_key_jwt``: RS256 (RSA ≥ 2048 bits) or ES256 (P-256). Not in the repr."""

    algorithm: SigningAlgorithm
    key: rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey = field(repr=False)
    key_id: str | None = None

    @classmethod
    def from_pem(
        cls, pem: str | bytes, *, algorithm: SigningAlgorithm | None = None, key_id: str | None = None
    ) -> SigningKey:
        """Load an unencrypted PKCS#8 or traditional PEM private key; the algorithm defaults to the key's.

        Raises :class:`KeyError_` naming what is wrong (never the key itself).
        """
        data = pem.encode("ascii", "replace") if isinstance(pem, str) else pem
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError, UnsupportedAlgorithm):
            raise KeyError_(
                "not an unencrypted PEM private key (expected -----BEGIN PRIVATE KEY-----)"
            ) from None
        if isinstance(key, rsa.RSAPrivateKey):
            if algorithm not in (None, "RS256"):
                raise KeyError_(f"an RSA key cannot sign {algorithm}; use RS256 or an EC P-256 key")
            if key.key_size < _MIN_RSA_BITS:
                raise KeyError_(f"the RSA key has {key.key_size} bits; RS256 needs at least {_MIN_RSA_BITS}")
            return cls("RS256", key, key_id)
        if isinstance(key, ec.EllipticCurvePrivateKey):
            if not isinstance(key.curve, ec.SECP256R1):
                raise KeyError_(f"the EC key is on {key.curve.name}; ES256 needs P-256 (secp256r1)")
            if algorithm not in (None, "ES256"):
                raise KeyError_(f"an EC P-256 key cannot sign {algorithm}; use ES256 or an RSA key")
            return cls("ES256", key, key_id)
        raise KeyError_(f"a {type(key).__name__} cannot sign RS256 or ES256")

    def sign(self, claims: dict[str, Any], *, headers: dict[str, Any] | None = None) -> str:
        """The compact JWS of ``claims``."""
        extra = dict(headers or {})
        if self.key_id:
            extra["kid"] = self.key_id
        return jwt.encode(claims, self.key, algorithm=self.algorithm, headers=extra or None)


def client_assertion(
    key: SigningKey,
    *,
    client_id: str,
    audience: str,
    now: float,
    jti: str,
    lifetime: int = ASSERTION_LIFETIME,
) -> str:
    """The RFC 7523 §3 client assertion: ``iss`` = ``sub`` = the client id, ``aud`` = the authorization
    server's issuer identifier (draft-ietf-oauth-rfc7523bis: the issuer, not the token endpoint, so one
    assertion cannot be replayed at another endpoint of a mixed-up server), a unique ``jti``, a short
    ``exp``."""
    issued = int(now)
    claims = {
        "iss": client_id,
        "sub": client_id,
        "aud": audience,
        "iat": issued,
        "exp": issued + lifetime,
        "jti": jti,
    }
    return key.sign(claims)


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _coordinate(value: int) -> str:
    return _b64url(value.to_bytes(32, "big"))


def dpop_htu(url: str) -> str:
    """The ``htu`` of a request: its URL without query and fragment (RFC 9449 §4.2)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path or "/", "", ""))


@dataclass(frozen=True, slots=True)
class DpopKey:
    """The P-256 key one server's DPoP-bound tokens are bound to (ES256; RFC 9449 §5). Not in the repr.

    Generated once per server and issuer and kept beside the tokens in the sealed credential store: a new
    key would orphan every token bound to the old one's thumbprint.
    """

    key: ec.EllipticCurvePrivateKey = field(repr=False)

    @classmethod
    def generate(cls) -> DpopKey:
        """A fresh P-256 key (from the operating system's randomness, via ``cryptography``)."""
        return cls(ec.generate_private_key(ec.SECP256R1()))

    @classmethod
    def from_pem(cls, pem: str) -> DpopKey:
        """Rebuild a stored key; raises :class:`KeyError_` for anything but a P-256 private key."""
        loaded = SigningKey.from_pem(pem, algorithm="ES256")
        assert isinstance(loaded.key, ec.EllipticCurvePrivateKey)
        return cls(loaded.key)

    def to_pem(self) -> str:
        """PKCS#8 PEM, for the sealed store only."""
        return self.key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ).decode("ascii")

    def public_jwk(self) -> dict[str, str]:
        """The public key as a JWK (the ``jwk`` header of every proof; never the private part)."""
        numbers = self.key.public_key().public_numbers()
        return {"kty": "EC", "crv": "P-256", "x": _coordinate(numbers.x), "y": _coordinate(numbers.y)}

    def thumbprint(self) -> str:
        """The RFC 7638 SHA-256 thumbprint (``jkt``): the required members, sorted, no whitespace."""
        jwk = self.public_jwk()
        canonical = json.dumps({k: jwk[k] for k in ("crv", "kty", "x", "y")}, separators=(",", ":"))
        return _b64url(hashlib.sha256(canonical.encode("ascii")).digest())

    def proof(
        self,
        method: str,
        url: str,
        *,
        now: float,
        jti: str,
        access_token: str | None = None,
        nonce: str | None = None,
    ) -> str:
        """One DPoP proof JWT for one request (RFC 9449 §4.2): ``typ: dpop+jwt``, the public ``jwk``,
        ``htm``/``htu``/``iat``/``jti``, ``ath`` (the token's SHA-256) at a resource server, and the
        server's ``nonce`` when it asked for one. A proof is never reused: ``jti`` is fresh per call."""
        claims: dict[str, Any] = {"jti": jti, "htm": method.upper(), "htu": dpop_htu(url), "iat": int(now)}
        if access_token is not None:
            claims["ath"] = _b64url(hashlib.sha256(access_token.encode("ascii")).digest())
        if nonce is not None:
            claims["nonce"] = nonce
        headers = {"typ": "dpop+jwt", "jwk": self.public_jwk()}
        return jwt.encode(claims, self.key, algorithm="ES256", headers=headers)


_NONCE_CHARACTERS: Final = frozenset(
    "!#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~"
)
_MAX_NONCE: Final = 512


def dpop_nonce_challenge(error: str | None, nonce_header: str | None) -> str | None:
    """The nonce a server asks for, or ``None``: ``error`` is ``use_dpop_nonce`` (from the token endpoint's
    JSON or the resource server's ``WWW-Authenticate``) and ``DPoP-Nonce`` is a valid nonce (RFC 9449 §8.1:
    ``1*NQCHAR``, here also bounded in length so that a hostile server cannot grow every proof)."""
    if error != "use_dpop_nonce" or not nonce_header:
        return None
    nonce = nonce_header.strip()
    if not nonce or len(nonce) > _MAX_NONCE or not set(nonce) <= _NONCE_CHARACTERS:
        return None
    return nonce
