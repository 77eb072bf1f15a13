"""The 2026-07-28 tasks extension end to end: a real :class:`Troupe` against ``servers/sdk_tasks.py``
(the official SDK's transport, modern handshake and extension interface, serving the tasks extension).

The server answers every call of its task tools with a task handle the client never asked for (the extension
lets the server alone decide), so this checks the declaration, the polling, ``tasks/update`` answered through
the elicitation handler, a failed task, and a cancel that reaches the server as ``tasks/cancel``.
"""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcp_troupe import CallCancelled, ConnectionLost, RemoteError, ServerState, Troupe, TroupeConfig
from mcp_troupe.config import ServerConfig, stdio_server
from mcp_troupe.host import ElicitationRequest

pytestmark = [pytest.mark.interop, pytest.mark.timeout(60)]

asked: list[ElicitationRequest] = []
UI = {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}
"""An MCP Apps host's declaration, beside the tasks extension the troupe declares itself."""


def name_yourself(request: ElicitationRequest) -> dict[str, Any]:
    asked.append(request)
    return {"action": "accept", "content": {"name": "Ada"}}


@pytest.fixture(scope="module", params=["stdio", "http"])
def troupe(request: pytest.FixtureRequest, python: str, servers_dir: Path) -> Iterator[Troupe]:
    script = str(servers_dir / "sdk_tasks.py")
    process: subprocess.Popen[str] | None = None
    if request.param == "stdio":
        server = stdio_server("tasks", python, script)
    else:
        # Stops when its stdin closes, so a test that dies cannot leave it behind.
        process = subprocess.Popen(
            [python, script, "--http"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert process.stdout is not None
        port = process.stdout.readline().strip()
        assert port.isdigit(), f"the tasks server did not start (printed {port!r})"
        server = ServerConfig(
            name="tasks", url=f"http://127.0.0.1:{port}/mcp", timeout=30, connect_timeout=15
        )
    try:
        config = TroupeConfig(approval_mode="auto", servers={"tasks": server}, network_policy="allow")
        with Troupe(config, elicitation_handler=name_yourself, extensions=UI) as troupe:
            troupe.wait_ready(timeout=30)
            (status,) = troupe.status()
            assert status.state is ServerState.READY, status.last_error
            assert status.protocol_version == "2026-07-28"
            yield troupe
    finally:
        if process is not None:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.close()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
            process.stdout.close()


def is_http(troupe: Troupe) -> bool:
    return troupe.config.servers["tasks"].url is not None


def journal(troupe: Troupe) -> list[str]:
    return troupe.call("mcp__tasks__journal", {}, timeout=10).text.splitlines()


def test_the_hosts_extensions_are_declared_on_each_request_beside_the_tasks_one(troupe: Troupe) -> None:
    declared = troupe.call("mcp__tasks__declared_extensions", {}, timeout=10).text.splitlines()

    assert declared == ["io.modelcontextprotocol/tasks", "io.modelcontextprotocol/ui"]


def test_an_unsolicited_task_is_polled_fed_its_input_through_tasks_update_and_finished(
    troupe: Troupe,
) -> None:
    asked.clear()
    handle = troupe.submit("mcp__tasks__hello", {}, timeout=20)
    result = handle.result()
    assert result.text == "Hello, Ada!" and not result.is_error
    assert [request.message for request in asked] == ["Please enter your name."]
    task_id = handle.task_id
    assert task_id is not None
    received = journal(troupe)
    assert f"tasks/update {task_id} ['name']" in received
    assert sum(line.startswith("tasks/update") for line in received) == 1  # each key answered once
    assert f"tasks/get {task_id}" in received
    if is_http(troupe):
        # spec: ext-tasks — tasks/get, tasks/update and tasks/cancel carry Mcp-Name: <taskId>.
        assert f"header tasks/get {task_id}" in received and f"header tasks/update {task_id}" in received
    statuses = [
        e.detail for e in troupe.events(timeout=0.3, history=True) if e.kind == "task" and task_id in e.detail
    ]
    assert [detail.rsplit(": ", 1)[1] for detail in statuses] == [
        "working",
        "input_required",
        "working",
        "completed",
    ]


def test_a_failed_task_raises_its_json_rpc_error(troupe: Troupe) -> None:
    with pytest.raises(RemoteError, match="backend down") as caught:
        troupe.call("mcp__tasks__broken", {}, timeout=20)
    assert caught.value.code == -32603


def test_cancelling_the_handle_sends_tasks_cancel_and_the_connection_goes_on(troupe: Troupe) -> None:
    handle = troupe.submit("mcp__tasks__sleepy", {"seconds": 30}, timeout=40)
    deadline = time.monotonic() + 10
    while handle.task_id is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert handle.task_id is not None
    assert handle.cancel()
    with pytest.raises(CallCancelled):
        handle.result(timeout=5)
    deadline = time.monotonic() + 5
    while f"tasks/cancel {handle.task_id}" not in journal(troupe) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert f"tasks/cancel {handle.task_id}" in journal(troupe)
    assert troupe.call("mcp__tasks__sleepy", {"seconds": 0.2}, timeout=20).text == "slept 0.2"


def test_cancelling_an_acall_cancels_its_task_on_the_server(troupe: Troupe) -> None:
    if is_http(troupe):
        pytest.skip("the transport plays no part in an acall's cancel: stdio covers it")

    async def run() -> None:
        call = asyncio.create_task(troupe.acall("mcp__tasks__sleepy", {"seconds": 30}, timeout=40))
        await asyncio.sleep(1.0)  # long enough for the server to name the task
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call

    before = sum(line.startswith("tasks/cancel") for line in journal(troupe))
    asyncio.run(run())
    deadline = time.monotonic() + 5
    while sum(line.startswith("tasks/cancel") for line in journal(troupe)) == before:
        assert time.monotonic() < deadline, "no tasks/cancel reached the server"
        time.sleep(0.05)


def test_the_server_dying_mid_task_fails_the_call_at_once_and_the_troupe_reconnects(troupe: Troupe) -> None:
    if is_http(troupe):
        pytest.skip("the HTTP server process is this module's fixture; the stdio one is restarted by us")
    (before,) = troupe.status()
    started = time.monotonic()
    with pytest.raises(ConnectionLost):
        troupe.call("mcp__tasks__crash", {}, timeout=20)
    assert time.monotonic() - started < 5.0  # at the death, not at the timeout
    deadline = time.monotonic() + 30
    while True:
        (status,) = troupe.status()
        if status.state is ServerState.READY and status.incarnation > before.incarnation:
            break
        assert time.monotonic() < deadline, status
        time.sleep(0.05)
    assert troupe.call("mcp__tasks__sleepy", {"seconds": 0.1}, timeout=20).text == "slept 0.1"
