"""Tasks, the client side, as pure functions and one sans-I/O tracker: both forms of the protocol.

**2025-11-25 core tasks** (SEP-1686, ``basic/utilities/tasks``). A tool whose ``execution.taskSupport`` is
``"required"`` MUST be called as a task (``params.task``); ``"optional"`` may be. The answer to a
task-augmented ``tools/call`` is a ``CreateTaskResult`` (``{"task": {...}}``); the client polls
``tasks/get`` (respecting ``pollInterval``), and ``tasks/result`` returns the call's result once the task is
terminal (it blocks until then, and it is where the input requests of an ``input_required`` task are
delivered, as ordinary server requests). Task-augmented requests are cancelled with ``tasks/cancel``, never
``notifications/cancelled``. ``notifications/tasks/status`` may report changes.

**2026-07-28 tasks extension** (``io.modelcontextprotocol/tasks``, SEP-2663, the ``ext-tasks`` spec). The
client declares the extension in its per-request capabilities (``extensions``); the server alone decides,
per request, to answer a ``tools/call`` with a task handle (``resultType: "task"``, the ``Task`` fields at
the top level of the result). The client polls ``tasks/get``, whose answer inlines the outcome (``result``
when completed, ``error`` when failed) or the outstanding ``inputRequests`` (when ``input_required``), which
the client fulfils with ``tasks/update {taskId, inputResponses}``; keys are unique over a task's life, so a
key already answered is not asked again. ``tasks/cancel`` cancels; ``notifications/tasks`` may push a state.
There is no ``tasks/result`` and no ``tasks/list``.

:class:`TaskTracker` turns each observed state into the next step (wait and poll, fetch the result, provide
input, finish); the lane (:mod:`mcp_troupe.actors.lane`) does the I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, cast

from mcp_troupe.errors import ProtocolError
from mcp_troupe.protocol.callbacks import printable

__all__ = [
    "DEFAULT_POLL_SECONDS",
    "EXTENSION",
    "MAX_POLL_SECONDS",
    "MIN_POLL_SECONDS",
    "TASKS_CANCEL",
    "TASKS_GET",
    "TASKS_RESULT",
    "TASKS_STATUS",
    "TASKS_STATUS_MODERN",
    "TASKS_UPDATE",
    "TERMINAL",
    "Cancelled",
    "Done",
    "Failed",
    "FetchResult",
    "Provide",
    "Step",
    "TaskState",
    "TaskTracker",
    "Wait",
    "created_task",
    "declares_extension",
    "parse_task",
    "poll_seconds",
    "task_params",
    "task_support",
    "wants_task",
    "with_extension",
]

TASKS_GET: Final = "tasks/get"
TASKS_RESULT: Final = "tasks/result"  # 2025-11-25 only
TASKS_CANCEL: Final = "tasks/cancel"
TASKS_UPDATE: Final = "tasks/update"  # the 2026-07-28 extension only
TASKS_STATUS: Final = "notifications/tasks/status"  # 2025-11-25
TASKS_STATUS_MODERN: Final = "notifications/tasks"  # the extension
METHODS: Final = frozenset({TASKS_GET, TASKS_RESULT, TASKS_CANCEL, TASKS_UPDATE})
STATUS_NOTIFICATIONS: Final = frozenset({TASKS_STATUS, TASKS_STATUS_MODERN})
EXTENSION: Final = "io.modelcontextprotocol/tasks"
RESULT_TYPE_TASK: Final = "task"
# spec: ext-tasks "Supported Methods" — only tools/call may be answered with a task; a task handle for any
# other request MUST be treated as an invalid answer.
TASK_METHODS: Final = frozenset({"tools/call"})

TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
STATUSES: Final = frozenset({"working", "input_required", "completed", "failed", "cancelled"})
TERMINAL: Final = frozenset({"completed", "failed", "cancelled"})

# Bounds on a server's poll interval: a server cannot make us poll in a tight loop or go silent for long.
MIN_POLL_SECONDS: Final = 0.1
MAX_POLL_SECONDS: Final = 30.0
DEFAULT_POLL_SECONDS: Final = 1.0
# A task id is an opaque handle, but one longer than this is not a handle, it is an attack on our memory/logs.
MAX_TASK_ID_CHARS: Final = 1024
# Input requests one task may ask for over its life; more is a server stuck in a loop.
MAX_INPUT_REQUESTS: Final = 256
# How many input requests one state may carry at once.
MAX_REQUESTS_PER_STATE: Final = 32


# ---- which calls are tasks -----------------------------------------------------------------------------


def task_support(tool: Mapping[str, Any]) -> str:
    """A tool's ``execution.taskSupport``: ``required``, ``optional`` or ``forbidden`` (the default)."""
    execution = tool.get("execution")
    support = execution.get("taskSupport") if isinstance(execution, Mapping) else None
    return support if support in ("required", "optional") else "forbidden"


