"""Supervision as in OTP: an actor that crashes tells its parent, which decides what happens next.

pykka stops an actor whose handler raises (for a ``tell``; an ``ask`` gets the exception instead) without
calling ``on_stop``, and tells nobody. Every actor of a troupe mixes in :class:`Supervised`, so that such a
crash

1. is logged with its context (the actor, the server, the incarnation);
2. tells the parent :class:`ChildFailed` — an actor ref, or a callable for the root (the facade) — first,
   so that by the time a caller hears of the crash, the parent has been told;
3. runs the actor's :meth:`~Supervised.on_crash` — the part of ``on_stop`` that must still happen, such as
   failing pending calls, killing a process group, tearing down children (a dead parent takes its
   children with it, as an OTP link does);
4. fails every ``reply_to`` future of the message being handled and of the messages still queued, at once
   (:meth:`~Supervised.crash_error` says with what), so no caller waits out a timeout for a dead actor.

Who handles it: the supervisor treats a crashed session, transport or OAuth flow like a lost connection
(a new incarnation, after backoff, within a restart intensity); the registry restarts a crashed supervisor
with the server's incarnation carried over; the facade marks itself broken when the registry crashes, so
every later call raises :class:`~mcp_troupe.errors.TroupeBroken` at once.

Crashes in ``on_start`` count too: pykka logs and stops the actor without calling ``on_failure``, so the
mixin wraps each subclass's ``on_start`` to report first.

The mixin also gives every actor a lighter mailbox than pykka's default: a ``queue.SimpleQueue`` (C, one
lock, no ``Condition`` objects) instead of a ``queue.Queue`` (a mutex, three ``Condition`` objects written
in Python, a waiter lock allocated per blocking ``get``). Mailboxes are unbounded either way, and pykka
asks of one only ``put``, ``get`` and ``empty``. A gateway holds three actors a server, so the objects
each mailbox keeps alive (about 15 that the cyclic garbage collector walks on every full collection) and
the Python-level locking of each message count per server (issue 18, docs/performance.md).

And a cheaper thread start: ``threading.Thread.start()`` blocks its caller until the new thread has run
its bootstrap (an ``Event`` handshake: the starter sleeps, the new thread takes the interpreter lock, sets
the event, and hands it back), which pykka does not need: the mailbox exists before the thread does, and
messages queue until it runs. A connect starts three actors (four with the troupe's registry), each of
those waits costing two context switches and ~0.1 ms of CPU on a shared VM. So on the interpreters whose
``Thread.start`` is known (CPython 3.11 and 3.12), the actor thread is started as ``start()`` does, minus
the wait; it is a normal ``threading.Thread`` (in ``threading.enumerate()`` from the start, named like
pykka's), only not yet ``is_alive()`` in the instant before it runs. Elsewhere it is ``start()``. The
function, :func:`~mcp_troupe.actors.loop.start_thread`, lives with the I/O loop, whose thread starts the
same way.
"""

from __future__ import annotations

import functools
import itertools
import logging
import queue
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from types import TracebackType
from typing import Any, cast

import pykka

from mcp_troupe._futures import fail as _fail
from mcp_troupe.actors.loop import _CAN_SKIP_START_WAIT as _CAN_SKIP_START_WAIT
from mcp_troupe.actors.loop import OnceEvent, safe_tell, start_thread
from mcp_troupe.errors import ConnectionLost, TroupeError

__all__ = ["ChildFailed", "Parent", "Supervised"]

log = logging.getLogger("mcp_troupe.supervision")


@dataclass(frozen=True, slots=True)
class ChildFailed:
    """A child actor died of an exception in one of its handlers (child → parent).

    ``child`` is the dead actor's ref (for the parent to check it is still its current child), ``role`` its
    class name, ``incarnation`` the connection it belonged to (0 for actors that outlive connections).
    """

    child: pykka.ActorRef[Any]
    role: str
    server: str
    incarnation: int
    error: BaseException

    @property
    def reason(self) -> str:
        """One line for status and logs: ``"the SessionActor crashed: KeyError('x')"``."""
        return f"the {self.role} crashed: {self.error!r}"


Parent = pykka.ActorRef[Any] | Callable[[ChildFailed], None]
"""Who hears of a crash: an actor (told :class:`ChildFailed`), or a function (the facade, for the root)."""


