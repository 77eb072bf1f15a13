"""SessionActor: one per connection (incarnation). Owns the protocol conversation: the handshake and the era
it settles on, the server's capabilities, the tool catalog's paging and refreshes, the on-demand catalogs,
the modern era's ``subscriptions/listen``, HTTP session expiry, and the server's requests to us.

It does not own request bookkeeping: every request it sends, and every call it forwards, goes through the
connection's :class:`~mcp_troupe.actors.lane.CallLane` — the one request engine of the connection (ids,
pending requests, deadlines, cancellation, late answers, ``input_required`` rounds). The lane completes a
caller's future on the loop; the session's own requests come back to this thread as
:class:`~mcp_troupe.actors.lane.SessionAnswer` items of a ``Received``, in order with the server's requests
and notifications.

Flow (DESIGN §3): the transport opens (the supervisor starts it to open at once; a ``Connect`` here tells
it ``Open`` instead) → ``Opened(lane)`` → the handshake
(:class:`~mcp_troupe.protocol.handshake.Handshake`: the ``server/discover`` probe, or ``initialize`` with a
version negotiation) → legacy: ``notifications/initialized`` → ``tools/list`` page by page →
``SessionReady`` to the supervisor → modern: ``subscriptions/listen`` for the change notifications the server
offers. Calls arrive as ``CallRequest`` with a ``reply_to`` future. Nothing here blocks.

A re-listing reuses the definitions of unchanged pages and tools (the same objects), so that nothing
downstream checks them again. The other catalogs (resources, resource templates, prompts) are listed on
demand, by ``ListAll``: all pages, cached for the life of this session (modern: for the ``ttlMs`` the server
gave), shared by every ``ListAll`` that arrives while one listing is in flight, and dropped by the matching
``list_changed``.

Its parts: ``session_messages`` (what it takes and reports), ``session_listen`` (the modern era's
``subscriptions/listen`` stream), ``session_serving`` (the server's requests to us, handshake era),
``session_tools`` (the tool listing's pages and their reuse) and ``catalogs`` (the on-demand catalogs).
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, assert_never

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
from mcp_troupe.actors.session_listen import ListenStream
from mcp_troupe.actors.session_messages import (
    CallRequest,
    CancelCall,
    CatalogChanged,
    Close,
    Connect,
    Opened,
    OpenFailed,
    Outbound,
    SessionExpired,
    SessionFailed,
    SessionLost,
    SessionReady,
    SessionRenewed,
    TransportDown,
)
from mcp_troupe.actors.session_serving import ServerRequestDone, ServerRequests
from mcp_troupe.actors.session_tools import ToolListing
from mcp_troupe.actors.supervision import Supervised
from mcp_troupe.actors.transport import Open
from mcp_troupe.errors import (
    AuthError,
    CallCancelled,
    CallTimedOut,
    ConnectFailed,
    ConnectionLost,
    MalformedMessage,
    ProtocolError,
    RemoteError,
    TroupeError,
    UnsupportedProtocolVersion,
)
from mcp_troupe.protocol import callbacks as cb
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol import modern
from mcp_troupe.protocol import tasks as task_proto
from mcp_troupe.protocol.engine import Pending, expiry_decision
from mcp_troupe.protocol.handshake import Failed, Handshake, Send, Settled
from mcp_troupe.protocol.jsonrpc import Notification, Request, RequestId
from mcp_troupe.protocol.mcp import InitializeResult, ToolDefinition
from mcp_troupe.protocol.versions import Era, Revision

if TYPE_CHECKING:
    from mcp_troupe.host import Host

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


def handshake_horizon(handshake_timeout: float) -> float:
    """The shortest timeout a handshake request of a session with ``handshake_timeout`` sets: the probe's.

    A lane timer armed this far ahead before the handshake starts (as the stdio transport's open task does,
    on the loop) fires before any handshake deadline, so the handshake's requests arm none of their own: no
    loop post from the session's thread to wake the idle loop (issue 18: a connect's client cost).
    """
    return min(PROBE_TIMEOUT, handshake_timeout)


def no_capabilities(revision: Revision) -> Mapping[str, Any]:
    """The capabilities we declare with no host handlers installed: none (servers then must not ask)."""
    return {}


def _declaring_tasks(
    capabilities: Callable[[Revision], Mapping[str, Any]],
) -> Callable[[Revision], Mapping[str, Any]]:
    """``capabilities`` plus, in the modern era, the tasks extension (legacy eras need no declaration)."""
    return functools.partial(_with_tasks, capabilities)


# Module functions bound with partials, not closures: a partial keeps fewer objects a connection than a
# function with its cells (issue 18: what a gateway's servers keep, its collector walks).
def _with_tasks(
    capabilities: Callable[[Revision], Mapping[str, Any]], revision: Revision
) -> Mapping[str, Any]:
    base = capabilities(revision)
    return task_proto.with_extension(base) if revision.is_modern else base


def _host_capabilities(host: Host, server: str, revision: Revision) -> Mapping[str, Any]:
    return host.capabilities(server, revision.version)


@dataclass(frozen=True, slots=True)
class _Listen:
    pass


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
    | _Listen
    | ServerRequestDone
)


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
        on_first_pages: Callable[[bool, tuple[ToolDefinition, ...], float], None] | None = None,
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
                capabilities = functools.partial(_host_capabilities, host, server)
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
        self._tools = ToolListing()
        # Each page of the first listing, also handed on as it arrives (``(is_first_page, tools, seconds the
        # server took)``): the registry may judge it while the next page is fetched (actors/prejudging.py).
        self._on_first_pages = on_first_pages
        self._page_asked_at = 0.0
        # Calls refused for a header mismatch, sent again once the tools are listed anew.
        self._after_listing: list[tuple[Pending, TroupeError]] = []
        # The other catalogs, listed on demand (ListAll): complete lists by method, and listings in flight.
        self._catalogs = Catalogs(
            server=server,
            send=self._send_catalog_request,
            is_modern=self._is_modern,
        )
        self._listen_stream = ListenStream(self)
        self._server_requests = ServerRequests(server, runtime, fulfil, self.actor_ref)

    def _is_modern(self) -> bool:
        return self._revision is not None and self._revision.is_modern

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
            case _Listen():
                self._listen_stream.listen()
            case ServerRequestDone():
                self._server_requests.on_done(msg, self._lane)
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

    def request(
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
        """Send a request of the session's own through the lane; its answer comes to one of the callbacks."""
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
        msg.lane.tasks.on_event = functools.partial(self.runtime.emit, "task", self.server, self.incarnation)
        self._step(self._handshake.start())

    def _step(self, step: Send | Settled | Failed) -> None:
        match step:
            case Send():
                # The probe's timeout is ours to act on (a fallback to legacy), not a failure: the lane
                # gives up on it at its own deadline without a cancel (RequestEngine.cancel_frame), and the
                # CallTimedOut reaching _on_handshake_error falls back. One lane deadline, not a second
                # timer posted from this thread (a wake-up of the loop less a connect, issue 18).
                request_id = self.request(
                    step.method,
                    step.params,
                    self._on_handshake_result,
                    self._on_handshake_error,
                    timeout=handshake_horizon(self.handshake_timeout)
                    if step.is_probe
                    else self.handshake_timeout,
                    # The handshake creates the session that held frames wait for.
                    past_hold=True,
                )
                self._handshake_request = request_id
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
        elif isinstance(error, CallTimedOut):
            # No answer to server/discover in time: a legacy server that ignores unknown methods. The lane
            # has forgotten the probe (a late answer is dropped); fall back.
            self._step(self._handshake.on_no_answer(f"no answer within {error.timeout:g} s"))
        else:
            # HTTP refused the probe without a JSON-RPC body (404, 405, 400 with nothing we recognise): a
            # legacy server.
            self._step(self._handshake.on_no_answer(str(error)))

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
        self._tools.begin()
        if self._lane is not None:
            self._lane.begin_listing()
        self._request_page(None)

    def _request_page(self, cursor: str | None) -> None:
        timeout = self.call_timeout if self._is_ready else self.handshake_timeout
        self._page_asked_at = time.monotonic()
        self._tools.request = self.request(
            proto.TOOLS_LIST,
            proto.list_params(cursor),
            self._on_tools_page,
            self._on_listing_failed,
            timeout=timeout,
            memoize=True,
        )

    def _on_tools_page(self, result: Mapping[str, Any]) -> None:
        waited = time.monotonic() - self._page_asked_at
        listing = self._tools
        guard = listing.guard
        if guard is None:
            return
        listing.request = None
        try:
            page = listing.parse(
                result,
                revision=self._revision,
                lane=self._lane,
                capabilities=self._info.capabilities if self._info is not None else {},
                server=self.server,
            )
            listing.add(page)
            if page.next_cursor is not None and not listing.is_dirty:
                guard.follow(page.next_cursor)
                self._request_page(page.next_cursor)
                if self._on_first_pages is not None and not self._is_ready:
                    # Once the next page is asked for: the registry judges this one while the server
                    # answers. (The last page comes with the catalog: there is nothing to overlap it with.)
                    self._on_first_pages(guard.pages == 1, page.tools, waited)
                return
        except ProtocolError as exc:
            listing.abandon()
            self._on_listing_error(exc)
            return
        listing.guard = None
        if listing.is_dirty:
            # A list_changed arrived while we were listing: what we have may be stale. List again from the
            # start rather than publish a mix of old and new pages.
            self._start_listing()
            return
        self._publish_catalog()

    def _on_listing_failed(self, error: TroupeError) -> None:
        if not self._tools.is_listing:
            return
        self._tools.abandon()
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
        if self._tools.is_dirty:
            # A list_changed arrived while the failed listing was in flight: it still asks for a refresh.
            self._start_listing()

    def _publish_catalog(self) -> None:
        tools, rejected = self._tools.publish()
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
            self._listen_stream.listen()

    def on_list_changed(self) -> None:
        """List the tools again, and drop the cached catalogs."""
        if self._info is None:
            return
        if self._tools.is_listing:
            self._tools.is_dirty = True
        elif self._is_ready:
            self._start_listing()

    def _on_header_mismatch(self, pending: Pending, error: TroupeError) -> None:
        # spec: 2026-07-28 streamable-http — HeaderMismatch: the client lists the tools again, then retries.
        self._after_listing.append((pending, error))
        self.on_list_changed()

    def _retry_after_listing(self, failure: TroupeError | None) -> None:
        waiting, self._after_listing = self._after_listing, []
        lane = self._lane
        for pending, error in waiting:
            if lane is None or failure is not None:
                if isinstance(pending.owner, CallerOwner):
                    _fail(pending.owner.reply, error)
                continue
            lane.resend(pending, error)

    # ---- what the listen stream (session_listen.ListenHost) asks of the session ------------------------

    @property
    def info(self) -> InitializeResult | None:
        """The server's capabilities, once the handshake settled."""
        return self._info

    @property
    def is_closed(self) -> bool:
        """Whether the session is closing or closed."""
        return self._is_closed

    @property
    def lane(self) -> CallLane | None:
        """The connection's lane, while it is open."""
        return self._lane

    def listen_later(self, delay: float) -> None:
        """Open the listen stream again after ``delay`` seconds, on this actor's thread."""
        self.runtime.loop.call_later(delay, safe_tell, self.actor_ref, _Listen())

    # ---- on-demand catalogs: resources, resource templates, prompts -----------------------------------

    def _send_catalog_request(
        self,
        method: str,
        params: Mapping[str, Any] | None,
        on_result: Callable[[Mapping[str, Any]], None],
        on_error: Callable[[TroupeError], None],
    ) -> RequestId | None:
        return self.request(method, params, on_result, on_error, timeout=self.call_timeout)

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
            self._listen_stream.on_resource_subscription(msg.method, msg.params, msg.reply_to)
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
                is_modern = self._revision is not None and self._revision.is_modern
                self._server_requests.on_request(item, self._lane, is_modern=is_modern)
            else:
                self._on_notification(item)
        if msg.fatal:
            self._on_transport_down(f"{msg.fatal} from the server", ())

    def _on_notification(self, message: Notification) -> None:
        method = message.method
        if self._listen_stream.on_notification(message):
            return
        if method == proto.TOOLS_LIST_CHANGED:
            self.on_list_changed()
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
            self._server_requests.on_cancelled(params.get("requestId"))

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
                    self._tools.abandon()
                    self._tools.is_dirty = True
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
            if not self._tools.is_listing:
                self._start_listing()
            else:
                self._tools.is_dirty = True

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
            self.request(
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
            self.request(
                cb.RESOURCES_SUBSCRIBE,
                {"uri": uri},
                lambda _result: None,
                lambda error: log.warning("server %s: subscribing again failed: %s", self.server, error),
                timeout=self.handshake_timeout,
            )

    def _host_sender(self) -> Callable[[str, Mapping[str, Any]], Future[Any]]:
        """How the host sends a request on this session (subscriptions), from any thread."""
        send = self._host_send = self._send_for_host
        return send

    def _send_for_host(self, method: str, params: Mapping[str, Any]) -> Future[Any]:
        future: Future[Any] = Future()
        if not safe_tell(self.actor_ref, CallRequest(method, params, future)):
            _fail(future, ConnectionLost(self.server, "the session ended"))
        return future

    def _attach_modern_subscriptions(self) -> None:
        """Modern era: the host's resource subscriptions ride on the listen filter, which the first
        ``subscriptions/listen`` carries (spec: 2026-07-28 — resources/subscribe is removed)."""
        if self._host is not None:
            self._listen_stream.resources = set(self._host.attach(self.server, self._host_sender()))

    def _end_host_callbacks(self) -> None:
        self._listen_stream.settle_awaiting(None, ConnectionLost(self.server, "the session ended"))
        self._server_requests.cancel_all()
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
