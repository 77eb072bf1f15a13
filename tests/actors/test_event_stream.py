"""The troupe's event stream (issue 12 bullet 6): a subscriber sees only the events emitted after it
subscribed, unless it asks for the history; every subscriber sees every event; a slow one loses only its own
oldest."""

from __future__ import annotations

import queue

import pytest

from mcp_troupe import Troupe
from mcp_troupe.actors.loop import SUBSCRIBER_BACKLOG, Runtime
from mcp_troupe.config import TroupeConfig
from mcp_troupe.types import TroupeEvent


def drain(inbox: queue.Queue[TroupeEvent]) -> list[str]:
    """The details of every event waiting in ``inbox``, oldest first."""
    details: list[str] = []
    while True:
        try:
            details.append(inbox.get_nowait().detail)
        except queue.Empty:
            return details


def test_a_new_subscriber_gets_only_the_events_emitted_after_it_subscribed(runtime: Runtime) -> None:
    runtime.emit("connected", "fs", 1, "before")

    inbox = runtime.subscribe()
    runtime.emit("lost", "fs", 1, "after")

    assert drain(inbox) == ["after"]


def test_a_subscriber_that_asks_for_history_gets_the_kept_events_first_in_order(runtime: Runtime) -> None:
    runtime.emit("connected", "fs", 1, "first")
    runtime.emit("lost", "fs", 1, "second")

    inbox = runtime.subscribe(history=True)
    runtime.emit("connected", "fs", 2, "third")

    assert drain(inbox) == ["first", "second", "third"]


def test_every_subscriber_sees_every_event_and_none_takes_another_ones(runtime: Runtime) -> None:
    first, second = runtime.subscribe(), runtime.subscribe()

    runtime.emit("connected", "a", 1, "one")
    runtime.emit("connected", "b", 1, "two")

    assert drain(first) == ["one", "two"]
    assert drain(second) == ["one", "two"]


def test_an_unsubscribed_inbox_gets_nothing_more(runtime: Runtime) -> None:
    inbox = runtime.subscribe()
    runtime.unsubscribe(inbox)

    runtime.emit("connected", "fs", 1, "later")

    assert drain(inbox) == []


def test_a_slow_subscriber_loses_its_own_oldest_events_and_no_one_elses(runtime: Runtime) -> None:
    slow, reader = runtime.subscribe(), runtime.subscribe()
    seen_by_reader: list[str] = []

    for number in range(SUBSCRIBER_BACKLOG + 2):  # bounded: a few ms
        runtime.emit("changed", "fs", 1, str(number))
        seen_by_reader.extend(drain(reader))

    kept = drain(slow)
    assert len(kept) == SUBSCRIBER_BACKLOG
    assert kept[0] == "2" and kept[-1] == str(SUBSCRIBER_BACKLOG + 1)
    assert len(seen_by_reader) == SUBSCRIBER_BACKLOG + 2


@pytest.mark.timeout(30)
def test_the_facade_subscribes_when_events_is_called_not_when_it_is_first_read() -> None:
    with Troupe(TroupeConfig()) as troupe:
        runtime = troupe._runtime
        assert runtime is not None
        runtime.emit("connected", "fs", 1, "before the call")

        stream = troupe.events(timeout=0.5)
        runtime.emit("lost", "fs", 1, "after the call, before the first read")
        details = [event.detail for event in stream]

        assert details == ["after the call, before the first read"]
        with_history = [event.detail for event in troupe.events(timeout=0.2, history=True)]
        assert with_history[:2] == ["before the call", "after the call, before the first read"]
