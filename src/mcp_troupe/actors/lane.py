"""CallLane: the fast path of ``tools/call`` over stdio, from the caller's thread to the I/O loop and back.

Why it exists. Through the actors a call crosses five thread hand-offs (caller → registry → session → loop
→ session → caller), and one hand-off costs 7 µs on a busy machine and about 44 µs when the other core is
idle (``benchmarks/profile_core.py``, ``handoff.*``). For a call the registry has already cleared (the gate
passed with nothing to ask or record: see :class:`RouteBoard`), the lane does the session's per-call work on
the threads that are awake anyway: the caller registers the call and queues its frame for the loop, and the
loop, which reads the answer, completes the caller's future. Two hand-offs instead of five.

Who owns what. The stdio connection creates one lane per incarnation and feeds it every frame it reads (on
the loop). The session takes its request ids from the lane (one id space, so nothing collides), sets
:attr:`CallLane.batching` once the revision is known, opens the lane when the connection is ready and closes
it when the connection ends (the connection also closes it the moment the process goes away). Everything
that is not the answer to a lane call — the handshake, listings, notifications, server requests, unreadable
frames — is decoded here once and handed to the session in order, as one :class:`Received` per read.

Re-listing. Pages of ``tools/list`` the session asks for are *memoised*: the decoded result of each page is
kept by its bytes (:func:`~mcp_troupe.protocol.jsonrpc.split_result`), for this listing and the previous
one, and a page that comes back byte for byte the same is not parsed again — the session receives the very
same result object, recognises the page as unchanged in one comparison and passes its definitions on as the
same objects, so nothing downstream re-checks them. A ``list_changed`` that changed nothing costs little
more than reading the bytes. (A page whose tail repeats a top-level key, which JSON leaves undefined, is
read as the first decoding read it.)

Threads. :meth:`CallLane.call` and :meth:`CallLane.cancel` run on any thread; :meth:`CallLane.receive` and
the deadline timer on the loop; :meth:`CallLane.open` and :meth:`CallLane.close` on the session's thread
(and ``close`` on the loop). The pending map is a dict (single operations are atomic); the lock orders
registering a call against closing the lane, so that no call is left pending in a closed lane.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import InvalidStateError
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import pykka

from mcp_troupe._futures import complete as _complete
from mcp_troupe._futures import fail as _fail
from mcp_troupe.actors.deadlines import Deadlines
from mcp_troupe.actors.loop import IoLoop, safe_tell
from mcp_troupe.errors import CallCancelled, CallTimedOut, MalformedMessage, RemoteError, TroupeError
from mcp_troupe.protocol import jsonrpc
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol.jsonrpc import ErrorResponse, Notification, Response

if TYPE_CHECKING:
    from mcp_troupe.host import Host

__all__ = ["CallLane", "FastRoute", "LoopReply", "Received", "Reply", "RouteBoard"]

log = logging.getLogger("mcp_troupe.lane")

# Ids of lane calls given up on (timed out, cancelled), so that their late answers are dropped quietly.
RECENTLY_ABANDONED = 1024
# With at most this many calls in flight a request is written by the caller's thread at once (latency);
# with more, requests are queued and written one burst per loop turn (throughput).
DIRECT_WRITE_MAX_PENDING = 8


class Send(Protocol):
    """How the lane writes a frame: ``direct`` asks for the caller's thread to write it now if it can."""

    def __call__(self, frame: bytes, direct: bool = True) -> None: ...


class Reply(Protocol):
    """Where a lane call's answer goes: a ``concurrent.futures.Future``, or a :class:`LoopReply`."""

    def done(self) -> bool: ...

    def cancelled(self) -> bool: ...

    def set_result(self, result: Any) -> None: ...

    def set_exception(self, exception: BaseException | None) -> None: ...

    def add_done_callback(self, fn: Callable[[Any], object]) -> None: ...


