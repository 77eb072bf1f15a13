"""The protocol revisions mcp-troupe speaks, and the negotiation rule, in one table.

Adding a revision is one line here plus whatever features it brings (checked where ``Revision`` fields are
read). We request :data:`LATEST`; a server may answer any revision in :data:`REVISIONS`; anything else is
refused and the connection closed.

spec: 2025-06-18 basic/lifecycle, version negotiation — "If the client does not support the version in the
server's response, it SHOULD disconnect." We always do: continuing on an unknown revision would mean guessing
its framing and its rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from mcp_troupe.errors import UnsupportedProtocolVersion

__all__ = ["LATEST", "REVISIONS", "SUPPORTED", "Revision", "negotiate"]


@dataclass(frozen=True, slots=True)
class Revision:
    """What one protocol revision changes for a client."""

    version: str
    batching: bool
    """JSON-RPC batches may arrive (2025-03-26 only: "MUST support receiving")."""
    protocol_version_header: bool
    """HTTP requests after the handshake carry ``MCP-Protocol-Version`` (2025-06-18+)."""
    structured_content: bool
    """Tools may declare ``outputSchema`` and return ``structuredContent`` (2025-06-18+)."""


REVISIONS: dict[str, Revision] = {
    revision.version: revision
    for revision in (
        Revision("2025-06-18", batching=False, protocol_version_header=True, structured_content=True),
        Revision("2025-03-26", batching=True, protocol_version_header=False, structured_content=False),
        Revision("2024-11-05", batching=False, protocol_version_header=False, structured_content=False),
    )
}

LATEST = "2025-06-18"
SUPPORTED: tuple[str, ...] = tuple(REVISIONS)


def negotiate(offered: object, *, server: str = "") -> Revision:
    """Return the revision the server answered, or raise :class:`UnsupportedProtocolVersion`."""
    if isinstance(offered, str):
        revision = REVISIONS.get(offered)
        if revision is not None:
            return revision
    raise UnsupportedProtocolVersion(offered, SUPPORTED, server=server)
