"""CallLane driven directly: frames in, futures and ``Received`` messages out, frames written recorded.

The lane is the fast path of ``tools/call`` (no actor between the caller and the loop), so what these tests
pin down is everything the session would otherwise guarantee for a call: answers and errors reach the right
future, a timeout and a cancellation tell the server which id, a closed lane fails what is pending and
refuses more, and everything that is not the answer to a lane call reaches the session, in order.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from collections import deque
from concurrent.futures import Future, InvalidStateError
from typing import Any

import pytest

from mcp_troupe.actors.lane import CallLane, LoopReply, Outgoing, Received, SessionAnswer, SessionOwner
from mcp_troupe.actors.loop import Runtime
from mcp_troupe.errors import (
    CallCancelled,
    CallTimedOut,
    ConnectionLost,
    MalformedMessage,
    RemoteError,
    TroupeError,
)
from mcp_troupe.protocol.engine import MAX_CONSECUTIVE_BAD_FRAMES, RECENTLY_ABANDONED
from mcp_troupe.protocol.jsonrpc import Notification, Request
from mcp_troupe.protocol.versions import REVISIONS

from .fakes import ProbeHandle, error_frame, notification_frame, request_frame, result_frame, start_probe

pytestmark = pytest.mark.timeout(20)

CONTEXT = ({"type": "object"}, "srv")


class Wire:
    """What the lane wrote, decoded; safe to read while the loop writes."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.direct: list[bool] = []
        self._changed = threading.Condition()

    def send(self, frame: bytes, outgoing: Outgoing, direct: bool = True) -> None:
        with self._changed:
            self.frames.append(json.loads(frame))
            self.direct.append(direct)
            self._changed.notify_all()

    def wait_for(self, count: int, timeout: float = 5.0) -> list[dict[str, Any]]:
        with self._changed:
            assert self._changed.wait_for(lambda: len(self.frames) >= count, timeout), self.frames
            return list(self.frames)


@pytest.fixture
def session(runtime: Runtime) -> ProbeHandle:
    return start_probe(runtime, "session")


@pytest.fixture
def wire() -> Wire:
    return Wire()


@pytest.fixture
def lane(runtime: Runtime, session: ProbeHandle, wire: Wire) -> CallLane:
    lane = CallLane(server="srv", incarnation=3, session=session.ref, loop=runtime.loop, send=wire.send)
    lane.open(call_timeout=5.0)
    return lane


def session_request(lane: CallLane, method: str = "tools/list", *, memoize: bool = False) -> Any:
    """Send a request of the session's own; its outcome comes back as a SessionAnswer."""
    owner = SessionOwner(on_result=lambda result: None, on_error=lambda error: None)
    request_id = lane.request(method, None, owner, 5.0, memoize=memoize)
    assert request_id is not None
    return request_id


def call(lane: CallLane, name: str = "echo", timeout: float | None = None) -> tuple[Any, Future[Any]]:
    future: Future[Any] = Future()
    request_id = lane.call(name, {"text": "hi"}, future, CONTEXT, timeout)
    assert request_id is not None
    return request_id, future


def test_a_lane_refuses_calls_until_opened_and_after_closing(
    runtime: Runtime, session: ProbeHandle, wire: Wire
) -> None:
    lane = CallLane(server="srv", incarnation=1, session=session.ref, loop=runtime.loop, send=wire.send)
    future: Future[Any] = Future()
    assert lane.call("echo", {}, future, CONTEXT) is None
    assert not future.done() and wire.frames == []  # untouched: the caller takes the actors' path
    lane.open(5.0)
    assert lane.is_open
    lane.close(ConnectionLost("srv", "gone"))
    assert lane.call("echo", {}, future, CONTEXT) is None
    lane.open(5.0)  # a closed lane never opens again
    assert not lane.is_open and wire.frames == []


