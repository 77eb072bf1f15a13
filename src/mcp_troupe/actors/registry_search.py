"""Tool search for the registry: the ``mcp_tool_search`` tool, its index over the table, and when it is built.

Split from :mod:`mcp_troupe.actors.registry`, which composes one :class:`ToolSearch` and runs it on its own
thread only. The index is brought up to date one server at a time: only when a search needs it, or soon
after a change while tool search is active (the registry's ``_IndexNow``, asked for through
``schedule``). Indexing 10,000 tools takes about a second, which must not delay readiness (or anything,
for a troupe that never searches).

The helper reads the registry's table through narrow callbacks (the registry replaces its table on
shutdown, so it is read through a function, never kept); it never writes it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping

from mcp_troupe._futures import fail as _fail
from mcp_troupe.actors.registry_messages import CallTool
from mcp_troupe.actors.registry_records import gate_decision
from mcp_troupe.builtin_tools import (
    SEARCH_SPEC,
    SEARCH_TOOL,
    check_search_arguments,
    error_result,
    search_result,
)
from mcp_troupe.config import TroupeConfig
from mcp_troupe.errors import ToolDenied
from mcp_troupe.search import ToolIndex, document_from_definition
from mcp_troupe.search.background import run_in_thread
from mcp_troupe.search.embedding import load_embedder
from mcp_troupe.types import ToolSpec

__all__ = ["ToolSearch"]


class ToolSearch:
    """The search index over the registry's table and its pending state (which servers' entries are stale).

    ``table`` returns the current qualified name → spec map; ``entries_of(server)`` the current table
    entries of one server, in listing order; ``is_ready(server)`` whether calls can reach that server now;
    ``schedule()`` asks the registry to call :meth:`on_index_now` soon (it tells itself a message).
    """

    def __init__(
        self,
        config: TroupeConfig,
        *,
        table: Callable[[], Mapping[str, ToolSpec]],
        entries_of: Callable[[str], Iterable[ToolSpec]],
        is_ready: Callable[[str], bool],
        schedule: Callable[[], None],
    ) -> None:
        self._config = config
        self._table = table
        self._entries_of = entries_of
        self._is_ready = is_ready
        self._schedule = schedule
        self.index = self._new_index()
        self._unindexed: dict[str, None] = {}
        self._is_index_due = False

    def on_call(self, msg: CallTool) -> None:
        """Answer a call of ``mcp_tool_search`` (the registry has checked it is not shut down)."""
        decision = gate_decision(self._config, SEARCH_TOOL, SEARCH_SPEC.capabilities, SEARCH_SPEC.risk)
        if not decision.allowed:
            _fail(msg.reply_to, ToolDenied(SEARCH_TOOL, decision.reason))
            return
        checked = check_search_arguments(msg.arguments)
        if isinstance(checked, str):
            msg.reply_to.set_result(error_result(checked))
            return
        query, limit = checked
        msg.reply_to.set_result(search_result(self.search(query, limit)))

    def search(self, query: str, limit: int) -> list[ToolSpec]:
        """The tools that best fit ``query`` among those callable now: connected, not quarantined, meant for
        the model (not an MCP Apps app-only tool) and allowed by the gate (withheld tools are never in the
        table, so never offered)."""
        table = self._table()

        def is_callable(key: str) -> bool:
            spec = table.get(key)
            if spec is None or spec.is_quarantined or spec.is_app_only or not self._is_ready(spec.server):
                return False
            return gate_decision(self._config, spec.name, spec.capabilities, spec.risk).allowed

        self.index_now()
        return [table[key] for key, _score in self.index.search(query, limit, allowed=is_callable)]

    def is_active(self) -> bool:
        """Whether ``tools()`` lists the search tool instead of every tool (``tools.mcp.tool_search``)."""
        settings = self._config.tool_search
        if settings.mode == "auto":
            return len(self._table()) > settings.threshold
        return settings.mode == "on"

    def reindex(self, servers: Iterable[str]) -> None:
        """The table entries of ``servers`` changed: their index entries are out of date."""
        for server in servers:
            self._unindexed[server] = None
        if self._unindexed and not self._is_index_due and self.is_active():
            self._is_index_due = True
            self._schedule()

    def on_index_now(self) -> None:
        """The registry's scheduled update arrived: bring the index up to date."""
        self._is_index_due = False
        self.index_now()

    def index_now(self) -> None:
        """Give the search index the current table entries of each server whose entries changed."""
        unindexed, self._unindexed = self._unindexed, {}
        for server in unindexed:
            documents = [
                document_from_definition(
                    spec.name,
                    server,
                    spec.original_name,
                    spec.description,
                    spec.input_schema,
                    spec.title or "",
                )
                for spec in self._entries_of(server)
            ]
            self.index.replace_server(server, documents)
        if unindexed and self.is_active():
            self.index.warm_up()  # the model (and new vectors) get ready elsewhere before they are asked for

    def reset(self) -> None:
        """Forget every entry (the shutdown): a new, empty index with nothing pending."""
        self.index = self._new_index()
        self._unindexed = {}

    def _new_index(self) -> ToolIndex:
        """An empty search index: hybrid when the embedding model is installed or asked for (lazily)."""
        mode = self._config.tool_search.embeddings
        if mode == "off":
            return ToolIndex()
        # The model loads, and big catalogs are embedded, off this thread: searches stay lexical until then.
        return ToolIndex(load_embedder=functools.partial(load_embedder, mode), background=run_in_thread)
