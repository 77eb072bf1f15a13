"""The tool catalog's listing state of one session: the listing in progress, page by page, and the last one
published, whose definitions an unchanged page or tool keeps.

The session (:class:`~mcp_troupe.actors.session.SessionActor`) sends the ``tools/list`` requests and decides
when to list; :class:`ToolListing` keeps what the pages brought and parses each page, and
:func:`era_checked` drops the tools this connection cannot offer as plain tools. Nothing here sends or
blocks.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from mcp_troupe.actors.lane import CallLane
from mcp_troupe.errors import ProtocolError
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol import modern
from mcp_troupe.protocol import tasks as task_proto
from mcp_troupe.protocol.jsonrpc import RequestId
from mcp_troupe.protocol.mcp import PageGuard, ToolDefinition
from mcp_troupe.protocol.versions import Revision

__all__ = ["ToolListing", "era_checked"]

log = logging.getLogger("mcp_troupe.session")


class ToolListing:
    """At most one ``tools/list`` listing in flight, its pages so far, and the last published listing.

    The pages of the listing in progress and of the last one published are kept as (the server's ``tools``
    array, its parse). A page equal to the published page at the same position keeps that page's
    definitions (the same objects), and so do unchanged tools of a changed page: downstream, the registry
    recognises unchanged definitions by identity and re-checks nothing for them.
    """

    def __init__(self) -> None:
        self.guard: PageGuard | None = None
        """The listing in progress (its page count and cursors), or None."""
        self.request: RequestId | None = None
        """The id of the page request in flight."""
        self.is_dirty = False
        """A ``list_changed`` arrived while listing: what the listing has may be stale."""
        self._tools: list[ToolDefinition] = []
        self._rejected: list[tuple[str, str]] = []
        self._pages: list[tuple[Any, proto.ToolsPage]] = []
        self._published: list[tuple[Any, proto.ToolsPage]] = []
        self._published_by_name: dict[str, ToolDefinition] | None = None  # built when first needed
        self._shared: proto.SharedSchemas | None = None
        """The listing's input schemas by JSON text (tools with the same one share it), until published."""

    @property
    def is_listing(self) -> bool:
        """Whether a listing is in progress."""
        return self.guard is not None

    def begin(self) -> None:
        """Start a listing from the first page."""
        self.guard = PageGuard(proto.TOOLS_LIST)
        self._tools = []
        self._rejected = []
        self._pages = []
        self._shared = proto.SharedSchemas()
        self.is_dirty = False

    def abandon(self) -> None:
        """Give up the listing in progress (its pages are dropped at the next :meth:`begin`)."""
        self.guard = None
        self.request = None

    def add(self, page: proto.ToolsPage) -> None:
        """Count ``page`` into the listing in progress."""
        assert self.guard is not None
        self.guard.count_page()
        self._tools.extend(page.tools)
        self._rejected.extend(page.rejected)

    def parse(
        self,
        result: Mapping[str, Any],
        *,
        revision: Revision | None,
        lane: CallLane | None,
        capabilities: Mapping[str, Any],
        server: str,
    ) -> proto.ToolsPage:
        """Parse one page, reusing the definitions of the last published listing where nothing changed."""
        items = result.get("tools")
        index = len(self._pages)
        previous = self._published[index] if index < len(self._published) else None
        if previous is not None and isinstance(items, list) and previous[0] == items:
            # The same page (compared in C, no parsing): only the cursor is this listing's own.
            cursor = result.get("nextCursor")
            if cursor is not None and not isinstance(cursor, str):
                raise ProtocolError(f"tools/list 'nextCursor' must be a string, got {cursor!r:.40}")
            page = proto.ToolsPage(previous[1].tools, previous[1].rejected, cursor)
        else:
            page = era_checked(
                proto.parse_tools_page(result, self._shared), revision, lane, capabilities, server
            )
            if self._published:
                page = self._reuse_unchanged(page)
        self._pages.append((items, page))
        return page

    def publish(self) -> tuple[tuple[ToolDefinition, ...], tuple[tuple[str, str], ...]]:
        """The listing's tools and rejected tools; its pages become the published ones."""
        tools, rejected = tuple(self._tools), tuple(self._rejected)
        self._tools = []
        self._rejected = []
        self._published, self._pages = self._pages, []
        self._published_by_name = None
        self._shared = None
        return tools, rejected

    def _reuse_unchanged(self, page: proto.ToolsPage) -> proto.ToolsPage:
        known = self._published_by_name
        if known is None:
            known = {tool.name: tool for _items, old in self._published for tool in old.tools}
            self._published_by_name = known
        tools = []
        for tool in page.tools:
            old = known.get(tool.name)
            tools.append(old if old is not None and old.raw == tool.raw else tool)
        return proto.ToolsPage(tuple(tools), page.rejected, page.next_cursor)


def era_checked(
    page: proto.ToolsPage,
    revision: Revision | None,
    lane: CallLane | None,
    capabilities: Mapping[str, Any],
    server: str,
) -> proto.ToolsPage:
    """Drop the tools this connection cannot offer as plain tools, each with its reason; note on the lane
    which tools its calls must drive as tasks and which arguments they mirror into headers."""
    if revision is None:
        return page
    kept: list[ToolDefinition] = []
    rejected = list(page.rejected)
    for tool in page.tools:
        if revision.tasks and lane is not None:
            # spec: 2025-11-25 server/tools — with taskSupport "required" the client MUST use a task (an
            # "optional" one is one when the server takes task-augmented calls): the lane sends its calls
            # with params.task and drives the task to its end.
            if task_proto.wants_task(tool.raw, capabilities):
                lane.task_tools.add(tool.name)
            else:
                lane.task_tools.discard(tool.name)
        if revision.is_modern and lane is not None and lane.is_http:
            try:
                declared = modern.param_headers(tool.input_schema)
            except ProtocolError as exc:
                # spec: 2026-07-28 streamable-http — clients MUST drop invalid x-mcp-header tools.
                log.warning("server %s: tool %r dropped: %s", server, tool.name, exc)
                rejected.append((tool.name, f"invalid x-mcp-header: {exc}"))
                continue
            lane.declare_headers(tool.name, declared)
        kept.append(tool)
    if len(kept) == len(page.tools):
        return page
    return proto.ToolsPage(tuple(kept), tuple(rejected), page.next_cursor)
