"""Hostile servers (issue 15): a server's definitions and processes must not freeze or outlive the client.

Each test runs a real hostile stdio server (``servers/hostile_server.py``) beside an ordinary one and checks
that the attack is contained with a reason, and that the ordinary server keeps answering meanwhile.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.faults.test_faults import status_of, troupe_of, wait_for
from tests.processes import ChildWatch, is_alive

from mcp_troupe import ServerState, Troupe, stdio_server
from mcp_troupe.actors.registry import CATALOG_REJECTED
from mcp_troupe.config import ServerConfig
from mcp_troupe.policy.bounds import CatalogLimits

pytestmark = [pytest.mark.faults, pytest.mark.timeout(60)]

HOSTILE = str(Path(__file__).parent / "servers" / "hostile_server.py")


def hostile(name: str, *mode: str, timeout: float = 30.0, connect_timeout: float = 20.0) -> ServerConfig:
    return stdio_server(
        name, sys.executable, HOSTILE, *mode, timeout=timeout, connect_timeout=connect_timeout
    )


class LatencyProbe:
    """Calls ``echo`` on an ordinary server in a loop (bounded) and keeps the slowest answer's time."""

    def __init__(self, call: object) -> None:
        self._call = call
        self.worst = 0.0
        self.count = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        deadline = time.monotonic() + 30
        while not self._stop.is_set() and time.monotonic() < deadline:
            started = time.monotonic()
            self._call()  # type: ignore[operator]
            self.worst = max(self.worst, time.monotonic() - started)
            self.count += 1
            self._stop.wait(0.005)

    def __enter__(self) -> LatencyProbe:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join(10)


def test_a_catastrophic_output_pattern_is_checked_in_bounded_time_while_others_answer() -> None:
    with troupe_of(hostile("evil", "regex", timeout=2.0), hostile("ok")) as troupe:
        assert troupe.wait_ready(15)
        with LatencyProbe(lambda: troupe.call("mcp__ok__echo", {"text": "hi"})) as probe:
            time.sleep(0.05)
            started = time.monotonic()
            result = troupe.call("mcp__evil__match", {})
            took = time.monotonic() - started
            time.sleep(0.05)
        # With Python's re this takes seconds per extra character (2**30 tries) and holds the GIL throughout.
        assert took < 1.0
        assert "does not match the tool's outputSchema" in result.text
        assert probe.count > 0 and probe.worst < 0.5


def test_an_output_pattern_that_needs_backtracking_is_reported_unchecked() -> None:
    with troupe_of(hostile("evil", "unsupported", timeout=2.0)) as troupe:
        assert troupe.wait_ready(15)
        result = troupe.call("mcp__evil__match", {})
        assert "could not be checked in bounded time" in result.text
        assert not result.is_error


# ---- escaped descendants --------------------------------------------------------------------------------


_SEEN_ESCAPEES: set[int] = set()


@pytest.fixture(autouse=True)
def _kill_escapees_left_by_a_failing_test() -> Iterator[None]:
    yield
    for pid in _SEEN_ESCAPEES:
        if is_alive(pid):
            os.kill(pid, signal.SIGKILL)
    _SEEN_ESCAPEES.clear()


def escapees(pid_file: Path, timeout: float = 10.0) -> set[int]:
    """The pids the ``setsid`` server wrote: its setsid() child and the double-forked grandchild."""
    deadline = time.monotonic() + timeout
    while not pid_file.exists():
        assert time.monotonic() < deadline, "the hostile server never wrote its escapees' pids"
        time.sleep(0.02)
    pids = {int(line) for line in pid_file.read_text().split()}
    _SEEN_ESCAPEES.update(pids)
    assert len(pids) == 2
    return pids


def _outside_the_group(pids: set[int], server_pid: int) -> bool:
    return all(os.getpgid(pid) != server_pid for pid in pids)


