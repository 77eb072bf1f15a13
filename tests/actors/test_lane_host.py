"""The lane's seams into the host (issue 14): progress tokens, progress extending a deadline up to
``max_call_time``, progress reaching the host, (tasks are not ported onto the connection core yet)."""

from __future__ import annotations

import time
from concurrent.futures import Future
from typing import Any

import pytest

from mcp_troupe.actors.lane import CallLane
from mcp_troupe.actors.loop import Runtime
from mcp_troupe.config import ServerConfig, TroupeConfig
from mcp_troupe.errors import CallTimedOut
from mcp_troupe.host import Host, ProgressEvent

from .fakes import ProbeHandle, notification_frame, result_frame, start_probe
from .test_lane import CONTEXT, Wire

pytestmark = pytest.mark.timeout(20)


@pytest.fixture
def progress() -> list[ProgressEvent]:
    return []


@pytest.fixture
def lane(runtime: Runtime, progress: list[ProgressEvent]) -> tuple[CallLane, Wire, ProbeHandle]:
    session = start_probe(runtime, "session")
    wire = Wire()
    config = TroupeConfig(servers={"srv": ServerConfig(name="srv", command="x", max_call_time=1.0)})
    host = Host(config, progress_handler=progress.append)
    host.bind(runtime.loop, runtime.emit)
    lane = CallLane(server="srv", incarnation=3, session=session.ref, loop=runtime.loop, send=wire.send)
    lane.attach_host(host)
    lane.open(call_timeout=5.0)
    return lane, wire, session


def progress_frame(token: int, value: float) -> bytes:
    return notification_frame(
        "notifications/progress", {"progressToken": token, "progress": value, "total": 9}
    )


def test_progress_extends_a_lane_call_to_max_call_time_and_reaches_the_host(
    lane: tuple[CallLane, Wire, ProbeHandle], progress: list[ProgressEvent]
) -> None:
    call_lane, wire, session = lane
    future: Future[Any] = Future()
    request_id = call_lane.call("slow", {}, future, CONTEXT, timeout=0.3)
    assert request_id is not None
    (sent,) = wire.wait_for(1)
    assert sent["params"]["_meta"] == {"progressToken": request_id}
    started = time.monotonic()
    for step in range(1, 9):
        time.sleep(0.15)
        call_lane.receive([progress_frame(request_id, step)])
        if future.done():
            break
    with pytest.raises(CallTimedOut):
        future.result(timeout=3)
    assert 0.9 <= time.monotonic() - started < 2.0  # not 0.3 (the timeout), not 1.35 (eight steps)
    deadline = time.monotonic() + 3
    while len(progress) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [(e.tool, e.progress, e.total) for e in progress[:3]] == [
        ("slow", 1.0, 9.0),
        ("slow", 2.0, 9.0),
        ("slow", 3.0, 9.0),
    ]
    # The lane consumed its pending call's progress; only what came after the timeout reached the session.
    session.assert_none(
        object, lambda received: any(item.params["progress"] <= 3 for item in getattr(received, "items", []))
    )


def test_an_answer_after_progress_completes_the_call(lane: tuple[CallLane, Wire, ProbeHandle]) -> None:
    call_lane, _wire, _session = lane
    future: Future[Any] = Future()
    request_id = call_lane.call("slow", {}, future, CONTEXT, timeout=0.3)
    assert request_id is not None
    time.sleep(0.2)
    call_lane.receive([progress_frame(request_id, 1)])
    time.sleep(0.2)  # past the first deadline, within the extended one
    call_lane.receive([result_frame(request_id, {"content": []})])
    assert future.result(timeout=3) == ({"content": []}, CONTEXT)
