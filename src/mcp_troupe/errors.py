"""The exception tree of mcp-troupe.

Every error carries the context an operator needs to act on it: the server name, the JSON-RPC id, the config
key path. Lower-layer errors (OSError, json errors, httpx errors) are translated once, at the boundary where
they happen, with ``raise Mapped(...) from exc``.

    TroupeError
    ├── ConfigError                 the configuration is wrong (carries the key path)
    ├── ProtocolError               a peer broke JSON-RPC or MCP rules
    │   ├── MalformedMessage        bytes that are not a JSON-RPC 2.0 message
    │   ├── FrameTooLarge           one frame exceeded the configured bound
    │   └── UnsupportedProtocolVersion   the server answered a revision we do not speak
    ├── ServerUnavailable           the server cannot take the call right now
    │   ├── ConnectFailed           connecting (spawn, handshake, discovery) failed
    │   ├── ConnectionLost          the connection died while calls were pending
    │   ├── ServerNotReady          the server is connecting, backing off, failed, stopped or skipped
    │   └── OutboundFull            the server stopped reading its input; new calls are refused
    ├── CallError                   one call failed; the connection is fine
    │   ├── UnknownTool             no such tool in the current table
    │   ├── InvalidArguments        the call's arguments have no JSON form (nothing was sent)
    │   ├── CallTimedOut            no answer within the call's timeout (the server was sent a cancel)
    │   ├── CallCancelled           the agent cancelled the call (the server was sent a cancel)
    │   ├── RemoteError             the server answered with a JSON-RPC error
    │   ├── HttpError               the server answered the call's HTTP request with an error status
    │   ├── InputUnavailable        the server asked for input (input_required) the host cannot give
    │   └── ToolDenied              policy refused the call (profile, approval mode, quarantine, a "no")
    │       └── ApprovalRequired    the call needs a human's approval and no approver is installed
    ├── AuthError                   OAuth for an HTTP server failed (never shows a token, code or secret)
    │   ├── NeedsLogin              an interactive login is needed (`troupe login NAME`)
    │   ├── AuthRefused             a security rule refused to go on (names the rule)
    │   ├── DiscoveryFailed         no usable protected-resource or authorization-server metadata
    │   ├── AuthorizationDenied     the authorization response was an error (the user or server declined)
    │   ├── AuthServerError         the token or registration endpoint answered with an error
    │   │   └── ClientRejected      invalid_client, confirmed: the client registration is dead
    │   ├── InsufficientScope       step-up could not obtain the scopes the server asks for
    │   ├── AuthUnreachable         an OAuth endpoint could not be reached
    │   └── CredentialStoreError    the credential store is unusable (tampered file, wrong key, bad owner)
    ├── ReviewStoreError            the review store is unreadable, or a review named no withheld tool
    ├── UnknownServer               no configured server has that name
    ├── TroupeBroken                the troupe's registry crashed (a bug): stop it and start a new one
    └── TroupeClosed                the troupe was stopped, or was never started

"You closed it" (``TroupeClosed``, ``CallCancelled``) is kept apart from "it broke" (``ConnectionLost``,
``ConnectFailed``, ``TroupeBroken``, with the cause chained).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ApprovalRequired",
    "AuthError",
    "AuthRefused",
    "AuthServerError",
    "AuthUnreachable",
    "AuthorizationDenied",
    "CallCancelled",
    "CallError",
    "CallTimedOut",
    "ClientRejected",
    "ConfigError",
    "ConnectFailed",
    "ConnectionLost",
    "CredentialStoreError",
    "DiscoveryFailed",
    "FrameTooLarge",
    "HttpError",
    "InputUnavailable",
    "InsufficientScope",
    "InvalidArguments",
    "MalformedMessage",
    "NeedsLogin",
    "OutboundFull",
    "ProtocolError",
    "RemoteError",
    "ReviewStoreError",
    "ServerNotReady",
    "ServerUnavailable",
    "ToolDenied",
    "TroupeBroken",
    "TroupeClosed",
    "TroupeError",
    "UnknownServer",
    "UnknownTool",
    "UnsupportedProtocolVersion",
]


class TroupeError(Exception):
    """Base class of every error mcp-troupe raises on purpose."""


class ConfigError(TroupeError):
    """The configuration is wrong.

    ``problems`` lists every ``(key_path, message)`` found, in file order (``tools.mcp_servers.fs.args[1]``);
    ``path`` is the first problem's key path. ``source`` names the file.
    """

    def __init__(
        self,
        message: str = "",
        *,
        path: str = "",
        source: str = "",
        problems: tuple[tuple[str, str], ...] = (),
    ) -> None:
        if not problems:
            problems = ((path, message),)
        self.problems = problems
        self.path = problems[0][0]
        self.source = source
        self.message = problems[0][1]
        lines = [f"{p}: {m}" if p else m for p, m in problems]
        where = f"{source}: " if source else ""
        if len(lines) == 1:
            text = f"{where}{lines[0]}"
        else:
            text = f"{where}{len(lines)} problems:\n  " + "\n  ".join(lines)
        super().__init__(text)


class ProtocolError(TroupeError):
    """A peer broke a JSON-RPC or MCP rule."""


class MalformedMessage(ProtocolError):
    """Bytes that are not a valid JSON-RPC 2.0 message; ``reason`` says what was wrong."""

    def __init__(self, reason: str, *, excerpt: str = "") -> None:
        self.reason = reason
        self.excerpt = excerpt
        suffix = f" (got {excerpt!r})" if excerpt else ""
        super().__init__(f"malformed JSON-RPC message: {reason}{suffix}")


class FrameTooLarge(ProtocolError):
    """One frame grew past ``limit`` bytes without ending."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(f"a single frame exceeded {limit} bytes without a newline")


