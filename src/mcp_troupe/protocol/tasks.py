"""2025-11-25 core tasks (SEP-1686), the client side, as pure functions: which calls need a task, and reading
the server's task objects.

spec: 2025-11-25 basic/utilities/tasks — a tool whose ``execution.taskSupport`` is ``"required"`` MUST be
called as a task (``params.task``); ``"optional"`` may be. The answer to a task-augmented ``tools/call`` is a
``CreateTaskResult`` (``{"task": {...}}``); the client polls ``tasks/get`` (respecting ``pollInterval``), and
``tasks/result`` returns the call's result once the task is terminal (it blocks until then, and it is where
input requests of an ``input_required`` task are delivered). Task-augmented requests are cancelled with
``tasks/cancel``, never ``notifications/cancelled``. ``notifications/tasks/status`` may report changes.

The 2026-07-28 tasks *extension* (``io.modelcontextprotocol/tasks``) is a different protocol and not here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from mcp_troupe.errors import ProtocolError

__all__ = [
    "TASKS_CANCEL",
    "TASKS_GET",
    "TASKS_RESULT",
    "TASKS_STATUS",
    "TERMINAL",
    "TaskState",
    "parse_task",
    "poll_seconds",
    "task_support",
    "wants_task",
]

TASKS_GET: Final = "tasks/get"
TASKS_RESULT: Final = "tasks/result"
TASKS_CANCEL: Final = "tasks/cancel"
TASKS_STATUS: Final = "notifications/tasks/status"

TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
STATUSES: Final = frozenset({"working", "input_required", "completed", "failed", "cancelled"})
TERMINAL: Final = frozenset({"completed", "failed", "cancelled"})

# Bounds on a server's pollInterval: a server cannot make us poll in a tight loop or go silent for long.
MIN_POLL_SECONDS: Final = 0.1
MAX_POLL_SECONDS: Final = 30.0
DEFAULT_POLL_SECONDS: Final = 1.0


def task_support(tool: Mapping[str, Any]) -> str:
    """A tool's ``execution.taskSupport``: ``required``, ``optional`` or ``forbidden`` (the default)."""
    execution = tool.get("execution")
    support = execution.get("taskSupport") if isinstance(execution, Mapping) else None
    return support if support in ("required", "optional") else "forbidden"


def wants_task(tool: Mapping[str, Any], server_capabilities: Mapping[str, Any]) -> bool:
    """Whether a call of ``tool`` is sent as a task.

    ``required``: always (the server refuses anything else). ``optional``: when the server declares
    ``tasks.requests.tools.call`` — then the call gets a task id and can be cancelled as a task.
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


@dataclass(frozen=True, slots=True)
class TaskState:
    """One reading of a task (from ``CreateTaskResult``, ``tasks/get`` or a status notification)."""

    task_id: str
    status: TaskStatus
    status_message: str | None = None
    poll_interval_ms: int | None = None

    @property
    def is_terminal(self) -> bool:
        """completed, failed or cancelled."""
        return self.status in TERMINAL


def parse_task(value: object) -> TaskState:
    """Read a ``Task`` object (``CreateTaskResult.task``, a ``tasks/get`` result, a status notification)."""
    if not isinstance(value, Mapping):
        raise ProtocolError(f"a task must be an object, got {type(value).__name__}")
    task_id = value.get("taskId")
    if not isinstance(task_id, str) or not task_id:
        raise ProtocolError("a task has no string 'taskId'")
    status = value.get("status")
    if status not in STATUSES:
        raise ProtocolError(f"task {task_id!r:.60} has an unknown status {status!r:.40}")
    message = value.get("statusMessage")
    interval = value.get("pollInterval")
    return TaskState(
        task_id=task_id,
        status=status,
        status_message=message if isinstance(message, str) else None,
        poll_interval_ms=interval if isinstance(interval, int) and not isinstance(interval, bool) else None,
    )


def poll_seconds(state: TaskState) -> float:
    """How long to wait before the next ``tasks/get``: the server's ``pollInterval``, within sane bounds."""
    if state.poll_interval_ms is None:
        return DEFAULT_POLL_SECONDS
    return min(MAX_POLL_SECONDS, max(MIN_POLL_SECONDS, state.poll_interval_ms / 1000))
