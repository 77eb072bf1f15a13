"""A server that stops reading its stdin: the client bounds what it holds and refuses new calls at once.

Issue "hostile servers", case 3: 400 x 1 MB calls to a server that does not read used to leave 421 MB held
after they had all timed out.
"""

from __future__ import annotations

import gc
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from tests.faults.test_faults import demo, troupe_of

from mcp_troupe import CallTimedOut, OutboundFull, stdio_server
from mcp_troupe.actors.stdio import MAX_OUTBOUND_BYTES

pytestmark = [pytest.mark.faults]

STUCK = Path(__file__).parent / "servers" / "stuck_reader.py"
CALLS = 120
BLOB = "x" * (1024 * 1024)


def held_bytes() -> int:
    """Bytes Python objects allocated since tracing began still hold, all threads counted.

    Not RSS: glibc raises its mmap threshold after the first 1 MB block is freed, so later blocks come from
    the heap and freed ones are not handed back to the system; RSS then says 50 MiB of memory is held that
    the process can reuse but nothing references (CI saw exactly that).
    """
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


@pytest.mark.timeout(120)
def test_a_server_that_stops_reading_gets_bounded_memory_fast_refusals_and_the_others_keep_serving() -> None:
    stuck = stdio_server("stuck", sys.executable, str(STUCK), timeout=2.0, connect_timeout=20.0)
    with troupe_of(stuck, demo("bystander")) as troupe:
        assert troupe.wait_ready(timeout=30)
        tracemalloc.start()
        try:
            baseline = held_bytes()
            handles = [troupe.submit("mcp__stuck__upload", {"blob": BLOB}, timeout=2.0) for _ in range(CALLS)]
            refused = timed_out = 0
            for handle in handles:
                started = time.monotonic()
                try:
                    handle.result(timeout=30)
                except OutboundFull as exc:
                    refused += 1
                    assert "not reading its input" in str(exc) and "stuck" in str(exc)
                    assert time.monotonic() - started < 1.0
                except CallTimedOut:
                    timed_out += 1
            # Some were queued (and timed out), the rest refused at once; nothing waits out more than its
            # timeout.
            assert timed_out >= 1 and refused >= CALLS - 2 * (MAX_OUTBOUND_BYTES // len(BLOB)) - 64
            assert refused + timed_out == CALLS
            # What the timed-out calls had queued is gone: memory is bounded, not CALLS x 1 MB. The bound is
            # what the pipe may still hold (MAX_OUTBOUND_BYTES) plus slack for buffers in flight.
            del handles
            held = held_bytes() - baseline
            assert held < MAX_OUTBOUND_BYTES * 2, f"{held / 1048576:.0f} MiB still held"
        finally:
            tracemalloc.stop()
        # A new call on the stuck connection fails fast with the reason.
        with pytest.raises(OutboundFull):
            troupe.call("mcp__stuck__upload", {"blob": BLOB}, timeout=2.0)
        assert troupe.call("mcp__bystander__echo", {"text": "fine"}).text == "fine"


@pytest.mark.timeout(60)
def test_a_call_that_times_out_behind_a_full_pipe_makes_the_next_one_fail_fast_before_stuck_after() -> None:
    # One call larger than the pipe and asyncio's buffer together: the pipe fills, writing pauses. It times
    # out well before STUCK_AFTER; that alone shows the server is not reading, so the next call is refused
    # at once instead of queued to wait out its own timeout (CI once saw that race at the STUCK_AFTER edge).
    stuck = stdio_server("stuck", sys.executable, str(STUCK), timeout=0.5, connect_timeout=20.0)
    with troupe_of(stuck, demo("bystander")) as troupe:
        assert troupe.wait_ready(timeout=30)
        # The server reads the first call whole, then stops reading; the second fills the pipe.
        for blob in ("first", BLOB * 4):
            with pytest.raises(CallTimedOut):
                troupe.call("mcp__stuck__upload", {"blob": blob}, timeout=0.5)
        started = time.monotonic()
        with pytest.raises(OutboundFull, match="not reading its input"):
            troupe.call("mcp__stuck__upload", {"blob": "small"}, timeout=5.0)
        assert time.monotonic() - started < 1.0
        assert troupe.call("mcp__bystander__echo", {"text": "fine"}).text == "fine"
