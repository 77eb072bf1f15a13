"""Stopping many actors without waking them all at once: a bounded wave, O(N) and still parallel.

Closing a troupe of N servers tells N supervisors to stop, and each tells its session and its transport. Told
in one burst, N supervisors become runnable together, then 2N children; thousands of threads then contend
for the one interpreter lock, and every hand-off of it costs more the more threads wait for it (measured on
a 2-core VM with bare threads and queues: one message hop each to 3,000 threads costs 2.1 s of CPU in a
burst against 0.3 s in windows of 16; 300 threads, 0.02 s). The I/O loop, which carries the close itself
(the HTTP ``DELETE``, the stdio EOF and signals), is one more thread in that crowd and was starved: closing
1,000 HTTP servers took 6-8 s on a quiet machine and passed ``Troupe.stop``'s 10 s on a loaded one.

So the stop goes out in a wave: at most ``width`` actors are handling their stop request at any time; each
one that has *accepted* it (handed its close to its children and the loop, which is quick) lets the next one
go. What each close then waits for (a server's answer, its exit) is not held in the window: those waits run
in parallel on the loop, so one slow server delays no other. An actor that never accepts (stuck in a
handler, or gone between being told and taking the request) holds its place for ``ACCEPT_LIMIT`` at most;
then the place goes to the next actor, so sixteen stuck supervisors cannot hold back the rest of a close.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from functools import partial
from typing import Final

__all__ = ["ACCEPT_LIMIT", "STOP_WAVE_WIDTH", "WINDOW_PACE", "StopWave", "stop_in_windows"]

STOP_WAVE_WIDTH: Final = 16
"""How many actors handle a stop request at once (measured: 8-32 cost the same; thousands cost 7x)."""

ACCEPT_LIMIT = 1.0
"""The longest an actor that has not accepted its stop keeps its place in the wave (acceptance takes ~0.1 ms;
a loaded machine's slowest were tens of ms). Read when a wave is made, so a test may set it."""

WINDOW_PACE: Final = 0.5
"""The longest one window of plain stops is waited for before the next starts (a stop takes ~0.1 ms)."""


class StopWave:
    """Send ``send(index, accepted)`` for every index of ``count``, at most ``width`` not yet accepted.

    ``send`` tells the index's actor to stop, handing it ``accepted`` to complete once it has taken the
    request; it returns ``False`` when the actor is gone (it counts as accepted). Acceptances arrive on the
    actors' own threads, so the next send happens there, under a lock that is never held while sending.
    A place not accepted within ``accept_limit`` seconds is given to the next index by a watchdog thread
    (``mcp-troupe-stop-wave``), which runs only while indices are left to send (``watch=False``: none, the
    owner calls :meth:`give_away_overdue`); a late acceptance of a place already given away sends nothing
    more, so each index is sent exactly once.
    """

    def __init__(
        self,
        count: int,
        send: Callable[[int, Future[None]], bool],
        width: int = STOP_WAVE_WIDTH,
        accept_limit: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        watch: bool = True,
    ) -> None:
        if width < 1:
            raise ValueError(f"a stop wave needs a width of at least 1, not {width}")
        if accept_limit is None:
            accept_limit = ACCEPT_LIMIT
        if not accept_limit > 0:
            raise ValueError(f"a stop wave's accept_limit must be positive, not {accept_limit!r}")
        self._count = count
        self._send = send
        self._width = width
        self._accept_limit = accept_limit
        self._clock = clock
        self._watch_places = watch
        self._next = 0
        self._waiting: dict[int, float] = {}
        """Index → when it was sent, for the places not yet accepted (nor given away)."""
        self._changed = threading.Condition(threading.Lock())

    def start(self) -> None:
        """Send the first ``width`` requests (each acceptance, or a place's time running out, sends one
        more)."""
        for _ in range(min(self._width, self._count)):
            self._send_next()
        with self._changed:
            if self._next >= self._count or not self._watch_places:
                return  # everything sent: no place can hold anything back any more
        threading.Thread(target=self._watch, name="mcp-troupe-stop-wave", daemon=True).start()

    def _send_next(self) -> None:
        # A loop, not recursion: actors that are gone accept at once, and a long run of them must not
        # grow the stack.
        while True:
            with self._changed:
                if self._next >= self._count:
                    self._changed.notify_all()
                    return
                index = self._next
                self._next += 1
                self._waiting[index] = self._clock()
            accepted: Future[None] = Future()
            if self._send(index, accepted):
                # Added after the send: a request accepted already runs the callback at once, here.
                accepted.add_done_callback(partial(self._on_accepted, index))
                return
            # Gone: it accepts nothing; its place goes to the next one, in this same loop.
            with self._changed:
                self._waiting.pop(index, None)

    def _on_accepted(self, index: int, _future: Future[None]) -> None:
        with self._changed:
            if self._waiting.pop(index, None) is None:
                return  # its place was given away when its time ran out
        self._send_next()

    def give_away_overdue(self) -> int:
        """Give the places not accepted within the limit to the next indices; returns how many."""
        with self._changed:
            now = self._clock()
            expired = [i for i, sent in self._waiting.items() if now - sent >= self._accept_limit]
            for index in expired:
                del self._waiting[index]
        for _ in expired:
            self._send_next()
        return len(expired)

    def _watch(self) -> None:
        """The watchdog: give away overdue places until every index has been sent."""
        while True:
            with self._changed:
                if self._next >= self._count:
                    return
                now = self._clock()
                oldest = min(self._waiting.values(), default=now)
                if now - oldest < self._accept_limit:
                    self._changed.wait(max(0.001, oldest + self._accept_limit - now))
                    continue
            self.give_away_overdue()


def stop_in_windows(
    stoppers: Sequence[Callable[[], None]],
    waiters: Sequence[Callable[[float], bool]],
    deadline: float,
    clock: Callable[[], float],
    width: int = STOP_WAVE_WIDTH,
    pace: float = WINDOW_PACE,
) -> list[int]:
    """Run ``stoppers`` ``width`` at a time, each window waited for (``waiters[i](seconds)``) before the next.

    For actors that need no hand-off (a plain stop). A window is waited for at most ``pace`` seconds: an
    actor that does not stop (a handler still running) must not hold back every window after it, only pace
    them. Then every actor is waited for until ``deadline`` (a ``clock()`` time); returns the indices of
    those that had not stopped by then.
    """
    for start in range(0, len(stoppers), width):
        window = range(start, min(start + width, len(stoppers)))
        for index in window:
            stoppers[index]()
        window_deadline = min(deadline, clock() + pace)
        for index in window:
            waiters[index](max(0.0, window_deadline - clock()))
    return [index for index in range(len(stoppers)) if not waiters[index](max(0.0, deadline - clock()))]