def test_an_answer_completes_the_callers_future_with_its_context_and_tells_the_session_nothing(
    lane: CallLane, wire: Wire, session: ProbeHandle
) -> None:
    request_id, future = call(lane, "add")
    (sent,) = wire.wait_for(1)
    assert sent == {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "add", "arguments": {"text": "hi"}},
    }
    lane.receive([result_frame(request_id, {"content": []})])
    assert future.result(1) == ({"content": []}, CONTEXT)
    lane.receive([notification_frame("notifications/message")])  # a marker: anything earlier came first
    received = session.expect(Received)
    assert [type(item) for item in received.items] == [Notification]


def test_an_error_answer_fails_the_call_with_the_servers_code_message_and_id(lane: CallLane) -> None:
    request_id, future = call(lane)
    lane.receive([error_frame(request_id, -32602, "bad arguments", {"field": "text"})])
    with pytest.raises(RemoteError) as caught:
        future.result(1)
    assert (caught.value.request_id, caught.value.code, caught.value.data) == (
        request_id,
        -32602,
        {"field": "text"},
    )
    assert caught.value.method == "tools/call" and "bad arguments" in str(caught.value)


def test_everything_that_is_not_a_lane_answer_reaches_the_session_in_order(
    lane: CallLane, session: ProbeHandle
) -> None:
    request_id, future = call(lane)
    lane.receive(
        [
            notification_frame("notifications/tools/list_changed"),
            result_frame(request_id, {"content": []}),
            result_frame(9999, {}),  # an id nobody sent: logged and dropped by the lane
            request_frame("s1", "ping"),
            b"not json",
        ]
    )
    received = session.expect(Received, where=lambda m: len(m.items) == 3)
    assert received.incarnation == 3
    kinds = [type(item) for item in received.items]
    assert kinds == [Notification, Request, MalformedMessage]
    assert received.fatal == ""
    assert future.result(1)[0] == {"content": []}


def test_the_sessions_own_answers_reach_it_as_session_answers_in_order(
    lane: CallLane, session: ProbeHandle
) -> None:
    first = session_request(lane, "tools/list")
    second = session_request(lane, "prompts/list")
    lane.receive([error_frame(second, -32603, "busy"), result_frame(first, {"tools": []})])
    received = session.expect(Received)
    answers = [item for item in received.items if isinstance(item, SessionAnswer)]
    assert [answer.request_id for answer in answers] == [second, first]
    assert isinstance(answers[0].error, RemoteError) and answers[0].error.code == -32603
    assert answers[1].result == {"tools": []}


def test_bad_frames_are_counted_in_a_row_across_every_frame_lane_answers_included(
    lane: CallLane, session: ProbeHandle
) -> None:
    lane.receive([b"junk"] * (MAX_CONSECUTIVE_BAD_FRAMES - 1))
    assert session.expect(Received).fatal == ""
    request_id, future = call(lane)
    lane.receive([result_frame(request_id, {"content": []})])  # a good frame, consumed by the lane
    lane.receive([b"junk"] * (MAX_CONSECUTIVE_BAD_FRAMES - 1))
    assert session.expect(Received).fatal == ""
    assert future.done()
    lane.receive([b"junk"])
    assert session.expect(Received).fatal == f"{MAX_CONSECUTIVE_BAD_FRAMES} unreadable frames in a row"


def test_a_batch_mixes_lane_answers_and_session_messages_when_the_revision_allows_batches(
    lane: CallLane, session: ProbeHandle
) -> None:
    lane.settle(REVISIONS["2025-03-26"], None)
    request_id, future = call(lane)
    batch = b"[" + result_frame(request_id, {"content": []}) + b"," + notification_frame("x/y") + b"]"
    lane.receive([batch])
    assert future.result(1)[0] == {"content": []}
    received = session.expect(Received)
    assert [type(item) for item in received.items] == [Notification]


