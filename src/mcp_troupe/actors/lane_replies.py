"""The lane's reply, owner and route types: where an answer goes, and what the lane tells the session.

Split from :mod:`mcp_troupe.actors.lane`, which re-exports every public name here: :class:`Outgoing` (what a
frame is, told to the transport), the :class:`Send`/:class:`Reply`/:class:`ProgressHost` seams, the caller's
:class:`LoopReply` for ``acall`` and :func:`settle_on_loop`, the two owners of a request
(:class:`CallerOwner`, :class:`SessionOwner`), the items the lane tells the session (:class:`SessionAnswer`,
:class:`Received`, :class:`HeaderMismatch`, :class:`EraChanged`), and the registry's fast-path routes
(:class:`FastRoute`, :class:`RouteBoard`). Plain data and small callables: nothing here holds a lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import InvalidStateError
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from mcp_troupe.errors import MalformedMessage, TroupeError
from mcp_troupe.protocol.engine import Pending
from mcp_troupe.protocol.jsonrpc import Notification, Request, RequestId

if TYPE_CHECKING:
    from mcp_troupe.actors.lane import CallLane

__all__ = [
    "CallerOwner",
    "EraChanged",
    "FastRoute",
    "Fulfiller",
    "HeaderMismatch",
    "LoopReply",
    "Outgoing",
    "ProgressHost",
    "ProgressSink",
    "Received",
    "Reply",
    "RouteBoard",
    "Send",
    "SessionAnswer",
    "SessionOwner",
    "settle_on_loop",
]


@dataclass(frozen=True, slots=True)
class Outgoing:
    """What a frame is, told to the transport with it, so that nobody decodes our own frames again.

    ``request_id`` is set for requests; ``cancels`` for a ``notifications/cancelled`` (the id it cancels);
    ``headers`` are the modern era's HTTP request headers (empty otherwise).
    """

    method: str
    request_id: RequestId | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    cancels: RequestId | None = None
    is_response: bool = False


class Send(Protocol):
    """How the lane writes a frame: ``direct`` asks for the caller's thread to write it now if it can."""

    def __call__(self, frame: bytes, outgoing: Outgoing, direct: bool = True) -> None: ...


class Reply(Protocol):
    """Where a caller's answer goes: a ``concurrent.futures.Future``, or a :class:`LoopReply`."""

    def done(self) -> bool: ...

    def cancelled(self) -> bool: ...

    def set_result(self, result: Any) -> None: ...

    def set_exception(self, exception: BaseException | None) -> None: ...

    def add_done_callback(self, fn: Callable[[Any], object]) -> None: ...


Fulfiller = Callable[[str, str, Mapping[str, Any]], Awaitable[Mapping[str, Any]]]
"""``(server, method, params) -> result`` for one embedded request of an ``input_required`` answer
(``elicitation/create``, ``sampling/createMessage``, ``roots/list``); raises to refuse it."""


class ProgressHost(Protocol):
    """What the lane needs of the host callbacks (:class:`mcp_troupe.host.Host`)."""

    @property
    def wants_progress(self) -> bool: ...

    def max_call_time(self, server: str, timeout: float) -> float: ...

    def on_progress(
        self, server: str, incarnation: int, tool: str, params: Mapping[str, Any], reply_to: Any
    ) -> None: ...

    def on_task(self, reply_to: Any, task_id: str) -> None: ...


ProgressSink = Callable[[str, Pending, Mapping[str, Any]], None]
"""Called on the loop with ``(server, pending, params)`` for each ``notifications/progress`` of a request."""


