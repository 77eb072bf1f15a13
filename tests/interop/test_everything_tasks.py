"""2025-11-25 core tasks against server-everything's ``simulate-research-query`` (``taskSupport: required``),
listed as a tool and driven through the connection core (actors/task_runs.py).

A plain ``call()`` sends the call as a task, polls ``tasks/get`` at the server's ``pollInterval`` and fetches
``tasks/result``; an ambiguous query makes the task ``input_required`` and its elicitation reaches the
host's handler; ``submit()``'s handle names the task and cancels it with ``tasks/cancel``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from tests.interop.npm import node22, npm_bin, require
from tests.interop.test_everything import (
    HTTP_PORT,
    INSIDE_PRIVATE_NETWORK,
    rerun_inside_private_network,
    serving_over_http,
)

from mcp_troupe import CallCancelled, CallTimedOut, ReconnectPolicy, ServerState, Troupe, TroupeConfig
from mcp_troupe.config import ServerConfig, stdio_server
from mcp_troupe.host import ElicitationRequest

pytestmark = [pytest.mark.interop, pytest.mark.timeout(90)]

TOOL = "mcp__everything__simulate-research-query"
asked: list[ElicitationRequest] = []


def clarify(request: ElicitationRequest) -> dict[str, Any]:
    asked.append(request)
    assert request.requested_schema is not None
    first = request.requested_schema["properties"]["interpretation"]["oneOf"][1]["const"]
    return {"action": "accept", "content": {"interpretation": first}}


@pytest.fixture(scope="module")
def everything() -> Iterator[Troupe]:
    node = require(node22(), "Node.js 22")
    script = require(npm_bin("mcp-server-everything"), "the npm command mcp-server-everything")
    config = TroupeConfig(
        approval_mode="auto",
        servers={"everything": stdio_server("everything", str(node), str(script), "stdio")},
        reconnect=ReconnectPolicy(initial_delay=0.1, max_delay=0.5, max_attempts=0),
    )
    with Troupe(config, elicitation_handler=clarify) as troupe:
        troupe.wait_ready(timeout=30)
        (status,) = troupe.status()
        assert status.state is ServerState.READY, status.last_error
        yield troupe


def test_a_task_tool_works_with_a_plain_call_and_its_input_request_reaches_the_handler(
    everything: Troupe,
) -> None:
    asked.clear()
    started = time.monotonic()
    result = everything.call(TOOL, {"topic": "python", "ambiguous": True}, timeout=40)
    elapsed = time.monotonic() - started
    assert not result.is_error
    assert "# Research Report: python (snake)" in result.text
    (request,) = asked
    assert request.server == "everything" and "multiple interpretations" in request.message
    assert 4.0 <= elapsed < 20.0  # four 1 s stages, polled every second (pollInterval 1000)
    statuses = [
        event.detail for event in everything.events(timeout=0.3, history=True) if event.kind == "task"
    ]
    assert any(": input_required" in detail for detail in statuses), statuses
    assert ": completed" in statuses[-1], statuses
    task = statuses[-1].split(" task ", 1)[1].split(":", 1)[0]
    mine = [detail for detail in statuses if f" task {task}:" in detail]
    assert len(mine) == len(set(mine)) >= 3  # one event per change, not per poll


def test_the_handle_names_the_task_and_cancels_it_on_the_server(everything: Troupe) -> None:
    handle = everything.submit(TOOL, {"topic": "tides"}, timeout=40)
    deadline = time.monotonic() + 10
    while handle.task_id is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert handle.task_id is not None
    assert handle.cancel()
    with pytest.raises(CallCancelled):
        handle.result(timeout=10)
    (status,) = everything.status()
    assert status.state is ServerState.READY  # cancelling a task never closes the connection


def test_a_task_that_outlives_the_calls_timeout_is_cancelled_and_times_out(everything: Troupe) -> None:
    started = time.monotonic()
    with pytest.raises(CallTimedOut):
        everything.call(TOOL, {"topic": "slow"}, timeout=1.5)
    assert time.monotonic() - started < 5.0
    (status,) = everything.status()
    assert status.state is ServerState.READY  # a task that timed out never closes the connection


@pytest.mark.slow
def test_a_task_with_an_elicitation_over_streamable_http(request: pytest.FixtureRequest) -> None:
    """Over HTTP the elicitation of an input_required task arrives on the SSE stream of tasks/result."""
    if os.environ.get(INSIDE_PRIVATE_NETWORK) != "1":
        # server-everything's HTTP mode listens on every interface: see tests/interop/test_everything.py.
        rerun_inside_private_network(request.node.nodeid)
        return
    node = require(node22(), "Node.js 22")
    script = require(npm_bin("mcp-server-everything"), "the npm command mcp-server-everything")
    asked.clear()
    with serving_over_http([str(node), str(script), "streamableHttp"], HTTP_PORT):
        server = ServerConfig(name="everything", url=f"http://127.0.0.1:{HTTP_PORT}/mcp", connect_timeout=15)
        config = TroupeConfig(approval_mode="auto", servers={"everything": server}, network_policy="allow")
        with Troupe(config, elicitation_handler=clarify) as troupe:
            assert troupe.wait_ready(timeout=30)
            result = troupe.call(TOOL, {"topic": "python", "ambiguous": True}, timeout=40)
    assert "# Research Report: python (snake)" in result.text
    assert len(asked) == 1
