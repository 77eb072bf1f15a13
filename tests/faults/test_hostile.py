"""Hostile servers (issue 15): a server's definitions and processes must not freeze or outlive the client.

Each test runs a real hostile stdio server (``servers/hostile_server.py``) beside an ordinary one and checks
that the attack is contained with a reason, and that the ordinary server keeps answering meanwhile.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest
from tests.faults.test_faults import troupe_of

from mcp_troupe import stdio_server
from mcp_troupe.config import ServerConfig

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
