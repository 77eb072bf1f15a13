"""mcp-troupe against the MCP reference servers published on npm, run with Node.js 22 from the test cache.

- ``@modelcontextprotocol/server-everything`` over stdio and over Streamable HTTP: its tools are listed and
  ``echo`` and ``get-sum`` (the old ``add``) are called.
- ``@modelcontextprotocol/server-filesystem`` over stdio, confined to a temporary directory: a file created
  there is listed and read, and a path outside is refused as a tool error, not a crash.

The packages and their versions are those of :mod:`tests.interop.npm`; install them with
``python -m tests.interop.npm``.

server-everything's HTTP mode (``dist/index.js streamableHttp``) takes its port from ``PORT`` and listens on
every interface, with no way to choose one. So that test runs itself a second time, in a fresh pytest,
inside a private network namespace (:func:`tests.interop.npm.private_network`): the server and the client
share that namespace's loopback and nothing else, and a fixed port cannot collide with anything.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from tests.interop.npm import ROOT, node22, npm_bin, private_network, require, require_private_network
from tests.processes import ChildWatch

from mcp_troupe import ReconnectPolicy, ServerState, Troupe, TroupeConfig
from mcp_troupe.config import ServerConfig, stdio_server

pytestmark = [pytest.mark.interop, pytest.mark.timeout(90)]

READY_TIMEOUT = 30.0
HTTP_PORT = 3001
"""server-everything's default port; inside the private namespace nothing else can hold it."""
INSIDE_PRIVATE_NETWORK = "MCP_TROUPE_TEST_INSIDE_PRIVATE_NETWORK"
"""Set (to ``1``) in the environment of the pytest that runs inside the private network namespace."""


@contextmanager
def running(server: ServerConfig) -> Iterator[Troupe]:
    """Run a troupe of the one ``server``, which does not retry a failed connect, until it has settled."""
    config = TroupeConfig(
        approval_mode="auto",  # approval has its own tests (tests/faults/test_policy.py)
        servers={server.name: server},
        network_policy="allow",
        reconnect=ReconnectPolicy(initial_delay=0.1, max_delay=0.5, max_attempts=0),
    )
    with Troupe(config) as troupe:
        assert troupe.wait_ready(timeout=READY_TIMEOUT), f"{server.name} did not settle in {READY_TIMEOUT} s"
        (status,) = troupe.status()
        detail = "\n".join((f"{status.name} is {status.state}: {status.last_error}", *status.stderr_tail))
        assert status.state is ServerState.READY, detail
        yield troupe


def node_server(name: str, package_bin_name: str, *args: str) -> ServerConfig:
    """A stdio server: the cached package's command ``package_bin_name``, run with the cached Node.js 22."""
    node = require(node22(), "Node.js 22")
    script = require(npm_bin(package_bin_name), f"the npm command {package_bin_name}")
    return stdio_server(name, str(node), str(script), *args)


# server-everything over stdio


@pytest.fixture
def everything() -> Iterator[Troupe]:
    with running(node_server("everything", "mcp-server-everything", "stdio")) as troupe:
        yield troupe


def test_everything_lists_its_tools_under_qualified_names(everything: Troupe) -> None:
    specs = {spec.name: spec for spec in everything.tools()}

    assert {"mcp__everything__echo", "mcp__everything__get-sum"} <= set(specs)
    get_sum = specs["mcp__everything__get-sum"]
    assert (get_sum.original_name, get_sum.server, get_sum.ready) == ("get-sum", "everything", True)
    assert set(get_sum.input_schema["properties"]) == {"a", "b"}


def test_everything_echo_returns_the_message(everything: Troupe) -> None:
    result = everything.call("mcp__everything__echo", {"message": "hello, troupe"})

    assert (result.text, result.is_error) == ("Echo: hello, troupe", False)


def test_everything_get_sum_adds(everything: Troupe) -> None:
    result = everything.call("mcp__everything__get-sum", {"a": 2, "b": 3.5})

    assert (result.text, result.is_error) == ("The sum of 2 and 3.5 is 5.5.", False)


def test_everything_process_is_gone_after_the_troupe_closes(child_watch: ChildWatch) -> None:
    with running(node_server("everything", "mcp-server-everything", "stdio")) as troupe:
        (status,) = troupe.status()
        assert status.pid is not None

    assert child_watch.wait_until_gone({status.pid}) == set()


# server-everything over Streamable HTTP


