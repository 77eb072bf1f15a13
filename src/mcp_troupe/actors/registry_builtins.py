"""The registry's built-in tools ``mcp_resources`` and ``mcp_prompts``: their calls, listing, result store.

Split from :mod:`mcp_troupe.actors.registry`, which composes one :class:`BuiltinTools` and runs it on its own
thread only. A call of a built-in passes the gate here and becomes a task on the I/O loop
(:func:`mcp_troupe.builtin_tools.serve`), given a snapshot of the servers, that asks their sessions and
completes the caller's ``reply_to``; the registry never waits for it. The helper also keeps the store of
cut tool outputs (``troupe://results/<id>``, told by the facade with ``StoreResult``), which
``mcp_resources`` reads.

It reads the registry's server records (the same dict, whose records the registry updates in place) and
never writes them.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping

from mcp_troupe._futures import fail as _fail
from mcp_troupe.actors.loop import Runtime
from mcp_troupe.actors.registry_messages import CallTool
from mcp_troupe.actors.registry_records import ServerRecord, SessionPort, gate_decision
from mcp_troupe.builtin_tools import BUILTIN_TOOLS, BuiltinCall, ServerView, serve
from mcp_troupe.config import TroupeConfig
from mcp_troupe.errors import ToolDenied, TroupeClosed
from mcp_troupe.protocol.content import RESULTS_URI_PREFIX
from mcp_troupe.types import ToolSpec

__all__ = ["RESULTS_MAX_CHARS", "RESULTS_MAX_ENTRIES", "BuiltinTools"]

RESULTS_MAX_ENTRIES = 64
"""Cut tool outputs kept for ``mcp_resources`` (the oldest go first)."""
RESULTS_MAX_CHARS = 32 * 1024 * 1024
"""Characters kept in all, across the stored outputs; one larger output is itself cut to this."""


class BuiltinTools:
    """The built-in tools' calls and listing, and the store of cut tool outputs (see the module docstring).

    ``servers`` is the registry's record of each configured server, in configuration order.
    """

    def __init__(
        self, config: TroupeConfig, *, runtime: Runtime, servers: Mapping[str, ServerRecord]
    ) -> None:
        self._config = config
        self._runtime = runtime
        self._servers = servers
        # troupe://results/<id> → the whole text of a cut tool output, oldest first.
        self._results: OrderedDict[str, str] = OrderedDict()
        self._results_chars = 0

    def on_call(self, msg: CallTool) -> None:
        """Start a call of a built-in tool (the registry has checked it is not shut down)."""
        builtin = BUILTIN_TOOLS[msg.name].spec
        decision = gate_decision(self._config, builtin.name, builtin.capabilities, builtin.risk)
        if not decision.allowed:  # public_gateway / daemon without the built-in in tools.allow
            _fail(msg.reply_to, ToolDenied(msg.name, decision.reason))
            return
        stored: dict[str, str] = {}
        uri = (msg.arguments or {}).get("uri")
        if isinstance(uri, str) and uri.startswith(RESULTS_URI_PREFIX) and uri in self._results:
            stored[uri] = self._results[uri]
            self._results.move_to_end(uri)
        call = BuiltinCall(
            tool=msg.name,
            arguments=msg.arguments,
            servers=self._server_views(),
            max_chars=self._config.max_output_chars,
            timeout=msg.timeout,
            stored=stored,
        )
        try:
            handle = self._runtime.loop.spawn(serve, call, msg.reply_to, name=f"builtin {msg.name}")
        except TroupeClosed as exc:
            _fail(msg.reply_to, exc)
            return
        # A caller that gives up (cancels, or is told CallCancelled) ends the task and its request in flight.
        msg.reply_to.add_done_callback(lambda _future: handle.cancel())

    def _server_views(self) -> tuple[ServerView, ...]:
        """An immutable snapshot of every configured server, for one built-in call."""
        return tuple(
            ServerView(
                name=name,
                state=str(record.status.state),
                offers=record.offers or frozenset(),
                is_trusted=record.config.trust_level == "trusted",
                session=SessionPort(record.session) if record.session is not None else None,
                timeout=record.config.timeout,
            )
            for name, record in self._servers.items()
        )

    def store(self, uri: str, text: str) -> None:
        """Keep the whole text of a cut tool output under ``uri``, within the store's bounds."""
        if len(text) > RESULTS_MAX_CHARS:
            text = (
                f"{text[:RESULTS_MAX_CHARS]}\n[the stored text was cut at {RESULTS_MAX_CHARS} of {len(text)} "
                "characters: the result store's limit]"
            )
        previous = self._results.pop(uri, None)
        if previous is not None:
            self._results_chars -= len(previous)
        self._results[uri] = text
        self._results_chars += len(text)
        while len(self._results) > RESULTS_MAX_ENTRIES or (
            self._results_chars > RESULTS_MAX_CHARS and len(self._results) > 1
        ):
            _uri, evicted = self._results.popitem(last=False)
            self._results_chars -= len(evicted)

    def clear(self) -> None:
        """Forget every stored output (the shutdown)."""
        self._results.clear()
        self._results_chars = 0

    def specs(self, ready_only: bool) -> list[ToolSpec]:
        """The built-in tools that have something to reach: a server that offered their capability.

        ``mcp_resources`` is also listed while a stored result exists, since a cut output points the model at
        it. A built-in is ready when a server offering its capability is connected (or, for mcp_resources,
        when there is a stored result to read).
        """
        specs = []
        for tool in BUILTIN_TOOLS.values():
            offering = [
                record
                for record in self._servers.values()
                if record.offers is not None and tool.capability in record.offers
            ]
            has_results = tool.capability == "resources" and bool(self._results)
            if not offering and not has_results:
                continue
            is_ready = has_results or any(record.is_ready for record in offering)
            if ready_only and not is_ready:
                continue
            specs.append(tool.ready_spec(is_ready))
        return specs