def test_stop_ends_a_setsid_child_and_a_double_forked_grandchild(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    with troupe_of(hostile("esc", "setsid", str(pid_file))) as troupe:
        assert troupe.wait_ready(15)
        pids = escapees(pid_file)
        server_pid = status_of(troupe, "esc").pid
        assert server_pid is not None and all(is_alive(pid) for pid in pids)
        assert _outside_the_group(pids, server_pid)  # the process-group kill alone would miss them
    assert ChildWatch(frozenset()).wait_until_gone(pids, timeout=5) == set()


def test_kill_9_of_the_server_ends_its_escaped_descendants_before_the_reconnect(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    with troupe_of(hostile("esc", "setsid", str(pid_file))) as troupe:
        assert troupe.wait_ready(15)
        first = escapees(pid_file)
        pid_file.unlink()
        server_pid = status_of(troupe, "esc").pid
        assert server_pid is not None
        os.kill(server_pid, signal.SIGKILL)
        wait_for(troupe, "esc", lambda s: s.state is ServerState.READY and s.incarnation == 2)
        second = escapees(pid_file)
        assert ChildWatch(frozenset()).wait_until_gone(first, timeout=5) == set()
        assert all(is_alive(pid) for pid in second)  # the new incarnation's own are left alone
        assert troupe.call("mcp__esc__echo", {"text": "back"}).text == "back"
    assert ChildWatch(frozenset()).wait_until_gone(second, timeout=5) == set()


def test_restart_ends_the_old_incarnations_escaped_descendants(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    with troupe_of(hostile("esc", "setsid", str(pid_file))) as troupe:
        assert troupe.wait_ready(15)
        first = escapees(pid_file)
        pid_file.unlink()
        troupe.restart("esc")
        wait_for(troupe, "esc", lambda s: s.state is ServerState.READY and s.incarnation == 2)
        second = escapees(pid_file)
        assert ChildWatch(frozenset()).wait_until_gone(first, timeout=5) == set()
    assert ChildWatch(frozenset()).wait_until_gone(second, timeout=5) == set()


# ---- definitions built to make policy the attack ------------------------------------------------------


def _rejected_of(troupe: Troupe, name: str) -> dict[str, str]:
    return dict(status_of(troupe, name).rejected)


def test_a_default_nested_985_levels_rejects_that_tool_with_the_reason_and_the_server_connects() -> None:
    with troupe_of(hostile("deep", "deep", "985", connect_timeout=10), hostile("ok")) as troupe:
        assert troupe.wait_ready(20)
        status = status_of(troupe, "deep")
        assert status.state is ServerState.READY
        assert "max_schema_depth" in status.rejected["deep"]
        assert "inputSchema.properties.x.default" in status.rejected["deep"]
        assert troupe.call("mcp__deep__echo", {"text": "alive"}).text == "alive"


def test_a_default_nested_past_any_recursion_limit_is_rejected_the_same_way() -> None:
    with troupe_of(hostile("deep", "deep", "20000", connect_timeout=10)) as troupe:
        assert troupe.wait_ready(20)
        assert "nests deeper" in _rejected_of(troupe, "deep")["deep"]
        assert troupe.call("mcp__deep__echo", {"text": "alive"}).text == "alive"


def test_a_megabyte_pattern_is_rejected_by_its_length_not_compiled() -> None:
    with troupe_of(hostile("big", "big-pattern")) as troupe:
        assert troupe.wait_ready(20)
        reason = _rejected_of(troupe, "big")["big"]
        assert "max_pattern_chars (4096)" in reason and "inputSchema.properties.x.pattern" in reason


def test_more_tools_than_max_tools_reject_the_whole_server_with_the_reason_in_status() -> None:
    server = dataclasses.replace(hostile("many", "catalog", "300"), limits=CatalogLimits(max_tools=200))
    with troupe_of(server, hostile("ok")) as troupe:
        assert troupe.wait_ready(20)
        status = status_of(troupe, "many")
        assert status.tool_count == 0
        assert (
            "lists 301 tools, more than tools.mcp.limits.max_tools (200)" in status.rejected[CATALOG_REJECTED]
        )
        assert not [spec for spec in troupe.tools() if spec.server == "many"]
        assert troupe.call("mcp__ok__echo", {"text": "fine"}).text == "fine"