def test_everything_over_streamable_http(request: pytest.FixtureRequest) -> None:
    if os.environ.get(INSIDE_PRIVATE_NETWORK) != "1":
        rerun_inside_private_network(request.node.nodeid)
        return
    node = require(node22(), "Node.js 22")
    script = require(npm_bin("mcp-server-everything"), "the npm command mcp-server-everything")
    url = f"http://127.0.0.1:{HTTP_PORT}/mcp"

    with serving_over_http([str(node), str(script), "streamableHttp"], HTTP_PORT):
        server = ServerConfig(name="everything", url=url, connect_timeout=15, timeout=30)
        with running(server) as troupe:
            (status,) = troupe.status()
            names = {spec.name for spec in troupe.tools()}
            echo = troupe.call("mcp__everything__echo", {"message": "over http"})
            get_sum = troupe.call("mcp__everything__get-sum", {"a": 20, "b": 22})

    assert (status.transport, status.session_id is not None) == ("http", True)
    assert {"mcp__everything__echo", "mcp__everything__get-sum"} <= names
    assert (echo.text, echo.is_error) == ("Echo: over http", False)
    assert (get_sum.text, get_sum.is_error) == ("The sum of 20 and 22 is 42.", False)


def rerun_inside_private_network(nodeid: str) -> None:
    """Run the test ``nodeid`` again in a fresh pytest in a private network namespace; assert it passed."""
    require(node22(), "Node.js 22")
    require(npm_bin("mcp-server-everything"), "the npm command mcp-server-everything")
    require_private_network()
    argv = [sys.executable, "-m", "pytest", nodeid, "-q", "-p", "no:cacheprovider", "--timeout=60"]
    completed = subprocess.run(
        private_network(argv),
        cwd=ROOT,
        env={**os.environ, INSIDE_PRIVATE_NETWORK: "1"},
        capture_output=True,
        text=True,
        timeout=80,
        check=False,
    )
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, f"inside the private network namespace:\n{output}"
    assert "1 passed" in completed.stdout, output


@contextmanager
def serving_over_http(argv: list[str], port: int) -> Iterator[None]:
    """Run the HTTP server ``argv`` on ``port`` until the block ends; enter once it says it is listening."""
    process = subprocess.Popen(
        argv,
        env={**os.environ, "PORT": str(port)},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    listening = threading.Event()
    stderr_lines: list[str] = []

    def drain_stderr() -> None:
        # Read to the end, so the server never blocks on a full pipe; its first line announces the port.
        assert process.stderr is not None
        for line in process.stderr:
            stderr_lines.append(line)
            if f"listening on port {port}" in line:
                listening.set()

    reader = threading.Thread(target=drain_stderr, name="everything-stderr", daemon=True)
    reader.start()
    try:
        assert listening.wait(timeout=READY_TIMEOUT), f"the server did not listen: {''.join(stderr_lines)}"
        yield
    finally:
        process.terminate()
        process.wait(timeout=10)
        reader.join(timeout=10)


# server-filesystem over stdio


@pytest.fixture
def shared_dir(tmp_path: Path) -> Path:
    """A directory the filesystem server may read, holding one file, ``notes.txt``."""
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "notes.txt").write_text("troupe was here\n", encoding="utf-8")
    return shared.resolve()


@pytest.fixture
def filesystem(shared_dir: Path) -> Iterator[Troupe]:
    with running(node_server("fs", "mcp-server-filesystem", str(shared_dir))) as troupe:
        yield troupe


def test_filesystem_lists_the_directory(filesystem: Troupe, shared_dir: Path) -> None:
    result = filesystem.call("mcp__fs__list_directory", {"path": str(shared_dir)})

    assert (result.text, result.is_error) == ("[FILE] notes.txt", False)


def test_filesystem_reads_a_file(filesystem: Troupe, shared_dir: Path) -> None:
    # read_text_file is the current name; read_file is kept as a deprecated alias.
    result = filesystem.call("mcp__fs__read_text_file", {"path": str(shared_dir / "notes.txt")})

    assert (result.text, result.structured, result.is_error) == (
        "troupe was here\n",
        {"content": "troupe was here\n"},
        False,
    )


def test_filesystem_refuses_a_path_outside_the_directory_as_a_tool_error(
    filesystem: Troupe, shared_dir: Path
) -> None:
    outside = shared_dir.parent / "secret.txt"
    outside.write_text("not yours\n", encoding="utf-8")

    result = filesystem.call("mcp__fs__read_text_file", {"path": str(outside)})

    assert result.is_error
    assert "not yours" not in result.text
