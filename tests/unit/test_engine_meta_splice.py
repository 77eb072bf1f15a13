"""The modern era's per-request ``_meta``, encoded once and spliced into each request: the same message."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe.protocol import jsonrpc, modern
from mcp_troupe.protocol.engine import RequestEngine
from mcp_troupe.protocol.versions import REVISIONS

ERA_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {"roots": {}, "elicitation": {"form": {}}},
    "io.modelcontextprotocol/clientInfo": {"name": "mcp-troupe", "version": "0.1.0"},
}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
params_strategy = st.dictionaries(st.text(max_size=10), json_values, max_size=5)


def engine(version: str = "2026-07-28") -> RequestEngine:
    made = RequestEngine(server="s")
    made.settle(REVISIONS[version], ERA_META)
    return made


def expected(request_id: int, method: str, params: dict[str, Any] | None, meta: dict[str, Any]) -> Any:
    """The request as the general path builds it: params, then the era's _meta merged (ours win)."""
    wire = modern.with_meta(params, {**ERA_META, **meta})
    return json.loads(jsonrpc.encode_request(request_id, method, wire))


@given(params=params_strategy, progress=st.booleans(), meta=st.dictionaries(st.text(max_size=6), json_values))
def test_a_modern_request_is_the_same_message_whichever_path_built_it(
    params: dict[str, Any], progress: bool, meta: dict[str, Any]
) -> None:
    made = engine()
    pending, frame = made.prepare(
        "tools/call", params, None, now=0.0, timeout=1.0, progress=progress, meta=meta or None
    )
    wire_meta = {**meta, **({"progressToken": pending.request_id} if progress else {})}
    assert json.loads(frame) == expected(pending.request_id, "tools/call", params, wire_meta)
    assert b"\n" not in frame


