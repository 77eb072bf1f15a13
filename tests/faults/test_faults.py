"""Real faults against real processes: kill -9 mid-call, hangs, garbage, oversized frames, storms, restarts.

Every test asserts that nothing hangs (each has a timeout and measures how fast failures arrive), that nothing
leaks (threads, file descriptors, child processes), and that the other servers keep serving.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import signal
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from tests.processes import ChildWatch

from mcp_troupe import (
    CallTimedOut,
    ConnectionLost,
    ReconnectPolicy,
    ServerNotReady,
    ServerState,
    Troupe,
    TroupeConfig,
    stdio_server,
)
from mcp_troupe.config import ServerConfig
from mcp_troupe.types import ServerStatus

pytestmark = [pytest.mark.faults]

FAST_RECONNECT = ReconnectPolicy(initial_delay=0.05, max_delay=0.2, max_attempts=5)


def demo(name: str, *flags: str, timeout: float = 30.0, connect_timeout: float = 10.0) -> ServerConfig:
    """A demo server misbehaving as told by ``flags`` (see ``python -m mcp_troupe.demo --help``)."""
    return stdio_server(
        name,
        sys.executable,
        "-m",
        "mcp_troupe.demo",
        *flags,
        timeout=timeout,
        connect_timeout=connect_timeout,
    )


@contextmanager
def troupe_of(*servers: ServerConfig, reconnect: ReconnectPolicy = FAST_RECONNECT) -> Iterator[Troupe]:
    config = TroupeConfig(
        approval_mode="auto",  # approval has its own tests (tests/faults/test_policy.py)
        servers={server.name: server for server in servers},
        reconnect=reconnect,
    )
    with Troupe(config) as troupe:
        yield troupe


def status_of(troupe: Troupe, name: str) -> ServerStatus:
    (status,) = [s for s in troupe.status() if s.name == name]
    return status


def wait_for(troupe: Troupe, name: str, predicate: object, timeout: float = 10.0) -> ServerStatus:
    """Wait (on events, not sleeps) until the server's status satisfies ``predicate``."""
    assert callable(predicate)
    deadline = time.monotonic() + timeout
    status = status_of(troupe, name)
    while not predicate(status):
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"server {name} never reached the expected state; last status: {status}"
        for _event in troupe.events(timeout=min(0.2, remaining)):
            break
        status = status_of(troupe, name)
    return status


def kill_9_during_a_call(troupe: Troupe, server: str) -> int:
    """Start a 30 s ``sleep`` on demo server ``server``, kill -9 it mid-call, assert that the call fails at
    once with ConnectionLost naming SIGKILL, wait for incarnation 2 to be ready; return the killed pid."""
    pid = status_of(troupe, server).pid
    assert pid is not None
    handle = troupe.submit(f"mcp__{server}__sleep", {"seconds": 30})
    time.sleep(0.2)  # let the call reach the server: the point is a call *in flight*
    killed_at = time.monotonic()
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(ConnectionLost, match=server) as caught:
        handle.result(timeout=5)
    assert time.monotonic() - killed_at < 1.0
    assert "SIGKILL" in caught.value.reason
    wait_for(troupe, server, lambda s: s.state is ServerState.READY and s.incarnation == 2)
    return pid


@pytest.mark.timeout(30)
def test_kill_9_fails_the_pending_call_at_once_and_the_server_comes_back(child_watch: ChildWatch) -> None:
    with troupe_of(demo("victim")) as troupe:
        assert troupe.wait_ready(10)
        pid = kill_9_during_a_call(troupe, "victim")
        status = status_of(troupe, "victim")
        assert status.pid != pid
        assert troupe.call("mcp__victim__echo", {"text": "back"}).text == "back"
        assert all(spec.ready for spec in troupe.tools())
    assert child_watch.wait_until_gone() == set()


@pytest.mark.timeout(30)
def test_a_server_that_hangs_in_initialize_times_out_backs_off_and_fails_without_leaks(
    child_watch: ChildWatch,
) -> None:
    threads_before = threading.active_count()
    server = demo("stuck", "--hang-initialize", connect_timeout=0.3)
    with troupe_of(
        server, reconnect=ReconnectPolicy(initial_delay=0.05, max_delay=0.1, max_attempts=2)
    ) as troupe:
        assert troupe.wait_ready(10)
        status = status_of(troupe, "stuck")
        assert status.state is ServerState.FAILED
        assert status.incarnation == 3  # the first attempt and two retries, each a brand-new incarnation
        assert status.last_error is not None and "connect_timeout" in status.last_error
        assert child_watch.wait_until_gone() == set()  # each failed attempt was closed before the next
    assert child_watch.wait_until_gone() == set()
    deadline = time.monotonic() + 5
    while threading.active_count() > threads_before and time.monotonic() < deadline:
        time.sleep(0.02)
    assert threading.active_count() <= threads_before


