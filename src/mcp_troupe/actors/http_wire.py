"""Streamable HTTP on the wire, the parts without state: header names, the bearer-token seam, reading
answers (bounded bodies, error excerpts, batches) and recognising a response among a stream's messages.

spec: 2025-03-26 … 2026-07-28 basic/transports, "Streamable HTTP".
"""

from __future__ import annotations

import json
from typing import Protocol

from mcp_troupe._httpx import httpx
from mcp_troupe.actors.h1 import Answer
from mcp_troupe.errors import HttpError
from mcp_troupe.policy.redaction import Redactor
from mcp_troupe.protocol import jsonrpc
from mcp_troupe.protocol.jsonrpc import Notification, Request, RequestId

__all__ = [
    "ACCEPT_POST",
    "ACCEPT_SSE",
    "ERROR_BODY_READ",
    "RESERVED_HEADERS",
    "RESERVED_WITH_OAUTH",
    "SESSION_HEADER",
    "VERSION_HEADER",
    "Challenge",
    "TokenSource",
    "answer_kind",
    "describe",
    "error_body",
    "error_excerpt",
    "excerpt_of",
    "is_session_id",
    "media_type",
    "method_of",
    "read_bounded",
    "split_batch",
]

# How much of an error answer is read for the excerpt in HttpError.
ERROR_BODY_READ = 4096

ACCEPT_POST = "application/json, text/event-stream"
ACCEPT_SSE = "text/event-stream"
SESSION_HEADER = "Mcp-Session-Id"
VERSION_HEADER = "MCP-Protocol-Version"
# Headers the transport owns; a configured header of the same name (any case) is ignored.
RESERVED_HEADERS = frozenset(
    {"accept", "content-type", "content-length", "mcp-session-id", "mcp-protocol-version", "last-event-id"}
)
# With auth: oauth the token is the transport's too.
RESERVED_WITH_OAUTH = RESERVED_HEADERS | {"authorization"}


class TokenSource(Protocol):
    """Where an OAuth server's requests get their bearer token; every method runs on the I/O loop.

    :class:`mcp_troupe.actors.oauth.BearerTokens` is the implementation; the transport sees only this.
    """

    async def token(self) -> str | None:
        """The token for the next request (``None``: none yet; the server's 401 starts discovery)."""
        ...

    async def on_unauthorized(
        self, sent: str | None, www_authenticate: str | None, protocol_version: str | None = None
    ) -> str:
        """A renewed token after ``sent`` met a 401; raises an AuthError when none can be had."""
        ...

    async def on_insufficient_scope(
        self,
        sent: str | None,
        www_authenticate: str | None,
        attempts: int,
        protocol_version: str | None = None,
    ) -> str:
        """A token with the scopes a 403 ``insufficient_scope`` asks for; raises an AuthError otherwise."""
        ...

    def authorization(self, token: str, method: str, url: str) -> dict[str, str]:
        """The headers presenting ``token`` on one request (``Authorization``, and ``DPoP`` for a DPoP-bound
        token: a fresh proof per request, RFC 9449 §7.1)."""
        ...

    def on_nonce_challenge(self, www_authenticate: str | None, nonce: str | None) -> bool:
        """Whether a 401 only asks for a new DPoP nonce (``DPoP-Nonce``): then send again, same token."""
        ...


def media_type(response: Answer) -> str:
    value: str = response.headers.get("content-type", "")
    return value.split(";", 1)[0].strip().lower()


def is_session_id(value: str) -> bool:
    """Whether ``value`` may be an ``Mcp-Session-Id``.

    spec: 2025-06-18 transports, session management — "MUST only contain visible ASCII characters (ranging
    from 0x21 to 0x7E)". ASCII and printable leaves 0x20-0x7E (0x7F and the controls are not printable);
    without the space, that is the spec's range. Three C scans, not a generator step per character.
    """
    return bool(value) and value.isascii() and value.isprintable() and " " not in value


def describe(exc: BaseException) -> str:
    """A short, header-free description of an httpx error."""
    text = str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {text}" if text != type(exc).__name__ else text


def answer_kind(frame: bytes, request_id: RequestId) -> str | None:
    """``"result"`` / ``"error"`` if ``frame`` is the response to ``request_id`` (alone or in a batch)."""
    if b'"id"' not in frame:  # notifications carry no id: skip the parse for the common case
        return None
    try:
        obj = json.loads(frame)
    except (ValueError, RecursionError):
        return None
    for item in obj if isinstance(obj, list) else (obj,):
        if isinstance(item, dict) and item.get("id") == request_id and "method" not in item:
            return "result" if "result" in item else "error" if "error" in item else None
    return None


def split_batch(frame: bytes) -> list[bytes]:
    """One frame per message: a JSON array (a 2025-03-26 batch) becomes its elements."""
    if frame.lstrip()[:1] != b"[":
        return [frame]
    try:
        items = json.loads(frame)
    except (ValueError, RecursionError):
        return [frame]  # the session reports it as malformed
    if not isinstance(items, list) or not items:
        return [frame]
    # ASCII escapes: a lone surrogate in a string survives the round trip instead of failing to encode.
    return [json.dumps(item, separators=(",", ":")).encode("ascii") for item in items]


async def read_bounded(response: Answer, limit: int) -> bytes | None:
    """The whole body, or None once it exceeds ``limit`` bytes (decoded)."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


async def error_body(response: Answer) -> bytes:
    """The start of an error answer (at most ERROR_BODY_READ bytes)."""
    body = b""
    try:
        async for chunk in response.aiter_bytes():
            body += chunk
            if len(body) >= ERROR_BODY_READ:
                break
    except httpx.HTTPError:
        pass
    return body[:ERROR_BODY_READ]


async def error_excerpt(response: Answer, redactor: Redactor) -> str:
    """The start of an error answer: its JSON-RPC error message if it is one, else its text, one line.

    Our secrets are redacted from the whole text before it is cut (a cut could split one beyond recognition).
    """
    return excerpt_of(await error_body(response), redactor)


def excerpt_of(body: bytes, redactor: Redactor) -> str:
    text = body.decode("utf-8", "replace")
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        obj = None
    if isinstance(obj, dict) and isinstance(obj.get("error"), dict):
        message = obj["error"].get("message")
        if isinstance(message, str) and message:
            text = message
    text = redactor.redact(text, is_cut=len(body) >= ERROR_BODY_READ)
    return redactor.redact(" ".join(text.split())[: HttpError.EXCERPT_LIMIT], is_cut=True)


class Challenge:
    """An authorization challenge a renewed token may answer (the response itself is already closed)."""

    __slots__ = ("dpop_nonce", "excerpt", "status", "www_authenticate")

    def __init__(
        self, status: int, www_authenticate: str | None, excerpt: str, dpop_nonce: str | None = None
    ) -> None:
        self.status = status
        self.www_authenticate = www_authenticate
        self.excerpt = excerpt
        self.dpop_nonce = dpop_nonce


def method_of(message: jsonrpc.Message) -> str:
    if isinstance(message, Request | Notification):
        return message.method
    return "a response"