class LoopReply:
    """A caller's reply for a caller awaiting on an asyncio loop (``Troupe.acall``).

    Completing it schedules the result straight into the caller's asyncio future, one
    ``call_soon_threadsafe``; a ``concurrent.futures.Future`` relayed by ``asyncio.wrap_future`` costs two
    lock rounds and a chain of callbacks more on every call. Completed from any thread, at most once (the
    engine decides which of answer, timeout, cancel and close gets to). The lane registers no done callback
    on it: the task awaiting :attr:`future` tells the lane when it is cancelled (``Troupe.acall`` catches
    ``CancelledError`` and calls :meth:`CallLane.cancel`), so an answered call costs no callback at all.
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
        if asyncio._get_running_loop() is self._loop:
            # Completed on the caller's own loop (a troupe started with io_loop=, whose I/O shares the
            # caller's loop): set the future here. call_soon_threadsafe would wake the loop through its
            # self-pipe, one socket write and read per answer, to reach the thread it is already on.
            _settle_future(self.future, result, exception)
            return
        try:
            self._loop.call_soon_threadsafe(_settle_future, self.future, result, exception)
        except RuntimeError:  # the caller's loop is closed: nobody is waiting any more
            pass

    def claim(self) -> asyncio.AbstractEventLoop | None:
        """Take the completing of this reply, for the caller to set its future on its loop (as
        :func:`settle_on_loop` does for many at once); None when it is complete already."""
        if self._is_done or self.future.done():
            return None
        self._is_done = True
        return self._loop

    def add_done_callback(self, fn: Callable[[Any], object]) -> None:
        """Call ``fn(self)`` when the asyncio future is done; only from the caller's loop thread."""
        self.future.add_done_callback(lambda _future: fn(self))


def settle_on_loop(loop: asyncio.AbstractEventLoop, results: list[tuple[asyncio.Future[Any], Any]]) -> None:
    """Complete claimed replies of ``loop`` (see :meth:`LoopReply.claim`) with one wake-up of it.

    One read often answers hundreds of one loop's ``acall`` s (1,000 in flight): a ``call_soon_threadsafe``
    each would write the loop's self-pipe (a system call) and queue a handle per answer.
    """
    if asyncio._get_running_loop() is loop:
        _settle_results(results)
        return
    try:
        loop.call_soon_threadsafe(_settle_results, results)
    except RuntimeError:  # the caller's loop is closed: nobody is waiting any more
        pass


def _settle_results(results: list[tuple[asyncio.Future[Any], Any]]) -> None:
    for future, result in results:
        if not future.done():  # cancelled meanwhile
            future.set_result(result)


def _settle_future(future: asyncio.Future[Any], result: Any, exception: BaseException | None) -> None:
    if future.done():  # cancelled meanwhile
        return
    if exception is not None:
        future.set_exception(exception)
    else:
        future.set_result(result)


@dataclass(slots=True, eq=False)
class CallerOwner:
    """A request whose answer completes a caller's reply; with a ``context`` the reply gets
    ``(result, context)`` (the registry's data travels with the answer)."""

    reply: Reply
    context: Any = None
    has_context: bool = False


@dataclass(slots=True, eq=False)
class SessionOwner:
    """A request of the session's own: its outcome reaches the session's thread as :class:`SessionAnswer`."""

    on_result: Callable[[Mapping[str, Any]], None]
    on_error: Callable[[TroupeError], None]


@dataclass(frozen=True, slots=True)
class SessionAnswer:
    """The outcome of a :class:`SessionOwner` request: ``result`` or ``error``. (lane → session)"""

    owner: SessionOwner
    result: Mapping[str, Any] | None = None
    error: TroupeError | None = None
    request_id: RequestId | None = None


@dataclass(frozen=True, slots=True)
class Received:
    """What a read brought that is not a caller's answer, in order. (lane → session)

    Server requests and notifications, the session's own answers (:class:`SessionAnswer`), and unreadable
    frames (as the :class:`MalformedMessage` they raised). ``fatal`` names why the connection must end (too
    many unreadable frames in a row), or is empty.
    """

    incarnation: int
    items: list[Request | Notification | SessionAnswer | MalformedMessage]
    fatal: str = ""


@dataclass(frozen=True, slots=True)
class HeaderMismatch:
    """A tool call was refused with ``-32020``: list the tools again, then send it again once. (lane →
    session)"""

    incarnation: int
    pending: Pending
    error: TroupeError


@dataclass(frozen=True, slots=True)
class EraChanged:
    """A request was refused with ``-32022``: the server no longer speaks the version this connection
    settled on (it was replaced, or upgraded): the connection must be negotiated again. (lane → session)"""

    incarnation: int
    detail: str


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
