"""HttpConnection: the I/O-loop side of one Streamable HTTP connection (incarnation). Owns the HTTP client,
the transport-level session id, the protocol-version header and the SSE state.

Its actor, :class:`~mcp_troupe.actors.http.HttpTransport`, only keeps the lifecycle. The connection is
also the session's :class:`~mcp_troupe.actors.session.Outbound`. One long-lived owner task per connection
enters and leaves the HTTP client and the cancel scope every exchange runs under, so no cancel scope or
client is ever closed from a task other than the one that opened it (the anyio task-affinity trap,
research/PEERS §2.6). The client is :class:`~mcp_troupe.actors.h1.Http1Client` (lean keep-alive HTTP/1.1,
``docs/http.md``), or an ``httpx.AsyncClient`` when a proxy applies or the URL carries credentials
(:func:`~mcp_troupe.actors.http_pool.http_client`).

What goes over the wire (spec: 2025-03-26 and 2025-06-18 basic/transports, "Streamable HTTP"):

- Every outgoing JSON-RPC message is its own POST, with ``Accept: application/json, text/event-stream``.
  POSTs run concurrently, one task each; requests hold one of :data:`MAX_IN_FLIGHT` slots (the rest queue in
  order), notifications and our responses do not, so a ``notifications/cancelled`` never waits behind the
  calls it cancels. Frames sent after ``notifications/initialized`` wait until that POST was answered:
  servers that check the lifecycle refuse requests that overtake it.
- The answer is ``application/json`` (one message, or for 2025-03-26 a batch, split into frames), an
  ``text/event-stream`` of messages (server requests and notifications may come before the response), or
  ``202 Accepted`` for a notification or response we sent. Every message goes to the connection's lane (its
  request engine) in arrival order.
- ``Mcp-Session-Id`` is taken only from a successful ``initialize`` answer and sent on every later request;
  ``MCP-Protocol-Version`` is sent after the handshake when the negotiated revision has that header
  (2025-06-18). Neither goes on ``initialize`` itself.
- A 4xx/5xx answer to a request fails that call (``lane.fail`` with an :class:`HttpError`, or the JSON-RPC
  error its body carries, as modern servers send); it is never
  retried here. A 404 to a request that carried a session id means the session is gone: the id is dropped
  first, then ``SessionExpired`` is reported and the session re-initialises.
- Authorization (``auth: oauth``): every request carries ``Authorization: Bearer <token>`` from the server's
  :class:`TokenSource` (the OAuthFlow's loop side), awaited on the loop — never an actor hop per request.
  A 401 renews the token (one renewal shared by every request that saw the same token fail) and retries the
  request once; a 403 ``insufficient_scope`` steps up the scopes and retries, at most three times per
  request. An :class:`~mcp_troupe.errors.AuthError` (``NeedsLogin`` above all) fails that request only.
  Without OAuth, 401/403 fail the call through :meth:`HttpConnection._on_unauthorized`.
- A network failure on a POST (refused, reset, unreadable) means the server is gone: ``TransportDown``.
- A POST's SSE stream that breaks before its response is resumed with ``GET`` + ``Last-Event-ID`` when the
  server gave event ids (after its ``retry`` delay); a disconnect is never a cancellation. The reading and
  resuming of a POST's event stream are :mod:`~mcp_troupe.actors.http_stream`.
- After ``notifications/initialized``, a ``GET`` stream listens for server-initiated messages (this is how
  ``notifications/tools/list_changed`` arrives); 405 means the server offers none and it is not retried.
- Closing sends ``DELETE`` with the session id (405 is fine), then closes the client.
- A message larger than ``max_frame`` (a JSON body or one SSE event) fails the whole connection with
  ``TransportDown``, as on stdio: the supervisor reconnects, and the reason names the limit.
"""

from __future__ import annotations

import asyncio
import json
import logging
import ssl
from collections.abc import Coroutine, Mapping
from types import MappingProxyType
from typing import Any, assert_never

import anyio
import pykka

from mcp_troupe._httpx import httpx
from mcp_troupe._version import __version__
from mcp_troupe.actors.h1 import Answer, Http1Client
from mcp_troupe.actors.http_listen import GetStream
from mcp_troupe.actors.http_pool import http_client
from mcp_troupe.actors.http_stream import frames_of, read_stream
from mcp_troupe.actors.http_wire import (
    ACCEPT_POST,
    RESERVED_HEADERS,
    RESERVED_WITH_OAUTH,
    SESSION_HEADER,
    VERSION_HEADER,
    Challenge,
    TokenSource,
    answer_kind,
    describe,
    error_body,
    error_excerpt,
    excerpt_of,
    is_session_id,
    media_type,
    method_of,
    read_bounded,
    split_batch,
)
from mcp_troupe.actors.lane import CallLane, Outgoing
from mcp_troupe.actors.loop import Runtime, safe_tell
from mcp_troupe.actors.session import Opened, OpenFailed, SessionExpired, TransportDown
from mcp_troupe.actors.transport import WriteQueue
from mcp_troupe.config import ServerConfig
from mcp_troupe.errors import (
    AuthError,
    ConnectFailed,
    ConnectionLost,
    FrameTooLarge,
    HttpError,
    TroupeError,
)
from mcp_troupe.policy.redaction import Redactor
from mcp_troupe.protocol import jsonrpc, modern
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol.jsonrpc import ErrorObject, ErrorResponse, Notification, Request, RequestId, Response
from mcp_troupe.protocol.sse import SseEvent
from mcp_troupe.protocol.versions import REVISIONS

