"""Tasks on a scripted server, frame by frame, in both eras: the 2025-11-25 core flow (``params.task`` →
``tasks/get`` → ``tasks/result``), the 2026-07-28 extension (``resultType: "task"`` → ``tasks/get`` →
``tasks/update`` → ``tasks/get``), and every way of giving up (cancel, timeout, a dead connection) sending
``tasks/cancel`` and never ``notifications/cancelled``. Frames are checked against the revision's schema
and the extension's (tests/fixtures/ext-tasks)."""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mcp_troupe.actors.loop import Runtime
from mcp_troupe.actors.session import CallRequest, CancelCall, SessionReady, TransportDown
from mcp_troupe.config import ServerConfig, TroupeConfig
from mcp_troupe.errors import CallCancelled, CallTimedOut, ConnectionLost, InputUnavailable, RemoteError
from mcp_troupe.host import ElicitationRequest, Host, ProgressEvent

from .fakes import ScriptedSession, notification_frame, spec_errors, tool

pytestmark = pytest.mark.timeout(20)

TASK_TOOL = tool("research", execution={"taskSupport": "required"})
OPTIONAL_TOOL = tool("maybe", execution={"taskSupport": "optional"})
EXT = "io.modelcontextprotocol/tasks"
STAMP = {"createdAt": "2026-12-01T10:00:00Z", "lastUpdatedAt": "2026-12-01T10:00:00Z"}
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ext-tasks" / "schema.json"


@functools.cache
def _ext_schema() -> dict[str, Any]:
    result: dict[str, Any] = json.loads(FIXTURES.read_text(encoding="utf-8"))
    return result


def ext_errors(message: dict[str, Any], definition: str) -> list[str]:
    """Problems of ``message`` against one definition of the tasks extension's schema."""
    validator = jsonschema.Draft202012Validator(
        {"$ref": f"#/$defs/{definition}", "$defs": _ext_schema()["$defs"]}
    )
    return [error.message for error in validator.iter_errors(message)]


@pytest.fixture
def asked() -> list[ElicitationRequest]:
    return []


@pytest.fixture
def session(runtime: Runtime, asked: list[ElicitationRequest]) -> Iterator[ScriptedSession]:
    config = TroupeConfig(servers={"scripted": ServerConfig(name="scripted", command="x", timeout=5.0)})

    def elicit(request: ElicitationRequest) -> dict[str, Any]:
        asked.append(request)
        return {"action": "accept", "content": {"name": "Ada"}}

    host = Host(config, elicitation_handler=elicit)
    host.bind(runtime.loop, runtime.emit)
    runtime.host = host
    yield ScriptedSession(runtime, call_timeout=5.0, handshake_timeout=5.0)


def call(
    session: ScriptedSession, name: str, timeout: float | None = None
) -> tuple[Future[Any], dict[str, Any]]:
    future: Future[Any] = Future()
    session.ref.tell(CallRequest("tools/call", {"name": name, "arguments": {}}, future, timeout))
    return future, session.wire.expect_request("tools/call", where=lambda m: m["params"]["name"] == name)


def no_cancelled_notification(session: ScriptedSession) -> None:
    session.barrier()
    sent = [message.get("method") for message in session.wire.sent]
    assert "notifications/cancelled" not in sent, sent
    # Nothing left behind: no run, and no request still awaited but the orphans kept to cancel a task.
    assert wait_until(lambda: len(session.lane.tasks) == 0)