def wants_task(tool: Mapping[str, Any], server_capabilities: Mapping[str, Any]) -> bool:
    """Whether a 2025-11-25 call of ``tool`` is sent as a task.

    ``required``: always (spec: the client MUST; the server refuses anything else). ``optional``: when the
    server declares ``tasks.requests.tools.call`` — then the call gets a task id and can be cancelled as a
    task, and a long call is not bound to one open request.
    """
    support = task_support(tool)
    if support == "required":
        return True
    if support != "optional":
        return False
    tasks = server_capabilities.get("tasks")
    requests = tasks.get("requests") if isinstance(tasks, Mapping) else None
    tools = requests.get("tools") if isinstance(requests, Mapping) else None
    return isinstance(tools, Mapping) and isinstance(tools.get("call"), Mapping)


def task_params(params: Mapping[str, Any], timeout: float | None) -> dict[str, Any]:
    """``tools/call`` params augmented with ``task`` (2025-11-25): the task is asked to live as long as the
    call may wait for it (its ``ttl``, ms; the server may choose another)."""
    task: dict[str, Any] = {}
    if timeout is not None:
        task["ttl"] = max(1, int(timeout * 1000))
    return {**params, "task": task}


def with_extension(capabilities: Mapping[str, Any]) -> dict[str, Any]:
    """Modern client capabilities that declare the tasks extension (spec: ext-tasks "Capability
    Negotiation" — ``extensions["io.modelcontextprotocol/tasks"] = {}`` in the per-request capabilities)."""
    extensions = capabilities.get("extensions")
    merged = dict(extensions) if isinstance(extensions, Mapping) else {}
    merged.setdefault(EXTENSION, {})
    return {**capabilities, "extensions": merged}


def declares_extension(meta: Mapping[str, Any] | None) -> bool:
    """Whether a modern request ``_meta`` declares the tasks extension (so task handles may come back)."""
    if not meta:
        return False
    capabilities = meta.get("io.modelcontextprotocol/clientCapabilities")
    extensions = capabilities.get("extensions") if isinstance(capabilities, Mapping) else None
    return isinstance(extensions, Mapping) and EXTENSION in extensions


# ---- reading the server's tasks -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TaskState:
    """One reading of a task (a ``CreateTaskResult``, a ``tasks/get`` answer, a status notification).

    ``result``, ``error`` and ``input_requests`` are the extension's inlined payloads (completed, failed,
    input_required); a 2025-11-25 task never carries them.
    """

    task_id: str
    status: TaskStatus
    status_message: str | None = None
    poll_interval_ms: int | None = None
    result: Mapping[str, Any] | None = field(default=None, repr=False)
    error: Mapping[str, Any] | None = field(default=None, repr=False)
    input_requests: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, repr=False)

    @property
    def is_terminal(self) -> bool:
        """completed, failed or cancelled."""
        return self.status in TERMINAL


def _int_ms(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if value != value or value < 0:  # NaN, negative
        return None
    return int(min(value, 2**53))


def parse_task(value: object, *, modern: bool = False) -> TaskState:
    """Read a ``Task`` object.

    Legacy: ``CreateTaskResult.task``, ``tasks/get``, ``notifications/tasks/status``. Modern: a
    ``CreateTaskResult``, ``tasks/get``, ``notifications/tasks``, with their inlined payloads.

    Raises :class:`ProtocolError` naming what is wrong; optional fields of the wrong type are ignored.
    """
    if not isinstance(value, Mapping):
        raise ProtocolError(f"a task must be an object, got {type(value).__name__}")
    task_id = value.get("taskId")
    if not isinstance(task_id, str) or not task_id:
        raise ProtocolError("a task has no string 'taskId'")
    if len(task_id) > MAX_TASK_ID_CHARS:
        raise ProtocolError(f"a task id is {len(task_id)} characters long (at most {MAX_TASK_ID_CHARS})")
    status = value.get("status")
    if not isinstance(status, str) or status not in STATUSES:
        raise ProtocolError(f"task {task_id!r:.60} has an unknown status {status!r:.40}")
    message = value.get("statusMessage")
    interval = _int_ms(value.get("pollIntervalMs" if modern else "pollInterval"))
    result: Mapping[str, Any] | None = None
    error: Mapping[str, Any] | None = None
    requests: dict[str, Mapping[str, Any]] = {}
    if modern:
        if status == "completed":
            # spec: ext-tasks — a completed task MUST carry `result`, the original request's result.
            raw = value.get("result")
            if not isinstance(raw, Mapping):
                raise ProtocolError(f"completed task {task_id!r:.60} has no 'result' object")
            result = raw
        elif status == "failed":
            raw = value.get("error")
            error = raw if isinstance(raw, Mapping) else {}
        elif status == "input_required":
            requests = _input_requests(task_id, value.get("inputRequests"))
    return TaskState(
        task_id=task_id,
        status=cast(TaskStatus, status),
        status_message=message if isinstance(message, str) else None,
        poll_interval_ms=interval,
        result=result,
        error=error,
        input_requests=requests,
    )


def _input_requests(task_id: str, raw: object) -> dict[str, Mapping[str, Any]]:
    # spec: ext-tasks — an input_required task MUST carry `inputRequests` (MRTR's shape: key -> request).
    if not isinstance(raw, Mapping):
        raise ProtocolError(f"input_required task {task_id!r:.60} has no 'inputRequests' object")
    if len(raw) > MAX_REQUESTS_PER_STATE:
        raise ProtocolError(
            f"task {task_id!r:.60} asks for {len(raw)} inputs at once (at most {MAX_REQUESTS_PER_STATE})"
        )
    requests: dict[str, Mapping[str, Any]] = {}
    for key, request in raw.items():
        if not isinstance(key, str) or not isinstance(request, Mapping):
            raise ProtocolError(f"task {task_id!r:.60}: input request {key!r:.40} is not an object")
        method = request.get("method")
        if not isinstance(method, str):
            raise ProtocolError(f"task {task_id!r:.60}: input request {key!r:.40} has no string 'method'")
        params = request.get("params")
        if params is not None and not isinstance(params, Mapping):
            raise ProtocolError(f"task {task_id!r:.60}: input request {key!r:.40} has non-object 'params'")
        requests[key] = request
    return requests


def created_task(result: Mapping[str, Any], *, modern: bool) -> TaskState:
    """The task of a ``CreateTaskResult`` (legacy: under ``task``; modern: the result itself)."""
    return parse_task(result if modern else result.get("task"), modern=modern)


def poll_seconds(state: TaskState) -> float:
    """How long to wait before the next ``tasks/get``: the server's poll interval, within sane bounds."""
    if state.poll_interval_ms is None:
        return DEFAULT_POLL_SECONDS
    return min(MAX_POLL_SECONDS, max(MIN_POLL_SECONDS, state.poll_interval_ms / 1000))


# ---- the tracker: what to do next -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Wait:
    """Wait this long (or until a status notification), then poll ``tasks/get``."""

    seconds: float


@dataclass(frozen=True, slots=True)
class FetchResult:
    """2025-11-25: fetch ``tasks/result`` (terminal, or ``input_required``: it delivers input requests)."""


@dataclass(frozen=True, slots=True)
class Provide:
    """The extension: fulfil these input requests (new keys only), send ``tasks/update``, then poll."""

    requests: Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True, slots=True)
