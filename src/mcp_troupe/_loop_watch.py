"""Telling the operator when host code holds the troupe's I/O loop.

An ``async def`` host handler or approver runs on the troupe's one I/O loop, beside every server's traffic.
One that blocks (``time.sleep``, a blocking read, a long computation) holds that loop: every server's
answers, timers and pings wait until it returns, and nothing can preempt it. The troupe cannot contain
that, but it can say so: :class:`LoopStallWatch` beats a timer on the loop while the host's coroutine runs;
a beat that comes ``stall`` seconds or more after the last one (instead of a quarter of a second) means the
loop was held, and one warning names what ran
and for how long. Nothing runs while no host coroutine is running, and a beat every quarter of a second
while one is costs next to nothing (a host coroutine is an elicitation, a sampling or an approval).
"""

from __future__ import annotations

import asyncio
import logging
from types import TracebackType

__all__ = ["BEAT", "STALL", "LoopStallWatch"]

log = logging.getLogger("mcp_troupe.host")

BEAT = 0.25
"""Seconds between the watch's beats."""
STALL = 1.0
"""A beat this many seconds (or more) after the last one means the loop was held."""


class LoopStallWatch:
    """``with LoopStallWatch(what):`` around awaiting host code on the running loop (see the module)."""

    __slots__ = ("_armed_at", "_handle", "_loop", "_stall", "_what", "held")

    def __init__(self, what: str, *, stall: float = STALL) -> None:
        self._what = what
        self._stall = stall
        self.held = 0.0
        """The longest hold seen, in seconds (0 when none reached ``stall``)."""

    def __enter__(self) -> LoopStallWatch:
        self._loop = asyncio.get_running_loop()
        self._arm()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._handle.cancel()
        # A coroutine that blocked and then returned in the same step never let the beat run: its lateness
        # shows here.
        self._check()

    def _arm(self) -> None:
        self._armed_at = self._loop.time()
        self._handle = self._loop.call_at(self._armed_at + BEAT, self._beat)

    def _beat(self) -> None:
        self._check()
        self._arm()

    def _check(self) -> None:
        # How long the loop went without a turn for this watch: BEAT when nothing held it.
        late = self._loop.time() - self._armed_at
        if late < self._stall or late <= self.held:
            return
        if not self.held:
            log.warning(
                "%s held the troupe's I/O loop for %.1f s: every server's traffic waited. An async handler "
                "must await, not block (time.sleep, blocking I/O); a plain def handler runs in a thread",
                self._what,
                late,
            )
        self.held = late
