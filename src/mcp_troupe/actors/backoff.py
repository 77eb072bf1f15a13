"""The supervisor's timing decisions, as pure objects: the retry schedule, its reset, and restart intensity.

Nothing here reads a clock or a random source: the caller passes ``now`` (``time.monotonic()`` in
production) and the objects take a ``uniform(low, high)`` function at construction (``random.uniform`` in
production), so tests drive them with numbers alone.

- :func:`retry_delay` is the schedule: ``initial_delay * 2**(n-1)`` capped at ``max_delay``; with the
  defaults 1, 2, 4, 8, 16, 16 ... seconds.
- :class:`Retries` is one server's connection-attempt state machine. It counts failed attempts in a row
  (shown in status), and gives up (the circuit opens: state ``failed``) after ``max_attempts`` retries.
  Retries after a *runtime loss* are jittered (x0.8 .. x1.2), so servers that lost one shared dependency
  at once do not all come back in the same instant; first connects keep the documented exact schedule.
  The backoff *level* resets only after a stable run (ready for :data:`STABLE_PERIOD` seconds): a server
  that flaps (ready, then lost at once, again and again) backs off further each time instead of being
  restarted every second forever.
- :class:`RestartIntensity` is OTP's restart intensity: at most ``max_restarts`` restarts within
  ``period`` seconds; one more and the child is given up on (state ``failed``, with the error).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "CRASH_PERIOD",
    "JITTER",
    "MAX_CRASHES",
    "STABLE_PERIOD",
    "GiveUp",
    "RestartIntensity",
    "Retries",
    "Retry",
    "retry_delay",
]

STABLE_PERIOD = 30.0
"""A connection up this long (seconds) was stable: losing it starts the backoff from the first delay."""

JITTER = 0.2
"""A runtime reconnect's delay is multiplied by a uniform factor in ``[1 - JITTER, 1 + JITTER]``."""

MAX_CRASHES = 5
CRASH_PERIOD = 60.0
"""Restart intensity: a crash beyond :data:`MAX_CRASHES` within :data:`CRASH_PERIOD` seconds is a failure."""

# 2**60 seconds is already far past any max_delay; clamping keeps 2**n finite for any max_attempts.
_MAX_EXPONENT = 60


def retry_delay(retry: int, *, initial_delay: float, max_delay: float) -> float:
    """The wait before retry ``retry`` (1-based): ``initial_delay * 2**(retry-1)``, at most ``max_delay``."""
    if retry < 1:
        raise ValueError(f"retry numbers start at 1, got {retry}")
    return min(initial_delay * (2.0 ** min(retry - 1, _MAX_EXPONENT)), max_delay)


@dataclass(frozen=True, slots=True)
class Retry:
    """Connect again after ``delay`` seconds; this is retry number ``attempt`` (failed attempts so far)."""

    delay: float
    attempt: int


@dataclass(frozen=True, slots=True)
class GiveUp:
    """No retry is left: the server is ``failed`` after ``attempts`` failed attempts in a row."""

    attempts: int


class Retries:
    """One server's connection attempts: what to do after each failure, and when the count resets.

    Call :meth:`connected` when a connection becomes ready, :meth:`lost` when a ready connection is lost,
    :meth:`failed` after any failure (a failed connect or a loss) to learn whether and when to retry, and
    :meth:`reset` on an operator restart.
    """

    __slots__ = ("_is_reconnecting", "_level", "_ready_since", "_uniform", "attempts", "initial_delay",
                 "max_attempts", "max_delay", "stable_period")  # fmt: skip

    def __init__(
        self,
        *,
        initial_delay: float,
        max_delay: float,
        max_attempts: int,
        uniform: Callable[[float, float], float],
        stable_period: float = STABLE_PERIOD,
    ) -> None:
        self.initial_delay = initial_delay
        self.max_delay = max_delay
        self.max_attempts = max_attempts
        self.stable_period = stable_period
        self._uniform = uniform
        self.attempts = 0
        """Failed connection attempts since the last ready connection (what status shows)."""
        # The schedule's position: like attempts, but it survives a ready connection that did not last.
        self._level = 0
        self._ready_since: float | None = None
        self._is_reconnecting = False

    @property
    def ready_since(self) -> float | None:
        """When the current connection became ready (the ``now`` given to :meth:`connected`), or None."""
        return self._ready_since

    def connected(self, now: float) -> None:
        """A connection is ready: the failed-attempt count starts again."""
        self.attempts = 0
        self._ready_since = now
        self._is_reconnecting = False

    def lost(self, now: float) -> None:
        """The ready connection was lost at ``now``; retries from here on are jittered."""
        if self._ready_since is not None and now - self._ready_since >= self.stable_period:
            self._level = 0
        self._ready_since = None
        self._is_reconnecting = True

    def stopped(self) -> None:
        """The connection ended on purpose (stop, needs-login): no run is in progress any more."""
        self._ready_since = None

    def failed(self) -> Retry | GiveUp:
        """A connect failed or a connection was lost: retry after a delay, or give up."""
        self._ready_since = None
        self.attempts += 1
        if self.attempts > self.max_attempts:
            return GiveUp(self.attempts)
        # The level never lags the attempt count: a failed first connect follows the schedule exactly.
        self._level = max(self._level + 1, self.attempts)
        delay = retry_delay(self._level, initial_delay=self.initial_delay, max_delay=self.max_delay)
        if self._is_reconnecting:
            delay *= self._uniform(1.0 - JITTER, 1.0 + JITTER)
        return Retry(delay, self.attempts)

    def reset(self) -> None:
        """An operator restart: forget every failure (closes an open circuit)."""
        self.attempts = 0
        self._level = 0
        self._ready_since = None
        self._is_reconnecting = False


class RestartIntensity:
    """At most ``max_restarts`` restarts within any ``period`` seconds (OTP's intensity and period)."""

    __slots__ = ("_restarts", "max_restarts", "period")

    def __init__(self, max_restarts: int = MAX_CRASHES, period: float = CRASH_PERIOD) -> None:
        if max_restarts < 0 or period <= 0:
            raise ValueError(
                f"restart intensity needs max_restarts >= 0 and period > 0, got {max_restarts}, {period}"
            )
        self.max_restarts = max_restarts
        self.period = period
        self._restarts: deque[float] = deque()

    def allow(self, now: float) -> bool:
        """Record a failure at ``now``; True if a restart is allowed, False when the intensity is exceeded."""
        while self._restarts and now - self._restarts[0] >= self.period:
            self._restarts.popleft()
        if len(self._restarts) >= self.max_restarts:
            return False
        self._restarts.append(now)
        return True

    @property
    def recent(self) -> int:
        """How many restarts the current window holds."""
        return len(self._restarts)

    def describe(self) -> str:
        """The limit, for error messages: ``"5 restarts in 60 s"``."""
        return f"{self.max_restarts} restart{'' if self.max_restarts == 1 else 's'} in {self.period:g} s"