class UnsupportedProtocolVersion(ProtocolError):
    """The server answered ``initialize`` with a revision we do not support."""

    def __init__(self, offered: object, supported: tuple[str, ...], *, server: str = "") -> None:
        self.offered = offered
        self.supported = supported
        self.server = server
        who = f"server {server!r} " if server else "server "
        super().__init__(
            f"{who}offered protocol version {offered!r}; supported versions are {', '.join(supported)}"
        )


class ServerUnavailable(TroupeError):
    """The server cannot take the call right now."""

    def __init__(self, message: str, *, server: str) -> None:
        self.server = server
        super().__init__(message)


class ConnectFailed(ServerUnavailable):
    """Connecting (spawn, handshake, discovery) failed; ``stderr_tail`` has the server's last stderr lines."""

    def __init__(self, server: str, reason: str, *, stderr_tail: tuple[str, ...] = ()) -> None:
        self.reason = reason
        self.stderr_tail = stderr_tail
        message = f"server {server!r}: connect failed: {reason}"
        if stderr_tail:
            message += "\n  stderr (last lines):\n    " + "\n    ".join(stderr_tail)
        super().__init__(message, server=server)


class ConnectionLost(ServerUnavailable):
    """The connection died while the call was pending."""

    def __init__(self, server: str, reason: str) -> None:
        self.reason = reason
        super().__init__(f"server {server!r}: connection lost: {reason}", server=server)


class OutboundFull(ServerUnavailable):
    """The server has stopped reading what we send: too much waits to be written; the call is refused."""

    def __init__(self, server: str, waiting: int) -> None:
        self.waiting = waiting
        super().__init__(
            f"server {server!r} is not reading its input: {waiting / 1048576:.1f} MiB wait to be written; "
            "the call was refused (the connection is kept; earlier requests time out as usual)",
            server=server,
        )


class ServerNotReady(ServerUnavailable):
    """The server is not connected (``state`` says why); calls fail at once instead of waiting."""

    def __init__(self, server: str, state: str, last_error: str | None = None) -> None:
        self.state = state
        self.last_error = last_error
        message = f"server {server!r} is not ready (state: {state})"
        if last_error:
            message += f"; last error: {last_error}"
        super().__init__(message, server=server)


class CallError(TroupeError):
    """One call failed; the connection itself is fine."""


