"""The commands every transport (stdio, HTTP) handles, so the session and supervisor need not know which.

A transport reports to its session with ``Opened`` / ``OpenFailed`` / ``TransportDown`` (defined in
:mod:`mcp_troupe.actors.session`, which handles them); what it reads goes to the connection's lane
(:mod:`mcp_troupe.actors.lane`). :class:`WriteQueue` is the write side both
share: frames from any thread, flushed on the loop by one callback per burst.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from mcp_troupe.actors.loop import IoLoop

__all__ = ["CloseTransport", "Open", "WriteQueue"]

T = TypeVar("T")


class WriteQueue(Generic[T]):
    """Items queued from any thread and handed to ``flush`` on the loop, one loop wake-up per burst.

    ``lock`` guards ``items``; a caller that must decide something together with the queue (stdio writes a
    frame itself when nothing waits ahead) holds it and uses :meth:`append_locked`, then :meth:`schedule`
    when that says so. ``flush`` (on the loop) takes the items with :meth:`take_locked`, holding the lock.
    """

    __slots__ = ("_flush", "_is_scheduled", "_loop", "items", "lock")

    def __init__(self, loop: IoLoop, flush: Callable[[], None]) -> None:
        self._loop = loop
        self._flush = flush
        self.lock = threading.Lock()
        self.items: list[T] = []
        self._is_scheduled = False

    def put(self, item: T) -> None:
        """Queue ``item``; the first item of a burst wakes the loop."""
        with self.lock:
            must_schedule = self.append_locked(item)
        if must_schedule:
            self.schedule()

    def append_locked(self, item: T) -> bool:
        """Queue ``item`` (``lock`` held); True when the caller must :meth:`schedule` a flush."""
        self.items.append(item)
        if self._is_scheduled:
            return False
        self._is_scheduled = True
        return True

    def schedule(self) -> None:
        """Wake the loop to flush; when the loop is gone, drop what is queued (nobody will write it)."""
        if not self._loop.post_if_running(self._flush):
            with self.lock:
                self.items.clear()
                self._is_scheduled = False

    def take_locked(self) -> list[T]:
        """Everything queued, in order (``lock`` held); the next item starts a new burst."""
        items, self.items = self.items, []
        self._is_scheduled = False
        return items


@dataclass(frozen=True, slots=True)
class Open:
    """Start the connection (spawn the process / prepare the HTTP client)."""


@dataclass(frozen=True, slots=True)
class CloseTransport:
    """Close the connection gracefully, then stop.

    ``reply_to`` is completed once it is fully closed, with the last lines the server wrote to stderr.

    stdio: close stdin, wait ``grace`` seconds, SIGTERM the process group, wait ``grace``, SIGKILL it.
    """

    reply_to: Future[tuple[str, ...]] = field(default_factory=Future)
    grace: float = 2.0