def wait_until(condition: Any, timeout: float = 2.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def task_events(runtime: Runtime) -> list[str]:
    return [event.detail for event in runtime.history if event.kind == "task"]


# ---- 2025-11-25 -----------------------------------------------------------------------------------------


def legacy_ready(session: ScriptedSession, *tools: dict[str, Any]) -> SessionReady:
    first = session.initialize("2025-11-25")
    session.answer_listing(first, [list(tools) or [TASK_TOOL, tool("echo")]])
    return session.supervisor.expect(SessionReady)


def test_a_task_required_tool_is_listed_called_as_a_task_polled_and_its_result_fetched(
    session: ScriptedSession, runtime: Runtime
) -> None:
    ready = legacy_ready(session)
    assert [t.name for t in ready.tools] == ["research", "echo"] and ready.rejected == ()
    future, request = call(session, "research", timeout=4.0)
    assert request["params"]["task"] == {"ttl": 4000}
    assert spec_errors(request, "JSONRPCRequest", "CallToolRequest", version="2025-11-25") == []
    created = {"task": {"taskId": "t-1", "status": "working", "pollInterval": 100, "ttl": 4000, **STAMP}}
    assert spec_errors(created, "CreateTaskResult", version="2025-11-25") == []
    started = time.monotonic()
    session.reply(request, created)
    poll = session.wire.expect_request("tasks/get")
    assert time.monotonic() - started >= 0.08  # honours pollInterval (100 ms)
    assert poll["params"] == {"taskId": "t-1"}
    assert spec_errors(poll, "JSONRPCRequest", "GetTaskRequest", version="2025-11-25") == []
    session.reply(poll, {"taskId": "t-1", "status": "working", "pollInterval": 100, "ttl": 4000, **STAMP})
    # A status notification wakes the run at once: input_required (or terminal) means tasks/result.
    session.feed(
        notification_frame(
            "notifications/tasks/status",
            {"taskId": "t-1", "status": "input_required", "ttl": 4000, **STAMP, "statusMessage": "which?"},
        )
    )
    fetch = session.wire.expect_request("tasks/result")
    assert fetch["params"] == {"taskId": "t-1"}
    assert spec_errors(fetch, "JSONRPCRequest", "GetTaskPayloadRequest", version="2025-11-25") == []
    assert not future.done()
    session.reply(fetch, {"content": [{"type": "text", "text": "report"}], "isError": False})
    assert future.result(timeout=2)["content"][0]["text"] == "report"
    assert task_events(runtime) == [
        "research task t-1: working",
        "research task t-1: input_required which?",
    ], task_events(runtime)
    no_cancelled_notification(session)


def test_an_optional_tool_is_a_task_only_when_the_server_takes_task_calls(session: ScriptedSession) -> None:
    legacy_ready(session, OPTIONAL_TOOL)
    future, request = call(session, "maybe")
    assert "task" not in request["params"]  # initialize_result declares no tasks capability
    session.reply(request, {"content": []})
    assert future.result(timeout=2) == {"content": []}


def test_cancelling_a_task_sends_tasks_cancel_and_never_notifications_cancelled(
    session: ScriptedSession,
) -> None:
    legacy_ready(session)
    future, request = call(session, "research")
    session.reply(request, {"task": {"taskId": "t-2", "status": "working", "pollInterval": 5000, **STAMP}})
    session.barrier()
    session.ref.tell(CancelCall(future, "the user gave up"))
    cancel = session.wire.expect_request("tasks/cancel")
    assert cancel["params"] == {"taskId": "t-2"}
    assert spec_errors(cancel, "JSONRPCRequest", "CancelTaskRequest", version="2025-11-25") == []
    with pytest.raises(CallCancelled):
        future.result(timeout=2)
    session.reply(cancel, {"taskId": "t-2", "status": "cancelled", "ttl": None, **STAMP})
    no_cancelled_notification(session)


def test_a_call_cancelled_before_its_task_is_named_cancels_the_task_once_named(
    session: ScriptedSession,
) -> None:
    legacy_ready(session)
    future, request = call(session, "research")
    session.barrier()
    session.ref.tell(CancelCall(future, "too slow"))
    with pytest.raises(CallCancelled):
        future.result(timeout=2)
    session.reply(request, {"task": {"taskId": "t-3", "status": "working", **STAMP}})
    assert session.wire.expect_request("tasks/cancel")["params"] == {"taskId": "t-3"}
    no_cancelled_notification(session)


def test_a_task_that_outlives_the_calls_timeout_times_out_and_is_cancelled(session: ScriptedSession) -> None:
    legacy_ready(session)
    future, request = call(session, "research", timeout=0.6)
    started = time.monotonic()
    session.reply(request, {"task": {"taskId": "t-4", "status": "working", "pollInterval": 100, **STAMP}})
    # The server keeps saying "working" to every poll.
    while not future.done() and time.monotonic() - started < 3:
        try:
            poll = session.wire.expect_request("tasks/get", timeout=0.5)
        except AssertionError:
            break
        session.reply(poll, {"taskId": "t-4", "status": "working", "pollInterval": 100, **STAMP})
    with pytest.raises(CallTimedOut):
        future.result(timeout=3)
    assert 0.4 <= time.monotonic() - started < 2.0
    assert session.wire.expect_request("tasks/cancel")["params"] == {"taskId": "t-4"}
    no_cancelled_notification(session)


def test_the_connection_dying_mid_task_fails_the_call_at_once(session: ScriptedSession) -> None:
    legacy_ready(session)
    future, request = call(session, "research", timeout=10)
    session.reply(request, {"task": {"taskId": "t-5", "status": "working", "pollInterval": 5000, **STAMP}})
    session.barrier()
    started = time.monotonic()
    session.ref.tell(TransportDown(session.incarnation, "the server exited"))
    with pytest.raises(ConnectionLost, match="exited"):
        future.result(timeout=2)
    assert time.monotonic() - started < 1.0
    assert len(session.lane.tasks) == 0


def test_a_task_refused_by_the_server_fails_the_call_with_its_error(session: ScriptedSession) -> None:
    legacy_ready(session)
    future, request = call(session, "research")
    session.reply(request, {"task": {"taskId": "t-6", "status": "failed", **STAMP}})
    fetch = session.wire.expect_request("tasks/result")
    session.reply_error(fetch, -32603, "the research backend is down")
    with pytest.raises(RemoteError, match="backend is down"):
        future.result(timeout=2)


# ---- 2026-07-28: the tasks extension -----------------------------------------------------------------------


def modern_ready(session: ScriptedSession) -> dict[str, Any]:
    """Handshake in the modern era; return the discover request as sent."""
    discover = session.open()
    assert discover["method"] == "server/discover"
    session.reply(
        discover,
        {
            "resultType": "complete",
            "supportedVersions": ["2026-07-28"],
            "capabilities": {"tools": {}, "extensions": {EXT: {}}},
            "ttlMs": 0,
            "cacheScope": "public",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "srv", "version": "1"}},
        },
    )
    listing = session.wire.expect_request("tools/list")
    session.reply(
        listing, {"resultType": "complete", "tools": [tool("hello")], "ttlMs": 0, "cacheScope": "public"}
    )
    session.supervisor.expect(SessionReady)
    return listing


