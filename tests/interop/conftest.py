"""Fixtures for the interop tests: real MCP servers over stdio, and a watch on the processes they leave.

Every test here talks to a real peer and carries ``@pytest.mark.interop`` (registered in ``pyproject.toml``):
select them with ``pytest -m interop``, leave them out with ``pytest -m "not interop"``. The servers live in
``servers/`` as plain scripts, each runnable on its own (``python tests/interop/servers/sdk_tools.py``):

- ``sdk_tools.py``: the official SDK's high-level ``MCPServer`` with ``add``, ``echo``, ``greet``, ``fail``,
  ``slow``, one resource and one prompt.
- ``sdk_paged.py``: the SDK's low-level ``Server`` paging ``tools/list`` (``--tools N --page-size K``).
- ``sdk_version.py``: a raw stdlib server answering ``initialize`` with ``--version V`` (the SDK cannot).

Servers are started with :data:`sys.executable`, the interpreter running the tests, so they see the same
installed ``mcp`` package.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

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


def process_state(pid: int) -> str | None:
    """Return the one-letter state of ``pid`` from ``/proc`` (``R``, ``S``, ``Z``...), or ``None`` if gone."""
    stat = _read_stat(pid)
    return None if stat is None else stat[0]


def is_alive(pid: int) -> bool:
    """Whether ``pid`` exists and is not a zombie (dead, waiting to be reaped)."""
    return process_state(pid) not in (None, "Z")


def descendants(root: int) -> set[int]:
    """Return every process below ``root`` in the process tree, zombies included, read from ``/proc``.

    Grandchildren count too: a client that starts its server through a shell leaves the server one level down.
    """
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _read_stat(int(entry))
            if stat is not None:
                children.setdefault(stat[1], []).append(int(entry))
    found: set[int] = set()
    pending = [root]
    while pending:
        for child in children.get(pending.pop(), ()):
            if child not in found:
                found.add(child)
                pending.append(child)
    return found


def _read_stat(pid: int) -> tuple[str, int] | None:
    """Return ``(state, ppid)`` of ``pid``, or ``None`` if it has gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as file:
            text = file.read()
    except (FileNotFoundError, ProcessLookupError):
        return None
    # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after its last ")".
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1])


@dataclass
class ChildWatch:
    """The processes this test process had below it when the test began, to tell new ones apart."""

    before: frozenset[int]

    def new_alive(self) -> set[int]:
        """Return the live (non-zombie) descendants that appeared since the watch began."""
        return {pid for pid in descendants(os.getpid()) - self.before if is_alive(pid)}

    def wait_until_gone(self, pids: set[int] | None = None, timeout: float = 10.0) -> set[int]:
        """Wait until ``pids`` (default: every new descendant) are dead; return those still alive at the end.

        A process's end sends no event this process can wait on, so this polls ``/proc`` until the deadline.
        """
        deadline = time.monotonic() + timeout
        while True:
            alive = {pid for pid in pids if is_alive(pid)} if pids is not None else self.new_alive()
            if not alive or time.monotonic() >= deadline:
                return alive
            time.sleep(0.02)


@pytest.fixture
def child_watch() -> Iterator[ChildWatch]:
    """Watch for processes the test leaves behind (Linux: reads ``/proc``)."""
    if not os.path.isdir("/proc/self"):
        pytest.skip("needs /proc to watch child processes")
    yield ChildWatch(before=frozenset(descendants(os.getpid())))
