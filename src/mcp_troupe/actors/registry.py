"""RegistryActor: the agent's entry point. Owns server → current session, the qualified tool table, the policy
verdicts, and the latest status of every server.

Policy is re-applied every time a server's catalog arrives — first connect, reconnect and ``list_changed``
alike — and the call path checks the current table, so no stale or rejected tool can be called (DESIGN §2
rule 8). The update is per server: that server's tools are re-judged, and so are the tools of other servers
that shared a qualified name with it before or do now, which is what makes "both sides of a collision are
rejected" hold across servers and come undone when one side leaves. Definitions that arrive unchanged (the
same objects, see the session) keep their policy verdicts.

The built-in tools ``mcp_resources`` and ``mcp_prompts`` (:mod:`mcp_troupe.builtin_tools`) are listed beside
the MCP tools once a server has offered resources or prompts, and stay listed across that server's reconnects.
A call to one becomes a task on the I/O loop, given a snapshot of the servers, that asks their sessions and
completes the caller's ``reply_to``; this actor never waits for it. The registry also keeps the store of cut
tool outputs (``troupe://results/<id>``, told by the facade with ``StoreResult``), which ``mcp_resources``
reads.

The fast path. Once a call of a tool has passed the gate with nothing to ask or record, the tool's route to
its connection's :class:`~mcp_troupe.actors.lane.CallLane` (stdio) goes on the :class:`RouteBoard` the facade
reads, and later calls of it skip this actor and the session (two thread hand-offs instead of five). The
board is emptied whenever the verdict or the route could change: every rebuild of the table (a new catalog,
a lifted quarantine), a server going down, an operator command, the shutdown. A first call, a call that
needs approval, and any call to an HTTP server always come here.
"""

from __future__ import annotations

import difflib
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Any, assert_never

import pykka

from mcp_troupe._futures import fail as _fail
from mcp_troupe.actors.lane import CallLane, FastRoute, RouteBoard
from mcp_troupe.actors.loop import Runtime, safe_tell
from mcp_troupe.actors.session import CallRequest, CancelCall
from mcp_troupe.actors.supervisor import (
    RestartServer,
    ServerCatalog,
    ServerDown,
    ServerSupervisor,
    ServerUp,
    StartServer,
    StatusChanged,
    StopServer,
)
from mcp_troupe.approval import ApprovalRequest, Approver, ask
from mcp_troupe.builtin_tools import (
    BUILTIN_NAMES,
    BUILTIN_SERVER,
    BUILTIN_TOOLS,
    SEARCH_SPEC,
    SEARCH_TOOL,
    BuiltinCall,
    ServerView,
    check_search_arguments,
    error_result,
    search_result,
    serve,
)
from mcp_troupe.config import ServerConfig, TroupeConfig
from mcp_troupe.errors import (
    ApprovalRequired,
    CallCancelled,
    ConnectionLost,
    ServerNotReady,
    ToolDenied,
    TroupeClosed,
    TroupeError,
    UnknownServer,
    UnknownTool,
)
from mcp_troupe.policy.catalog import ContentChecks, ToolVerdict, evaluate_tool
from mcp_troupe.policy.fingerprint import ApprovalBook
from mcp_troupe.policy.gate import decide
from mcp_troupe.policy.names import name_rejection, qualify
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol.content import RESULTS_URI_PREFIX, render_call_result
from mcp_troupe.protocol.mcp import ToolDefinition
from mcp_troupe.search import ToolIndex, document_from_definition
from mcp_troupe.types import Risk, ServerState, ServerStatus, ToolResult, ToolSpec

