"""The commands every transport (stdio, HTTP) handles, so the session and supervisor need not know which.

A transport reports to its session with ``Opened`` / ``OpenFailed`` / ``Inbound`` / ``TransportDown``
(defined in :mod:`mcp_troupe.actors.session`, which handles them).
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field

__all__ = ["CloseTransport", "Open"]


@dataclass(frozen=True, slots=True)
class Open:
    """Start the connection (spawn the process / prepare the HTTP client)."""


@dataclass(frozen=True, slots=True)
class CloseTransport:
    """Close the connection gracefully, then stop.

    ``reply_to`` is completed once it is fully closed, with the last lines the server wrote to stderr.

    stdio: close stdin, wait ``grace`` seconds, SIGTERM the process group, wait ``grace``, SIGKILL it.
    """

    reply_to: Future[tuple[str, ...]] = field(default_factory=Future)
    grace: float = 2.0
