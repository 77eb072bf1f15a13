"""RegistryActor, fed scripted supervisor reports, with probes as its supervisors and as the sessions.

The registry owns the tool table: it rebuilds it through policy whenever a catalog arrives, routes calls to
the current session of a ready server, and drops reports from stale incarnations (DESIGN §2 rules 3 and 8).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, TypeVar

import pykka
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_troupe.actors import stop_wave
from mcp_troupe.actors.lane import CallLane, RouteBoard
from mcp_troupe.actors.loop import IoLoop, Runtime
from mcp_troupe.actors.registry import (
    CallTool,
    CancelToolCall,
    GetStatus,
    ListTools,
    RegistryActor,
    Restart,
    Shutdown,
    Stop,
    WhenSettled,
)
from mcp_troupe.actors.session import CallRequest, CancelCall
from mcp_troupe.actors.stop_wave import STOP_WAVE_WIDTH
from mcp_troupe.actors.supervisor import (
    RestartServer,
    ServerCatalog,
    ServerDown,
    ServerUp,
    StartServer,
    StatusChanged,
    StopServer,
)
from mcp_troupe.config import ReconnectPolicy, ServerConfig, TroupeConfig, stdio_server
from mcp_troupe.errors import ServerNotReady, TroupeClosed, UnknownServer, UnknownTool
from mcp_troupe.policy.names import assign_names
from mcp_troupe.protocol.mcp import ToolDefinition, parse_tool
from mcp_troupe.types import ServerState, ServerStatus, ToolSpec

from .fakes import DEFAULT_WAIT, ProbeHandle, start_probe, tool

T = TypeVar("T")


class RegistryUnderTest:
    """A RegistryActor whose supervisors are probes, one per configured server."""

    def __init__(self, runtime: Runtime, servers: Sequence[str]) -> None:
        self.runtime = runtime
        self.config = TroupeConfig(
            approval_mode="auto",  # approval has its own tests (tests/faults/test_policy.py)
            servers={name: stdio_server(name, "unused-command") for name in servers},
            reconnect=ReconnectPolicy(),
        )
        self.supervisors: dict[str, ProbeHandle] = {}
        self._told_to_report_to: list[pykka.ActorRef[Any]] = []
        self._lock = threading.Lock()
        self.board = RouteBoard()
        self.ref = runtime.track(
            RegistryActor.start(
                config=self.config,
                runtime=runtime,
                supervisor_factory=self._start_supervisor,
                board=self.board,
            )
        )
        self.status()  # a barrier: on_start, which starts the supervisors, has run
        assert self._told_to_report_to == [self.ref] * len(servers)

    def _start_supervisor(
        self,
        *,
        config: ServerConfig,
        reconnect: ReconnectPolicy,
        registry: pykka.ActorRef[Any],
        runtime: Runtime,
    ) -> pykka.ActorRef[Any]:
        # Runs on the registry's thread, in on_start, possibly before start() has returned its ref.
        assert runtime is self.runtime and reconnect == self.config.reconnect
        handle = start_probe(runtime, f"supervisor of {config.name}")
        with self._lock:
            self.supervisors[config.name] = handle
            self._told_to_report_to.append(registry)
        return handle.ref

    def ask(self, make: Callable[[Future[T]], object]) -> T:
        """Tell the message ``make(reply_to)`` and return what the registry replies."""
        reply_to: Future[T] = Future()
        self.ref.tell(make(reply_to))
        return reply_to.result(timeout=DEFAULT_WAIT)

    def tools(self, ready_only: bool = False) -> list[ToolSpec]:
        return self.ask(lambda reply_to: ListTools(reply_to, ready_only))

    def status(self) -> list[ServerStatus]:
        return self.ask(GetStatus)

    def call(
        self, name: str, arguments: dict[str, Any] | None = None, timeout: float | None = None
    ) -> Future[Any]:
        future: Future[Any] = Future()
        self.ref.tell(CallTool(name, arguments, future, timeout))
        return future

    def up(
        self,
        server: str,
        incarnation: int,
        session: ProbeHandle,
        *tool_names: str,
        lane: CallLane | None = None,
    ) -> None:
        catalog = ServerCatalog(server, incarnation, definitions(*tool_names), ())
        self.ref.tell(ServerUp(server, incarnation, session.ref, catalog, lane=lane))
        self.wait_judged(server)

    def wait_judged(self, server: str) -> None:
        """Wait until every tool of ``server``'s catalog is judged: the registry judges a catalog in slices
        and answers messages between them, so a listing asked meanwhile may hold only the tools judged so far
        (the first scan of a process, which loads the rules and the scorer, can outlast a slice)."""
        deadline = time.monotonic() + DEFAULT_WAIT
        while True:
            (status,) = [status for status in self.status() if status.name == server]
            if status.unjudged == 0:
                return
            assert time.monotonic() < deadline, f"{server}: {status.unjudged} tools still unjudged"
            time.sleep(0.005)


def definitions(*names: str) -> tuple[ToolDefinition, ...]:
    return tuple(parse_tool(tool(name)) for name in names)


def routes_of(table: RegistryActor) -> dict[str, tuple[str, str]]:
    """Every qualified name of ``table`` → the (server, tool) its calls are routed to."""
    routes = {}
    for qualified in table._table:
        route = table._route_of(qualified)
        assert route is not None
        routes[qualified] = (route.server, route.original_name)
    return routes


def by_name(specs: list[ToolSpec]) -> dict[str, ToolSpec]:
    return {spec.name: spec for spec in specs}


@pytest.fixture
def registry(runtime: Runtime) -> RegistryUnderTest:
    return RegistryUnderTest(runtime, ["alpha", "beta"])


@pytest.fixture
def session(runtime: Runtime) -> ProbeHandle:
    return start_probe(runtime, "session")


# ---- the table ---------------------------------------------------------------------------------------------


@pytest.mark.timeout(15)
def test_every_enabled_server_gets_a_supervisor_told_to_start(registry: RegistryUnderTest) -> None:
    assert sorted(registry.supervisors) == ["alpha", "beta"]
    for supervisor in registry.supervisors.values():
        supervisor.expect(StartServer)
    assert [(s.name, s.state) for s in registry.status()] == [
        ("alpha", ServerState.CONNECTING),
        ("beta", ServerState.CONNECTING),
    ]


@pytest.mark.timeout(15)
def test_tools_of_a_ready_server_are_listed_under_qualified_names(
    registry: RegistryUnderTest, session: ProbeHandle
) -> None:
    registry.up("alpha", 1, session, "echo", "read.file")

    specs = by_name(registry.tools())

    assert sorted(specs) == ["mcp__alpha__echo", "mcp__alpha__read_file"]
    read = specs["mcp__alpha__read_file"]
    assert (read.original_name, read.server, read.ready) == ("read.file", "alpha", True)
    assert sorted(by_name(registry.tools(ready_only=True))) == sorted(specs)


@pytest.mark.timeout(15)
def test_a_call_reaches_the_session_with_the_original_tool_name(
    registry: RegistryUnderTest, session: ProbeHandle
) -> None:
    registry.up("alpha", 1, session, "read.file")

    future = registry.call("mcp__alpha__read_file", {"path": "README.md"}, timeout=3.5)

    request = session.expect(CallRequest)
    assert request.method == "tools/call"
    assert request.params == {"name": "read.file", "arguments": {"path": "README.md"}}
    assert request.reply_to is future
    assert request.timeout == 3.5


@pytest.mark.timeout(15)
def test_calling_a_tool_of_a_down_server_fails_at_once_with_server_not_ready(
    registry: RegistryUnderTest, session: ProbeHandle
) -> None:
    registry.up("alpha", 1, session, "echo")
    registry.ref.tell(ServerDown("alpha", 1, unregister=False))

    future = registry.call("mcp__alpha__echo", {})

    error = future.exception(timeout=DEFAULT_WAIT)
    assert isinstance(error, ServerNotReady)
    assert error.server == "alpha"
    assert [(s.name, s.ready) for s in registry.tools()] == [("mcp__alpha__echo", False)]
    assert registry.tools(ready_only=True) == []
    session.assert_none(CallRequest)


@pytest.mark.timeout(15)
def test_calling_an_unknown_tool_fails_with_unknown_tool(
    registry: RegistryUnderTest, session: ProbeHandle
) -> None:
    registry.up("alpha", 1, session, "echo")

    future = registry.call("mcp__alpha__nope", {})

    error = future.exception(timeout=DEFAULT_WAIT)
    assert isinstance(error, UnknownTool)
    assert error.name == "mcp__alpha__nope"
    session.assert_none(CallRequest)


@pytest.mark.timeout(15)
def test_a_stale_server_up_or_catalog_is_dropped(registry: RegistryUnderTest, runtime: Runtime) -> None:
    old_session = start_probe(runtime, "old session")
    new_session = start_probe(runtime, "new session")
    registry.up("alpha", 2, new_session, "current")

    registry.up("alpha", 1, old_session, "stale_up")
    registry.ref.tell(ServerCatalog("alpha", 1, definitions("stale_catalog"), ()))

    assert [s.name for s in registry.tools()] == ["mcp__alpha__current"]
    registry.call("mcp__alpha__current", {})
    assert new_session.expect(CallRequest).params == {"name": "current", "arguments": {}}
    old_session.assert_none(CallRequest)
    # The current incarnation's catalog is taken.
    registry.ref.tell(ServerCatalog("alpha", 2, definitions("current", "added"), ()))
    assert [s.name for s in registry.tools()] == ["mcp__alpha__current", "mcp__alpha__added"]


@pytest.mark.timeout(15)
def test_a_stale_server_down_keeps_the_current_session(
    registry: RegistryUnderTest, session: ProbeHandle
) -> None:
    registry.up("alpha", 2, session, "echo")

    registry.ref.tell(ServerDown("alpha", 1, unregister=True))

    assert [(s.name, s.ready) for s in registry.tools()] == [("mcp__alpha__echo", True)]


@pytest.mark.timeout(15)
def test_a_same_batch_collision_rejects_both_tools(registry: RegistryUnderTest, session: ProbeHandle) -> None:
    registry.up("alpha", 1, session, "a.b", "a_b", "fine")

    assert [s.name for s in registry.tools()] == ["mcp__alpha__fine"]
    alpha = next(s for s in registry.status() if s.name == "alpha")
    assert sorted(alpha.rejected) == ["a.b", "a_b"]
    assert all("collides" in reason for reason in alpha.rejected.values())
    assert alpha.tool_count == 1
    error = registry.call("mcp__alpha__a_b", {}).exception(timeout=DEFAULT_WAIT)
    assert isinstance(error, UnknownTool)
    assert "rejected" in str(error)


@pytest.mark.timeout(15)
def test_an_unknown_tool_is_not_mistaken_for_a_rejected_one_with_a_similar_name(
    registry: RegistryUnderTest, session: ProbeHandle
) -> None:
    registry.up("alpha", 1, session, "a.b", "a_b")

    error = registry.call("mcp__alpha__a", {}).exception(timeout=DEFAULT_WAIT)

    assert isinstance(error, UnknownTool)
    assert "rejected" not in str(error)


@pytest.mark.timeout(15)
def test_a_cross_server_collision_comes_undone_when_one_side_leaves(runtime: Runtime) -> None:
    registry = RegistryUnderTest(runtime, ["a", "a__b"])
    first, second = start_probe(runtime, "session a"), start_probe(runtime, "session a__b")
    registry.up("a", 1, first, "b__c")
    registry.up("a__b", 1, second, "c")
    assert registry.tools() == []

    registry.ref.tell(ServerDown("a", 1, unregister=True))

    assert [(s.name, s.server) for s in registry.tools()] == [("mcp__a__b__c", "a__b")]


@pytest.mark.timeout(15)
def test_server_down_with_unregister_removes_the_servers_tools(
    runtime: Runtime, registry: RegistryUnderTest
) -> None:
    registry.up("alpha", 1, start_probe(runtime, "alpha session"), "echo")
    registry.up("beta", 4, start_probe(runtime, "beta session"), "echo")

    registry.ref.tell(ServerDown("alpha", 1, unregister=True))

    assert [s.name for s in registry.tools()] == ["mcp__beta__echo"]
    error = registry.call("mcp__alpha__echo", {}).exception(timeout=DEFAULT_WAIT)
    assert isinstance(error, UnknownTool)


# ---- cancellation, operator commands, settling -------------------------------------------------------------


@pytest.mark.timeout(15)
def test_cancel_tool_call_is_forwarded_to_the_session(
    registry: RegistryUnderTest, session: ProbeHandle
) -> None:
    registry.up("alpha", 1, session, "echo")
    future = registry.call("mcp__alpha__echo", {})
    session.expect(CallRequest)

    registry.ref.tell(CancelToolCall("mcp__alpha__echo", future, "the user pressed stop"))

    cancel = session.expect(CancelCall)
    assert cancel.reply_to is future
    assert cancel.reason == "the user pressed stop"


@pytest.mark.timeout(15)
def test_restart_goes_to_that_servers_supervisor_only(registry: RegistryUnderTest) -> None:
    done: Future[None] = Future()

    registry.ref.tell(Restart("beta", done))

    command = registry.supervisors["beta"].expect(RestartServer)
    assert command.reply_to is done
    registry.supervisors["alpha"].assert_none(RestartServer)
    failed: Future[None] = Future()
    registry.ref.tell(Stop("gamma", failed))
    error = failed.exception(timeout=DEFAULT_WAIT)
    assert isinstance(error, UnknownServer)
    assert error.known == ("alpha", "beta")


@pytest.mark.timeout(15)
def test_when_settled_completes_once_every_server_is_ready_or_failed(registry: RegistryUnderTest) -> None:
    settled: Future[None] = Future()
    registry.ref.tell(WhenSettled(settled))
    registry.ref.tell(StatusChanged(ServerStatus("alpha", "stdio", ServerState.READY, incarnation=1)))
    registry.status()
    assert not settled.done()

    registry.ref.tell(StatusChanged(ServerStatus("beta", "stdio", ServerState.FAILED, incarnation=3)))

    settled.result(timeout=DEFAULT_WAIT)


@pytest.mark.timeout(15)
def test_the_status_a_server_up_carries_is_applied_after_its_catalog(registry: RegistryUnderTest) -> None:
    # The supervisor sends its ready status inside ServerUp (one registry message a connect, issue 18): it
    # counts as a StatusChanged handled right after the catalog, and a stale one is dropped the same way.
    settled: Future[None] = Future()
    registry.ref.tell(WhenSettled(settled))
    registry.ref.tell(StatusChanged(ServerStatus("beta", "stdio", ServerState.FAILED, incarnation=1)))
    session = start_probe(registry.runtime, "alpha session")
    ready = ServerStatus("alpha", "stdio", ServerState.READY, incarnation=2, pid=4321)
    catalog = ServerCatalog("alpha", 2, definitions("read"), ())
    registry.ref.tell(ServerUp("alpha", 2, session.ref, catalog, status=ready))

    settled.result(timeout=DEFAULT_WAIT)
    (alpha,) = [status for status in registry.status() if status.name == "alpha"]
    assert (alpha.state, alpha.incarnation, alpha.pid) == (ServerState.READY, 2, 4321)
    stale = ServerStatus("alpha", "stdio", ServerState.READY, incarnation=1, pid=1)
    registry.ref.tell(ServerUp("alpha", 1, session.ref, ServerCatalog("alpha", 1, (), ()), status=stale))
    (alpha,) = [status for status in registry.status() if status.name == "alpha"]
    assert (alpha.incarnation, alpha.pid) == (2, 4321)


@pytest.mark.timeout(15)
def test_when_settled_waits_for_a_server_that_went_back_to_connecting(runtime: Runtime) -> None:
    # The settle check resumes its scan where it stopped last time; a server behind that point that leaves
    # a settled state must still hold the wait up.
    registry = RegistryUnderTest(runtime, ["alpha", "beta", "gamma"])
    settled: Future[None] = Future()
    registry.ref.tell(WhenSettled(settled))
    for name in ("alpha", "gamma"):
        registry.ref.tell(StatusChanged(ServerStatus(name, "stdio", ServerState.READY, incarnation=1)))
    registry.status()
    assert not settled.done()  # beta holds it up: the scan stops there
    registry.ref.tell(StatusChanged(ServerStatus("alpha", "stdio", ServerState.CONNECTING, incarnation=2)))
    registry.ref.tell(StatusChanged(ServerStatus("beta", "stdio", ServerState.READY, incarnation=1)))
    registry.status()
    assert not settled.done()  # alpha reconnects now

    registry.ref.tell(StatusChanged(ServerStatus("alpha", "stdio", ServerState.READY, incarnation=2)))

    settled.result(timeout=DEFAULT_WAIT)


# ---- shutdown ----------------------------------------------------------------------------------------------


@pytest.mark.timeout(15)
def test_shutdown_empties_the_table_first_then_stops_every_supervisor(
    registry: RegistryUnderTest, session: ProbeHandle
) -> None:
    registry.up("alpha", 1, session, "echo")
    assert registry.tools() != []
    done: Future[None] = Future()

    registry.ref.tell(Shutdown(done))

    assert registry.tools() == []
    stops = {name: supervisor.expect(StopServer) for name, supervisor in registry.supervisors.items()}
    assert sorted(stops) == ["alpha", "beta"]
    assert isinstance(registry.call("mcp__alpha__echo", {}).exception(timeout=DEFAULT_WAIT), TroupeClosed)
    stops["alpha"].reply_to.set_result(None)
    assert not done.done(), "shutdown completes only when every supervisor has stopped"
    stops["beta"].reply_to.set_result(None)
    done.result(timeout=DEFAULT_WAIT)
    session.assert_none(CallRequest)


@pytest.mark.timeout(20)
def test_shutdown_tells_the_supervisors_a_window_at_a_time_each_acceptance_letting_the_next_go(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (No place is given away for lateness here: this test is about acceptances.)
    monkeypatch.setattr(stop_wave, "ACCEPT_LIMIT", 60.0)
    # Thousands of supervisors woken at once starve the I/O loop that carries the closes (run 19's 1,000
    # HTTP servers took more than 10 s to close): at most STOP_WAVE_WIDTH handle their stop at once.
    names = [f"s{index:02d}" for index in range(STOP_WAVE_WIDTH + 4)]
    registry = RegistryUnderTest(runtime, names)
    done: Future[None] = Future()

    registry.ref.tell(Shutdown(done))

    first = {name: registry.supervisors[name].expect(StopServer) for name in names[:STOP_WAVE_WIDTH]}
    for name in names[STOP_WAVE_WIDTH:]:
        registry.supervisors[name].assert_none(StopServer)
    for stop in first.values():
        assert stop.accepted is not None
    first[names[0]].accepted.set_result(None)  # type: ignore[union-attr]
    following = registry.supervisors[names[STOP_WAVE_WIDTH]].expect(StopServer)
    registry.supervisors[names[STOP_WAVE_WIDTH + 1]].assert_none(StopServer)
    # Closing (not accepting) is what the reply waits for: every supervisor's close must complete.
    for stop in [*first.values(), following]:
        if stop.accepted is not None and not stop.accepted.done():
            stop.accepted.set_result(None)
    rest = [registry.supervisors[name].expect(StopServer) for name in names[STOP_WAVE_WIDTH + 1 :]]
    for stop in [*first.values(), following, *rest[:-1]]:
        stop.reply_to.set_result(None)
    assert not done.done(), "shutdown completes only when every supervisor has closed"
    rest[-1].reply_to.set_result(None)
    done.result(timeout=DEFAULT_WAIT)


@pytest.mark.timeout(20)
def test_supervisors_that_never_accept_their_stop_hold_back_no_other(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A whole window of stuck supervisors (handlers that never return) must not keep the rest from
    # closing until stop()'s deadline: each stuck place is given away after the wave's acceptance limit.
    monkeypatch.setattr(stop_wave, "ACCEPT_LIMIT", 0.2)
    names = [f"s{index:02d}" for index in range(STOP_WAVE_WIDTH + 4)]
    registry = RegistryUnderTest(runtime, names)
    done: Future[None] = Future()

    registry.ref.tell(Shutdown(done))

    stops = [registry.supervisors[name].expect(StopServer) for name in names]  # nobody accepts
    for stop in stops:
        stop.reply_to.set_result(None)
    done.result(timeout=DEFAULT_WAIT)


@pytest.mark.timeout(15)
def test_a_catalog_arriving_after_shutdown_does_not_bring_tools_back(
    registry: RegistryUnderTest, session: ProbeHandle
) -> None:
    registry.up("alpha", 1, session, "echo")
    registry.ref.tell(Shutdown())

    registry.ref.tell(ServerCatalog("alpha", 1, definitions("echo", "added_late"), ()))

    assert registry.tools() == []


# ---- the fast path: what the registry publishes on the route board ----------------------------------------


def open_lane(runtime: Runtime, session: ProbeHandle, server: str = "alpha") -> CallLane:
    lane = CallLane(
        server=server, incarnation=1, session=session.ref, loop=runtime.loop, send=lambda *_: None
    )
    lane.open(30.0)
    return lane


@pytest.mark.timeout(15)
def test_a_tool_is_cleared_for_its_lane_once_a_call_passed_the_gate(
    registry: RegistryUnderTest, session: ProbeHandle, runtime: Runtime
) -> None:
    lane = open_lane(runtime, session)
    registry.up("alpha", 1, session, "read.file", "other", lane=lane)
    registry.up("beta", 1, start_probe(runtime, "http session"), "fetch")  # no lane: an HTTP server
    assert registry.board.routes == {}

    registry.call("mcp__alpha__read_file", {"path": "x"})
    registry.call("mcp__beta__fetch")
    session.expect(CallRequest)
    registry.status()  # a barrier
    route = registry.board.routes["mcp__alpha__read_file"]
    assert (route.lane, route.original_name, route.context) == (lane, "read.file", (None, "alpha"))
    assert set(registry.board.routes) == {"mcp__alpha__read_file"}


@pytest.mark.timeout(15)
def test_a_relisting_that_changed_nothing_keeps_the_table_and_the_cleared_routes(
    registry: RegistryUnderTest, session: ProbeHandle, runtime: Runtime
) -> None:
    lane = open_lane(runtime, session)
    tools = definitions("one", "two")
    registry.ref.tell(ServerUp("alpha", 1, session.ref, ServerCatalog("alpha", 1, tools, ()), lane=lane))
    registry.call("mcp__alpha__one")
    session.expect(CallRequest)
    before = registry.tools()
    routes = registry.board.routes

    registry.ref.tell(
        ServerCatalog("alpha", 1, tools, ())
    )  # the same definitions, as the session passes them
    assert registry.tools() == before
    assert registry.board.routes is routes and "mcp__alpha__one" in routes

    registry.ref.tell(ServerCatalog("alpha", 1, (tools[0], *definitions("three")), ()))
    assert set(by_name(registry.tools())) == {"mcp__alpha__one", "mcp__alpha__three"}
    assert registry.board.routes == {}  # a new table: every tool earns the fast path again


@pytest.mark.timeout(15)
def test_the_board_is_emptied_when_a_server_goes_down_or_an_operator_acts(
    registry: RegistryUnderTest, session: ProbeHandle, runtime: Runtime
) -> None:
    registry.up("alpha", 1, session, "one", lane=open_lane(runtime, session))
    registry.call("mcp__alpha__one")
    session.expect(CallRequest)
    registry.status()
    assert registry.board.routes
    registry.ref.tell(ServerDown("alpha", 1, unregister=False))
    registry.status()
    assert registry.board.routes == {}

    registry.up("alpha", 2, session, "one", lane=open_lane(runtime, session))
    registry.call("mcp__alpha__one")
    session.expect(CallRequest)
    registry.status()
    assert registry.board.routes
    registry.ref.tell(Restart("alpha", Future()))
    registry.status()
    assert registry.board.routes == {}


# ---- the table is updated one server at a time, and equals naming all catalogs at once ------------------

SERVER_NAMES = ("a", "a__b", "fs", "fs__a", "my.fs", "my_fs")
TOOL_NAMES = ("b__c", "c", "b", "a.b", "a_b", "read", "a__b", "mcp_resources")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(SERVER_NAMES),
            st.none() | st.lists(st.sampled_from(TOOL_NAMES), max_size=5),
        ),
        max_size=12,
    )
)
def test_per_server_updates_end_in_the_table_that_naming_every_catalog_at_once_gives(
    steps: list[tuple[str, list[str] | None]],
) -> None:
    config = TroupeConfig(
        approval_mode="auto", servers={name: stdio_server(name, "unused") for name in SERVER_NAMES}
    )
    table = RegistryActor(config=config, runtime=Runtime(IoLoop()))  # not started: driven directly
    catalogs: dict[str, list[str]] = {}
    for server, names in steps:
        if names is None:
            catalogs.pop(server, None)
            table._servers[server].catalog = None
        else:
            catalogs[server] = names
            table._servers[server].catalog = ServerCatalog(server, 1, definitions(*names), ())
        table._update_server(server)

        batches = {name: catalogs[name] for name in SERVER_NAMES if name in catalogs}
        expected = assign_names(batches, reserved=table.reserved_names)
        accepted = [(v.qualified, v.server, v.tool) for v in expected.values() if v.is_accepted]
        listed = [
            (spec.name, spec.server, spec.original_name) for spec in table._list_tools(ready_only=False)
        ]
        assert listed == [item for item in accepted if item[0].startswith("mcp__")]
        assert routes_of(table) == {q: (s, t) for q, s, t in accepted}
        for name in SERVER_NAMES:
            rejected = {
                v.tool: v.rejected_reason for v in expected.values() if v.server == name and not v.is_accepted
            }
            assert table._rejected_of(name) == rejected


def test_a_tool_the_session_rejected_once_does_not_hide_a_valid_listing_of_the_same_name() -> None:
    # A server that lists "x" twice, once broken (the session rejects that copy) and once valid: the valid
    # one is judged by naming like any other, as before the per-server record.
    config = TroupeConfig(approval_mode="auto", servers={"a": stdio_server("a", "unused")})
    table = RegistryActor(config=config, runtime=Runtime(IoLoop()))  # not started: driven directly
    table._servers["a"].catalog = ServerCatalog("a", 1, definitions("x"), (("x", "invalid inputSchema"),))
    table._update_server("a")

    assert [spec.name for spec in table._list_tools(ready_only=False)] == ["mcp__a__x"]
    assert table._rejected_of("a") == {"x": "invalid inputSchema"}
