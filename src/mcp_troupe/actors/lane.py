"""CallLane: one connection's request engine, shared by every thread that sends on it, stdio and HTTP alike.

What it is. Each connection (incarnation) has one :class:`~mcp_troupe.protocol.engine.RequestEngine` — the
only place its request ids, pending requests, deadlines, cancellations and late answers live — and one lane
around it: a lock, one loop timer for the earliest deadline, the transport's write function, and the routing
of each engine event to whoever owns the request. Every request goes through it: the facade's fast-path
calls (:meth:`CallLane.call`, from the caller's thread), calls the registry sends through the session,
built-in tools' listings and reads, and the session's own requests (the handshake, listings,
``subscriptions/listen``).

Owners. A request is owned either by a caller (:class:`CallerOwner`: a future, and the context that travels
with its answer), whose answer the loop completes directly — no actor hop — or by the session
(:class:`SessionOwner`: callbacks), whose answers, errors and timeouts reach the session's thread as
:class:`SessionAnswer` items of one :class:`Received` per read, in order with the server's requests and
notifications.

Why the fast path. A thread hand-off costs 7-44 µs on a two-core VM; through the actors a call crosses five.
For a call the registry has already cleared (see :class:`RouteBoard`) the caller registers the call here
and, when nothing is queued, writes its frame itself; the loop, which reads the answer, completes the
caller's future: one hand-off.

The era. Once the handshake settles, the session calls :meth:`CallLane.settle`; from then on every request
carries the era's ``_meta`` (modern), and over HTTP the modern request headers. ``input_required`` answers
(modern) are fulfilled on the loop through the host's fulfiller and retried under new ids, within the
request's own deadline.

Threads. :meth:`call`, :meth:`request` and :meth:`cancel` run on any thread; :meth:`receive`, :meth:`fail`
and the timer on the loop; :meth:`close` anywhere. The lock serialises every engine call; futures are
completed outside it.

The reply, owner and route types live in :mod:`mcp_troupe.actors.lane_replies`; this module re-exports them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import threading
import time
import types
from collections.abc import Callable, Mapping
from typing import Any

import anyio
import pykka

from mcp_troupe._futures import complete as _complete
from mcp_troupe._futures import fail as _fail
from mcp_troupe.actors.lane_replies import (
    CallerOwner,
    EraChanged,
    FastRoute,
    Fulfiller,
    HeaderMismatch,
    LoopReply,
    Outgoing,
    ProgressHost,
    ProgressSink,
    Received,
    Reply,
    RouteBoard,
    Send,
    SessionAnswer,
    SessionOwner,
    settle_on_loop,
)
from mcp_troupe.actors.loop import IoLoop, safe_tell
from mcp_troupe.actors.task_runs import ORPHAN_GRACE, Orphan, TaskRuns
from mcp_troupe.errors import (
    CallCancelled,
    CallTimedOut,
    ConnectionLost,
    InputUnavailable,
    InvalidArguments,
    MalformedMessage,
    OutboundFull,
    RemoteError,
    TroupeError,
)
from mcp_troupe.protocol import callbacks as cb
from mcp_troupe.protocol import jsonrpc, modern, tasks
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol.engine import (
    Answered,
    Event,
    Incoming,
    Invalid,
    NeedsInput,
    Pending,
    Progressed,
    Refused,
    RequestEngine,
    TaskStarted,
    Unexpected,
    Unreadable,
)
from mcp_troupe.protocol.jsonrpc import ErrorObject, Notification, Request, RequestId
from mcp_troupe.protocol.versions import Revision

__all__ = [
    "CallLane",
    "CallerOwner",
    "EraChanged",
    "FastRoute",
    "Fulfiller",
    "HeaderMismatch",
    "LoopReply",
    "Outgoing",
    "Received",
    "Reply",
    "RouteBoard",
    "SessionAnswer",
    "SessionOwner",
]

log = logging.getLogger("mcp_troupe.lane")

# With at most this many calls in flight a request is written by the caller's thread at once (latency);
# with more, requests are queued and written one burst per loop turn (throughput).
DIRECT_WRITE_MAX_PENDING = 8
_NO_HEADERS: Mapping[str, str] = types.MappingProxyType({})
_CALL_HEADERS_KEPT = 1024
"""Tools whose modern call headers a lane keeps (a bound: a server may name any number of tools)."""


def _ten_times(timeout: float) -> float:
    """The default ``max_call_time``: a call kept alive by progress runs at most ten times its timeout."""
    return timeout * 10.0


class CallLane:
    """One connection's requests (see the module docstring)."""

    def __init__(
        self,
        *,
        server: str,
        incarnation: int,
        session: pykka.ActorRef[Any],
        loop: IoLoop,
        send: Send,
        is_http: bool = False,
        retract: Callable[[RequestId, bool], bool] | None = None,
    ) -> None:
        self.server = server
        self.incarnation = incarnation
        self.engine = RequestEngine(server=server)
        self.is_http = is_http
        self._session = session
        self._loop = loop
        self._send = send
        # Takes a request's frame back if it was never written (stdio's queue); True if it was.
        self._retract = retract
        self._lock = threading.Lock()
        # Calls from the facade are accepted between open() and close(); a closed lane never opens again.
        self._is_open = False
        self._is_closed = False
        self.close_reason: str | None = None
        self._call_timeout = 0.0
        self._timer_token = 0
        self._timer_at: float | None = None
        # While an expired HTTP session is replaced, frames wait here (in order) instead of going out.
        self._held: list[tuple[bytes, Outgoing]] | None = None
        # The modern era over HTTP: each tool's `x-mcp-header` declarations, by original tool name.
        self.param_headers: dict[str, tuple[modern.ParamHeader, ...]] = {}
        self._call_headers: dict[str, Mapping[str, str]] = {}
        """Tool name → the modern headers of a call to it without declared argument headers, at the settled
        version (set in :meth:`settle`, whose only caller is the session; tests settle through it too)."""
        self.fulfil: Fulfiller | None = None
        self.on_progress: ProgressSink | None = None
        self._progress_host: ProgressHost | None = None
        # Whether tool calls ask for progress (a progress handler is installed), and the hard cap progress
        # cannot extend a call's deadline past (``max_call_time``; by default ten times its timeout).
        self.wants_progress = False
        self.max_call_time: Callable[[float], float] = _ten_times
        self._hard_cache: tuple[float, Callable[[float], float], float] | None = None
        # Tasks: the tools whose calls are sent as 2025-11-25 tasks (set by the session from each listing),
        # and the calls the server answered with a task, driven to their end (both eras).
        self.task_tools: set[str] = set()
        self.tasks = TaskRuns(self)

    # ---- session side ----------------------------------------------------------------------------------

    def attach_host(self, host: ProgressHost) -> None:
        """Ask for progress on tool calls when the host has a progress handler; deliver it there, and cap a
        call that keeps reporting progress at the server's ``max_call_time``."""
        # Bound methods and a partial, not closures: fewer objects a connection keeps (issue 18).
        self._progress_host = host
        self.on_progress = self._deliver_progress
        self.wants_progress = host.wants_progress
        self.tasks.on_named = host.on_task
        self.max_call_time = functools.partial(host.max_call_time, self.server)

    def _deliver_progress(self, _server: str, pending: Pending, params: Mapping[str, Any]) -> None:
        host = self._progress_host
        assert host is not None  # set with on_progress, by attach_host
        tool = str((pending.params or {}).get("name", ""))
        host.on_progress(self.server, self.incarnation, tool, params, getattr(pending.owner, "reply", None))

    def settle(self, revision: Revision, meta: Mapping[str, Any] | None) -> None:
        """The handshake chose ``revision`` (and the modern ``_meta``); every later request follows it."""
        with self._lock:
            self.engine.settle(revision, meta)
            # The kept call headers name the version: a new one makes them all again.
            self._call_headers = {}

    def open(self, call_timeout: float) -> None:
        """Accept the facade's calls from now on; ``call_timeout`` is the default for calls that name none."""
        with self._lock:
            self._call_timeout = call_timeout
            self._is_open = not self._is_closed

    def close(self, error: TroupeError) -> None:
        """Refuse new calls and fail every pending caller with ``error`` (idempotent).

        The session's own requests are dropped, not failed: the session hears of the end of the connection
        as a whole (``TransportDown``, ``Close``) and fails what waits on it itself.
        """
        with self._lock:
            self._is_open = False
            if not self._is_closed:
                self.close_reason = str(error)
            self._is_closed = True
            pending = self.engine.close()
            self._held = None
        for item in pending:
            if isinstance(item.owner, CallerOwner):
                _fail(item.owner.reply, error)
        self.tasks.close(error)

    @property
    def loop(self) -> IoLoop:
        """The I/O loop this lane's connection runs on."""
        return self._loop

    @property
    def is_open(self) -> bool:
        """Whether the facade's calls are accepted now."""
        return self._is_open

    @property
    def is_closed(self) -> bool:
        """Whether the connection has ended (its calls fail; status must not say ready)."""
        return self._is_closed

    def memoize(self, request_id: RequestId) -> None:
        """The answer to ``request_id`` (a ``tools/list`` page, sent after this call) may be memoised."""
        with self._lock:
            self.engine.memoize(request_id)

    def begin_listing(self) -> None:
        """A new listing starts: the pages memoised so far become the previous listing's."""
        with self._lock:
            self.engine.begin_listing()

    def hold(self) -> None:
        """Keep every frame from now on until :meth:`release` (an HTTP session is being replaced)."""
        with self._lock:
            if self._held is None:
                self._held = []

    def release(self, first: list[tuple[bytes, Outgoing]] | None = None) -> None:
        """Send ``first``, then every held frame, in order; stop holding."""
        with self._lock:
            held, self._held = self._held or [], None
        for frame, outgoing in [*(first or []), *held]:
            self._send(frame, outgoing, False)

    def unhold(self, request_id: RequestId) -> bool:
        """Drop a held request that is no longer wanted; True if it was held (so never sent)."""
        with self._lock:
            held = self._held
            if held is None:
                return False
            for index, (_frame, outgoing) in enumerate(held):
                if outgoing.request_id == request_id:
                    del held[index]
                    return True
        return False

    @property
    def is_holding(self) -> bool:
        """Whether frames are being held for a new HTTP session."""
        return self._held is not None

    # ---- sending (any thread) -----------------------------------------------------------------------------

    def call(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        reply_to: Reply,
        context: Any,
        timeout: float | None = None,
    ) -> RequestId | None:
        """The facade's fast path: send ``tools/call`` for ``name``; ``reply_to`` gets ``(raw result,
        context)`` or an error.

        Returns the request id, or None when the lane is not open (nothing was sent and ``reply_to`` is
        untouched: the caller takes the actors' path, which knows why the server is not there).
        """
        if not self._is_open:
            return None
        limit = self._call_timeout if timeout is None else timeout
        return self._send_request(
            proto.TOOLS_CALL,
            proto.call_tool_params(name, arguments),
            CallerOwner(reply_to, context, True),
            limit,
            require_open=True,
        )

    def request(
        self,
        method: str,
        params: Mapping[str, Any] | None,
        owner: CallerOwner | SessionOwner,
        timeout: float | None,
        *,
        progress: bool = False,
        past_hold: bool = False,
        memoize: bool = False,
    ) -> RequestId | None:
        """Send any request; its outcome goes to ``owner``. None (and ``owner`` untouched) if the lane is
        closed. ``past_hold`` sends it even while frames are held (the request that creates the new
        session); ``memoize`` lets a ``tools/list`` page be memoised by its bytes."""
        return self._send_request(
            method, params, owner, timeout, progress=progress, past_hold=past_hold, memoize=memoize
        )

    def _send_request(
        self,
        method: str,
        params: Mapping[str, Any] | None,
        owner: CallerOwner | SessionOwner,
        timeout: float | None,
        *,
        require_open: bool = False,
        progress: bool = False,
        past_hold: bool = False,
        memoize: bool = False,
    ) -> RequestId | None:
        engine = self.engine
        now = time.monotonic()
        if (
            self.task_tools
            and method == proto.TOOLS_CALL
            and params is not None
            and "task" not in params
            and params.get("name") in self.task_tools
            and not engine.is_modern
        ):
            # spec: 2025-11-25 server/tools — a tool with taskSupport "required" MUST be called as a task
            # (and an "optional" one is, when the server takes task-augmented calls): `params.task`.
            params = tasks.task_params(params, timeout)
        if not progress and self.wants_progress and method == proto.TOOLS_CALL:
            progress = True
        hard = None
        if progress and timeout is not None:
            # Calls of a connection mostly share one timeout: the host's cap for it is remembered (one
            # tuple, replaced whole, so that threads calling at once read a matching triple).
            last = self._hard_cache
            if last is not None and last[0] == timeout and last[1] is self.max_call_time:
                hard = last[2]
            else:
                hard = self.max_call_time(timeout)
                self._hard_cache = (timeout, self.max_call_time, hard)
        try:
            pending, frame = engine.prepare(method, params, owner, now, timeout, hard, progress)
        except InvalidArguments as exc:
            # Nothing was sent or tracked: the caller alone is told, and the connection goes on serving.
            self._answer_owner(owner, exc.request_id, exc.with_traceback(None))
            return exc.request_id
        request_id = pending.request_id
        outgoing = (
            self._outgoing(method, request_id, params)
            if self.is_http
            else Outgoing(method, request_id, _NO_HEADERS)
        )
        arm_after = None
        deadline = pending.deadline
        with self._lock:
            if self._is_closed or (require_open and not self._is_open):
                return None
            if memoize:
                engine.memoize(request_id)
            engine.track(pending)
            if deadline is not None and (self._timer_at is None or deadline < self._timer_at):
                arm_after = self._arm_locked(deadline, now)
            held = self._held
            is_held = held is not None and not past_hold
            if held is not None and is_held:
                held.append((frame, outgoing))
            in_flight = len(engine.pending)
        if arm_after is not None:
            self._loop.call_later(arm_after[0], self._on_timer, arm_after[1])
        if not is_held:
            try:
                self._send(frame, outgoing, in_flight <= DIRECT_WRITE_MAX_PENDING)
            except OutboundFull as exc:
                # The server stopped reading: refuse this request now rather than queue it behind the rest.
                # A fresh error, without the traceback (whose frames hold the frame's bytes) for the caller.
                refusal = OutboundFull(self.server, exc.waiting)
                del exc
                with self._lock:
                    taken = engine.take(request_id)
                if taken is not None:
                    self._settle(taken, error=refusal)
                return request_id
        if type(owner) is CallerOwner and type(owner.reply) is not LoopReply:
            # Registered after the send: a caller that already gave up cancels a request that went out. An
            # acall's LoopReply needs none: its awaiting task cancels the call itself (Troupe.acall), which
            # spares every call a callback object and a loop turn for the common case, an answer.
            owner.reply.add_done_callback(functools.partial(self._on_reply_done, request_id))
        return request_id

    def notify(
        self, method: str, params: Mapping[str, Any] | None = None, *, past_hold: bool = False
    ) -> None:
        """Send a notification (held like requests while an HTTP session is replaced)."""
        frame = self.engine.notification(method, params)
        self._write(frame, Outgoing(method), past_hold=past_hold)

    def respond(self, frame: bytes) -> None:
        """Send our answer to a server's request."""
        self._write(frame, Outgoing("", is_response=True))

    def _write(self, frame: bytes, outgoing: Outgoing, *, past_hold: bool = False) -> None:
        with self._lock:
            if self._is_closed:
                return
            if self._held is not None and not past_hold:
                self._held.append((frame, outgoing))
                return
        self._send(frame, outgoing, True)

    def _outgoing(self, method: str, request_id: RequestId, params: Mapping[str, Any] | None) -> Outgoing:
        if not self.is_http:
            # The shared empty headers: the field's default factory would make a dict for every request.
            return Outgoing(method, request_id, _NO_HEADERS)
        engine = self.engine
        if engine.is_modern:
            if method == proto.TOOLS_CALL and params is not None:
                # A tool's call headers are the same on every call at one version: kept by tool name alone,
                # not rebuilt nor looked up by (method, name, version) (issue #13: a modern call costs no
                # more than a legacy one; benchmarks/era_instructions.py). Only tools without declared
                # argument headers are kept (see declare_headers), and settle() forgets them all.
                headers = self._call_headers.get(params.get("name", ""))
                if headers is not None:
                    return Outgoing(method, request_id, headers)
            assert engine.revision is not None  # (a modern engine is a settled one)
            version = engine.revision.version
        elif engine.revision is None:
            # Before the era is settled only the modern probe carries a version in its _meta; it needs the
            # modern headers as much as any later request (spec: 2026-07-28 streamable-http).
            meta = params.get("_meta") if params is not None else None
            probed: object = None
            # (None first: the ABC's isinstance costs more than the rest of this method)
            if meta is not None and isinstance(meta, Mapping):
                probed = meta.get(modern.PROTOCOL_VERSION)
            if not isinstance(probed, str):
                return Outgoing(method, request_id)
            version = probed
        else:
            # A legacy era: none of the modern headers (a caller's own _meta does not make it modern).
            return Outgoing(method, request_id)
        declared: tuple[modern.ParamHeader, ...] = ()
        if method == proto.TOOLS_CALL and params is not None:
            name = params.get("name", "")
            declared = self.param_headers.get(name, ())
            if not declared and isinstance(name, str) and engine.is_modern:
                headers = modern.request_headers(method, params, version)
                if len(self._call_headers) >= _CALL_HEADERS_KEPT:
                    self._call_headers.clear()
                self._call_headers[name] = headers
                return Outgoing(method, request_id, headers)
        return Outgoing(method, request_id, modern.request_headers(method, params, version, declared))

    def declare_headers(self, tool: str, declared: tuple[modern.ParamHeader, ...]) -> None:
        """``tool`` declares these ``x-mcp-header`` arguments now (none: it declares none any more)."""
        if declared:
            self.param_headers[tool] = declared
        else:
            self.param_headers.pop(tool, None)
        # Its kept headers (if any) were made without them, or with them gone.
        self._call_headers.pop(tool, None)

    def arm_horizon(self, delay: float) -> None:
        """Arm the deadline timer ``delay`` seconds ahead; on the loop thread only (a transport's open task).

        A request whose deadline falls after an armed timer arms none of its own (the timer, when it fires,
        re-arms for the earliest deadline left, on the loop), so requests sent from other threads with a
        timeout of at least ``delay`` need no loop post to arm one. Before a handshake, whose timeouts are
        known (:func:`~mcp_troupe.actors.session.handshake_horizon`), that spares the session's first
        request a wake-up of the idle loop (~0.1-0.2 ms of CPU on both threads; issue 18). A timer that
        finds nothing expired costs one pass of the loop, later, off any caller's path.
        """
        now = time.monotonic()
        with self._lock:
            arm_after = self._arm_locked(now + delay, now)
        if arm_after is not None:
            self._loop.asyncio_loop.call_later(arm_after[0], self._on_timer, arm_after[1])

    def _arm_locked(self, deadline: float | None, now: float) -> tuple[float, int] | None:
        if deadline is None or (self._timer_at is not None and deadline >= self._timer_at):
            return None
        self._timer_at = deadline
        self._timer_token += 1
        return (deadline - now, self._timer_token)

    # ---- giving up ---------------------------------------------------------------------------------------

    def cancel(self, request_id: RequestId, reason: str = "cancelled by the client") -> bool:
        """Give up on ``request_id``: tell the server, fail its owner with CallCancelled.

        False when it is not pending (answered, timed out, failed). A call running as a server task is
        cancelled with ``tasks/cancel``.
        """
        if self.tasks.cancel(request_id, reason):
            return True
        if self._orphan(request_id, reason):
            return True
        with self._lock:
            pending = self.engine.pending.get(request_id)
            if pending is not None and isinstance(pending.owner, Orphan):
                return False  # already given up on; awaited only to cancel its task once named
            taken = self.engine.cancel(request_id, reason)
            was_held = taken is not None and self._drop_held_locked(request_id)
        if taken is None:
            return False
        pending, frame = taken
        # A request still held for a new HTTP session, or still in stdio's queue, was never sent: dropping
        # it is enough (sending it and then cancelling it could run a call the caller was told had failed).
        if frame and not was_held and not self._retracted(request_id):
            self._write(frame, Outgoing(proto.CANCELLED, cancels=request_id))
        self._settle(pending, error=CallCancelled(self.server, request_id, pending.method))
        return True

    def cancel_reply(self, reply: Reply, reason: str) -> bool:
        """Give up on the request whose caller waits on ``reply`` (see :meth:`cancel`)."""
        running = self.tasks.request_of(reply)
        if running is not None:
            return self.tasks.cancel(running, reason)
        with self._lock:
            request_id = next(
                (
                    key
                    for key, pending in self.engine.pending.items()
                    if isinstance(pending.owner, CallerOwner) and pending.owner.reply is reply
                ),
                None,
            )
        return request_id is not None and self.cancel(request_id, reason)  # type: ignore[arg-type]

    def _orphan(self, request_id: RequestId, reason: str) -> bool:
        """Give up on a 2025-11-25 task-augmented call the server has not answered yet (see
        :meth:`_keep_orphan`); False if ``request_id`` is not one (or was never sent)."""
        with self._lock:
            pending = self.engine.pending.get(request_id)
            if pending is None or not pending.is_task or isinstance(pending.owner, Orphan):
                return False
            held = self._held
            if held is not None and any(outgoing.request_id == request_id for _frame, outgoing in held):
                return False  # never sent: the usual cancel drops it
        if self._retracted(request_id):
            # Never written: nothing runs on the server; forget it like any cancelled request.
            with self._lock:
                taken = self.engine.take(request_id)
                self.engine.forget(request_id)
            if taken is not None:
                self._settle(taken, error=CallCancelled(self.server, request_id, taken.method))
            return True
        with self._lock:
            taken = self.engine.take(request_id)
        if taken is None:
            return False
        self._keep_orphan(taken, reason)
        self._settle(taken, error=CallCancelled(self.server, request_id, taken.method))
        return True

    def _keep_orphan(self, pending: Pending, reason: str) -> None:
        """Keep awaiting a task-augmented call nobody waits for any more, for a while: if the server names its
        task, it is cancelled with ``tasks/cancel`` (spec: 2025-11-25 — never ``notifications/cancelled``)."""
        now = time.monotonic()
        orphan = dataclasses.replace(pending, owner=Orphan(reason), deadline=now + ORPHAN_GRACE)
        with self._lock:
            if self._is_closed:
                return
            self.engine.track(orphan)
            arm_after = self._arm_locked(orphan.deadline, now)
        if arm_after is not None:
            self._loop.call_later(arm_after[0], self._on_timer, arm_after[1])

    def _retracted(self, request_id: RequestId, timed_out: bool = False) -> bool:
        return self._retract is not None and self._retract(request_id, timed_out)

    def _drop_held_locked(self, request_id: RequestId) -> bool:
        held = self._held
        if held is None:
            return False
        for index, (_frame, outgoing) in enumerate(held):
            if outgoing.request_id == request_id:
                del held[index]
                return True
        return False

    def _on_reply_done(self, request_id: RequestId, reply: Reply) -> None:
        # The reply completed while its request is still pending: the caller gave up (a cancelled future or
        # acall task, or a CallHandle failed from outside). Tell the server.
        pending = self.engine.pending.get(request_id)
        if (pending is not None and not isinstance(pending.owner, Orphan)) or self.tasks.owns(request_id):
            self.cancel(request_id, "the caller cancelled the call")

    # ---- receiving (the loop) --------------------------------------------------------------------------

    def receive(self, frames: list[bytes]) -> None:
        """Decode ``frames``; complete callers; hand everything else to the session, in order."""
        engine = self.engine
        now = time.monotonic()
        with self._lock:
            events = engine.receive_all(frames, now)
            re_arm = self._arm_locked(engine.earliest, now) if engine.earliest is not None else None
        if re_arm is not None:
            self._loop.call_later(re_arm[0], self._on_timer, re_arm[1])
        items: list[Request | Notification | SessionAnswer | MalformedMessage] = []
        fatal = ""
        # Answers for callers awaiting on an asyncio loop, by loop: each loop is woken once for them all.
        # Nearly always one loop (the agent's): its list is kept at hand, the dict made only for a second.
        first_loop: asyncio.AbstractEventLoop | None = None
        first: list[tuple[asyncio.Future[Any], Any]] = []
        others: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any]]] | None = None
        for event in events:
            if type(event) is Answered:
                owner = event.pending.owner
                if type(owner) is CallerOwner:
                    reply = owner.reply
                    result = (event.result, owner.context) if owner.has_context else event.result
                    if type(reply) is not LoopReply:
                        _complete(reply, result)
                        continue
                    loop = reply.claim()
                    if loop is None:
                        continue
                    if loop is first_loop or first_loop is None:
                        first_loop = loop
                        first.append((reply.future, result))
                    else:
                        if others is None:
                            others = {}
                        others.setdefault(loop, []).append((reply.future, result))
                    continue
            fatal = self._dispatch(event, items) or fatal
        if first_loop is not None:
            settle_on_loop(first_loop, first)
            if others is not None:
                for loop, results in others.items():
                    settle_on_loop(loop, results)
        if items or fatal:
            safe_tell(self._session, Received(self.incarnation, items, fatal))

    def _dispatch(
        self, event: Event, items: list[Request | Notification | SessionAnswer | MalformedMessage]
    ) -> str:
        if type(event) is Answered:
            owner = event.pending.owner
            if type(owner) is CallerOwner:
                _complete(owner.reply, (event.result, owner.context) if owner.has_context else event.result)
            elif type(owner) is SessionOwner:
                items.append(SessionAnswer(owner, result=event.result, request_id=event.pending.request_id))
            return ""
        match event:
            case Refused(pending=pending, error=error):
                remote = self._remote_error(pending, error)
                if (
                    error.code == modern.HEADER_MISMATCH
                    and pending.method == proto.TOOLS_CALL
                    and not pending.is_retried
                    and isinstance(pending.owner, CallerOwner)
                ):
                    # spec: 2026-07-28 streamable-http — the session lists the tools again (their
                    # x-mcp-header declarations may have changed), then the call goes out once more.
                    safe_tell(self._session, HeaderMismatch(self.incarnation, pending, remote))
                else:
                    self._settle(pending, error=remote, items=items)
                if pending.method not in (modern.SERVER_DISCOVER, proto.INITIALIZE) and self._era_changed(
                    error
                ):
                    # spec: 2026-07-28 basic/versioning — the era is re-probed when the assumption fails.
                    safe_tell(self._session, EraChanged(self.incarnation, error.message))
            case Invalid(pending=pending, error=error):
                log.warning("server %s: %s", self.server, error)
                self._settle(pending, error=error, items=items)
            case NeedsInput():
                self._on_needs_input(event)
            case TaskStarted(pending=pending, task=task):
                self.tasks.started(pending, task)
            case Progressed(pending=pending, params=params):
                sink = self.on_progress
                if sink is not None:
                    try:
                        sink(self.server, pending, params)
                    except Exception:  # a host handler's bug must not take the connection down
                        log.exception("server %s: the progress handler failed", self.server)
            case Incoming(message=message):
                if type(message) is not Notification:
                    items.append(message)
                elif self.tasks.on_status(message):
                    pass
                elif (task_call := self.tasks.progress_of(message)) is not None:
                    sink = self.on_progress
                    if sink is not None and message.params is not None:
                        try:
                            sink(self.server, task_call, message.params)
                        except Exception:  # a host handler's bug must not take the connection down
                            log.exception("server %s: the progress handler failed", self.server)
                else:
                    items.append(message)
            case Unexpected(response_id=response_id, is_late=is_late, error=error):
                if response_id is None and error is not None:
                    # The server could not read one of our requests well enough to name it.
                    log.warning("server %s sent an error without an id: %s", self.server, error.message)
                elif is_late:
                    log.debug("server %s: dropped a late answer to id %r", self.server, response_id)
                else:
                    log.warning(
                        "server %s sent a response for unknown JSON-RPC id %r; dropped",
                        self.server,
                        response_id,
                    )
            case Unreadable(error=error, in_a_row=in_a_row, is_fatal=is_fatal):
                items.append(error)
                if is_fatal:
                    return f"{in_a_row} unreadable frames in a row"
            case Answered():
                raise AssertionError("handled above")
        return ""

    def _era_changed(self, error: ErrorObject) -> bool:
        """Whether a refusal says the server no longer speaks this connection's era: a modern -32022, or, to
        a modern request, the legacy servers' invalid-request refusal of an unknown version or of a request
        without a session (what a server replaced by an older one answers)."""
        if error.code == modern.UNSUPPORTED_PROTOCOL_VERSION:
            return True
        if error.code != jsonrpc.INVALID_REQUEST or not self.engine.is_modern:
            return False
        text = error.message.lower()
        return "protocol version" in text or "session" in text

    def _remote_error(self, pending: Pending, error: ErrorObject) -> RemoteError:
        message = error.message
        if error.code == modern.MISSING_CLIENT_CAPABILITY and isinstance(error.data, Mapping):
            # spec: 2026-07-28 basic/index — -32021 names the capabilities the server needs from us.
            required = error.data.get("requiredCapabilities")
            if isinstance(required, Mapping):
                names = ", ".join(sorted(str(name) for name in required)) or "(none named)"
                message = f"{message} (the server needs client capabilities: {names})"
        return RemoteError(self.server, pending.request_id, pending.method, error.code, message, error.data)

    def _settle(
        self,
        pending: Pending,
        *,
        error: TroupeError,
        items: list[Request | Notification | SessionAnswer | MalformedMessage] | None = None,
    ) -> None:
        self._answer_owner(pending.owner, pending.request_id, error, items)

    def _answer_owner(
        self,
        owner: object,
        request_id: RequestId,
        error: TroupeError,
        items: list[Request | Notification | SessionAnswer | MalformedMessage] | None = None,
    ) -> None:
        """Fail the request ``request_id`` of ``owner`` with ``error`` (a session's answer goes to ``items``
        when given, else to the session)."""
        if isinstance(owner, CallerOwner):
            _fail(owner.reply, error)
        elif isinstance(owner, SessionOwner):
            answer = SessionAnswer(owner, error=error, request_id=request_id)
            if items is not None:
                items.append(answer)
            else:
                safe_tell(self._session, Received(self.incarnation, [answer]))

    def fail(self, request_id: RequestId, error: TroupeError) -> None:
        """The transport could not deliver ``request_id`` (HTTP 4xx/5xx, a broken stream): fail it only."""
        with self._lock:
            pending = self.engine.take(request_id)
        if pending is not None:
            self._settle(pending, error=error)

    def reissue(self, request_id: RequestId, error: TroupeError) -> None:
        """``request_id``'s stream broke (modern HTTP: no resumption): send it again under a new id when that
        is safe, else fail it with ``error``."""
        with self._lock:
            pending = self.engine.pending.get(request_id)
            again = self.engine.reissue(pending) if pending is not None else None
        if pending is None:
            return
        if again is None:
            self.fail(request_id, error)
            return
        retried, frame = again
        log.info(
            "server %s: the stream of %s broke; sent again as id %r",
            self.server,
            retried.method,
            retried.request_id,
        )
        self._send(frame, self._outgoing(retried.method, retried.request_id, retried.params), False)

    def pending_of(self, request_id: RequestId) -> Pending | None:
        """The pending request ``request_id``, if it still is."""
        return self.engine.pending.get(request_id)

    def mark_retried(self, request_id: RequestId) -> None:
        """``request_id`` is being sent again once (an HTTP session expired): a second expiry fails it."""
        with self._lock:
            pending = self.engine.pending.get(request_id)
            if pending is not None:
                pending.is_retried = True

    def drop(self, request_id: RequestId) -> Pending | None:
        """Stop awaiting ``request_id`` without telling anyone (its owner starts over by itself)."""
        with self._lock:
            pending = self.engine.take(request_id)
            if pending is not None:
                self.engine.forget(request_id)
        return pending

    def resend(self, pending: Pending, error: TroupeError) -> None:
        """Send a finished request again once, under a new id, for the same owner (a tool call refused
        with a header mismatch, after the tools were listed again); else fail it with ``error``."""
        if pending.is_retried or pending.params is None:
            self._settle(pending, error=error)
            return
        with self._lock:
            if self._is_closed:
                return
            again, frame = self.engine.again(pending)
            arm_after = self._arm_locked(again.deadline, time.monotonic())
        if arm_after is not None:
            self._loop.call_later(arm_after[0], self._on_timer, arm_after[1])
        self._send(frame, self._outgoing(again.method, again.request_id, again.params), False)

    # ---- input_required (modern) -------------------------------------------------------------------------

    def _on_needs_input(self, event: NeedsInput) -> None:
        pending = event.pending
        fulfil = self.fulfil
        if fulfil is None:
            asked = ", ".join(
                f"{request.get('method')} (key {key!r})" for key, request in event.needs.requests.items()
            )
            detail = (
                f"it asked for {asked}; no host handler is installed for that (see docs/host-callbacks.md)"
                if asked
                else "it returned only requestState"
            )
            if event.needs.requests:
                self._settle(pending, error=InputUnavailable(self.server, pending.method, detail))
                return
        try:
            self._loop.spawn(self._fulfil_and_retry, event, name=f"input for {self.server}")
        except TroupeError as exc:
            self._settle(pending, error=ConnectionLost(self.server, str(exc)))

    async def _fulfil_and_retry(self, event: NeedsInput) -> None:
        pending = event.pending
        needs = event.needs
        responses: dict[str, Any] = {}
        try:
            if needs.requests:
                fulfil = self.fulfil
                assert fulfil is not None
                # The input is fetched within the request's own deadline: the rounds are one request.
                remaining = (
                    None if pending.deadline is None else max(pending.deadline - time.monotonic(), 0.0)
                )

                async def one(key: str, request: Mapping[str, Any]) -> None:
                    # (Each task of the group runs in a copy of the context: this names its own request.)
                    cb.SERVING.set(f" (input request {key!r} of JSON-RPC id {pending.request_id!r})")
                    params = request.get("params")
                    responses[key] = dict(
                        await fulfil(
                            self.server, str(request["method"]), params if isinstance(params, Mapping) else {}
                        )
                    )

                with anyio.fail_after(remaining):
                    async with anyio.create_task_group() as group:
                        for key, request in needs.requests.items():
                            group.start_soon(one, key, request)
            elif pending.rounds:
                # A state-only round: back off a little before asking again (50 ms doubling, 250 ms cap).
                await asyncio.sleep(min(0.05 * 2 ** (pending.rounds - 1), 0.25))
        except TimeoutError:
            self._settle(
                pending,
                error=CallTimedOut(self.server, pending.request_id, pending.method, pending.timeout or 0.0),
            )
            return
        except asyncio.CancelledError:
            raise
        except BaseException as exc:
            # A handler's failure (or a refusal of what was asked) fails this request only, with the reason.
            first: BaseException = exc
            while isinstance(first, BaseExceptionGroup) and first.exceptions:
                first = first.exceptions[0]
            error = (
                first
                if isinstance(first, TroupeError)
                else InputUnavailable(self.server, pending.method, str(first))
            )
            self._settle(pending, error=error)
            return
        with self._lock:
            if self._is_closed:
                return
            try:
                retried, frame = self.engine.retry(pending, responses, needs.request_state)
            except InvalidArguments as exc:
                refusal: InvalidArguments | None = exc.with_traceback(None)
            else:
                refusal = None
                arm_after = self._arm_locked(retried.deadline, time.monotonic())
        if refusal is not None:
            self._settle(pending, error=refusal)
            return
        if arm_after is not None:
            self._loop.call_later(arm_after[0], self._on_timer, arm_after[1])
        self._send(frame, self._outgoing(retried.method, retried.request_id, retried.params), False)

    # ---- deadlines ---------------------------------------------------------------------------------------

    def _on_timer(self, token: int) -> None:
        arm_after = None
        with self._lock:
            if token != self._timer_token:
                return  # superseded by an earlier deadline's timer
            self._timer_at = None
            now = time.monotonic()
            expired = self.engine.expire(now)
            dropped = [self._drop_held_locked(pending.request_id) for pending in expired]
            earliest = self.engine.earliest
            if earliest is not None:
                self._timer_at = earliest
                self._timer_token += 1
                arm_after = (max(earliest - now, 0.0), self._timer_token)
        if arm_after is not None:
            self._loop.call_later(arm_after[0], self._on_timer, arm_after[1])
        for pending, was_held in zip(expired, dropped, strict=True):
            if isinstance(pending.owner, Orphan):
                continue  # a task-augmented call given up on whose task was never named: forgotten now
            if pending.is_task:
                # spec: 2025-11-25 cancellation — a task-augmented request MUST NOT be cancelled with
                # notifications/cancelled: its task is cancelled with tasks/cancel once the server names it
                # (a request never written has no task to cancel).
                if not was_held and not self._retracted(pending.request_id, timed_out=True):
                    self._keep_orphan(pending, "timed out")
                self._settle(
                    pending,
                    error=CallTimedOut(
                        self.server, pending.request_id, pending.method, pending.timeout or 0.0
                    ),
                )
                continue
            timeout = pending.timeout or 0.0
            if pending.deadline is not None and pending.deadline - pending.started > timeout + 0.05:
                # Progress kept it alive past its timeout: say how long it really ran (max_call_time).
                timeout = round(pending.deadline - pending.started, 1)
            # spec: lifecycle, timeouts — send notifications/cancelled and stop waiting (never for
            # initialize, which MUST NOT be cancelled; never for a request that was never sent).
            frame = self.engine.cancel_frame(pending, f"timed out after {timeout:g} s")
            if frame and not was_held and not self._retracted(pending.request_id, timed_out=True):
                self._write(frame, Outgoing(proto.CANCELLED, cancels=pending.request_id))
            self._settle(
                pending, error=CallTimedOut(self.server, pending.request_id, pending.method, timeout)
            )