__all__ = [
    "CallTool",
    "CancelToolCall",
    "GetStatus",
    "ListTools",
    "RegistryActor",
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

log = logging.getLogger("mcp_troupe.registry")
_COUNTER_LOCK = threading.Lock()

RESULTS_MAX_ENTRIES = 64
"""Cut tool outputs kept for ``mcp_resources`` (the oldest go first)."""
RESULTS_MAX_CHARS = 32 * 1024 * 1024
"""Characters kept in all, across the stored outputs; one larger output is itself cut to this."""
# The capabilities a server's handshake may offer that the built-in tools reach.
_BUILTIN_CAPABILITIES = frozenset(tool.capability for tool in BUILTIN_TOOLS.values())


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


@dataclass(frozen=True, slots=True)
class _ApprovalDecided:
    """The approver answered for ``call`` (loop task → registry)."""

    call: CallTool
    fingerprint: str
    is_approved: bool
    why: str
    remember: bool


RegistryMessage = (
    CallTool
    | CancelToolCall
    | ListTools
    | SearchTools
    | GetStatus
    | WhenSettled
    | Restart
    | Stop
    | Start
    | Shutdown
    | StoreResult
    | StatusChanged
    | ServerUp
    | ServerCatalog
    | ServerDown
    | _ApprovalDecided
)


@dataclass(slots=True)
class _ServerPart:
    """One server's tools after policy, before naming: what the table needs to re-judge its names alone."""

    policy_rejected: dict[str, str]
    # Tool name → times listed, (first definition, its verdict), qualified name; each in listing order.
    listed: dict[str, int] = field(default_factory=dict)
    definitions: dict[str, tuple[ToolDefinition, ToolVerdict]] = field(default_factory=dict)
    qualified: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class _Route:
    server: str
    original_name: str
    fingerprint: str = ""


class RegistryActor(pykka.ThreadingActor):
    """The tool table and the router."""

    use_daemon_thread = True

    def __init__(
        self,
        *,
        config: TroupeConfig,
        runtime: Runtime,
        reserved_names: Sequence[str] = (),
        supervisor_factory: Callable[..., pykka.ActorRef[Any]] | None = None,
        approver: Approver | None = None,
        board: RouteBoard | None = None,
    ) -> None:
        super().__init__()
        self.approver = approver
        # Routes the facade may take without asking us (see the module docstring); only we write it.
        self.board = board if board is not None else RouteBoard()
        self._lanes: dict[str, CallLane] = {}
        # Approved definitions, by fingerprint, for the life of the process (rug-pull detection).
        self._approvals = ApprovalBook()
        # Per server: the catalog the verdicts were computed for, and each tool's verdict by name.
        self._verdicts: dict[str, tuple[ServerCatalog, dict[str, ToolVerdict]]] = {}
        self._content_checks: dict[str, dict[tuple[str, str | None], ContentChecks]] = {}
        self.config = config
        self.runtime = runtime
        # The built-in tools' names are reserved too: a server tool called mcp_resources is rejected as a
        # would-be shadow, like one named after any of the agent's own tools.
        self.reserved_names = tuple(dict.fromkeys((*reserved_names, *sorted(BUILTIN_NAMES), SEARCH_TOOL)))
        self._reserved_set = frozenset(self.reserved_names)
        self._server_order = {name: index for index, name in enumerate(config.servers)}
        self._supervisor_factory = supervisor_factory or ServerSupervisor.start
        self._supervisors: dict[str, pykka.ActorRef[Any]] = {}
        self._statuses: dict[str, ServerStatus] = {}
        self._sessions: dict[str, tuple[int, pykka.ActorRef[Any]]] = {}
        self._incarnations: dict[str, int] = {}
        self._catalogs: dict[str, ServerCatalog] = {}
        # The table, kept up to date one server at a time (_update_server): qualified name → spec and route;
        # each server's tools after policy; every qualified name's holders; rejections by naming.
        self._table: dict[str, ToolSpec] = {}
        self._routes: dict[str, _Route] = {}
        self._parts: dict[str, _ServerPart] = {}
        self._holders: dict[str, dict[tuple[str, str], None]] = {}
        self._name_rejected: dict[str, dict[str, str]] = {}
        # Qualified name → why it was rejected, so calling a rejected tool says so instead of "unknown".
        self._rejected_names: dict[str, str] = {}
        self._settle_waiters: list[Future[None]] = []
        self._is_shut_down = False
        # Server → the built-in capabilities ("resources", "prompts") of its last handshake. Kept while the
        # server reconnects, so the built-in tools stay listed (not ready) instead of coming and going.
        self._offers: dict[str, frozenset[str]] = {}
        # troupe://results/<id> → the whole text of a cut tool output, oldest first.
        self._results: OrderedDict[str, str] = OrderedDict()
        self._results_chars = 0
        # The tool-search index over the table, kept in step with it one server at a time.
        self._index = ToolIndex()

    def on_start(self) -> None:
        for name, server in self.config.servers.items():
            reason = self._skip_reason(server)
            if reason is not None:
                self._statuses[name] = ServerStatus(
                    name=name, transport=server.transport, state=ServerState.SKIPPED, last_error=reason
                )
                log.info("server %s: skipped (%s)", name, reason)
                continue
            self._statuses[name] = ServerStatus(
                name=name, transport=server.transport, state=ServerState.CONNECTING
            )
            ref = self.runtime.track(
                self._supervisor_factory(
                    config=server,
                    reconnect=self.config.reconnect,
                    registry=self.actor_ref,
                    runtime=self.runtime,
                )
            )
            self._supervisors[name] = ref
            ref.tell(StartServer())

    def _skip_reason(self, server: ServerConfig) -> str | None:
        if not self.config.mcp_enabled:
            return "tools.mcp.enabled is false"
        if not server.enabled:
            return "enabled: false"
        if server.transport == "http" and self.config.network_policy != "allow":
            # Network access is opt-in: an agent configured for local tools must not start talking to hosts.
            return "an HTTP server, and execution.networkPolicy is deny (set it to allow to connect)"
        return None

    # ---- dispatch ----------------------------------------------------------------------------------------

    def on_receive(self, message: Any) -> None:
        msg: RegistryMessage = message
        match msg:
            case CallTool():
                self._on_call(msg)
            case CancelToolCall():
                if msg.name in BUILTIN_NAMES:
                    # Failing the future cancels the built-in's task, which cancels its request in flight.
                    _fail(msg.reply_to, CallCancelled(BUILTIN_SERVER, None, msg.name))
                    return
                route = self._routes.get(msg.name)
                session = self._sessions.get(route.server) if route is not None else None
                if session is not None:
                    safe_tell(session[1], CancelCall(msg.reply_to, msg.reason))
            case ListTools():
                msg.reply_to.set_result(self._list_tools(msg.ready_only))
            case SearchTools():
                msg.reply_to.set_result(self._search(msg.query, msg.limit))
            case GetStatus():
                msg.reply_to.set_result(self._status_list())
            case WhenSettled():
                # Waiters whose callers gave up (they cancel their future) are dropped, not hoarded.
                self._settle_waiters = [w for w in self._settle_waiters if not w.done()]
                self._settle_waiters.append(msg.reply_to)
                self._release_settle_waiters()
            case StatusChanged(status=status):
                if status.incarnation >= self._statuses.get(status.name, status).incarnation:
                    self._statuses[status.name] = status
                    self._release_settle_waiters()
            case ServerUp():
                self._on_server_up(msg)
            case ServerCatalog():
                if not self._is_shut_down and msg.incarnation == self._incarnations.get(msg.server):
                    self._on_catalog(msg)
            case ServerDown():
                self._on_server_down(msg)
            case Restart() | Stop() | Start():
                self._on_operator(msg)
            case Shutdown():
                self._on_shutdown(msg.reply_to)
            case _ApprovalDecided():
                self._on_approval_decided(msg)
            case StoreResult():
                if not self._is_shut_down:
                    self._store_result(msg.uri, msg.text)
            case _:
                assert_never(msg)

    # ---- the call path -------------------------------------------------------------------------------------

    def _on_call(self, msg: CallTool) -> None:
        if msg.name == SEARCH_TOOL:
            self._on_search_call(msg)
            return
        if msg.name in BUILTIN_NAMES:
            self._on_builtin_call(msg)
            return
        route = self._routes.get(msg.name)
        if route is None:
            _fail(msg.reply_to, self._unknown_tool(msg.name))
            return
        session = self._sessions.get(route.server)
        if session is None:
            status = self._statuses.get(route.server)
            state = str(status.state) if status is not None else "unknown"
            _fail(msg.reply_to, ServerNotReady(route.server, state, status.last_error if status else None))
            return
        if self._is_allowed(msg, route):
            lane = self._lanes.get(route.server)
            if lane is not None:
                # Cleared with nothing to ask or record: the same verdict holds until the board is emptied.
                self.board.routes[msg.name] = FastRoute(
                    lane, route.original_name, (self._table[msg.name].output_schema, route.server)
                )
            self._forward(msg, route, session[1])

    def _forward(self, msg: CallTool, route: _Route, session: pykka.ActorRef[Any]) -> None:
        request = CallRequest(
            proto.TOOLS_CALL,
            proto.call_tool_params(route.original_name, msg.arguments),
            msg.reply_to,
            msg.timeout,
            # Travels with the answer, so the facade validates structuredContent without asking us.
            context=(self._table[msg.name].output_schema, route.server),
        )
        if not safe_tell(session, request):
            _fail(msg.reply_to, ConnectionLost(route.server, "the session ended"))

    # ---- the gate and approval -------------------------------------------------------------------------

    def _is_allowed(self, msg: CallTool, route: _Route) -> bool:
        """Apply the capability gate and the approval mode; False when the call was refused or is waiting."""
        spec = self._table[msg.name]
        status = self._approvals.status(route.server, route.original_name, route.fingerprint)
        decision = decide(
            tool_name=spec.name,
            capabilities=spec.capabilities,
            risk=spec.risk,
            profile=self.config.profile,
            allow=self.config.allow,
            mode=self.config.approval_mode,
            approved_before=status == "approved",
        )
        if not decision.allowed:
            _fail(msg.reply_to, ToolDenied(spec.name, decision.reason))
            return False
        if not decision.needs_approval:
            if self.config.approval_mode == "auto" and spec.risk > Risk.READ_ONLY and status != "approved":
                # Pinned even when no human looked: a later change of definition is still logged as one.
                self._approvals.approve(route.server, route.original_name, route.fingerprint)
            return True
        is_changed = status == "changed"
        reason = decision.reason
        if is_changed:
            reason = "its definition CHANGED since it was approved (a possible rug pull); " + reason
        if self.approver is None:
            _fail(
                msg.reply_to,
                ApprovalRequired(
                    spec.name,
                    f"{reason}, and no approver is installed: pass approver= to Troupe (troupe call: answer"
                    " the prompt or use --yes; for troupe ctl call, start the manager with troupe run"
                    " --yes), or set permissions.approval.mode",
                ),
            )
            return False
        request = ApprovalRequest(
            tool=spec.name,
            server=route.server,
            original_name=route.original_name,
            description=spec.description,
            arguments=dict(msg.arguments or {}),
            risk=spec.risk,
            declared=dict(spec.annotations),
            trust_level=self.config.servers[route.server].trust_level,
            reason=reason,
            is_changed=is_changed,
        )
        self.runtime.loop.spawn(
            self._ask_approver,
            request,
            msg,
            route.fingerprint,
            decision.remember,
            name=f"approve {spec.name}",
        )
        return False

    async def _ask_approver(
        self, request: ApprovalRequest, call: CallTool, fingerprint: str, remember: bool
    ) -> None:
        assert self.approver is not None
        is_approved, why = await ask(self.approver, request)
        safe_tell(self.actor_ref, _ApprovalDecided(call, fingerprint, is_approved, why, remember))

    def _on_approval_decided(self, msg: _ApprovalDecided) -> None:
        call = msg.call
        if call.reply_to.done():  # the caller gave up while the human was thinking
            return
        if not msg.is_approved:
            _fail(call.reply_to, ToolDenied(call.name, msg.why))
            return
        route = self._routes.get(call.name)
        if route is None or route.fingerprint != msg.fingerprint:
            # Approved what the human saw, not what the tool is now: never forward across a change.
            _fail(
                call.reply_to,
                ToolDenied(call.name, "the tool changed while approval was pending; call it again"),
            )
            return
        if msg.remember:
            self._approvals.approve(route.server, route.original_name, route.fingerprint)
            self._update_server(route.server)  # lifts a quarantine
        log.info("call to %s approved (%s)", call.name, msg.why)
        session = self._sessions.get(route.server)
        if session is None:
            status = self._statuses.get(route.server)
            state = str(status.state) if status is not None else "unknown"
            _fail(call.reply_to, ServerNotReady(route.server, state, status.last_error if status else None))
            return
        self._forward(call, route, session[1])

    def _on_builtin_call(self, msg: CallTool) -> None:
        if self._is_shut_down:
            _fail(msg.reply_to, TroupeClosed("the troupe is stopped"))
            return
        builtin = BUILTIN_TOOLS[msg.name].spec
        decision = decide(
            tool_name=builtin.name,
            capabilities=builtin.capabilities,
            risk=builtin.risk,
            profile=self.config.profile,
            allow=self.config.allow,
            mode=self.config.approval_mode,
            approved_before=True,
        )
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
            max_chars=self.config.max_output_chars,
            timeout=msg.timeout,
            stored=stored,
        )
        try:
            handle = self.runtime.loop.spawn(serve, call, msg.reply_to, name=f"builtin {msg.name}")
        except TroupeClosed as exc:
            _fail(msg.reply_to, exc)
            return
        # A caller that gives up (cancels, or is told CallCancelled) ends the task and its request in flight.
        msg.reply_to.add_done_callback(lambda _future: handle.cancel())

    def _on_search_call(self, msg: CallTool) -> None:
        if self._is_shut_down:
            _fail(msg.reply_to, TroupeClosed("the troupe is stopped"))
            return
        decision = decide(
            tool_name=SEARCH_TOOL,
            capabilities=SEARCH_SPEC.capabilities,
            risk=SEARCH_SPEC.risk,
            profile=self.config.profile,
            allow=self.config.allow,
            mode=self.config.approval_mode,
            approved_before=True,
        )
        if not decision.allowed:
            _fail(msg.reply_to, ToolDenied(SEARCH_TOOL, decision.reason))
            return
        checked = check_search_arguments(msg.arguments)
        if isinstance(checked, str):
            msg.reply_to.set_result(error_result(checked))
            return
        query, limit = checked
        msg.reply_to.set_result(search_result(self._search(query, limit)))

    def _search(self, query: str, limit: int) -> list[ToolSpec]:
        """The tools that best fit ``query`` among those callable now: connected, not quarantined, and
        allowed by the gate (withheld tools are never offered as callable)."""

        def is_callable(key: str) -> bool:
            spec = self._table.get(key)
            if spec is None or spec.is_quarantined or spec.server not in self._sessions:
                return False
            return decide(
                tool_name=spec.name,
                capabilities=spec.capabilities,
                risk=spec.risk,
                profile=self.config.profile,
                allow=self.config.allow,
                mode=self.config.approval_mode,
                approved_before=True,
            ).allowed

        return [self._table[key] for key, _score in self._index.search(query, limit, allowed=is_callable)]

    def _search_is_active(self) -> bool:
        """Whether ``tools()`` lists the search tool instead of every tool (``tools.mcp.tool_search``)."""
        settings = self.config.tool_search
        if settings.mode == "auto":
            return len(self._table) > settings.threshold
        return settings.mode == "on"

    def _reindex(self, servers: Iterable[str]) -> None:
        """Give the search index the current table entries of each of ``servers`` (incremental)."""
        for server in servers:
            part = self._parts.get(server)
            documents = []
            if part is not None:
                for tool_name, qualified in part.qualified.items():
                    spec = self._table.get(qualified)
                    if spec is None or spec.server != server or spec.original_name != tool_name:
                        continue
                    documents.append(
                        document_from_definition(
                            spec.name,
                            server,
                            tool_name,
                            spec.description,
                            spec.input_schema,
                            spec.title or "",
                        )
                    )
            self._index.replace_server(server, documents)

    def _server_views(self) -> tuple[ServerView, ...]:
        """An immutable snapshot of every configured server, for one built-in call."""
        views = []
        for name, server in self.config.servers.items():
            status = self._statuses.get(name)
            session = self._sessions.get(name)
            views.append(
                ServerView(
                    name=name,
                    state=str(status.state) if status is not None else "unknown",
                    offers=self._offers.get(name, frozenset()),
                    is_trusted=server.trust_level == "trusted",
                    session=session[1] if session is not None else None,
                    timeout=server.timeout,
                )
            )
        return tuple(views)

    def _store_result(self, uri: str, text: str) -> None:
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

    def _unknown_tool(self, name: str) -> TroupeError:
        if self._is_shut_down:
            return TroupeClosed("the troupe is stopped")
        reason = self._rejected_names.get(name)
        if reason is not None:
            return UnknownTool(name, reason=f"rejected: {reason}")
        # A model (or an operator) that misspells a name gets the nearest names of the current table.
        known = [*self._table, *BUILTIN_NAMES, SEARCH_TOOL]
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
        if close:
            return UnknownTool(
                name, reason="did you mean " + " or ".join(repr(other) for other in close) + "?"
            )
        return UnknownTool(name)

    # ---- the table -----------------------------------------------------------------------------------------

    def _on_server_up(self, msg: ServerUp) -> None:
        if self._is_shut_down or msg.incarnation < self._incarnations.get(msg.server, 0):
            return
        self._incarnations[msg.server] = msg.incarnation
        self._sessions[msg.server] = (msg.incarnation, msg.session)
        if msg.lane is not None:
            self._lanes[msg.server] = msg.lane
        else:
            self._lanes.pop(msg.server, None)
        self._catalogs[msg.server] = msg.catalog
        if msg.info is not None:
            self._offers[msg.server] = frozenset(
                capability for capability in _BUILTIN_CAPABILITIES if msg.info.offers(capability)
            )
        self._update_server(msg.server)

    def _on_catalog(self, msg: ServerCatalog) -> None:
        previous = self._catalogs.get(msg.server)
        self._catalogs[msg.server] = msg
        if previous is None or not _same_listing(previous, msg):
            self._update_server(msg.server)
            return
        # A refresh that changed nothing (a list_changed storm, a server announcing more than it changes):
        # the table, the verdicts and the cleared routes all stand.
        cached = self._verdicts.get(msg.server)
        if cached is not None and cached[0] is previous:
            self._verdicts[msg.server] = (msg, cached[1])

    def _on_server_down(self, msg: ServerDown) -> None:
        if msg.incarnation < self._incarnations.get(msg.server, 0):
            return
        current = self._sessions.get(msg.server)
        if current is not None and current[0] <= msg.incarnation:
            del self._sessions[msg.server]
            self._lanes.pop(msg.server, None)
            self.board.routes = {}
        if msg.unregister:
            self._offers.pop(msg.server, None)
        if msg.unregister and msg.server in self._catalogs:
            del self._catalogs[msg.server]
            self._update_server(msg.server)

    def _tool_verdicts(self, server: str, catalog: ServerCatalog) -> dict[str, ToolVerdict]:
        """Policy's verdict on each tool of ``catalog``, computed once per catalog that arrives."""
        cached = self._verdicts.get(server)
        if cached is not None and cached[0] is catalog:
            return cached[1]
        config = self.config.servers[server]
        verdicts: dict[str, ToolVerdict] = {}
        # A definition the session passed on unchanged is the same object as before: its verdict stands.
        previous = cached[1] if cached is not None else {}
        previous_tools = {tool.name: tool for tool in cached[0].tools} if cached is not None else {}
        # Checks of the previous catalog's definitions are reused; those of tools that are gone are dropped
        # below, so the cache never outgrows the server's tool list.
        checks = dict(self._content_checks.get(server, {}))
        used: set[tuple[str, str | None]] = set()
        for tool in catalog.tools:
            if tool.name in previous and _is_same(previous_tools.get(tool.name), tool):
                verdict = previous[tool.name]
                used.add((verdict.fingerprint, tool.title))
                verdicts.setdefault(tool.name, verdict)
                continue
            verdict = evaluate_tool(
                tool,
                trust=config.trust_level,
                include=config.tools_include,
                exclude=config.tools_exclude,
                security_policy=self.config.security_policy,
                cache=checks,
            )
            used.add((verdict.fingerprint, tool.title))
            verdicts.setdefault(tool.name, verdict)
            if verdict.rejected is not None:
                log.warning("server %s: tool %r rejected: %s", server, tool.name, verdict.rejected)
            for warning in verdict.warnings:
                log.warning("server %s: tool %r registered despite: %s", server, tool.name, warning)
        self._verdicts[server] = (catalog, verdicts)
        self._content_checks[server] = {key: value for key, value in checks.items() if key in used}
        return verdicts

    def _rebuild(self) -> None:
        """Re-apply policy and naming to every server's catalog (used when anything may have changed)."""
        for server in self.config.servers:
            self._update_server(server)

    def _update_server(self, server: str) -> None:
        """Bring the table up to date with ``server``'s current catalog (or its absence).

        Only this server's tools are re-judged, and the tools of other servers whose qualified names it
        held before or holds now (a collision starts or ends with it); everything else stands. So a hundred
        servers connecting one after another cost a hundred small updates, not a hundred whole rebuilds.
        The result equals :func:`~mcp_troupe.policy.names.assign_names` over every catalog at once.
        """
        old = self._parts.pop(server, None)
        catalog = self._catalogs.get(server)
        new = self._server_part(server, catalog) if catalog is not None else None
        touched: dict[str, None] = {}
        if old is not None:
            for tool, qualified in old.qualified.items():
                holders = self._holders[qualified]
                del holders[(server, tool)]
                if not holders:
                    del self._holders[qualified]
                touched[qualified] = None
            self._name_rejected.pop(server, None)
        if new is not None:
            self._parts[server] = new
            for tool, qualified in new.qualified.items():
                self._holders.setdefault(qualified, {})[(server, tool)] = None
                touched[qualified] = None
            self._name_rejected[server] = {}
        for qualified in touched:
            self._table.pop(qualified, None)
            self._routes.pop(qualified, None)
            self._rejected_names.pop(qualified, None)
            for other, tool in self._holders.get(qualified, ()):
                self._name_rejected[other].pop(tool, None)
        affected = {server: None}
        for qualified in touched:
            for other, tool in self._holders.get(qualified, ()):
                self._judge_name(other, tool, self._parts[other])
                affected[other] = None
        self._reindex(affected)
        self.board.routes = {}

    def _server_part(self, server: str, catalog: ServerCatalog) -> _ServerPart:
        part = _ServerPart(policy_rejected=dict(catalog.rejected))
        tool_verdicts = self._tool_verdicts(server, catalog)
        for tool in catalog.tools:
            verdict = tool_verdicts[tool.name]
            if verdict.rejected is not None:
                # Rejected tools take no part in naming: a filtered-out tool must not knock out its twin.
                part.policy_rejected[tool.name] = verdict.rejected
                continue
            if tool.name in part.listed:
                part.listed[tool.name] += 1
                continue
            part.listed[tool.name] = 1
            part.definitions[tool.name] = (tool, verdict)
            part.qualified[tool.name] = qualify(server, tool.name)
        return part

    def _judge_name(self, server: str, tool_name: str, part: _ServerPart) -> None:
        qualified = part.qualified[tool_name]
        holders: Iterable[tuple[str, str]] = self._holders[qualified]
        if len(self._holders[qualified]) > 1:
            # A collision names the other sides in configuration and listing order, however they arrived.
            holders = sorted(holders, key=self._listing_position)
        reason = name_rejection(
            server,
            tool_name,
            qualified,
            listed=part.listed[tool_name],
            holders=holders,
            reserved=self._reserved_set,
        )
        if reason is not None:
            self._name_rejected[server][tool_name] = reason
            self._rejected_names.setdefault(qualified, reason)
            log.warning("server %s: tool %r rejected: %s", server, tool_name, reason)
            return
        tool, verdict = part.definitions[tool_name]
        is_quarantined = self._approvals.status(server, tool.name, verdict.fingerprint) == "changed"
        if is_quarantined:
            log.warning(
                "server %s: tool %r changed since it was approved; quarantined until approved again",
                server, tool.name,
            )  # fmt: skip
        self._table[qualified] = ToolSpec(
            name=qualified,
            original_name=tool.name,
            server=server,
            description=tool.description,
            input_schema=tool.input_schema,
            title=tool.title,
            output_schema=tool.output_schema,
            annotations=tool.annotations,
            risk=verdict.risk,
            is_quarantined=is_quarantined,
            warnings=verdict.warnings,
        )
        self._routes[qualified] = _Route(server, tool.name, verdict.fingerprint)

    def _listing_position(self, key: tuple[str, str]) -> tuple[int, int]:
        server, tool_name = key
        return self._server_order[server], list(self._parts[server].listed).index(tool_name)

    def _rejected_of(self, server: str) -> dict[str, str]:
        part = self._parts.get(server)
        if part is None:
            return {}
        return {**part.policy_rejected, **self._name_rejected.get(server, {})}

    def _list_tools(self, ready_only: bool) -> list[ToolSpec]:
        result = []
        is_searching = self._search_is_active()
        for server in self.config.servers:  # servers in configuration order, tools in listing order
            part = self._parts.get(server)
            if part is None:
                continue
            if is_searching and not self.config.servers[server].always_load:
                continue  # behind mcp_tool_search
            is_ready = server in self._sessions
            if ready_only and not is_ready:
                continue
            for tool_name, qualified in part.qualified.items():
                spec = self._table.get(qualified)
                if spec is None or spec.server != server or spec.original_name != tool_name:
                    continue
                result.append(spec if is_ready else replace(spec, ready=False))
        result.extend(self._builtin_specs(ready_only))
        if is_searching:
            is_ready = bool(self._sessions)
            if is_ready or not ready_only:
                result.append(SEARCH_SPEC if is_ready else replace(SEARCH_SPEC, ready=False))
        return result

    def _builtin_specs(self, ready_only: bool) -> list[ToolSpec]:
        """The built-in tools that have something to reach: a server that offered their capability.

        ``mcp_resources`` is also listed while a stored result exists, since a cut output points the model at
        it. A built-in is ready when a server offering its capability is connected (or, for mcp_resources,
        when there is a stored result to read).
        """
        specs = []
        for tool in BUILTIN_TOOLS.values():
            offering = [server for server, offers in self._offers.items() if tool.capability in offers]
            has_results = tool.capability == "resources" and bool(self._results)
            if not offering and not has_results:
                continue
            is_ready = has_results or any(server in self._sessions for server in offering)
            if ready_only and not is_ready:
                continue
            specs.append(tool.ready_spec(is_ready))
        return specs

    def _status_list(self) -> list[ServerStatus]:
        counts: dict[str, int] = {}
        for spec in self._table.values():
            counts[spec.server] = counts.get(spec.server, 0) + 1
        return [
            replace(status, tool_count=counts.get(name, 0), rejected=self._rejected_of(name))
            for name, status in self._statuses.items()
        ]

    def _release_settle_waiters(self) -> None:
        if not self._settle_waiters:
            return
        if all(status.state.is_settled for status in self._statuses.values()):
            waiters, self._settle_waiters = self._settle_waiters, []
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_result(None)

    # ---- operator actions and shutdown ---------------------------------------------------------------------

    def _on_operator(self, msg: Restart | Stop | Start) -> None:
        if self._is_shut_down:
            _fail(msg.reply_to, TroupeClosed("the troupe is stopped"))
            return
        supervisor = self._supervisors.get(msg.server)
        # Calls go through us again until the server is back; its lane is about to close anyway.
        self.board.routes = {}
        if supervisor is None:
            status = self._statuses.get(msg.server)
            if status is not None:  # configured but skipped (disabled)
                _fail(msg.reply_to, ServerNotReady(msg.server, str(status.state), status.last_error))
            else:
                _fail(msg.reply_to, UnknownServer(msg.server, tuple(self.config.servers)))
            return
        match msg:
            case Stop():
                command: object = StopServer(msg.reply_to)
            case Restart() | Start():
                command = RestartServer(msg.reply_to)
            case _:
                assert_never(msg)
        if not safe_tell(supervisor, command):
            _fail(msg.reply_to, ServerNotReady(msg.server, "stopped"))

    def _on_shutdown(self, reply_to: Future[None]) -> None:
        # Unregister every MCP tool first, so after this point the model sees none.
        self._is_shut_down = True
        self.board.routes = {}
        self._table, self._routes, self._sessions, self._catalogs = {}, {}, {}, {}
        self._parts, self._holders, self._name_rejected, self._rejected_names = {}, {}, {}, {}
        self._lanes = {}
        self._offers = {}
        self._index = ToolIndex()
        self._results.clear()
        self._results_chars = 0
        futures = []
        for ref in self._supervisors.values():
            done: Future[None] = Future()
            if safe_tell(ref, StopServer(done)):
                futures.append(done)
        _complete_when_all(futures, reply_to)
        for waiter in self._settle_waiters:
            _fail(waiter, TroupeClosed("the troupe was stopped"))
        self._settle_waiters = []


def _is_same(a: object, b: object) -> bool:
    return a is b


def _same_listing(previous: ServerCatalog, new: ServerCatalog) -> bool:
    """Whether ``new`` lists what ``previous`` did (the session passes unchanged definitions on as the same
    objects, so this is an identity check per tool in the common case, done in C)."""
    return previous.tools == new.tools and previous.rejected == new.rejected


def _complete_when_all(futures: list[Future[None]], reply_to: Future[None]) -> None:
    if not futures:
        reply_to.set_result(None)
        return
    remaining = [len(futures)]

    def on_done(_future: Future[None]) -> None:
        # Callbacks run on whichever thread completes each future, so the count needs a lock.
        with _COUNTER_LOCK:
            remaining[0] -= 1
            is_last = remaining[0] == 0
        if is_last and not reply_to.done():
            reply_to.set_result(None)

    for future in futures:
        future.add_done_callback(on_done)


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
