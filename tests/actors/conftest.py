"""Fixtures for the actor tests: a running I/O loop and runtime per test, and a teardown that leaves nothing.

Teardown stops every actor the test started (``Runtime.stop_actors``, then pykka's registry as a last resort)
and fails the test if any actor did not stop in time or any actor thread is still alive: a leak here would
keep a real process alive (DESIGN §2 rule 7).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pykka
import pytest

from mcp_troupe.actors.loop import IoLoop, Runtime

from .fakes import ScriptedSession

STOP_TIMEOUT = 5.0


def _actor_class_names() -> set[str]:
    """Names of every pykka actor class defined so far; pykka names an actor's thread ``<Class>-<n>``."""
    names: set[str] = set()
    pending: list[type[Any]] = [pykka.Actor]
    while pending:
        cls = pending.pop()
        names.add(cls.__name__)
        pending.extend(cls.__subclasses__())
    return names


def _actor_threads(exclude: set[threading.Thread]) -> list[threading.Thread]:
    names = _actor_class_names()
    return [
        thread
        for thread in threading.enumerate()
        if thread not in exclude and thread.name.rsplit("-", 1)[0] in names
    ]


@pytest.fixture
def io_loop() -> Iterator[IoLoop]:
    """A started :class:`IoLoop`, stopped after the test (after its actors)."""
    loop = IoLoop(name="actor-tests-io")
    loop.start()
    yield loop
    loop.stop(timeout=STOP_TIMEOUT)


@pytest.fixture
def runtime(io_loop: IoLoop) -> Iterator[Runtime]:
    """A :class:`Runtime` on the test's loop; every actor started during the test is stopped afterwards."""
    threads_before = set(threading.enumerate())
    actors_before = {ref.actor_urn for ref in pykka.ActorRegistry.get_all()}
    runtime = Runtime(io_loop)
    yield runtime

    stuck = runtime.stop_actors(timeout=STOP_TIMEOUT)
    untracked = [ref for ref in pykka.ActorRegistry.get_all() if ref.actor_urn not in actors_before]
    if untracked:
        # Last resort for actors the runtime never tracked; fine in tests, and reported below.
        pykka.ActorRegistry.stop_all(block=True, timeout=STOP_TIMEOUT)
    deadline = time.monotonic() + STOP_TIMEOUT
    for thread in _actor_threads(threads_before):
        thread.join(max(0.0, deadline - time.monotonic()))
    alive = [thread.name for thread in _actor_threads(threads_before) if thread.is_alive()]
    assert not stuck, f"actors that did not stop within {STOP_TIMEOUT} s: {stuck}"
    assert not untracked, f"actors the runtime did not track: {untracked}"
    assert not alive, f"actor threads still alive after teardown: {alive}"


@pytest.fixture
def scripted(runtime: Runtime) -> ScriptedSession:
    """A session under test with probes for its supervisor and transport (short timeouts, incarnation 7)."""
    return ScriptedSession(runtime, call_timeout=5.0, handshake_timeout=5.0)