def test_params_with_their_own_meta_and_clashing_keys_keep_the_general_rules() -> None:
    made = engine()
    own = {
        "name": "echo",
        "arguments": {},
        "_meta": {"mine": 1, "io.modelcontextprotocol/protocolVersion": "x"},
    }
    _, frame = made.prepare("tools/call", own, None, now=0.0, timeout=1.0)
    sent = json.loads(frame)["params"]["_meta"]
    assert sent["mine"] == 1 and sent["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
    clash = {"io.modelcontextprotocol/clientInfo": {"name": "other"}}
    _, frame = made.prepare("tools/list", {}, None, now=0.0, timeout=1.0, meta=clash)
    assert json.loads(frame)["params"]["_meta"]["io.modelcontextprotocol/clientInfo"] == {"name": "other"}


def test_empty_and_absent_params_and_the_legacy_era() -> None:
    made = engine()
    _, frame = made.prepare("ping", {}, None, now=0.0, timeout=1.0)
    assert json.loads(frame)["params"] == {"_meta": ERA_META}
    _, frame = made.prepare("ping", None, None, now=0.0, timeout=1.0)
    assert json.loads(frame)["params"] == {"_meta": ERA_META}
    legacy = engine("2025-11-25")
    _, frame = legacy.prepare("tools/call", {"name": "echo"}, None, now=0.0, timeout=1.0, progress=True)
    assert json.loads(frame)["params"] == {"name": "echo", "_meta": {"progressToken": 1}}


def test_a_lone_surrogate_in_the_arguments_still_makes_one_valid_frame() -> None:
    made = engine()
    _, frame = made.prepare("tools/call", {"name": "\ud800"}, None, now=0.0, timeout=1.0, progress=True)
    message = json.loads(frame)
    assert message["params"]["name"] == "\ud800"
    assert message["params"]["_meta"] == {"progressToken": 1, **ERA_META}


@given(params=params_strategy, version=st.sampled_from([None, "2025-11-25", "2025-06-18", "2025-03-26"]))
def test_a_legacy_call_asking_for_progress_is_the_same_message_as_the_general_path_builds(
    params: dict[str, Any], version: str | None
) -> None:
    # The progress token is spliced in as bytes on the call path (every tools/call asks for progress):
    # whatever the params, before the era is settled or in any legacy era, the message is the merged one.
    made = RequestEngine(server="s")
    if version is not None:
        made.settle(REVISIONS[version], None)
    pending, frame = made.prepare("tools/call", params, None, now=0.0, timeout=1.0, progress=True)
    wire = modern.with_meta(params, {"progressToken": pending.request_id})
    assert json.loads(frame) == json.loads(jsonrpc.encode_request(pending.request_id, "tools/call", wire))
    assert pending.progress_token == pending.request_id and b"\n" not in frame


def test_a_legacy_progress_request_with_empty_params_or_its_own_meta() -> None:
    made = RequestEngine(server="s")
    made.settle(REVISIONS["2025-06-18"], None)
    _, frame = made.prepare("tools/call", {}, None, now=0.0, timeout=1.0, progress=True)
    assert json.loads(frame)["params"] == {"_meta": {"progressToken": 1}}
    own = {"name": "echo", "_meta": {"mine": True}}
    _, frame = made.prepare("tools/call", own, None, now=0.0, timeout=1.0, progress=True)
    assert json.loads(frame)["params"]["_meta"] == {"mine": True, "progressToken": 2}


progress_tokens = (
    st.integers() | st.booleans() | st.text(max_size=6) | st.floats(allow_nan=False, allow_infinity=False)
)


@given(params=params_strategy, token=progress_tokens, extra=st.booleans())
def test_the_splice_writes_a_progress_token_of_any_type_as_json_would(
    params: dict[str, Any], token: Any, extra: bool
) -> None:
    # A lone int token is written directly (the call path's common case); every other shape (a bool, which
    # is an int to Python but `true` to JSON, a string, more members) goes through the encoder.
    meta: dict[str, Any] = {"progressToken": token, **({"other": [1]} if extra else {})}
    members = jsonrpc.encode_members(ERA_META)
    frame = jsonrpc.encode_request_with_meta(7, "tools/call", params, meta, members)
    assert json.loads(frame) == {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {**params, "_meta": {**meta, **ERA_META}},
    }


def test_a_modern_answer_without_or_with_a_complete_result_type_is_answered() -> None:
    from mcp_troupe.protocol.engine import Answered, Invalid

    made = engine()
    for result, kind in (({"content": []}, Answered), ({"resultType": "complete"}, Answered)):
        pending, _ = made.request("tools/call", {"name": "echo"}, None, now=0.0, timeout=1.0)
        frame = json.dumps({"jsonrpc": "2.0", "id": pending.request_id, "result": result}).encode()
        (event,) = made.receive(frame, 0.0)
        assert isinstance(event, kind) and event.pending is pending
    for bad in ({"resultType": 3}, {"resultType": "nonsense"}):
        pending, _ = made.request("tools/call", {"name": "echo"}, None, now=0.0, timeout=1.0)
        frame = json.dumps({"jsonrpc": "2.0", "id": pending.request_id, "result": bad}).encode()
        (event,) = made.receive(frame, 0.0)
        assert isinstance(event, Invalid), event


def test_a_complete_modern_answer_takes_the_legacy_fast_path(monkeypatch: Any) -> None:
    # Issue #13: a modern call's common answer is read as cheaply as a legacy one, without the general
    # message path; anything else (another resultType, an error) still goes through it.
    from mcp_troupe.protocol.engine import Answered, Invalid

    made = engine()
    general = made._on_message
    taken: list[object] = []

    def counted(message: Any, now: float) -> Any:
        taken.append(message)
        return general(message, now)

    monkeypatch.setattr(made, "_on_message", counted)
    for result in ({"content": []}, {"resultType": "complete", "_meta": {"x": 1}}):
        pending, _ = made.request("tools/call", {"name": "echo"}, None, now=0.0, timeout=1.0)
        frame = json.dumps({"jsonrpc": "2.0", "id": pending.request_id, "result": result}).encode()
        (event,) = made.receive(frame, 0.0)
        assert isinstance(event, Answered) and event.pending is pending and event.result == result
        assert pending.request_id not in made.pending
    assert taken == []
    pending, _ = made.request("tools/call", {"name": "echo"}, None, now=0.0, timeout=1.0)
    frame = json.dumps({"jsonrpc": "2.0", "id": pending.request_id, "result": {"resultType": 7}}).encode()
    (event,) = made.receive(frame, 0.0)
    assert isinstance(event, Invalid) and len(taken) == 1


def test_one_read_of_modern_answers_sorts_each_by_its_result_type() -> None:
    # Issue #13: a read of several frames (calls in flight) takes the fast path for the complete answers
    # only; an answer asking for input, an unknown resultType and an unknown id each keep their meaning.
    from mcp_troupe.protocol.engine import Answered, Invalid, NeedsInput, Unexpected

    made = engine()
    results: list[dict[str, Any]] = [
        {"content": []},
        {
            "resultType": "input_required",
            "inputRequests": {"q": {"method": "roots/list", "params": {}}},
            "requestState": "s",
        },
        {"resultType": "complete", "content": []},
        {"resultType": "later"},
    ]
    pendings = [made.request("tools/call", {"name": "echo"}, None, now=0.0, timeout=1.0)[0] for _ in results]
    frames = [
        json.dumps({"jsonrpc": "2.0", "id": pending.request_id, "result": result}).encode()
        for pending, result in zip(pendings, results, strict=True)
    ]
    frames.append(json.dumps({"jsonrpc": "2.0", "id": 999, "result": {}}).encode())
    events = made.receive_all(frames, 0.0)
    kinds = [type(event) for event in events]
    assert kinds == [Answered, NeedsInput, Answered, Invalid, Unexpected], events
    assert [event.pending for event in events[:4]] == pendings  # type: ignore[union-attr]
    assert all(pending.request_id not in made.pending for pending in (pendings[0], pendings[2], pendings[3]))