class Done:
    """The call's result (the extension's completed task)."""

    result: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Failed:
    """The extension's failed task: the JSON-RPC error of the underlying request."""

    code: int
    message: str
    data: Any = None


@dataclass(frozen=True, slots=True)
class Cancelled:
    """The task was cancelled (by the server, or by someone else)."""

    message: str


Step = Wait | FetchResult | Provide | Done | Failed | Cancelled


class TaskTracker:
    """One task's observed states, and the next step for each (sans-I/O: the caller does the I/O).

    ``observe`` returns an event detail when the state changed (a poll and a notification often repeat
    the same state: one event per change, not per poll), and the step to take.
    """

    def __init__(self, task_id: str, tool: str, *, modern: bool) -> None:
        self.task_id = task_id
        self.tool = tool
        self.modern = modern
        self._last_seen: tuple[str, str | None] | None = None
        # spec: ext-tasks — keys are unique over a task's life; deduplicate across polls, and never answer a
        # request twice.
        self.answered: set[str] = set()
        self.asked = 0

    def observe(self, state: TaskState) -> tuple[str | None, Step]:
        """The event detail (None if nothing changed) and what to do next for ``state``."""
        if state.task_id != self.task_id:
            raise ProtocolError(
                f"tasks/get for task {self.task_id!r:.60} answered about task {state.task_id!r:.60}"
            )
        seen = (state.status, state.status_message)
        detail = None
        if seen != self._last_seen:
            self._last_seen = seen
            detail = f"{printable(self.tool, 80)} task {printable(self.task_id, 80)}: {state.status}"
            if state.status_message:
                detail += f" {printable(state.status_message, 200)}"
        return detail, self._step(state)

    def _step(self, state: TaskState) -> Step:
        status = state.status
        if status == "cancelled":
            return Cancelled(state.status_message or "the server cancelled the task")
        if not self.modern:
            if status in ("completed", "failed", "input_required"):
                return FetchResult()
            return Wait(poll_seconds(state))
        if status == "completed":
            assert state.result is not None
            return Done(state.result)
        if status == "failed":
            error = state.error or {}
            code = error.get("code")
            message = error.get("message")
            return Failed(
                code if isinstance(code, int) and not isinstance(code, bool) else -32603,
                message if isinstance(message, str) else (state.status_message or "the task failed"),
                error.get("data"),
            )
        if status == "input_required":
            fresh = {
                key: request for key, request in state.input_requests.items() if key not in self.answered
            }
            if fresh:
                if self.asked + len(fresh) > MAX_INPUT_REQUESTS:
                    raise ProtocolError(
                        f"task {self.task_id!r:.60} asked for more than {MAX_INPUT_REQUESTS} inputs; "
                        "giving up"
                    )
                return Provide(fresh)
        return Wait(poll_seconds(state))

    def provided(self, keys: set[str] | frozenset[str] | list[str]) -> None:
        """These input requests were answered (``tasks/update`` sent): never ask for them again."""
        self.asked += len(set(keys) - self.answered)
        self.answered.update(keys)