class UnknownTool(CallError):
    """No tool of that name is in the current table."""

    def __init__(self, name: str, *, reason: str = "") -> None:
        self.name = name
        message = f"unknown tool {name!r}"
        if reason:
            message += f": {reason}"
        super().__init__(message)


class InvalidArguments(CallError):
    """A request could not be written as JSON: the caller's arguments hold a value JSON has no form for (an
    object of another type, ``NaN`` or an infinity, a cycle). Nothing was sent; the connection is fine."""

    def __init__(
        self, server: str, request_id: int | str, method: str, reason: str, *, tool: str | None = None
    ) -> None:
        self.server = server
        self.request_id = request_id
        self.method = method
        self.reason = reason
        self.tool = tool
        what = f"{method} of {tool!r}" if tool is not None else method
        part = "arguments" if tool is not None else "parameters"
        super().__init__(
            f"server {server!r}: {what} (JSON-RPC id {request_id!r}) was not sent: its {part} are not "
            f"JSON ({reason})"
        )


class CallTimedOut(CallError):
    """No answer within ``timeout`` seconds; the server was sent ``notifications/cancelled``."""

    def __init__(self, server: str, request_id: int | str, method: str, timeout: float) -> None:
        self.server = server
        self.request_id = request_id
        self.method = method
        self.timeout = timeout
        super().__init__(
            f"server {server!r}: {method} (JSON-RPC id {request_id!r}) timed out after {timeout:g} s"
        )


class CallCancelled(CallError):
    """The agent cancelled the call; the server was sent ``notifications/cancelled``."""

    def __init__(self, server: str, request_id: int | str | None, method: str) -> None:
        self.server = server
        self.request_id = request_id
        self.method = method
        super().__init__(f"server {server!r}: {method} (JSON-RPC id {request_id!r}) was cancelled")


class RemoteError(CallError):
    """The server answered with a JSON-RPC error object."""

    def __init__(
        self, server: str, request_id: int | str, method: str, code: int, message: str, data: Any = None
    ) -> None:
        self.server = server
        self.request_id = request_id
        self.method = method
        self.code = code
        self.remote_message = message
        self.data = data
        super().__init__(
            f"server {server!r}: {method} (JSON-RPC id {request_id!r}) failed with error {code}: {message}"
        )


class HttpError(CallError):
    """The server answered the HTTP request that carried one call with an error status (4xx/5xx), or with
    no response in it.

    ``body_excerpt`` is the start of the server's answer (at most :data:`EXCERPT_LIMIT` characters, its
    JSON-RPC error message when it sent one); ``reason`` is our own explanation when we have one (401/403).
    Neither ever holds a request header: those may be secrets.
    """

    EXCERPT_LIMIT = 300

    def __init__(
        self,
        server: str,
        status: int,
        body_excerpt: str = "",
        *,
        request_id: int | str | None = None,
        method: str | None = None,
        reason: str = "",
    ) -> None:
        self.server = server
        self.status = status
        self.body_excerpt = body_excerpt[: self.EXCERPT_LIMIT]
        self.request_id = request_id
        self.method = method
        self.reason = reason
        message = f"server {server!r}: HTTP {status}"
        if method:
            message += f" on {method}"
        if request_id is not None:
            message += f" (JSON-RPC id {request_id!r})"
        details = [text for text in (reason, self.body_excerpt) if text]
        if details:
            message += ": " + " — ".join(details)
        super().__init__(message)


class InputUnavailable(CallError):
    """The server asked for input (``input_required``) that the host cannot or would not give."""

    def __init__(self, server: str, method: str, detail: str) -> None:
        self.server = server
        self.method = method
        super().__init__(f"server {server!r}: {method} needs input the host cannot give: {detail}")


class AuthError(TroupeError):
    """OAuth for one HTTP server failed; ``server`` names it.

    No message of this subtree ever holds an access or refresh token, an authorization code, a PKCE verifier
    or a client secret; URLs are shown without their query.
    """

    def __init__(self, server: str, message: str) -> None:
        self.server = server
        super().__init__(f"server {server!r}: {message}" if server else message)


