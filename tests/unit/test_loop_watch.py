"""The I/O loop's stall watch (``mcp_troupe._loop_watch``): host code that blocks the loop is named in one
warning; host code that awaits is not (tests/faults/test_misbehaving_host.py has it against a real server)."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from mcp_troupe._loop_watch import LoopStallWatch

pytestmark = pytest.mark.timeout(30)

STALL = 0.3
BEAT_AND_SOME = 0.35


def watched(body: object) -> tuple[float, list[str]]:
    """Run ``body`` (a coroutine function) inside a watch; the longest hold and the warnings logged."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger = logging.getLogger("mcp_troupe.host")
    keep = Keep(level=logging.WARNING)
    logger.addHandler(keep)

    async def run() -> float:
        what = "server s (elicitation/create, JSON-RPC id 7): the elicitation handler"
        with LoopStallWatch(what, stall=STALL) as watch:
            await body()  # type: ignore[operator]
        return watch.held

    try:
        held = asyncio.run(run())
    finally:
        logger.removeHandler(keep)
    return held, [record.getMessage() for record in records]


def test_a_coroutine_that_blocks_and_returns_is_named_once() -> None:
    async def body() -> None:
        time.sleep(STALL + 0.4)  # the misbehaviour under test

    held, warnings = watched(body)

    assert held >= STALL
    (warning,) = warnings
    assert warning.startswith("server s (elicitation/create, JSON-RPC id 7): the elicitation handler held")
    assert "must await, not block" in warning


def test_a_coroutine_that_blocks_between_awaits_is_named_once_with_its_longest_hold() -> None:
    async def body() -> None:
        for _ in range(2):
            time.sleep(STALL + 0.3)
            await asyncio.sleep(BEAT_AND_SOME)

    held, warnings = watched(body)

    assert held >= STALL and len(warnings) == 1, warnings


def test_a_coroutine_that_awaits_is_not_named() -> None:
    async def body() -> None:
        await asyncio.sleep(3 * STALL)

    held, warnings = watched(body)

    assert (held, warnings) == (0.0, [])


def test_no_timer_is_left_on_the_loop_after_the_watch() -> None:
    async def run() -> int:
        loop = asyncio.get_running_loop()
        before = len(loop._scheduled)  # type: ignore[attr-defined]
        with LoopStallWatch("x"):
            await asyncio.sleep(0.6)
        await asyncio.sleep(0)  # cancelled handles leave the heap on the next turn
        return len([h for h in loop._scheduled if not h.cancelled()]) - before  # type: ignore[attr-defined]

    assert asyncio.run(run()) == 0
