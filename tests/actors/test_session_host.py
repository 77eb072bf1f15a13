"""The session's seams into the host (issue 14), driven frame by frame: capabilities in ``initialize``, server
requests answered through ``Host.fulfil``, progress extending a deadline up to ``max_call_time``, and the
2025-11-25 task flow (``params.task`` → ``tasks/get`` → ``tasks/result``; ``tasks/cancel``)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future
from typing import Any

import pytest

from mcp_troupe.actors.loop import Runtime
from mcp_troupe.actors.session import CallRequest
from mcp_troupe.config import ServerConfig, TroupeConfig
from mcp_troupe.errors import CallTimedOut
from mcp_troupe.host import ElicitationRequest, Host, ProgressEvent

from .fakes import ScriptedSession, notification_frame, request_frame, spec_errors, tool

pytestmark = pytest.mark.timeout(20)

FORM = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
TASK_TOOL = tool("research", execution={"taskSupport": "required"})


@pytest.fixture
def progress() -> list[ProgressEvent]:
    return []


@pytest.fixture
def session(runtime: Runtime, progress: list[ProgressEvent]) -> Iterator[ScriptedSession]:
    config = TroupeConfig(
        servers={"scripted": ServerConfig(name="scripted", command="x", timeout=5.0, max_call_time=1.2)}
    )

    def elicit(request: ElicitationRequest) -> dict[str, Any]:
        if request.message == "boom":
            raise RuntimeError("handler broke")
        return {"action": "accept", "content": {"name": "Ada"}}

    host = Host(config, elicitation_handler=elicit, progress_handler=progress.append)
    host.bind(runtime.loop, runtime.emit)
    runtime.host = host
    yield ScriptedSession(runtime, call_timeout=5.0, handshake_timeout=5.0)


def test_initialize_declares_what_the_host_installed(session: ScriptedSession) -> None:
    initialize = session.connect()
    # initialize requests 2025-11-25, whose elicitation capability names its modes.
    assert initialize["params"]["capabilities"] == {"elicitation": {"form": {}, "url": {}}}
    assert spec_errors(initialize, "JSONRPCRequest", "InitializeRequest") == []


def test_a_servers_elicitation_is_answered_by_the_host_and_a_failing_handler_fails_only_it(
    session: ScriptedSession,
) -> None:
    session.handshake()
    session.feed(request_frame(41, "elicitation/create", {"message": "who?", "requestedSchema": FORM}))
    assert session.wire.expect_response(41)["result"] == {"action": "accept", "content": {"name": "Ada"}}
    session.feed(request_frame(42, "elicitation/create", {"message": "boom", "requestedSchema": FORM}))
    error = session.wire.expect_response(42)["error"]
    assert error["code"] == -32603 and "RuntimeError" in error["message"]
    session.feed(request_frame(43, "roots/list"))  # not declared: -32601, as without a host
    assert session.wire.expect_response(43)["error"]["code"] == -32601


def test_progress_extends_the_deadline_up_to_max_call_time(
    session: ScriptedSession, progress: list[ProgressEvent]
) -> None:
    session.handshake()
    future, request = call(session, "echo", timeout=0.4)
    token = request["params"]["_meta"]["progressToken"]
    assert token == request["id"]
    started = time.monotonic()
    for step in range(1, 10):  # every 0.2 s, for longer than max_call_time (1.2 s)
        time.sleep(0.2)
        session.feed(notification_frame("notifications/progress", {"progressToken": token, "progress": step}))
        if future.done():
            break
    with pytest.raises(CallTimedOut):
        future.result(timeout=3)
    assert 1.1 <= time.monotonic() - started < 2.5
    cancelled = session.wire.expect_notification("notifications/cancelled")
    assert cancelled["params"]["requestId"] == request["id"]
    assert [event.progress for event in progress][:3] == [1.0, 2.0, 3.0]
    assert progress[0].tool == "echo" and progress[0].server == "scripted"


def test_a_server_cancelling_its_request_stops_the_handler_without_an_answer(runtime: Runtime) -> None:
    release = threading.Event()
    config = TroupeConfig(servers={"scripted": ServerConfig(name="scripted", command="x")})
    host = Host(config, elicitation_handler=lambda request: release.wait(10) and {"action": "cancel"})
    host.bind(runtime.loop, runtime.emit)
    runtime.host = host
    session = ScriptedSession(runtime)
    try:
        session.handshake()
        session.feed(request_frame(7, "elicitation/create", {"message": "m", "requestedSchema": FORM}))
        session.barrier()
        session.feed(notification_frame("notifications/cancelled", {"requestId": 7}))
        session.barrier()
        release.set()
        time.sleep(0.3)
        session.barrier()
        assert [m for m in session.wire.unconsumed() if m.get("id") == 7] == []
    finally:
        release.set()


def call(
    session: ScriptedSession, name: str, timeout: float | None = None
) -> tuple[Future[Any], dict[str, Any]]:
    """Send a tools/call; return its future and the request as sent (with our _meta and task added)."""
    future: Future[Any] = Future()
    session.ref.tell(CallRequest("tools/call", {"name": name, "arguments": {}}, future, timeout))
    return future, session.wire.expect_request("tools/call", where=lambda m: m["params"]["name"] == name)


def wait_until(condition: Any, timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return bool(condition())
