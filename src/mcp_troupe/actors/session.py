"""SessionActor: one per connection (incarnation). Owns the protocol conversation: the handshake and the era
it settles on, the server's capabilities, the tool catalog's paging and refreshes, the on-demand catalogs,
the modern era's ``subscriptions/listen``, HTTP session expiry, and the server's requests to us.

It does not own request bookkeeping: every request it sends, and every call it forwards, goes through the
connection's :class:`~mcp_troupe.actors.lane.CallLane` — the one request engine of the connection (ids,
pending requests, deadlines, cancellation, late answers, ``input_required`` rounds). The lane completes a
caller's future on the loop; the session's own requests come back to this thread as
:class:`~mcp_troupe.actors.lane.SessionAnswer` items of a ``Received``, in order with the server's requests
and notifications.

Flow (DESIGN §3): ``Connect`` → transport ``Open`` → ``Opened(lane)`` → the handshake
(:class:`~mcp_troupe.protocol.handshake.Handshake`: the ``server/discover`` probe, or ``initialize`` with a
version negotiation) → legacy: ``notifications/initialized`` → ``tools/list`` page by page →
``SessionReady`` to the supervisor → modern: ``subscriptions/listen`` for the change notifications the server
offers. Calls arrive as ``CallRequest`` with a ``reply_to`` future. Nothing here blocks.

A re-listing reuses the definitions of unchanged pages and tools (the same objects), so that nothing
downstream checks them again. The other catalogs (resources, resource templates, prompts) are listed on
demand, by ``ListAll``: all pages, cached for the life of this session (modern: for the ``ttlMs`` the server
gave), shared by every ``ListAll`` that arrives while one listing is in flight, and dropped by the matching
``list_changed``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Protocol, assert_never

import pykka

from mcp_troupe._futures import fail as _fail
from mcp_troupe._version import __version__
from mcp_troupe.actors.catalogs import Catalogs, ListAll
from mcp_troupe.actors.lane import (
    CallerOwner,
    CallLane,
    EraChanged,
    Fulfiller,
    HeaderMismatch,
    Outgoing,
    Received,
    SessionAnswer,
    SessionOwner,
)
from mcp_troupe.actors.loop import Runtime, safe_tell
from mcp_troupe.actors.supervision import Supervised
from mcp_troupe.actors.transport import Open
from mcp_troupe.errors import (
    AuthError,
    CallCancelled,
    CallError,
    ConnectFailed,
    ConnectionLost,
    MalformedMessage,
    ProtocolError,
    RemoteError,
    TroupeError,
    UnsupportedProtocolVersion,
)
from mcp_troupe.protocol import callbacks as cb
from mcp_troupe.protocol import jsonrpc, modern
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol import tasks as task_proto
from mcp_troupe.protocol.engine import Pending, expiry_decision
from mcp_troupe.protocol.handshake import Failed, Handshake, Send, Settled
from mcp_troupe.protocol.jsonrpc import ErrorObject, ErrorResponse, Notification, Request, RequestId, Response
from mcp_troupe.protocol.mcp import InitializeResult, PageGuard, ToolDefinition
from mcp_troupe.protocol.versions import Era, Revision

__all__ = [
    "CallRequest",
    "CancelCall",
    "CatalogChanged",
    "Close",
    "Connect",
    "HeaderMismatch",
    "ListAll",
    "OpenFailed",
    "Opened",
    "Outbound",
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
# Which cached catalogs each change notification invalidates (templates belong to the resources capability).
CATALOGS_CHANGED_BY: Mapping[str, tuple[str, ...]] = {
    proto.RESOURCES_LIST_CHANGED: (proto.RESOURCES_LIST, proto.RESOURCE_TEMPLATES_LIST),
    proto.PROMPTS_LIST_CHANGED: (proto.PROMPTS_LIST,),
}
# spec: 2026-07-28 basic/versioning — "no response within a timeout" means legacy. Long enough for a server
# that is slow to start (the official SDK client waits 10 s too), short enough that a legacy server that
# ignores unknown methods costs little; a modern server that answers later is re-probed (see Handshake).
PROBE_TIMEOUT = 10.0
# subscriptions/listen: how soon a closed or refused stream is opened again, doubling up to the cap.
LISTEN_RETRY_INITIAL = 1.0
LISTEN_RETRY_MAX = 30.0


class Outbound(Protocol):
    """What the session needs of its transport besides the lane: the negotiated version and session id."""

    def set_protocol_version(self, version: str) -> None:
        """The handshake settled on ``version`` (HTTP sends it as ``MCP-Protocol-Version`` from now on)."""

    @property
    def session_id(self) -> str | None:
        """The transport-level session id the server issued (HTTP ``Mcp-Session-Id``), if any."""


def no_capabilities(revision: Revision) -> Mapping[str, Any]:
    """The capabilities we declare with no host handlers installed: none (servers then must not ask)."""
    return {}


def _declaring_tasks(
    capabilities: Callable[[Revision], Mapping[str, Any]],
) -> Callable[[Revision], Mapping[str, Any]]:
    """``capabilities`` plus, in the modern era, the tasks extension (legacy eras need no declaration)."""

    def declared(revision: Revision) -> Mapping[str, Any]:
        base = capabilities(revision)
        return task_proto.with_extension(base) if revision.is_modern else base

    return declared


# ---- messages this actor handles -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Connect:
    """Begin the connection: open the transport, then run the handshake."""

    transport: pykka.ActorRef[Any]


@dataclass(frozen=True, slots=True)
class Opened:
    """The transport is up; ``lane`` carries every request from now on. (transport → session)"""

    incarnation: int
    outbound: Outbound
    lane: CallLane
    pid: int | None = None
    session_id: str | None = None


@dataclass(frozen=True, slots=True)
class OpenFailed:
    """The transport could not open. (transport → session)"""

    incarnation: int
    error: TroupeError


@dataclass(frozen=True, slots=True)
class TransportDown:
    """The transport died: the process exited, a pipe broke, a frame was too large. (transport → session)"""

    incarnation: int
    reason: str
    stderr_tail: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SessionExpired:
    """The server no longer knows our HTTP session (404 on a request that carried a session id).

    ``sent`` are the undelivered frames with what each is. The transport has already dropped the old id.
    """

    incarnation: int
    sent: list[tuple[bytes, Outgoing]]


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
class CancelCall:
    """The caller gave up on the call whose future is ``reply_to``; tell the server."""

    reply_to: Future[Any]
    reason: str = "cancelled by the client"


@dataclass(frozen=True, slots=True)
class Close:
    """Fail every pending call and stop; the supervisor closes the transport."""

    reason: str


@dataclass(frozen=True, slots=True)
class _ProbeExpired:
    request_id: RequestId


@dataclass(frozen=True, slots=True)
class _Listen:
    pass


@dataclass(frozen=True, slots=True)
class _ServerRequestDone:
    request: Request
    result: Mapping[str, Any] | None
    error: ErrorObject | None


SessionMessage = (
    Connect
    | Opened
    | OpenFailed
    | Received
    | TransportDown
    | SessionExpired
    | HeaderMismatch
    | EraChanged
    | CallRequest
    | ListAll
    | CancelCall
    | Close
    | _ProbeExpired
    | _Listen
    | _ServerRequestDone
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
    # Open for calls from now on; the registry publishes it for tools the gate cleared.
    lane: CallLane | None = None


@dataclass(frozen=True, slots=True)
class CatalogChanged:
    """A refresh after ``list_changed`` produced a new full tool listing."""

    incarnation: int
    tools: tuple[ToolDefinition, ...]
    rejected: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class SessionFailed:
    """The connection never became ready. ``era`` is what the handshake learned, if anything."""

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
class _Subscription:
    """The modern era's ``subscriptions/listen`` stream."""

    request_id: RequestId | None = None
    wanted: dict[str, Any] = field(default_factory=dict)
    retry_delay: float = LISTEN_RETRY_INITIAL
    is_unsupported: bool = False
    # Opened again after it ended: once the server acknowledges it, list again what may have changed.
    must_refresh: bool = False
    # The resource URIs the host subscribed to (the filter's resourceSubscriptions), and the subscribe()
    # calls waiting for the server's acknowledgement of a filter that names theirs.
    resources: set[str] = field(default_factory=set)
    awaiting: list[tuple[str, Future[Any]]] = field(default_factory=list)
    # Which listen request is the current one: one replaced by a new filter ends without a relisten.
    generation: int = 0