__all__ = ["MAX_IN_FLIGHT", "HttpConnection"]

log = logging.getLogger("mcp_troupe.http")

MAX_IN_FLIGHT = 64
"""Requests one transport has on the wire at once; later ones queue in order."""
# DPoP nonce challenges (401 use_dpop_nonce) one POST answers by sending again before it counts as refused.
MAX_NONCE_RETRIES = 2
# DELETE on close: bounded by the close's grace period, within these limits.
MIN_DELETE_TIMEOUT = 0.5
MAX_DELETE_TIMEOUT = 5.0
# How long the requests after the handshake wait for the server to answer the GET stream (see _post): a
# server that answers it at once costs one round trip; one that holds its headers back costs at most this.
GET_GATE_SECONDS = 0.5
# Merged POST headers kept (see _post_headers): a handful of states times the lane's distinct extras.
MAX_CACHED_POST_HEADERS = 256


class _SetVersion:
    __slots__ = ("version",)

    def __init__(self, version: str) -> None:
        self.version = version


class HttpConnection:
    """The loop side of one HTTP connection. Every method except the Outbound ones runs on the I/O loop."""

    def __init__(
        self,
        config: ServerConfig,
        incarnation: int,
        session: pykka.ActorRef[Any],
        runtime: Runtime,
        max_frame: int,
        auth: TokenSource | None = None,
    ) -> None:
        assert config.url is not None
        self.server = config.name
        self.url = config.url
        self.config = config
        self.incarnation = incarnation
        self.session = session
        self.runtime = runtime
        self.max_frame = max_frame
        self.auth = auth

        reserved = RESERVED_WITH_OAUTH if auth is not None else RESERVED_HEADERS
        ignored = sorted(name for name in config.headers if name.lower() in reserved)
        if ignored:
            # Names only: the values may be secrets.
            log.warning(
                "server %s: headers %s are set by the transport; configured values ignored",
                self.server,
                ", ".join(ignored),
            )
        # Server-sent text becomes an error or a log line only through this (issue 15: echoed headers).
        self.redactor = Redactor.for_connection(config.headers, config.env)
        self._base_headers: dict[str, str] = {
            "User-Agent": f"mcp-troupe/{__version__}",
            **{name: value for name, value in config.headers.items() if name.lower() not in reserved},
        }

        # Transport-level state, written on the loop; `session_id` is read from the session's thread.
        self._session_id: str | None = None
        self._protocol_version: str | None = None
        self._client: httpx.AsyncClient | Http1Client | None = None
        # The scope of run()'s exchanges while it runs (None before and after): cancelled when the connection
        # goes down. Not an anyio task group: the GET stream, its one child task, is a plain asyncio task
        # (_start_child) whose end run() awaits. A task group and anyio's per-task handle, events and closure
        # were ~40 objects a connection that every full garbage collection walked (issue 18).
        self._run_scope: anyio.CancelScope | None = None
        self._children: set[asyncio.Task[None]] = set()
        self._slots: asyncio.Semaphore | None = None
        # Each POST is an asyncio task of its own (see _start_post); a request's, by id, for cancellation.
        self._posts: set[asyncio.Task[None]] = set()
        self._in_flight: dict[RequestId, asyncio.Task[None]] = {}
        # Set while the connection runs: queued writes become POSTs as soon as the loop sees them.
        self._is_pumping = False
        # Set while a `notifications/initialized` POST is out: later frames wait for it.
        self._gate: asyncio.Event | None = None
        self._get_stream = GetStream(self)

        self._is_started = False
        self._is_down = False
        self._is_closing = False
        self._close_requested = asyncio.Event()
        self._run_done = asyncio.Event()
        self._delete_timeout = MIN_DELETE_TIMEOUT
        # headers() without a token, by (accept, with session, session id, protocol version).
        self._headers_by_state: dict[tuple[str, bool, str | None, str | None], dict[str, str]] = {}
        # A POST's merged headers by (with session, session id, protocol version, id of the lane's extra).
        self._post_headers_by_state: dict[
            tuple[bool, str | None, str | None, int], tuple[Mapping[str, str], Mapping[str, str]]
        ] = {}

        # Writes from the session thread are queued here and applied by one loop callback per burst.
        self._out: WriteQueue[tuple[bytes, Outgoing] | _SetVersion] = WriteQueue(runtime.loop, self._flush)
        # The connection's request engine: every request goes through it; answers read here go to it.
        self.lane = CallLane(
            server=self.server,
            incarnation=incarnation,
            session=session,
            loop=runtime.loop,
            send=self.send,
            is_http=True,
        )
        self._is_modern = False

    # ---- Outbound (called from the session's thread) ---------------------------------------------------

    @property
    def client(self) -> httpx.AsyncClient | Http1Client | None:
        """The HTTP client while the connection runs (the GET stream's way out)."""
        return self._client

    def send(self, frame: bytes, outgoing: Outgoing, direct: bool = True) -> None:
        """Queue ``frame`` (which is ``outgoing``) to be POSTed; safe to call from any thread."""
        self._out.put((frame, outgoing))

    def set_protocol_version(self, version: str) -> None:
        """Send ``MCP-Protocol-Version`` on every frame queued after this (when the revision has it)."""
        self._out.put(_SetVersion(version))

    @property
    def session_id(self) -> str | None:
        """The ``Mcp-Session-Id`` the server issued on the last successful ``initialize``, if any."""
        return self._session_id

    def _flush(self) -> None:
        # A plain loop callback, outside any task. It starts the POSTs itself (plain asyncio tasks, which
        # need no task context to create, unlike anyio's start_soon and cancel scopes with sniffio
        # installed): no pump task to wake, one loop pass less per call. Before the connection runs, what
        # is queued waits for run() to drain it.
        if self._is_pumping:
            self._drain()

    def _drain(self) -> None:
        with self._out.lock:
            items = self._out.take_locked()
        for item in items:
            if isinstance(item, _SetVersion):
                revision = REVISIONS.get(item.version)
                # spec: 2025-06-18 transports, protocol version header — "the client MUST include the
                # MCP-Protocol-Version: <protocol-version> HTTP header on all subsequent requests". 2025-03-26
                # and 2024-11-05 have no such header.
                has_header = revision is not None and revision.protocol_version_header
                self._protocol_version = item.version if has_header else None
                # spec: 2026-07-28 streamable-http — no sessions; the version goes on every request in the
                # headers the lane derives from it (they match the request's _meta).
                self._is_modern = revision is not None and revision.is_modern
            else:
                self._start_post(*item)

    # ---- opening and closing (on the loop) ---------------------------------------------------------------

    async def run(self, ssl_context: ssl.SSLContext | None, proxy: str | None) -> None:
        """Own the client and every exchange until closed: the connection's one long-lived task."""
        self._is_started = True
        if self._is_closing:
            self._run_done.set()
            return
        try:
            timeout = httpx.Timeout(
                connect=self.config.connect_timeout,
                # None: an SSE stream may rightly stay silent for as long as the tool runs; the session's
                # per-call deadlines govern, and a cancelled call's POST is cancelled here too.
                read=None,
                write=self.config.connect_timeout,
                pool=self.config.connect_timeout,
            )
            client = http_client(self.url, ssl_context, proxy, timeout)
        except (httpx.InvalidURL, ValueError, ImportError) as exc:  # a bad proxy URL; socks without socksio
            self._is_down = True
            self._run_done.set()
            safe_tell(self.session, OpenFailed(self.incarnation, ConnectFailed(self.server, describe(exc))))
            return
        self._client = client
        try:
            try:
                with anyio.CancelScope() as run_scope:
                    self._run_scope = run_scope
                    # asyncio's, not anyio's: anyio's acquire yields to the loop even when a slot is free
                    # (a cancel-shielded checkpoint), one more loop pass on every call. A cancelled call's
                    # POST task leaves the queue for a slot as it would anyio's (a CancelledError there).
                    self._slots = asyncio.Semaphore(MAX_IN_FLIGHT)
                    self._is_pumping = True
                    self._drain()  # anything queued before the connection ran goes out now
                    # No network I/O is needed to "open": the first POST (initialize) connects.
                    # connect_timeout, enforced by the supervisor, covers the TCP connect and the handshake.
                    safe_tell(self.session, Opened(self.incarnation, self, self.lane))
                    await self._close_requested.wait()
                    self._stop_posts()
                    run_scope.cancel()
                await self._children_ended()
            except Exception as exc:
                # A bug in the connection's own code ends every exchange: report the connection as failed so
                # that no call waits for an answer that cannot come, and let the supervisor reconnect.
                log.exception("server %s: the HTTP transport failed", self.server)
                self.report_down(f"the HTTP transport failed: {exc!r}")
            # Down (the run scope was cancelled from inside) or closing: either way wait for the close,
            # so that the DELETE below happens once, on the supervisor's terms.
            await self._close_requested.wait()
            self._stop_posts()
            await self._posts_ended()
            await self._delete_session()
        finally:
            self._stop_posts()
            self._run_scope = None
            with anyio.CancelScope(shield=True):
                await self._children_ended()
                await client.aclose()
            self._client = None
            self._run_done.set()

    async def close(self, grace: float) -> None:
        """Stop every exchange, DELETE the session (bounded by ``grace``), close the client."""
        self._is_closing = True
        self._delete_timeout = min(max(grace, MIN_DELETE_TIMEOUT), MAX_DELETE_TIMEOUT)
        if not self._is_started:
            return
        self._close_requested.set()
        with anyio.move_on_after(self._delete_timeout + 5.0):
            await self._run_done.wait()

    def abort(self) -> None:
        """Close at once, without waiting for anything (the actor stopped without a graceful close)."""
        self._is_closing = True
        self._delete_timeout = MIN_DELETE_TIMEOUT
        self._close_requested.set()

    async def _delete_session(self) -> None:
        session_id = self._session_id
        client = self._client
        if session_id is None or client is None:
            return
        # spec: 2025-06-18 transports, session management — "Clients that no longer need a particular session
        # SHOULD send an HTTP DELETE to the MCP endpoint with the Mcp-Session-Id header"; the server MAY
        # answer 405. Whatever happens, closing goes on.
        try:
            with anyio.fail_after(self._delete_timeout):
                token = await self.token_or_none()
                headers = self.headers(ACCEPT_POST, with_session=True, token=token, method="DELETE")
                response = await client.delete(self.url, headers=headers)
        except (httpx.HTTPError, TimeoutError) as exc:
            log.debug(
                "server %s: DELETE of the session failed: %s",
                self.server,
                self.redactor.redact(describe(exc)),
            )
            return
        if response.status_code >= 400 and response.status_code not in (404, 405):
            log.info("server %s: DELETE of the session answered HTTP %d", self.server, response.status_code)

    # ---- reports -----------------------------------------------------------------------------------------

    def _tell(self, message: object) -> None:
        if not self._is_closing and not self._is_down:
            safe_tell(self.session, message)

    def deliver(self, frames: list[bytes]) -> None:
        if frames and not self._is_closing and not self._is_down:
            self.lane.receive(frames)

    def report_down(self, reason: str) -> None:
        if self._is_down or self._is_closing:
            return
        reason = self.redactor.redact(reason)
        log.info("server %s (incarnation %d): transport down: %s", self.server, self.incarnation, reason)
        # Callers fail now, before anyone hears of it (DESIGN rule 4): the lane knows the connection ended.
        self.lane.close(ConnectionLost(self.server, reason))
        safe_tell(self.session, TransportDown(self.incarnation, reason))
        self._is_down = True
        # Stop every exchange now; the client itself is closed when the supervisor closes us.
        self._stop_posts()
        if self._run_scope is not None:
            self._run_scope.cancel()
        self._get_stream.stop()  # the run scope's child, as it was the task group's

    def _stop_posts(self) -> None:
        """Cancel every POST (down or closing): no queued write becomes one any more."""
        self._is_pumping = False
        for task in self._posts:
            task.cancel()

    async def _posts_ended(self) -> None:
        """Wait (shielded, bounded) until the cancelled POSTs have run their cleanup, as task groups do."""
        posts = [task for task in self._posts if not task.done()]
        if posts:
            with anyio.CancelScope(shield=True):
                await asyncio.wait(posts, timeout=MAX_DELETE_TIMEOUT)

    def fail_request(self, request: Request, error: TroupeError) -> None:
        if not self._is_closing:
            self.lane.fail(request.id, error)

    # ---- POST -------------------------------------------------------------------------------------------

    def headers(
        self, accept: str, *, with_session: bool, token: str | None = None, method: str = "POST"
    ) -> dict[str, str]:
        """The headers of one request (a fresh dict: the caller may add to it)."""
        if token is None or self.auth is None:
            # Without a token the headers depend only on this key: built (and shown to the redactor) once,
            # copied per request, instead of merged and scanned again on every call.
            key = (accept, with_session and not self._is_modern, self._session_id, self._protocol_version)
            cached = self._headers_by_state.get(key)
            if cached is None:
                if len(self._headers_by_state) >= 16:  # session ids change on re-initialisation only
                    self._headers_by_state.clear()
                cached = self._headers_by_state[key] = self._build_headers(accept, with_session, None, method)
            return dict(cached)
        return self._build_headers(accept, with_session, token, method)

    def _post_headers(
        self, with_session: bool, token: str | None, extra: Mapping[str, str]
    ) -> Mapping[str, str]:
        """A POST's headers: the connection's, ``Content-Type``, and the lane's per-request ``extra``.

        Without a token they depend only on the connection's state and on ``extra``, which for most requests
        is the same read-only mapping call after call (none for a legacy request; the method and name
        headers of a modern one, see :func:`mcp_troupe.protocol.modern.request_headers`). Those are merged
        once and reused, read-only, instead of copied and merged on every call: a modern call's extra headers
        were a dict copy and a merge dearer than a legacy call (issue #13).
        """
        is_shared = not extra or type(extra) is MappingProxyType
        if is_shared and (token is None or self.auth is None):
            # The mapping itself is kept beside the merged dict, so its id cannot be reused meanwhile.
            key = (
                with_session and not self._is_modern,
                self._session_id,
                self._protocol_version,
                id(extra) if extra else 0,
            )
            cached = self._post_headers_by_state.get(key)
            if cached is not None and (not extra or cached[0] is extra):
                return cached[1]
            # Read-only: the one mapping goes to every POST of this state, so a writer would change them all.
            headers = MappingProxyType(self._merge_post_headers(with_session, None, extra))
            if len(self._post_headers_by_state) >= MAX_CACHED_POST_HEADERS:
                self._post_headers_by_state.clear()
            self._post_headers_by_state[key] = (extra, headers)
            return headers
        return self._merge_post_headers(with_session, token, extra)

    def _merge_post_headers(
        self, with_session: bool, token: str | None, extra: Mapping[str, str]
    ) -> dict[str, str]:
        headers = self.headers(ACCEPT_POST, with_session=with_session, token=token)
        headers["Content-Type"] = "application/json"
        if extra:
            headers.update(extra)
        return headers

    def _build_headers(
        self, accept: str, with_session: bool, token: str | None, method: str
    ) -> dict[str, str]:
        headers = dict(self._base_headers)
        headers["Accept"] = accept
        if token is not None and self.auth is not None:
            # RFC 6750 §2.1: the header, never the query string (which servers and proxies log). A DPoP-bound
            # token also needs a proof of this method and URL (RFC 9449 §7.1): the token source builds both.
            headers.update(self.auth.authorization(token, method, self.url))
        if with_session and not self._is_modern:
            if self._session_id is not None:
                headers[SESSION_HEADER] = self._session_id
            if self._protocol_version is not None:
                headers[VERSION_HEADER] = self._protocol_version
        # Whatever credential goes out (a bearer or DPoP token that OAuth renewed) is redacted from answers.
        self.redactor.add_headers(headers)
        return headers

    def _start_post(self, frame: bytes, outgoing: Outgoing) -> None:
        if self._run_scope is None or self._is_down or self._is_closing:
            return
        # What the frame is comes with it: our own frames are never decoded again here.
        message: jsonrpc.Message
        if outgoing.request_id is not None:
            message = Request(outgoing.request_id, outgoing.method)
        elif outgoing.is_response:
            message = Response(0, {})
        else:
            message = Notification(outgoing.method)
        gate = self._gate
        own_gate: asyncio.Event | None = None
        request_id: RequestId | None = None
        match message:
            case Request(id=request_id):
                pass
            case Notification(method=proto.INITIALIZED):
                own_gate = self._gate = asyncio.Event()
            case Notification(method=proto.CANCELLED):
                # We gave up on that call; its POST (or its stream) is of no use now.
                cancelled = self._in_flight.get(outgoing.cancels) if outgoing.cancels is not None else None
                if cancelled is not None:
                    cancelled.cancel()
                if self._is_modern:
                    # spec: 2026-07-28 streamable-http — closing the response stream IS the cancellation;
                    # no notifications/cancelled is sent over HTTP.
                    return
                # spec: 2025-06-18 transports — disconnecting is not cancelling, hence the notification.
            case Notification() | Response() | ErrorResponse():
                pass
            case _:
                assert_never(message)
        # A plain asyncio task, as the GET stream's is (_start_child): anyio's start_soon costs several times
        # more. What a task group would do for POSTs is done here: they are
        # cancelled when the connection goes down or closes (_stop_posts), a bug in one reports the
        # connection down (_post_ended), and a cancelled call's POST is cancelled by its task.
        task = asyncio.get_running_loop().create_task(
            self._post(frame, message, gate, own_gate, outgoing), name=f"POST {outgoing.method}"
        )
        self._posts.add(task)
        if request_id is not None:
            self._in_flight[request_id] = task
        task.add_done_callback(lambda done: self._post_ended(done, request_id, own_gate))

    def _post_ended(
        self, task: asyncio.Task[None], request_id: RequestId | None, own_gate: asyncio.Event | None
    ) -> None:
        self._posts.discard(task)
        # A task cancelled before it ran never reached its own cleanup.
        if request_id is not None and self._in_flight.get(request_id) is task:
            del self._in_flight[request_id]
        if own_gate is not None and not own_gate.is_set() and (task.cancelled() or self._is_down):
            self._open_gate(own_gate)  # ended before its finally could (or with the connection): let them go
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            # A bug in one exchange (what the task group's failure did).
            self._failed(error)

    async def _post(
        self,
        frame: bytes,
        message: jsonrpc.Message,
        gate: asyncio.Event | None,
        own_gate: asyncio.Event | None,
        outgoing: Outgoing,
    ) -> None:
        is_acknowledged = False
        try:
            if gate is not None and not gate.is_set():
                await gate.wait()
            if isinstance(message, Request):
                assert self._slots is not None
                async with self._slots:
                    await self._exchange(frame, message, outgoing)
            else:
                is_acknowledged = await self._exchange(frame, message, outgoing)
        finally:
            if own_gate is not None:
                if (
                    is_acknowledged
                    and self._run_scope is not None
                    and not (self._is_down or self._is_closing)
                    and self._get_stream.start(self._start_child, lambda: self._open_gate(own_gate))
                ):
                    # The requests after the handshake wait until the server has answered the GET (or for
                    # GET_GATE_SECONDS): a server sends what it initiates on that stream, and what it sends
                    # before the stream exists is lost (an elicitation a tool asks for at once, a
                    # conformance server's resumption check that takes a late GET for a reconnection).
                    asyncio.get_running_loop().call_later(GET_GATE_SECONDS, self._open_gate, own_gate)
                else:
                    self._open_gate(own_gate)

    def _open_gate(self, gate: asyncio.Event) -> None:
        gate.set()
        if self._gate is gate:
            self._gate = None

    async def _exchange(self, frame: bytes, message: jsonrpc.Message, outgoing: Outgoing) -> bool:
        """POST one frame and handle the answer; return whether it was accepted (2xx).

        With OAuth, a 401 renews the token and POSTs again once; a 403 ``insufficient_scope`` steps up and
        POSTs again — the token source counts the step-ups and ends them after three
        (:data:`mcp_troupe.protocol.oauth.MAX_STEP_UP_ATTEMPTS`) with ``InsufficientScope``.
        """
        request = message if isinstance(message, Request) else None
        is_renewed = False
        step_ups = 0
        nonce_retries = 0
        while True:
            try:
                # No coroutine to await without OAuth: this runs on every call.
                token = await self.auth.token() if self.auth is not None else None
            except AuthError as exc:
                self._on_auth_failed(message, request, exc)
                return False
            outcome = await self._post_once(frame, message, request, token, outgoing)
            if not isinstance(outcome, Challenge):
                return outcome
            assert self.auth is not None
            if (
                outcome.status == 401
                and nonce_retries < MAX_NONCE_RETRIES
                and self.auth.on_nonce_challenge(outcome.www_authenticate, outcome.dpop_nonce)
            ):
                nonce_retries += 1  # RFC 9449 §9: the same token again, with the server's new nonce
                continue
            try:
                if outcome.status == 401:
                    if is_renewed:
                        # A token fresh from the authorization server refused too: asking again cannot help.
                        reason = "the server refused a renewed access token"
                        self._on_auth_failed(message, request, None, (401, outcome.excerpt, reason))
                        return False
                    is_renewed = True
                    await self.auth.on_unauthorized(token, outcome.www_authenticate, self._protocol_version)
                else:
                    await self.auth.on_insufficient_scope(
                        token, outcome.www_authenticate, step_ups, self._protocol_version
                    )
                    step_ups += 1
            except AuthError as exc:
                self._on_auth_failed(message, request, exc)
                return False

    async def _token(self) -> str | None:
        return await self.auth.token() if self.auth is not None else None

    async def token_or_none(self) -> str | None:
        """The token for a GET stream, a resumption or the DELETE: without one they go out bare, and the
        POSTs, which report to a caller, find out what is wrong."""
        try:
            return await self._token()
        except AuthError as exc:
            log.debug("server %s: no token for a side request: %s", self.server, exc)
            return None

    def _on_auth_failed(
        self,
        message: jsonrpc.Message,
        request: Request | None,
        error: AuthError | None,
        http_reason: tuple[int, str, str] | None = None,
    ) -> None:
        if request is None:
            # A notification: nobody waits for it. The next request meets the same problem and reports it.
            why = self.redactor.redact(str(error or http_reason))
            log.warning("server %s: %s not sent: %s", self.server, method_of(message), why)
            return
        if error is not None:
            log.info(
                "server %s: %s failed: %s", self.server, request.method, self.redactor.redact(str(error))
            )
            self.fail_request(request, error)
        else:
            assert http_reason is not None
            status, excerpt, reason = http_reason
            self.fail_request(request, self.http_error(status, request, excerpt, reason))

    async def _post_once(
        self,
        frame: bytes,
        message: jsonrpc.Message,
        request: Request | None,
        token: str | None,
        outgoing: Outgoing,
    ) -> bool | Challenge:
        client = self._client
        assert client is not None
        is_initialize = request is not None and request.method == proto.INITIALIZE
        # spec: 2025-06-18 transports — a new session starts with an InitializeRequest *without* a session id;
        # the protocol-version header belongs to requests after the handshake.
        headers = self._post_headers(not is_initialize, token, outgoing.headers)
        sent_session_id = headers.get(SESSION_HEADER)
        try:
            async with client.stream("POST", self.url, content=frame, headers=headers) as response:
                if self.auth is not None and response.status_code in (401, 403):
                    challenge = await self._challenge_of(response)
                    if challenge is not None:
                        return challenge
                return await self._on_post_answer(
                    response, frame, outgoing, message, request, sent_session_id
                )
        except httpx.PoolTimeout:
            if request is not None:
                self.fail_request(request, ConnectionLost(self.server, "no free HTTP connection in time"))
            return False
        except httpx.HTTPError as exc:
            if outgoing.method == modern.SUBSCRIPTIONS_LISTEN and request is not None:
                # Like the legacy GET stream, the long-lived listen stream only waits: the calls find out
                # whether the server is really gone; the session opens it again with backoff.
                self.fail_request(
                    request, ConnectionLost(self.server, f"the listen stream failed: {describe(exc)}")
                )
                return False
            # Refused, reset, unreadable: the server is gone (the supervisor reconnects with backoff).
            self.report_down(f"POST {method_of(message)} failed: {describe(exc)}")
            return False
        except FrameTooLarge as exc:
            # One answer too large to hold: fail the connection, as stdio does (the reason says which limit).
            self.report_down(
                f"an answer to {method_of(message)} exceeded max_frame_bytes ({exc.limit} bytes)"
            )
            return False

    async def _on_post_answer(
        self,
        response: Answer,
        frame: bytes,
        outgoing: Outgoing,
        message: jsonrpc.Message,
        request: Request | None,
        sent_session_id: str | None,
    ) -> bool:
        status = response.status_code
        if status >= 300:
            await self._on_post_error(response, frame, outgoing, message, request, sent_session_id)
            return False
        content_type = media_type(response)
        if request is None:
            # spec: 2025-06-18 transports — a notification or response we sent is answered 202 Accepted with
            # no body. Read whatever came anyway, to keep the connection reusable.
            if content_type == "text/event-stream":
                await read_stream(self, response, frame, None, outgoing)
            else:
                await response.aread()
            return True
        if content_type == "application/json":
            body = await read_bounded(response, self.max_frame)
            if body is None:
                raise FrameTooLarge(self.max_frame)
            frames = split_batch(body) if body.strip() else []
            if not frames:
                self.fail_request(request, self._no_answer(status, request))
                return True
            if request.method == proto.INITIALIZE and any(
                answer_kind(frame, request.id) == "result" for frame in frames
            ):
                self.adopt_session(response)
            self.deliver(frames)
        elif content_type == "text/event-stream":
            await read_stream(self, response, frame, request, outgoing)
        elif status == 202 or not response.headers.get("content-type"):
            await response.aread()
            self.fail_request(request, self._no_answer(status, request))
        else:
            excerpt = await error_excerpt(response, self.redactor)
            reason = f"unexpected Content-Type {content_type!r}"
            self.fail_request(request, self.http_error(status, request, excerpt, reason))
        return True

    def http_error(self, status: int, request: Request, excerpt: str = "", reason: str = "") -> HttpError:
        # Redacted before the excerpt is cut: a secret split by the cut would no longer be recognised.
        excerpt, reason = self.redactor.redact(excerpt), self.redactor.redact(reason)
        return HttpError(
            self.server, status, excerpt, request_id=request.id, method=request.method, reason=reason
        )

    def _no_answer(self, status: int, request: Request) -> HttpError:
        # spec: 2025-06-18 transports — a POST holding a request MUST be answered with JSON or an SSE
        # stream. Failing at once beats waiting out the call's deadline.
        return self.http_error(status, request, reason="the server answered the request without a response")

    async def _on_post_error(
        self,
        response: Answer,
        frame: bytes,
        outgoing: Outgoing,
        message: jsonrpc.Message,
        request: Request | None,
        sent_session_id: str | None,
    ) -> None:
        status = response.status_code
        if status == 404 and sent_session_id is not None:
            await response.aclose()
            if request is None:
                # The next request meets the same 404 and reports it; a notification alone must not start
                # a new session (a server answering 404 to everything would make that a loop).
                method = method_of(message)
                log.info("server %s: HTTP 404 on %s; the session may have expired", self.server, method)
                return
            self.on_session_expired(frame, outgoing, sent_session_id)
            return
        if status in (401, 403):
            await self._on_unauthorized(response, request)
            return
        body = await error_body(response)
        if request is not None and status < 500 and self._deliver_error_body(body, request):
            # spec: 2026-07-28 streamable-http — a modern server's refusals (400 -32022/-32021/-32020, 404
            # -32601) carry a JSON-RPC error: the body, not the status, says what happened (and tells a
            # modern server apart from a legacy one during the probe).
            return
        excerpt = excerpt_of(body, self.redactor)
        if request is not None:
            self.fail_request(request, self.http_error(status, request, excerpt))
        else:
            excerpt = self.redactor.redact(excerpt)
            log.warning("server %s: HTTP %d on %s: %s", self.server, status, method_of(message), excerpt)

    def _deliver_error_body(self, body: bytes, request: Request) -> bool:
        """Deliver the JSON-RPC error body of an error status as the answer to ``request`` (False: none)."""
        try:
            obj = json.loads(body) if body.strip() else None
        except (ValueError, RecursionError):
            return False
        if not isinstance(obj, dict) or obj.get("jsonrpc") != "2.0":
            return False
        error = obj.get("error")
        if not isinstance(error, dict) or type(error.get("code")) is not int:
            return False
        # The error answers our request whatever id it carries: a POST carries one message, and servers that
        # refuse it before reading it cannot name it (id null or absent, or the 1.x Python SDK's
        # "server-error", which is how a legacy server refuses a modern request: issue 13's re-probe).
        answered = obj.get("id")
        if answered is not None and answered != request.id:
            log.debug(
                "server %s: HTTP error body with id %r taken as the answer to id %r",
                self.server,
                answered,
                request.id,
            )
        message = error.get("message")
        # What a server says back may echo our headers: our secrets never reach a caller through it.
        text = self.redactor.redact(message) if isinstance(message, str) else ""
        refusal = ErrorObject(error["code"], text, error.get("data"))
        self.deliver([jsonrpc.encode(ErrorResponse(request.id, refusal))])
        return True

    async def _challenge_of(self, response: Answer) -> Challenge | None:
        """With OAuth: the 401, or the 403 ``insufficient_scope``, that a new token may answer."""
        if self.auth is None or response.status_code not in (401, 403):
            return None
        # Imported here, where OAuth is configured (its flow has loaded the OAuth modules already): a
        # connection without OAuth never imports them, and their JOSE/cryptography imports cost ~90 ms of a
        # process's first HTTP connect (issue 18).
        from mcp_troupe.protocol.oauth import parse_www_authenticate

        www_authenticate: str | None = response.headers.get("www-authenticate")
        # RFC 6750 §3.1: insufficient_scope is the one 403 a token with more scopes can fix.
        if (
            response.status_code == 403
            and parse_www_authenticate(www_authenticate).get("error") != "insufficient_scope"
        ):
            return None
        excerpt = await error_excerpt(response, self.redactor)
        return Challenge(response.status_code, www_authenticate, excerpt, response.headers.get("dpop-nonce"))

    async def _on_unauthorized(self, response: Answer, request: Request | None) -> None:
        """401/403 that no token can answer: without OAuth, or a 403 other than ``insufficient_scope``."""
        excerpt = await error_excerpt(response, self.redactor)
        if request is None:
            log.warning("server %s: HTTP %d (authorization required)", self.server, response.status_code)
            return
        if self.auth is None:
            reason = "authorization required (configure auth: oauth for this server)"
        else:
            reason = "the server refused the request (forbidden)"
        self.fail_request(request, self.http_error(response.status_code, request, excerpt, reason))

    def on_session_expired(self, frame: bytes, outgoing: Outgoing, sent_session_id: str) -> None:
        # spec: 2025-06-18 transports, session management — "When a client receives HTTP 404 in response to a
        # request containing an Mcp-Session-Id, it MUST start a new session by sending a new
        # InitializeRequest without a session ID attached." The id is dropped before the session hears of
        # it, so its new initialize goes out without one. A 404 for an id we already replaced (a concurrent
        # request of the old session) leaves the new id alone; the session starts one re-initialisation.
        if self._session_id == sent_session_id:
            log.info("server %s: HTTP session expired (404); dropping it", self.server)
            self._session_id = None
            self._get_stream.on_new_session()
        self._tell(SessionExpired(self.incarnation, [(frame, outgoing)]))

    def _start_listening(self) -> None:
        if self._run_scope is not None and not self._is_down and not self._is_closing:
            self._get_stream.start(self._start_child)

    def _start_child(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Run ``coroutine`` (the GET stream) as a task that run() waits for before it closes the client."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self._children.add(task)
        task.add_done_callback(self._child_ended)

    def _child_ended(self, task: asyncio.Task[None]) -> None:
        self._children.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            # A bug in the GET stream ends the connection, as a failed child ended the task group.
            self._failed(error)

    def _failed(self, error: BaseException) -> None:
        """A bug in one of the connection's tasks: the connection is reported down, so that no call waits
        for an answer that cannot come, and the supervisor reconnects."""
        log.error("server %s: the HTTP transport failed", self.server, exc_info=error)
        self.report_down(f"the HTTP transport failed: {error!r}")

    async def _children_ended(self) -> None:
        """Stop the GET stream and wait until its task has ended (what leaving the task group waited for)."""
        self._get_stream.stop()
        while self._children:
            await asyncio.wait(list(self._children))

    def adopt_session(self, response: Answer) -> None:
        """Take ``Mcp-Session-Id`` from a *successful* initialize answer, before the session sees it.

        The caller has already looked at the answer's frames (once) to know it is a result, not an error.
        """
        value = response.headers.get(SESSION_HEADER)
        if value is None:
            self._session_id = None
        elif is_session_id(value):
            self._session_id = value
        else:
            log.warning("server %s: ignored a session id with characters outside 0x21-0x7E", self.server)

    # ---- SSE (the stream reading itself is actors/http_stream.py) ----------------------------------------

    def frames_of(self, events: list[SseEvent]) -> list[bytes]:
        """The JSON-RPC frames of some SSE events."""
        return frames_of(events)

    @property
    def is_modern(self) -> bool:
        """Whether the connection settled on the 2026-07-28 era (no sessions, no resumption)."""
        return self._is_modern
