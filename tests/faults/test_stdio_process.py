"""How a stdio server's exit is watched: a pidfd on the loop where the kernel has them, asyncio's child
watcher otherwise. Both must notice a kill -9 at once, reap the child, and leave no process or thread behind.
"""

from __future__ import annotations

import os
import threading
import time

import pytest
from tests.faults.test_faults import demo, kill_9_during_a_call, troupe_of
from tests.processes import ChildWatch

from mcp_troupe import ServerState
from mcp_troupe.actors import stdio

pytestmark = [pytest.mark.faults, pytest.mark.timeout(30)]

WATCHERS = [
    pytest.param(True, id="pidfd", marks=pytest.mark.skipif(not stdio.HAS_PIDFD, reason="no pidfd here")),
    pytest.param(False, id="asyncio-child-watcher"),
]


@pytest.mark.parametrize("use_pidfd", WATCHERS)
def test_either_watcher_notices_kill_9_reaps_the_child_and_reconnects(
    use_pidfd: bool, monkeypatch: pytest.MonkeyPatch, child_watch: ChildWatch
) -> None:
    monkeypatch.setattr(stdio, "HAS_PIDFD", use_pidfd)
    with troupe_of(demo("w")) as troupe:
        assert troupe.wait_ready(10)
        assert troupe.call("mcp__w__echo", {"text": "one"}).text == "one"
        pid = kill_9_during_a_call(troupe, "w")
        assert troupe.call("mcp__w__echo", {"text": "two"}).text == "two"
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # already reaped: no zombie left for anyone else
    assert child_watch.wait_until_gone() == set()


@pytest.mark.skipif(not stdio.HAS_PIDFD, reason="no pidfd here")
def test_with_pidfd_a_server_costs_three_threads_and_stop_returns_them_all() -> None:
    before = threading.active_count()
    servers = [demo(f"s{index}") for index in range(8)]
    with troupe_of(*servers) as troupe:
        assert troupe.wait_ready(20)
        assert all(status.state is ServerState.READY for status in troupe.status())
        # Supervisor, session and transport actors; no waitpid thread per child. (+2: the loop, the registry.)
        assert threading.active_count() - before <= 3 * len(servers) + 2
    deadline = time.monotonic() + 5
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.02)
    assert threading.active_count() <= before
