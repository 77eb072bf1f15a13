"""protocol/tasks.py: which calls are tasks, reading the server's tasks (both eras), the tracker's steps."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_troupe.errors import ProtocolError
from mcp_troupe.protocol import modern, tasks
from mcp_troupe.protocol.engine import Answered, Invalid, RequestEngine, TaskStarted
from mcp_troupe.protocol.versions import REVISIONS

pytestmark = pytest.mark.timeout(30)

TASK_CAPS = {"tasks": {"requests": {"tools": {"call": {}}}}}


def test_task_support_and_when_a_call_is_a_task() -> None:
    required = {"name": "r", "execution": {"taskSupport": "required"}}
    optional = {"name": "o", "execution": {"taskSupport": "optional"}}
    assert tasks.task_support({"name": "plain"}) == "forbidden"
    assert tasks.task_support({"execution": {"taskSupport": "sometimes"}}) == "forbidden"
    assert tasks.wants_task(required, {})  # required: always, whatever the server declared
    assert not tasks.wants_task(optional, {})
    assert tasks.wants_task(optional, TASK_CAPS)
    assert not tasks.wants_task({"name": "f", "execution": {"taskSupport": "forbidden"}}, TASK_CAPS)
    assert tasks.task_params({"name": "r"}, 2.5) == {"name": "r", "task": {"ttl": 2500}}
    assert tasks.task_params({"name": "r"}, None) == {"name": "r", "task": {}}


def test_the_extension_is_declared_and_recognised() -> None:
    declared = tasks.with_extension({"elicitation": {}, "extensions": {"x.example/other": {"a": 1}}})
    assert declared["extensions"] == {"x.example/other": {"a": 1}, tasks.EXTENSION: {}}
    assert declared["elicitation"] == {}
    meta = {"io.modelcontextprotocol/clientCapabilities": declared}
    assert tasks.declares_extension(meta)
    assert not tasks.declares_extension({"io.modelcontextprotocol/clientCapabilities": {}})
    assert not tasks.declares_extension(None)


def test_a_legacy_task_and_a_modern_one_are_read() -> None:
    legacy = tasks.created_task(
        {"task": {"taskId": "t1", "status": "working", "pollInterval": 250, "statusMessage": "go"}},
        modern=False,
    )
    assert (legacy.task_id, legacy.status, legacy.poll_interval_ms, legacy.status_message) == (
        "t1",
        "working",
        250,
        "go",
    )
    modern = tasks.created_task(
        {
            "resultType": "task",
            "taskId": "t2",
            "status": "completed",
            "pollIntervalMs": 50,
            "result": {"a": 1},
        },
        modern=True,
    )
    assert modern.result == {"a": 1} and modern.poll_interval_ms == 50 and modern.is_terminal


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (None, "must be an object"),
        ({"status": "working"}, "no string 'taskId'"),
        ({"taskId": "", "status": "working"}, "no string 'taskId'"),
        ({"taskId": "x" * 2000, "status": "working"}, "characters long"),
        ({"taskId": "t", "status": "sleeping"}, "unknown status"),
        ({"taskId": "t", "status": "completed"}, "no 'result' object"),
        ({"taskId": "t", "status": "input_required"}, "no 'inputRequests' object"),
        ({"taskId": "t", "status": "input_required", "inputRequests": {"k": 1}}, "is not an object"),
        ({"taskId": "t", "status": "input_required", "inputRequests": {"k": {}}}, "no string 'method'"),
    ],
)
def test_an_unusable_modern_task_is_refused_with_what_is_wrong(value: Any, words: str) -> None:
    with pytest.raises(ProtocolError, match=words):
        tasks.parse_task(value, modern=True)


def test_the_poll_interval_is_bounded() -> None:
    def state(ms: int | None) -> tasks.TaskState:
        return tasks.TaskState("t", "working", poll_interval_ms=ms)

    assert tasks.poll_seconds(state(None)) == tasks.DEFAULT_POLL_SECONDS
    assert tasks.poll_seconds(state(0)) == tasks.MIN_POLL_SECONDS
    assert tasks.poll_seconds(state(10**9)) == tasks.MAX_POLL_SECONDS
    assert tasks.poll_seconds(state(1500)) == 1.5
    # A negative, a float NaN or a bool is no interval: the default applies.
    for bad in (-5, float("nan"), True, "100"):
        parsed = tasks.parse_task({"taskId": "t", "status": "working", "pollInterval": bad})
        assert tasks.poll_seconds(parsed) == tasks.DEFAULT_POLL_SECONDS


def test_the_legacy_tracker_polls_then_fetches_the_result_and_reports_each_change_once() -> None:
    tracker = tasks.TaskTracker("t1", "research", modern=False)
    working = tasks.TaskState("t1", "working", poll_interval_ms=200)
    detail, step = tracker.observe(working)
    assert detail == "research task t1: working" and step == tasks.Wait(0.2)
    assert tracker.observe(working) == (None, tasks.Wait(0.2))  # the same state again: no new event
    detail, step = tracker.observe(tasks.TaskState("t1", "input_required", "which one?\x1b[2J"))
    assert step == tasks.FetchResult()  # tasks/result is where the input requests arrive
    assert detail is not None and "\x1b" not in detail and "which one?" in detail
    assert tracker.observe(tasks.TaskState("t1", "completed"))[1] == tasks.FetchResult()
    assert isinstance(tracker.observe(tasks.TaskState("t1", "cancelled"))[1], tasks.Cancelled)
    forged = tasks.TaskTracker("t\nFAKE LOG LINE", "research", modern=False)
    detail, _step = forged.observe(tasks.TaskState("t\nFAKE LOG LINE", "working"))
    assert detail is not None and "\n" not in detail  # a server's task id cannot forge an event line
    with pytest.raises(ProtocolError, match="answered about task"):
        tracker.observe(tasks.TaskState("other", "working"))


def test_the_modern_tracker_asks_for_each_input_once_and_finishes_with_the_inlined_outcome() -> None:
    tracker = tasks.TaskTracker("t", "hello", modern=True)
    ask = {"name": {"method": "elicitation/create", "params": {"message": "name?"}}}
    state = tasks.TaskState("t", "input_required", input_requests=ask)
    assert tracker.observe(state)[1] == tasks.Provide(ask)
    tracker.provided(["name"])
    # spec: ext-tasks — the same key polled again before the server took the answer is not asked again.
    assert tracker.observe(state)[1] == tasks.Wait(tasks.DEFAULT_POLL_SECONDS)
    more = {**ask, "age": {"method": "elicitation/create", "params": {"message": "age?"}}}
    assert tracker.observe(tasks.TaskState("t", "input_required", input_requests=more))[1] == tasks.Provide(
        {"age": more["age"]}
    )
    assert tracker.observe(tasks.TaskState("t", "completed", result={"content": []}))[1] == tasks.Done(
        {"content": []}
    )
    failed = tracker.observe(tasks.TaskState("t", "failed", error={"code": -32603, "message": "limit"}))[1]
    assert failed == tasks.Failed(-32603, "limit", None)
    odd = tracker.observe(tasks.TaskState("t", "failed", "went wrong", error={"code": "x"}))[1]
    assert odd == tasks.Failed(-32603, "went wrong", None)


def test_a_server_that_never_stops_asking_for_input_is_given_up_on() -> None:
    tracker = tasks.TaskTracker("t", "loop", modern=True)
    with pytest.raises(ProtocolError, match="more than"):
        for round_ in range(tasks.MAX_INPUT_REQUESTS + 1):
            key = f"k{round_}"
            step = tracker.observe(
                tasks.TaskState("t", "input_required", input_requests={key: {"method": "roots/list"}})
            )[1]
            assert isinstance(step, tasks.Provide)
            tracker.provided([key])


# ---- the engine's side: which answers are tasks ----------------------------------------------------------


def _engine(version: str, meta: dict[str, Any] | None = None) -> RequestEngine:
    engine = RequestEngine(server="s")
    engine.settle(REVISIONS[version], meta)
    return engine


def _answer(engine: RequestEngine, params: dict[str, Any], result: dict[str, Any]) -> Any:
    pending, _frame = engine.request("tools/call", params, "me", now=0.0, timeout=5.0)
    frame = json.dumps({"jsonrpc": "2.0", "id": pending.request_id, "result": result}).encode()
    (event,) = engine.receive(frame, 0.0)
    return event


def test_a_legacy_task_augmented_call_answered_with_a_task_starts_it() -> None:
    engine = _engine("2025-11-25")
    created = {"task": {"taskId": "t", "status": "working"}}
    event = _answer(engine, {"name": "r", "task": {"ttl": 1000}}, created)
    assert isinstance(event, TaskStarted) and event.task.task_id == "t" and event.pending.is_task
    assert event.pending.params == {"name": "r", "task": {"ttl": 1000}}
    # A call sent without params.task is never a task, whatever the answer says.
    assert isinstance(_answer(engine, {"name": "r"}, created), Answered)
    # A server that ran it without a task after all: that is the result.
    assert isinstance(_answer(engine, {"name": "r", "task": {}}, {"content": []}), Answered)
    assert isinstance(_answer(engine, {"name": "r", "task": {}}, {"task": {"status": "?"}}), Invalid)


def test_a_modern_task_handle_is_accepted_only_with_the_extension_declared() -> None:
    meta = {"io.modelcontextprotocol/clientCapabilities": tasks.with_extension({})}
    handle = {"resultType": "task", "taskId": "t", "status": "working", "ttlMs": None}
    assert isinstance(_answer(_engine("2026-07-28", meta), {"name": "r"}, handle), TaskStarted)
    assert isinstance(_answer(_engine("2026-07-28", {}), {"name": "r"}, handle), Invalid)
    # spec: ext-tasks — a task handle for a request type that does not support tasks is invalid.
    engine = _engine("2026-07-28", meta)
    pending, _frame = engine.request("prompts/get", {"name": "p"}, "me", now=0.0, timeout=5.0)
    frame = json.dumps({"jsonrpc": "2.0", "id": pending.request_id, "result": handle}).encode()
    assert isinstance(engine.receive(frame, 0.0)[0], Invalid)


def test_task_requests_carry_mcp_name_over_http() -> None:
    # spec: ext-tasks "Streamable HTTP: Routing Headers" — Mcp-Name MUST be params.taskId.
    for method in (tasks.TASKS_GET, tasks.TASKS_UPDATE, tasks.TASKS_CANCEL):
        headers = modern.request_headers(method, {"taskId": "abc-1", "inputResponses": {}}, "2026-07-28")
        assert headers["Mcp-Name"] == "abc-1" and headers["Mcp-Method"] == method


# ---- untrusted bytes ---------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
task_like = st.fixed_dictionaries(
    {},
    optional={
        "taskId": st.one_of(st.text(max_size=30), json_values),
        "status": st.one_of(st.sampled_from(sorted(tasks.STATUSES)), json_values),
        "statusMessage": json_values,
        "pollInterval": json_values,
        "pollIntervalMs": json_values,
        "result": json_values,
        "error": json_values,
        "inputRequests": st.one_of(
            st.dictionaries(
                st.text(max_size=6), st.fixed_dictionaries({"method": st.text(max_size=10)}), max_size=3
            ),
            json_values,
        ),
    },
)


@settings(max_examples=300, deadline=None)
@given(value=st.one_of(task_like, json_values), modern=st.booleans())
def test_any_server_task_is_read_or_refused_with_a_protocol_error_and_the_tracker_always_has_a_step(
    value: Any, modern: bool
) -> None:
    try:
        state = tasks.parse_task(value, modern=modern)
    except ProtocolError as exc:
        assert str(exc)
        return
    assert state.status in tasks.STATUSES and state.task_id
    seconds = tasks.poll_seconds(state)
    assert tasks.MIN_POLL_SECONDS <= seconds <= tasks.MAX_POLL_SECONDS
    tracker = tasks.TaskTracker(state.task_id, "tool", modern=modern)
    detail, step = tracker.observe(state)
    assert detail is not None and "\n" not in detail
    assert isinstance(
        step, tasks.Wait | tasks.FetchResult | tasks.Provide | tasks.Done | tasks.Failed | tasks.Cancelled
    )
