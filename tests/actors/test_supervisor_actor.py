"""ServerSupervisor against the real demo server over stdio, with a probe in place of the registry.

Its children (a SessionActor and a StdioTransport per incarnation) are real, so the server is the bundled
``python -m mcp_troupe.demo`` with its misbehaviour flags. The probe sees what the registry would: status
snapshots, ``ServerUp`` and ``ServerDown``.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from concurrent.futures import Future
from typing import Any

import pykka
import pytest

from mcp_troupe.actors.loop import Runtime
from mcp_troupe.actors.session import CallRequest, CatalogChanged, SessionFailed, SessionLost, SessionReady
from mcp_troupe.actors.supervisor import (
    RestartServer,
    ServerCatalog,
    ServerDown,
    ServerSupervisor,
    ServerUp,
    StartServer,
    StatusChanged,
    StopServer,
)
from mcp_troupe.config import ReconnectPolicy, ServerConfig, stdio_server
from mcp_troupe.errors import ConnectFailed, ConnectionLost
from mcp_troupe.protocol.mcp import InitializeResult
from mcp_troupe.types import ServerState, ServerStatus
from tests.processes import descendants

from .fakes import ProbeHandle, names_of, start_probe

FAST_RETRIES = ReconnectPolicy(initial_delay=0.05, max_delay=0.2, max_attempts=2)
DEMO_TOOLS = ["echo", "add", "now", "word_count", "sleep", "fail", "get_cancelled", "mutate_tools", "storm"]
# Spawning Python and the handshake take well under a second; allow for a loaded machine.
CONNECT_WAIT = 10.0


def demo_server(name: str, *flags: str, connect_timeout: float = 10.0) -> ServerConfig:
    """The config of the bundled demo server started with ``flags``."""
    return stdio_server(
        name, sys.executable, "-m", "mcp_troupe.demo", *flags, timeout=10.0, connect_timeout=connect_timeout
    )


def start_supervisor(
    runtime: Runtime, config: ServerConfig, policy: ReconnectPolicy = FAST_RETRIES
) -> tuple[pykka.ActorRef[Any], ProbeHandle]:
    """Start a supervisor reporting to a registry probe, and tell it to connect."""
    registry = start_probe(runtime, "registry")
    supervisor = runtime.track(
        ServerSupervisor.start(config=config, reconnect=policy, registry=registry.ref, runtime=runtime)
    )
    supervisor.tell(StartServer())
    return supervisor, registry


def stop_and_wait(supervisor: pykka.ActorRef[Any]) -> None:
    """Stop the server and wait until its transport (and so its process group) is gone."""
    done: Future[None] = Future()
    supervisor.tell(StopServer(done))
    done.result(timeout=CONNECT_WAIT)


def statuses(registry: ProbeHandle) -> list[ServerStatus]:
    """Every status snapshot the registry probe received so far, in order (a ``ServerUp`` carries one)."""
    return [
        message.status
        for message in registry.history
        if isinstance(message, StatusChanged | ServerUp) and message.status is not None
    ]


def collapsed_states(snapshots: list[ServerStatus]) -> list[ServerState]:
    """The states in order, with consecutive repeats folded into one."""
    states: list[ServerState] = []
    for snapshot in snapshots:
        if not states or states[-1] is not snapshot.state:
            states.append(snapshot.state)
    return states


def new_processes(before: set[int]) -> set[int]:
    """Processes below this one (zombies included) that were not there when the test began."""
    return descendants(os.getpid()) - before


@pytest.fixture
def processes_before() -> set[int]:
    """The processes below this one before the test started any."""
    return descendants(os.getpid())


def current_status(supervisor: pykka.ActorRef[Any]) -> ServerStatus:
    status: ServerStatus = supervisor.proxy().status().get(timeout=2.0)
    return status


@pytest.mark.timeout(15)
def test_a_server_that_always_exits_is_retried_with_new_incarnations_then_failed(
    runtime: Runtime, processes_before: set[int]
) -> None:
    supervisor, registry = start_supervisor(runtime, demo_server("crashy", "--exit-at-start", "3"))

    failed = registry.expect(
        StatusChanged, timeout=CONNECT_WAIT, where=lambda m: m.status.state is ServerState.FAILED
    ).status
    down = registry.expect(ServerDown)

    assert down.unregister is True
    assert down.server == "crashy"
    # Every failed attempt counts: the first connect and each of the max_attempts retries.
    assert failed.attempts == FAST_RETRIES.max_attempts + 1
    assert failed.last_error is not None and "exited with code 3" in failed.last_error
    history = statuses(registry)
    assert collapsed_states(history) == [
        ServerState.CONNECTING,
        ServerState.BACKOFF,
        ServerState.CONNECTING,
        ServerState.BACKOFF,
        ServerState.CONNECTING,
        ServerState.FAILED,
    ]
    connecting = [s.incarnation for s in history if s.state is ServerState.CONNECTING and s.incarnation > 0]
    assert sorted(set(connecting)) == [1, 2, 3], "every attempt runs a brand-new incarnation"
    backoff_attempts = sorted({s.attempts for s in history if s.state is ServerState.BACKOFF})
    assert backoff_attempts == [1, 2]
    assert any("exiting at start" in line for line in failed.stderr_tail), failed.stderr_tail
    assert failed.incarnation == down.incarnation == 3
    registry.assert_none(ServerUp)
    stop_and_wait(supervisor)
    assert new_processes(processes_before) == set()


@pytest.mark.timeout(15)
def test_each_failure_is_one_log_line_that_counts_the_retries_and_the_last_says_failed(
    runtime: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    """Before: a warning per attempt that repeated the same words (six in a row for `troupe check`), and
    the last failure said twice, as a warning and then as the error."""
    caplog.set_level(logging.INFO, logger="mcp_troupe.supervisor")
    supervisor, registry = start_supervisor(runtime, demo_server("crashy", "--exit-at-start", "3"))
    registry.expect(StatusChanged, timeout=CONNECT_WAIT, where=lambda m: m.status.state is ServerState.FAILED)
    stop_and_wait(supervisor)

    lines = [
        (record.levelname, record.getMessage())
        for record in caplog.records
        if record.name == "mcp_troupe.supervisor" and record.levelno >= logging.WARNING
    ]
    reason = "connect failed: the server process exited with code 3"
    retries = FAST_RETRIES.max_attempts
    assert [level for level, _ in lines] == ["WARNING"] * retries + ["ERROR"], lines
    for attempt, (_, message) in enumerate(lines[:-1], start=1):
        assert message.startswith(f"server crashy: {reason}; retry {attempt} of {retries} in "), message
    assert lines[-1][1] == (
        f"server crashy: failed after {retries + 1} failed attempts; restart it to try again "
        f"(last error: {reason})"
    )


@pytest.mark.timeout(15)
def test_a_server_that_never_answers_initialize_fails_at_the_connect_timeout(
    runtime: Runtime, processes_before: set[int]
) -> None:
    config = demo_server("mute", "--hang-initialize", connect_timeout=0.5)
    supervisor, registry = start_supervisor(runtime, config, ReconnectPolicy(0.05, 0.2, max_attempts=1))

    failed = registry.expect(
        StatusChanged, timeout=CONNECT_WAIT, where=lambda m: m.status.state is ServerState.FAILED
    ).status

    assert failed.attempts == 2
    assert failed.incarnation == 2
    assert failed.last_error is not None
    assert "initialize" in failed.last_error or "connect_timeout" in failed.last_error
    assert registry.expect(ServerDown).unregister is True
    stop_and_wait(supervisor)
    assert new_processes(processes_before) == set()


@pytest.mark.timeout(15)
def test_a_ready_server_is_reported_up_and_a_restart_brings_a_new_incarnation_up(
    runtime: Runtime, processes_before: set[int]
) -> None:
    supervisor, registry = start_supervisor(runtime, demo_server("demo"))

    up = registry.expect(ServerUp, timeout=CONNECT_WAIT)
    assert (up.server, up.incarnation) == ("demo", 1)
    assert up.catalog.incarnation == 1
    assert names_of(up.catalog.tools) == DEMO_TOOLS
    ready = up.status
    assert ready is not None and ready.state is ServerState.READY and ready.incarnation == 1
    assert ready.pid is not None and ready.protocol_version == "2025-06-18"
    assert ready.pid in new_processes(processes_before)
    # One status a step of the connect and no repeat, the ready one inside ServerUp: two messages to the
    # registry, not four (issue 18); the start itself reports nothing the registry does not assume already
    # (CONNECTING, incarnation 0).
    assert not any(
        isinstance(message, StatusChanged) and message.status.state is ServerState.READY
        for message in registry.history
    )
    assert [(status.state, status.incarnation) for status in statuses(registry)][:2] == [
        (ServerState.CONNECTING, 1),
        (ServerState.READY, 1),
    ]

    restarted: Future[None] = Future()
    supervisor.tell(RestartServer(restarted))
    restarted.result(timeout=CONNECT_WAIT)

    down = registry.expect(ServerDown)
    assert (down.incarnation, down.unregister) == (1, False)
    again = registry.expect(ServerUp, timeout=CONNECT_WAIT)
    assert again.incarnation == 2
    assert again.session != up.session
    assert names_of(again.catalog.tools) == DEMO_TOOLS
    assert up.session.actor_stopped.wait(CONNECT_WAIT), "the old session is stopped"
    second = again.status
    assert second is not None and second.state is ServerState.READY and second.incarnation == 2
    assert second.pid is not None and second.pid != ready.pid
    # The new session takes calls.
    answer: Future[Any] = Future()
    again.session.tell(CallRequest("tools/call", {"name": "echo", "arguments": {"text": "hi"}}, answer, 5.0))
    assert answer.result(timeout=5.0)["content"][0]["text"] == "hi"
    stop_and_wait(supervisor)
    assert new_processes(processes_before) == set()


@pytest.mark.timeout(15)
def test_a_server_lost_at_runtime_is_reported_down_and_reconnected_as_a_new_incarnation(
    runtime: Runtime, processes_before: set[int]
) -> None:
    supervisor, registry = start_supervisor(runtime, demo_server("fragile", "--crash-on-call"))
    up = registry.expect(ServerUp, timeout=CONNECT_WAIT)
    call: Future[Any] = Future()
    started = time.monotonic()

    up.session.tell(CallRequest("tools/call", {"name": "echo", "arguments": {"text": "x"}}, call, 10.0))

    error = call.exception(timeout=CONNECT_WAIT)
    assert isinstance(error, ConnectionLost)
    assert time.monotonic() - started < 5.0, (
        "the pending call fails when the process dies, not at its timeout"
    )
    down = registry.expect(ServerDown)
    assert (down.incarnation, down.unregister) == (up.incarnation, False)
    backoff = registry.expect(StatusChanged, where=lambda m: m.status.state is ServerState.BACKOFF).status
    assert backoff.last_error is not None and "code 3" in backoff.last_error
    again = registry.expect(ServerUp, timeout=CONNECT_WAIT)
    assert again.incarnation > up.incarnation
    assert again.session != up.session
    stop_and_wait(supervisor)
    assert new_processes(processes_before) == set()


@pytest.mark.timeout(15)
def test_reports_from_a_stale_incarnation_change_nothing(runtime: Runtime) -> None:
    supervisor, registry = start_supervisor(runtime, demo_server("demo"))
    first = registry.expect(ServerUp, timeout=CONNECT_WAIT)
    restarted: Future[None] = Future()
    supervisor.tell(RestartServer(restarted))
    restarted.result(timeout=CONNECT_WAIT)
    registry.expect(ServerDown)
    current = registry.expect(ServerUp, timeout=CONNECT_WAIT)
    before = current_status(supervisor)
    assert (before.state, before.incarnation) == (ServerState.READY, current.incarnation)
    assert current.incarnation > first.incarnation
    registry.sync()
    seen = len(registry.history)

    stale = first.incarnation
    supervisor.tell(SessionLost(stale, "an old connection died", ("old stderr",)))
    supervisor.tell(SessionFailed(stale, ConnectFailed("demo", "an old failure")))
    supervisor.tell(CatalogChanged(stale, (), ()))
    supervisor.tell(
        SessionReady(
            incarnation=stale,
            session=first.session,
            info=InitializeResult("2025-06-18", {}, {}),
            tools=(),
            rejected=(),
            pid=1,
            session_id=None,
        )
    )
    after = current_status(supervisor)

    assert after == before
    registry.sync()
    assert registry.history[seen:] == [], "the registry must hear nothing about a stale incarnation"
    registry.assert_none(ServerDown)
    registry.assert_none(ServerCatalog)
    stop_and_wait(supervisor)


@pytest.mark.timeout(15)
def test_a_session_told_connect_still_opens_a_transport_started_without_open_at_start(
    runtime: Runtime, processes_before: set[int]
) -> None:
    # The supervisor has its stdio transports open themselves as they start (no Connect/Open hop through
    # the session, issue 18); a driver that starts the two itself still connects with Connect -> Open.
    from mcp_troupe.actors.session import Close, Connect, SessionActor
    from mcp_troupe.actors.stdio import StdioTransport
    from mcp_troupe.actors.transport import CloseTransport

    supervisor = start_probe(runtime, "supervisor")
    config = demo_server("manual")
    session = runtime.track(
        SessionActor.start(
            server="manual",
            incarnation=1,
            supervisor=supervisor.ref,
            runtime=runtime,
            call_timeout=10.0,
            handshake_timeout=10.0,
        )
    )
    transport = runtime.track(
        StdioTransport.start(config=config, incarnation=1, session=session, runtime=runtime)
    )
    time.sleep(0.1)
    assert new_processes(processes_before) == set(), "it waits for Open"
    session.tell(Connect(transport))
    ready = supervisor.expect(SessionReady, timeout=CONNECT_WAIT)
    assert names_of(ready.tools) == DEMO_TOOLS and ready.pid in new_processes(processes_before)
    session.tell(Close("done"))
    closed: Future[tuple[str, ...]] = Future()
    transport.tell(CloseTransport(closed, 2.0))
    closed.result(timeout=CONNECT_WAIT)
    assert new_processes(processes_before) == set()
