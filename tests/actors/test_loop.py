"""IoLoop: spawn, cancel and call_later, with sniffio importable (as in most real environments)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures import Future
from typing import Any

import anyio
import anyio.to_thread
import pytest
import sniffio

from mcp_troupe.actors.loop import IoLoop


@pytest.fixture
def loop() -> object:
    io_loop = IoLoop(name="test-io")
    io_loop.start()
    yield io_loop
    io_loop.stop(timeout=5)


@pytest.mark.timeout(15)
def test_spawned_tasks_can_use_anyio_while_sniffio_is_installed(loop: IoLoop) -> None:
    done: Future[str] = Future()

    async def work() -> None:
        # Cancel scopes and sleeps make anyio look up its backend, which fails outside a task when sniffio
        # is importable: spawn must run the task inside the task group, from task context.
        with anyio.CancelScope():
            await anyio.sleep(0)
        done.set_result(sniffio.current_async_library())

    loop.spawn(work, name="uses anyio")
    assert done.result(timeout=5) == "asyncio"


@pytest.mark.timeout(15)
def test_a_task_cancelled_before_it_starts_never_runs_and_one_cancelled_later_stops(loop: IoLoop) -> None:
    started = threading.Event()
    cancelled: Future[bool] = Future()

    async def forever() -> None:
        started.set()
        try:
            await anyio.sleep(3600)
        except anyio.get_cancelled_exc_class():
            cancelled.set_result(True)
            raise

    handle = loop.spawn(forever, name="forever")
    assert started.wait(5)
    handle.cancel()
    assert cancelled.result(timeout=5) is True

    ran = threading.Event()

    async def never() -> None:
        ran.set()

    # Hold the loop (in a test only) so the spawn below cannot start before it is cancelled.
    gate = threading.Event()
    loop.post(gate.wait, 5)
    early = loop.spawn(never, name="never")
    early.cancel()
    gate.set()
    turned: Future[None] = Future()
    loop.call_later(0.05, lambda: turned.set_result(None))
    turned.result(timeout=5)
    assert not ran.is_set()


@pytest.mark.timeout(15)
def test_call_later_runs_on_the_loop_thread_after_the_delay(loop: IoLoop) -> None:
    where: Future[str] = Future()
    loop.call_later(0.05, lambda: where.set_result(threading.current_thread().name))
    assert where.result(timeout=5) == "test-io"


@pytest.mark.timeout(10)
def test_an_io_loop_started_on_an_applications_loop_runs_there_and_stops_without_ending_it() -> None:
    import asyncio

    async def scenario() -> None:
        app_loop = asyncio.get_running_loop()
        io = IoLoop(name="unused-thread-name")
        await asyncio.to_thread(io.start_on, app_loop)
        assert io.asyncio_loop is app_loop and io.in_loop_thread()
        ran_on: Future[int] = Future()
        io.post(lambda: ran_on.set_result(threading.get_ident()))

        async def task(done: Future[str]) -> None:
            await anyio.sleep(0)
            done.set_result(sniffio.current_async_library())

        spawned: Future[str] = Future()
        io.spawn(task, spawned, name="on the app loop")
        assert await asyncio.wrap_future(ran_on) == threading.get_ident()
        assert await asyncio.wrap_future(spawned) == "asyncio"
        await asyncio.to_thread(io.stop, 5.0)
        assert not io.is_running
        await asyncio.sleep(0)  # the application's loop is still running fine

    asyncio.run(scenario())


@pytest.mark.timeout(10)
def test_start_on_refuses_the_loops_own_thread_and_a_second_start() -> None:
    import asyncio

    async def scenario() -> None:
        io = IoLoop()
        with pytest.raises(RuntimeError, match="another thread"):
            io.start_on(asyncio.get_running_loop())
        await asyncio.to_thread(io.start_on, asyncio.get_running_loop())
        with pytest.raises(RuntimeError, match="already started"):
            io.start()
        await asyncio.to_thread(io.stop, 5.0)

    asyncio.run(scenario())


@pytest.mark.timeout(10)
def test_a_write_queue_wakes_the_loop_once_per_burst_and_drops_writes_when_the_loop_is_gone() -> None:
    from mcp_troupe.actors.transport import WriteQueue

    io = IoLoop(name="write-queue-test")
    io.start()
    flushed: list[list[int]] = []
    done = threading.Event()

    def flush() -> None:
        with queue.lock:
            flushed.append(queue.take_locked())
        done.set()

    queue: WriteQueue[int] = WriteQueue(io, flush)
    ran: Future[None] = Future()
    # One burst, put from the loop itself: the flush cannot run before the burst ends.
    io.post(lambda: (queue.put(1), queue.put(2), queue.put(3), ran.set_result(None)))
    ran.result(5)
    assert done.wait(5)
    assert flushed == [[1, 2, 3]]
    io.stop()
    queue.put(4)  # no loop: dropped, and the queue is ready for nothing more to happen
    assert queue.items == []


@pytest.mark.timeout(15)
def test_a_task_that_fails_is_logged_kept_on_its_future_and_reported_to_the_spawner(
    loop: IoLoop, caplog: pytest.LogCaptureFixture
) -> None:
    reported: Future[BaseException] = Future()

    async def broken() -> None:
        raise KeyError("lost")

    handle = loop.spawn(broken, name="broken task", on_error=reported.set_result)

    error = reported.result(timeout=5)
    assert isinstance(error, KeyError)
    with pytest.raises(KeyError):
        handle.future.result(timeout=5)
    assert any("broken task" in record.getMessage() for record in caplog.records)


@pytest.mark.timeout(15)
def test_a_task_s_future_holds_its_result_and_cancelling_the_future_cancels_the_task(loop: IoLoop) -> None:
    async def answer() -> int:
        return 42

    assert loop.spawn(answer, name="answer").future.result(timeout=5) == 42

    started = threading.Event()
    stopped: Future[bool] = Future()

    async def forever() -> None:
        started.set()
        try:
            await anyio.sleep(3600)
        except anyio.get_cancelled_exc_class():
            stopped.set_result(True)
            raise

    handle = loop.spawn(forever, name="forever")
    assert started.wait(5)
    assert handle.future.cancel()
    assert stopped.result(timeout=5) is True


@pytest.mark.timeout(15)
def test_tasks_still_running_when_the_loop_stops_end_cancelled() -> None:
    io_loop = IoLoop(name="stopping-io")
    io_loop.start()
    started = threading.Event()

    async def forever() -> None:
        started.set()
        await anyio.sleep(3600)

    handle = io_loop.spawn(forever, name="forever")
    assert started.wait(5)
    io_loop.stop(timeout=5)
    assert handle.future.cancelled()


@pytest.mark.timeout(15)
def test_a_future_asked_for_only_after_the_task_ended_holds_its_outcome(loop: IoLoop) -> None:
    # The handle makes its future on first use: an outcome that came first must be handed to it.
    ended = threading.Event()

    async def answer() -> int:
        return 7

    async def broken() -> None:
        raise ValueError("kept")

    async def last() -> None:
        ended.set()

    handles = [loop.spawn(answer, name="answer"), loop.spawn(broken, name="broken"), loop.spawn(last)]
    assert ended.wait(5)
    probe: Future[None] = Future()  # one more loop pass: the tasks above have settled by then
    loop.post(probe.set_result, None)
    probe.result(timeout=5)
    assert handles[0].future.result(timeout=5) == 7
    with pytest.raises(ValueError, match="kept"):
        handles[1].future.result(timeout=5)
    assert handles[2].future.result(timeout=5) is None
    # Cancelled before it ever started, and asked for afterwards. The loop is kept busy meanwhile: left
    # free, it may run the task to its end before cancel() (which is then a no-op, as documented).
    gate = threading.Event()
    busy, release = threading.Event(), threading.Event()

    def hold() -> None:
        busy.set()
        release.wait(5)

    async def never() -> None:
        gate.set()

    loop.post(hold)
    assert busy.wait(5)
    handle = loop.spawn(never, name="never")
    handle.cancel()
    release.set()
    assert handle.future.cancelled()
    probe = Future()
    loop.post(probe.set_result, None)
    probe.result(timeout=5)
    assert not gate.is_set()


@pytest.mark.timeout(15)
def test_stop_lets_a_shielded_cleanup_finish_and_starts_no_task_spawned_meanwhile() -> None:
    io_loop = IoLoop(name="cleanup-io")
    io_loop.start()
    started = threading.Event()
    cleaned: Future[bool] = Future()
    late: list[object] = []

    async def never() -> None:
        late.append("ran")

    async def forever() -> None:
        started.set()
        try:
            await anyio.sleep(3600)
        finally:
            # Cancelled through its scope, anyio's way: a shielded cleanup still runs to its end.
            with anyio.CancelScope(shield=True):
                await anyio.sleep(0.05)
                late.append(io_loop.spawn(never, name="spawned while stopping"))
                cleaned.set_result(True)

    handle = io_loop.spawn(forever, name="forever")
    assert started.wait(5)
    io_loop.stop(timeout=5)
    assert cleaned.result(timeout=0) is True
    assert handle.future.cancelled()
    assert len(late) == 1  # `never` did not run
    spawned = late[0]
    assert spawned.future.cancelled()  # type: ignore[attr-defined]


class _Ref:
    """Just what Runtime.track reads of an actor ref."""

    def __init__(self) -> None:
        self.alive = True

    def is_alive(self) -> bool:
        return self.alive


@pytest.mark.timeout(15)
def test_track_keeps_the_live_actors_and_prunes_the_dead_in_bounded_space(loop: IoLoop) -> None:
    from typing import Any, cast

    from mcp_troupe.actors.loop import Runtime

    runtime = Runtime(loop)
    live = [_Ref() for _ in range(10)]
    for ref in live:
        runtime.track(cast(Any, ref))
    for _ in range(2000):  # actors of reconnects, dead by the next track
        dead = _Ref()
        runtime.track(cast(Any, dead))
        dead.alive = False

    kept = runtime._actors
    assert all(ref in kept for ref in live)
    # At most about twice the live ones (and the prune threshold's floor), never all 2,010 of them.
    assert len(kept) <= 64 + 2 * len(live)


@pytest.mark.timeout(15)
def test_stop_ends_what_the_loop_held_as_asyncio_run_would_and_anyio_works_without_its_runner() -> None:
    """The loop runs without anyio's runner (cheaper per troupe): its close must still cancel stray tasks,
    finalise async generators, join the default executor's threads and anyio's worker threads."""
    before = set(threading.enumerate())
    io_loop = IoLoop(name="test-io-close")
    io_loop.start()
    finalised = threading.Event()
    stray_cancelled = threading.Event()

    async def ticks() -> AsyncIterator[int]:
        try:
            yield 1
            yield 2
        finally:
            finalised.set()

    async def stray() -> None:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            stray_cancelled.set()
            raise

    async def work() -> int:
        generator = ticks()
        first = await generator.__anext__()  # left suspended: only shutdown_asyncgens finalises it
        asyncio.get_running_loop().create_task(stray())  # not spawned: the IoLoop does not know it
        in_worker = await anyio.to_thread.run_sync(lambda: 41)
        await asyncio.get_running_loop().run_in_executor(None, lambda: None)  # the default executor
        held.append(generator)
        return first + in_worker

    held: list[Any] = []
    try:
        assert io_loop.spawn(work, name="holds things").future.result(5) == 42
        extra = {thread.name for thread in set(threading.enumerate()) - before}
        assert "AnyIO worker thread" in extra and len(extra) >= 3, extra
    finally:
        io_loop.stop(timeout=5)
    assert stray_cancelled.is_set() and finalised.is_set()
    deadline = time.monotonic() + 5
    while set(threading.enumerate()) - before and time.monotonic() < deadline:
        time.sleep(0.01)  # anyio's worker leaves once told (it was told when the loop's main task ended)
    assert not set(threading.enumerate()) - before, [t.name for t in threading.enumerate()]


@pytest.mark.timeout(30)
def test_a_loop_stopped_at_once_after_its_start_ends_its_thread_and_ran_what_was_posted() -> None:
    # start() does not wait for the thread's bootstrap, so stop() may come before the thread has run at
    # all: it must wait for the loop's end (a thread not yet bootstrapped cannot be joined), run the posts
    # made meanwhile, and leave no thread behind.
    for attempt in range(50):
        ran: list[int] = []
        io_loop = IoLoop(name=f"test-io-at-once-{attempt}")
        io_loop.start()
        io_loop.post(ran.append, attempt)
        io_loop.stop(timeout=5)
        assert ran == [attempt]
        assert f"test-io-at-once-{attempt}" not in {thread.name for thread in threading.enumerate()}
        assert not io_loop.is_running


@pytest.mark.timeout(15)
def test_stop_called_on_the_loop_s_own_thread_raises_at_once_instead_of_waiting_for_itself() -> None:
    io_loop = IoLoop(name="test-io-self-stop")
    io_loop.start()
    try:
        outcome: Future[BaseException | None] = Future()

        def stop_from_inside() -> None:
            try:
                io_loop.stop(timeout=5)
                outcome.set_result(None)
            except RuntimeError as exc:
                outcome.set_result(exc)

        started = time.monotonic()
        io_loop.post(stop_from_inside)
        error = outcome.result(timeout=5)
        assert isinstance(error, RuntimeError) and time.monotonic() - started < 2
    finally:
        io_loop.stop(timeout=5)
