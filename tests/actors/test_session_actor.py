"""SessionActor, driven by scripted message sequences.

The session's supervisor and transport are probes and its wire is a :class:`FakeOutbound`; each test plays the
server's side frame by frame and asserts exactly what the session sent and reported (DESIGN §3: connect,
call, list_changed; rules 3 and 4: stale incarnations, a dead transport fails every pending call at once).
"""

from __future__ import annotations

import json
import logging
import time
from concurrent.futures import Future

import pytest

from mcp_troupe.actors.lane import Outgoing
from mcp_troupe.actors.loop import Runtime
from mcp_troupe.actors.session import (
    CallRequest,
    CancelCall,
    CatalogChanged,
    Close,
    Connect,
    Opened,
    OpenFailed,
    SessionExpired,
    SessionFailed,
    SessionLost,
    SessionReady,
    TransportDown,
)
from mcp_troupe.actors.transport import Open
from mcp_troupe.errors import (
    CallCancelled,
    CallTimedOut,
    ConnectFailed,
    ConnectionLost,
    ProtocolError,
    RemoteError,
    UnsupportedProtocolVersion,
)
from mcp_troupe.protocol.engine import MAX_CONSECUTIVE_BAD_FRAMES
from mcp_troupe.protocol.versions import LATEST_LEGACY, LEGACY_VERSIONS, SUPPORTED

from .fakes import (
    DEFAULT_WAIT,
    FakeOutbound,
    ScriptedSession,
    error_frame,
    initialize_result,
    names_of,
    notification_frame,
    request_frame,
    result_frame,
    spec_errors,
    tool,
)

SESSION_LOGGER = "mcp_troupe"
# The connection logs from the session and from its lane (the request engine's shell).
CONNECTION_LOGGERS = ("mcp_troupe.session", "mcp_troupe.lane")


def _session_records(
    caplog: pytest.LogCaptureFixture, level: int = logging.WARNING
) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name in CONNECTION_LOGGERS and r.levelno >= level]


# ---- handshake ---------------------------------------------------------------------------------------------


@pytest.mark.timeout(15)
@pytest.mark.parametrize("version", LEGACY_VERSIONS)
def test_handshake_reports_ready_with_every_tool_for_each_supported_version(
    scripted: ScriptedSession, version: str
) -> None:
    initialize = scripted.connect(pid=123)

    assert spec_errors(initialize, "JSONRPCRequest", "InitializeRequest") == []
    assert initialize["params"]["protocolVersion"] == LATEST_LEGACY  # the latest handshake version we speak
    assert initialize["params"]["capabilities"] == {}  # no sampling, elicitation or roots
    scripted.barrier()
    assert scripted.wire.unconsumed() == [], "nothing may precede the answer to initialize"

    scripted.reply(initialize, initialize_result(version))
    initialized = scripted.wire.expect_notification("notifications/initialized")
    assert spec_errors(initialized, "JSONRPCNotification", "InitializedNotification") == []
    listing = scripted.wire.expect_request("tools/list")
    assert spec_errors(listing, "JSONRPCRequest", "ListToolsRequest") == []
    assert listing["id"] != initialize["id"]
    scripted.reply(listing, {"tools": [tool("echo"), tool("add")]})

    ready = scripted.supervisor.expect(SessionReady)
    assert ready.incarnation == scripted.incarnation
    assert ready.session == scripted.ref
    assert ready.info.protocol_version == version
    assert ready.info.server_info["name"] == "scripted"
    assert names_of(ready.tools) == ["echo", "add"]
    assert ready.rejected == ()
    assert ready.pid == 123
    assert scripted.wire.protocol_version == version


@pytest.mark.timeout(15)
def test_a_silent_probe_falls_back_at_its_timeout_without_a_cancel_and_its_late_answer_is_dropped(
    runtime: Runtime,
) -> None:
    # The probe's timeout is min(PROBE_TIMEOUT, handshake_timeout): the lane's own deadline for it.
    scripted = ScriptedSession(runtime, handshake_timeout=0.3)
    started = time.monotonic()
    probe = scripted.open()
    assert probe["method"] == "server/discover"
    initialize = scripted.wire.expect_request("initialize")
    assert 0.3 <= time.monotonic() - started < 3.0
    assert [m.get("method") for m in scripted.wire.sent] == ["server/discover", "initialize"]  # no cancel
    scripted.reply(probe, {"supportedVersions": ["2026-07-28"]})  # too late: dropped, not a modern server
    scripted.reply(initialize, initialize_result("2025-06-18"))
    scripted.wire.expect_notification("notifications/initialized")
    scripted.reply(scripted.wire.expect_request("tools/list"), {"tools": [tool("echo")]})
    ready = scripted.supervisor.expect(SessionReady)
    assert ready.info.protocol_version == "2025-06-18"


