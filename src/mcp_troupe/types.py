"""Public value types shared by the actors, the facade and the CLI.

They live apart from ``troupe.py`` because the actors build them and must not import the facade.
All are frozen: a value handed to the agent never changes under it.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Risk",
    "ServerState",
    "ServerStatus",
    "ToolResult",
    "ToolSpec",
    "TroupeEvent",
]


class Risk(enum.IntEnum):
    """How much harm a tool call can do; ordered so that ``max`` raises risk."""

    READ_ONLY = 0
    EXEC = 1
    DANGEROUS = 2

    def __str__(self) -> str:
        return self.name.lower()


class ServerState(enum.StrEnum):
    """Where a server's supervisor is in its life."""

    CONNECTING = "connecting"
    READY = "ready"
    BACKOFF = "backoff"
    FAILED = "failed"
    STOPPED = "stopped"
    SKIPPED = "skipped"
    NEEDS_LOGIN = "needs_login"
    """The server wants an OAuth login and this process cannot ask for one: ``troupe login NAME``."""

    @property
    def is_settled(self) -> bool:
        """Whether ``wait_ready`` stops waiting for a server in this state."""
        return self in (
            ServerState.READY,
            ServerState.FAILED,
            ServerState.STOPPED,
            ServerState.SKIPPED,
            ServerState.NEEDS_LOGIN,
        )


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One MCP tool as the agent sees it.

    ``name`` is the qualified name the model calls (``mcp__fs__read_file``); ``original_name`` is the
    server's own. ``annotations`` are the server's declared hints, kept apart from ``risk``, the effective
    risk after the server's trust level is applied.

    ``input_schema`` and ``output_schema`` are the troupe's own objects, the ones policy judged, and tools of
    one listing with the same input schema share it: read them, or copy before changing (``copy.deepcopy``); a
    change in place would go unjudged and reach every tool that shares it.
    """

    name: str
    original_name: str
    server: str
    description: str
    input_schema: Mapping[str, Any]
    title: str | None = None
    output_schema: Mapping[str, Any] | None = None
    annotations: Mapping[str, Any] = field(default_factory=dict)
    risk: Risk = Risk.EXEC
    capabilities: tuple[str, ...] = ("mcp.call",)
    ready: bool = True
    is_quarantined: bool = False
    """The definition changed since it was approved (a possible rug pull): listed, not callable until
    approved again."""
    warnings: tuple[str, ...] = ()
    """Policy findings that did not reject the tool (``mcpSecurityPolicy: warn``, or a trusted server)."""
    icons: tuple[Mapping[str, Any], ...] = ()
    """2025-11-25+: the tool's icons whose source is ``https:`` or ``data:image/`` (nothing else is kept)."""
    meta: Mapping[str, Any] = field(default_factory=dict)
    """The definition's ``_meta``, for the host: for instance an MCP Apps UI's ``ui.resourceUri``
    (docs/resources-and-prompts.md). It is never shown to the model, and it is not part of the fingerprint
    that approvals and reviews are recorded by."""

    @property
    def is_app_only(self) -> bool:
        """MCP Apps (``io.modelcontextprotocol/ui``): the server made this tool visible to its UI alone
        (``_meta.ui.visibility`` without ``"model"``). The adapters and ``mcp_tool_search`` leave it out of
        what the model sees; the host's app bridge may still call it."""
        ui = self.meta.get("ui") if self.meta else None
        visibility = ui.get("visibility") if isinstance(ui, Mapping) else None
        return isinstance(visibility, list) and "model" not in visibility


@dataclass(frozen=True, slots=True)
class ToolResult:
    """The outcome of one tool call.

    ``text`` is what the model reads (every content block rendered); ``raw`` is the server's
    ``CallToolResult`` untouched; ``structured`` is its ``structuredContent`` when there was one.

    A text longer than the output budget (``tools.mcp.max_output_chars``) is cut and ends with a marker; then
    ``full_text`` holds all of it and ``result_uri`` is the ``troupe://results/<id>`` resource where the model
    can read it (``mcp_resources action=read``). Both are ``None`` when nothing was cut.
    """

    text: str
    is_error: bool = False
    raw: Mapping[str, Any] = field(default_factory=dict)
    structured: Any = None
    full_text: str | None = field(default=None, repr=False)
    result_uri: str | None = None

    @property
    def content(self) -> list[Mapping[str, Any]]:
        """The result's content blocks as the server sent them (``text``, ``image``, ``audio``,
        ``resource_link``, ``resource``), for adapters that pass images or links on; blocks that are not
        objects are left out."""
        blocks = self.raw.get("content")
        if not isinstance(blocks, list):
            return []
        return [block for block in blocks if isinstance(block, Mapping)]


@dataclass(frozen=True, slots=True)
class ServerStatus:
    """A snapshot of one server's supervisor, for ``Troupe.status()`` and ``troupe status``."""

    name: str
    transport: str
    state: ServerState
    incarnation: int = 0
    attempts: int = 0
    last_error: str | None = None
    stderr_tail: tuple[str, ...] = ()
    pid: int | None = None
    session_id: str | None = None
    protocol_version: str | None = None
    server_info: Mapping[str, Any] | None = None
    tool_count: int = 0
    rejected: Mapping[str, str] = field(default_factory=dict)
    ready_since: float | None = None
    """``time.monotonic()`` when the current incarnation became ready."""
    auth: Mapping[str, Any] | None = None
    """For ``auth: oauth``: the login's ``state``, ``issuer``, ``expires_at``, ``scopes`` … never a secret."""
    unjudged: int = 0
    """Tools of its catalog that policy has not judged yet (a big catalog is judged in slices); they are
    neither listed nor callable until judged."""


@dataclass(frozen=True, slots=True)
class TroupeEvent:
    """Something happened to a server: ``kind`` is connected, lost, changed, restarted, failed, stopped
    (and, from the host callbacks, progress, elicitation_complete, and task: a server task's status change,
    ``"<tool> task <id>: <status> [message]"``, docs/tasks.md)."""

    kind: str
    server: str
    incarnation: int
    detail: str = ""
    at: float = 0.0