class SessionActor(Supervised, pykka.ThreadingActor):
    """One connection's protocol conversation."""

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
        protocol: str = "auto",
        era_hint: Era | None = None,
        capabilities: Callable[[Revision], Mapping[str, Any]] = no_capabilities,
        fulfil: Fulfiller | None = None,
        extra_meta: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.server = server
        self.incarnation = incarnation
        self.supervisor = supervisor
        self.parent = supervisor
        self.runtime = runtime
        self.call_timeout = call_timeout
        self.handshake_timeout = handshake_timeout
        host = runtime.host
        if host is not None:
            # The host's handlers back the capabilities we declare and answer what the server asks us,
            # both as legacy server requests and as modern input_required rounds (docs/host-callbacks.md).
            if capabilities is no_capabilities:
                capabilities = lambda revision: host.capabilities(server, revision.version)  # noqa: E731
            fulfil = fulfil if fulfil is not None else host.fulfil
            level = host.log_level(server)
            if level is not None:
                # spec: 2026-07-28 — the per-request logLevel opts in to notifications/message.
                extra_meta = {**(extra_meta or {}), modern.LOG_LEVEL: level}
        self.fulfil = fulfil
        self._host = host
        # spec: ext-tasks — a modern client declares the tasks extension in its per-request capabilities;
        # the lane then drives any task a server answers a tool call with (actors/task_runs.py).
        capabilities = _declaring_tasks(capabilities)
        # Server requests being answered by the host, by id (a server may cancel its own request).
        self._serving: dict[RequestId, Any] = {}
        self._roots_notify: Callable[[], None] | None = None
        self._host_send: Callable[[str, Mapping[str, Any]], Future[Any]] | None = None

        self._transport: pykka.ActorRef[Any] | None = None
        self._outbound: Outbound | None = None
        self._lane: CallLane | None = None
        self._pid: int | None = None
        self._session_id: str | None = None
        self._handshake = Handshake(
            server=server,
            client_info={"name": CLIENT_NAME, "version": __version__},
            capabilities=capabilities,
            pin=protocol,
            hint=era_hint,
            extra_meta=extra_meta,
        )
        self._handshake_request: RequestId | None = None
        self._revision: Revision | None = None
        self._info: InitializeResult | None = None
        self._is_ready = False
        self._is_closed = False
        # HTTP (legacy) session expiry: a new session is being initialised.
        self._is_renewing = False
        # The requests to send again first once the new session exists.
        self._retry_first: list[tuple[bytes, Outgoing]] = []

        # Catalog refresh: at most one listing in flight; a list_changed meanwhile marks it dirty.
        self._listing: PageGuard | None = None
        self._listing_request: RequestId | None = None
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
        # Calls refused for a header mismatch, sent again once the tools are listed anew.
        self._after_listing: list[tuple[Pending, TroupeError]] = []
        # The other catalogs, listed on demand (ListAll): complete lists by method, and listings in flight.
        self._catalogs = Catalogs(
            server=server,
            send=self._send_catalog_request,
            is_modern=lambda: self._revision is not None and self._revision.is_modern,
        )
        self._subscription = _Subscription()

    # ---- dispatch ----------------------------------------------------------------------------------------

    def on_receive(self, message: Any) -> None:
        msg: SessionMessage = message
        match msg:
            case Received():
                if msg.incarnation == self.incarnation:
                    self._on_received(msg)
            case CallRequest():
                self._on_call(msg)
            case ListAll():
                self._catalogs.list_all(
                    msg, is_connected=not self._is_closed and self._is_ready and self._lane is not None
                )
            case CancelCall():
                if self._lane is None or not self._lane.cancel_reply(msg.reply_to, msg.reason):
                    _fail(msg.reply_to, CallCancelled(self.server, None, "tools/call"))
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
            case SessionExpired():
                if msg.incarnation == self.incarnation:
                    self._on_session_expired(msg.sent)
            case EraChanged():
                if msg.incarnation == self.incarnation:
                    version = self._revision.version if self._revision is not None else "?"
                    self._report_failure(
                        ConnectionLost(
                            self.server,
                            f"the server no longer speaks protocol {version} ({msg.detail}); "
                            "reconnecting to negotiate the version again",
                        )
                    )
            case HeaderMismatch():
                if msg.incarnation == self.incarnation:
                    self._on_header_mismatch(msg.pending, msg.error)
            case _ProbeExpired():
                self._on_probe_expired(msg.request_id)
            case _Listen():
                self._listen()
            case _ServerRequestDone():
                # A request the server cancelled meanwhile (no longer being served) gets no answer.
                if self._serving.pop(msg.request.id, None) is not None:
                    self._answer_server_request(msg.request, msg.result, msg.error)
            case Close():
                self._fail_all(ConnectionLost(self.server, msg.reason))
                self._is_closed = True
                self.actor_ref.stop(block=False)
            case _:
                assert_never(msg)

    def on_stop(self) -> None:
        self._fail_all(ConnectionLost(self.server, "the session was stopped"))

    def on_crash(self, error: BaseException) -> None:
        """A bug in a handler: every pending call fails now (the supervisor is told and reconnects)."""
        self._is_closed = True
        self._fail_all(ConnectionLost(self.server, f"the session crashed: {error!r}"))

    # ---- sending -----------------------------------------------------------------------------------------

    def _request(
        self,
        method: str,
        params: Mapping[str, Any] | None,
        on_result: Callable[[Mapping[str, Any]], None],
        on_error: Callable[[TroupeError], None],
        *,
        timeout: float | None,
        memoize: bool = False,
        past_hold: bool = False,
    ) -> RequestId | None:
        lane = self._lane
        if lane is None:
            return None
        request_id = lane.request(
            method,
            params,
            SessionOwner(on_result, on_error),
            timeout,
            memoize=memoize,
            past_hold=past_hold,
        )
        if request_id is None:
            # The connection ended under us; the transport's report follows.
            log.debug("server %s: %s not sent: the connection is closed", self.server, method)
        return request_id

    def _notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        if self._lane is not None:
            self._lane.notify(method, params)

    # ---- handshake --------------------------------------------------------------------------------------

    def _on_opened(self, msg: Opened) -> None:
        self._outbound = msg.outbound
        self._pid = msg.pid
        self._session_id = msg.session_id
        self._lane = msg.lane
        if self.fulfil is not None:
            msg.lane.fulfil = self.fulfil
        if self._host is not None:
            msg.lane.attach_host(self._host)
        runtime, server, incarnation = self.runtime, self.server, self.incarnation
        msg.lane.tasks.on_event = lambda detail: runtime.emit("task", server, incarnation, detail)
        self._step(self._handshake.start())

    def _step(self, step: Send | Settled | Failed) -> None:
        match step:
            case Send():
                timeout = (
                    min(PROBE_TIMEOUT, self.handshake_timeout) if step.is_probe else self.handshake_timeout
                )
                # The probe's timeout is ours to act on (a fallback), not a failure: the lane's deadline is
                # the handshake's, and a _ProbeExpired message gives up on it early.
                request_id = self._request(
                    step.method,
                    step.params,
                    self._on_handshake_result,
                    self._on_handshake_error,
                    timeout=self.handshake_timeout,
                    # The handshake creates the session that held frames wait for.
                    past_hold=True,
                )
                self._handshake_request = request_id
                if step.is_probe and request_id is not None:
                    self.runtime.loop.call_later(
                        timeout, safe_tell, self.actor_ref, _ProbeExpired(request_id)
                    )
            case Settled():
                self._handshake_request = None
                self._on_settled(step)
            case Failed():
                self._handshake_request = None
                self._report_failure(step.error)
            case _:
                assert_never(step)

    def _on_handshake_result(self, result: Mapping[str, Any]) -> None:
        self._handshake_request = None
        self._step(self._handshake.on_result(result))

    def _on_handshake_error(self, error: TroupeError) -> None:
        self._handshake_request = None
        if isinstance(error, RemoteError):
            step = self._handshake.on_error(error.code, error.remote_message, error.data)
            if isinstance(step, Failed) and not isinstance(step.error, UnsupportedProtocolVersion):
                # A refusal that is not about versions: the server's own words say most.
                self._report_failure(error)
                return
            self._step(step)
        elif isinstance(error, AuthError) or self._handshake.method != modern.SERVER_DISCOVER:
            # A login is needed, or initialize itself failed: nothing to fall back to; the error says why.
            self._report_failure(error)
        else:
            # HTTP refused the probe without a JSON-RPC body (404, 405, 400 with nothing we recognise), or it
            # timed out: a legacy server.
            self._step(self._handshake.on_no_answer(str(error)))

    def _on_probe_expired(self, request_id: RequestId) -> None:
        if self._handshake_request != request_id or self._lane is None:
            return
        # No answer to server/discover in time: a legacy server that ignores unknown methods. Forget the
        # probe (its late answer is dropped) and fall back.
        self._lane.drop(request_id)
        self._handshake_request = None
        self._step(self._handshake.on_no_answer(f"no answer within {PROBE_TIMEOUT:g} s"))

    def _on_settled(self, settled: Settled) -> None:
        lane = self._lane
        assert lane is not None and self._outbound is not None
        revision = settled.revision
        renewing = self._is_renewing and self._info is not None
        self._revision = revision
        self._info = settled.info
        lane.settle(revision, settled.meta)
        self._outbound.set_protocol_version(revision.version)
        self._session_id = self._outbound.session_id
        log.debug(
            "server %s speaks %s (%s era, %s)",
            self.server, revision.version, revision.era.value, settled.info.server_info.get("name"),
        )  # fmt: skip
        if not revision.is_modern:
            # spec: lifecycle — after a successful initialize the client MUST send notifications/initialized.
            lane.notify(proto.INITIALIZED, past_hold=True)
            if not renewing:
                self._start_host_callbacks(settled.info)
        elif not renewing:
            self._attach_modern_subscriptions()
        if renewing:
            self._on_renewed()
            return
        if settled.info.has_tools:
            self._start_listing()
        else:
            self._publish_catalog()

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
        self._listing_request = self._request(
            proto.TOOLS_LIST,
            proto.list_params(cursor),
            self._on_tools_page,
            self._on_listing_failed,
            timeout=timeout,
            memoize=True,
        )

    def _on_tools_page(self, result: Mapping[str, Any]) -> None:
        guard = self._listing
        if guard is None:
            return
        self._listing_request = None
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
            page = self._era_checked(proto.parse_tools_page(result))
            if self._published_pages:
                page = self._reuse_unchanged(page)
        self._listing_pages.append((items, page))
        return page

    def _era_checked(self, page: proto.ToolsPage) -> proto.ToolsPage:
        """Drop the tools this connection cannot offer as plain tools, each with its reason."""
        revision = self._revision
        lane = self._lane
        if revision is None:
            return page
        kept: list[ToolDefinition] = []
        rejected = list(page.rejected)
        capabilities = self._info.capabilities if self._info is not None else {}
        for tool in page.tools:
            if revision.tasks and lane is not None:
                # spec: 2025-11-25 server/tools — with taskSupport "required" the client MUST use a task
                # (an "optional" one is one when the server takes task-augmented calls): the lane sends
                # its calls with params.task and drives the task to its end.
                if task_proto.wants_task(tool.raw, capabilities):
                    lane.task_tools.add(tool.name)
                else:
                    lane.task_tools.discard(tool.name)
            if revision.is_modern and lane is not None and lane.is_http:
                try:
                    declared = modern.param_headers(tool.input_schema)
                except ProtocolError as exc:
                    # spec: 2026-07-28 streamable-http — clients MUST drop invalid x-mcp-header tools.
                    log.warning("server %s: tool %r dropped: %s", self.server, tool.name, exc)
                    rejected.append((tool.name, f"invalid x-mcp-header: {exc}"))
                    continue
                if declared:
                    lane.param_headers[tool.name] = declared
                else:
                    lane.param_headers.pop(tool.name, None)
            kept.append(tool)
        if len(kept) == len(page.tools):
            return page
        return proto.ToolsPage(tuple(kept), tuple(rejected), page.next_cursor)

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

    def _on_listing_failed(self, error: TroupeError) -> None:
        if self._listing is None:
            return
        self._listing = None
        self._listing_request = None
        self._on_listing_error(error)

    def _on_listing_error(self, error: TroupeError) -> None:
        if not self._is_ready:
            self._report_failure(error)
            return
        # A failed refresh keeps the last good catalog; the next list_changed tries again.
        log.warning(
            "server %s: tools/list refresh failed, keeping the previous tools: %s", self.server, error
        )
        self._retry_after_listing(error)
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
        if self._is_ready:
            safe_tell(self.supervisor, CatalogChanged(self.incarnation, tools, rejected))
            self._retry_after_listing(None)
            return
        assert self._info is not None and self._lane is not None
        self._is_ready = True
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
        if self._revision is not None and self._revision.is_modern:
            self._listen()

    def _on_list_changed(self) -> None:
        if self._info is None:
            return
        if self._listing is not None:
            self._is_catalog_dirty = True
        elif self._is_ready:
            self._start_listing()

    def _on_header_mismatch(self, pending: Pending, error: TroupeError) -> None:
        # spec: 2026-07-28 streamable-http — HeaderMismatch: the client lists the tools again, then retries.
        self._after_listing.append((pending, error))
        self._on_list_changed()

    def _retry_after_listing(self, failure: TroupeError | None) -> None:
        waiting, self._after_listing = self._after_listing, []
        lane = self._lane
        for pending, error in waiting:
            if lane is None or failure is not None:
                if isinstance(pending.owner, CallerOwner):
                    _fail(pending.owner.reply, error)
                continue
            lane.resend(pending, error)

    # ---- modern: subscriptions/listen ------------------------------------------------------------------

    def _listen(self) -> None:
        info = self._info
        subscription = self._subscription
        if (
            info is None
            or self._is_closed
            or subscription.is_unsupported
            or subscription.request_id is not None
        ):
            return
        wanted: dict[str, Any] = {}
        if info.lists_changes("tools"):
            wanted["toolsListChanged"] = True
        if info.lists_changes("prompts"):
            wanted["promptsListChanged"] = True
        if info.lists_changes("resources"):
            wanted["resourcesListChanged"] = True
        if subscription.resources:
            # spec: 2026-07-28 patterns/subscriptions — replaces resources/subscribe.
            wanted["resourceSubscriptions"] = sorted(subscription.resources)
        if not wanted:
            return
        subscription.wanted = wanted
        subscription.generation += 1
        generation = subscription.generation
        # spec: 2026-07-28 basic/patterns/subscriptions — a long-lived request; every notification on it
        # carries its id as `subscriptionId`. No deadline: it is meant to stay open.
        subscription.request_id = self._request(
            modern.SUBSCRIPTIONS_LISTEN,
            {"notifications": wanted},
            lambda result: self._on_listen_ended(result, generation),
            lambda error: self._on_listen_failed(error, generation),
            timeout=None,
        )

    def _refilter(self) -> None:
        """The host's resource subscriptions changed: listen with the new filter, then end the old stream
        (in that order, so that no update falls between the two)."""
        subscription = self._subscription
        old, subscription.request_id = subscription.request_id, None
        self._listen()
        if old is not None and self._lane is not None:
            self._lane.cancel(old, "the subscriptions changed")

    def _on_resource_subscription(self, msg: CallRequest) -> None:
        """``resources/subscribe`` / ``unsubscribe`` from the host, in the modern era: a new listen filter."""
        uri = (msg.params or {}).get("uri")
        subscription = self._subscription
        if not isinstance(uri, str):
            _fail(msg.reply_to, CallError(f"server {self.server!r}: {msg.method} needs a string uri"))
            return
        if subscription.is_unsupported:
            reason = (
                f"server {self.server!r} offers no subscriptions/listen: it cannot push updates of {uri!r}"
            )
            _fail(msg.reply_to, CallError(reason))
            return
        if msg.method == cb.RESOURCES_SUBSCRIBE:
            subscription.resources.add(uri)
            subscription.awaiting.append((uri, msg.reply_to))
        else:
            subscription.resources.discard(uri)
            if not msg.reply_to.done():
                msg.reply_to.set_result({})
        self._refilter()

    def _settle_awaiting(self, honoured: Mapping[str, Any] | None, error: TroupeError | None = None) -> None:
        awaiting, self._subscription.awaiting = self._subscription.awaiting, []
        taken = honoured.get("resourceSubscriptions") if honoured is not None else None
        for uri, reply in awaiting:
            if reply.done():
                continue
            if error is not None:
                _fail(reply, error)
            elif honoured is None or (isinstance(taken, list) and uri in taken):
                reply.set_result({})
            else:
                # spec: the acknowledgement names the subset the server agreed to honour.
                _fail(reply, CallError(f"server {self.server!r} did not take the subscription to {uri!r}"))

    def _on_listen_ended(self, result: Mapping[str, Any], generation: int) -> None:
        if generation != self._subscription.generation:
            return  # replaced by a listen with a newer filter
        # A graceful close by the server: open it again (a change in between is caught by a fresh listing).
        self._subscription.request_id = None
        self._relisten(refresh=True)

    def _on_listen_failed(self, error: TroupeError, generation: int) -> None:
        subscription = self._subscription
        if generation != subscription.generation:
            return  # replaced by a listen with a newer filter (and cancelled by us)
        subscription.request_id = None
        if isinstance(error, RemoteError) and error.code == jsonrpc.METHOD_NOT_FOUND:
            log.info("server %s offers no subscriptions/listen; changes are not pushed", self.server)
            subscription.is_unsupported = True
            self._settle_awaiting(None, CallError(f"server {self.server!r} offers no subscriptions/listen"))
            return
        log.info("server %s: subscriptions/listen ended: %s", self.server, error)
        self._relisten(refresh=True)

    def _relisten(self, *, refresh: bool) -> None:
        if self._is_closed:
            return
        subscription = self._subscription
        delay = subscription.retry_delay
        subscription.retry_delay = min(delay * 2, LISTEN_RETRY_MAX)
        # Whatever changed while nobody listened is picked up by listing again, once the server has taken
        # the new subscription (so a server that is restarting is not asked for its tools meanwhile).
        subscription.must_refresh = subscription.must_refresh or refresh
        self.runtime.loop.call_later(delay, safe_tell, self.actor_ref, _Listen())

    def _on_subscription_notification(self, message: Notification) -> bool:
        """Handle the listen stream's own notifications; True if ``message`` was one."""
        named = modern.subscription_id_of(message.params)
        if named is not None and named != self._subscription.request_id:
            # A stream we replaced (its notifications are not asked for any more), or none of ours.
            return message.method in (modern.SUBSCRIPTIONS_ACKNOWLEDGED, proto.CANCELLED)
        if message.method != modern.SUBSCRIPTIONS_ACKNOWLEDGED:
            if message.method == proto.CANCELLED:
                params = message.params or {}
                if params.get("requestId") == self._subscription.request_id and self._lane is not None:
                    # spec: patterns/cancellation — the server tears the subscription down this way.
                    self._lane.drop(params.get("requestId", ""))
                    self._subscription.request_id = None
                    self._relisten(refresh=False)
                    return True
            return False
        self._subscription.retry_delay = LISTEN_RETRY_INITIAL
        if self._subscription.must_refresh:
            self._subscription.must_refresh = False
            self._on_list_changed()
        honoured = (message.params or {}).get("notifications")
        self._settle_awaiting(honoured if isinstance(honoured, Mapping) else None)
        if isinstance(honoured, Mapping) and dict(honoured) != self._subscription.wanted:
            log.info(
                "server %s honours only %s of the subscriptions asked for (%s)",
                self.server, dict(honoured), self._subscription.wanted,
            )  # fmt: skip
        return True

    # ---- on-demand catalogs: resources, resource templates, prompts -----------------------------------

    def _send_catalog_request(
        self,
        method: str,
        params: Mapping[str, Any] | None,
        on_result: Callable[[Mapping[str, Any]], None],
        on_error: Callable[[TroupeError], None],
    ) -> RequestId | None:
        return self._request(method, params, on_result, on_error, timeout=self.call_timeout)

    # ---- calls ------------------------------------------------------------------------------------------

    def _on_call(self, msg: CallRequest) -> None:
        reply_to = msg.reply_to
        if reply_to.done():  # cancelled before it reached us
            return
        lane = self._lane
        if self._is_closed or not self._is_ready or lane is None:
            _fail(reply_to, ConnectionLost(self.server, "the session is not connected"))
            return
        if (
            msg.method in (cb.RESOURCES_SUBSCRIBE, cb.RESOURCES_UNSUBSCRIBE)
            and self._revision is not None
            and self._revision.is_modern
        ):
            self._on_resource_subscription(msg)
            return
        timeout = msg.timeout if msg.timeout is not None else self.call_timeout
        owner = CallerOwner(reply_to, msg.context, msg.context is not None)
        if lane.request(msg.method, msg.params, owner, timeout) is None:
            _fail(reply_to, ConnectionLost(self.server, lane.close_reason or "the connection is closed"))

    # ---- what the server sends ----------------------------------------------------------------------------

    def _on_received(self, msg: Received) -> None:
        for item in msg.items:
            if isinstance(item, SessionAnswer):
                if item.error is not None:
                    item.owner.on_error(item.error)
                else:
                    assert item.result is not None
                    item.owner.on_result(item.result)
            elif isinstance(item, MalformedMessage):
                # spec: stdio — servers MUST NOT write non-MCP output to stdout; many do (a stray print).
                # One bad line is skipped so later calls are unaffected; a stream of them ends the connection.
                log.warning("server %s: skipped an unreadable frame: %s", self.server, item)
            elif isinstance(item, Request):
                self._on_server_request(item)
            else:
                self._on_notification(item)
        if msg.fatal:
            self._on_transport_down(f"{msg.fatal} from the server", ())

    def _on_server_request(self, request: Request) -> None:
        if self._revision is not None and self._revision.is_modern:
            # spec: 2026-07-28 — servers MUST NOT initiate JSON-RPC requests (they use input_required).
            self._answer_server_request(
                request,
                None,
                ErrorObject(jsonrpc.INVALID_REQUEST, "servers send no requests in protocol 2026-07-28"),
            )
            return
        if request.method == proto.PING:
            self._answer_server_request(request, {}, None)
            return
        fulfil = self.fulfil
        host = self._host
        handled = host.handles(self.server, request.method) if host is not None else fulfil is not None
        if fulfil is None or not handled or request.method not in proto.UNSUPPORTED_CLIENT_METHODS:
            # We declared no capability for it: the server must not ask, and if it does it gets a clear
            # "method not found" at once rather than a hang.
            log.info("server %s asked for %s; answered -32601", self.server, request.method)
            self._answer_server_request(
                request,
                None,
                ErrorObject(jsonrpc.METHOD_NOT_FOUND, f"Method not found: {request.method} (not supported)"),
            )
            return
        self._serving[request.id] = self.runtime.loop.spawn(
            self._fulfil_server_request, request, fulfil, name=f"{request.method} host"
        )

    async def _fulfil_server_request(self, request: Request, fulfil: Fulfiller) -> None:
        try:
            result = await fulfil(self.server, request.method, request.params or {})
        except cb.CallbackError as exc:
            safe_tell(self.actor_ref, _ServerRequestDone(request, None, exc.to_error()))
        except RemoteError as exc:
            safe_tell(self.actor_ref, _ServerRequestDone(request, None, ErrorObject(exc.code, str(exc))))
        except Exception as exc:
            # A failing handler fails this one request, with a reason the server can show.
            error = ErrorObject(
                jsonrpc.INTERNAL_ERROR, f"the client could not answer {request.method}: {exc}"
            )
            safe_tell(self.actor_ref, _ServerRequestDone(request, None, error))
        else:
            safe_tell(self.actor_ref, _ServerRequestDone(request, dict(result), None))

    def _answer_server_request(
        self, request: Request, result: Mapping[str, Any] | None, error: ErrorObject | None
    ) -> None:
        lane = self._lane
        if lane is None:
            return
        reply: jsonrpc.Message = (
            ErrorResponse(request.id, error) if error is not None else Response(request.id, result or {})
        )
        lane.respond(jsonrpc.encode(reply))

    def _on_notification(self, message: Notification) -> None:
        method = message.method
        if self._on_subscription_notification(message):
            return
        if method == proto.TOOLS_LIST_CHANGED:
            self._on_list_changed()
            return
        changed = CATALOGS_CHANGED_BY.get(method)
        if changed is not None:
            self._catalogs.changed(changed)
            return
        # Host callbacks (docs/host-callbacks.md): server logs, resource updates, a URL elicitation's end, a
        # server cancelling its own request.
        host = self._host
        params = message.params
        if host is None:
            return
        if method == proto.LOG_MESSAGE:
            host.on_log(self.server, params)
        elif method == cb.RESOURCES_UPDATED:
            host.on_resource_updated(self.server, params)
        elif method == cb.ELICITATION_COMPLETE:
            host.on_elicitation_complete(self.server, self.incarnation, params)
        elif method == proto.CANCELLED and params is not None:
            # spec: cancellation — the server gave up on its own request: stop asking the human.
            handle = self._serving.pop(params.get("requestId", ""), None)
            if handle is not None:
                handle.cancel()

    # ---- HTTP: session expiry ---------------------------------------------------------------------------

    def _on_session_expired(self, sent: list[tuple[bytes, Outgoing]]) -> None:
        """Start one new session for however many requests failed, and retry those it is safe to retry.

        spec: 2025-06-18 transports, session management — a 404 to a request carrying a session id means the
        session is gone; the client MUST start a new one with a fresh initialize (without the old id).
        """
        lane = self._lane
        if self._info is None or self._is_closed or lane is None:
            # Expired before the first handshake finished: that is a failed connect, not an expiry.
            self._on_transport_down("the server dropped the session during the handshake", ())
            return
        retry: list[tuple[bytes, Outgoing]] = []
        for frame, outgoing in sent:
            request_id = outgoing.request_id
            if request_id is None:
                continue  # notifications and our responses are not worth replaying to a new session
            pending = lane.pending_of(request_id)
            if pending is None:
                continue
            if pending.method == proto.INITIALIZE:
                self._report_failure(ConnectionLost(self.server, "the server refused a new session"))
                return
            decision = expiry_decision(pending, pending.params)
            if decision == "relist":
                # A cursor from a dead session means nothing to the new one: the listing restarts instead.
                lane.drop(request_id)
                if pending.method == proto.TOOLS_LIST:
                    self._listing = None
                    self._is_catalog_dirty = True
                else:
                    self._catalogs.stall(pending.method)
            elif decision == "fail":
                lane.fail(request_id, ConnectionLost(self.server, "the session expired again after a retry"))
            else:
                lane.mark_retried(request_id)
                retry.append((frame, outgoing))
        if not self._is_renewing:
            log.info("server %s: HTTP session expired; starting a new session", self.server)
            self._is_renewing = True
            self._retry_first = retry
            lane.hold()
            self._handshake = Handshake(
                server=self.server,
                client_info={"name": CLIENT_NAME, "version": __version__},
                capabilities=self._handshake.capabilities,
                pin=self._revision.version if self._revision is not None else "legacy",
            )
            self._step(self._handshake.start())
        else:
            self._retry_first.extend(retry)

    def _on_renewed(self) -> None:
        lane = self._lane
        assert lane is not None
        self._is_renewing = False
        safe_tell(self.supervisor, SessionRenewed(self.incarnation, self._session_id))
        retry, self._retry_first = self._retry_first, []
        # Retried requests go out first, then everything held meanwhile.
        lane.release(retry)
        self._catalogs.replaced()
        # The new session may expose a different catalog; rediscover it (all pages).
        assert self._info is not None
        if self._info.has_tools:
            if self._listing is None:
                self._start_listing()
            else:
                self._is_catalog_dirty = True

    # ---- host callbacks: log level, roots changes, resource subscriptions (legacy era) -------------------

    def _start_host_callbacks(self, info: InitializeResult) -> None:
        host = self._host
        lane = self._lane
        if host is None or lane is None:
            return
        level = host.log_level(self.server)
        if level is not None and info.offers("logging"):
            # spec: legacy server/utilities/logging — the client MAY send logging/setLevel; a server that
            # refuses keeps its default, which is no reason to fail the session.
            self._request(
                cb.LOGGING_SET_LEVEL,
                {"level": level},
                lambda _result: None,
                lambda error: log.info("server %s refused logging/setLevel: %s", self.server, error),
                timeout=self.handshake_timeout,
            )
        if host.handles(self.server, cb.ROOTS_LIST):

            def notify() -> None:
                # spec: legacy client/roots — the client SHOULD tell the server its roots changed.
                lane.notify(cb.ROOTS_LIST_CHANGED)

            self._roots_notify = notify
            host.watch_roots(self.server, notify)
        for uri in host.attach(self.server, self._host_sender()):
            # A reconnect is a new session: the server forgot our subscriptions with the old one.
            self._request(
                cb.RESOURCES_SUBSCRIBE,
                {"uri": uri},
                lambda _result: None,
                lambda error: log.warning("server %s: subscribing again failed: %s", self.server, error),
                timeout=self.handshake_timeout,
            )

    def _host_sender(self) -> Callable[[str, Mapping[str, Any]], Future[Any]]:
        """How the host sends a request on this session (subscriptions), from any thread."""
        self_ref = self.actor_ref

        def send(method: str, params: Mapping[str, Any]) -> Future[Any]:
            future: Future[Any] = Future()
            if not safe_tell(self_ref, CallRequest(method, params, future)):
                _fail(future, ConnectionLost(self.server, "the session ended"))
            return future

        self._host_send = send
        return send

    def _attach_modern_subscriptions(self) -> None:
        """Modern era: the host's resource subscriptions ride on the listen filter, which the first
        ``subscriptions/listen`` carries (spec: 2026-07-28 — resources/subscribe is removed)."""
        if self._host is not None:
            self._subscription.resources = set(self._host.attach(self.server, self._host_sender()))

    def _end_host_callbacks(self) -> None:
        self._settle_awaiting(None, ConnectionLost(self.server, "the session ended"))
        serving, self._serving = self._serving, {}
        for handle in serving.values():
            handle.cancel()
        host = self._host
        if host is None:
            return
        if self._roots_notify is not None:
            host.unwatch_roots(self.server, self._roots_notify)
            self._roots_notify = None
        if self._host_send is not None:
            host.detach(self.server, self._host_send)
            self._host_send = None

    # ---- failure -------------------------------------------------------------------------------------------

    def _fail_all(self, error: TroupeError) -> None:
        # DESIGN rule 4: a dead connection fails every pending call at once, never at its timeout.
        self._end_host_callbacks()
        if self._lane is not None:
            self._lane.close(error)
        # The session's own waiters: on-demand listings' callers and calls held for a header mismatch.
        self._catalogs.fail_all(error)
        waiting, self._after_listing = self._after_listing, []
        for pending, _error in waiting:
            if isinstance(pending.owner, CallerOwner):
                _fail(pending.owner.reply, error)

    def _on_transport_down(self, reason: str, stderr_tail: tuple[str, ...]) -> None:
        if self._is_closed:
            return
        self._is_closed = True
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
        self._fail_all(ConnectionLost(self.server, str(error)))
        if self._is_ready:
            safe_tell(self.supervisor, SessionLost(self.incarnation, str(error)))
        else:
            safe_tell(self.supervisor, SessionFailed(self.incarnation, error))
