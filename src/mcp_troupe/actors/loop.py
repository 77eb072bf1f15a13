"""IoLoop: the one event-loop thread that every transport shares, and the Runtime bundle actors receive.

Actors never wait for the loop: they *post* work to it (``call_soon_threadsafe``), and loop code reports back
with ``actor_ref.tell(...)``. Nothing on the loop blocks or asks an actor (DESIGN §2 rule 2).

The loop is started with ``anyio.run`` on the asyncio backend so that tasks live in one task group with
cancel scopes; transports use asyncio's protocol callbacks directly where that saves a task per read.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
import pykka

from mcp_troupe.errors import TroupeClosed
from mcp_troupe.types import TroupeEvent

if TYPE_CHECKING:
    from mcp_troupe.host import Host

__all__ = ["IoLoop", "Runtime", "TaskHandle", "safe_tell"]

log = logging.getLogger("mcp_troupe.loop")


class TaskHandle:
    """A task spawned on the loop; ``cancel()`` may be called from any thread, before or after it starts."""

    __slots__ = ("_cancelled", "_loop", "_scope")

    def __init__(self, loop: IoLoop) -> None:
        self._loop = loop
        self._scope: anyio.CancelScope | None = None
        self._cancelled = False

    def cancel(self) -> None:
        """Cancel the task (a no-op once it has finished)."""
        self._cancelled = True
        self._loop.post_if_running(self._cancel_on_loop)

    def _cancel_on_loop(self) -> None:
        if self._scope is not None:
            self._scope.cancel()


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
        self._task_group: anyio.abc.TaskGroup | None = None
        self._stop_requested: anyio.Event | None = None
        self._closed = False
        # Tasks to start, handed from loop callbacks to the spawner task (see _spawner).
        self._to_spawn: deque[tuple[TaskHandle, Callable[..., Awaitable[Any]], tuple[Any, ...], str]] = (
            deque()
        )
        self._spawn_wanted: asyncio.Event | None = None

    @property
    def is_running(self) -> bool:
        """Whether the loop accepts work."""
        return self._loop is not None and not self._closed

    def start(self, timeout: float = 10.0) -> None:
        """Start the loop thread and wait until it accepts work."""
        if self._thread is not None or self._started.is_set() or self._loop is not None:
            raise RuntimeError("IoLoop already started")
        # A daemon thread: a process that forgot to stop its troupe must still be able to exit.
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()
        if not self._started.wait(timeout):
            raise RuntimeError(f"the I/O loop did not start within {timeout} s")

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

    def _run(self) -> None:
        try:
            anyio.run(self._main, backend="asyncio")
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
        self._stop_requested = anyio.Event()
        self._spawn_wanted = asyncio.Event()
        async with anyio.create_task_group() as task_group:
            self._task_group = task_group
            task_group.start_soon(self._spawner, name="spawner")
            self._started.set()
            await self._stop_requested.wait()
            task_group.cancel_scope.cancel()
        self._closed = True

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

    def spawn(self, fn: Callable[..., Awaitable[Any]], *args: Any, name: str = "") -> TaskHandle:
        """Start ``await fn(*args)`` as a task on the loop; exceptions are logged, never lost."""
        handle = TaskHandle(self)
        self.post(self._start_task, handle, fn, args, name)
        return handle

    def _start_task(
        self, handle: TaskHandle, fn: Callable[..., Awaitable[Any]], args: tuple[Any, ...], name: str
    ) -> None:
        # This runs as a plain loop callback, outside any task. anyio needs a task to tell which backend it
        # runs on when sniffio is installed, so the task group is entered from the spawner task instead.
        if self._spawn_wanted is None or self._closed:
            return
        self._to_spawn.append((handle, fn, args, name))
        self._spawn_wanted.set()

    async def _spawner(self) -> None:
        assert self._spawn_wanted is not None and self._task_group is not None
        while True:
            await self._spawn_wanted.wait()
            self._spawn_wanted.clear()
            while self._to_spawn:
                handle, fn, args, name = self._to_spawn.popleft()
                self._task_group.start_soon(self._run_task, handle, fn, args, name, name=name or None)

    async def _run_task(
        self, handle: TaskHandle, fn: Callable[..., Awaitable[Any]], args: tuple[Any, ...], name: str
    ) -> None:
        if handle._cancelled:
            return  # cancelled before it started: a cancel scope would only stop it at its first await
        with anyio.CancelScope() as scope:
            handle._scope = scope
            try:
                await fn(*args)
            except Exception:
                log.exception("task %s failed", name or fn)

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
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.warning("the I/O loop did not stop within %s s", timeout)
        elif self._loop is not None and not self.in_loop_thread() and not self._finished.wait(timeout):
            log.warning("the I/O tasks did not stop within %s s", timeout)


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
    # The troupe's host callbacks (elicitation, sampling, roots, progress, logs); None declares nothing.
    host: Host | None = None
    events: queue.Queue[TroupeEvent] = field(default_factory=lambda: queue.Queue(maxsize=10_000))
    _actors: list[pykka.ActorRef[Any]] = field(default_factory=list)
    _actors_lock: threading.Lock = field(default_factory=threading.Lock)

    def track(self, ref: pykka.ActorRef[Any]) -> pykka.ActorRef[Any]:
        """Remember an actor so that :meth:`stop_actors` stops it; returns ``ref``."""
        with self._actors_lock:
            self._actors = [r for r in self._actors if r.is_alive()]
            self._actors.append(ref)
        return ref

    def emit(self, kind: str, server: str, incarnation: int, detail: str = "") -> None:
        """Publish an event; the oldest is dropped when nobody reads them."""
        event = TroupeEvent(kind=kind, server=server, incarnation=incarnation, detail=detail, at=time.time())
        try:
            self.events.put_nowait(event)
        except queue.Full:
            try:
                self.events.get_nowait()
            except queue.Empty:
                pass
            self.events.put_nowait(event)

    def stop_actors(self, timeout: float) -> list[str]:
        """Stop every tracked actor still alive; return the names of those that did not stop in time."""
        with self._actors_lock:
            refs = list(self._actors)
            self._actors.clear()
        for ref in refs:
            if ref.is_alive():
                try:
                    ref.stop(block=False)
                except pykka.ActorDeadError:
                    pass
        deadline = time.monotonic() + timeout
        stuck = []
        for ref in refs:
            if not ref.actor_stopped.wait(max(0.0, deadline - time.monotonic())):
                stuck.append(str(ref))
        return stuck
