"""When a caller sees ConnectionLost, the registry already knows (issue: one connection core, consistency).

A sub-agent is promised that ``tools(ready_only=True)`` never lists a dead server's tools: the instant a call
fails because its server died, the ready list and ``status()`` must already agree.
"""

from __future__ import annotations

import os
import signal
import time

import pytest
from tests.faults.test_faults import demo, status_of, troupe_of, wait_for

from mcp_troupe import ConnectionLost, ServerState

pytestmark = [pytest.mark.faults]

ROUNDS = 6


@pytest.mark.timeout(90)
def test_the_ready_list_and_status_never_show_a_server_whose_call_just_failed_with_connection_lost() -> None:
    with troupe_of(demo("victim"), demo("bystander")) as troupe:
        assert troupe.wait_ready(timeout=20)
        for incarnation in range(1, ROUNDS + 1):
            wait_for(
                troupe, "victim", lambda s, n=incarnation: s.state is ServerState.READY and s.incarnation == n
            )
            pid = status_of(troupe, "victim").pid
            assert pid is not None
            # Twice: once on the actors' path (first call of the tool), then on the fast path.
            handle = troupe.submit("mcp__victim__sleep", {"seconds": 30})
            time.sleep(0.1)
            os.kill(pid, signal.SIGKILL)
            with pytest.raises(ConnectionLost):
                handle.result(timeout=5)
            # The very next questions, with no wait in between.
            ready = {spec.name for spec in troupe.tools(ready_only=True)}
            (victim,) = [s for s in troupe.status() if s.name == "victim"]
            assert not any(name.startswith("mcp__victim__") for name in ready), ready
            assert victim.state is not ServerState.READY, victim
            assert "mcp__bystander__echo" in ready
        assert troupe.call("mcp__bystander__echo", {"text": "still here"}).text == "still here"
