"""SessionActor: one per connection (incarnation). Owns request ids, pending replies, the negotiated revision,
the server's capabilities, the tool catalog's paging and refreshes, and the call deadlines.

Flow (DESIGN §3): ``Connect`` → transport ``Open`` → ``Opened`` → ``initialize`` → version check →
``notifications/initialized`` → ``tools/list`` page by page → ``SessionReady`` to the supervisor. Calls
arrive as ``CallRequest`` with a ``reply_to`` future, which this actor completes with the raw result (a
mapping) or an error from :mod:`mcp_troupe.errors`. Nothing here blocks: the wire is reached through the
transport's :class:`Outbound`, which posts writes to the I/O loop.

Over stdio the session shares its connection's :class:`~mcp_troupe.actors.lane.CallLane`: one id counter
for both, the lane's own calls (the fast path of ``tools/call``) pending in the lane, and everything else the
lane reads handed here, decoded, as ``Received``. A re-listing reuses the definitions of unchanged pages and
tools (the same objects), so that nothing downstream checks them again.

The other catalogs (resources, resource templates, prompts) are listed on demand, by ``ListAll``: all pages,
cached for the life of this session (a reconnect is a new session, so a fresh cache), shared by every
``ListAll`` that arrives while one listing is in flight, and dropped by the matching ``list_changed``.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Protocol, assert_never

import pykka

from mcp_troupe._futures import complete as _complete
from mcp_troupe._futures import fail as _fail
from mcp_troupe._version import __version__
from mcp_troupe.actors.deadlines import Deadlines
from mcp_troupe.actors.lane import CallLane, Received
from mcp_troupe.actors.loop import Runtime, TaskHandle, safe_tell
from mcp_troupe.actors.transport import Open
from mcp_troupe.errors import (
    CallCancelled,
    CallTimedOut,
    ConnectFailed,
    ConnectionLost,
    MalformedMessage,
    ProtocolError,
    RemoteError,
    TroupeError,
)
from mcp_troupe.protocol import callbacks as cb
from mcp_troupe.protocol import jsonrpc
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol import tasks as task_proto
from mcp_troupe.protocol.jsonrpc import ErrorObject, ErrorResponse, Notification, Request, RequestId, Response
from mcp_troupe.protocol.mcp import CATALOG_ITEM_KEYS, InitializeResult, PageGuard, ToolDefinition
from mcp_troupe.protocol.versions import LATEST, Revision, negotiate

__all__ = [
    "CallRequest",
    "CancelCall",
    "CatalogChanged",
    "Close",
    "Connect",
    "Inbound",
    "ListAll",
    "OpenFailed",
    "Opened",
    "Outbound",
    "RequestFailed",
    "SessionActor",
    "SessionExpired",
    "SessionFailed",
    "SessionLost",
    "SessionReady",
    "SessionRenewed",
    "TransportDown",
]

log = logging.getLogger("mcp_troupe.session")

CLIENT_NAME = "mcp-troupe"
# A peer that keeps writing garbage is broken, not chatty: after this many unreadable frames in a row the
# connection is failed (one good frame resets the count).
MAX_CONSECUTIVE_BAD_FRAMES = 100
# Ids of calls we gave up on, remembered so that their late responses are dropped quietly.
RECENTLY_ABANDONED = 1024
# A catalog listing restarts when its list_changed arrives mid-listing; a server that changes its list on
# every page would keep us listing forever, so after this many restarts the listing fails instead.
MAX_LISTING_RESTARTS = 10
# Which cached catalogs each change notification invalidates (templates belong to the resources capability).
CATALOGS_CHANGED_BY: Mapping[str, tuple[str, ...]] = {
    proto.RESOURCES_LIST_CHANGED: (proto.RESOURCES_LIST, proto.RESOURCE_TEMPLATES_LIST),
    proto.PROMPTS_LIST_CHANGED: (proto.PROMPTS_LIST,),
}


class Outbound(Protocol):
    """The write side of a transport, callable from the session's thread without blocking.

    Calls are applied in order: a ``set_protocol_version`` affects every frame sent after it.
    """

    def send(self, frame: bytes) -> None:
        """Queue one frame for the wire (the transport adds framing)."""

    def set_protocol_version(self, version: str) -> None:
        """The handshake settled on ``version`` (HTTP sends it as ``MCP-Protocol-Version`` from now on)."""

    @property
    def session_id(self) -> str | None:
        """The transport-level session id the server issued (HTTP ``Mcp-Session-Id``), if any."""


# ---- messages this actor handles -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Connect:
    """Begin the connection: open the transport, then run the handshake."""

    transport: pykka.ActorRef[Any]


@dataclass(frozen=True, slots=True)
class Opened:
    """The transport is up; ``outbound`` writes frames. (transport → session)"""

    incarnation: int
    outbound: Outbound
    pid: int | None = None
    session_id: str | None = None
    # stdio: the connection's fast path for tools/call; its ids are this session's ids from now on.
    lane: CallLane | None = None


@dataclass(frozen=True, slots=True)
class OpenFailed:
    """The transport could not open. (transport → session)"""

    incarnation: int
    error: TroupeError


@dataclass(frozen=True, slots=True)
class Inbound:
    """Frames read from the wire, in order. (transport → session)"""

    incarnation: int
    frames: list[bytes]


@dataclass(frozen=True, slots=True)
class TransportDown:
    """The transport died: the process exited, a pipe broke, a frame was too large. (transport → session)"""

    incarnation: int
    reason: str
    stderr_tail: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RequestFailed:
    """The transport could not deliver request ``request_id`` (HTTP 4xx/5xx): fail that call only."""

    incarnation: int
    request_id: RequestId
    error: TroupeError


@dataclass(frozen=True, slots=True)
class SessionExpired:
    """The server no longer knows our session (HTTP 404 on a request that carried a session id).

    ``frames`` are the undelivered frames. The transport has already dropped the old session id.
    """

    incarnation: int
    frames: list[bytes]


@dataclass(frozen=True, slots=True)
class CallRequest:
    """Send ``method`` with ``params``; complete ``reply_to`` with the raw result or an error.

    With a ``context`` (anything but ``None``), ``reply_to`` gets ``(raw result, context)`` instead: the
    sender's own data travels with the answer, so whoever renders it needs no lookup of its own.
    """

    method: str
    params: Mapping[str, Any] | None
    reply_to: Future[Any]
    timeout: float | None = None
    context: Any = None


@dataclass(frozen=True, slots=True)
class ListAll:
    """Complete ``reply_to`` with every item of the listing ``method``, all pages.

    ``method`` is ``resources/list``, ``resources/templates/list`` or ``prompts/list``. The answer comes from
    this session's cache when it has one; otherwise one listing runs, shared by every ``ListAll`` for the same
    method that arrives before it ends. Errors: ``ConnectionLost``, ``CallTimedOut`` (one page),
    ``RemoteError``, ``ProtocolError`` (a malformed page, a pagination loop).
    """

    method: str
    reply_to: Future[list[dict[str, Any]]]


@dataclass(frozen=True, slots=True)
class CancelCall:
    """The caller gave up on the call whose future is ``reply_to``; tell the server."""

    reply_to: Future[Any]
    reason: str = "cancelled by the client"


@dataclass(frozen=True, slots=True)
class Close:
    """Fail every pending call and stop; the supervisor closes the transport."""

    reason: str


@dataclass(frozen=True, slots=True)
class _CheckDeadlines:
    pass


@dataclass(frozen=True, slots=True)
class _CallerGaveUp:
    request_id: RequestId


# host callbacks (issue 14): the host answered a server's request; the roots changed.
@dataclass(frozen=True, slots=True)
class _ServerRequestAnswered:
    request_id: RequestId
    frame: bytes


@dataclass(frozen=True, slots=True)
class _RootsChanged:
    pass


# tasks (2025-11-25 core, issue 14): time to ask tasks/get again for this task.
@dataclass(frozen=True, slots=True)
class _PollTask:
    task_id: str


SessionMessage = (
    Connect
    | Opened
    | OpenFailed
    | Inbound
    | Received
    | TransportDown
    | RequestFailed
    | SessionExpired
    | CallRequest
    | ListAll
    | CancelCall
    | Close
    | _CheckDeadlines
    | _CallerGaveUp
    | _ServerRequestAnswered
    | _RootsChanged
    | _PollTask
)


# ---- reports this actor sends to its supervisor ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SessionReady:
    """The handshake and the first full tool listing succeeded."""

    incarnation: int
    session: pykka.ActorRef[Any]
    info: InitializeResult
    tools: tuple[ToolDefinition, ...]
    rejected: tuple[tuple[str, str], ...]
    pid: int | None
    session_id: str | None
    # Open for calls from now on (stdio); the registry publishes it for tools the gate cleared.
    lane: CallLane | None = None


@dataclass(frozen=True, slots=True)
class CatalogChanged:
    """A refresh after ``list_changed`` produced a new full tool listing."""

    incarnation: int
    tools: tuple[ToolDefinition, ...]
    rejected: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class SessionFailed:
    """The connection never became ready."""

    incarnation: int
    error: TroupeError
    stderr_tail: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SessionRenewed:
    """An expired HTTP session was replaced by a new one (``session_id`` is the new id)."""

    incarnation: int
    session_id: str | None


@dataclass(frozen=True, slots=True)
class SessionLost:
    """A ready connection died."""

    incarnation: int
    reason: str
    stderr_tail: tuple[str, ...] = ()


# ---- internal bookkeeping ----------------------------------------------------------------------------------


@dataclass(slots=True)
class _Pending:
    method: str
    deadline: float | None
    timeout: float | None
    reply_to: Future[Any] | None = None
    on_result: Callable[[Mapping[str, Any]], None] | None = None
    on_error: Callable[[TroupeError], None] | None = None
    is_retried: bool = False
    context: Any = None
    # host callbacks: the tool of a tools/call (for progress), the hard cap on its deadline (max_call_time)
    tool: str | None = None
    hard_deadline: float | None = None
    is_progressing: bool = False
    started: float = 0.0


@dataclass(slots=True)
class _TaskCall:
    """A tools/call sent as a task: created, polled with tasks/get, its result fetched with tasks/result."""

    reply_to: Future[Any]
    context: Any
    tool: str
    deadline: float
    timeout: float
    task_id: str | None = None
    is_fetching: bool = False
    is_done: bool = False
    last_seen: tuple[str, str | None] | None = None
    # spec: 2025-11-25 progress — for a task the token stays valid until the task is terminal.
    progress_token: RequestId | None = None


@dataclass(slots=True)
class _CatalogListing:
    """One on-demand listing in flight, with the callers waiting for it."""

    guard: PageGuard
    items: list[dict[str, Any]]
    waiters: list[Future[list[dict[str, Any]]]]
    restarts: int = 0
    # A list_changed arrived meanwhile: the pages read so far may be stale; start again from the first.
    is_dirty: bool = False
    # HTTP session expiry dropped its continuation request: nothing is in flight until the new session.
    is_stalled: bool = False


class SessionActor(pykka.ThreadingActor):
    """One connection's protocol state."""

    use_daemon_thread = True

    def __init__(
        self,
        *,
        server: str,
        incarnation: int,
        supervisor: pykka.ActorRef[Any],
        runtime: Runtime,
        call_timeout: float,
        handshake_timeout: float,
    ) -> None:
        super().__init__()
        self.server = server
        self.incarnation = incarnation
        self.supervisor = supervisor
        self.runtime = runtime
        self.call_timeout = call_timeout
        self.handshake_timeout = handshake_timeout

        self._transport: pykka.ActorRef[Any] | None = None
        self._outbound: Outbound | None = None
        self._pid: int | None = None
        self._session_id: str | None = None
        self._revision: Revision | None = None
        self._info: InitializeResult | None = None
        self._is_ready = False
        self._is_closed = False

        self._ids: Iterator[int] = itertools.count(1)
        self._lane: CallLane | None = None
        self._pending: dict[RequestId, _Pending] = {}
        self._abandoned: deque[RequestId] = deque(maxlen=RECENTLY_ABANDONED)
        self._deadlines = Deadlines()
        self._timer_at: float | None = None
        self._bad_frames = 0
        # HTTP session expiry: while a new session is being initialised, outgoing frames wait here.
        self._held: list[tuple[RequestId | None, bytes]] | None = None

        # Catalog refresh: at most one listing in flight; a list_changed meanwhile marks it dirty.
        self._listing: PageGuard | None = None
        self._listing_tools: list[ToolDefinition] = []
        self._listing_rejected: list[tuple[str, str]] = []
        # The pages of the listing in progress and of the last one published, each as (the server's "tools"
        # array, its parse). A page equal to the published page at the same position keeps that page's
        # definitions (the same objects), and so do unchanged tools of a changed page: downstream, the
        # registry recognises unchanged definitions by identity and re-checks nothing for them.
        self._listing_pages: list[tuple[Any, proto.ToolsPage]] = []
        self._published_pages: list[tuple[Any, proto.ToolsPage]] = []
        self._published_by_name: dict[str, ToolDefinition] | None = None  # built when first needed
        self._is_catalog_dirty = False
        # The other catalogs, listed on demand (ListAll): complete lists by method, and listings in flight.
        self._catalog_cache: dict[str, tuple[dict[str, Any], ...]] = {}
        self._catalog_listings: dict[str, _CatalogListing] = {}
        # host callbacks: the server's requests being answered by the host, by the server's id.
        self._serving: dict[RequestId, TaskHandle] = {}
        self._roots_notify: Callable[[], None] | None = None
        self._host_send: Callable[[str, Mapping[str, Any]], Any] | None = None
        # tasks: which tools are called as tasks, the calls waiting for one, and those not yet created.
        self._task_tools: frozenset[str] = frozenset()
        self._tasks: dict[str, _TaskCall] = {}
        self._task_calls: list[_TaskCall] = []

    # ---- dispatch ----------------------------------------------------------------------------------------

    def on_receive(self, message: Any) -> None:
        msg: SessionMessage = message
        match msg:
            case Received():
                if msg.incarnation == self.incarnation:
                    self._on_received(msg)
            case Inbound():
                if msg.incarnation == self.incarnation:
                    self._on_frames(msg.frames)
            case CallRequest():
                self._on_call(msg)
            case ListAll():
                self._on_list_all(msg)
            case _CheckDeadlines():
                self._on_check_deadlines()
            case CancelCall():
                self._on_cancel(msg.reply_to, msg.reason)
            case _CallerGaveUp():
                self._abandon(msg.request_id, "the caller cancelled the call", CallCancelled)
            case _ServerRequestAnswered():
                if self._serving.pop(msg.request_id, None) is not None and not self._is_closed:
                    self._write(msg.frame)
            case _PollTask():
                self._poll_task(msg.task_id)
            case _RootsChanged():
                if self._is_ready and not self._is_closed:
                    self._notify(cb.ROOTS_LIST_CHANGED, None)
            case Connect():
                self._transport = msg.transport
                msg.transport.tell(Open())
            case Opened():
                if msg.incarnation == self.incarnation:
                    self._on_opened(msg)
            case OpenFailed():
                if msg.incarnation == self.incarnation:
                    self._report_failure(msg.error)
            case TransportDown():
                if msg.incarnation == self.incarnation:
                    self._on_transport_down(msg.reason, msg.stderr_tail)
            case RequestFailed():
                if msg.incarnation == self.incarnation:
                    self._on_request_failed(msg.request_id, msg.error)
            case SessionExpired():
                if msg.incarnation == self.incarnation:
                    self._on_session_expired(msg.frames)
            case Close():
                self._fail_all(ConnectionLost(self.server, msg.reason))
                self._is_closed = True
                self.actor_ref.stop(block=False)
            case _:
                assert_never(msg)

    def on_stop(self) -> None:
        self._fail_all(ConnectionLost(self.server, "the session was stopped"))
        self._end_host_callbacks()

    def _end_host_callbacks(self) -> None:
        """Stop answering this connection's server requests and watching its roots (host callbacks)."""
        calls, self._task_calls, self._tasks = self._task_calls, [], {}
        for call in calls:
            if not call.is_done:
                call.is_done = True
                _fail(call.reply_to, ConnectionLost(self.server, "the connection ended while a task ran"))
        serving, self._serving = self._serving, {}
        for handle in serving.values():
            handle.cancel()
        host = self.runtime.host
        if host is not None and self._roots_notify is not None:
            host.unwatch_roots(self.server, self._roots_notify)
            self._roots_notify = None
        if host is not None and self._host_send is not None:
            host.detach(self.server, self._host_send)
            self._host_send = None

    # ---- handshake --------------------------------------------------------------------------------------

    def _on_opened(self, msg: Opened) -> None:
        self._outbound = msg.outbound
        self._pid = msg.pid
        self._session_id = msg.session_id
        if msg.lane is not None:
            self._lane = msg.lane
            self._ids = msg.lane.ids
            msg.lane.host = self.runtime.host
        # spec: lifecycle — initialize MUST be the first interaction; we offer the latest revision we speak.
        self._request_internal(
            proto.INITIALIZE,
            proto.initialize_params(LATEST, CLIENT_NAME, __version__, self._client_capabilities()),
            self._on_initialize_result,
            timeout=self.handshake_timeout,
        )

    def _on_initialize_result(self, result: Mapping[str, Any]) -> None:
        try:
            info = proto.parse_initialize_result(result)
            self._revision = negotiate(info.protocol_version, server=self.server)
        except ProtocolError as exc:
            # spec: lifecycle — "If the client does not support the version in the server's response, it
            # SHOULD disconnect." The supervisor closes the transport; we never send `initialized`.
            self._report_failure(exc)
            return
        self._info = info
        assert self._outbound is not None
        self._outbound.set_protocol_version(info.protocol_version)
        self._session_id = self._outbound.session_id
        if self._lane is not None:
            self._lane.batching = self._revision.batching
        self._notify(proto.INITIALIZED, None)
        log.debug(
            "server %s speaks %s (%s)", self.server, info.protocol_version, info.server_info.get("name")
        )
        self._start_host_callbacks(info)
        if info.has_tools:
            self._start_listing()
        else:
            self._publish_catalog()

    # ---- host callbacks (issue 14): capabilities, log level, roots changes -----------------------------

    def _client_capabilities(self) -> dict[str, Any]:
        host = self.runtime.host
        return host.capabilities(self.server, LATEST) if host is not None else {}

    def _start_host_callbacks(self, info: InitializeResult) -> None:
        host = self.runtime.host
        if host is None:
            return
        level = host.log_level(self.server)
        if level is not None and info.offers("logging"):
            # spec: legacy server/utilities/logging — the client MAY send logging/setLevel to adjust the
            # minimum level; a server that refuses keeps its default, which is no reason to fail the session.
            self._send_request(
                cb.LOGGING_SET_LEVEL,
                {"level": level},
                self.handshake_timeout,
                on_result=lambda _result: None,
                on_error=lambda error: log.info("server %s refused logging/setLevel: %s", self.server, error),
            )
        if host.handles(self.server, cb.ROOTS_LIST):
            self_ref = self.actor_ref

            def notify() -> None:
                safe_tell(self_ref, _RootsChanged())

            self._roots_notify = notify
            host.watch_roots(self.server, notify)
        self_ref = self.actor_ref

        def send(method: str, params: Mapping[str, Any]) -> Future[Any]:
            future: Future[Any] = Future()
            if not safe_tell(self_ref, CallRequest(method, params, future)):
                _fail(future, ConnectionLost(self.server, "the session ended"))
            return future

        self._host_send = send
        for uri in host.attach(self.server, send):
            # A reconnect is a new session: the server forgot our subscriptions with the old one.
            self._send_request(
                cb.RESOURCES_SUBSCRIBE,
                {"uri": uri},
                self.handshake_timeout,
                on_result=lambda _result: None,
                on_error=lambda error: log.warning(
                    "server %s: subscribing again to a resource failed: %s", self.server, error
                ),
            )

    def _serve_request(self, request: Request) -> bool:
        """Hand a server's request to the host as a loop task; False when the host does not take it."""
        host = self.runtime.host
        if host is None or not host.handles(self.server, request.method):
            return False
        self_ref, server, request_id = self.actor_ref, self.server, request.id

        async def serve() -> None:
            try:
                reply: jsonrpc.Message = Response(
                    request_id, await host.fulfil(server, request.method, request.params)
                )
            except cb.CallbackError as exc:
                reply = ErrorResponse(request_id, exc.to_error())
            safe_tell(self_ref, _ServerRequestAnswered(request_id, jsonrpc.encode(reply)))

        self._serving[request_id] = self.runtime.loop.spawn(serve, name=f"{server} {request.method}")
        return True

    def _on_progress(self, params: Mapping[str, Any] | None) -> None:
        host = self.runtime.host
        token = cb.progress_token_of(params)
        pending = self._pending.get(token) if isinstance(token, int | str) else None
        if pending is None and params is not None and host is not None:
            task_call = next(
                (c for c in self._task_calls if c.progress_token == token and not c.is_done), None
            )
            if task_call is not None:
                host.on_progress(self.server, self.incarnation, task_call.tool, params, task_call.reply_to)
                return
        if pending is None or pending.tool is None or params is None:
            # spec: progress — notifications MUST only reference active tokens; a stale one is dropped.
            log.debug("server %s: progress for an unknown token %r; dropped", self.server, token)
            return
        if pending.deadline is not None and pending.timeout is not None:
            # spec: lifecycle, timeouts — progress MAY reset the timer; the hard cap still holds.
            deadline = time.monotonic() + pending.timeout
            if pending.hard_deadline is not None:
                deadline = min(deadline, pending.hard_deadline)
            if deadline > pending.deadline:
                pending.deadline = deadline
                pending.is_progressing = True
                self._arm_deadline(deadline, token)  # type: ignore[arg-type]
        if host is not None:
            host.on_progress(self.server, self.incarnation, pending.tool, params, pending.reply_to)

    # ---- tasks (2025-11-25 core, issue 14) ----------------------------------------------------------

    def _note_task_tools(self, tools: tuple[ToolDefinition, ...]) -> None:
        capabilities = self._info.capabilities if self._info is not None else {}
        self._task_tools = frozenset(
            tool.name for tool in tools if task_proto.wants_task(tool.raw, capabilities)
        )
        if self._lane is not None:
            # The lane sends plain calls only: a task tool's calls come here (the facade's actor path).
            self._lane.task_tools = self._task_tools

    def _start_task_call(self, msg: CallRequest, timeout: float) -> None:
        """spec: 2025-11-25 tasks — a tool with taskSupport required MUST be called with params.task."""
        assert msg.params is not None
        host = self.runtime.host
        limit = host.max_call_time(self.server, timeout) if host is not None else timeout
        name = msg.params.get("name")
        call = _TaskCall(msg.reply_to, msg.context, str(name), time.monotonic() + timeout, timeout)
        self._task_calls.append(call)
        # The task may live as long as the call may run; the server may shorten it.
        params = {**msg.params, "task": {"ttl": int(limit * 1000)}}
        call.progress_token = self._send_request(
            proto.TOOLS_CALL,
            params,
            timeout,
            on_result=lambda result: self._on_task_created(call, result),
            on_error=lambda error: self._finish_task(call, error=error),
        )
        self_ref = self.actor_ref

        def on_done(future: Future[Any]) -> None:
            if future.cancelled():
                safe_tell(self_ref, CancelCall(future, "the caller cancelled the call"))

        msg.reply_to.add_done_callback(on_done)

    def _on_task_created(self, call: _TaskCall, result: Mapping[str, Any]) -> None:
        if "task" not in result:
            # The server ran it without a task after all: this is the call's result.
            self._finish_task(call, result=result)
            return
        try:
            state = task_proto.parse_task(result.get("task"))
        except ProtocolError as exc:
            self._finish_task(call, error=exc)
            return
        call.task_id = state.task_id
        self._tasks[state.task_id] = call
        host = self.runtime.host
        if host is not None:
            host.on_task(call.reply_to, state.task_id)
        if call.is_done:  # cancelled before the server named the task: cancel it now
            self._send_task_cancel(state.task_id)
            return
        self._on_task_state(call, state)

    def _on_task_state(self, call: _TaskCall, state: task_proto.TaskState) -> None:
        seen = (state.status, state.status_message)
        if seen != call.last_seen:  # a poll and a status notification often say the same thing
            call.last_seen = seen
            detail = f"{call.tool} task {state.task_id}: {state.status}"
            if state.status_message:
                detail += f" {cb.printable(state.status_message, 200)}"
            self.runtime.emit("task", self.server, self.incarnation, detail)
        if call.is_done or call.is_fetching:
            return
        if state.status == "cancelled":
            self._finish_task(call, error=CallCancelled(self.server, state.task_id, proto.TOOLS_CALL))
        elif state.status in ("completed", "failed", "input_required"):
            # tasks/result returns the outcome once terminal; for input_required it is where the server
            # delivers its input requests (which reach the host's handlers like any server request).
            call.is_fetching = True
            self._send_request(
                task_proto.TASKS_RESULT,
                {"taskId": state.task_id},
                max(0.1, call.deadline - time.monotonic()),
                on_result=lambda result: self._finish_task(call, result=result),
                on_error=lambda error: self._on_task_error(call, error),
            )
        else:
            wait = min(task_proto.poll_seconds(state), max(0.0, call.deadline - time.monotonic()))
            self.runtime.loop.call_later(wait, safe_tell, self.actor_ref, _PollTask(state.task_id))

    def _poll_task(self, task_id: str) -> None:
        call = self._tasks.get(task_id)
        if call is None or call.is_done or call.is_fetching:
            return
        remaining = call.deadline - time.monotonic()
        if remaining <= 0:
            self._cancel_task(call, CallTimedOut(self.server, task_id, proto.TOOLS_CALL, call.timeout))
            return

        def on_state(result: Mapping[str, Any]) -> None:
            try:
                self._on_task_state(call, task_proto.parse_task(result))
            except ProtocolError as exc:
                self._finish_task(call, error=exc)

        self._send_request(
            task_proto.TASKS_GET,
            {"taskId": task_id},
            remaining,
            on_result=on_state,
            on_error=lambda error: self._on_task_error(call, error),
        )

    def _on_task_notification(self, params: Mapping[str, Any] | None) -> None:
        try:
            state = task_proto.parse_task(params)
        except ProtocolError as exc:
            log.debug("server %s: unreadable task status notification: %s", self.server, exc)
            return
        call = self._tasks.get(state.task_id)
        if call is not None:
            self._on_task_state(call, state)

    def _on_task_error(self, call: _TaskCall, error: TroupeError) -> None:
        if isinstance(error, CallTimedOut) and call.task_id is not None:
            self._cancel_task(call, CallTimedOut(self.server, call.task_id, proto.TOOLS_CALL, call.timeout))
        else:
            self._finish_task(call, error=error)

    def _cancel_task(self, call: _TaskCall, error: TroupeError) -> None:
        """spec: 2025-11-25 cancellation — task-augmented requests MUST be cancelled with tasks/cancel."""
        if call.task_id is not None:
            self._send_task_cancel(call.task_id)
        self._finish_task(call, error=error)

    def _send_task_cancel(self, task_id: str) -> None:
        self._send_request(
            task_proto.TASKS_CANCEL,
            {"taskId": task_id},
            self.call_timeout,
            on_result=lambda _result: None,
            on_error=lambda error: log.info("server %s: tasks/cancel failed: %s", self.server, error),
        )

    def _finish_task(
        self, call: _TaskCall, *, result: Mapping[str, Any] | None = None, error: TroupeError | None = None
    ) -> None:
        if call.is_done:
            return
        call.is_done = True
        if call.task_id is not None:
            self._tasks.pop(call.task_id, None)
        if call in self._task_calls:
            self._task_calls.remove(call)
        if error is not None:
            _fail(call.reply_to, error)
        else:
            assert result is not None
            _complete(call.reply_to, result if call.context is None else (result, call.context))

    # ---- catalog ----------------------------------------------------------------------------------------

    def _start_listing(self) -> None:
        self._listing = PageGuard(proto.TOOLS_LIST)
        self._listing_tools = []
        self._listing_rejected = []
        self._listing_pages = []
        self._is_catalog_dirty = False
        if self._lane is not None:
            self._lane.begin_listing()
        self._request_page(None)

    def _request_page(self, cursor: str | None) -> None:
        timeout = self.call_timeout if self._is_ready else self.handshake_timeout
        self._send_request(
            proto.TOOLS_LIST,
            proto.list_params(cursor),
            timeout,
            on_result=self._on_tools_page,
            on_error=self._on_internal_error,
            memoize=True,
        )

    def _on_tools_page(self, result: Mapping[str, Any]) -> None:
        guard = self._listing
        if guard is None:
            return
        try:
            page = self._parse_tools_page(result)
            guard.count_page()
            self._listing_tools.extend(page.tools)
            self._listing_rejected.extend(page.rejected)
            if page.next_cursor is not None and not self._is_catalog_dirty:
                guard.follow(page.next_cursor)
                self._request_page(page.next_cursor)
                return
        except ProtocolError as exc:
            self._listing = None
            self._on_listing_error(exc)
            return
        self._listing = None
        if self._is_catalog_dirty:
            # A list_changed arrived while we were listing: what we have may be stale. List again from the
            # start rather than publish a mix of old and new pages.
            self._start_listing()
            return
        self._publish_catalog()

    def _parse_tools_page(self, result: Mapping[str, Any]) -> proto.ToolsPage:
        """Parse one page, reusing the definitions of the last published listing where nothing changed."""
        items = result.get("tools")
        index = len(self._listing_pages)
        previous = self._published_pages[index] if index < len(self._published_pages) else None
        if previous is not None and isinstance(items, list) and previous[0] == items:
            # The same page (compared in C, no parsing): only the cursor is this listing's own.
            cursor = result.get("nextCursor")
            if cursor is not None and not isinstance(cursor, str):
                raise ProtocolError(f"tools/list 'nextCursor' must be a string, got {cursor!r:.40}")
            page = proto.ToolsPage(previous[1].tools, previous[1].rejected, cursor)
        else:
            page = proto.parse_tools_page(result)
            if self._published_pages:
                page = self._reuse_unchanged(page)
        self._listing_pages.append((items, page))
        return page

    def _reuse_unchanged(self, page: proto.ToolsPage) -> proto.ToolsPage:
        known = self._published_by_name
        if known is None:
            known = {tool.name: tool for _items, old in self._published_pages for tool in old.tools}
            self._published_by_name = known
        tools = []
        for tool in page.tools:
            old = known.get(tool.name)
            tools.append(old if old is not None and old.raw == tool.raw else tool)
        return proto.ToolsPage(tuple(tools), page.rejected, page.next_cursor)

    def _on_listing_error(self, error: TroupeError) -> None:
        if not self._is_ready:
            self._report_failure(error)
            return
        # A failed refresh keeps the last good catalog; the next list_changed tries again.
        log.warning(
            "server %s: tools/list refresh failed, keeping the previous tools: %s", self.server, error
        )
        if self._is_catalog_dirty:
            # A list_changed arrived while the failed listing was in flight: it still asks for a refresh.
            self._start_listing()

    def _publish_catalog(self) -> None:
        tools = tuple(self._listing_tools)
        rejected = tuple(self._listing_rejected)
        self._listing_tools = []
        self._listing_rejected = []
        self._published_pages, self._listing_pages = self._listing_pages, []
        self._published_by_name = None
        self._note_task_tools(tools)
        if self._is_ready:
            safe_tell(self.supervisor, CatalogChanged(self.incarnation, tools, rejected))
            return
        assert self._info is not None
        self._is_ready = True
        if self._lane is not None:
            self._lane.open(self.call_timeout)
        safe_tell(
            self.supervisor,
            SessionReady(
                incarnation=self.incarnation,
                session=self.actor_ref,
                info=self._info,
                tools=tools,
                rejected=rejected,
                pid=self._pid,
                session_id=self._session_id,
                lane=self._lane,
            ),
        )

    def _on_list_changed(self) -> None:
        if self._info is None:
            return
        if self._listing is not None:
            self._is_catalog_dirty = True
        elif self._is_ready:
            self._start_listing()

    # ---- on-demand catalogs: resources, resource templates, prompts -----------------------------------

    def _on_list_all(self, msg: ListAll) -> None:
        reply_to = msg.reply_to
        if reply_to.done():  # the caller gave up before it reached us
            return
        method = msg.method
        if method not in CATALOG_ITEM_KEYS:
            # A caller's mistake, not the server's: no listing of that name exists.
            _fail(reply_to, ValueError(f"{method!r} is not a listing ListAll pages through"))
            return
        if self._is_closed or not self._is_ready or self._outbound is None:
            _fail(reply_to, ConnectionLost(self.server, "the session is not connected"))
            return
        cached = self._catalog_cache.get(method)
        if cached is not None:
            _complete(reply_to, list(cached))
            return
        listing = self._catalog_listings.get(method)
        if listing is None:
            listing = _CatalogListing(PageGuard(method), [], [])
            self._catalog_listings[method] = listing
            self._request_catalog_page(listing, None)
        listing.waiters.append(reply_to)

    def _request_catalog_page(self, listing: _CatalogListing, cursor: str | None) -> None:
        self._send_request(
            listing.guard.method,
            proto.list_params(cursor),
            self.call_timeout,
            on_result=lambda result: self._on_catalog_page(listing, result),
            on_error=lambda error: self._on_catalog_listing_failed(listing, error),
        )

    def _on_catalog_page(self, listing: _CatalogListing, result: Mapping[str, Any]) -> None:
        method = listing.guard.method
        if self._catalog_listings.get(method) is not listing:
            return  # a listing that was failed or replaced meanwhile
        try:
            page = proto.parse_catalog_page(method, result)
            listing.guard.count_page()
            if listing.is_dirty:
                # list_changed arrived while we were listing: what we have may mix old and new pages.
                self._restart_catalog_listing(listing)
                return
            listing.items.extend(page.items)
            if page.skipped:
                log.warning(
                    "server %s: %s page had %d entries that are not objects; skipped",
                    self.server, method, page.skipped,
                )  # fmt: skip
            if page.next_cursor is not None:
                listing.guard.follow(page.next_cursor)
                self._request_catalog_page(listing, page.next_cursor)
                return
        except ProtocolError as exc:
            self._on_catalog_listing_failed(listing, exc)
            return
        del self._catalog_listings[method]
        items = tuple(listing.items)
        self._catalog_cache[method] = items
        for waiter in listing.waiters:
            _complete(waiter, list(items))

    def _restart_catalog_listing(self, listing: _CatalogListing) -> None:
        method = listing.guard.method
        listing.restarts += 1
        if listing.restarts > MAX_LISTING_RESTARTS:
            error = ProtocolError(
                f"server {self.server!r}: {method} changed {listing.restarts} times while being listed"
            )
            self._on_catalog_listing_failed(listing, error)
            return
        listing.guard = PageGuard(method)
        listing.items = []
        listing.is_dirty = False
        listing.is_stalled = False
        self._request_catalog_page(listing, None)

    def _on_catalog_listing_failed(self, listing: _CatalogListing, error: TroupeError) -> None:
        method = listing.guard.method
        if self._catalog_listings.get(method) is not listing:
            return
        if listing.is_dirty and isinstance(error, RemoteError):
            # The list changed while this page was asked for (or the session was replaced): the server may
            # have refused a cursor of the old list. What the waiters want is the new list.
            self._restart_catalog_listing(listing)
            return
        del self._catalog_listings[method]
        # Nothing is cached: the next ListAll tries again.
        for waiter in listing.waiters:
            _fail(waiter, error)

    def _on_catalog_changed(self, methods: tuple[str, ...]) -> None:
        for method in methods:
            self._catalog_cache.pop(method, None)
            listing = self._catalog_listings.get(method)
            if listing is not None:
                listing.is_dirty = True

    def _on_catalogs_replaced(self) -> None:
        """A new HTTP session replaced the old one: nothing cached or half-listed from the old one stands."""
        self._catalog_cache.clear()
        for listing in list(self._catalog_listings.values()):
            if listing.is_stalled:
                self._restart_catalog_listing(listing)
            else:
                # Its request is in flight (retried or answered by the old session): restart when it answers.
                listing.is_dirty = True

    # ---- calls ------------------------------------------------------------------------------------------

    def _on_call(self, msg: CallRequest) -> None:
        reply_to = msg.reply_to
        if reply_to.done():  # cancelled before it reached us
            return
        if self._is_closed or not self._is_ready or self._outbound is None:
            _fail(reply_to, ConnectionLost(self.server, "the session is not connected"))
            return
        timeout = msg.timeout if msg.timeout is not None else self.call_timeout
        if (
            msg.method == proto.TOOLS_CALL
            and msg.params is not None
            and msg.params.get("name") in self._task_tools
        ):
            self._start_task_call(msg, timeout)
            return
        request_id = self._send_request(
            msg.method, msg.params, timeout, reply_to=reply_to, context=msg.context
        )
        self_ref = self.actor_ref

        def on_done(future: Future[Any]) -> None:
            if future.cancelled():
                safe_tell(self_ref, _CallerGaveUp(request_id))

        reply_to.add_done_callback(on_done)

    def _on_cancel(self, reply_to: Future[Any], reason: str) -> None:
        for call in self._task_calls:
            if call.reply_to is reply_to and not call.is_done:
                self._cancel_task(call, CallCancelled(self.server, call.task_id or "?", proto.TOOLS_CALL))
                return
        for request_id, pending in self._pending.items():
            if pending.reply_to is reply_to:
                self._abandon(request_id, reason, CallCancelled)
                return

    def _abandon(self, request_id: RequestId, reason: str, error_type: type[CallCancelled]) -> None:
        pending = self._pending.pop(request_id, None)
        if pending is None:
            return
        # A request still held for a new HTTP session was never sent: drop it rather than send it and then
        # cancel it (the server could run a call the caller was told had failed).
        if not self._unhold(request_id):
            self._send_cancelled(request_id, reason)
        if pending.reply_to is not None:
            _fail(pending.reply_to, error_type(self.server, request_id, pending.method))

    def _send_cancelled(self, request_id: RequestId, reason: str) -> None:
        # spec: cancellation — the sender SHOULD ignore a response that arrives afterwards; remembering the
        # id lets us drop it quietly instead of warning about an unknown id.
        self._abandoned.append(request_id)
        self._notify(proto.CANCELLED, proto.cancelled_params(request_id, reason))

    # ---- the wire -----------------------------------------------------------------------------------------

    def _send_request(
        self,
        method: str,
        params: Mapping[str, Any] | None,
        timeout: float | None,
        *,
        reply_to: Future[Any] | None = None,
        on_result: Callable[[Mapping[str, Any]], None] | None = None,
        on_error: Callable[[TroupeError], None] | None = None,
        context: Any = None,
        memoize: bool = False,
    ) -> RequestId:
        request_id = next(self._ids)
        if memoize and self._lane is not None:
            self._lane.memoize(request_id)  # before the write: the answer may come back at once
        now = time.monotonic()
        deadline = None if timeout is None else now + timeout
        pending = _Pending(method, deadline, timeout, reply_to, on_result, on_error, context=context)
        host = self.runtime.host
        if method == proto.TOOLS_CALL and params is not None and host is not None and host.wants_progress:
            # host callbacks: ask for progress under our own id (unique among active requests, as the spec
            # wants of a progressToken); progress extends the deadline up to max_call_time.
            params = proto.with_progress_token(params, request_id)
            tool = params.get("name")
            pending.tool = tool if isinstance(tool, str) else "?"
            pending.started = now
            if timeout is not None:
                pending.hard_deadline = now + host.max_call_time(self.server, timeout)
        self._pending[request_id] = pending
        if deadline is not None:
            self._arm_deadline(deadline, request_id)
        self._write(jsonrpc.encode_request(request_id, method, params), request_id)
        return request_id

    def _write(self, frame: bytes, request_id: RequestId | None = None) -> None:
        if self._held is not None:
            self._held.append((request_id, frame))
        elif self._outbound is not None:
            self._outbound.send(frame)

    def _unhold(self, request_id: RequestId) -> bool:
        """Drop a held request that is no longer wanted; True if it was held (so never sent)."""
        if self._held is None:
            return False
        for index, (held_id, _frame) in enumerate(self._held):
            if held_id == request_id:
                del self._held[index]
                return True
        return False

    def _request_internal(
        self,
        method: str,
        params: Mapping[str, Any] | None,
        on_result: Callable[[Mapping[str, Any]], None],
        *,
        timeout: float,
    ) -> None:
        self._send_request(method, params, timeout, on_result=on_result, on_error=self._on_internal_error)

    def _on_internal_error(self, error: TroupeError) -> None:
        if not self._is_ready:
            self._report_failure(error)
        elif self._listing is not None:
            self._listing = None
            self._on_listing_error(error)

    def _notify(self, method: str, params: Mapping[str, Any] | None) -> None:
        self._write(jsonrpc.encode_notification(method, params))

    def _on_frames(self, frames: list[bytes]) -> None:
        batching = self._revision is not None and self._revision.batching
        for frame in frames:
            try:
                messages = jsonrpc.decode_batch(frame) if batching else [jsonrpc.decode(frame)]
            except MalformedMessage as exc:
                self._on_bad_frame(exc)
                continue
            self._bad_frames = 0
            for message in messages:
                self._on_message(message)

    def _on_received(self, msg: Received) -> None:
        # The lane decoded these and counted unreadable frames over every frame, its own answers included.
        for item in msg.items:
            if isinstance(item, MalformedMessage):
                log.warning("server %s: skipped an unreadable frame: %s", self.server, item)
            else:
                self._on_message(item)
        if msg.bad_in_a_row >= MAX_CONSECUTIVE_BAD_FRAMES:
            self._on_transport_down(f"{msg.bad_in_a_row} unreadable frames in a row on stdout", ())

    def _on_bad_frame(self, exc: MalformedMessage) -> None:
        # spec: stdio — servers MUST NOT write non-MCP output to stdout; many do (a stray print). One bad line
        # is skipped so later calls are unaffected; a stream of them means the server is broken.
        self._bad_frames += 1
        log.warning("server %s: skipped an unreadable frame: %s", self.server, exc)
        if self._bad_frames >= MAX_CONSECUTIVE_BAD_FRAMES:
            self._on_transport_down(f"{self._bad_frames} unreadable frames in a row on stdout", ())

    def _on_message(self, message: jsonrpc.Message) -> None:
        match message:
            case Response(id=response_id, result=result):
                pending = self._pending.pop(response_id, None)
                if pending is None:
                    self._on_unknown_response(response_id)
                elif pending.reply_to is not None:
                    context = pending.context
                    _complete(pending.reply_to, result if context is None else (result, context))
                elif pending.on_result is not None:
                    pending.on_result(result)
            case ErrorResponse(id=response_id, error=error):
                if response_id is None:
                    # The server could not read one of our requests well enough to name it.
                    log.warning("server %s sent an error without an id: %s", self.server, error.message)
                    return
                pending = self._pending.pop(response_id, None)
                if pending is None:
                    self._on_unknown_response(response_id)
                    return
                remote = RemoteError(
                    self.server, response_id, pending.method, error.code, error.message, error.data
                )
                if pending.reply_to is not None:
                    _fail(pending.reply_to, remote)
                elif pending.on_error is not None:
                    pending.on_error(remote)
            case Request():
                self._on_server_request(message)
            case Notification(method=method, params=params):
                self._on_notification(method, params)
            case _:
                assert_never(message)

    def _on_unknown_response(self, response_id: RequestId) -> None:
        if response_id in self._abandoned:
            log.debug("server %s: dropped a late response for cancelled id %r", self.server, response_id)
        else:
            log.warning(
                "server %s sent a response for unknown JSON-RPC id %r; dropped", self.server, response_id
            )

    def _on_server_request(self, request: Request) -> None:
        if request.method == proto.PING:
            reply: jsonrpc.Message = Response(request.id, {})
        elif self._serve_request(request):
            return
        else:
            # We declare no client capabilities (sampling, elicitation, roots): the server must not ask, and
            # if it does it gets a clear "method not found" at once rather than a hang.
            reply = ErrorResponse(
                request.id,
                ErrorObject(jsonrpc.METHOD_NOT_FOUND, f"Method not found: {request.method} (not supported)"),
            )
            log.info("server %s asked for %s; answered -32601", self.server, request.method)
        self._write(jsonrpc.encode(reply))

    def _on_notification(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        if method == proto.TOOLS_LIST_CHANGED:
            self._on_list_changed()
            return
        changed = CATALOGS_CHANGED_BY.get(method)
        if changed is not None:
            self._on_catalog_changed(changed)
            return
        # host callbacks (issue 14): progress, server logs, the end of a URL elicitation, a cancelled request.
        host = self.runtime.host
        if method == proto.PROGRESS:
            self._on_progress(params)
        elif host is None:
            return
        elif method == proto.LOG_MESSAGE:
            host.on_log(self.server, params)
        elif method == task_proto.TASKS_STATUS:
            self._on_task_notification(params)
        elif method == cb.RESOURCES_UPDATED:
            host.on_resource_updated(self.server, params)
        elif method == cb.ELICITATION_COMPLETE:
            host.on_elicitation_complete(self.server, self.incarnation, params)
        elif method == proto.CANCELLED and params is not None:
            # spec: cancellation — the server gave up on its own request: stop asking the human.
            handle = self._serving.pop(params.get("requestId"), None)  # type: ignore[arg-type]
            if handle is not None:
                handle.cancel()

    # ---- HTTP: per-request failures and session expiry ---------------------------------------------------

    def _on_request_failed(self, request_id: RequestId, error: TroupeError) -> None:
        pending = self._pending.pop(request_id, None)
        if pending is None:
            return
        if pending.reply_to is not None:
            _fail(pending.reply_to, error)
        elif pending.on_error is not None:
            pending.on_error(error)

    def _on_session_expired(self, frames: list[bytes]) -> None:
        """Start one new session for however many requests failed, and retry those it is safe to retry.

        spec: 2025-06-18 transports, session management — a 404 to a request carrying a session id means the
        session is gone; the client MUST start a new one with a fresh initialize (without the old id).
        """
        if self._info is None or self._is_closed:
            # Expired before the first handshake finished: that is a failed connect, not an expiry.
            self._on_transport_down("the server dropped the session during the handshake", ())
            return
        retry: list[tuple[RequestId | None, bytes]] = []
        for frame in frames:
            try:
                message = jsonrpc.decode(frame)
            except MalformedMessage:
                continue
            if not isinstance(message, Request):
                continue  # notifications and our responses are not worth replaying to a new session
            pending = self._pending.get(message.id)
            if pending is None:
                continue
            if message.method == proto.INITIALIZE:
                self._report_failure(ConnectionLost(self.server, "the server refused a new session"))
                return
            is_continuation = message.method.endswith("/list") and bool(
                message.params and "cursor" in message.params
            )
            if is_continuation:
                # A cursor from a dead session means nothing to the new one: the listing restarts instead.
                del self._pending[message.id]
                catalog_listing = self._catalog_listings.get(message.method)
                if message.method == proto.TOOLS_LIST:
                    self._listing = None
                    self._is_catalog_dirty = True
                elif catalog_listing is not None:
                    catalog_listing.is_stalled = True
            elif pending.is_retried:
                del self._pending[message.id]
                error = ConnectionLost(self.server, "the session expired again after a retry")
                if pending.reply_to is not None:
                    _fail(pending.reply_to, error)
                elif pending.on_error is not None:
                    pending.on_error(error)
            else:
                pending.is_retried = True
                retry.append((message.id, frame))
        if self._held is None:
            log.info("server %s: HTTP session expired; starting a new session", self.server)
            self._held = []
            self._send_reinitialize()
        # Retried requests go out first, once the new session exists.
        self._held[:0] = retry

    def _send_reinitialize(self) -> None:
        # Sent past the hold: it is what creates the session the held frames are waiting for.
        held, self._held = self._held, None
        self._send_request(
            proto.INITIALIZE,
            proto.initialize_params(LATEST, CLIENT_NAME, __version__, self._client_capabilities()),
            self.handshake_timeout,
            on_result=self._on_reinitialized,
            # Without a new session nothing held can ever go out: the connection is lost, not wedged.
            on_error=self._report_failure,
        )
        self._held = held

    def _on_reinitialized(self, result: Mapping[str, Any]) -> None:
        try:
            info = proto.parse_initialize_result(result)
            self._revision = negotiate(info.protocol_version, server=self.server)
        except ProtocolError as exc:
            self._report_failure(exc)
            return
        self._info = info
        assert self._outbound is not None
        self._outbound.set_protocol_version(info.protocol_version)
        self._session_id = self._outbound.session_id
        safe_tell(self.supervisor, SessionRenewed(self.incarnation, self._session_id))
        held, self._held = self._held or [], None
        self._notify(proto.INITIALIZED, None)
        for _request_id, frame in held:
            self._outbound.send(frame)
        self._on_catalogs_replaced()
        # The new session may expose a different catalog; rediscover it (all pages).
        if info.has_tools:
            if self._listing is None:
                self._start_listing()
            else:
                self._is_catalog_dirty = True

    # ---- deadlines ----------------------------------------------------------------------------------------

    def _arm_deadline(self, deadline: float, request_id: RequestId) -> None:
        self._deadlines.push(deadline, request_id, self._pending)
        if self._timer_at is None or deadline < self._timer_at:
            self._timer_at = deadline
            self.runtime.loop.call_later(
                deadline - time.monotonic(), safe_tell, self.actor_ref, _CheckDeadlines()
            )

    def _on_check_deadlines(self) -> None:
        self._timer_at = None
        now = time.monotonic()
        for request_id, pending in self._deadlines.pop_expired(now, self._pending):
            self._on_timed_out(request_id, pending)
        earliest = self._deadlines.earliest
        if earliest is not None:
            self._timer_at = earliest
            self.runtime.loop.call_later(earliest - now, safe_tell, self.actor_ref, _CheckDeadlines())

    def _on_timed_out(self, request_id: RequestId, pending: _Pending) -> None:
        timeout = pending.timeout or 0.0
        if pending.is_progressing and pending.deadline is not None:
            # Progress kept extending it: report how long it really ran (up to the max_call_time cap).
            timeout = round(pending.deadline - pending.started, 1)
        # spec: 2025-06-18 lifecycle, timeouts — on timeout the sender SHOULD send notifications/cancelled
        # and stop waiting; initialize MUST NOT be cancelled.
        if pending.method != proto.INITIALIZE and not self._unhold(request_id):
            self._send_cancelled(request_id, f"timed out after {timeout:g} s")
        error = CallTimedOut(self.server, request_id, pending.method, timeout)
        if pending.reply_to is not None:
            _fail(pending.reply_to, error)
        elif pending.on_error is not None:
            pending.on_error(error)

    # ---- failure -------------------------------------------------------------------------------------------

    def _fail_all(self, error: TroupeError) -> None:
        # DESIGN rule 4: a dead connection fails every pending call at once, never at its timeout.
        if self._lane is not None:
            self._lane.close(error)
        pending, self._pending = self._pending, {}
        self._deadlines.clear()
        for item in pending.values():
            if item.reply_to is not None:
                _fail(item.reply_to, error)
        # Catalog listings wait through callbacks, not reply_to: their callers are failed here too.
        listings, self._catalog_listings = self._catalog_listings, {}
        for listing in listings.values():
            for waiter in listing.waiters:
                _fail(waiter, error)

    def _on_transport_down(self, reason: str, stderr_tail: tuple[str, ...]) -> None:
        if self._is_closed:
            return
        self._is_closed = True
        self._end_host_callbacks()
        self._fail_all(ConnectionLost(self.server, reason))
        if self._is_ready:
            safe_tell(self.supervisor, SessionLost(self.incarnation, reason, stderr_tail))
        else:
            safe_tell(
                self.supervisor,
                SessionFailed(self.incarnation, ConnectFailed(self.server, reason, stderr_tail=stderr_tail)),
            )

    def _report_failure(self, error: TroupeError) -> None:
        if self._is_closed:
            return
        self._is_closed = True
        self._end_host_callbacks()
        self._fail_all(ConnectionLost(self.server, str(error)))
        if self._is_ready:
            safe_tell(self.supervisor, SessionLost(self.incarnation, str(error)))
        else:
            safe_tell(self.supervisor, SessionFailed(self.incarnation, error))
