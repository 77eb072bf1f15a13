"""RequestEngine, the connection core, driven with bytes and times alone (no threads, sockets or clocks)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.spec_schemas import validator

from mcp_troupe.errors import InvalidArguments, MalformedMessage
from mcp_troupe.protocol import jsonrpc
from mcp_troupe.protocol.engine import (
    MAX_CONSECUTIVE_BAD_FRAMES,
    Answered,
    Incoming,
    Invalid,
    NeedsInput,
    Progressed,
    Refused,
    RequestEngine,
    Unexpected,
    Unreadable,
    expiry_decision,
)
from mcp_troupe.protocol.versions import REVISIONS

MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "mcp-troupe", "version": "test"},
}


def frame(message: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", **message}).encode()


def modern_engine() -> RequestEngine:
    engine = RequestEngine(server="s")
    engine.settle(REVISIONS["2026-07-28"], MODERN_META)
    return engine


def test_a_request_is_pending_until_its_answer_and_the_answer_names_its_owner() -> None:
    engine = RequestEngine(server="s")
    pending, data = engine.request("tools/list", None, "owner-1", now=0.0, timeout=5.0)
    assert json.loads(data) == {"jsonrpc": "2.0", "id": pending.request_id, "method": "tools/list"}
    assert pending.request_id in engine.pending

    (event,) = engine.receive(frame({"id": pending.request_id, "result": {"tools": []}}), now=1.0)

    assert isinstance(event, Answered) and event.pending.owner == "owner-1"
    assert event.result == {"tools": []}
    assert engine.pending == {}


def test_ids_are_never_reused_within_a_connection() -> None:
    engine = RequestEngine()
    ids = [engine.request("ping", None, None, now=0.0, timeout=1.0)[0].request_id for _ in range(100)]
    assert len(set(ids)) == 100


def test_an_error_answer_is_a_refusal_of_that_request_only() -> None:
    engine = RequestEngine()
    first, _ = engine.request("tools/call", {"name": "a"}, 1, now=0.0, timeout=5.0)
    second, _ = engine.request("tools/call", {"name": "b"}, 2, now=0.0, timeout=5.0)

    (event,) = engine.receive(
        frame({"id": first.request_id, "error": {"code": -32602, "message": "no"}}), 0.0
    )

    assert isinstance(event, Refused) and event.error.code == -32602 and event.pending is first
    assert list(engine.pending) == [second.request_id]


def test_deadlines_expire_in_order_and_a_late_answer_is_recognised_as_late() -> None:
    engine = RequestEngine()
    slow, _ = engine.request("tools/call", None, "slow", now=0.0, timeout=10.0)
    fast, _ = engine.request("tools/call", None, "fast", now=0.0, timeout=1.0)
    assert engine.earliest == 1.0

    assert engine.expire(0.5) == []
    assert [p.owner for p in engine.expire(1.0)] == ["fast"]
    (late,) = engine.receive(frame({"id": fast.request_id, "result": {}}), 2.0)
    assert isinstance(late, Unexpected) and late.is_late
    (unknown,) = engine.receive(frame({"id": 424242, "result": {}}), 2.0)
    assert isinstance(unknown, Unexpected) and not unknown.is_late
    assert slow.request_id in engine.pending


def test_cancel_gives_the_notification_for_that_id_but_never_for_initialize() -> None:
    engine = RequestEngine()
    call, _ = engine.request("tools/call", None, None, now=0.0, timeout=5.0)
    init, _ = engine.request("initialize", {}, None, now=0.0, timeout=5.0)

    taken = engine.cancel(call.request_id, "stop")
    assert taken is not None
    notice = json.loads(taken[1])
    assert notice["method"] == "notifications/cancelled"
    assert notice["params"] == {"requestId": call.request_id, "reason": "stop"}
    assert validator("2025-11-25", "CancelledNotification").is_valid(notice)
    init_taken = engine.cancel(init.request_id, "stop")
    assert init_taken is not None and init_taken[1] == b""  # spec: initialize MUST NOT be cancelled
    assert engine.cancel(call.request_id, "again") is None


def test_a_probe_given_up_on_is_never_cancelled_either() -> None:
    # A legacy server's silence to server/discover is answered by initialize, with nothing sent before it.
    engine = RequestEngine()
    probe, _ = engine.request("server/discover", {}, None, now=0.0, timeout=1.0)
    assert [pending.request_id for pending in engine.expire(2.0)] == [probe.request_id]
    assert engine.cancel_frame(probe, "timed out after 1 s") == b""


def test_the_modern_era_puts_its_meta_on_every_request_and_keeps_the_callers_meta() -> None:
    engine = modern_engine()
    _, data = engine.request(
        "tools/call", {"name": "t", "arguments": {}, "_meta": {"trace": 1}}, None, now=0.0, timeout=5.0
    )
    message = json.loads(data)
    assert message["params"]["_meta"] == {**MODERN_META, "trace": 1}
    assert validator("2026-07-28", "CallToolRequest").is_valid(message)


def test_progress_moves_the_deadline_on_but_never_past_the_hard_cap() -> None:
    engine = RequestEngine()
    pending, data = engine.request(
        "tools/call", {"name": "t"}, None, now=0.0, timeout=2.0, hard_timeout=5.0, progress=True
    )
    token = json.loads(data)["params"]["_meta"]["progressToken"]
    progress = frame({"method": "notifications/progress", "params": {"progressToken": token, "progress": 1}})

    (event,) = engine.receive(progress, now=1.5)
    assert isinstance(event, Progressed) and pending.deadline == 3.5
    engine.receive(progress, now=4.5)
    assert pending.deadline == 5.0  # capped
    assert engine.expire(4.9) == []
    assert engine.expire(5.0) == [pending]


def test_progress_for_no_pending_request_is_an_ordinary_notification() -> None:
    engine = RequestEngine()
    notice = frame({"method": "notifications/progress", "params": {"progressToken": 99, "progress": 1}})
    (event,) = engine.receive(notice, 0.0)
    assert isinstance(event, Incoming)


def test_legacy_results_are_complete_whatever_their_result_type_says() -> None:
    engine = RequestEngine()
    engine.settle(REVISIONS["2025-06-18"])
    pending, _ = engine.request("tools/call", {"name": "t"}, None, now=0.0, timeout=5.0)
    (event,) = engine.receive(frame({"id": pending.request_id, "result": {"resultType": "weird"}}), 0.0)
    assert isinstance(event, Answered)


@pytest.mark.parametrize(
    ("result", "kind"),
    [
        ({"content": []}, Answered),  # absent means complete (spec: 2026-07-28 basic/index)
        ({"resultType": "complete", "content": []}, Answered),
        ({"resultType": "task", "task": {}}, Invalid),  # not an extension we declared
        ({"resultType": 5}, Invalid),
        ({"resultType": "input_required"}, Invalid),  # neither inputRequests nor requestState
    ],
)
def test_the_modern_result_type_is_checked(result: dict[str, Any], kind: type) -> None:
    engine = modern_engine()
    pending, _ = engine.request("tools/call", {"name": "t"}, None, now=0.0, timeout=5.0)
    (event,) = engine.receive(frame({"id": pending.request_id, "result": result}), 0.0)
    assert isinstance(event, kind)


def test_input_required_is_retried_under_a_new_id_with_the_answers_and_the_exact_state() -> None:
    engine = modern_engine()
    first, _ = engine.request("tools/call", {"name": "t", "arguments": {"a": 1}}, "me", now=0.0, timeout=5.0)
    needs = {
        "resultType": "input_required",
        "inputRequests": {"confirm": {"method": "elicitation/create", "params": {"message": "ok?"}}},
        "requestState": "opaque \u00e9 state==",
    }
    (event,) = engine.receive(frame({"id": first.request_id, "result": needs}), 1.0)
    assert isinstance(event, NeedsInput)
    assert event.needs.request_state == "opaque \u00e9 state=="

    retried, data = engine.retry(event.pending, {"confirm": {"action": "accept"}}, event.needs.request_state)

    message = json.loads(data)
    assert retried.request_id != first.request_id and retried.owner == "me"
    assert retried.deadline == first.deadline  # the rounds are one request
    assert message["params"]["arguments"] == {"a": 1}
    assert message["params"]["inputResponses"] == {"confirm": {"action": "accept"}}
    assert message["params"]["requestState"] == "opaque \u00e9 state=="
    assert message["params"]["_meta"] == MODERN_META
    assert validator("2026-07-28", "CallToolRequest").is_valid(message)


def test_a_request_json_cannot_write_is_refused_before_it_is_tracked_in_any_round() -> None:
    engine = modern_engine()
    with pytest.raises(
        InvalidArguments, match=r"tools/call of 't' \(JSON-RPC id 1\).*is not JSON serializable"
    ):
        engine.request("tools/call", {"name": "t", "arguments": {"a": object()}}, "me", now=0.0, timeout=5.0)
    assert not engine.pending
    first, _ = engine.request("tools/call", {"name": "t", "arguments": {}}, "me", now=0.0, timeout=5.0)
    needs = {"resultType": "input_required", "inputRequests": {}, "requestState": "s"}
    (event,) = engine.receive(frame({"id": first.request_id, "result": needs}), 1.0)
    assert isinstance(event, NeedsInput)
    with pytest.raises(InvalidArguments, match="Out of range float"):
        engine.retry(event.pending, {"k": {"action": "accept", "content": {"n": float("inf")}}}, "s")
    assert not engine.pending  # never sent, so not waited for


def test_a_state_only_round_omits_input_responses_and_a_later_round_replaces_earlier_answers() -> None:
    engine = modern_engine()
    pending, _ = engine.request("prompts/get", {"name": "p"}, None, now=0.0, timeout=5.0)
    round_one, _ = engine.retry(pending, {"k": {"roots": []}}, "s1")
    _, data = engine.retry(round_one, {}, "s2")
    params = json.loads(data)["params"]
    assert "inputResponses" not in params and params["requestState"] == "s2"


def test_input_rounds_are_bounded() -> None:
    engine = modern_engine()
    pending, _ = engine.request("tools/call", {"name": "t"}, None, now=0.0, timeout=5.0)
    event = None
    for _ in range(11):
        (event,) = engine.receive(
            frame(
                {"id": pending.request_id, "result": {"resultType": "input_required", "requestState": "x"}}
            ),
            0.0,
        )
        if isinstance(event, Invalid):
            break
        assert isinstance(event, NeedsInput)
        pending, _ = engine.retry(event.pending, {}, "x")
    assert isinstance(event, Invalid) and "10 rounds" in str(event.error)


def test_an_unreadable_answer_whose_id_shows_fails_that_request_at_once() -> None:
    engine = RequestEngine(server="s")
    pending, _ = engine.request("tools/call", None, "me", now=0.0, timeout=60.0)
    deep = b'{"jsonrpc":"2.0","id":%d,"result":' % pending.request_id + b"[" * 100_000 + b"]" * 100_000 + b"}"

    (event,) = engine.receive(deep, 0.0)

    # The request ends now, either way: unreadable (its id recovered) or read with the depth cut off.
    assert isinstance(event, Invalid | Answered) and event.pending is pending
    if isinstance(event, Invalid):
        assert "could not be read" in str(event.error)
    assert engine.pending == {}


def test_an_undecodable_answer_whose_id_shows_fails_that_request_at_once() -> None:
    engine = RequestEngine(server="s")
    pending, _ = engine.request("tools/call", None, "me", now=0.0, timeout=60.0)
    broken = b'{"jsonrpc":"2.0","id":%d,"result":{"text":"unterminated' % pending.request_id

    (event,) = engine.receive(broken, 0.0)

    assert isinstance(event, Invalid) and event.pending is pending
    assert "could not be read" in str(event.error) and "not JSON" in str(event.error)
    assert engine.pending == {}


def test_unreadable_frames_in_a_row_become_fatal_and_a_good_frame_resets_the_count() -> None:
    engine = RequestEngine()
    events = [engine.receive(b"garbage", 0.0)[0] for _ in range(MAX_CONSECUTIVE_BAD_FRAMES - 1)]
    assert all(isinstance(e, Unreadable) and not e.is_fatal for e in events)
    engine.receive(frame({"method": "notifications/message", "params": {}}), 0.0)
    (event,) = engine.receive(b"garbage", 0.0)
    assert isinstance(event, Unreadable) and event.in_a_row == 1
    for _ in range(MAX_CONSECUTIVE_BAD_FRAMES - 1):
        (event,) = engine.receive(b"garbage", 0.0)
    assert isinstance(event, Unreadable) and event.is_fatal


def test_a_broken_stream_reissues_only_what_is_safe_to_repeat_and_only_once() -> None:
    engine = modern_engine()
    listing, _ = engine.request("tools/list", {"cursor": "c"}, None, now=0.0, timeout=5.0)
    call, _ = engine.request("tools/call", {"name": "t"}, None, now=0.0, timeout=5.0)

    again = engine.reissue(listing)
    assert again is not None
    assert again[0].request_id != listing.request_id
    assert json.loads(again[1])["params"]["cursor"] == "c"
    assert engine.reissue(again[0]) is None  # once
    assert engine.reissue(call) is None  # a tool call might run twice


def test_expiry_decisions_follow_the_spec() -> None:
    engine = RequestEngine()
    continuation, _ = engine.request("tools/list", {"cursor": "c"}, None, now=0.0, timeout=5.0)
    call, _ = engine.request("tools/call", {"name": "t"}, None, now=0.0, timeout=5.0)
    assert expiry_decision(continuation, continuation.params) == "relist"
    assert expiry_decision(call, None) == "retry"
    call.is_retried = True
    assert expiry_decision(call, None) == "fail"


# ---- property tests on untrusted bytes ---------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_give_events_and_never_raise(data: bytes) -> None:
    engine = RequestEngine()
    engine.request("tools/call", None, None, now=0.0, timeout=1.0)
    for event in engine.receive(data, 0.0):
        assert isinstance(
            event, Answered | Refused | Invalid | Incoming | Unexpected | Unreadable | Progressed
        )


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(json_values, st.sampled_from(["2025-06-18", "2026-07-28"]))
def test_any_answer_to_a_pending_request_settles_it_exactly_once(result: Any, version: str) -> None:
    engine = RequestEngine()
    engine.settle(REVISIONS[version], MODERN_META)
    pending, _ = engine.request("tools/call", {"name": "t"}, None, now=0.0, timeout=1.0)
    data = frame({"id": pending.request_id, "result": result})
    events = engine.receive(data, 0.0)
    if isinstance(result, dict):
        assert len(events) == 1 and isinstance(events[0], Answered | Invalid | NeedsInput)
        assert pending.request_id not in engine.pending
    else:
        # Not a result object: the frame is malformed, but its id still ends the request at once.
        assert len(events) == 1 and isinstance(events[0], Invalid | Unreadable)


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**40) | st.text(max_size=20), json_values)
def test_recover_id_finds_the_top_level_id_or_nothing(request_id: int | str, result: Any) -> None:
    data = json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}).encode()
    assert jsonrpc.recover_id(data) == request_id
    nested = json.dumps({"jsonrpc": "2.0", "result": {"inner": {"id": request_id}}}).encode()
    assert jsonrpc.recover_id(nested) is None


def test_decoding_and_the_engine_agree_on_malformed_frames() -> None:
    with pytest.raises(MalformedMessage):
        jsonrpc.decode(b"[]")
    engine = RequestEngine()
    (event,) = engine.receive(b"[]", 0.0)
    assert isinstance(event, Unreadable)