def test_a_call_that_times_out_fails_and_the_server_is_told_which_id_and_its_late_answer_is_dropped(
    lane: CallLane, wire: Wire, session: ProbeHandle
) -> None:
    started = time.monotonic()
    request_id, future = call(lane, timeout=0.2)
    with pytest.raises(CallTimedOut) as caught:
        future.result(3)
    assert 0.2 <= time.monotonic() - started < 2.0
    assert caught.value.request_id == request_id
    cancelled = wire.wait_for(2)[1]
    assert cancelled["method"] == "notifications/cancelled"
    assert cancelled["params"]["requestId"] == request_id
    assert "timed out after 0.2 s" in cancelled["params"]["reason"]
    lane.receive([result_frame(request_id, {"content": []}), notification_frame("marker")])
    received = session.expect(Received)
    assert [getattr(item, "method", None) for item in received.items] == ["marker"]


def test_an_earlier_deadline_fires_first_and_a_later_one_still_fires(lane: CallLane) -> None:
    _, slow = call(lane, timeout=0.6)
    _, fast = call(lane, timeout=0.1)  # arrives later but must not wait for the first timer
    with pytest.raises(CallTimedOut):
        fast.result(0.5)
    assert not slow.done()
    with pytest.raises(CallTimedOut):
        slow.result(2)


def test_a_horizon_armed_on_the_loop_spares_later_deadlines_a_post_and_they_still_fire(
    runtime: Runtime, lane: CallLane, monkeypatch: pytest.MonkeyPatch
) -> None:
    posted: list[float] = []  # timers posted to the loop from other threads (its own re-arms are cheap)
    post = runtime.loop.call_later

    def counting(delay: float, *args: Any) -> None:
        if not runtime.loop.in_loop_thread():
            posted.append(delay)
        post(delay, *args)

    monkeypatch.setattr(runtime.loop, "call_later", counting)
    armed: Future[None] = Future()
    runtime.loop.post(lambda: (lane.arm_horizon(0.1), armed.set_result(None)))
    armed.result(2)
    started = time.monotonic()
    _, later = call(lane, timeout=0.3)  # after the horizon: no timer of its own
    assert posted == []
    with pytest.raises(CallTimedOut):
        later.result(3)  # the horizon's timer re-armed for it, on the loop
    assert 0.3 <= time.monotonic() - started < 2.0
    _, sooner = call(lane, timeout=0.05)  # nothing armed now: a timer posted, as before
    assert len(posted) == 1
    with pytest.raises(CallTimedOut):
        sooner.result(2)


def test_answered_calls_never_time_out_afterwards(lane: CallLane, wire: Wire) -> None:
    request_id, future = call(lane, timeout=0.1)
    lane.receive([result_frame(request_id, {"content": []})])
    time.sleep(0.3)
    assert future.result(0)[0] == {"content": []}
    assert len(wire.frames) == 1  # no cancellation was sent


def test_cancel_tells_the_server_and_fails_the_future_with_call_cancelled(lane: CallLane, wire: Wire) -> None:
    request_id, future = call(lane)
    assert lane.cancel(request_id, "the user pressed stop")
    with pytest.raises(CallCancelled):
        future.result(1)
    notice = wire.wait_for(2)[1]
    assert notice["params"] == {"requestId": request_id, "reason": "the user pressed stop"}
    assert not lane.cancel(request_id)  # once only


def test_a_caller_that_cancels_its_future_cancels_the_request(lane: CallLane, wire: Wire) -> None:
    request_id, future = call(lane)
    assert future.cancel()
    notice = wire.wait_for(2)[1]
    assert notice["method"] == "notifications/cancelled" and notice["params"]["requestId"] == request_id


def test_closing_fails_every_pending_call_with_the_reason(lane: CallLane) -> None:
    futures = [call(lane)[1] for _ in range(5)]
    lane.close(ConnectionLost("srv", "the server process was killed by SIGKILL"))
    for future in futures:
        with pytest.raises(ConnectionLost, match="SIGKILL"):
            future.result(1)


