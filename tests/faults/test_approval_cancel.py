"""Cancelling a call while its approver is being asked: the call never reaches the server.

The approver blocks on an event the test controls, so the cancel lands while the question is open; the demo
server records every message it receives, so "never ran" is read off the server's own record. A later call
(approved at once) is the barrier: had the cancelled call been sent, the server would have recorded it
before that one.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from mcp_troupe import Troupe, TroupeConfig, stdio_server
from mcp_troupe.approval import ApprovalRequest
from mcp_troupe.errors import CallCancelled

pytestmark = [pytest.mark.faults, pytest.mark.timeout(30)]

WAIT = 10.0


class GatedApprover:
    """Says yes, but only once the test opens the gate; ``asked`` is set as soon as a question comes in."""

    def __init__(self) -> None:
        self.asked = threading.Event()
        self.gate = threading.Event()
        self.questions: list[str] = []

    def __call__(self, request: ApprovalRequest) -> bool:
        self.questions.append(str(request.arguments.get("text")))
        self.asked.set()
        if request.arguments.get("text") != "barrier":
            assert self.gate.wait(WAIT), "the test never opened the gate"
        return True


@contextmanager
def gated_troupe(record: Path) -> Iterator[tuple[Troupe, GatedApprover]]:
    approver = GatedApprover()
    server = stdio_server("g", sys.executable, "-m", "mcp_troupe.demo", "--record", str(record))
    # mode "ask" with the default allow list: an untrusted server's echo is exec, asked every time until
    # remembered; the approver remembers nothing here, so every call is asked.
    config = TroupeConfig(servers={"g": server}, approval_mode="ask")
    try:
        with Troupe(config, approver=approver) as troupe:
            assert troupe.wait_ready(WAIT)
            yield troupe, approver
    finally:
        approver.gate.set()  # never leave the approver's thread blocked


def calls_received(record: Path) -> list[str]:
    texts = []
    for line in record.read_text().splitlines():
        message = json.loads(line)
        if message.get("method") == "tools/call":
            texts.append(message["params"]["arguments"]["text"])
    return texts


def test_a_call_handle_cancelled_while_the_approver_is_asked_never_runs(tmp_path: Path) -> None:
    record = tmp_path / "received.jsonl"
    with gated_troupe(record) as (troupe, approver):
        handle = troupe.submit("mcp__g__echo", {"text": "cancelled"})
        assert approver.asked.wait(WAIT)

        assert handle.cancel()
        with pytest.raises(CallCancelled):
            handle.result(timeout=WAIT)
        approver.gate.set()  # the human says yes, too late
        assert troupe.call("mcp__g__echo", {"text": "barrier"}).text == "barrier"

        assert calls_received(record) == ["barrier"]
        assert approver.questions[0] == "cancelled"
        assert not handle.cancel()  # already finished


def test_an_acall_task_cancelled_while_the_approver_is_asked_never_runs(tmp_path: Path) -> None:
    record = tmp_path / "received.jsonl"
    with gated_troupe(record) as (troupe, approver):

        async def scenario() -> None:
            task = asyncio.create_task(troupe.acall("mcp__g__echo", {"text": "cancelled"}))
            assert await asyncio.to_thread(approver.asked.wait, WAIT)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

        asyncio.run(scenario())
        approver.gate.set()
        assert troupe.call("mcp__g__echo", {"text": "barrier"}).text == "barrier"

        assert calls_received(record) == ["barrier"]


def test_a_call_cancelled_after_the_approver_said_yes_is_cancelled_on_the_server(tmp_path: Path) -> None:
    record = tmp_path / "received.jsonl"
    with gated_troupe(record) as (troupe, approver):
        approver.gate.set()
        handle = troupe.submit("mcp__g__sleep", {"seconds": 30})
        assert approver.asked.wait(WAIT)
        # Wait until the server has it: the cancel then travels as notifications/cancelled.
        deadline = threading.Event()
        for _ in range(200):
            if any('"tools/call"' in line for line in record.read_text().splitlines()):
                break
            deadline.wait(0.02)
        assert handle.cancel()
        with pytest.raises(CallCancelled):
            handle.result(timeout=WAIT)
        cancelled = json.loads(troupe.call("mcp__g__get_cancelled").text)
        assert len(cancelled) == 1
