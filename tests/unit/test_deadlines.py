"""Deadlines: the heap of call deadlines the session and the lane share the logic of."""

from __future__ import annotations

from dataclasses import dataclass

from mcp_troupe.protocol.deadlines import Deadlines


@dataclass
class Call:
    deadline: float | None


def test_expired_calls_come_out_in_deadline_order_and_leave_the_pending_map() -> None:
    pending = {1: Call(5.0), 2: Call(1.0), 3: Call(3.0), 4: Call(None)}
    heap = Deadlines()
    for key, call in pending.items():
        if call.deadline is not None:
            heap.push(call.deadline, key, pending)
    assert [key for key, _ in heap.pop_expired(3.0, pending)] == [2, 3]
    assert set(pending) == {1, 4}
    assert heap.earliest == 5.0


def test_answered_and_rearmed_calls_are_skipped() -> None:
    pending = {1: Call(1.0), 2: Call(2.0)}
    heap = Deadlines()
    heap.push(1.0, 1, pending)
    heap.push(2.0, 2, pending)
    del pending[1]  # answered
    pending[2] = Call(9.0)  # the same key with another deadline: its old entry no longer counts
    heap.push(9.0, 2, pending)
    assert heap.pop_expired(5.0, pending) == []
    assert [key for key, _ in heap.pop_expired(9.0, pending)] == [2]
    assert heap.earliest is None


def test_stale_entries_are_dropped_once_they_dominate_and_live_ones_kept() -> None:
    pending: dict[int, Call] = {}
    heap = Deadlines()
    for key in range(5000):
        pending[key] = Call(float(key))
        heap.push(float(key), key, pending)
        if key % 10:
            del pending[key]  # nine in ten answered at once
    assert len(heap._heap) < 2 * len(pending) + 1100
    assert [key for key, _ in heap.pop_expired(10_000.0, pending)] == list(range(0, 5000, 10))
    heap.clear()
    assert heap.earliest is None
