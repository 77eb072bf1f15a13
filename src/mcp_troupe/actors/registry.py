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

The parts. This actor keeps the dispatch and owns the table; helpers it composes run on its thread only:
the gate and approval flow (:mod:`~mcp_troupe.actors.registry_gate`), tool search
(:mod:`~mcp_troupe.actors.registry_search`), the built-in tools and the result store
(:mod:`~mcp_troupe.actors.registry_builtins`); the per-server records are in
:mod:`~mcp_troupe.actors.registry_records`, the messages in :mod:`~mcp_troupe.actors.registry_messages`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from typing import Any, assert_never

import pykka

from mcp_troupe._frozen import constructor
from mcp_troupe._futures import complete as _complete
from mcp_troupe._futures import fail as _fail
from mcp_troupe.actors.judging import SLICE_SECONDS, CatalogJudging, JudgeMore
from mcp_troupe.actors.lane import FastRoute, RouteBoard
from mcp_troupe.actors.loop import Runtime, safe_tell
from mcp_troupe.actors.prejudging import PrejudgeMore, Prejudging, ToolsListed
from mcp_troupe.actors.registry_builtins import RESULTS_MAX_CHARS as RESULTS_MAX_CHARS
from mcp_troupe.actors.registry_builtins import RESULTS_MAX_ENTRIES as RESULTS_MAX_ENTRIES
from mcp_troupe.actors.registry_builtins import BuiltinTools
from mcp_troupe.actors.registry_gate import ApprovalAbandoned as _ApprovalAbandoned
from mcp_troupe.actors.registry_gate import ApprovalDecided as _ApprovalDecided
from mcp_troupe.actors.registry_gate import ApprovalGate
from mcp_troupe.actors.registry_messages import (
    CallTool,
    CancelToolCall,
    GetStatus,
    ListTools,
    Restart,
    SearchTools,
    Shutdown,
    Start,
    Stop,
    StoreResult,
    WhenSettled,
    new_result_uri,
    render_reply,
    split_call_reply,
)
from mcp_troupe.actors.registry_records import SUPERVISOR_RESTARTS as SUPERVISOR_RESTARTS
from mcp_troupe.actors.registry_records import Route as _Route
from mcp_troupe.actors.registry_records import ServerPart as _ServerPart
from mcp_troupe.actors.registry_records import ServerRecord as _Server
from mcp_troupe.actors.registry_records import SettleWaiters, corrected_status
from mcp_troupe.actors.registry_records import complete_when_all as _complete_when_all
from mcp_troupe.actors.registry_records import not_ready as _not_ready
from mcp_troupe.actors.registry_records import same_listing as _same_listing
from mcp_troupe.actors.registry_records import unknown_tool as _unknown_tool
from mcp_troupe.actors.registry_search import ToolSearch
from mcp_troupe.actors.session import CallRequest, CancelCall
from mcp_troupe.actors.stop_wave import StopWave
from mcp_troupe.actors.supervision import ChildFailed, Parent, Supervised
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
from mcp_troupe.approval import Approver
from mcp_troupe.builtin_tools import (
    BUILTIN_NAMES,
    BUILTIN_SERVER,
    BUILTIN_TOOLS,
    SEARCH_SPEC,
    SEARCH_TOOL,
)
from mcp_troupe.config import ServerConfig, TroupeConfig
from mcp_troupe.errors import (
    CallCancelled,
    ConnectionLost,
    ReviewStoreError,
    ServerNotReady,
    TroupeBroken,
    TroupeClosed,
    TroupeError,
    UnknownServer,
)
from mcp_troupe.policy.bounds import CatalogLimits, catalog_problem
from mcp_troupe.policy.catalog import ChecksKey, ContentChecks, ToolVerdict, apply_review, evaluate_tool
from mcp_troupe.policy.catalog import prepare as prepare_judging
from mcp_troupe.policy.fingerprint import ApprovalBook
from mcp_troupe.policy.names import NameTable, NameVerdict
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol.mcp import ToolDefinition
from mcp_troupe.review import ReviewStore, review_fingerprint
from mcp_troupe.types import ServerState, ServerStatus, ToolSpec

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
CATALOG_REJECTED = "*"
"""The key in ``ServerStatus.rejected`` that says the whole catalog was rejected (e.g. too many tools)."""
# One ToolSpec per tool of every catalog: built directly, a fifth of the frozen __init__'s cost (issue 18).
_TOOL_SPEC = constructor(ToolSpec)
# The capabilities a server's handshake may offer that the built-in tools reach.
# completions: action=complete of both built-ins needs it (issue 14).
_BUILTIN_CAPABILITIES = frozenset(tool.capability for tool in BUILTIN_TOOLS.values()) | {"completions"}


