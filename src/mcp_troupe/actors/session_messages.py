"""The messages of the session actor: what it takes (from its supervisor, its transport, the registry) and
the reports it sends its supervisor. :mod:`mcp_troupe.actors.session` re-exports every one.
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Protocol

import pykka

from mcp_troupe.actors.lane import CallLane, Outgoing
from mcp_troupe.errors import TroupeError
from mcp_troupe.protocol.mcp import InitializeResult, ToolDefinition

__all__ = [
    "CallRequest",
    "CancelCall",
    "CatalogChanged",
    "Close",
    "Connect",
    "OpenFailed",
    "Opened",
    "Outbound",
    "SessionExpired",
    "SessionFailed",
    "SessionLost",
    "SessionReady",
    "SessionRenewed",
    "TransportDown",
]


class Outbound(Protocol):
    """What the session needs of its transport besides the lane: the negotiated version and session id."""

    def set_protocol_version(self, version: str) -> None:
        """The handshake settled on ``version`` (HTTP sends it as ``MCP-Protocol-Version`` from now on)."""

    @property
    def session_id(self) -> str | None:
        """The transport-level session id the server issued (HTTP ``Mcp-Session-Id``), if any."""


# ---- messages this actor handles -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Connect:
    """Begin the connection: open the transport, then run the handshake."""

    transport: pykka.ActorRef[Any]


@dataclass(frozen=True, slots=True)
class Opened:
    """The transport is up; ``lane`` carries every request from now on. (transport → session)"""

    incarnation: int
    outbound: Outbound
    lane: CallLane
    pid: int | None = None
    session_id: str | None = None


@dataclass(frozen=True, slots=True)
class OpenFailed:
    """The transport could not open. (transport → session)"""

    incarnation: int
    error: TroupeError


@dataclass(frozen=True, slots=True)
class TransportDown:
    """The transport died: the process exited, a pipe broke, a frame was too large. (transport → session)"""

    incarnation: int
    reason: str
    stderr_tail: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SessionExpired:
    """The server no longer knows our HTTP session (404 on a request that carried a session id).

    ``sent`` are the undelivered frames with what each is. The transport has already dropped the old id.
    """

    incarnation: int
    sent: list[tuple[bytes, Outgoing]]


@dataclass(frozen=True, slots=True)
class CallRequest:
    """Send ``method`` with ``params``; complete ``reply_to`` with the raw result or an error.

    With a ``context`` (anything but ``None``), ``reply_to`` gets ``(raw result, context)`` instead: the
    sender's own data travels with the answer, so whoever renders it needs no lookup of its own.
    """

    method: str
    params: Mapping[str, Any] | None
    reply_to: Future[Any]
    timeout: float | None = None
    context: Any = None


@dataclass(frozen=True, slots=True)
class CancelCall:
    """The caller gave up on the call whose future is ``reply_to``; tell the server."""

    reply_to: Future[Any]
    reason: str = "cancelled by the client"


@dataclass(frozen=True, slots=True)
class Close:
    """Fail every pending call and stop; the supervisor closes the transport."""

    reason: str


# ---- reports this actor sends to its supervisor ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SessionReady:
    """The handshake and the first full tool listing succeeded."""

    incarnation: int
    session: pykka.ActorRef[Any]
    info: InitializeResult
    tools: tuple[ToolDefinition, ...]
    rejected: tuple[tuple[str, str], ...]
    pid: int | None
    session_id: str | None
    # Open for calls from now on; the registry publishes it for tools the gate cleared.
    lane: CallLane | None = None


@dataclass(frozen=True, slots=True)
class CatalogChanged:
    """A refresh after ``list_changed`` produced a new full tool listing."""

    incarnation: int
    tools: tuple[ToolDefinition, ...]
    rejected: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class SessionFailed:
    """The connection never became ready. ``era`` is what the handshake learned, if anything."""

    incarnation: int
    error: TroupeError
    stderr_tail: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SessionRenewed:
    """An expired HTTP session was replaced by a new one (``session_id`` is the new id)."""

    incarnation: int
    session_id: str | None


@dataclass(frozen=True, slots=True)
class SessionLost:
    """A ready connection died."""

    incarnation: int
    reason: str
    stderr_tail: tuple[str, ...] = ()
