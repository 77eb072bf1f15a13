"""The bounded wave of stop requests (actors/stop_wave.py): never more than its width in flight, every actor
told exactly once, in order, gone actors skipped without stalling, acceptances from any thread."""

from __future__ import annotations

import threading
from concurrent.futures import Future

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe.actors.stop_wave import ACCEPT_LIMIT, STOP_WAVE_WIDTH, StopWave, stop_in_windows


class Actors:
    """Fake actors: ``send`` records each request; ``gone`` ones refuse it, as a dead actor's tell does."""

    def __init__(self, gone: frozenset[int] = frozenset()) -> None:
        self.gone = gone
        self.sent: list[int] = []
        self.pending: dict[int, Future[None]] = {}
        self.most_in_flight = 0
        self.lock = threading.Lock()

    def send(self, index: int, accepted: Future[None]) -> bool:
        with self.lock:
            self.sent.append(index)
            if index in self.gone:
                return False
            self.pending[index] = accepted
            self.most_in_flight = max(self.most_in_flight, len(self.pending))
        return True

    def accept(self, index: int) -> None:
        with self.lock:
            accepted = self.pending.pop(index)
        accepted.set_result(None)

    def accept_oldest(self) -> None:
        with self.lock:
            index = min(self.pending)
        self.accept(index)


def test_only_the_first_window_is_told_until_one_accepts() -> None:
    actors = Actors()
    StopWave(40, actors.send, width=16, watch=False).start()

    assert actors.sent == list(range(16))
    actors.accept(3)
    assert actors.sent == list(range(17)), "one acceptance lets exactly one more go"


def test_every_actor_is_told_once_in_order_and_never_more_than_the_width_at_once() -> None:
    actors = Actors()
    StopWave(100, actors.send, width=8, watch=False).start()
    while actors.pending:
        actors.accept_oldest()

    assert actors.sent == list(range(100))
    assert actors.most_in_flight == 8


def test_actors_already_gone_free_their_slot_at_once() -> None:
    # A run of gone actors longer than the window must neither stall the wave nor recurse per actor.
    gone = frozenset(range(2, 5000))
    actors = Actors(gone)
    StopWave(5003, actors.send, width=2, watch=False).start()

    assert actors.sent[:2] == [0, 1]
    actors.accept(0)
    assert actors.sent == list(range(5001)), "every gone actor was passed over, up to the next live one"
    assert sorted(actors.pending) == [1, 5000]


def test_an_actor_that_accepted_before_the_callback_was_added_still_releases_the_next() -> None:
    sent: list[int] = []

    def send(index: int, accepted: Future[None]) -> bool:
        sent.append(index)
        accepted.set_result(None)  # accepted at once, on the sender's thread
        return True

    StopWave(50, send, width=3, watch=False).start()

    assert sent == list(range(50))