@dataclass(frozen=True, slots=True)
class _IndexNow:
    """Bring the search index up to date (sent to itself after a change while tool search is active)."""


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
    | _ApprovalAbandoned
    | ChildFailed
    | JudgeMore
    | ToolsListed
    | PrejudgeMore
    | _IndexNow
)


class RegistryActor(Supervised, pykka.ThreadingActor):
    """The tool table and the router; supervises one ServerSupervisor per server.

    ``parent`` hears of this actor's own crash (the facade passes a function that makes every later call
    raise :class:`~mcp_troupe.errors.TroupeBroken`).
    """

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
        parent: Parent | None = None,
        clock: Callable[[], float] = time.monotonic,
        review_store: ReviewStore | None = None,
    ) -> None:
        super().__init__()
        self.parent = parent
        self._clock = clock
        # The operator's decisions on withheld tools, by fingerprint (troupe review); troupe review writes it.
        # Opened when a tool is first withheld (most troupes never withhold one): finding its default path
        # (the environment, the home directory) was a third of this constructor's time.
        self._review_store = review_store
        # Routes the facade may take without asking us (see the module docstring); only we write it.
        self.board = board if board is not None else RouteBoard()
        # Approved definitions, by fingerprint, for the life of the process (rug-pull detection).
        self._approvals = ApprovalBook()
        self.config = config
        self.runtime = runtime
        # The built-in tools' names are reserved too: a server tool called mcp_resources is rejected as a
        # would-be shadow, like one named after any of the agent's own tools.
        self.reserved_names = tuple(dict.fromkeys((*reserved_names, *sorted(BUILTIN_NAMES), SEARCH_TOOL)))
        self._reserved_set = frozenset(self.reserved_names)
        self._supervisor_factory = supervisor_factory or ServerSupervisor.start
        # One record per configured server, in configuration order.
        self._servers: dict[str, _Server] = {
            name: _Server(
                config=server,
                status=ServerStatus(name=name, transport=server.transport, state=ServerState.CONNECTING),
            )
            for name, server in config.servers.items()
        }
        # The table, kept up to date one server at a time (_update_server): qualified name → spec (its route
        # is made from the spec when a call needs it, _route_of), and the naming of every server's accepted
        # tools.
        self._table: dict[str, ToolSpec] = {}
        self._names = NameTable(tuple(config.servers), reserved=self._reserved_set)
        # Numbers the policy passes over big catalogs, so a slice of a superseded pass is dropped.
        self._judging_generation = 0
        # Qualified name → why it was rejected, so calling a rejected tool says so instead of "unknown".
        self._rejected_names: dict[str, str] = {}
        self._settle = SettleWaiters(tuple(self._servers.values()))
        self._is_shut_down = False
        # The capability gate, and the calls waiting for the approver (actors/registry_gate.py).
        self._gate = ApprovalGate(
            config,
            approver=approver,
            approvals=self._approvals,
            runtime=runtime,
            registry=self.actor_ref,
            spec_of=lambda name: self._table[name],
            route_of=self._route_of,
        )
        # The built-in tools' calls and listing, and the store of cut outputs (actors/registry_builtins.py).
        self._builtins = BuiltinTools(config, runtime=runtime, servers=self._servers)
        # The tool-search index over the table (actors/registry_search.py), brought up to date lazily.
        self._tool_search = ToolSearch(
            config,
            table=lambda: self._table,
            entries_of=self._entries_of,
            is_ready=self._is_server_ready,
            schedule=lambda: self.actor_ref.tell(_IndexNow()),
        )

    @property
    def _review(self) -> ReviewStore:
        """The review store, opened on first use."""
        if self._review_store is None:
            self._review_store = ReviewStore()
        return self._review_store

    @property
    def approver(self) -> Approver | None:
        """The approver asked about calls that need approval (held by the gate)."""
        return self._gate.approver

    def on_start(self) -> None:
        if self._servers:
            prepare_judging()  # the scan's model is read while the servers start, not in the first pass
        for name, record in self._servers.items():
            server = record.config
            reason = self._skip_reason(server)
            if reason is not None:
                record.status = ServerStatus(
                    name=name, transport=server.transport, state=ServerState.SKIPPED, last_error=reason
                )
                log.info("server %s: skipped (%s)", name, reason)
                continue
            self._start_supervisor(record)

    def _start_supervisor(self, record: _Server, **carried: Any) -> None:
        ref = self.runtime.track(
            self._supervisor_factory(
                config=record.config,
                reconnect=self.config.reconnect,
                registry=self.actor_ref,
                runtime=self.runtime,
                **carried,
            )
        )
        record.supervisor = ref
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
                if self._gate.is_waiting(msg.reply_to):
                    self._gate.cancel(msg.reply_to, msg.reason)
                    return
                if msg.name in BUILTIN_NAMES:
                    # Failing the future cancels the built-in's task, which cancels its request in flight.
                    _fail(msg.reply_to, CallCancelled(BUILTIN_SERVER, None, msg.name))
                    return
                spec = self._table.get(msg.name)
                session = self._servers[spec.server].session if spec is not None else None
                if session is not None:
                    safe_tell(session, CancelCall(msg.reply_to, msg.reason))
            case SearchTools():
                msg.reply_to.set_result(self._tool_search.search(msg.query, msg.limit))
            case ListTools():
                msg.reply_to.set_result(self._list_tools(msg.ready_only))
            case GetStatus():
                msg.reply_to.set_result(self._status_list())
            case WhenSettled():
                self._settle.add(msg.reply_to)
            case StatusChanged(status=status):
                self._on_status(status)
            case ServerUp():
                self._on_server_up(msg)
                if msg.status is not None:  # the ready status, sent along (issue 18: one message less)
                    self._on_status(msg.status)
            case ServerCatalog():
                if not self._is_shut_down and msg.incarnation == self._servers[msg.server].incarnation:
                    self._on_catalog(msg)
            case ServerDown():
                self._on_server_down(msg)
            case Restart() | Stop() | Start():
                self._on_operator(msg)
            case Shutdown():
                self._on_shutdown(msg.reply_to)
            case _ApprovalDecided():
                self._on_approval_decided(msg)
            case _ApprovalAbandoned():
                if self._gate.is_waiting(msg.reply_to):
                    self._gate.cancel(msg.reply_to, "the caller cancelled the call")
            case StoreResult():
                if not self._is_shut_down:
                    self._builtins.store(msg.uri, msg.text)
            case ChildFailed():
                self._on_supervisor_failed(msg)
            case JudgeMore():
                self._judge_more(msg)
            case ToolsListed():
                self._on_tools_listed(msg)
            case PrejudgeMore():
                self._prejudge_more(msg)
            case _IndexNow():
                self._tool_search.on_index_now()
            case _:
                assert_never(msg)

    # ---- the call path -------------------------------------------------------------------------------------

    def _on_call(self, msg: CallTool) -> None:
        if msg.name == SEARCH_TOOL:
            if self._is_shut_down:
                _fail(msg.reply_to, TroupeClosed("the troupe is stopped"))
                return
            self._tool_search.on_call(msg)
            return
        if msg.name in BUILTIN_NAMES:
            if self._is_shut_down:
                _fail(msg.reply_to, TroupeClosed("the troupe is stopped"))
                return
            self._builtins.on_call(msg)
            return
        route = self._route_of(msg.name)
        if route is None:
            _fail(msg.reply_to, self._unknown_tool(msg.name))
            return
        record = self._servers[route.server]
        if record.session is None:
            _fail(msg.reply_to, _not_ready(record))
            return
        if self._gate.is_allowed(msg, route):
            if record.lane is not None:
                # Cleared with nothing to ask or record: the same verdict holds until the board is emptied.
                self.board.routes[msg.name] = FastRoute(
                    record.lane, route.original_name, (self._table[msg.name].output_schema, route.server)
                )
            self._forward(msg, route, record.session)

    def _route_of(self, name: str) -> _Route | None:
        """Where a call of the qualified ``name`` goes now (None: no tool of the table has that name)."""
        spec = self._table.get(name)
        if spec is None:
            return None
        part = self._servers[spec.server].part
        assert part is not None  # the table holds only tools of servers with a catalog
        return _Route(spec.server, spec.original_name, part.verdicts[spec.original_name].fingerprint)

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

    # ---- approval (the gate: actors/registry_gate.py) -----------------------------------------------------

    def _on_approval_decided(self, msg: _ApprovalDecided) -> None:
        call = msg.call
        route = self._gate.decided(msg)
        if route is None:
            return
        if msg.remember:
            self._approvals.approve(route.server, route.original_name, route.fingerprint)
            self._update_server(route.server)  # lifts a quarantine
        log.info("call to %s approved (%s)", call.name, msg.why)
        record = self._servers[route.server]
        if record.session is None:
            _fail(call.reply_to, _not_ready(record))
            return
        self._forward(call, route, record.session)

    def _unknown_tool(self, name: str) -> TroupeError:
        if self._is_shut_down:
            return TroupeClosed("the troupe is stopped")
        return _unknown_tool(name, self._rejected_names, self._servers.values(), self._table)

    # ---- the table -----------------------------------------------------------------------------------------

    def _on_status(self, status: ServerStatus) -> None:
        record = self._servers.get(status.name)
        if record is not None and status.incarnation >= record.status.incarnation:
            record.status = status
            self._settle.release()

    def _on_server_up(self, msg: ServerUp) -> None:
        record = self._servers[msg.server]
        if self._is_shut_down or msg.incarnation < record.incarnation:
            return
        record.incarnation = msg.incarnation
        record.session, record.session_incarnation = msg.session, msg.incarnation
        record.lane = msg.lane
        record.catalog = msg.catalog
        if msg.info is not None:
            record.offers = frozenset(
                capability for capability in _BUILTIN_CAPABILITIES if msg.info.offers(capability)
            )
        self._update_server(msg.server)

    def _on_catalog(self, msg: ServerCatalog) -> None:
        record = self._servers[msg.server]
        previous, record.catalog = record.catalog, msg
        if previous is None or not _same_listing(previous, msg):
            self._update_server(msg.server)
            return
        # A refresh that changed nothing (a list_changed storm, a server announcing more than it changes):
        # the table, the verdicts and the cleared routes all stand.
        if record.verdicts_for is previous:
            record.verdicts_for = msg
        if record.judging is not None and record.judging.catalog is previous:
            record.judging.catalog = msg

    def _on_server_down(self, msg: ServerDown) -> None:
        record = self._servers[msg.server]
        if msg.incarnation < record.incarnation:
            return
        if record.session is not None and record.session_incarnation <= msg.incarnation:
            record.session = record.lane = None
            self.board.routes = {}
        early = record.prejudging
        if early is not None and early.incarnation <= msg.incarnation:
            record.prejudging = None  # that listing's catalog will never come
        if msg.unregister:
            record.offers = None
        if msg.unregister and record.catalog is not None:
            record.catalog = None
            self._update_server(msg.server)

    def _tool_verdicts(self, record: _Server, catalog: ServerCatalog) -> dict[str, ToolVerdict]:
        """Policy's verdict on each tool of ``catalog`` judged so far, computed once per catalog that arrives.

        A new catalog starts a pass (:class:`~mcp_troupe.actors.judging.CatalogJudging`) whose first slice
        runs here; a catalog judged within it is complete at once, as before. A bigger one is judged on in
        later slices (:meth:`_judge_more`), and until then only the verdicts of its first
        ``record.judging.position`` tools exist: the rest are not in the table, so not callable.
        """
        if record.verdicts_for is catalog:
            record.judging = None  # a pass over any other catalog is moot now
            return record.verdicts
        job = record.judging
        if job is not None and job.catalog is catalog:
            return job.verdicts
        cached = record.verdicts_for
        early = record.prejudging
        if early is not None and early.incarnation > catalog.incarnation:
            early = None  # a newer incarnation's listing: not this catalog's
        if early is not None:
            early.is_frozen = True  # the catalog's pass judges what is still pending
        self._judging_generation += 1
        job = record.judging = CatalogJudging(
            catalog=catalog,
            generation=self._judging_generation,
            # A definition the session passed on unchanged is the same object as before: its verdict stands.
            previous=record.verdicts if cached is not None else {},
            previous_tools={tool.name: tool for tool in cached.tools} if cached is not None else {},
            # Checks of definitions seen are reused (also those of a pass this catalog cuts short).
            checks={
                **record.content_checks,
                **(job.checks if job is not None else {}),
                **(early.checks if early is not None else {}),
            },
        )
        job.judge(lambda tool: self._evaluate(record, job, tool), budget=SLICE_SECONDS, is_idle=self._is_idle)
        if job.is_done:
            return self._finish_judging(record, job)
        log.info(
            "server %s: judging its %d tools in slices (%d judged so far)",
            record.config.name, len(catalog.tools), job.position,
        )  # fmt: skip
        self.actor_ref.tell(JudgeMore(record.config.name, job.generation))
        return job.verdicts

    def _evaluate(self, record: _Server, job: CatalogJudging, tool: ToolDefinition) -> ToolVerdict:
        """One tool's verdict under ``record``'s configuration, logged when it is not a plain yes."""
        config = record.config
        early = record.prejudging
        verdict = early.take(tool) if early is not None else None
        if verdict is None:
            verdict = self._verdict_of(record, tool, job.checks)
        if verdict.rejected is not None:
            log.warning("server %s: tool %r rejected: %s", config.name, tool.name, verdict.rejected)
        for warning in verdict.warnings:
            log.warning("server %s: tool %r registered despite: %s", config.name, tool.name, warning)
        return verdict

    def _verdict_of(
        self, record: _Server, tool: ToolDefinition, checks: dict[ChecksKey, ContentChecks]
    ) -> ToolVerdict:
        config = record.config
        return evaluate_tool(
            tool,
            trust=config.trust_level,
            include=config.tools_include,
            exclude=config.tools_exclude,
            security_policy=self.config.security_policy,
            cache=checks,
            limits=self._limits(record),
        )

    def _on_tools_listed(self, msg: ToolsListed) -> None:
        """A page of a first listing: judge it while the listing goes on; publish nothing (prejudging.py)."""
        record = self._servers.get(msg.server)
        if record is None or self._is_shut_down or msg.incarnation <= record.incarnation:
            return  # an incarnation that is up already has its catalog; an older one's pages are moot
        early = record.prejudging
        if early is not None and early.incarnation > msg.incarnation:
            return  # a newer incarnation is listing already
        if msg.is_first or early is None or early.incarnation != msg.incarnation:
            if not msg.is_first:
                return  # the head of this listing was not seen: judge nothing of it
            self._judging_generation += 1
            early = record.prejudging = Prejudging(
                incarnation=msg.incarnation,
                generation=self._judging_generation,
                max_tools=self._limits(record).max_tools,
                checks=dict(record.content_checks),
            )
        if early.is_frozen or not early.add(msg.tools):
            return
        if not early.is_scheduled:
            early.is_scheduled = True
            self.actor_ref.tell(PrejudgeMore(msg.server, early.generation))

    def _prejudge_more(self, msg: PrejudgeMore) -> None:
        """Judge a slice of a listing's pending pages (the pages that arrived meanwhile queue behind it)."""
        record = self._servers.get(msg.server)
        early = record.prejudging if record is not None else None
        if record is None or early is None or early.generation != msg.generation or self._is_shut_down:
            return
        early.is_scheduled = False
        early.judge(lambda tool: self._verdict_of(record, tool, early.checks), budget=SLICE_SECONDS)
        if early.has_pending:
            early.is_scheduled = True
            self.actor_ref.tell(PrejudgeMore(msg.server, early.generation))

    def _is_idle(self) -> bool:
        """Whether no message waits in the mailbox (a slice of judging may then go on, actors/judging.py)."""
        return self.actor_inbox.empty()

    def _finish_judging(self, record: _Server, job: CatalogJudging) -> dict[str, ToolVerdict]:
        record.verdicts_for, record.verdicts = job.catalog, job.verdicts
        record.content_checks = job.kept_checks()
        record.judging = None
        early = record.prejudging
        if early is not None and early.incarnation <= job.catalog.incarnation:
            record.prejudging = None  # its verdicts are in this pass's now (or were of a stale listing)
        return job.verdicts

    def _judge_more(self, msg: JudgeMore) -> None:
        """Judge the next slice of a big catalog and publish its tools; then answer what arrived meanwhile."""
        record = self._servers.get(msg.server)
        job = record.judging if record is not None else None
        if record is None or job is None or job.generation != msg.generation or self._is_shut_down:
            return  # a newer catalog, a lost server or the shutdown ended this pass
        if record.part is None or record.catalog is not job.catalog:
            record.judging = None
            return
        judged = job.judge(
            lambda tool: self._evaluate(record, job, tool), budget=SLICE_SECONDS, is_idle=self._is_idle
        )
        if job.is_done:
            self._finish_judging(record, job)
        self._extend_server(msg.server, judged, job.verdicts)
        if job.is_done:
            log.info("server %s: all %d tools judged", msg.server, len(job.catalog.tools))
            self._settle.release()
        else:
            self.actor_ref.tell(JudgeMore(msg.server, job.generation))

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
        record = self._servers[server]
        catalog = record.catalog
        if catalog is None:
            record.judging = None  # the pass over a catalog that is gone ends
        record.part = part = self._server_part(record, catalog) if catalog is not None else None
        touched = self._names.set_server(server, part.accepted if part is not None else None)
        record.name_rejected = {}
        for qualified in touched:
            self._table.pop(qualified, None)
            self._rejected_names.pop(qualified, None)
        affected = {server: None}
        for qualified in touched:
            for verdict in self._names.verdicts_of(qualified):
                self._register(verdict)
                affected[verdict.server] = None
        self._tool_search.reindex(affected)
        self.board.routes = {}

    def _limits(self, record: _Server) -> CatalogLimits:
        limits = record.config.limits
        return limits if limits is not None else self.config.limits

    def _server_part(self, record: _Server, catalog: ServerCatalog) -> _ServerPart:
        too_many = catalog_problem(len(catalog.tools), self._limits(record))
        if too_many is not None:
            # Rejected whole, unjudged: judging the catalog is the work its size attacks (issue 15).
            log.warning("server %s: catalog rejected: %s", record.config.name, too_many)
            record.prejudging = None
            return _ServerPart(policy_rejected={CATALOG_REJECTED: too_many})
        part = _ServerPart(policy_rejected=dict(catalog.rejected))
        tool_verdicts = self._tool_verdicts(record, catalog)
        job = record.judging
        # While a big catalog is judged in slices, only its judged head takes part (actors/judging.py).
        judged = catalog.tools if job is None or job.catalog is not catalog else catalog.tools[: job.position]
        for tool in judged:
            self._add_to_part(record, part, tool, tool_verdicts[tool.name])
        return part

    def _add_to_part(
        self, record: _Server, part: _ServerPart, tool: ToolDefinition, verdict: ToolVerdict
    ) -> None:
        if verdict.withheld is not None:
            verdict = self._reviewed(record.config.name, tool, verdict)
        if verdict.withheld is not None:
            # Kept from the model like a rejected tool, until an operator releases it.
            reason = f"withheld until an operator reviews it (troupe review): {verdict.withheld}"
            part.policy_rejected[tool.name] = reason
            part.withheld[tool.name] = reason
            return
        if verdict.rejected is not None:
            # Rejected tools take no part in naming: a filtered-out tool must not knock out its twin.
            part.policy_rejected[tool.name] = verdict.rejected
            return
        if tool.name not in part.definitions:
            part.definitions[tool.name] = tool
            part.verdicts[tool.name] = verdict
        part.accepted.append(tool.name)

    def _extend_server(
        self, server: str, judged: Sequence[ToolDefinition], verdicts: Mapping[str, ToolVerdict]
    ) -> None:
        """Publish the tools of one more judged slice of ``server``'s catalog (``verdicts`` by tool name).

        Equal to :meth:`_update_server` over the longer judged head, at the cost of the slice alone: only
        the qualified names the slice holds are re-judged (a repeat of an earlier name, or a collision with
        another server, re-judges that name's other holders too) and re-indexed.
        """
        record = self._servers[server]
        part = record.part
        assert part is not None  # _judge_more checked it
        before = len(part.accepted)
        for tool in judged:
            self._add_to_part(record, part, tool, verdicts[tool.name])
        touched = self._names.extend_server(server, part.accepted[before:])
        for qualified in touched:
            self._table.pop(qualified, None)
            self._rejected_names.pop(qualified, None)
        others: dict[str, None] = {}
        for qualified in touched:
            for verdict in self._names.verdicts_of(qualified):
                self._register(verdict)
                if verdict.server != server:
                    others[verdict.server] = None
        others[server] = None
        self._tool_search.reindex(others)
        self.board.routes = {}

    def _reviewed(self, server: str, tool: ToolDefinition, verdict: ToolVerdict) -> ToolVerdict:
        """A withheld verdict after the operator's review of this very definition; recorded when new."""
        key = review_fingerprint(verdict.fingerprint, tool.title)
        try:
            decision = self._review.decision(server, tool.name, key)
            if decision is None and self._review.record_pending(
                server, tool.name, key, verdict.findings, tool.description
            ):
                log.warning(
                    "server %s: tool %r withheld until an operator reviews it (troupe review): %s",
                    server, tool.name, verdict.withheld,
                )  # fmt: skip
        except ReviewStoreError as exc:
            # Fail closed: without the store nobody can have released it.
            log.warning("server %s: tool %r stays withheld: %s", server, tool.name, exc)
            return verdict
        return apply_review(verdict, decision)

    def _register(self, name: NameVerdict) -> None:
        """Enter one tool in the table under its qualified name, or record why naming rejected it."""
        server, qualified = name.server, name.qualified
        record = self._servers[server]
        reason = name.rejected_reason
        if reason is not None:
            record.name_rejected[name.tool] = reason
            self._rejected_names.setdefault(qualified, reason)
            log.warning("server %s: tool %r rejected: %s", server, name.tool, reason)
            return
        record.name_rejected.pop(name.tool, None)
        part = record.part
        assert part is not None  # the NameTable holds only tools of servers with a catalog
        tool, verdict = part.definitions[name.tool], part.verdicts[name.tool]
        is_quarantined = self._approvals.status(server, tool.name, verdict.fingerprint) == "changed"
        if is_quarantined:
            log.warning(
                "server %s: tool %r changed since it was approved; quarantined until approved again",
                server, tool.name,
            )  # fmt: skip
        self._table[qualified] = _TOOL_SPEC(
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
            icons=tool.icons,
            meta=tool.meta,
        )

    def _rejected_of(self, server: str) -> dict[str, str]:
        record = self._servers.get(server)
        if record is None or record.part is None:
            return {}
        return {**record.part.policy_rejected, **record.name_rejected}

    def _entries_of(self, server: str) -> list[ToolSpec]:
        """``server``'s current table entries, in listing order (what tool search indexes of it)."""
        entries = []
        for tool_name, qualified in self._names.names_of(server).items():
            spec = self._table.get(qualified)
            if spec is None or spec.server != server or spec.original_name != tool_name:
                continue
            entries.append(spec)
        return entries

    def _is_server_ready(self, server: str) -> bool:
        """Whether calls can reach ``server`` now (a name not configured never can)."""
        record = self._servers.get(server)
        return record is not None and record.is_ready

    def _list_tools(self, ready_only: bool) -> list[ToolSpec]:
        result = []
        is_searching = self._tool_search.is_active()
        for server, record in self._servers.items():  # configuration order, tools in listing order
            if record.part is None:
                continue
            if is_searching and not record.config.always_load:
                continue  # behind mcp_tool_search
            is_ready = record.is_ready
            if ready_only and not is_ready:
                continue
            for tool_name, qualified in self._names.names_of(server).items():
                spec = self._table.get(qualified)
                if spec is None or spec.server != server or spec.original_name != tool_name:
                    continue
                result.append(spec if is_ready else replace(spec, ready=False))
        result.extend(self._builtins.specs(ready_only))
        if is_searching:
            is_ready = any(record.is_ready for record in self._servers.values())
            if is_ready or not ready_only:
                result.append(SEARCH_SPEC if is_ready else replace(SEARCH_SPEC, ready=False))
        return result

    def _status_list(self) -> list[ServerStatus]:
        counts: dict[str, int] = {}
        for spec in self._table.values():
            counts[spec.server] = counts.get(spec.server, 0) + 1
        return [
            corrected_status(
                record,
                replace(
                    record.status,
                    tool_count=counts.get(name, 0),
                    rejected=self._rejected_of(name),
                    unjudged=record.judging.pending if record.judging is not None else 0,
                ),
            )
            for name, record in self._servers.items()
        ]

    # ---- supervision -------------------------------------------------------------------------------------

    def _on_supervisor_failed(self, msg: ChildFailed) -> None:
        """A server's supervisor crashed (its children went with it): start a new one, or give up."""
        record = self._servers.get(msg.server)
        if (
            record is None
            or self._is_shut_down
            or record.supervisor is None
            or record.supervisor.actor_urn != msg.child.actor_urn
        ):
            return
        record.supervisor = None
        record.session = record.lane = None
        self.board.routes = {}
        incarnation = max(msg.incarnation, record.status.incarnation)
        restarts = record.restart_intensity()
        if not restarts.allow(self._clock()):
            reason = f"{msg.reason}; gave up after {restarts.describe()}"
            log.error("server %s: %s", msg.server, reason)
            record.status = replace(
                record.status, state=ServerState.FAILED, last_error=reason, pid=None, session_id=None
            )
            record.offers = None
            if record.catalog is not None:
                record.catalog = None
                self._update_server(msg.server)
            self.runtime.emit("failed", msg.server, incarnation, reason)
            self._settle.release()
            return
        log.warning("server %s: %s; starting a new supervisor", msg.server, msg.reason)
        record.status = replace(
            record.status, state=ServerState.CONNECTING, last_error=msg.reason, pid=None, session_id=None
        )
        self.runtime.emit("crashed", msg.server, incarnation, msg.reason)
        self._start_supervisor(record, incarnation=incarnation, last_error=msg.reason)

    def crash_error(self, error: BaseException) -> BaseException:
        """What the callers waiting on the registry get when it crashes."""
        return TroupeBroken(f"the troupe's registry crashed: {error!r}; stop this Troupe and start a new one")

    def on_crash(self, error: BaseException) -> None:
        """A bug in the registry: no route may outlive it, no waiter may hang, no server is left running."""
        self.board.routes = {}
        broken = self.crash_error(error)
        self._gate.fail_waiting(lambda: broken)
        self._settle.fail_all(broken)
        for record in self._servers.values():
            if record.supervisor is not None:
                safe_tell(record.supervisor, StopServer())

    # ---- operator actions and shutdown ---------------------------------------------------------------------

    def _on_operator(self, msg: Restart | Stop | Start) -> None:
        if self._is_shut_down:
            _fail(msg.reply_to, TroupeClosed("the troupe is stopped"))
            return
        record = self._servers.get(msg.server)
        # Calls go through us again until the server is back; its lane is about to close anyway.
        self.board.routes = {}
        if record is None:
            _fail(msg.reply_to, UnknownServer(msg.server, tuple(self.config.servers)))
            return
        supervisor = record.supervisor
        if supervisor is None:  # configured but skipped (disabled)
            _fail(
                msg.reply_to, ServerNotReady(msg.server, str(record.status.state), record.status.last_error)
            )
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
        self._table, self._rejected_names = {}, {}
        self._names = NameTable(tuple(self.config.servers), reserved=self._reserved_set)
        for record in self._servers.values():
            record.session = record.lane = record.catalog = record.part = record.offers = None
            record.name_rejected = {}
            record.judging = record.prejudging = None
        self._tool_search.reset()
        self._builtins.clear()
        # Every supervisor is told, but at most a window of them at once (actors/stop_wave.py: thousands
        # woken together starve the I/O loop that carries the closes); reply_to completes when all closed.
        supervisors = [
            record.supervisor for record in self._servers.values() if record.supervisor is not None
        ]
        futures: list[Future[None]] = [Future() for _ in supervisors]

        def send(index: int, accepted: Future[None]) -> bool:
            if safe_tell(supervisors[index], StopServer(futures[index], accepted)):
                return True
            _complete(futures[index], None)  # already gone: nothing left to close
            return False

        _complete_when_all(futures, reply_to)
        StopWave(len(supervisors), send).start()
        self._gate.fail_waiting(
            lambda: TroupeClosed("the troupe was stopped while the call waited for approval")
        )
        self._settle.fail_all(TroupeClosed("the troupe was stopped"))