def test_the_extension_is_declared_and_an_unsolicited_task_is_polled_fed_input_and_finished(
    session: ScriptedSession, runtime: Runtime, asked: list[ElicitationRequest]
) -> None:
    listing = modern_ready(session)
    declared = listing["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]
    assert declared["extensions"] == {EXT: {}}
    future, request = call(session, "hello", timeout=5.0)
    assert "task" not in request["params"]  # the server alone decides (spec: ext-tasks)
    handle = {
        "resultType": "task",
        "taskId": "m-1",
        "status": "working",
        "ttlMs": 60000,
        "pollIntervalMs": 100,
    }
    handle.update(STAMP)
    assert ext_errors(handle, "CreateTaskResult") == []
    session.reply(request, handle)
    poll = session.wire.expect_request("tasks/get")
    assert ext_errors(poll, "GetTaskRequest") == []
    form = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    needs = {
        "resultType": "complete",
        "taskId": "m-1",
        "status": "input_required",
        "ttlMs": 60000,
        "pollIntervalMs": 100,
        **STAMP,
        "inputRequests": {
            "name": {
                "method": "elicitation/create",
                "params": {"mode": "form", "message": "Your name?", "requestedSchema": form},
            }
        },
    }
    assert ext_errors(needs, "GetTaskResult") == []
    session.reply(poll, needs)
    update = session.wire.expect_request("tasks/update")
    assert update["params"]["taskId"] == "m-1"
    assert update["params"]["inputResponses"] == {"name": {"action": "accept", "content": {"name": "Ada"}}}
    assert ext_errors(update, "UpdateTaskRequest") == []
    assert [request.message for request in asked] == ["Your name?"]
    session.reply(update, {"resultType": "complete"})
    poll = session.wire.expect_request("tasks/get")
    session.reply(poll, needs)  # the server has not taken the answer yet: the same key is not asked again
    poll = session.wire.expect_request("tasks/get")
    assert len(asked) == 1
    result = {"content": [{"type": "text", "text": "Hello, Ada!"}], "isError": False}
    done = {"resultType": "complete", "taskId": "m-1", "status": "completed", "ttlMs": 60000, **STAMP}
    done["result"] = result
    assert ext_errors(done, "GetTaskResult") == []
    session.reply(poll, done)
    assert future.result(timeout=2) == result
    assert task_events(runtime) == [
        "hello task m-1: working",
        "hello task m-1: input_required",
        "hello task m-1: completed",
    ]
    no_cancelled_notification(session)


def test_a_failed_extension_task_fails_the_call_with_its_json_rpc_error(session: ScriptedSession) -> None:
    modern_ready(session)
    future, request = call(session, "hello")
    failed = {"resultType": "task", "taskId": "m-2", "status": "failed", "ttlMs": None, **STAMP}
    failed["error"] = {"code": -32603, "message": "API rate limit exceeded"}
    session.reply(request, failed)
    with pytest.raises(RemoteError, match="rate limit") as caught:
        future.result(timeout=2)
    assert caught.value.code == -32603


def test_a_pushed_notification_finishes_an_extension_task_without_another_poll(
    session: ScriptedSession,
) -> None:
    modern_ready(session)
    future, request = call(session, "hello")
    handle = {
        "resultType": "task",
        "taskId": "m-3",
        "status": "working",
        "ttlMs": None,
        "pollIntervalMs": 10_000,
    }
    session.reply(request, {**handle, **STAMP})
    session.barrier()
    params = {"taskId": "m-3", "status": "completed", "ttlMs": None, **STAMP, "result": {"content": []}}
    notification = {"jsonrpc": "2.0", "method": "notifications/tasks", "params": params}
    assert ext_errors(notification, "TaskStatusNotification") == []
    session.feed(notification_frame("notifications/tasks", params))
    assert future.result(timeout=2) == {"content": []}
    session.barrier()
    assert "tasks/get" not in [message.get("method") for message in session.wire.sent]


def test_cancelling_an_extension_task_sends_tasks_cancel(session: ScriptedSession) -> None:
    modern_ready(session)
    future, request = call(session, "hello")
    handle = {
        "resultType": "task",
        "taskId": "m-4",
        "status": "working",
        "ttlMs": None,
        "pollIntervalMs": 5000,
    }
    session.reply(request, {**handle, **STAMP})
    session.barrier()
    future.cancel()  # the caller's own future: the lane hears of it and cancels the task
    cancel = session.wire.expect_request("tasks/cancel")
    assert cancel["params"]["taskId"] == "m-4"
    assert ext_errors(cancel, "CancelTaskRequest") == []
    no_cancelled_notification(session)


def test_an_extension_task_asking_for_input_without_a_handler_fails_clearly_and_is_cancelled(
    runtime: Runtime,
) -> None:
    session = ScriptedSession(runtime)
    modern_ready(session)
    future, request = call(session, "hello")
    needs = {"resultType": "task", "taskId": "m-5", "status": "input_required", "ttlMs": None, **STAMP}
    needs["inputRequests"] = {
        "k": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}}
    }
    session.reply(request, needs)
    with pytest.raises(InputUnavailable, match="sampling/createMessage"):
        future.result(timeout=2)
    assert session.wire.expect_request("tasks/cancel")["params"]["taskId"] == "m-5"