def test_calls_racing_a_close_from_many_threads_are_all_refused_or_failed_none_left_pending(
    lane: CallLane,
) -> None:
    outcomes: list[Future[Any] | None] = []
    lock = threading.Lock()

    def caller() -> None:
        for _ in range(200):
            future: Future[Any] = Future()
            accepted = lane.call("echo", {}, future, CONTEXT)
            with lock:
                outcomes.append(future if accepted is not None else None)

    threads = [threading.Thread(target=caller) for _ in range(4)]
    for thread in threads:
        thread.start()
    time.sleep(0.002)
    lane.close(ConnectionLost("srv", "closed"))
    for thread in threads:
        thread.join(5)
    accepted = [future for future in outcomes if future is not None]
    assert all(future.done() for future in accepted)
    assert len(outcomes) == 800


def test_many_calls_in_flight_are_queued_for_one_write_per_burst(lane: CallLane, wire: Wire) -> None:
    for _ in range(20):
        call(lane)
    # The first few go straight into the pipe; with more in flight the loop writes them in bursts.
    assert wire.direct[:8] == [True] * 8
    assert wire.direct[-1] is False


def test_ids_are_shared_with_the_session_and_late_answers_to_many_cancelled_ids_stay_bounded(
    lane: CallLane,
) -> None:
    session_id = session_request(lane)
    request_id, _future = call(lane)
    assert request_id == session_id + 1
    for _ in range(RECENTLY_ABANDONED + 10):
        rid, _ = call(lane)
        lane.cancel(rid)
    assert len(lane.engine._abandoned) == RECENTLY_ABANDONED


# ---- memoised pages ----------------------------------------------------------------------------------------


def page_frame(request_id: int, names: list[str]) -> bytes:
    tools = [{"name": name, "inputSchema": {"type": "object"}} for name in names]
    return result_frame(request_id, {"tools": tools})


def answer_of(session: ProbeHandle) -> SessionAnswer:
    item = session.expect(Received).items[0]
    assert isinstance(item, SessionAnswer)
    return item


def test_a_page_that_comes_back_byte_for_byte_is_the_same_result_object(
    lane: CallLane, session: ProbeHandle
) -> None:
    lane.begin_listing()
    first_id = session_request(lane, memoize=True)
    lane.receive([page_frame(first_id, ["a", "b"])])
    first = answer_of(session)
    assert first.result is not None

    lane.begin_listing()  # the next listing: the previous one's pages are remembered
    again_id = session_request(lane, memoize=True)
    lane.receive([page_frame(again_id, ["a", "b"])])
    again = answer_of(session)
    assert again.request_id == again_id
    assert again.result is first.result

    changed_id = session_request(lane, memoize=True)
    lane.receive([page_frame(changed_id, ["a", "c"])])
    changed = answer_of(session)
    assert changed.result is not None
    assert changed.result["tools"][1]["name"] == "c" and changed.result is not first.result


def test_only_answers_to_memoised_requests_are_memoised_and_two_listings_at_most_are_kept(
    lane: CallLane, session: ProbeHandle
) -> None:
    plain_id = session_request(lane)
    lane.receive([page_frame(plain_id, ["a"])])  # not a page the session asked to memoise
    session.expect(Received)
    assert lane.engine._memo == {}
    for listing in range(3):
        lane.begin_listing()
        request_id = session_request(lane, memoize=True)
        lane.receive([page_frame(request_id, [f"tool{listing}"])])
        session.expect(Received)
    assert len(lane.engine._memo) + len(lane.engine._memo_previous) == 2


def test_an_error_answer_to_a_page_request_is_never_memoised(lane: CallLane, session: ProbeHandle) -> None:
    request_id = session_request(lane, memoize=True)
    lane.receive([error_frame(request_id, -32603, "boom")])
    error: TroupeError | None = answer_of(session).error
    assert isinstance(error, RemoteError)
    assert lane.engine._memo == {}


# ---- LoopReply: acall's reply, completed straight into the caller's asyncio future ------------------------


