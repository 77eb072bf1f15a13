"""mcp-troupe against the official MCP Python SDK's Streamable HTTP server.

The servers are the ones the stdio interop tests use (``servers/sdk_tools.py``, ``servers/sdk_paged.py``),
served over Streamable HTTP by the SDK's own app (``streamable_http_app``) under uvicorn, in a subprocess on
127.0.0.1: in SSE mode and in JSON-response mode (``json_response=True``), stateful and stateless
(``stateless_http=True``). Each test connects through the public ``Troupe`` API with ``networkPolicy: allow``.

This module is also the server launcher: ``python tests/interop/test_sdk_http.py [--json] [--stateless]
[--paged] [--port N]`` prints the port it listens on, then serves until killed.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from mcp_troupe import CallTimedOut, ReconnectPolicy, ServerConfig, ServerState, Troupe, TroupeConfig
from mcp_troupe.types import ServerStatus

pytestmark = [pytest.mark.interop]

SERVERS_DIR = Path(__file__).resolve().parent / "servers"
READY_TIMEOUT = 30.0
SDK_TOOLS = {"add", "echo", "greet", "fail", "slow"}


@dataclass(frozen=True)
class Mode:
    """How the SDK server answers: ``json`` (application/json) or SSE; with or without sessions."""

    json_response: bool
    stateless: bool

    @property
    def flags(self) -> list[str]:
        return [flag for flag, on in (("--json", self.json_response), ("--stateless", self.stateless)) if on]

    def __str__(self) -> str:
        return f"{'json' if self.json_response else 'sse'}-{'stateless' if self.stateless else 'stateful'}"


MODES = [Mode(json_response, stateless) for json_response in (False, True) for stateless in (False, True)]


# ---- the server subprocess ---------------------------------------------------------------------------------


class SdkServer:
    """One SDK server process; :meth:`restart` replaces it with a fresh one on the same port (a deploy)."""

    def __init__(self, *flags: str) -> None:
        self.flags = list(flags)
        self.port = 0
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def start(self) -> None:
        port_flags = ["--port", str(self.port)] if self.port else []
        self.process = subprocess.Popen(
            [sys.executable, __file__, *self.flags, *port_flags],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line.strip().isdigit(), f"the SDK server did not start (printed {line!r})"
        self.port = int(line)

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
            if process.stdout is not None:
                process.stdout.close()

    def restart(self) -> None:
        self.stop()
        self.start()


@contextmanager
def sdk_server(*flags: str) -> Iterator[SdkServer]:
    server = SdkServer(*flags)
    server.start()
    try:
        yield server
    finally:
        server.stop()


class SdkServers:
    """Running servers shared by a module's tests, one per set of flags: each start costs seconds."""

    def __init__(self) -> None:
        self._running: dict[tuple[str, ...], SdkServer] = {}

    def get(self, *flags: str) -> SdkServer:
        server = self._running.get(flags)
        if server is None:
            server = self._running[flags] = SdkServer(*flags)
            server.start()
        return server

    def stop_all(self) -> None:
        for server in self._running.values():
            server.stop()
        self._running.clear()


@pytest.fixture(scope="module")
def servers() -> Iterator[SdkServers]:
    running = SdkServers()
    try:
        yield running
    finally:
        running.stop_all()


@contextmanager
def connected(url: str, *, name: str = "sdk", timeout: float = 30.0) -> Iterator[Troupe]:
    config = TroupeConfig(
        approval_mode="auto",  # approval has its own tests (tests/faults/test_policy.py)
        servers={name: ServerConfig(name=name, url=url, timeout=timeout, connect_timeout=15)},
        reconnect=ReconnectPolicy(initial_delay=0.1, max_delay=0.5, max_attempts=0),
        network_policy="allow",
    )
    with Troupe(config) as troupe:
        troupe.wait_ready(timeout=READY_TIMEOUT)
        yield troupe


def assert_ready(troupe: Troupe) -> ServerStatus:
    (status,) = troupe.status()
    assert status.state is ServerState.READY, f"{status.state}: {status.last_error}"
    return status


# ---- sdk_tools in every mode -------------------------------------------------------------------------------


@pytest.fixture(params=MODES, ids=str)
def mode(request: pytest.FixtureRequest) -> Mode:
    return request.param  # type: ignore[no-any-return]


@pytest.mark.timeout(60)
def test_the_sdk_server_connects_lists_and_calls_in_every_mode(mode: Mode, servers: SdkServers) -> None:
    with connected(servers.get(*mode.flags).url) as troupe:
        status = assert_ready(troupe)
        specs = {spec.name: spec for spec in troupe.tools() if spec.server == "sdk"}
        added = troupe.call("mcp__sdk__add", {"a": 2, "b": 3})
        echoed = troupe.call("mcp__sdk__echo", {"text": "héllo\nwörld"})
        failed = troupe.call("mcp__sdk__fail", {})

    assert set(specs) == {f"mcp__sdk__{tool}" for tool in SDK_TOOLS}
    assert (status.transport, status.protocol_version) == ("http", "2026-07-28")  # the newest both speak
    assert status.server_info is not None and status.server_info["name"] == "sdk-tools"
    # spec: 2026-07-28 has no sessions: no session id, stateful server or not.
    assert status.session_id is None
    assert (added.text, added.structured, added.is_error) == ("5", {"result": 5}, False)
    assert echoed.text == "héllo\nwörld"
    assert failed.is_error and "failed as asked" in failed.text