def test_a_tasks_progress_reaches_the_progress_handler_until_the_task_ends(runtime: Runtime) -> None:
    seen: list[ProgressEvent] = []
    config = TroupeConfig(servers={"scripted": ServerConfig(name="scripted", command="x", timeout=5.0)})
    host = Host(config, progress_handler=seen.append)
    host.bind(runtime.loop, runtime.emit)
    runtime.host = host
    session = ScriptedSession(runtime)
    legacy_ready(session)
    future, request = call(session, "research")
    token = request["params"]["_meta"]["progressToken"]
    session.reply(request, {"task": {"taskId": "p-1", "status": "working", "pollInterval": 5000, **STAMP}})
    session.barrier()
    # spec: 2025-11-25 progress — for a task, the token stays valid until the task is terminal.
    session.feed(notification_frame("notifications/progress", {"progressToken": token, "progress": 3}))
    deadline = time.monotonic() + 2
    while not seen and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [(event.tool, event.progress) for event in seen] == [("research", 3.0)]
    session.feed(
        notification_frame("notifications/tasks/status", {"taskId": "p-1", "status": "completed", **STAMP})
    )
    session.reply(session.wire.expect_request("tasks/result"), {"content": []})
    assert future.result(timeout=2) == {"content": []}


@pytest.mark.parametrize("how", ["cancel", "timeout"])
def test_a_task_call_given_up_on_before_it_was_ever_sent_sends_nothing(
    session: ScriptedSession, how: str
) -> None:
    legacy_ready(session)
    session.lane.hold()  # as while an HTTP session is renewed: frames wait
    future: Future[Any] = Future()
    timeout = 0.3 if how == "timeout" else 5.0
    session.ref.tell(CallRequest("tools/call", {"name": "research", "arguments": {}}, future, timeout))
    session.barrier()
    if how == "cancel":
        session.ref.tell(CancelCall(future, "changed my mind"))
    with pytest.raises(CallCancelled if how == "cancel" else CallTimedOut):
        future.result(timeout=3)
    session.lane.release()
    session.barrier()
    assert [m.get("method") for m in session.wire.unconsumed()] == []
    assert session.lane.engine.pending == {}
