"""IoLoop: the one event-loop thread that every transport shares, and the Runtime bundle actors receive.

Actors never wait for the loop: they *post* work to it (``call_soon_threadsafe``), and loop code reports back
with ``actor_ref.tell(...)``. Nothing on the loop blocks or asks an actor (DESIGN §2 rule 2).

The loop is a plain asyncio event loop (anyio works in its tasks, see :func:`_run_loop`); transports use
asyncio's protocol callbacks directly where that saves a task per read. A spawned task is a plain asyncio task
(anyio's cancel scopes and sleeps work in it: sniffio finds the running task) with an anyio cancel scope of
its own, which :meth:`IoLoop.stop` cancels, as a task group's scope would cancel its children. Not a task
group: its ``start_soon`` cannot be called from a loop callback (sniffio finds no task there), so it took a
spawner task woken per spawn (one more loop pass), and each task it starts carries anyio's task handle, an
anyio and an asyncio event and a done closure: some 40 objects the garbage collector walks for as long as the
task lives, which for a connection's task is the life of the connection (issue 18: a gateway's heap grows by
them per server, and every full collection walks them all).

Why not anyio's ``BlockingPortal``: its ``start_task_soon`` waits until the loop has taken the task (a
``from_thread.run_sync`` round trip), and that wait is what DESIGN §2 rule 2 forbids to actors. So
:meth:`IoLoop.spawn` posts without waiting, but keeps the portal's shape: the :class:`TaskHandle` it returns
holds a ``concurrent.futures.Future`` with the task's outcome, and cancelling one cancels the other. A task's
exception is never swallowed: it is logged with the task's name, set on that future, and handed to the
spawner's ``on_error`` (for instance, a transport's open task tells its session that opening failed).
"""

from __future__ import annotations

import _thread
import asyncio
import contextlib
import functools
import logging
import queue
import sys
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
import pykka

from mcp_troupe.actors.stop_wave import stop_in_windows
from mcp_troupe.errors import TroupeClosed
from mcp_troupe.types import TroupeEvent

if TYPE_CHECKING:
    from mcp_troupe.host import Host

__all__ = ["EVENT_HISTORY", "IoLoop", "OnceEvent", "Runtime", "TaskHandle", "safe_tell", "start_thread"]

log = logging.getLogger("mcp_troupe.loop")

EVENT_HISTORY = 1000
"""Events kept for subscribers that ask for history (``Troupe.events(history=True)``)."""
SUBSCRIBER_BACKLOG = 10_000
"""Unread events one subscriber may hold; beyond that its oldest are dropped."""


# Guards each TaskHandle's hand-over between "outcome kept" and "future made" (one lock for all: a handle is
# settled once, and the future asked for at most once; the critical sections are a few attribute reads).
_HANDLE_LOCK = threading.Lock()
_RESULT, _ERROR, _CANCELLED = 0, 1, 2


class TaskHandle:
    """A task spawned on the loop; ``cancel()`` may be called from any thread, before or after it starts.

    ``future`` completes with the task's result, its exception, or cancelled (as anyio's portal futures do);
    cancelling the future cancels the task too. The future is made when first asked for: most spawners never
    ask (a connection's task), and a ``concurrent.futures.Future`` is a condition, a reentrant lock, two lists
    and a callback, a dozen objects the garbage collector walks as long as the task lives (issue 18). Until
    then the outcome is kept here and handed to the future when it is made.
    """

    __slots__ = ("_cancelled", "_future", "_loop", "_outcome", "_scope")

    def __init__(self, loop: IoLoop) -> None:
        self._loop = loop
        self._scope: anyio.CancelScope | None = None
        self._cancelled = False
        self._future: Future[Any] | None = None
        # (_RESULT, value) / (_ERROR, exception) / (_CANCELLED, None) once settled before a future existed.
        self._outcome: tuple[int, Any] | None = None

    @property
    def future(self) -> Future[Any]:
        """The task's outcome (made on first use, already done if the task has ended)."""
        with _HANDLE_LOCK:
            future = self._future
            if future is not None:
                return future
            future = self._future = Future()
            outcome = self._outcome
        if outcome is None:
            future.add_done_callback(self._on_future_done)
        else:
            _settle_future(future, outcome)
        return future

    def _settle(self, kind: int, value: Any = None) -> None:
        """Record the task's outcome (loop thread, or ``cancel()``'s); the first outcome wins."""
        with _HANDLE_LOCK:
            future = self._future
            if future is None:
                if self._outcome is None:
                    self._outcome = (kind, value)
                return
        _settle_future(future, (kind, value))

    def cancel(self) -> None:
        """Cancel the task (a no-op once it has finished)."""
        self._cancelled = True
        self._settle(_CANCELLED)
        self._loop.post_if_running(self._cancel_on_loop)

    def _on_future_done(self, future: Future[Any]) -> None:
        if future.cancelled() and not self._cancelled:
            self._cancelled = True
            self._loop.post_if_running(self._cancel_on_loop)

    def _cancel_on_loop(self) -> None:
        if self._scope is not None:
            self._scope.cancel()