@pytest.mark.timeout(30)
def test_a_call_that_never_answers_times_out_and_the_server_is_told_which_id(tmp_path: Path) -> None:
    record = tmp_path / "received.jsonl"
    with troupe_of(demo("slow", "--hang-tool", "echo", "--record", str(record))) as troupe:
        assert troupe.wait_ready(10)
        started = time.monotonic()
        with pytest.raises(CallTimedOut) as caught:
            troupe.call("mcp__slow__echo", {"text": "never"}, timeout=0.3)
        assert 0.3 <= time.monotonic() - started < 1.5
        request_id = caught.value.request_id
        # The connection is untouched: the next call works, and the server recorded our cancellation.
        cancelled = json.loads(troupe.call("mcp__slow__get_cancelled").text)
        assert [entry["requestId"] for entry in cancelled] == [request_id]
        assert "timed out" in cancelled[0]["reason"]
        assert status_of(troupe, "slow").incarnation == 1


@pytest.mark.timeout(30)
def test_cancelling_a_call_tells_the_server_and_keeps_the_connection() -> None:
    with troupe_of(demo("c")) as troupe:
        assert troupe.wait_ready(10)
        handle = troupe.submit("mcp__c__sleep", {"seconds": 30})
        time.sleep(0.1)
        assert handle.cancel()
        with pytest.raises(Exception, match="cancelled"):
            handle.result(timeout=2)
        deadline = time.monotonic() + 5
        while True:
            cancelled = json.loads(troupe.call("mcp__c__get_cancelled").text)
            if cancelled or time.monotonic() > deadline:
                break
        assert len(cancelled) == 1 and cancelled[0]["reason"] == "cancelled by the client"
        assert troupe.call("mcp__c__echo", {"text": "still here"}).text == "still here"


@pytest.mark.timeout(30)
def test_garbage_between_frames_is_skipped_and_calls_keep_working() -> None:
    with troupe_of(demo("noisy", "--garbage-on-start", "--garbage-every", "2")) as troupe:
        assert troupe.wait_ready(10)
        for i in range(20):
            assert troupe.call("mcp__noisy__echo", {"text": f"call {i}"}).text == f"call {i}"
        assert status_of(troupe, "noisy").incarnation == 1


@pytest.mark.timeout(60)
def test_an_oversized_frame_fails_the_connection_cleanly_and_it_reconnects() -> None:
    # Just over a configured 1 MiB bound: the frame is refused before it is buffered whole.
    server = dataclasses.replace(
        demo("huge", "--oversized-frame", str(1024 * 1024 + 10)), max_frame_bytes=1024 * 1024
    )
    with troupe_of(server) as troupe:
        assert troupe.wait_ready(10)
        with pytest.raises(ConnectionLost, match="exceeded"):
            troupe.call("mcp__huge__echo", {"text": "x"})
        status = wait_for(troupe, "huge", lambda s: s.state is ServerState.READY and s.incarnation == 2)
        assert status.last_error is None


@pytest.mark.timeout(30)
def test_a_list_changed_storm_ends_in_the_servers_tool_set_without_duplicates(tmp_path: Path) -> None:
    record = tmp_path / "received.jsonl"
    with troupe_of(demo("storm", "--list-changed-storm", "50", "--record", str(record))) as troupe:
        assert troupe.wait_ready(10)
        troupe.call("mcp__storm__storm", {"count": 50})
        troupe.call("mcp__storm__mutate_tools")
        deadline = time.monotonic() + 10
        while "mcp__storm__extra_1" not in {spec.name for spec in troupe.tools()}:
            assert time.monotonic() < deadline, "the tool added before the last list_changed never appeared"
            time.sleep(0.02)
        names = [spec.name for spec in troupe.tools()]
        assert len(names) == len(set(names))
        listings = [json.loads(line) for line in record.read_text().splitlines() if '"tools/list"' in line]
        # 100 notifications, yet one listing in flight at a time with a dirty flag: a handful of listings.
        assert len(listings) <= 8, f"{len(listings)} tools/list requests for 100 list_changed notifications"


