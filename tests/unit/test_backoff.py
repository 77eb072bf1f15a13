"""The supervisor's timing, without clocks or randomness: the schedule, jitter, the stable reset, the circuit,
and restart intensity."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe.actors.backoff import (
    JITTER,
    STABLE_PERIOD,
    GiveUp,
    RestartIntensity,
    Retries,
    Retry,
    retry_delay,
)
from mcp_troupe.config import ReconnectPolicy


def no_jitter(low: float, high: float) -> float:
    return 1.0


def highest(low: float, high: float) -> float:
    return high


DEFAULT_POLICY = ReconnectPolicy()


def retries(
    policy: ReconnectPolicy = DEFAULT_POLICY, uniform: Callable[[float, float], float] = no_jitter
) -> Retries:
    return Retries(
        initial_delay=policy.initial_delay,
        max_delay=policy.max_delay,
        max_attempts=policy.max_attempts,
        uniform=uniform,
    )


def delays(machine: Retries, count: int) -> list[float | None]:
    out: list[float | None] = []
    for _ in range(count):
        decision = machine.failed()
        out.append(decision.delay if isinstance(decision, Retry) else None)
    return out


# ---- the schedule ------------------------------------------------------------------------------------------


def test_the_default_schedule_is_1_2_4_8_16_seconds_then_the_circuit_opens() -> None:
    machine = retries()

    assert delays(machine, 6) == [1.0, 2.0, 4.0, 8.0, 16.0, None]
    assert machine.attempts == 6


def test_the_delay_is_capped_at_max_delay() -> None:
    assert [retry_delay(n, initial_delay=1.0, max_delay=5.0) for n in range(1, 6)] == [1, 2, 4, 5, 5]


def test_a_huge_retry_number_does_not_overflow() -> None:
    assert retry_delay(10_000, initial_delay=1.0, max_delay=16.0) == 16.0


def test_retry_numbers_start_at_one() -> None:
    with pytest.raises(ValueError, match="start at 1"):
        retry_delay(0, initial_delay=1.0, max_delay=16.0)


def test_no_retries_allowed_gives_up_after_the_first_failure() -> None:
    machine = retries(ReconnectPolicy(max_attempts=0))

    assert machine.failed() == GiveUp(1)


def test_first_connects_are_not_jittered() -> None:
    machine = retries(uniform=highest)

    assert delays(machine, 3) == [1.0, 2.0, 4.0]


# ---- runtime losses: jitter, the stable reset, flapping ----------------------------------------------------


def test_a_loss_after_a_stable_run_retries_after_the_first_delay_with_jitter() -> None:
    machine = retries(uniform=highest)
    delays(machine, 3)
    machine.connected(now=100.0)
    assert machine.attempts == 0

    machine.lost(now=100.0 + STABLE_PERIOD)

    assert machine.failed() == Retry(1.0 * (1 + JITTER), 1)


def test_a_server_that_flaps_backs_off_further_each_time_until_a_stable_run() -> None:
    machine = retries()
    now = 0.0
    seen = []
    for _ in range(6):
        machine.connected(now)
        now += 1.0  # lost a second after becoming ready: not a stable run
        machine.lost(now)
        decision = machine.failed()
        assert isinstance(decision, Retry)
        seen.append(decision.delay)
    assert seen == [1.0, 2.0, 4.0, 8.0, 16.0, 16.0]

    machine.connected(now)
    machine.lost(now + STABLE_PERIOD)
    assert machine.failed() == Retry(1.0, 1)


def test_an_operator_reset_closes_the_circuit_and_starts_the_schedule_again() -> None:
    machine = retries()
    assert delays(machine, 6)[-1] is None

    machine.reset()

    assert machine.attempts == 0
    assert delays(machine, 2) == [1.0, 2.0]


def test_ready_since_is_when_the_connection_became_ready_and_cleared_by_a_loss_or_stop() -> None:
    machine = retries()
    machine.connected(now=7.0)
    assert machine.ready_since == 7.0
    machine.lost(now=8.0)
    assert machine.ready_since is None
    machine.connected(now=9.0)
    machine.stopped()
    assert machine.ready_since is None


# ---- invariants --------------------------------------------------------------------------------------------

events = st.lists(
    st.one_of(
        st.tuples(st.just("connected"), st.floats(0, 1e6)),
        st.tuples(st.just("lost"), st.floats(0, 1e6)),
        st.tuples(st.just("failed"), st.just(0.0)),
        st.tuples(st.just("reset"), st.just(0.0)),
        st.tuples(st.just("stopped"), st.just(0.0)),
    ),
    max_size=40,
)


@given(
    events=events,
    initial=st.floats(0.001, 10),
    cap=st.floats(0.001, 100),
    max_attempts=st.integers(0, 8),
    factor=st.floats(1 - JITTER, 1 + JITTER),
)
def test_every_delay_is_within_the_jittered_bounds_and_the_circuit_opens_exactly_past_max_attempts(
    events: list[tuple[str, float]], initial: float, cap: float, max_attempts: int, factor: float
) -> None:
    machine = Retries(
        initial_delay=initial, max_delay=cap, max_attempts=max_attempts, uniform=lambda low, high: factor
    )
    for kind, now in events:
        if kind == "failed":
            before = machine.attempts
            decision = machine.failed()
            assert machine.attempts == before + 1
            if machine.attempts > max_attempts:
                assert decision == GiveUp(machine.attempts)
            else:
                assert isinstance(decision, Retry) and decision.attempt == machine.attempts
                assert min(initial, cap) * (1 - JITTER) <= decision.delay <= cap * (1 + JITTER) + 1e-9
        else:
            getattr(machine, kind)(now) if kind in ("connected", "lost") else getattr(machine, kind)()
        if kind in ("connected", "reset"):
            assert machine.attempts == 0


@given(failures=st.integers(1, 12), max_attempts=st.integers(0, 10))
def test_without_a_ready_connection_the_delays_never_shrink(failures: int, max_attempts: int) -> None:
    machine = retries(ReconnectPolicy(initial_delay=0.5, max_delay=20.0, max_attempts=max_attempts))
    got = [delay for delay in delays(machine, failures) if delay is not None]

    assert got == sorted(got)
    assert len(got) == min(failures, max_attempts)


# ---- restart intensity -------------------------------------------------------------------------------------


def test_restart_intensity_allows_max_restarts_within_the_period_then_refuses() -> None:
    intensity = RestartIntensity(max_restarts=3, period=10.0)

    assert [intensity.allow(now) for now in (0.0, 1.0, 2.0, 3.0)] == [True, True, True, False]
    # The window slides: once the first restart is a period old, one more is allowed.
    assert intensity.allow(10.0)
    assert intensity.describe() == "3 restarts in 10 s"


def test_restart_intensity_rejects_nonsense_limits() -> None:
    with pytest.raises(ValueError, match="max_restarts"):
        RestartIntensity(max_restarts=-1)
    with pytest.raises(ValueError, match="period"):
        RestartIntensity(period=0)


@given(
    times=st.lists(st.floats(0, 1000), max_size=50).map(sorted),
    max_restarts=st.integers(0, 6),
    period=st.floats(0.1, 100),
)
def test_no_window_of_one_period_holds_more_than_max_restarts_allowed(
    times: list[float], max_restarts: int, period: float
) -> None:
    intensity = RestartIntensity(max_restarts, period)
    allowed = [now for now in times if intensity.allow(now)]

    for index, start in enumerate(allowed):
        within = [now for now in allowed[index:] if now - start < period]
        assert len(within) <= max_restarts
    assert intensity.recent <= max_restarts
