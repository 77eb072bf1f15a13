"""``Troupe(io_loop=...)``: the servers' I/O on the application's own asyncio loop, no I/O thread.

The same guarantees as with a thread of its own — kill -9 fails a call at once and the server comes back,
nothing is left behind — plus the one this mode adds: a blocking method that would wait for the very loop it
runs on refuses with a clear error instead of deadlocking.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time

import pytest
from tests.faults.test_faults import FAST_RECONNECT, demo
from tests.processes import ChildWatch

from mcp_troupe import ConnectionLost, ServerState, Troupe, TroupeConfig

pytestmark = [pytest.mark.faults, pytest.mark.timeout(30)]


def config_of(*names: str) -> TroupeConfig:
    return TroupeConfig(
        approval_mode="auto",
        servers={name: demo(name) for name in names},
        reconnect=FAST_RECONNECT,
    )


async def wait_until(predicate: object, timeout: float = 10.0) -> None:
    assert callable(predicate)
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition never held"
        await asyncio.sleep(0.02)


def test_calls_run_on_the_applications_loop_and_blocking_waits_on_it_refuse(child_watch: ChildWatch) -> None:
    async def scenario() -> None:
        async with Troupe(config_of("a", "b"), io_loop=asyncio.get_running_loop()) as troupe:
            assert await asyncio.to_thread(troupe.wait_ready, 10)
            assert not [t for t in threading.enumerate() if t.name == "mcp-troupe-io"]
            for _ in range(3):  # the first through the actors, the others through the lane
                assert (await troupe.acall("mcp__a__echo", {"text": "x"})).text == "x"
            results = await asyncio.gather(
                *(troupe.acall("mcp__b__echo", {"text": str(i)}) for i in range(50))
            )
            assert [result.text for result in results] == [str(i) for i in range(50)]
            with pytest.raises(RuntimeError, match="io_loop"):
                troupe.call("mcp__a__echo", {"text": "deadlock?"})
            with pytest.raises(RuntimeError, match="io_loop"):
                troupe.wait_ready(1)
            assert [spec.name for spec in troupe.tools() if spec.name.endswith("__echo")]  # no I/O: allowed
            answer = await asyncio.to_thread(troupe.call, "mcp__a__echo", {"text": "from a thread"})
            assert answer.text == "from a thread"

    asyncio.run(scenario())
    assert child_watch.wait_until_gone() == set()


def test_kill_9_on_a_shared_loop_fails_the_call_at_once_and_the_server_comes_back(
    child_watch: ChildWatch,
) -> None:
    async def scenario() -> None:
        async with Troupe(config_of("v"), io_loop=asyncio.get_running_loop()) as troupe:
            assert await asyncio.to_thread(troupe.wait_ready, 10)
            await troupe.acall("mcp__v__sleep", {"seconds": 0})
            (status,) = troupe.status()
            assert status.pid is not None
            task = asyncio.create_task(troupe.acall("mcp__v__sleep", {"seconds": 30}))
            await asyncio.sleep(0.2)
            killed_at = time.monotonic()
            os.kill(status.pid, signal.SIGKILL)
            with pytest.raises(ConnectionLost, match="SIGKILL"):
                await task
            assert time.monotonic() - killed_at < 1.0
            await wait_until(
                lambda: troupe.status()[0].state is ServerState.READY and troupe.status()[0].incarnation == 2
            )
            assert (await troupe.acall("mcp__v__echo", {"text": "back"})).text == "back"

    asyncio.run(scenario())
    assert child_watch.wait_until_gone() == set()


def test_starting_on_the_loops_own_thread_is_refused_with_the_way_out() -> None:
    async def scenario() -> None:
        troupe = Troupe(config_of("s"), io_loop=asyncio.get_running_loop())
        with pytest.raises(RuntimeError, match="another thread"):
            troupe.start()
        await asyncio.to_thread(troupe.stop)  # nothing was started: a no-op

    asyncio.run(scenario())


def test_a_troupe_left_running_when_its_loop_ends_still_stops_and_leaves_no_process(
    child_watch: ChildWatch,
) -> None:
    holder: list[Troupe] = []

    async def scenario() -> None:
        troupe = Troupe(config_of("left"), io_loop=asyncio.get_running_loop())
        await asyncio.to_thread(troupe.start)
        assert await asyncio.to_thread(troupe.wait_ready, 10)
        holder.append(troupe)  # the application forgets to stop it before its loop ends

    asyncio.run(scenario())
    # The loop is gone, so waiting on this thread cannot deadlock: stop must work (atexit does the same).
    holder[0].stop(timeout=5.0)
    assert child_watch.wait_until_gone() == set()
