"""The bounded wave of stop requests (actors/stop_wave.py): never more than its width in flight, every actor
told exactly once, in order, gone actors skipped without stalling, acceptances from any thread."""

from __future__ import annotations

import threading
from concurrent.futures import Future

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe.actors.stop_wave import STOP_WAVE_WIDTH, StopWave, stop_in_windows


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
    StopWave(40, actors.send, width=16).start()

    assert actors.sent == list(range(16))
    actors.accept(3)
    assert actors.sent == list(range(17)), "one acceptance lets exactly one more go"


def test_every_actor_is_told_once_in_order_and_never_more_than_the_width_at_once() -> None:
    actors = Actors()
    StopWave(100, actors.send, width=8).start()
    while actors.pending:
        actors.accept_oldest()

    assert actors.sent == list(range(100))
    assert actors.most_in_flight == 8


def test_actors_already_gone_free_their_slot_at_once() -> None:
    # A run of gone actors longer than the window must neither stall the wave nor recurse per actor.
    gone = frozenset(range(2, 5000))
    actors = Actors(gone)
    StopWave(5003, actors.send, width=2).start()

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

    StopWave(50, send, width=3).start()

    assert sent == list(range(50))


def test_acceptances_from_many_threads_tell_every_actor_exactly_once() -> None:
    actors = Actors()
    count = 400
    StopWave(count, actors.send, width=16).start()

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


def test_an_empty_wave_sends_nothing_and_a_width_below_one_is_refused() -> None:
    actors = Actors()
    StopWave(0, actors.send).start()
    assert actors.sent == []
    with pytest.raises(ValueError, match="width of at least 1, not 0"):
        StopWave(3, actors.send, width=0)


@given(
    count=st.integers(min_value=0, max_value=60),
    width=st.integers(min_value=1, max_value=20),
    gone=st.frozensets(st.integers(min_value=0, max_value=59)),
)
def test_the_wave_tells_everyone_and_respects_its_width_whatever_the_mix(
    count: int, width: int, gone: frozenset[int]
) -> None:
    actors = Actors(gone)
    StopWave(count, actors.send, width=width).start()
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