@pytest.mark.timeout(15)
def test_an_unsupported_version_fails_the_session_without_sending_initialized(
    scripted: ScriptedSession,
) -> None:
    initialize = scripted.connect()

    scripted.reply(initialize, initialize_result("2099-01-01"))

    failed = scripted.supervisor.expect(SessionFailed)
    assert failed.incarnation == scripted.incarnation
    assert isinstance(failed.error, UnsupportedProtocolVersion)
    assert failed.error.offered == "2099-01-01"
    assert failed.error.supported == SUPPORTED
    assert "2099-01-01" in str(failed.error)
    assert all(version in str(failed.error) for version in SUPPORTED)
    scripted.barrier()
    assert [m.get("method") for m in scripted.wire.sent] == ["server/discover", "initialize"]
    scripted.supervisor.assert_none(SessionReady)


@pytest.mark.timeout(15)
def test_an_error_answer_to_initialize_fails_the_session(scripted: ScriptedSession) -> None:
    initialize = scripted.connect()

    scripted.reply_error(initialize, -32602, "bad params")

    failed = scripted.supervisor.expect(SessionFailed)
    assert isinstance(failed.error, RemoteError)
    assert (failed.error.code, failed.error.remote_message) == (-32602, "bad params")


@pytest.mark.timeout(15)
def test_an_unanswered_initialize_fails_at_the_handshake_timeout_and_is_never_cancelled(
    runtime: Runtime,
) -> None:
    scripted = ScriptedSession(runtime, handshake_timeout=0.2)
    initialize = scripted.connect()

    failed = scripted.supervisor.expect(SessionFailed)

    assert isinstance(failed.error, CallTimedOut)
    assert failed.error.method == "initialize"
    assert failed.error.request_id == initialize["id"]
    scripted.barrier()
    # spec: lifecycle — a client MUST NOT attempt to cancel its initialize request.
    assert [m.get("method") for m in scripted.wire.sent] == ["server/discover", "initialize"]


@pytest.mark.timeout(15)
def test_a_transport_that_fails_to_open_is_reported_as_session_failed(scripted: ScriptedSession) -> None:
    scripted.ref.tell(Connect(scripted.transport.ref))
    scripted.transport.expect(Open)
    error = ConnectFailed(scripted.server, "command not found: 'nope'")

    scripted.ref.tell(OpenFailed(scripted.incarnation, error))

    failed = scripted.supervisor.expect(SessionFailed)
    assert failed.error is error


@pytest.mark.timeout(15)
def test_calls_before_the_session_is_ready_fail_at_once(scripted: ScriptedSession) -> None:
    scripted.connect()
    future: Future[object] = Future()

    scripted.ref.tell(CallRequest("tools/call", {"name": "echo", "arguments": {}}, future, 30.0))

    error = future.exception(timeout=DEFAULT_WAIT)
    assert isinstance(error, ConnectionLost)
    assert error.server == scripted.server