class Supervised:
    """Mixin for a pykka actor (put it before ``pykka.ThreadingActor``): report a crash to ``parent``.

    Set ``parent`` (and ``incarnation`` and ``server`` where they apply) in ``__init__``. Override
    :meth:`on_crash` for cleanup that must happen even when the actor dies of a bug, and
    :meth:`crash_error` for what the callers waiting on it are told.
    """

    parent: Parent | None = None
    incarnation: int = 0
    server: str = ""
    # The message whose handler raised, so its reply_to is failed too (set only while failing).
    _failing_message: object = None

    def _start_actor_loop(self) -> None:
        # pykka's hook that starts the actor's thread (see the module docstring: the same thread, no wait).
        # pykka's actor_stopped, as light as it can be (see OnceEvent): replaced before the thread can set
        # it and before the ref is handed to anyone (pykka.Actor.start returns it after this hook).
        stopped, actor = OnceEvent(), cast(Any, self)  # typed as pykka's Event, duck-typed here
        actor.actor_stopped = actor.actor_ref.actor_stopped = stopped
        thread = threading.Thread(
            target=self._actor_loop,  # type: ignore[attr-defined]
            name=f"{type(self).__name__}-{next(_thread_serial)}",
            daemon=self.use_daemon_thread,  # type: ignore[attr-defined]
        )
        start_thread(thread)

    @staticmethod
    def _create_actor_inbox() -> queue.SimpleQueue[Any]:
        # pykka's hook for an actor type's mailbox (see the module docstring). FIFO like queue.Queue, and
        # get_nowait() raises queue.Empty as _fail_queued expects.
        return queue.SimpleQueue()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Only the hooks a class defines itself are wrapped (inherited ones already are).
        wrappers: dict[str, Callable[[Callable[..., Any]], Callable[..., Any]]] = {
            "on_start": _reporting_start,
            "on_receive": _remembering_receive,
        }
        for hook, wrap in wrappers.items():
            defined = cls.__dict__.get(hook)
            if defined is not None:
                setattr(cls, hook, wrap(defined))

    def on_crash(self, error: BaseException) -> None:
        """Clean up after a crash (the actor is already stopped: no message will reach it again)."""

    def crash_error(self, error: BaseException) -> BaseException:
        """The error for the callers waiting on this actor when it crashed."""
        return ConnectionLost(
            self.server or type(self).__name__, f"the {type(self).__name__} crashed: {error!r}"
        )

    def on_failure(
        self,
        exception_type: type[BaseException] | None,
        exception_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """pykka's hook for an exception in ``on_receive``: report it (see the module docstring)."""
        self._report_crash(
            exception_value if exception_value is not None else RuntimeError("unknown failure")
        )

    def _report_crash(self, error: BaseException) -> None:
        role = type(self).__name__
        log.error(
            "%s crashed (server %s, incarnation %d): %r; its parent is told",
            role, self.server or "-", self.incarnation, error,
        )  # fmt: skip
        # The cleanup first, then the report: a parent that hears of the crash may take what the actor held
        # as released (a transport's process group killed), and need not ask the dying actor to close it,
        # a message that could land after its inbox was last drained and never be answered.
        try:
            self.on_crash(error)
        except Exception:  # the cleanup of a broken actor may break too; the parent and waiters must hear
            log.exception("%s: cleanup after the crash failed (server %s)", role, self.server or "-")
        ref: pykka.ActorRef[Any] = self.actor_ref  # type: ignore[attr-defined]
        report = ChildFailed(ref, role, self.server, self.incarnation, error)
        parent = self.parent
        if isinstance(parent, pykka.ActorRef):
            safe_tell(parent, report)
        elif parent is not None:
            try:
                parent(report)
            except Exception:
                log.exception("%s: the parent's crash handler failed", role)
        waiter_error = self.crash_error(error)
        if isinstance(waiter_error, TroupeError) and waiter_error.__cause__ is None:
            waiter_error.__cause__ = error
        failing, self._failing_message = self._failing_message, None
        _fail_reply_to(failing, waiter_error)
        self._fail_queued(waiter_error)

    def _fail_queued(self, error: BaseException) -> None:
        """Fail the ``reply_to`` of every message still queued; the envelopes go back for pykka's teardown
        (which answers asks with ActorDeadError)."""
        inbox: queue.SimpleQueue[Any] = self.actor_inbox  # type: ignore[attr-defined]
        envelopes = []
        while True:
            try:
                envelopes.append(inbox.get_nowait())
            except queue.Empty:
                break
        for envelope in envelopes:
            _fail_reply_to(envelope.message, error)
            inbox.put(envelope)


_thread_serial = itertools.count()


def _fail_reply_to(message: object, error: BaseException) -> None:
    reply_to = getattr(message, "reply_to", None)
    if isinstance(reply_to, Future):
        _fail(reply_to, error)


def _reporting_start(on_start: Callable[[Any], None]) -> Callable[[Any], None]:
    @functools.wraps(on_start)
    def on_start_reporting(self: Supervised) -> None:
        try:
            on_start(self)
        except Exception:
            # pykka stops the actor after this without calling on_failure: report here, then let it.
            self._report_crash(sys.exc_info()[1] or RuntimeError("unknown failure"))
            raise

    return on_start_reporting


def _remembering_receive(on_receive: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    @functools.wraps(on_receive)
    def on_receive_remembering(self: Supervised, message: Any) -> Any:
        try:
            return on_receive(self, message)
        except Exception:
            self._failing_message = message
            raise

    return on_receive_remembering