def test_acceptances_from_many_threads_tell_every_actor_exactly_once() -> None:
    actors = Actors()
    count = 400
    StopWave(count, actors.send, width=16, watch=False).start()

    def acceptor() -> None:
        while True:
            with actors.lock:
                if not actors.pending:
                    if len(actors.sent) >= count:
                        return
                    continue
                index = next(iter(actors.pending))
                accepted = actors.pending.pop(index)
            accepted.set_result(None)

    threads = [threading.Thread(target=acceptor) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert sorted(actors.sent) == list(range(count))
    assert actors.most_in_flight <= 16


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_place_not_accepted_in_time_goes_to_the_next_actor_and_is_not_given_twice() -> None:
    # Sixteen stuck supervisors (a handler that never returns, or gone between the tell and the take)
    # must not hold back the rest of the close until stop()'s deadline.
    actors, clock = Actors(), Clock()
    wave = StopWave(40, actors.send, width=16, accept_limit=1.0, clock=clock, watch=False)
    wave.start()
    assert actors.sent == list(range(16))

    clock.now += 0.5
    actors.accept(0)  # accepted in time: one more goes, at once
    assert actors.sent == list(range(17))
    assert wave.give_away_overdue() == 0, "nothing is overdue yet"

    clock.now += 0.6  # 1.1 s after the first window, 0.6 s after index 16 was sent
    assert wave.give_away_overdue() == 15, "the 15 stuck places of the first window are given away"
    assert actors.sent == list(range(32))

    actors.accept(5)  # a late acceptance of a place already given away
    assert actors.sent == list(range(32)), "a place given away is not given a second time"
    actors.accept(16)  # index 16's own place, still in time
    assert actors.sent == list(range(33))

    clock.now += 1.0
    wave.give_away_overdue()
    assert actors.sent == list(range(40)), "every actor is told, and only once"


def test_the_watchdog_gives_overdue_places_away_on_its_own_and_ends_when_all_are_sent() -> None:
    before = {thread.ident for thread in threading.enumerate()}
    actors = Actors()
    StopWave(40, actors.send, width=16, accept_limit=0.2).start()  # nobody ever accepts
    new = [thread for thread in threading.enumerate() if thread.ident not in before]
    watchdogs = [thread for thread in new if thread.name == "mcp-troupe-stop-wave"]
    assert len(watchdogs) == 1
    assert actors.sent == list(range(16)), "nothing is given away before its time"
    watchdogs[0].join(timeout=10)
    assert not watchdogs[0].is_alive(), "the watchdog ends once every actor has been told"
    assert actors.sent == list(range(40))


def test_a_wave_that_fits_its_width_starts_no_watchdog() -> None:
    actors = Actors()
    names = {thread.name for thread in threading.enumerate()}
    StopWave(STOP_WAVE_WIDTH, actors.send).start()
    assert actors.sent == list(range(STOP_WAVE_WIDTH))
    assert "mcp-troupe-stop-wave" not in {t.name for t in threading.enumerate()} - names
    assert ACCEPT_LIMIT >= 0.5, "well above a loaded machine's slowest acceptance (tens of ms)"


def test_an_empty_wave_sends_nothing_and_a_width_below_one_is_refused() -> None:
    actors = Actors()
    StopWave(0, actors.send, watch=False).start()
    assert actors.sent == []
    with pytest.raises(ValueError, match="width of at least 1, not 0"):
        StopWave(3, actors.send, width=0)
    with pytest.raises(ValueError, match="accept_limit must be positive, not 0"):
        StopWave(3, actors.send, accept_limit=0)


@given(
    count=st.integers(min_value=0, max_value=60),
    width=st.integers(min_value=1, max_value=20),
    gone=st.frozensets(st.integers(min_value=0, max_value=59)),
)
def test_the_wave_tells_everyone_and_respects_its_width_whatever_the_mix(
    count: int, width: int, gone: frozenset[int]
) -> None:
    actors = Actors(gone)
    StopWave(count, actors.send, width=width, watch=False).start()
    while actors.pending:
        assert len(actors.pending) <= width
        actors.accept_oldest()

    assert actors.sent == list(range(count))
    assert actors.most_in_flight <= width


def test_windows_are_stopped_and_waited_for_one_after_another() -> None:
    events: list[str] = []
    stopped = [threading.Event() for _ in range(5)]

    def stopper(index: int) -> None:
        events.append(f"stop {index}")
        stopped[index].set()

    def waiter(index: int, seconds: float) -> bool:
        events.append(f"wait {index}")
        return stopped[index].wait(seconds)

    stuck = stop_in_windows(
        [lambda index=index: stopper(index) for index in range(5)],
        [lambda seconds, index=index: waiter(index, seconds) for index in range(5)],
        deadline=float("inf"),
        clock=lambda: 0.0,
        width=2,
    )

    assert stuck == []
    assert events == [
        "stop 0", "stop 1", "wait 0", "wait 1",
        "stop 2", "stop 3", "wait 2", "wait 3",
        "stop 4", "wait 4",
        "wait 0", "wait 1", "wait 2", "wait 3", "wait 4",  # the final check, at once for stopped ones
    ]  # fmt: skip


def test_an_actor_that_does_not_stop_paces_the_windows_after_it_and_only_it_is_named() -> None:
    now = [0.0]
    stops: list[tuple[int, float]] = []
    waits: list[tuple[int, float]] = []
    stopped: set[int] = set()

    def stopper(index: int) -> None:
        stops.append((index, now[0]))
        if index != 1:  # actor 1 is busy in a handler and never stops
            stopped.add(index)

    def waiter(index: int, seconds: float) -> bool:
        waits.append((index, seconds))
        if index in stopped:
            return True
        now[0] += seconds  # waiting in vain uses the time up
        return False

    stuck = stop_in_windows(
        [lambda index=index: stopper(index) for index in range(6)],
        [lambda seconds, index=index: waiter(index, seconds) for index in range(6)],
        deadline=10.0,
        clock=lambda: now[0],
        width=2,
        pace=0.5,
    )

    assert stuck == [1]
    assert [index for index, _ in stops] == list(range(6)), "every actor is told to stop"
    assert stops[2] == (2, 0.5), "the stuck actor held the next window back by the pace only"
    assert (1, 0.5) in waits and waits[-5:] == [(1, 9.5), (2, 0.0), (3, 0.0), (4, 0.0), (5, 0.0)]
    assert STOP_WAVE_WIDTH >= 1
