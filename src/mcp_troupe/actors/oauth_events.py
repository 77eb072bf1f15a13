"""What an OAuthFlow reports to its supervisor, in a module of its own.

The message is handled by :class:`~mcp_troupe.actors.supervisor.ServerSupervisor` (and re-exported there),
but it lives here so that :mod:`mcp_troupe.actors.oauth` can send it without importing the supervisor, which
starts the flow: the supervisor imports the flow, the flow imports this, nothing imports back (issue 12).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["AuthStateChanged"]


@dataclass(frozen=True, slots=True)
class AuthStateChanged:
    """The server's OAuth login changed (OAuthFlow → supervisor); ``description`` holds no secret."""

    server: str
    description: Mapping[str, Any]
