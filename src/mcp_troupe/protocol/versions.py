"""The protocol revisions mcp-troupe speaks, their eras, and the negotiation rules, in one table.

Adding a revision is one line here plus whatever features it brings (checked where ``Revision`` fields are
read).

Two eras (spec: 2026-07-28 basic/versioning):

- **legacy** (2024-11-05 … 2025-11-25): an ``initialize`` handshake settles the version and capabilities for
  the connection. We request :data:`LATEST_LEGACY`; the server may answer any legacy revision in
  :data:`REVISIONS`; anything else is refused and the connection closed ("If the client does not support the
  version in the server's response, it SHOULD disconnect": continuing on an unknown revision would mean
  guessing its framing and its rules).
- **modern** (2026-07-28 on): no handshake; every request carries the version and the client's capabilities
  in ``params._meta``. A server that does not speak the version answers ``-32022`` with the ones it does,
  and the client retries at a shared one.

Which era a server speaks is found out by the handshake (:mod:`mcp_troupe.protocol.handshake`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from mcp_troupe.errors import UnsupportedProtocolVersion

__all__ = [
    "LATEST",
    "LATEST_LEGACY",
    "LEGACY_VERSIONS",
    "MODERN_VERSIONS",
    "REVISIONS",
    "SUPPORTED",
    "Era",
    "Revision",
    "best_shared",
    "negotiate",
]


class Era(enum.Enum):
    """How a revision carries its version and capabilities."""

    LEGACY = "legacy"
    MODERN = "modern"


@dataclass(frozen=True, slots=True)
class Revision:
    """What one protocol revision changes for a client."""

    version: str
    era: Era
    batching: bool
    """JSON-RPC batches may arrive (2025-03-26 only: "MUST support receiving")."""
    protocol_version_header: bool
    """HTTP requests carry ``MCP-Protocol-Version`` (after the handshake from 2025-06-18; always, modern)."""
    structured_content: bool
    """Tools may declare ``outputSchema`` and return ``structuredContent`` (2025-06-18+)."""
    elicitation: bool = False
    """The client may declare ``elicitation`` (2025-06-18+; form/url modes from 2025-11-25)."""
    tasks: bool = False
    """Core tasks (``tasks/get`` …, ``execution.taskSupport``): 2025-11-25 only; an extension since."""
    icons: bool = False
    """``icons`` on implementations, tools, prompts, resources (2025-11-25+)."""
    any_structured_content: bool = False
    """``structuredContent`` may be any JSON value and ``outputSchema`` any schema (2026-07-28+)."""

    @property
    def is_modern(self) -> bool:
        """Whether this revision has no handshake (per-request ``_meta``)."""
        return self.era is Era.MODERN


REVISIONS: dict[str, Revision] = {
    revision.version: revision
    for revision in (
        Revision(
            "2026-07-28",
            Era.MODERN,
            batching=False,
            protocol_version_header=True,
            structured_content=True,
            elicitation=True,
            icons=True,
            any_structured_content=True,
        ),
        Revision(
            "2025-11-25",
            Era.LEGACY,
            batching=False,
            protocol_version_header=True,
            structured_content=True,
            elicitation=True,
            tasks=True,
            icons=True,
        ),
        Revision(
            "2025-06-18",
            Era.LEGACY,
            batching=False,
            protocol_version_header=True,
            structured_content=True,
            elicitation=True,
        ),
        Revision(
            "2025-03-26", Era.LEGACY, batching=True, protocol_version_header=False, structured_content=False
        ),
        Revision(
            "2024-11-05", Era.LEGACY, batching=False, protocol_version_header=False, structured_content=False
        ),
    )
}
"""Newest first."""

SUPPORTED: tuple[str, ...] = tuple(REVISIONS)
MODERN_VERSIONS: tuple[str, ...] = tuple(v for v, r in REVISIONS.items() if r.is_modern)
LEGACY_VERSIONS: tuple[str, ...] = tuple(v for v, r in REVISIONS.items() if not r.is_modern)
LATEST = MODERN_VERSIONS[0]
"""The newest revision: what the modern probe offers."""
LATEST_LEGACY = LEGACY_VERSIONS[0]
"""What ``initialize`` requests: the newest legacy revision."""


def negotiate(offered: object, *, server: str = "", era: Era | None = Era.LEGACY) -> Revision:
    """Return the revision the server answered, or raise :class:`UnsupportedProtocolVersion`.

    ``era`` limits the answer to one era (an ``initialize`` answer naming a modern version is as wrong as an
    unknown one: modern revisions have no handshake to answer).
    """
    if isinstance(offered, str):
        revision = REVISIONS.get(offered)
        if revision is not None and (era is None or revision.era is era):
            return revision
    supported = SUPPORTED if era is None else tuple(v for v, r in REVISIONS.items() if r.era is era)
    raise UnsupportedProtocolVersion(offered, supported, server=server)


def best_shared(versions: Iterable[object], *, era: Era | None = None) -> Revision | None:
    """The newest revision we speak among ``versions`` (limited to ``era``), or None if none is shared."""
    offered = {v for v in versions if isinstance(v, str)}
    for version, revision in REVISIONS.items():
        if version in offered and (era is None or revision.era is era):
            return revision
    return None