def _settle_future(future: Future[Any], outcome: tuple[int, Any]) -> None:
    if future.done():
        return
    kind, value = outcome
    # Settled by another thread in between (cancel() against the task's end): the first outcome stands.
    with contextlib.suppress(InvalidStateError):
        if kind == _RESULT:
            future.set_result(value)
        elif kind == _ERROR:
            future.set_exception(value)
        else:
            future.cancel()


class IoLoop:
    """The single anyio/asyncio event loop all I/O runs on: a thread of its own (:meth:`start`), or an asyncio
    loop the application already runs (:meth:`start_on`)."""

    def __init__(self, name: str = "mcp-troupe-io") -> None:
        self._name = name
        self._thread: threading.Thread | None = None
        self._thread_id: int | None = None
        self._started = threading.Event()
        self._finished = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_requested: asyncio.Event | None = None
        self._closed = False
        # After a stop is asked for, no task starts (each spawn's future is cancelled at once).
        self._is_stopping = False
        # The spawned tasks still running, with their spawns (stop cancels their scopes).
        self._tasks: dict[asyncio.Task[None], _Spawn] = {}

    @property
    def is_running(self) -> bool:
        """Whether the loop accepts work."""
        return self._loop is not None and not self._closed

    def start(self) -> None:
        """Start the loop thread; the loop accepts work at once.

        The event loop is made here, on the caller's thread, and run by the new one: a post from now on is
        queued by ``call_soon_threadsafe`` until the loop runs it, so the caller does not wait for the
        thread to make its loop, nor for the thread's bootstrap (:func:`start_thread`): two blocks and
        wake-ups of the caller less per troupe (issue 18).
        """
        if self._thread is not None or self._started.is_set() or self._loop is not None:
            raise RuntimeError("IoLoop already started")
        loop = asyncio.new_event_loop()
        self._stop_requested = asyncio.Event()  # bound to the loop that first waits on it: ours
        # A daemon thread: a process that forgot to stop its troupe must still be able to exit.
        thread = threading.Thread(target=self._run, args=(loop,), name=self._name, daemon=True)
        self._loop, self._thread = loop, thread
        try:
            start_thread(thread)  # without Thread.start()'s wait for the bootstrap: nothing here needs it
        except BaseException:
            self._loop = self._thread = None
            loop.close()
            raise

    def start_on(self, loop: asyncio.AbstractEventLoop, timeout: float = 10.0) -> None:
        """Run on ``loop``, an asyncio loop running in another thread, instead of a thread of our own.

        The application's loop then reads every server's answers itself: an ``await`` on a call wakes once,
        when the answer arrives, instead of once for the I/O thread and once more for the caller's loop. The
        price is the application's: whatever blocks its loop stalls every server's I/O too. Must be called
        from another thread than ``loop``'s (it waits for the loop to take the work).
        """
        if self._thread is not None or self._started.is_set() or self._loop is not None:
            raise RuntimeError("IoLoop already started")
        if _running_loop() is loop:
            raise RuntimeError(
                "start_on() waits for the loop: call it from another thread (asyncio.to_thread)"
            )
        asyncio.run_coroutine_threadsafe(self._run_on_loop(), loop)
        if not self._started.wait(timeout):
            raise RuntimeError(f"the I/O loop did not start within {timeout} s")

    async def _run_on_loop(self) -> None:
        try:
            await self._main()
        except Exception:  # cancellation (the application's loop shutting down) is not a crash
            log.exception("the I/O loop crashed")
        finally:
            self._closed = True
            self._started.set()
            self._finished.set()

    def _run(self, loop: asyncio.AbstractEventLoop) -> None:
        # Known before the loop runs anything: callbacks posted before start() returned run ahead of _main.
        self._thread_id = threading.get_ident()
        try:
            _run_loop(loop, self._main)
        except BaseException:  # the thread must report, never die silently
            log.exception("the I/O loop crashed")
        finally:
            self._closed = True
            self._started.set()
            self._finished.set()

    def in_loop_thread(self) -> bool:
        """Whether the caller is on the loop's thread while the loop runs (waiting would deadlock)."""
        return self._thread_id == threading.get_ident() and not self._finished.is_set()

    async def _main(self) -> None:
        self._thread_id = threading.get_ident()
        self._loop = asyncio.get_running_loop()
        if self._stop_requested is None:  # start_on: made here, on the application's loop
            self._stop_requested = asyncio.Event()
        self._started.set()
        try:
            await self._stop_requested.wait()
        finally:
            self._is_stopping = True
            await self._cancel_tasks()
            self._closed = True

    async def _cancel_tasks(self) -> None:
        """Cancel every spawned task and wait until all have ended (those they spawn meanwhile never start).

        A task that has entered its scope is cancelled through it, anyio's way: the cancellation is delivered
        again until the task leaves the scope, and shielded cleanups inside it finish first, as under a task
        group. One that has not started yet is cancelled natively and never runs.
        """
        while self._tasks:
            tasks = list(self._tasks.items())
            for task, spawn in tasks:
                scope = spawn.handle._scope
                if scope is not None:
                    scope.cancel()
                else:
                    task.cancel()
            await asyncio.wait([task for task, _spawn in tasks])

    def post(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` on the loop soon; raise :class:`TroupeClosed` when the loop is gone."""
        loop = self._loop
        if loop is None or self._closed:
            raise TroupeClosed("the I/O loop is not running")
        try:
            loop.call_soon_threadsafe(fn, *args)
        except RuntimeError as exc:  # "Event loop is closed"
            raise TroupeClosed("the I/O loop is not running") from exc

    def post_if_running(self, fn: Callable[..., Any], *args: Any) -> bool:
        """Like :meth:`post`, but return False instead of raising when the loop is gone."""
        try:
            self.post(fn, *args)
        except TroupeClosed:
            return False
        return True

    def call_later(self, delay: float, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` on the loop after ``delay`` seconds (dropped if the loop stops first)."""
        self.post_if_running(self._schedule, max(0.0, delay), fn, args)

    def _schedule(self, delay: float, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        assert self._loop is not None
        self._loop.call_later(delay, fn, *args)

    def spawn(
        self,
        fn: Callable[..., Awaitable[Any]],
        *args: Any,
        name: str = "",
        on_error: Callable[[BaseException], object] | None = None,
    ) -> TaskHandle:
        """Start ``await fn(*args)`` as a task on the loop, without waiting for the loop.

        An exception of the task is logged with ``name``, set on the handle's future, and passed to
        ``on_error`` (called on the loop thread: it must not block; a report to an actor is a ``tell``).
        Raises :class:`TroupeClosed` when the loop is not running.
        """
        handle = TaskHandle(self)
        self.post(self._start_task, _Spawn(handle, fn, args, name, on_error))
        return handle

    def _start_task(self, spawn: _Spawn) -> None:
        # A plain loop callback: the task is created here, at once, with no spawner task to wake.
        if self._loop is None or self._is_stopping or self._closed:
            spawn.handle._settle(_CANCELLED)
            return
        task = self._loop.create_task(self._run_task(spawn), name=spawn.name or None)
        self._tasks[task] = spawn
        task.add_done_callback(self._on_task_done)

    def _on_task_done(self, task: asyncio.Task[None]) -> None:
        spawn = self._tasks.pop(task, None)
        if spawn is not None:
            # A no-op if _run_task settled it; else it was cancelled natively before its first step (the
            # loop stopping), and its body never ran.
            spawn.handle._settle(_CANCELLED)

    async def _run_task(self, spawn: _Spawn) -> None:
        handle = spawn.handle
        if handle._cancelled:
            return  # cancelled before it started: a cancel scope would only stop it at its first await
        outcome: Exception | None = None
        result: Any = None
        is_finished = False
        try:
            with anyio.CancelScope() as scope:
                handle._scope = scope
                try:
                    result = await spawn.fn(*spawn.args)
                    is_finished = True
                except Exception as exc:
                    outcome = exc
        finally:
            if not is_finished and outcome is None:
                handle._settle(_CANCELLED)  # cancelled, by its handle or by the loop stopping
        if outcome is None:
            if is_finished:
                handle._settle(_RESULT, result)
            return
        # Never swallowed: logged with the task's name, kept on its future, and reported to the spawner.
        log.error("task %s failed: %r", spawn.name or spawn.fn, outcome, exc_info=outcome)
        handle._settle(_ERROR, outcome)
        if spawn.on_error is not None:
            try:
                spawn.on_error(outcome)
            except Exception:
                log.exception("task %s: its on_error handler failed", spawn.name or spawn.fn)

    @property
    def asyncio_loop(self) -> asyncio.AbstractEventLoop:
        """The underlying asyncio loop (for code that already runs on it)."""
        if self._loop is None:
            raise TroupeClosed("the I/O loop is not running")
        return self._loop

    def stop(self, timeout: float = 10.0) -> None:
        """Cancel every task and end the loop thread (or, on an application's loop, our part of it)."""
        event = self._stop_requested
        if event is not None and not self._closed:
            self.post_if_running(event.set)
        if self._thread is not None:
            # The loop's end first: a thread started without the bootstrap wait (start_thread) cannot be
            # joined until it has run, and _run sets _finished last. Then the join, for the thread's exit.
            deadline = time.monotonic() + timeout
            if self.in_loop_thread():
                self._thread.join()  # raises at once, as it always did: the loop cannot wait for its own end
            if self._finished.wait(timeout):
                self._thread.join(max(0.0, deadline - time.monotonic()))
            if not self._finished.is_set() or self._thread.is_alive():
                log.warning("the I/O loop did not stop within %s s", timeout)
        elif self._loop is not None and not self.in_loop_thread() and not self._finished.wait(timeout):
            log.warning("the I/O tasks did not stop within %s s", timeout)


@dataclass(frozen=True, slots=True)
class _Spawn:
    handle: TaskHandle
    fn: Callable[..., Awaitable[Any]]
    args: tuple[Any, ...]
    name: str
    on_error: Callable[[BaseException], object] | None


def _run_loop(loop: asyncio.AbstractEventLoop, main: Callable[[], Awaitable[None]]) -> None:
    """Run ``main()`` on ``loop`` (new, not yet run) in this thread, then close it as ``asyncio.run`` does.

    Not ``anyio.run`` (nor ``asyncio.run``, which it wraps): their ``asyncio.Runner`` costs ~0.25 ms of CPU
    more to start and ~0.3 ms more to end than the same steps taken here (a context copy, a debug-mode
    lookup, a signal handler check, three more ``run_until_complete`` passes), and a troupe pays both per
    start and stop (issue 18: the whole-troupe connect). anyio needs no runner of its own on asyncio: its
    cancel scopes, events and ``to_thread`` work in any asyncio task (sniffio finds the running task), and
    its worker threads stop with the task ``run_until_complete`` runs here, which is how anyio finds a
    native loop's root task. The close does what ``asyncio.run``'s does: stray tasks cancelled and awaited,
    async generators finalised, the default executor (``getaddrinfo``'s threads) joined, so nothing of the
    loop outlives :meth:`IoLoop.stop`.
    """
    try:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(main())
    finally:
        try:
            loop.run_until_complete(_close_loop(loop))
        finally:
            asyncio.set_event_loop(None)
            loop.close()


async def _close_loop(loop: asyncio.AbstractEventLoop) -> None:
    # asyncio.run's close in one pass: whatever tasks remain (a library's own, not spawned through the
    # IoLoop, which cancels its tasks itself) are cancelled and awaited, then the generators and executor.
    current = asyncio.current_task()
    stray = [task for task in asyncio.all_tasks(loop) if task is not current]
    for task in stray:
        task.cancel()
    for outcome in await asyncio.gather(*stray, return_exceptions=True):
        if isinstance(outcome, Exception) and not isinstance(outcome, asyncio.CancelledError):
            log.error("a task failed as the I/O loop closed: %r", outcome, exc_info=outcome)
    await loop.shutdown_asyncgens()
    await loop.shutdown_default_executor()


# CPython 3.11 and 3.12 start a Thread by putting it in threading._limbo and running Thread._bootstrap in a
# new thread, then wait for it; 3.13 changed that (joinable thread handles), so only these two skip the wait.
_CAN_SKIP_START_WAIT = (
    sys.implementation.name == "cpython"
    and sys.version_info[:2] in ((3, 11), (3, 12))
    and isinstance(getattr(threading, "_limbo", None), dict)
    and hasattr(threading, "_active_limbo_lock")
    and hasattr(threading.Thread, "_bootstrap")
)
# What a thread started by start_thread sheds there (the same interpreters): its ``_started`` Event becomes a
# OnceEvent, and its private excepthook closure one made once for all such threads.
_CAN_SLIM_THREADS = _CAN_SKIP_START_WAIT and hasattr(threading, "_make_invoke_excepthook")
_SHARED_INVOKE_EXCEPTHOOK: Any = (
    threading._make_invoke_excepthook() if _CAN_SLIM_THREADS else None  # type: ignore[attr-defined]
)


class OnceEvent:
    """``threading.Event``'s ``set`` / ``is_set`` / ``wait`` for an event set once and never cleared.

    One lock, held from birth until :meth:`set`, instead of an Event's Condition, lock, waiter deque and
    bound methods: two objects the cyclic garbage collector tracks instead of seven. Every actor carries one
    (pykka's ``actor_stopped``) and so does every thread :func:`start_thread` starts (``Thread._started``):
    some 30 objects a server that every full collection walked (issue 18: a gateway's collections walk what
    its servers keep, so each object kept costs per server as the gateway grows). Any thread may set it, any
    number may wait; a waiter that gets the lock hands it straight back, so the next one wakes too.
    """

    __slots__ = ("_is_set", "_lock")

    def __init__(self) -> None:
        self._is_set = False
        self._lock = _thread.allocate_lock()
        self._lock.acquire()

    def is_set(self) -> bool:
        """Whether :meth:`set` has been called."""
        return self._is_set

    def set(self) -> None:
        """Set it and wake every waiter (a no-op once set)."""
        if self._is_set:
            return
        self._is_set = True
        self._release()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until it is set or ``timeout`` seconds have passed; whether it is set."""
        if self._is_set:
            return True
        if self._lock.acquire(True, -1 if timeout is None else max(0.0, timeout)):
            self._release()  # the next waiter's turn
        return self._is_set

    def _release(self) -> None:
        # Two set() calls racing, or a set() racing a waiter's hand-back, may find it released already:
        # either way it ends released, which is all a set event needs.
        with contextlib.suppress(RuntimeError):
            self._lock.release()

    def _at_fork_reinit(self) -> None:
        # threading._after_fork() calls this on every thread's _started in a forked child.
        self._lock._at_fork_reinit()  # type: ignore[attr-defined]
        if not self._is_set:
            self._lock.acquire()


def start_thread(thread: threading.Thread) -> None:
    """Start a daemon ``thread`` without waiting until it runs (where :data:`_CAN_SKIP_START_WAIT`), any
    other with ``start()``.

    The same steps as CPython's ``Thread.start`` but its final ``self._started.wait()``. Until the thread
    has run its bootstrap, it is listed by ``threading.enumerate()`` but not ``is_alive()``, and ``join()``
    refuses it (pykka never joins an actor's thread; it waits on ``actor_stopped``, which the thread sets;
    :meth:`IoLoop.stop` waits for the loop's end before it joins). Actor threads and the I/O loop's thread
    start this way (issue 18: one block and wake-up of the starter less each).
    """
    if not _CAN_SKIP_START_WAIT or not thread.daemon:
        # A non-daemon thread must be counted by the interpreter's exit (its tstate lock, set in the
        # bootstrap) from the moment start() returns: only daemon threads skip the wait.
        thread.start()
        return
    if _CAN_SLIM_THREADS:
        # Before the thread runs, so its bootstrap sets this event (see OnceEvent): Thread.start() would
        # wait on the Event, but nothing waits here, and is_alive() and join() only ask is_set().
        thread._started = OnceEvent()  # type: ignore[attr-defined]
        thread._invoke_excepthook = _SHARED_INVOKE_EXCEPTHOOK  # type: ignore[attr-defined]
    limbo: dict[threading.Thread, threading.Thread] = threading._limbo  # type: ignore[attr-defined]
    lock = threading._active_limbo_lock  # type: ignore[attr-defined]
    with lock:
        limbo[thread] = thread
    try:
        _thread.start_new_thread(thread._bootstrap, ())  # type: ignore[attr-defined]
    except Exception:
        with lock:
            del limbo[thread]
        raise


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def safe_tell(ref: pykka.ActorRef[Any], message: object) -> bool:
    """Tell ``message``; return False (instead of raising) when the actor is already dead.

    Loop code and future callbacks use this: a report to an actor that has since been replaced is expected
    (it belongs to a stale incarnation) and is simply dropped.
    """
    try:
        ref.tell(message)
    except pykka.ActorDeadError:
        return False
    return True


@dataclass
class Runtime:
    """What every actor of one troupe shares: the loop, the event stream, and the list of actors to stop.

    The actor list is bookkeeping for a leak-free stop, not state that actors coordinate through.
    """

    loop: IoLoop
    history: deque[TroupeEvent] = field(default_factory=lambda: deque(maxlen=EVENT_HISTORY))
    _subscribers: list[queue.Queue[TroupeEvent]] = field(default_factory=list)
    _events_lock: threading.Lock = field(default_factory=threading.Lock)
    # The troupe's host callbacks (elicitation, sampling, roots, progress, logs); None declares nothing.
    host: Host | None = None
    _actors: list[pykka.ActorRef[Any]] = field(default_factory=list)
    _actors_lock: threading.Lock = field(default_factory=threading.Lock)
    # How long the list may grow before the dead are pruned from it again.
    _actors_prune_at: int = 64

    def track(self, ref: pykka.ActorRef[Any]) -> pykka.ActorRef[Any]:
        """Remember an actor so that :meth:`stop_actors` stops it; returns ``ref``."""
        with self._actors_lock:
            self._actors.append(ref)
            if len(self._actors) >= self._actors_prune_at:
                # Pruned when the list has doubled since the last prune, not on every call: a gateway of
                # 1,000 servers tracks 3,000 actors, and a scan per track made that O(N^2) (seconds of CPU).
                # Reconnects keep adding actors; this keeps at most twice the live ones, amortised O(1).
                self._actors = [r for r in self._actors if r.is_alive()]
                self._actors_prune_at = max(64, 2 * len(self._actors))
        return ref

    def emit(self, kind: str, server: str, incarnation: int, detail: str = "") -> None:
        """Publish an event to every subscriber and to the history."""
        event = TroupeEvent(kind=kind, server=server, incarnation=incarnation, detail=detail, at=time.time())
        with self._events_lock:
            self.history.append(event)
            for inbox in self._subscribers:
                _put_dropping_oldest(inbox, event)

    def subscribe(self, *, history: bool = False) -> queue.Queue[TroupeEvent]:
        """A new subscriber's inbox: every event emitted from now on (and, with ``history``, those kept)."""
        inbox: queue.Queue[TroupeEvent] = queue.Queue(maxsize=SUBSCRIBER_BACKLOG)
        with self._events_lock:
            if history:
                for event in self.history:
                    _put_dropping_oldest(inbox, event)
            self._subscribers.append(inbox)
        return inbox

    def unsubscribe(self, inbox: queue.Queue[TroupeEvent]) -> None:
        """Stop delivering events to ``inbox``."""
        with self._events_lock:
            if inbox in self._subscribers:
                self._subscribers.remove(inbox)

    def stop_actors(self, timeout: float) -> list[str]:
        """Stop every tracked actor still alive; return the names of those that did not stop in time."""
        with self._actors_lock:
            refs = list(self._actors)
            self._actors.clear()
        # A window at a time (actors/stop_wave.py): a thousand threads told to stop together cost several
        # times the CPU of the same stops in small windows.
        stuck = stop_in_windows(
            [functools.partial(_stop_quietly, ref) for ref in refs],
            [ref.actor_stopped.wait for ref in refs],
            time.monotonic() + timeout,
            time.monotonic,
        )
        return [str(refs[index]) for index in stuck]


def _stop_quietly(ref: pykka.ActorRef[Any]) -> None:
    """Ask ``ref`` to stop (without waiting); an actor already gone is fine."""
    if ref.is_alive():
        try:
            ref.stop(block=False)
        except pykka.ActorDeadError:
            pass


def _put_dropping_oldest(inbox: queue.Queue[TroupeEvent], event: TroupeEvent) -> None:
    # Only emit() puts into an inbox, under the events lock, so after one get there is room.
    try:
        inbox.put_nowait(event)
    except queue.Full:
        try:
            inbox.get_nowait()
        except queue.Empty:
            pass
        inbox.put_nowait(event)
