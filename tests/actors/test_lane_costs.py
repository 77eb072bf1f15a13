"""Regression guards for the cost of one call on the lane's fast path, by count rather than by clock.

Issue #12 asked that the connection core lose no speed at 1,000 calls in flight. What the rework had added
to each call was found by counting and an A/B of both
commits (benchmarks/ab_inflight.py): dicts merged to carry the progress
token, engine calls per answer, and one wake-up of the caller's loop per answer. These tests pin those
counts down, deterministically and on any machine: a timed test would fail on a busy machine and pass a
regression on a quiet one.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import AbstractContextManager, contextmanager
from types import FrameType
from typing import Any

import pytest

from mcp_troupe.actors.lane import CallLane, LoopReply, Outgoing
from mcp_troupe.protocol import jsonrpc, modern
from mcp_troupe.protocol.versions import REVISIONS

pytestmark = pytest.mark.timeout(30)

CONTEXT = ({"type": "object"}, "srv")
CALLS = 200

# Python functions of mcp_troupe run per call (the lane's send and its answer read, legacy stdio era, a
# progress token asked for as a troupe's lane does). Measured 16 after the first fix (28 before it, at
# 0235e86), 12 after the second (the engine's inline answer matching, no Response per answer, the deadline
# pushed inline); a little slack for a new check, not for a new layer.
MAX_OWN_CALLS_PER_CALL = 14


class FakeLoop:
    """The I/O loop as the lane sees it: timers are not needed to answer calls."""

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> None:
        pass

    def post_if_running(self, callback: Callable[[], None]) -> bool:
        return True


class Wire:
    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def send(self, frame: bytes, outgoing: Outgoing, direct: bool = True) -> None:
        self.frames.append(frame)


def make_lane(wire: Wire, version: str = "2025-06-18") -> CallLane:
    lane = CallLane(server="srv", incarnation=1, session=None, loop=FakeLoop(), send=wire.send)  # type: ignore[arg-type]
    lane.settle(REVISIONS[version], None)
    lane.wants_progress = True  # as with a troupe's host (Host.wants_progress)
    lane.open(call_timeout=30.0)
    return lane


def answers(frames: list[bytes]) -> list[bytes]:
    return [
        json.dumps(
            {"jsonrpc": "2.0", "id": json.loads(frame)["id"], "result": {"content": [], "isError": False}}
        ).encode()
        for frame in frames
    ]


@contextmanager
def counting() -> Iterator[Counter[tuple[str, str]]]:
    """Count the Python functions called on this thread, by (module file tail, name)."""
    counts: Counter[tuple[str, str]] = Counter()

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            code = frame.f_code
            counts[(code.co_filename.replace("\\", "/").rsplit("/", 2)[-2:][-1], code.co_name)] += 1
            if "/mcp_troupe/" in code.co_filename.replace("\\", "/"):
                counts[("mcp_troupe", "*")] += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield counts
    finally:
        sys.setprofile(previous)


@contextmanager
def counting_lines() -> Iterator[Counter[str]]:
    """Count the lines of mcp_troupe run on this thread, in all (``"*"``) and by function name."""
    counts: Counter[str] = Counter()

    def trace(frame: FrameType, event: str, _arg: Any) -> Any:
        if "/mcp_troupe/" not in frame.f_code.co_filename.replace("\\", "/"):
            return None
        if event == "line":
            counts["*"] += 1
            counts[frame.f_code.co_name] += 1
        return trace

    previous = sys.gettrace()
    sys.settrace(trace)
    try:
        yield counts
    finally:
        sys.settrace(previous)


def test_a_call_and_its_answer_cost_a_bounded_number_of_our_function_calls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The frames' C encoder and scanner, counted (jsonrpc calls them directly: no Python wrapper runs).
    c_calls = {"encode": 0, "scan": 0}
    encode, scan = jsonrpc._C_ENCODE, jsonrpc._SCAN

    def counted_encode(obj: Any, level: int) -> Any:
        c_calls["encode"] += 1
        return encode(obj, level)

    def counted_scan(text: str, index: int) -> Any:
        c_calls["scan"] += 1
        return scan(text, index)

    monkeypatch.setattr(jsonrpc, "_C_ENCODE", counted_encode)
    monkeypatch.setattr(jsonrpc, "_SCAN", counted_scan)
    wire = Wire()
    lane = make_lane(wire)
    replies: list[Future[Any]] = [Future() for _ in range(CALLS)]
    with counting() as counts:
        for reply in replies:
            lane.call("echo", {"text": "x"}, reply, CONTEXT)
        frames = list(wire.frames)
    read = answers(frames)
    with counting() as read_counts:
        lane.receive(read)
    assert all(reply.done() and reply.result()[1] == CONTEXT for reply in replies)
    own = (counts[("mcp_troupe", "*")] + read_counts[("mcp_troupe", "*")]) / CALLS
    assert own <= MAX_OWN_CALLS_PER_CALL, sorted(counts.items(), key=lambda item: -item[1])[:30]
    # One encoding per request and one decoding per answer: no frame is encoded or parsed twice, with the
    # C encoder made once and the decoder's scanner called directly (json.dumps/json.loads would build an
    # encoder or sniff the encoding per call, and JSONEncoder.encode/JSONDecoder.decode wrap them in Python).
    assert c_calls == {"encode": CALLS, "scan": CALLS}
    assert counts[("encoder.py", "encode")] == 0 and counts[("__init__.py", "dumps")] == 0
    assert read_counts[("decoder.py", "decode")] == 0 and read_counts[("__init__.py", "loads")] == 0
    # An answer is matched without a Response built for it, and an answered call runs no done callback.
    assert read_counts[("jsonrpc.py", "from_object")] == 0
    # The progress token rides in the one encoding (no dict merged for it).
    assert counts[("modern.py", "with_meta")] == 0 and counts[("engine.py", "params_of")] == 0
    assert all(
        json.loads(frame)["params"]["_meta"] == {"progressToken": json.loads(frame)["id"]} for frame in frames
    )


def test_an_acall_reply_costs_no_done_callback_and_its_answer_no_loop_turn_of_its_own() -> None:
    # Troupe.acall cancels its call itself when its task is cancelled: the lane registers no callback on a
    # LoopReply, which every answered call would otherwise run (a handle on the caller's loop each).
    wire = Wire()
    lane = make_lane(wire)
    loop = asyncio.new_event_loop()
    try:
        replies = [LoopReply(loop) for _ in range(CALLS)]
        with counting() as counts:
            for reply in replies:
                lane.call("echo", {"text": "x"}, reply, CONTEXT)
        assert counts[("lane_replies.py", "add_done_callback")] == 0
        assert all(not reply.future._callbacks for reply in replies)  # type: ignore[attr-defined]
        lane.receive(answers(wire.frames))
        loop.run_until_complete(asyncio.sleep(0))
        assert all(reply.future.result()[1] == CONTEXT for reply in replies)
    finally:
        loop.close()


def count_wakeups(loop: asyncio.AbstractEventLoop) -> list[Any]:
    """Record every ``call_soon_threadsafe`` of ``loop`` (a wake-up of it from another thread)."""
    wakeups: list[Any] = []
    original = loop.call_soon_threadsafe

    def counted(callback: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        wakeups.append(callback)
        return original(callback, *args, **kwargs)

    loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
    return wakeups


def call_and_answer(lane: Any, wire: Any, loop: asyncio.AbstractEventLoop) -> list[LoopReply]:
    """Make CALLS calls awaited on ``loop``, then hand the lane all their answers in one read."""
    replies = [LoopReply(loop) for _ in range(CALLS)]
    for reply in replies:
        lane.call("echo", {"text": "x"}, reply, CONTEXT)
    lane.receive(answers(wire.frames))
    return replies


def test_one_read_of_many_answers_wakes_the_callers_loop_once() -> None:
    # The caller awaits on a loop of its own (Troupe.acall); the answers arrive on another thread.
    wire = Wire()
    lane = make_lane(wire)
    loop = asyncio.new_event_loop()
    try:
        wakeups = count_wakeups(loop)
        replies = call_and_answer(lane, wire, loop)
        assert len(wakeups) == 1
        loop.run_until_complete(asyncio.sleep(0))
        assert all(reply.future.done() and reply.future.result()[1] == CONTEXT for reply in replies)
    finally:
        loop.close()


def test_answers_read_on_the_callers_own_loop_need_no_wakeup() -> None:
    # troupe_shared: the troupe's I/O runs on the caller's loop, so the lane reads on that very thread.
    wire = Wire()
    lane = make_lane(wire)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        wakeups = count_wakeups(loop)
        replies = call_and_answer(lane, wire, loop)
        assert wakeups == []
        assert all(reply.future.done() for reply in replies)
        results = await asyncio.gather(*(reply.future for reply in replies))
        assert all(result[1] == CONTEXT for result in results)

    asyncio.run(main())


def test_answers_for_callers_on_two_loops_in_one_read_wake_each_loop_once() -> None:
    wire = Wire()
    lane = make_lane(wire)
    loops = [asyncio.new_event_loop(), asyncio.new_event_loop()]
    try:
        wakeups = [count_wakeups(loop) for loop in loops]
        replies = [LoopReply(loops[index % 2]) for index in range(CALLS)]
        for reply in replies:
            lane.call("echo", {"text": "x"}, reply, CONTEXT)
        lane.receive(answers(wire.frames))
        assert [len(each) for each in wakeups] == [1, 1]
        for loop in loops:
            loop.run_until_complete(asyncio.sleep(0))
        assert all(reply.future.result()[1] == CONTEXT for reply in replies)
    finally:
        for loop in loops:
            loop.close()


def test_a_cancelled_caller_among_a_batch_is_left_cancelled_and_the_rest_answered() -> None:
    wire = Wire()
    lane = make_lane(wire)
    loop = asyncio.new_event_loop()
    try:
        replies = [LoopReply(loop) for _ in range(10)]
        for reply in replies:
            lane.call("echo", {"text": "x"}, reply, CONTEXT)
        replies[3].future.cancel()
        lane.receive(answers(wire.frames))
        loop.run_until_complete(asyncio.sleep(0))
        assert replies[3].future.cancelled()
        assert all(reply.future.result()[1] == CONTEXT for i, reply in enumerate(replies) if i != 3)
    finally:
        loop.close()


class HttpWire(Wire):
    def __init__(self) -> None:
        super().__init__()
        self.headers: list[Any] = []

    def send(self, frame: bytes, outgoing: Outgoing, direct: bool = True) -> None:
        self.frames.append(frame)
        self.headers.append(outgoing.headers)


def http_lane(wire: HttpWire, version: str) -> CallLane:
    lane = CallLane(
        server="srv",
        incarnation=1,
        session=None,
        loop=FakeLoop(),
        send=wire.send,
        is_http=True,  # type: ignore[arg-type]
    )
    lane.settle(REVISIONS[version], {"protocolVersion": version} if version == "2026-07-28" else None)
    lane.wants_progress = True
    lane.open(call_timeout=30.0)
    return lane


def counted_calls(
    lane: CallLane,
    wire: Wire,
    answer: dict[str, Any],
    count: Callable[[], AbstractContextManager[Counter[Any]]],
    *,
    warm: bool = False,
) -> Counter[Any]:
    """What ``count`` counted over CALLS calls on ``lane`` and the read of their answers (``warm``: after
    one call outside the count, which builds what the lane keeps)."""
    if warm:
        lane.call("echo", {"text": "x"}, Future(), CONTEXT)
        wire.frames.clear()
    replies: list[Future[Any]] = [Future() for _ in range(CALLS)]
    with count() as counts:
        for reply in replies:
            lane.call("echo", {"text": "x"}, reply, CONTEXT)
        read = [
            json.dumps({"jsonrpc": "2.0", "id": json.loads(frame)["id"], "result": answer}).encode()
            for frame in wire.frames
        ]
        lane.receive(read)
    assert all(reply.done() and reply.result()[1] == CONTEXT for reply in replies)
    return counts


def own_calls_per_call(lane: CallLane, wire: Wire, answer: dict[str, Any]) -> float:
    return counted_calls(lane, wire, answer, counting)[("mcp_troupe", "*")] / CALLS


def test_a_modern_http_call_runs_no_more_of_our_functions_than_a_legacy_one() -> None:
    # Issue #13: a modern call costs no more than a legacy one. Its headers (MCP-Protocol-Version,
    # Mcp-Method, Mcp-Name) are the same on every call to one tool: the lane keeps them by tool name.
    legacy_wire, modern_wire = HttpWire(), HttpWire()
    legacy = own_calls_per_call(http_lane(legacy_wire, "2025-11-25"), legacy_wire, {"content": []})
    modern = own_calls_per_call(
        http_lane(modern_wire, "2026-07-28"), modern_wire, {"content": [], "resultType": "complete"}
    )
    # At most the first call's building of its headers more, over all CALLS calls (was one function a call).
    assert modern * CALLS <= legacy * CALLS + 10, (modern, legacy)
    assert all(
        headers == {} or headers is None or "Mcp-Name" not in headers for headers in legacy_wire.headers
    )
    assert all(
        dict(headers)
        == {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "echo"}
        for headers in modern_wire.headers
    )


def test_the_kept_call_headers_follow_the_tool_name_and_its_declared_argument_headers() -> None:
    wire = HttpWire()
    lane = http_lane(wire, "2026-07-28")
    for name in ("a", "b", "a"):
        lane.call(name, {"region": "eu"}, Future(), CONTEXT)
    assert [dict(headers)["Mcp-Name"] for headers in wire.headers] == ["a", "b", "a"]
    # A tool that declares an argument header later (a list_changed) gets it from then on.
    lane.declare_headers(
        "a",
        modern.param_headers(
            {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}
        ),
    )
    lane.call("a", {"region": "eu"}, Future(), CONTEXT)
    lane.call("b", {"region": "eu"}, Future(), CONTEXT)
    assert dict(wire.headers[-2]).get("Mcp-Param-Region") == "eu"
    assert "Mcp-Param-Region" not in dict(wire.headers[-1]) and dict(wire.headers[-1])["Mcp-Name"] == "b"


def own_lines_per_call(lane: CallLane, wire: Wire, answer: dict[str, Any]) -> Counter[str]:
    return counted_calls(lane, wire, answer, counting_lines, warm=True)


def test_a_modern_http_call_runs_at_most_three_lines_of_ours_more_than_a_legacy_one() -> None:
    # Issue #13, by lines rather than functions. The three: the kept headers' lookup by tool name, and the
    # check that it found them, in `_outgoing` (a legacy call goes straight out), and the answer's
    # resultType check (spec: 2026-07-28 basic/index — an unknown resultType is invalid, input_required
    # starts a round). Before the lookup came first, a modern call ran six lines of `_outgoing` more.
    legacy_wire, modern_wire = HttpWire(), HttpWire()
    legacy = own_lines_per_call(http_lane(legacy_wire, "2025-11-25"), legacy_wire, {"content": []})
    modern_lines = own_lines_per_call(
        http_lane(modern_wire, "2026-07-28"), modern_wire, {"content": [], "resultType": "complete"}
    )
    assert modern_lines["*"] <= legacy["*"] + 3 * CALLS, (modern_lines["*"] / CALLS, legacy["*"] / CALLS)
    assert modern_lines["_outgoing"] <= legacy["_outgoing"] + 2 * CALLS, (
        modern_lines["_outgoing"] / CALLS,
        legacy["_outgoing"] / CALLS,
    )


def test_a_new_version_makes_the_kept_headers_again_and_a_legacy_era_sends_none() -> None:
    wire = HttpWire()
    lane = http_lane(wire, "2026-07-28")
    lane.call("a", {}, Future(), CONTEXT)
    lane.settle(REVISIONS["2026-07-28"], {"protocolVersion": "2026-07-28"})
    lane.call("a", {}, Future(), CONTEXT)
    assert dict(wire.headers[-1])["MCP-Protocol-Version"] == "2026-07-28"
    # A legacy era's call carries none of the modern headers, even when its caller's own _meta names a
    # modern version (only the unsettled probe is read for one).
    legacy_wire = HttpWire()
    legacy = http_lane(legacy_wire, "2025-11-25")
    legacy.call("a", {"_meta": {modern.PROTOCOL_VERSION: "2026-07-28"}}, Future(), CONTEXT)
    assert not legacy_wire.headers[-1] or "Mcp-Name" not in legacy_wire.headers[-1]
