"""Deadlines: the call deadlines of one owner (a session, a lane) in a heap, with one timer for the earliest.

Answered calls are not looked for in the heap (that would cost a scan per answer); their entries stay until
they surface or until they dominate the heap, when it is rebuilt from what is still pending. An entry
counts only if the pending map still holds that key with that same deadline.

Not thread-safe on its own: the session uses it from its actor thread, the lane under its lock.
"""

from __future__ import annotations

import heapq
from collections.abc import MutableMapping
from typing import Any

__all__ = ["Deadlines"]

# Stale entries are dropped once they outnumber the pending calls by this margin (and twice over).
SLACK = 1024


class Deadlines:
    """A heap of ``(deadline, key)`` for the calls of one pending map."""

    __slots__ = ("_heap",)

    def __init__(self) -> None:
        self._heap: list[tuple[float, object]] = []

    @property
    def heap(self) -> list[tuple[float, object]]:
        """The heap itself (always the same list), for an owner that pushes on its hot path without a call
        (:meth:`RequestEngine.track`); it must call :meth:`compact` as :meth:`push` does."""
        return self._heap

    def push(self, deadline: float, key: object, pending: MutableMapping[Any, Any]) -> None:
        """Add ``key``'s deadline. ``pending`` maps each key to a call with a ``deadline`` attribute; it must
        hold ``key`` already, since the heap may be rebuilt from it."""
        heapq.heappush(self._heap, (deadline, key))
        if len(self._heap) > 2 * len(pending) + SLACK:
            self.compact(pending)

    def compact(self, pending: MutableMapping[Any, Any]) -> None:
        """Rebuild the heap from what is still pending, in place (answered calls' entries dominate it)."""
        # list() copies the items in one step: the lane's pending map loses answered calls from another
        # thread, without the lock.
        live = list(pending.items())
        self._heap[:] = [(call.deadline, k) for k, call in live if call.deadline is not None]
        heapq.heapify(self._heap)

    def pop_expired(self, now: float, pending: MutableMapping[Any, Any]) -> list[tuple[Any, Any]]:
        """Remove and return, from ``pending`` too, every call whose deadline is at or before ``now``."""
        expired: list[tuple[Any, Any]] = []
        heap = self._heap
        while heap and heap[0][0] <= now:
            deadline, key = heapq.heappop(heap)
            call = pending.get(key)
            if call is None or call.deadline != deadline:
                continue  # answered, or re-armed with another deadline
            del pending[key]
            expired.append((key, call))
        return expired

    @property
    def earliest(self) -> float | None:
        """The earliest deadline still in the heap (possibly of an answered call), or None."""
        return self._heap[0][0] if self._heap else None

    def clear(self) -> None:
        """Forget every deadline."""
        self._heap.clear()