@pytest.mark.timeout(60)
def test_many_concurrent_calls_each_get_their_own_answer(mode: Mode, servers: SdkServers) -> None:
    with connected(servers.get(*mode.flags).url) as troupe:
        assert_ready(troupe)
        handles = [troupe.submit("mcp__sdk__add", {"a": index, "b": 1000}) for index in range(200)]
        results = [handle.result(timeout=30) for handle in handles]

    assert [result.text for result in results] == [str(index + 1000) for index in range(200)]


@pytest.mark.timeout(60)
def test_a_call_that_times_out_is_cancelled_and_the_connection_stays_up(
    mode: Mode, servers: SdkServers
) -> None:
    with connected(servers.get(*mode.flags).url) as troupe:
        assert_ready(troupe)
        with pytest.raises(CallTimedOut):
            troupe.call("mcp__sdk__slow", {"seconds": 2}, timeout=0.3)
        result = troupe.call("mcp__sdk__slow", {"seconds": 0.01})
        (status,) = troupe.status()

    assert result.text == "slept 0.01s"
    assert status.incarnation == 1


# ---- sdk_paged: 250 tools, 100 a page ----------------------------------------------------------------------


@pytest.mark.timeout(60)
@pytest.mark.parametrize("json_response", [False, True], ids=["sse", "json"])
def test_every_page_of_a_paginated_tool_list_is_read_over_http(
    json_response: bool, servers: SdkServers
) -> None:
    expected = [f"mcp__paged__tool_{index:03d}" for index in range(250)]
    flags = ["--paged", *(["--json"] if json_response else [])]

    with connected(servers.get(*flags).url, name="paged") as troupe:
        assert_ready(troupe)
        specs = [spec for spec in troupe.tools() if spec.server == "paged"]
        results = {name: troupe.call(name, {}) for name in expected[::25]}

    assert sorted(spec.name for spec in specs) == expected  # exactly 250: no page lost, none read twice
    for name, result in results.items():
        assert result.text == f"{name.removeprefix('mcp__paged__')} ok"


# ---- a deploy: the server restarts and forgets every session -----------------------------------------------


@pytest.mark.timeout(60)
@pytest.mark.parametrize("json_response", [False, True], ids=["sse", "json"])
def test_after_a_server_restart_the_next_call_starts_a_new_session_and_succeeds(json_response: bool) -> None:
    # research/PEERS §2.2: clients that treat this 404 as terminal break on every ordinary deploy.
    with sdk_server(*(["--json"] if json_response else [])) as server, connected(server.url) as troupe:
        assert_ready(troupe)
        assert troupe.call("mcp__sdk__add", {"a": 1, "b": 1}).text == "2"

        server.restart()  # the same port; the old session id now gets 404
        result = troupe.call("mcp__sdk__add", {"a": 2, "b": 2})
        (status,) = troupe.status()

    assert result.text == "4"
    assert status.state is ServerState.READY
    assert status.incarnation == 1  # the session was renewed inside the connection, not by a reconnect


# ---- the launcher ------------------------------------------------------------------------------------------


def serve(argv: list[str]) -> None:
    """Serve ``sdk_tools`` (or ``sdk_paged``) over Streamable HTTP on 127.0.0.1; print the port first."""
    parser = argparse.ArgumentParser(description="The SDK's Streamable HTTP server for the interop tests.")
    parser.add_argument("--json", action="store_true", help="answer with application/json, not SSE")
    parser.add_argument("--stateless", action="store_true", help="no sessions (stateless_http=True)")
    parser.add_argument("--paged", action="store_true", help="serve sdk_paged (250 tools, 100 a page)")
    parser.add_argument("--port", type=int, default=0, help="the port (default: a free one)")
    args = parser.parse_args(argv)

    import uvicorn

    sys.path.insert(0, str(SERVERS_DIR))
    if args.paged:
        import sdk_paged

        app = sdk_paged.build_server(250, 100).streamable_http_app(
            json_response=args.json, stateless_http=args.stateless
        )
    else:
        import sdk_tools

        app = sdk_tools.server.streamable_http_app(json_response=args.json, stateless_http=args.stateless)
    # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY only on sockets that say so, and without it every
    # keep-alive response waits ~40 ms for a delayed ACK (Nagle).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    sock.listen(1024)
    print(sock.getsockname()[1], flush=True)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1)
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    serve(sys.argv[1:])