class LoopReply:
    """A lane call's reply for a caller awaiting on an asyncio loop (``Troupe.acall``).

    Completing it schedules the result straight into the caller's asyncio future, one
    ``call_soon_threadsafe``; a ``concurrent.futures.Future`` relayed by ``asyncio.wrap_future`` costs two
    lock rounds and a chain of callbacks more on every call. Completed from any thread, at most once (the
    lane's pending map decides which of answer, timeout, cancel and close gets to); a cancelled asyncio
    future reports as cancelled, so the lane tells the server.
    """

    __slots__ = ("_is_done", "_loop", "future")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self.future: asyncio.Future[Any] = loop.create_future()
        self._is_done = False

    def done(self) -> bool:
        return self._is_done or self.future.done()

    def cancelled(self) -> bool:
        return self.future.cancelled()

    def set_result(self, result: Any) -> None:
        self._settle(result, None)

    def set_exception(self, exception: BaseException | None) -> None:
        self._settle(None, exception)

    def _settle(self, result: Any, exception: BaseException | None) -> None:
        if self._is_done:
            raise InvalidStateError("the reply is already complete")
        self._is_done = True
        try:
            self._loop.call_soon_threadsafe(_settle_future, self.future, result, exception)
        except RuntimeError:  # the caller's loop is closed: nobody is waiting any more
            pass

    def add_done_callback(self, fn: Callable[[Any], object]) -> None:
        """Call ``fn(self)`` when the asyncio future is done; only from the caller's loop thread."""
        self.future.add_done_callback(lambda _future: fn(self))


def _settle_future(future: asyncio.Future[Any], result: Any, exception: BaseException | None) -> None:
    if future.done():  # cancelled meanwhile
        return
    if exception is not None:
        future.set_exception(exception)
    else:
        future.set_result(result)


@dataclass(frozen=True, slots=True)
class Received:
    """Messages read from the wire that are not answers to lane calls, in order. (lane → session)

    Unreadable frames appear as the :class:`MalformedMessage` they raised; ``bad_in_a_row`` is the number of
    unreadable frames since the last good one, counted over every frame (lane answers included).
    """

    incarnation: int
    items: list[jsonrpc.Message | MalformedMessage]
    bad_in_a_row: int = 0


@dataclass(frozen=True, slots=True)
class FastRoute:
    """A tool the registry has cleared for the lane: where to send it and what travels with its answer."""

    lane: CallLane
    original_name: str
    # (outputSchema, server): what the registry attaches to an answer (see ``registry.split_call_reply``).
    context: tuple[Mapping[str, Any] | None, str]


@dataclass(slots=True)
class RouteBoard:
    """The registry's published routes for the fast path, read by the facade without asking the registry.

    Only the registry writes: it adds a tool after a call of it passed the gate with nothing to ask or
    record, and replaces the whole map whenever anything that could change that verdict or the route
    changes (a new table, an approval, a server going down). Readers take one ``routes.get(name)``.
    """

    routes: dict[str, FastRoute] = field(default_factory=dict)


@dataclass(slots=True)
class _LaneCall:
    request_id: int
    future: Reply
    context: Any
    timeout: float
    deadline: float
    # host callbacks: the tool (for progress events) and the hard cap progress cannot extend past
    tool: str = ""
    hard_deadline: float = 0.0
    started: float = 0.0