def test_a_loop_reply_completes_the_asyncio_future_from_another_thread_once() -> None:
    async def scenario() -> Any:
        reply = LoopReply(asyncio.get_running_loop())
        thread = threading.Thread(target=reply.set_result, args=(({"content": []}, CONTEXT),))
        thread.start()
        result = await asyncio.wait_for(reply.future, 5)
        thread.join()
        assert reply.done()
        with pytest.raises(InvalidStateError):
            reply.set_exception(RuntimeError("twice"))
        return result

    assert asyncio.run(scenario()) == ({"content": []}, CONTEXT)


def test_a_lane_call_awaited_through_a_loop_reply_gets_errors_and_cancellation_right(
    lane: CallLane, wire: Wire
) -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        reply = LoopReply(loop)
        request_id = lane.call("echo", {}, reply, CONTEXT)
        assert request_id is not None
        await loop.run_in_executor(None, lane.receive, [error_frame(request_id, -1, "nope")])
        with pytest.raises(RemoteError, match="nope"):
            await asyncio.wait_for(reply.future, 5)

        # The awaiting task is cancelled: as in Troupe.acall, it gives the call up itself (a LoopReply has
        # no done callback), the server is told, and the future stays cancelled.
        reply = LoopReply(loop)
        cancelled_id = lane.call("echo", {}, reply, CONTEXT)
        assert cancelled_id is not None

        async def awaiting() -> None:
            try:
                await reply.future
            except asyncio.CancelledError:
                assert lane.cancel(cancelled_id, "the caller cancelled the call")
                raise

        task = asyncio.ensure_future(awaiting())
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert reply.future.cancelled()
        notice = wire.wait_for(3)[2]
        assert notice["method"] == "notifications/cancelled"
        assert notice["params"]["requestId"] == cancelled_id
        # A late answer after the cancellation settles nothing and raises nothing.
        lane.receive([result_frame(cancelled_id, {"content": []})])

    asyncio.run(scenario())


def test_a_loop_reply_whose_loop_has_closed_is_completed_quietly() -> None:
    loop = asyncio.new_event_loop()
    reply = LoopReply(loop)
    loop.close()
    reply.set_result("nobody is waiting")  # no exception: the caller is gone
    assert reply.done()


def test_many_callers_while_answers_arrive_never_trip_over_each_other(
    runtime: Runtime, session: ProbeHandle
) -> None:
    """Callers register calls (and now and then rebuild the deadline heap) while the reader pops answers."""
    import queue

    frames: queue.Queue[bytes | None] = queue.Queue()
    lane = CallLane(
        server="srv",
        incarnation=1,
        session=session.ref,
        loop=runtime.loop,
        send=lambda f, outgoing, direct=True: frames.put(f),
    )
    lane.open(60.0)

    def reader() -> None:  # stands in for the loop: answers requests while about 1,000 stay in flight
        backlog: deque[int] = deque()
        while (frame := frames.get()) is not None:
            message = json.loads(frame)
            if "id" in message:
                backlog.append(message["id"])
            while len(backlog) > 1000:
                lane.receive([result_frame(backlog.popleft(), {"content": []})])
        while backlog:
            lane.receive([result_frame(backlog.popleft(), {"content": []})])

    errors: list[BaseException] = []
    futures: list[Future[Any]] = []

    def caller() -> None:
        try:
            for _ in range(3000):
                future: Future[Any] = Future()
                assert lane.call("echo", {}, future, CONTEXT) is not None
                futures.append(future)
        except BaseException as exc:
            errors.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible: races show up within a few runs
    try:
        answering = threading.Thread(target=reader)
        answering.start()
        callers = [threading.Thread(target=caller) for _ in range(3)]
        for thread in callers:
            thread.start()
        for thread in callers:
            thread.join(15)
        frames.put(None)
        answering.join(15)
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    assert len(futures) == 9000 and all(future.result(5)[0] == {"content": []} for future in futures)