@pytest.mark.timeout(60)
def test_a_crash_looping_server_does_not_slow_calls_to_a_healthy_one() -> None:
    def median_latency(troupe: Troupe, calls: int = 200) -> float:
        samples = []
        for _ in range(calls):
            started = time.perf_counter()
            troupe.call("mcp__healthy__echo", {"text": "x"})
            samples.append(time.perf_counter() - started)
        return statistics.median(samples)

    crasher = demo("crasher", "--crash-on-call", "--hang-tool", "sleep")
    hanger = demo("hanger", "--hang-tool", "echo")
    reconnect = ReconnectPolicy(initial_delay=0.05, max_delay=0.1, max_attempts=1000)
    with troupe_of(demo("healthy"), crasher, hanger, reconnect=reconnect) as troupe:
        assert troupe.wait_ready(15)
        baseline = median_latency(troupe)
        stop = threading.Event()

        def misbehave() -> None:
            # Crash the crasher over and over, and pile up calls that never answer on the hanger.
            while not stop.is_set():
                for handle in (
                    troupe.submit("mcp__crasher__echo", {"text": "boom"}),
                    troupe.submit("mcp__hanger__echo", {"text": "..."}, timeout=0.5),
                ):
                    try:
                        handle.result(timeout=2)
                    except Exception:
                        pass
                stop.wait(0.02)

        worker = threading.Thread(target=misbehave)
        worker.start()
        try:
            time.sleep(0.3)
            during = median_latency(troupe)
        finally:
            stop.set()
            worker.join(10)
        assert status_of(troupe, "crasher").incarnation > 1
        assert during <= 2 * baseline + 0.0005, (
            f"healthy p50 {during * 1e6:.0f} us vs {baseline * 1e6:.0f} us"
        )


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_fifty_restarts_return_threads_fds_and_processes_to_baseline(child_watch: ChildWatch) -> None:
    with troupe_of(demo("r")) as troupe:
        assert troupe.wait_ready(10)
        troupe.call("mcp__r__echo", {"text": "warm"})
        threads = threading.active_count()
        fds = len(os.listdir("/proc/self/fd"))
        for i in range(50):
            troupe.restart("r")
            status = wait_for(
                troupe, "r", lambda s, n=i + 2: s.state is ServerState.READY and s.incarnation == n
            )
            assert status.pid is not None
        assert troupe.call("mcp__r__echo", {"text": "after 50"}).text == "after 50"
        assert len(child_watch.new_alive()) == 1  # the current incarnation's process only
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and (
            threading.active_count() > threads or len(os.listdir("/proc/self/fd")) > fds
        ):
            time.sleep(0.05)
        assert threading.active_count() <= threads
        assert len(os.listdir("/proc/self/fd")) <= fds
    assert child_watch.wait_until_gone() == set()


@pytest.mark.timeout(30)
def test_stop_kills_the_whole_process_group_even_when_the_server_ignores_sigterm(
    child_watch: ChildWatch,
) -> None:
    server = demo("stubborn", "--spawn-child", "--ignore-sigterm", "--ignore-stdin-eof")
    with troupe_of(server) as troupe:
        assert troupe.wait_ready(10)
        assert len(child_watch.new_alive()) == 2  # the server and the grandchild it spawned
    assert child_watch.wait_until_gone(timeout=10) == set()


@pytest.mark.timeout(30)
def test_tools_of_a_lost_server_stay_listed_but_not_ready_and_calls_fail_at_once() -> None:
    slow_reconnect = ReconnectPolicy(initial_delay=2.0, max_delay=2.0, max_attempts=3)
    with troupe_of(demo("flaky", "--crash-after", "1"), demo("steady"), reconnect=slow_reconnect) as troupe:
        assert troupe.wait_ready(10)
        troupe.call("mcp__flaky__echo", {"text": "one"})
        with pytest.raises(ConnectionLost):
            troupe.call("mcp__flaky__echo", {"text": "two"})  # the crash-after flag kills it here
        status = wait_for(troupe, "flaky", lambda s: s.state is ServerState.BACKOFF)
        assert status.attempts == 1
        listed = {spec.name: spec.ready for spec in troupe.tools()}
        assert listed["mcp__flaky__echo"] is False and listed["mcp__steady__echo"] is True
        assert not any(spec.server == "flaky" for spec in troupe.tools(ready_only=True))
        started = time.monotonic()
        with pytest.raises(ServerNotReady, match="backoff"):
            troupe.call("mcp__flaky__echo", {"text": "three"})
        assert time.monotonic() - started < 0.5
    assert troupe.tools() == []  # after stop the model sees no MCP tool at all


@pytest.mark.timeout(30)
def test_events_tell_the_story_of_a_crash_and_a_reconnect() -> None:
    with troupe_of(demo("story")) as troupe:
        assert troupe.wait_ready(10)
        pid = status_of(troupe, "story").pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        seen: list[tuple[str, int]] = []
        for event in troupe.events(timeout=10, history=True):  # from the first connect on
            assert event.server == "story"
            seen.append((event.kind, event.incarnation))
            if event.kind == "connected" and event.incarnation == 2:
                break
        assert seen == [("connected", 1), ("lost", 1), ("connected", 2)]


@pytest.mark.timeout(30)
def test_cancelling_the_task_awaiting_acall_cancels_the_call_on_the_server() -> None:
    async def scenario(troupe: Troupe) -> list[dict[str, object]]:
        task = asyncio.create_task(troupe.acall("mcp__a__sleep", {"seconds": 30}))
        await asyncio.sleep(0.2)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # The event loop was never blocked: other awaits kept running while the call was pending.
        for _ in range(100):
            cancelled = json.loads((await troupe.acall("mcp__a__get_cancelled")).text)
            if cancelled:
                return list(cancelled)
            await asyncio.sleep(0.02)
        return []

    with troupe_of(demo("a")) as troupe:
        assert troupe.wait_ready(10)
        cancelled = asyncio.run(scenario(troupe))
        assert len(cancelled) == 1
        assert troupe.call("mcp__a__echo", {"text": "ok"}).text == "ok"