class CallLane:
    """One stdio connection's fast path for ``tools/call`` (see the module docstring)."""

    def __init__(
        self,
        *,
        server: str,
        incarnation: int,
        session: pykka.ActorRef[Any],
        loop: IoLoop,
        send: Send,
    ) -> None:
        self.server = server
        self.incarnation = incarnation
        self.ids = itertools.count(1)
        # The negotiated revision allows JSON-RPC batches (2025-03-26); set by the session.
        self.batching = False
        self._session = session
        self._loop = loop
        self._send = send
        self._lock = threading.Lock()
        # Keyed by whatever id an answer carries (a server may echo a string or null): only ints are ours.
        self._pending: dict[object, _LaneCall] = {}
        # Calls are accepted between open() and close(); a closed lane never opens again.
        self._is_open = False
        self._is_closed = False
        self._call_timeout = 0.0
        self._deadlines = Deadlines()
        self._timer_token = 0
        self._timer_at: float | None = None
        self._abandoned: deque[object] = deque(maxlen=RECENTLY_ABANDONED)
        self._bad_in_a_row = 0
        # Memoised pages (loop side; ids added by the session): request ids whose answers may be memoised,
        # and decoded results by tail bytes, of the listing in progress and of the one before.
        self._memo_ids: set[object] = set()
        self._memo: dict[bytes, Any] = {}
        self._memo_previous: dict[bytes, Any] = {}
        # host callbacks (set by the session): where progress goes, and the max_call_time rule.
        self.host: Host | None = None
        # Tools called as tasks (2025-11-25): refused here, so that the facade takes the session's path.
        self.task_tools: frozenset[str] = frozenset()

    # ---- session side ----------------------------------------------------------------------------------

    def open(self, call_timeout: float) -> None:
        """Accept calls from now on; ``call_timeout`` is the default for calls that name none."""
        with self._lock:
            self._call_timeout = call_timeout
            self._is_open = not self._is_closed

    def close(self, error: TroupeError) -> None:
        """Refuse new calls and fail every pending one with ``error`` (idempotent)."""
        with self._lock:
            self._is_open = False
            self._is_closed = True
            pending, self._pending = self._pending, {}
            self._deadlines.clear()
        for call in pending.values():
            _fail(call.future, error)

    @property
    def is_open(self) -> bool:
        """Whether calls are accepted now."""
        return self._is_open

    def memoize(self, request_id: int) -> None:
        """The answer to ``request_id`` (a ``tools/list`` page, sent after this call) may be memoised."""
        self._memo_ids.add(request_id)

    def begin_listing(self) -> None:
        """A new listing starts: the pages memoised so far become the previous listing's."""
        self._memo_ids.clear()  # a page of an abandoned listing is not worth remembering
        if self._memo:
            self._memo_previous, self._memo = self._memo, {}

    # ---- caller side (any thread) --------------------------------------------------------------------

    def call(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        reply_to: Reply,
        context: Any,
        timeout: float | None = None,
    ) -> int | None:
        """Send ``tools/call`` for ``name``; ``reply_to`` gets ``(raw result, context)`` or an error.

        Returns the request id, or None when the lane is closed (nothing was sent and ``reply_to`` is
        untouched: the caller takes the actors' path, which knows why the server is not there).
        """
        if name in self.task_tools:
            return None
        request_id = next(self.ids)
        # host callbacks: ask for progress under the request id (unique among active requests).
        params = proto.call_tool_params(name, arguments)
        host = self.host
        if host is not None and host.wants_progress:
            params["_meta"] = {"progressToken": request_id}
        frame = jsonrpc.encode_request(request_id, proto.TOOLS_CALL, params)
        arm_after = None
        with self._lock:
            if not self._is_open:
                return None
            limit = self._call_timeout if timeout is None else timeout
            now = time.monotonic()
            deadline = now + limit
            cap = host.max_call_time(self.server, limit) if host is not None else limit
            self._pending[request_id] = _LaneCall(
                request_id, reply_to, context, limit, deadline, name, now + cap, now
            )
            self._deadlines.push(deadline, request_id, self._pending)
            if self._timer_at is None or deadline < self._timer_at:
                self._timer_at = deadline
                self._timer_token += 1
                arm_after = (limit, self._timer_token)
        if arm_after is not None:
            self._loop.call_later(arm_after[0], self._on_timer, arm_after[1])
        self._send(frame, len(self._pending) <= DIRECT_WRITE_MAX_PENDING)
        # Registered after the send: a caller that already gave up cancels a request that went out.
        reply_to.add_done_callback(functools.partial(self._on_future_done, request_id))
        return request_id

    def cancel(self, request_id: int, reason: str = "cancelled by the client") -> bool:
        """Give up on lane call ``request_id``: tell the server, fail its future with CallCancelled.

        False when the call is not pending (answered, timed out, or never a lane call).
        """
        call = self._pending.pop(request_id, None)
        if call is None:
            return False
        self._send_cancelled(request_id, reason)
        _fail(call.future, CallCancelled(self.server, request_id, proto.TOOLS_CALL))
        return True

    def _on_future_done(self, request_id: int, future: Reply) -> None:
        if future.cancelled():  # a cancelled acall task, or CallHandle's future cancelled by its owner
            self.cancel(request_id, "the caller cancelled the call")

    def _send_cancelled(self, request_id: int, reason: str) -> None:
        # spec: cancellation — the sender SHOULD ignore a response that arrives afterwards.
        self._abandoned.append(request_id)
        self._send(jsonrpc.encode_notification(proto.CANCELLED, proto.cancelled_params(request_id, reason)))

    # ---- loop side -----------------------------------------------------------------------------------

    def receive(self, frames: list[bytes]) -> None:
        """Decode ``frames``; complete lane calls; hand everything else to the session, in order."""
        items: list[jsonrpc.Message | MalformedMessage] = []
        pending = self._pending
        for frame in frames:
            try:
                if self._memo_ids and not self.batching:
                    messages = [self._decode_page(frame)]
                else:
                    messages = jsonrpc.decode_batch(frame) if self.batching else [jsonrpc.decode(frame)]
            except MalformedMessage as exc:
                self._bad_in_a_row += 1
                items.append(exc)
                continue
            self._bad_in_a_row = 0
            for message in messages:
                if (
                    type(message) is Notification
                    and message.method == proto.PROGRESS
                    and pending
                    and self._on_progress(message.params)
                ):
                    continue
                if isinstance(message, Response | ErrorResponse):
                    response_id = message.id
                    call = pending.pop(response_id, None) if pending else None
                    if call is not None:
                        self._answer(call, message)
                        continue
                    if response_id in self._abandoned:
                        log.debug(
                            "server %s: dropped a late answer to cancelled id %r", self.server, response_id
                        )
                        continue
                items.append(message)
        if items:
            safe_tell(self._session, Received(self.incarnation, items, self._bad_in_a_row))

    def _on_progress(self, params: Mapping[str, Any] | None) -> bool:
        """Progress for a lane call: extend its deadline (up to the hard cap) and tell the host.

        Returns False when ``params`` name no pending lane call (the session gets the notification then).

        spec: lifecycle, timeouts — the timer MAY be reset on progress notifications, but a maximum timeout
        SHOULD always be enforced (``max_call_time``).
        """
        token = params.get("progressToken") if params is not None else None
        call = self._pending.get(token) if type(token) is int else None
        if call is None or params is None:
            return False
        with self._lock:
            if self._pending.get(token) is call:
                deadline = min(time.monotonic() + call.timeout, call.hard_deadline)
                if deadline > call.deadline:
                    call.deadline = deadline
                    # The armed timer fires at the old deadline, finds it stale and re-arms for the earliest.
                    self._deadlines.push(deadline, token, self._pending)
        host = self.host
        if host is not None:
            host.on_progress(self.server, self.incarnation, call.tool, params, call.future)
        return True

    def _decode_page(self, frame: bytes) -> jsonrpc.Message:
        split = jsonrpc.split_result(frame)
        if split is None or split[0] not in self._memo_ids:
            return jsonrpc.decode(frame)
        request_id, tail = split
        self._memo_ids.discard(request_id)
        result = self._memo.get(tail)
        if result is None:
            result = self._memo_previous.get(tail)
        if result is not None:
            self._memo[tail] = result
            return Response(request_id, result)
        message = jsonrpc.decode(frame)
        # Checked once, here, by the full decoding: this tail means this result for whatever head it gets.
        if type(message) is Response and message.id == request_id:
            self._memo[tail] = message.result
        return message

    def _answer(self, call: _LaneCall, message: Response | ErrorResponse) -> None:
        if type(message) is Response:
            _complete(call.future, (message.result, call.context))
            return
        assert isinstance(message, ErrorResponse)
        error = message.error
        _fail(
            call.future,
            RemoteError(
                self.server, call.request_id, proto.TOOLS_CALL, error.code, error.message, error.data
            ),
        )

    def _on_timer(self, token: int) -> None:
        expired: list[tuple[int, _LaneCall]] = []
        arm_after = None
        with self._lock:
            if token != self._timer_token:
                return  # superseded by an earlier deadline's timer
            self._timer_at = None
            now = time.monotonic()
            expired = self._deadlines.pop_expired(now, self._pending)
            earliest = self._deadlines.earliest
            if earliest is not None:
                self._timer_at = earliest
                self._timer_token += 1
                arm_after = (earliest - now, self._timer_token)
        if arm_after is not None:
            self._loop.call_later(arm_after[0], self._on_timer, arm_after[1])
        for request_id, call in expired:
            # spec: 2025-06-18 lifecycle, timeouts — send notifications/cancelled and stop waiting.
            ran = (
                call.timeout
                if call.deadline - call.started <= call.timeout
                else round(call.deadline - call.started, 1)
            )
            self._send_cancelled(request_id, f"timed out after {ran:g} s")
            _fail(call.future, CallTimedOut(self.server, request_id, proto.TOOLS_CALL, ran))