@pytest.mark.timeout(15)
def test_a_server_without_the_tools_capability_is_ready_with_no_tools_and_no_listing(
    scripted: ScriptedSession,
) -> None:
    initialize = scripted.connect()

    scripted.reply(initialize, {"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {}})

    ready = scripted.supervisor.expect(SessionReady)
    assert ready.tools == ()
    scripted.barrier()
    assert [m.get("method") for m in scripted.wire.sent] == [
        "server/discover",
        "initialize",
        "notifications/initialized",
    ]


# ---- pagination --------------------------------------------------------------------------------------------


@pytest.mark.timeout(15)
def test_three_pages_are_followed_by_cursor_and_every_tool_kept_in_order(scripted: ScriptedSession) -> None:
    first = scripted.initialize()
    assert "cursor" not in (first.get("params") or {})

    scripted.reply(first, {"tools": [tool("a1"), tool("a2")], "nextCursor": "c-2"})
    second = scripted.wire.expect_request("tools/list")
    assert second["params"] == {"cursor": "c-2"}
    assert spec_errors(second, "JSONRPCRequest", "ListToolsRequest") == []
    scripted.reply(second, {"tools": [tool("b1")], "nextCursor": "c-3"})
    third = scripted.wire.expect_request("tools/list")
    assert third["params"] == {"cursor": "c-3"}
    scripted.reply(third, {"tools": [tool("c1"), tool("c2")]})

    ready = scripted.supervisor.expect(SessionReady)
    assert names_of(ready.tools) == ["a1", "a2", "b1", "c1", "c2"]
    assert len({first["id"], second["id"], third["id"]}) == 3
    scripted.barrier()
    assert scripted.wire.unconsumed() == []


@pytest.mark.timeout(15)
def test_a_repeated_cursor_fails_the_session_naming_the_pagination_loop(scripted: ScriptedSession) -> None:
    first = scripted.initialize()
    scripted.reply(first, {"tools": [tool("a")], "nextCursor": "again"})
    second = scripted.wire.expect_request("tools/list")

    scripted.reply(second, {"tools": [tool("b")], "nextCursor": "again"})

    failed = scripted.supervisor.expect(SessionFailed)
    assert isinstance(failed.error, ProtocolError)
    assert "pagination loop" in str(failed.error)
    assert "again" in str(failed.error)
    scripted.barrier()
    assert scripted.wire.unconsumed() == [], "no third page may be requested"


@pytest.mark.timeout(15)
def test_a_bad_tool_entry_is_rejected_and_the_others_kept(scripted: ScriptedSession) -> None:
    first = scripted.initialize()

    scripted.reply(first, {"tools": [tool("good"), {"name": "broken"}, tool("also_good")]})

    ready = scripted.supervisor.expect(SessionReady)
    assert names_of(ready.tools) == ["good", "also_good"]
    assert [name for name, _ in ready.rejected] == ["broken"]
    assert "inputSchema" in ready.rejected[0][1]


# ---- calls -------------------------------------------------------------------------------------------------


@pytest.mark.timeout(15)
def test_a_call_goes_out_with_a_fresh_id_and_its_result_completes_the_future(
    scripted: ScriptedSession,
) -> None:
    scripted.handshake()
    handshake_ids = {m["id"] for m in scripted.wire.sent if "id" in m}

    future, request = scripted.call("echo", {"text": "hi"}, timeout=10.0)
    other_future, other_request = scripted.call("echo", {"text": "again"}, timeout=10.0)

    assert spec_errors(request, "JSONRPCRequest", "CallToolRequest") == []
    assert request["params"] == {"name": "echo", "arguments": {"text": "hi"}}
    assert request["id"] not in handshake_ids
    assert other_request["id"] not in handshake_ids | {request["id"]}
    raw = {"content": [{"type": "text", "text": "hi"}], "isError": False, "_meta": {"x": 1}}
    scripted.reply(request, raw)
    assert future.result(timeout=DEFAULT_WAIT) == raw
    assert not other_future.done()
    scripted.reply(other_request, {"content": []})
    assert other_future.result(timeout=DEFAULT_WAIT) == {"content": []}


@pytest.mark.timeout(15)
def test_a_json_rpc_error_fails_the_call_with_remote_error_carrying_code_message_and_id(
    scripted: ScriptedSession,
) -> None:
    scripted.handshake()
    future, request = scripted.call("echo", {})

    scripted.reply_error(request, -32602, "Unknown tool: 'echo'", {"tool": "echo"})

    error = future.exception(timeout=DEFAULT_WAIT)
    assert isinstance(error, RemoteError)
    assert error.code == -32602
    assert error.remote_message == "Unknown tool: 'echo'"
    assert error.request_id == request["id"]
    assert error.data == {"tool": "echo"}
    assert error.server == scripted.server
    assert error.method == "tools/call"


@pytest.mark.timeout(15)
def test_a_response_for_an_unknown_id_is_logged_and_dropped(
    scripted: ScriptedSession, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger=SESSION_LOGGER)
    scripted.handshake()

    scripted.feed(result_frame(987654, {"content": []}))
    scripted.barrier()

    warnings = _session_records(caplog)
    assert len(warnings) == 1
    assert "987654" in warnings[0].getMessage()
    assert scripted.server in warnings[0].getMessage()
    future, request = scripted.call("echo", {})
    scripted.reply(request, {"content": []})
    assert future.result(timeout=DEFAULT_WAIT) == {"content": []}


@pytest.mark.timeout(15)
def test_a_timed_out_call_fails_and_the_server_is_sent_a_cancellation(scripted: ScriptedSession) -> None:
    scripted.handshake()
    started = time.monotonic()

    future, request = scripted.call("slow", {}, timeout=0.2)

    error = future.exception(timeout=DEFAULT_WAIT)
    assert time.monotonic() - started >= 0.2
    assert isinstance(error, CallTimedOut)
    assert error.request_id == request["id"]
    assert error.timeout == pytest.approx(0.2)
    assert "0.2" in str(error) and str(request["id"]) in str(error)
    cancelled = scripted.wire.expect_notification("notifications/cancelled")
    assert spec_errors(cancelled, "JSONRPCNotification", "CancelledNotification") == []
    assert cancelled["params"]["requestId"] == request["id"]
    assert isinstance(cancelled["params"].get("reason"), str) and cancelled["params"]["reason"]


@pytest.mark.timeout(15)
def test_a_late_response_after_a_timeout_is_dropped_quietly_and_the_connection_stays_up(
    scripted: ScriptedSession, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger=SESSION_LOGGER)
    scripted.handshake()
    future, request = scripted.call("slow", {}, timeout=0.2)
    assert isinstance(future.exception(timeout=DEFAULT_WAIT), CallTimedOut)
    scripted.wire.expect_notification("notifications/cancelled")

    scripted.reply(request, {"content": [{"type": "text", "text": "too late"}]})
    scripted.barrier()

    assert _session_records(caplog) == []
    next_future, next_request = scripted.call("echo", {})
    scripted.reply(next_request, {"content": []})
    assert next_future.result(timeout=DEFAULT_WAIT) == {"content": []}
    scripted.supervisor.assert_none(SessionLost)


@pytest.mark.timeout(15)
def test_a_timeout_fails_only_its_own_call(scripted: ScriptedSession) -> None:
    scripted.handshake()
    patient, patient_request = scripted.call("echo", {"n": 1}, timeout=30.0)
    hasty, _ = scripted.call("echo", {"n": 2}, timeout=0.2)

    assert isinstance(hasty.exception(timeout=DEFAULT_WAIT), CallTimedOut)

    assert not patient.done()
    scripted.reply(patient_request, {"content": []})
    assert patient.result(timeout=DEFAULT_WAIT) == {"content": []}


@pytest.mark.timeout(15)
def test_the_session_call_timeout_applies_when_the_call_sets_none(runtime: Runtime) -> None:
    scripted = ScriptedSession(runtime, call_timeout=0.2)
    scripted.handshake()

    future, request = scripted.call("slow", {}, timeout=None)

    error = future.exception(timeout=DEFAULT_WAIT)
    assert isinstance(error, CallTimedOut)
    assert error.timeout == pytest.approx(0.2)
    scripted.wire.expect_notification(
        "notifications/cancelled", where=lambda m: m["params"]["requestId"] == request["id"]
    )


@pytest.mark.timeout(15)
def test_cancelling_the_future_sends_a_cancellation_for_its_id(
    scripted: ScriptedSession, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger=SESSION_LOGGER)
    scripted.handshake()
    future, request = scripted.call("slow", {}, timeout=30.0)

    assert future.cancel()

    cancelled = scripted.wire.expect_notification("notifications/cancelled")
    assert cancelled["params"]["requestId"] == request["id"]
    assert spec_errors(cancelled, "JSONRPCNotification", "CancelledNotification") == []
    # A late answer is dropped quietly, and the connection keeps working.
    scripted.reply(request, {"content": []})
    next_future, next_request = scripted.call("echo", {})
    scripted.reply(next_request, {"content": []})
    assert next_future.result(timeout=DEFAULT_WAIT) == {"content": []}
    assert _session_records(caplog) == []


@pytest.mark.timeout(15)
def test_cancel_call_fails_the_future_with_call_cancelled_and_tells_the_server(
    scripted: ScriptedSession,
) -> None:
    scripted.handshake()
    future, request = scripted.call("slow", {}, timeout=30.0)

    scripted.ref.tell(CancelCall(future, "the user changed their mind"))

    error = future.exception(timeout=DEFAULT_WAIT)
    assert isinstance(error, CallCancelled)
    assert error.request_id == request["id"]
    assert error.server == scripted.server
    cancelled = scripted.wire.expect_notification("notifications/cancelled")
    assert cancelled["params"] == {"requestId": request["id"], "reason": "the user changed their mind"}


# ---- a dead transport --------------------------------------------------------------------------------------


@pytest.mark.timeout(15)
def test_pending_calls_fail_at_once_when_the_transport_goes_down(scripted: ScriptedSession) -> None:
    scripted.handshake()
    futures = [scripted.call("slow", {"n": n}, timeout=30.0)[0] for n in range(3)]
    started = time.monotonic()

    scripted.ref.tell(TransportDown(scripted.incarnation, "the server process exited with code 3", ("bye",)))

    errors = [future.exception(timeout=DEFAULT_WAIT) for future in futures]
    assert time.monotonic() - started < 1.0, "pending calls must not wait out their timeout"
    for error in errors:
        assert isinstance(error, ConnectionLost)
        assert error.server == scripted.server
        assert scripted.server in str(error)
        assert "exited with code 3" in str(error)
    lost = scripted.supervisor.expect(SessionLost)
    assert lost.incarnation == scripted.incarnation
    assert lost.stderr_tail == ("bye",)
    scripted.supervisor.assert_none(SessionFailed)


@pytest.mark.timeout(15)
def test_a_transport_down_before_ready_is_reported_as_session_failed(scripted: ScriptedSession) -> None:
    scripted.connect()

    scripted.ref.tell(TransportDown(scripted.incarnation, "the server process exited with code 3", ("oops",)))

    failed = scripted.supervisor.expect(SessionFailed)
    assert isinstance(failed.error, ConnectFailed)
    assert "exited with code 3" in str(failed.error)
    assert failed.error.stderr_tail == ("oops",)
    scripted.supervisor.assert_none(SessionLost)


@pytest.mark.timeout(15)
def test_close_fails_pending_calls_and_stops_the_session(scripted: ScriptedSession) -> None:
    scripted.handshake()
    future, _ = scripted.call("slow", {}, timeout=30.0)

    scripted.ref.tell(Close("restarted by the operator"))

    error = future.exception(timeout=DEFAULT_WAIT)
    assert isinstance(error, ConnectionLost)
    assert "restarted by the operator" in str(error)
    assert scripted.ref.actor_stopped.wait(DEFAULT_WAIT)
    # The supervisor asked for the close: it gets no loss report.
    scripted.supervisor.assert_none(SessionLost)


# ---- requests and notifications from the server ------------------------------------------------------------


@pytest.mark.timeout(15)
@pytest.mark.parametrize("request_id", [41, "ping-1"])
def test_a_ping_is_answered_with_an_empty_result_and_the_same_id(
    scripted: ScriptedSession, request_id: int | str
) -> None:
    scripted.handshake()

    scripted.feed(request_frame(request_id, "ping"))

    response = scripted.wire.expect_response(request_id)
    assert response == {"jsonrpc": "2.0", "id": request_id, "result": {}}
    assert spec_errors(response, "JSONRPCResponse") == []


@pytest.mark.timeout(15)
@pytest.mark.parametrize("method", ["sampling/createMessage", "elicitation/create", "roots/list", "foo/bar"])
def test_a_server_request_we_do_not_support_gets_method_not_found(
    scripted: ScriptedSession, method: str
) -> None:
    scripted.handshake()

    scripted.feed(request_frame(5, method, {"x": 1}))

    response = scripted.wire.expect_response(5)
    assert response["error"]["code"] == -32601
    assert method in response["error"]["message"]
    assert spec_errors(response, "JSONRPCError") == []
    # The connection is unaffected.
    future, request = scripted.call("echo", {})
    scripted.reply(request, {"content": []})
    assert future.result(timeout=DEFAULT_WAIT) == {"content": []}


@pytest.mark.timeout(15)
def test_progress_and_log_notifications_are_ignored_quietly(
    scripted: ScriptedSession, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger=SESSION_LOGGER)
    scripted.handshake()
    future, request = scripted.call("slow", {}, timeout=30.0)

    scripted.feed(
        notification_frame("notifications/progress", {"progressToken": 1, "progress": 0.5}),
        notification_frame("notifications/message", {"level": "info", "data": "working"}),
        notification_frame("notifications/resources/list_changed"),
    )
    scripted.barrier()

    assert _session_records(caplog) == []
    assert scripted.wire.unconsumed() == []
    assert not future.done()
    scripted.reply(request, {"content": []})
    assert future.result(timeout=DEFAULT_WAIT) == {"content": []}


@pytest.mark.timeout(15)
def test_a_batch_of_responses_is_accepted_under_2025_03_26(scripted: ScriptedSession) -> None:
    scripted.handshake(version="2025-03-26")
    first, first_request = scripted.call("echo", {"n": 1})
    second, second_request = scripted.call("echo", {"n": 2})

    batch = (
        b"["
        + result_frame(first_request["id"], {"n": 1})
        + b","
        + result_frame(second_request["id"], {"n": 2})
        + b"]"
    )
    scripted.feed(batch)

    assert first.result(timeout=DEFAULT_WAIT) == {"n": 1}
    assert second.result(timeout=DEFAULT_WAIT) == {"n": 2}


# ---- garbage on the wire -----------------------------------------------------------------------------------


@pytest.mark.timeout(15)
def test_a_garbage_frame_between_valid_frames_is_logged_and_skipped(
    scripted: ScriptedSession, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger=SESSION_LOGGER)
    scripted.handshake()
    first, first_request = scripted.call("echo", {"n": 1})
    second, second_request = scripted.call("echo", {"n": 2})

    scripted.feed(
        result_frame(first_request["id"], {"n": 1}),
        b"this is not json {{{",
        result_frame(second_request["id"], {"n": 2}),
    )

    assert first.result(timeout=DEFAULT_WAIT) == {"n": 1}
    assert second.result(timeout=DEFAULT_WAIT) == {"n": 2}
    scripted.barrier()
    warnings = _session_records(caplog)
    assert len(warnings) == 1
    assert scripted.server in warnings[0].getMessage()
    later, later_request = scripted.call("echo", {"n": 3})
    scripted.reply(later_request, {"n": 3})
    assert later.result(timeout=DEFAULT_WAIT) == {"n": 3}
    scripted.supervisor.assert_none(SessionLost)


@pytest.mark.timeout(15)
def test_a_hundred_garbage_frames_in_a_row_lose_the_connection(scripted: ScriptedSession) -> None:
    scripted.handshake()
    future, _ = scripted.call("slow", {}, timeout=30.0)

    scripted.feed(*[b"garbage %d" % n for n in range(MAX_CONSECUTIVE_BAD_FRAMES)])

    lost = scripted.supervisor.expect(SessionLost)
    assert "unreadable" in lost.reason
    assert isinstance(future.exception(timeout=DEFAULT_WAIT), ConnectionLost)


@pytest.mark.timeout(15)
def test_a_good_frame_resets_the_garbage_count(scripted: ScriptedSession) -> None:
    scripted.handshake()
    almost = MAX_CONSECUTIVE_BAD_FRAMES - 1

    scripted.feed(
        *[b"garbage"] * almost,
        notification_frame("notifications/progress", {"progressToken": 1, "progress": 1}),
    )
    scripted.feed(*[b"garbage"] * almost)
    scripted.barrier()

    scripted.supervisor.assert_none(SessionLost)
    future, request = scripted.call("echo", {})
    scripted.reply(request, {"content": []})
    assert future.result(timeout=DEFAULT_WAIT) == {"content": []}


# ---- list_changed ------------------------------------------------------------------------------------------


@pytest.mark.timeout(15)
def test_list_changed_relists_and_reports_the_new_catalog(scripted: ScriptedSession) -> None:
    scripted.handshake(tools=[tool("old")])

    scripted.feed(notification_frame("notifications/tools/list_changed"))

    listing = scripted.wire.expect_request("tools/list")
    assert "cursor" not in (listing.get("params") or {})
    scripted.answer_listing(listing, [[tool("new_1")], [tool("new_2"), {"name": 3}]])
    changed = scripted.supervisor.expect(CatalogChanged)
    assert changed.incarnation == scripted.incarnation
    assert names_of(changed.tools) == ["new_1", "new_2"]
    assert [name for name, _ in changed.rejected] == ["#1"]


@pytest.mark.timeout(15)
def test_a_storm_of_list_changed_during_a_refresh_causes_exactly_one_more_listing(
    scripted: ScriptedSession,
) -> None:
    scripted.handshake(tools=[tool("v1")])
    scripted.feed(notification_frame("notifications/tools/list_changed"))
    in_flight = scripted.wire.expect_request("tools/list")

    scripted.feed(*[notification_frame("notifications/tools/list_changed")] * 10)
    scripted.reply(in_flight, {"tools": [tool("v2")]})

    again = scripted.wire.expect_request("tools/list")
    assert again["id"] != in_flight["id"]
    scripted.reply(again, {"tools": [tool("v3"), tool("v3b")]})
    final = scripted.supervisor.expect(CatalogChanged)
    assert names_of(final.tools) == ["v3", "v3b"], "the listing that may be stale is never published"
    scripted.barrier()
    assert [m for m in scripted.wire.unconsumed() if m.get("method") == "tools/list"] == []
    assert scripted.supervisor.take_all(CatalogChanged) == []


@pytest.mark.timeout(15)
def test_a_failed_refresh_keeps_the_session_ready(
    scripted: ScriptedSession, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger=SESSION_LOGGER)
    scripted.handshake(tools=[tool("v1")])
    scripted.feed(notification_frame("notifications/tools/list_changed"))
    listing = scripted.wire.expect_request("tools/list")

    scripted.reply_error(listing, -32603, "internal error")
    scripted.barrier()

    assert any("refresh failed" in r.getMessage() for r in _session_records(caplog))
    scripted.supervisor.assert_none(CatalogChanged)
    scripted.supervisor.assert_none(SessionLost)
    future, request = scripted.call("v1", {})
    scripted.reply(request, {"content": []})
    assert future.result(timeout=DEFAULT_WAIT) == {"content": []}


# ---- stale incarnations ------------------------------------------------------------------------------------


@pytest.mark.timeout(15)
def test_inbound_frames_from_a_stale_incarnation_are_ignored(scripted: ScriptedSession) -> None:
    scripted.handshake()
    future, request = scripted.call("echo", {})

    scripted.feed(result_frame(request["id"], {"stale": True}), incarnation=scripted.incarnation - 1)
    scripted.feed(error_frame(request["id"], -32603, "stale"), incarnation=scripted.incarnation + 1)
    scripted.barrier()

    assert not future.done()
    scripted.reply(request, {"fresh": True})
    assert future.result(timeout=DEFAULT_WAIT) == {"fresh": True}


@pytest.mark.timeout(15)
def test_transport_down_from_a_stale_incarnation_is_ignored(scripted: ScriptedSession) -> None:
    scripted.handshake()
    future, request = scripted.call("echo", {}, timeout=30.0)

    scripted.ref.tell(TransportDown(scripted.incarnation - 1, "an old process exited"))
    scripted.barrier()

    assert not future.done()
    scripted.supervisor.assert_none(SessionLost)
    scripted.reply(request, {"content": []})
    assert future.result(timeout=DEFAULT_WAIT) == {"content": []}


@pytest.mark.timeout(15)
def test_opened_and_open_failed_from_a_stale_incarnation_are_ignored(scripted: ScriptedSession) -> None:
    scripted.ref.tell(Connect(scripted.transport.ref))
    scripted.transport.expect(Open)
    stale_wire = FakeOutbound("stale wire")

    scripted.ref.tell(
        Opened(
            scripted.incarnation - 1,
            stale_wire,
            scripted.new_lane(stale_wire, scripted.incarnation - 1),
            pid=999,
        )
    )
    scripted.ref.tell(OpenFailed(scripted.incarnation + 1, ConnectFailed(scripted.server, "old failure")))
    scripted.barrier()

    assert stale_wire.sent == []
    scripted.supervisor.assert_none(SessionFailed)
    scripted.ref.tell(Opened(scripted.incarnation, scripted.wire, scripted.lane, pid=123))
    initialize = scripted.refuse_probe(scripted.wire.expect(where=lambda m: "id" in m))
    scripted.reply(initialize, initialize_result("2025-06-18"))
    scripted.wire.expect_notification("notifications/initialized")
    scripted.reply(scripted.wire.expect_request("tools/list"), {"tools": [tool("echo")]})
    ready = scripted.supervisor.expect(SessionReady)
    assert ready.pid == 123
    assert stale_wire.sent == []


@pytest.mark.timeout(15)
def test_list_changed_during_the_first_listing_relists_before_reporting_ready(
    scripted: ScriptedSession,
) -> None:
    first = scripted.initialize()
    scripted.reply(first, {"tools": [tool("old_1")], "nextCursor": "p2"})
    second = scripted.wire.expect_request("tools/list")

    scripted.feed(notification_frame("notifications/tools/list_changed"))
    scripted.reply(second, {"tools": [tool("old_2")]})

    restart = scripted.wire.expect_request("tools/list")
    assert "cursor" not in (restart.get("params") or {}), "a changed catalog is listed again from the start"
    scripted.reply(restart, {"tools": [tool("new")]})
    ready = scripted.supervisor.expect(SessionReady)
    assert names_of(ready.tools) == ["new"]


@pytest.mark.timeout(15)
def test_a_list_changed_received_during_a_failed_refresh_is_not_lost(scripted: ScriptedSession) -> None:
    scripted.handshake(tools=[tool("v1")])
    scripted.feed(notification_frame("notifications/tools/list_changed"))
    failing = scripted.wire.expect_request("tools/list")
    scripted.feed(notification_frame("notifications/tools/list_changed"))

    scripted.reply_error(failing, -32603, "busy")

    retry = scripted.wire.expect_request("tools/list")
    scripted.reply(retry, {"tools": [tool("v3")]})
    assert names_of(scripted.supervisor.expect(CatalogChanged).tools) == ["v3"]


@pytest.mark.timeout(15)
def test_the_transport_session_id_after_initialize_is_reported_with_ready(runtime: Runtime) -> None:
    scripted = ScriptedSession(runtime)
    scripted.wire = FakeOutbound(session_id="session-from-initialize")

    ready = scripted.handshake()

    assert ready.session_id == "session-from-initialize"


# ---- HTTP session expiry, session side ---------------------------------------------------------------------


@pytest.mark.timeout(15)
def test_an_expired_session_is_initialised_again_and_the_failed_call_retried(
    scripted: ScriptedSession,
) -> None:
    scripted.handshake()
    future, request = scripted.call("echo", {"text": "hi"}, timeout=10.0)

    scripted.ref.tell(
        SessionExpired(
            scripted.incarnation, [(json.dumps(request).encode(), Outgoing("tools/call", request["id"]))]
        )
    )

    initialize = scripted.wire.expect_request("initialize")
    scripted.barrier()
    assert scripted.wire.unconsumed() == [], "nothing else goes out before the new session exists"
    scripted.reply(initialize, initialize_result("2025-06-18"))
    scripted.wire.expect_notification("notifications/initialized")
    retried = scripted.wire.expect_request("tools/call")
    assert retried == request
    scripted.reply(retried, {"content": []})
    assert future.result(timeout=DEFAULT_WAIT) == {"content": []}


@pytest.mark.timeout(15)
def test_a_refused_reinitialize_after_expiry_loses_the_session(scripted: ScriptedSession) -> None:
    scripted.handshake()
    future, request = scripted.call("echo", {}, timeout=10.0)
    scripted.ref.tell(
        SessionExpired(
            scripted.incarnation, [(json.dumps(request).encode(), Outgoing("tools/call", request["id"]))]
        )
    )
    initialize = scripted.wire.expect_request("initialize")

    scripted.reply_error(initialize, -32600, "no new sessions")

    lost = scripted.supervisor.expect(SessionLost)
    assert lost.incarnation == scripted.incarnation
    assert isinstance(future.exception(timeout=DEFAULT_WAIT), ConnectionLost)


@pytest.mark.timeout(15)
def test_a_call_that_times_out_while_held_is_never_sent(scripted: ScriptedSession) -> None:
    scripted.handshake()
    scripted.ref.tell(SessionExpired(scripted.incarnation, []))
    initialize = scripted.wire.expect_request("initialize")
    future: Future[object] = Future()
    scripted.ref.tell(CallRequest("tools/call", {"name": "delete_everything", "arguments": {}}, future, 0.2))
    assert isinstance(future.exception(timeout=DEFAULT_WAIT), CallTimedOut)

    scripted.reply(initialize, initialize_result("2025-06-18"))
    scripted.wire.expect_notification("notifications/initialized")
    scripted.barrier()

    sent_calls = [m for m in scripted.wire.unconsumed() if m.get("method") == "tools/call"]
    assert sent_calls == [], "a call the caller saw fail must not reach the server afterwards"


@pytest.mark.timeout(15)
def test_a_relisting_passes_unchanged_definitions_on_as_the_same_objects(scripted: ScriptedSession) -> None:
    pages = [[tool("a"), tool("b")], [tool("c"), tool("d")]]
    first = scripted.initialize()
    scripted.answer_listing(first, pages)
    ready = scripted.supervisor.expect(SessionReady)

    # Nothing changed: every definition is the very object published before (the registry's check).
    scripted.feed(notification_frame("notifications/tools/list_changed"))
    scripted.answer_listing(scripted.wire.expect_request("tools/list"), pages)
    same = scripted.supervisor.expect(CatalogChanged)
    assert same.tools == ready.tools
    assert all(new is old for new, old in zip(same.tools, ready.tools, strict=True))

    # One tool changed on the second page, and the first page moved a tool to the end: only the changed
    # definition is new; the unchanged ones keep their objects wherever they now are.
    changed_pages = [[tool("b")], [tool("c"), tool("d", "now different"), tool("a")]]
    scripted.feed(notification_frame("notifications/tools/list_changed"))
    scripted.answer_listing(scripted.wire.expect_request("tools/list"), changed_pages)
    changed = scripted.supervisor.expect(CatalogChanged)
    by_name = {definition.name: definition for definition in ready.tools}
    assert names_of(changed.tools) == ["b", "c", "d", "a"]
    assert [definition is by_name[definition.name] for definition in changed.tools] == [
        True,
        True,
        False,
        True,
    ]
    assert changed.tools[2].description == "now different"
