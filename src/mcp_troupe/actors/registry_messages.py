"""What the facade (and the control socket) tells the registry, and how the answer to a call is read.

:mod:`mcp_troupe.actors.registry` re-exports every name.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

import pykka

from mcp_troupe.actors.loop import safe_tell
from mcp_troupe.protocol.content import RESULTS_URI_PREFIX, render_call_result
from mcp_troupe.types import ServerStatus, ToolResult, ToolSpec

__all__ = [
    "CallTool",
    "CancelToolCall",
    "GetStatus",
    "ListTools",
    "Restart",
    "SearchTools",
    "Shutdown",
    "Start",
    "Stop",
    "StoreResult",
    "WhenSettled",
    "new_result_uri",
    "render_reply",
    "split_call_reply",
]


# ---- commands from the facade ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CallTool:
    """Call the tool with qualified ``name``; ``reply_to`` gets the raw ``CallToolResult`` or an error.

    For an MCP tool the reply is ``(raw, (output_schema, server))``; for a built-in tool it is the raw
    result alone. :func:`split_call_reply` reads both; :func:`render_reply` turns either into a ToolResult.
    """

    name: str
    arguments: Mapping[str, Any] | None
    reply_to: Future[Any]
    timeout: float | None = None


@dataclass(frozen=True, slots=True)
class CancelToolCall:
    """The agent no longer wants the call whose future is ``reply_to``."""

    name: str
    reply_to: Future[Any]
    reason: str = "cancelled by the client"


@dataclass(frozen=True, slots=True)
class ListTools:
    """Reply with the tool table (``ready_only``: only tools of connected servers)."""

    reply_to: Future[list[ToolSpec]]
    ready_only: bool = False


@dataclass(frozen=True, slots=True)
class SearchTools:
    """Reply with the ``limit`` tools that best fit ``query``, best first: only tools callable right now."""

    query: str
    limit: int
    reply_to: Future[list[ToolSpec]]


@dataclass(frozen=True, slots=True)
class GetStatus:
    """Reply with every server's status, in configuration order."""

    reply_to: Future[list[ServerStatus]]


@dataclass(frozen=True, slots=True)
class WhenSettled:
    """Complete ``reply_to`` once every server is ready, failed, stopped or skipped."""

    reply_to: Future[None]


@dataclass(frozen=True, slots=True)
class Restart:
    """Restart one server's actors (closes an open circuit); others are untouched."""

    server: str
    reply_to: Future[None] = field(default_factory=Future)


@dataclass(frozen=True, slots=True)
class Stop:
    """Stop one server; its tools leave the table."""

    server: str
    reply_to: Future[None] = field(default_factory=Future)


@dataclass(frozen=True, slots=True)
class Start:
    """Start a stopped (or failed) server again."""

    server: str
    reply_to: Future[None] = field(default_factory=Future)


@dataclass(frozen=True, slots=True)
class StoreResult:
    """Keep the whole ``text`` of a tool output that was cut, as the resource ``uri`` (troupe://results/...)."""

    uri: str
    text: str


@dataclass(frozen=True, slots=True)
class Shutdown:
    """Unregister every tool, then stop every server; ``reply_to`` completes once all transports closed."""

    reply_to: Future[None] = field(default_factory=Future)


def split_call_reply(reply: Any) -> tuple[Mapping[str, Any], Mapping[str, Any] | None, str | None]:
    """Read the answer to a :class:`CallTool`: ``(raw result, the tool's outputSchema, its server)``.

    An MCP tool's answer carries the context the registry attached (``(raw, (output_schema, server))``); a
    built-in tool's is the raw result alone.
    """
    if type(reply) is tuple:
        raw, (output_schema, server) = reply
        return raw, output_schema, server
    return reply, None, None


def render_reply(reply: Any, *, max_chars: int, registry: pykka.ActorRef[Any] | None) -> ToolResult:
    """Turn the answer to a :class:`CallTool` into a :class:`ToolResult`, on the caller's thread.

    The output budget applies (``max_chars``); the whole text of a cut result is told to ``registry`` as a
    :class:`StoreResult`, so that ``mcp_resources action=read uri=troupe://results/<id>`` can serve it.
    """
    raw, output_schema, _server = split_call_reply(reply)
    result = render_call_result(
        raw, max_chars=max_chars, output_schema=output_schema, new_result_uri=new_result_uri
    )
    if result.full_text is not None and result.result_uri is not None and registry is not None:
        safe_tell(registry, StoreResult(result.result_uri, result.full_text))
    return result


def new_result_uri() -> str:
    """A fresh ``troupe://results/<id>`` URI (random, so one troupe's URIs tell nothing about another's)."""
    return f"{RESULTS_URI_PREFIX}{secrets.token_hex(8)}"
