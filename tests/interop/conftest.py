"""Fixtures for the interop tests: real MCP servers over stdio, and a watch on the processes they leave.

Every test here talks to a real peer and carries ``@pytest.mark.interop`` (registered in ``pyproject.toml``):
select them with ``pytest -m interop``, leave them out with ``pytest -m "not interop"``. The servers live in
``servers/`` as plain scripts, each runnable on its own (``python tests/interop/servers/sdk_tools.py``):

- ``sdk_tools.py``: the official SDK's high-level ``MCPServer`` with ``add``, ``echo``, ``greet``, ``fail``,
  ``slow``, one resource, one resource template and one prompt.
- ``sdk_resources.py``: the SDK's low-level ``Server`` with paged resources, templates and prompts (some
  poisoned, one forging an assistant turn), tools returning every content type, and tools that change the
  lists and notify.
- ``sdk_paged.py``: the SDK's low-level ``Server`` paging ``tools/list`` (``--tools N --page-size K``).
- ``sdk_version.py``: a raw stdlib server answering ``initialize`` with ``--version V`` (the SDK cannot).
- ``sdk_eras.py``: the SDK's ``MCPServer`` in one protocol-era form (``--era modern|dual|legacy``), over stdio
  or Streamable HTTP (``--http [--json] [--stateless]``); ``fastmcp_server.py`` (FastMCP 4.x) and
  ``ts_sdk_server.mjs`` (the TypeScript SDK 1.32, on the cached Node.js 22) serve the same catalog.
  ``peers.py`` lists every form on every transport (``PEERS``), with what the SDK's client negotiates with
  each; the ``running_peers`` fixture starts the HTTP ones once per module (``test_eras*.py``).

Servers are started with :data:`sys.executable`, the interpreter running the tests, so they see the same
installed ``mcp`` package.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.interop.servers.peers import RunningPeers

SERVERS_DIR = Path(__file__).resolve().parent / "servers"


@pytest.fixture(scope="session")
def python() -> str:
    """The interpreter to start the servers with: the one running the tests."""
    return sys.executable


@pytest.fixture(scope="session")
def servers_dir() -> Path:
    """The directory holding the server scripts."""
    return SERVERS_DIR


@pytest.fixture(scope="session")
def sdk_tools_script() -> Path:
    """The SDK ``MCPServer`` with a handful of tools, a resource and a prompt."""
    return SERVERS_DIR / "sdk_tools.py"


@pytest.fixture(scope="session")
def sdk_paged_script() -> Path:
    """The SDK low-level server with a paginated ``tools/list``."""
    return SERVERS_DIR / "sdk_paged.py"


@pytest.fixture(scope="session")
def sdk_version_script() -> Path:
    """The raw server that answers ``initialize`` with the version given by ``--version``."""
    return SERVERS_DIR / "sdk_version.py"


@pytest.fixture(scope="session")
def sdk_eras_script() -> Path:
    """The SDK ``MCPServer`` in the protocol-era form given by ``--era``."""
    return SERVERS_DIR / "sdk_eras.py"


@pytest.fixture(scope="session")
def fastmcp_server_script() -> Path:
    """The FastMCP 4.x server with the era tests' catalog."""
    return SERVERS_DIR / "fastmcp_server.py"


@pytest.fixture(scope="session")
def ts_sdk_server_script() -> Path:
    """The TypeScript SDK 1.32 server with the era tests' catalog (run it with ``npm.node22()``)."""
    return SERVERS_DIR / "ts_sdk_server.mjs"


@pytest.fixture(scope="module")
def running_peers() -> Iterator[RunningPeers]:
    """The HTTP peers of ``servers/peers.py``, started on first use and stopped at the module's end."""
    peers = RunningPeers()
    try:
        yield peers
    finally:
        peers.stop_all()