class NeedsLogin(AuthError):
    """The server needs an interactive login, and this process cannot ask the user (or the user must act)."""

    def __init__(self, server: str, reason: str = "needs an interactive OAuth login") -> None:
        self.reason = reason
        hint = f"; run `troupe login {server}`" if server else ""
        super().__init__(server, f"{reason}{hint}")


class AuthRefused(AuthError):
    """A security rule refused to go on; ``detail`` says what broke it.

    ``rule`` names the rule: ``https``, ``same-origin endpoints``, ``issuer``, ``resource``, ``pkce``,
    ``state``, ``iss``, ``authorization URL`` or ``redirect``.
    """

    def __init__(self, server: str, rule: str, detail: str) -> None:
        self.rule = rule
        self.detail = detail
        super().__init__(server, f"OAuth refused by rule {rule!r}: {detail}")


class DiscoveryFailed(AuthError):
    """No usable protected-resource or authorization-server metadata was found."""


class AuthorizationDenied(AuthError):
    """The authorization response carried an ``error`` (the user or the server declined)."""

    def __init__(self, server: str, error: str, description: str = "") -> None:
        self.error = error
        self.description = description
        text = f"authorization failed: {error}"
        if description:
            text += f" ({description})"
        super().__init__(server, text)


class AuthServerError(AuthError):
    """The ``endpoint`` (``token`` or ``registration``) answered with an error.

    ``error`` is the OAuth error code (``invalid_grant`` ...); ``transient`` is true for a 5xx, a 429 or a
    garbled answer, where trying again later may help and forcing a new login would not.
    """

    def __init__(
        self,
        server: str,
        endpoint: str,
        *,
        error: str,
        description: str = "",
        status: int | None = None,
        transient: bool = False,
    ) -> None:
        self.endpoint = endpoint
        self.error = error
        self.description = description
        self.status = status
        self.transient = transient
        text = f"{endpoint} endpoint answered {error}"
        if status is not None:
            text += f" (HTTP {status})"
        if description:
            text += f": {description}"
        super().__init__(server, text)


class ClientRejected(AuthServerError):
    """``invalid_client`` twice in a row: the registration is dead (a dynamic one is registered again)."""


class InsufficientScope(AuthError):
    """The server keeps answering 403 ``insufficient_scope``; ``scopes`` is what it asked for last."""

    def __init__(self, server: str, scopes: tuple[str, ...], attempts: int, reason: str) -> None:
        self.scopes = scopes
        self.attempts = attempts
        wanted = " ".join(scopes) or "unspecified"
        super().__init__(
            server, f"insufficient scope (wants: {wanted}) after {attempts} step-up(s): {reason}"
        )


class AuthUnreachable(AuthError):
    """An OAuth endpoint could not be reached (network error, timeout, too many redirects)."""


class CredentialStoreError(AuthError):
    """The credential store cannot be used: a tampered or foreign file, a wrong key, a bad owner or mode."""


class ReviewStoreError(TroupeError):
    """The review store of withheld tools cannot be read or written, or a decision named no such tool."""


class ToolDenied(CallError):
    """Policy refused the call: the profile's allow list, the approval mode, a quarantined (changed)
    definition, or a human who said no. ``reason`` says which, and how to change it."""

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.reason = reason
        super().__init__(f"call to {name!r} denied: {reason}")


class ApprovalRequired(ToolDenied):
    """The call needs a human's approval, and no approver is installed (a non-interactive process)."""


class UnknownServer(TroupeError):
    """No configured (and enabled) server has that name; ``known`` lists the ones that do."""

    def __init__(self, server: str, known: tuple[str, ...]) -> None:
        self.server = server
        self.known = known
        super().__init__(f"no server named {server!r} (configured: {', '.join(known) or 'none'})")


class TroupeBroken(TroupeError):
    """The troupe's registry crashed (a bug in mcp-troupe); every call fails at once until a new Troupe.

    The cause is chained; :meth:`Troupe.stop` still stops every server process.
    """


class TroupeClosed(TroupeError):
    """The troupe was stopped (or never started); no call can be made."""
