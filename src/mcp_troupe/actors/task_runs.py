"""TaskRuns: a connection's tool calls that the server answered with a task, driven to their end on the loop.

A call whose answer is a task (2025-11-25 ``CreateTaskResult``, or the 2026-07-28 extension's
``resultType: "task"``; see :mod:`mcp_troupe.protocol.tasks`) is not over: its caller still waits on the same
reply. One loop task per such call polls ``tasks/get`` at the server's poll interval (woken early by a
status notification), fetches ``tasks/result`` (2025-11-25), fulfils the extension's ``inputRequests``
through the host's fulfiller and answers them with ``tasks/update``, and completes the caller's reply with
the call's result — all within the call's own deadline. Every status change is an event (kind ``task``).

Giving up — the caller cancels, the call's deadline passes, the caller's future is cancelled — sends
``tasks/cancel``, never ``notifications/cancelled`` (spec: 2025-11-25 cancellation; ext-tasks "Task
Cancellation"). The connection ending fails every run at once.

Owned by the :class:`~mcp_troupe.actors.lane.CallLane`; its requests go through the lane like any other
(ids, deadlines and late answers stay the engine's).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, assert_never

import anyio

from mcp_troupe._futures import complete as _complete
from mcp_troupe._futures import fail as _fail
from mcp_troupe.errors import (
    CallCancelled,
    CallTimedOut,
    ConnectionLost,
    InputUnavailable,
    ProtocolError,
    RemoteError,
    TroupeError,
)
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol import tasks
from mcp_troupe.protocol.callbacks import printable
from mcp_troupe.protocol.engine import Pending
from mcp_troupe.protocol.jsonrpc import Notification, RequestId

if TYPE_CHECKING:
    from mcp_troupe.actors.lane import CallerOwner, CallLane
    from mcp_troupe.actors.loop import TaskHandle

__all__ = ["ORPHAN_GRACE", "Orphan", "TaskRuns"]

log = logging.getLogger("mcp_troupe.tasks")

# The task's requests (tasks/get, tasks/result, tasks/update) wait this much past the call's deadline, so
# that the call's own deadline — not theirs — decides, and no notifications/cancelled goes out for them.
ASK_GRACE = 1.0
# How long tasks/cancel may take (it is fire-and-forget: nobody waits on it).
CANCEL_TIMEOUT = 10.0
# A 2025-11-25 task-augmented call given up on before the server named its task stays awaited this long, so
# that the task can still be cancelled with tasks/cancel once the server names it.
ORPHAN_GRACE = 30.0


@dataclass(frozen=True, slots=True)
class Orphan:
    """The owner of a task-augmented request whose caller gave up before the server named the task."""

    reason: str


class _AskReply:
    """A reply awaited by the run's own coroutine on the loop: completing it resolves an asyncio future.

    Unlike a caller's reply, its completion never makes the lane send ``notifications/cancelled``: the run
    drops a request it stops waiting for itself.
    """

    __slots__ = ("_loop", "future")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self.future: asyncio.Future[Any] = loop.create_future()

    def done(self) -> bool:
        return self.future.done()

    def cancelled(self) -> bool:
        return False

    def set_result(self, result: Any) -> None:
        self._settle(result, None)

    def set_exception(self, exception: BaseException | None) -> None:
        self._settle(None, exception)

    def _settle(self, result: Any, exception: BaseException | None) -> None:
        # On the loop (the lane reading answers) the future is resolved at once, so that "answered" follows
        # the wire's order: a status notification read after this answer is newer than it.
        try:
            here = asyncio.get_running_loop() is self._loop
        except RuntimeError:
            here = False
        if here:
            _resolve(self.future, result, exception)
        else:
            self._loop.call_soon_threadsafe(_resolve, self.future, result, exception)

    def add_done_callback(self, fn: Callable[[Any], object]) -> None:
        """Nothing to do: the run watches its own requests."""


def _resolve(future: asyncio.Future[Any], result: Any, exception: BaseException | None) -> None:
    if future.done():
        return
    if exception is not None:
        future.set_exception(exception)
    else:
        future.set_result(result)


@dataclass(slots=True, eq=False)
class _Run:
    """One call running as a server task."""

    pending: Pending
    owner: CallerOwner
    tracker: tasks.TaskTracker
    state: tasks.TaskState
    deadline: float | None
    handle: TaskHandle | None = None
    wake: anyio.Event | None = None
    pushed: tasks.TaskState | None = None
    # The tasks/get in flight: a notification read before its answer is older than that answer.
    polling: asyncio.Future[Any] | None = None
    is_over: bool = False
    asks: set[RequestId] = field(default_factory=set)

    @property
    def task_id(self) -> str:
        return self.tracker.task_id


class TaskRuns:
    """The task-driven calls of one lane (see the module docstring)."""

    def __init__(self, lane: CallLane) -> None:
        self._lane = lane
        self._lock = threading.Lock()
        self._by_request: dict[RequestId, _Run] = {}
        self._by_task: dict[str, _Run] = {}
        # Set by the session: where status-change events go (``events()``, kind ``task``), and who learns
        # the task id of a caller's reply (``CallHandle.task_id``).
        self.on_event: Callable[[str], None] | None = None
        self.on_named: Callable[[Any, str], None] | None = None

    def __len__(self) -> int:
        return len(self._by_request)

    # ---- starting ------------------------------------------------------------------------------------

    def started(self, pending: Pending, state: tasks.TaskState) -> None:
        """``pending`` (a ``tools/call``) was answered with task ``state``: drive it, or cancel it if its
        caller already gave up."""
        lane = self._lane
        owner = pending.owner
        if isinstance(owner, Orphan):
            log.info(
                "server %s: cancelling task %s, whose caller gave up",
                lane.server,
                printable(state.task_id, 80),
            )
            self.send_cancel(state.task_id)
            return
        from mcp_troupe.actors.lane import CallerOwner

        if not isinstance(owner, CallerOwner):
            log.warning("server %s: a task answered a request of the session's own; cancelled", lane.server)
            self.send_cancel(state.task_id)
            return
        tool = str((pending.params or {}).get("name", ""))
        run = _Run(
            pending,
            owner,
            tasks.TaskTracker(state.task_id, tool, modern=lane.engine.is_modern),
            state,
            pending.deadline,
        )
        with self._lock:
            duplicate = state.task_id in self._by_task
            refused = duplicate or lane.is_closed
            if not refused:
                self._by_request[pending.request_id] = run
                self._by_task[state.task_id] = run
        if refused:
            error: TroupeError = (
                ProtocolError(f"server {lane.server!r} named task {state.task_id!r:.60} for two calls")
                if duplicate
                else ConnectionLost(lane.server, lane.close_reason or "the connection is closed")
            )
            _fail(owner.reply, error)
            return
        named = self.on_named
        if named is not None:
            named(owner.reply, state.task_id)
        if owner.reply.done():  # the caller gave up while the answer was on its way
            self.cancel_run(run, CallCancelled(lane.server, pending.request_id, proto.TOOLS_CALL))
            return
        try:
            run.handle = lane.loop.spawn(self._drive, run, name=f"task {state.task_id:.40} of {lane.server}")
        except TroupeError as exc:
            self._finish(run, error=ConnectionLost(lane.server, str(exc)))

    # ---- driving (on the loop) --------------------------------------------------------------------------

    async def _drive(self, run: _Run) -> None:
        lane = self._lane
        state = run.state
        remaining = None if run.deadline is None else max(run.deadline - time.monotonic(), 0.0)
        try:
            with anyio.fail_after(remaining):
                while not run.is_over:
                    detail, step = run.tracker.observe(state)
                    self._emit(detail)
                    match step:
                        case tasks.Done(result=result):
                            self._finish(run, result=result)
                            return
                        case tasks.FetchResult():
                            # spec: 2025-11-25 — tasks/result blocks until the task is terminal; input
                            # requests arrive meanwhile as server requests (answered by the host).
                            result = await self._ask(run, tasks.TASKS_RESULT, {"taskId": run.task_id})
                            self._finish(run, result=result)
                            return
                        case tasks.Failed(code=code, message=message, data=data):
                            self._finish(
                                run,
                                error=RemoteError(
                                    lane.server, run.pending.request_id, proto.TOOLS_CALL, code, message, data
                                ),
                            )
                            return
                        case tasks.Cancelled(message=message):
                            log.info(
                                "server %s: task %s was cancelled: %s",
                                lane.server,
                                printable(run.task_id, 80),
                                printable(message, 200),
                            )
                            self._finish(
                                run,
                                error=CallCancelled(lane.server, run.pending.request_id, proto.TOOLS_CALL),
                            )
                            return
                        case tasks.Provide(requests=requests):
                            await self._provide(run, requests)
                            await self._nap(run, tasks.MIN_POLL_SECONDS)
                        case tasks.Wait(seconds=seconds):
                            await self._nap(run, seconds)
                        case _:
                            assert_never(step)
                    if run.pushed is not None:
                        state, run.pushed = run.pushed, None
                        continue
                    answer = await self._ask(run, tasks.TASKS_GET, {"taskId": run.task_id}, poll=True)
                    if run.pushed is not None:
                        # A notification read after the answer: the newer of the two.
                        state, run.pushed = run.pushed, None
                    else:
                        state = tasks.parse_task(answer, modern=run.tracker.modern)
        except TimeoutError:
            timeout = run.pending.timeout or 0.0
            self._give_up(run, CallTimedOut(lane.server, run.pending.request_id, proto.TOOLS_CALL, timeout))
        except ProtocolError as exc:
            # The server's account of its task cannot be used: stop it rather than leave it running.
            self._give_up(run, ProtocolError(f"server {lane.server!r}: {exc}"))
        except InputUnavailable as exc:
            # The task waits for input we cannot give: it would never end.
            self._give_up(run, exc)
        except TroupeError as exc:
            self._finish(run, error=exc)
        except Exception as exc:
            # A bug of ours must not leave the caller waiting for its timeout, nor the task running.
            log.exception("server %s: following task %s failed", lane.server, printable(run.task_id, 80))
            self._give_up(run, ProtocolError(f"server {lane.server!r}: task {run.task_id!r:.60}: {exc!r}"))
        finally:
            for request_id in list(run.asks):
                lane.drop(request_id)
            if not run.is_over:  # cancelled (the caller gave up, the loop stopped)
                self._finish(run, error=CallCancelled(lane.server, run.pending.request_id, proto.TOOLS_CALL))

    async def _nap(self, run: _Run, seconds: float) -> None:
        """Wait ``seconds`` or until a status notification for the task arrives."""
        if run.pushed is not None:
            return
        run.wake = anyio.Event()
        with anyio.move_on_after(seconds):
            await run.wake.wait()
        run.wake = None

    async def _ask(
        self, run: _Run, method: str, params: Mapping[str, Any], *, poll: bool = False
    ) -> Mapping[str, Any]:
        lane = self._lane
        reply = _AskReply(asyncio.get_running_loop())
        if poll:
            run.polling = reply.future
        timeout = None if run.deadline is None else max(run.deadline - time.monotonic(), 0.0) + ASK_GRACE
        from mcp_troupe.actors.lane import CallerOwner

        request_id = lane.request(method, params, CallerOwner(reply), timeout)
        if request_id is None:
            raise ConnectionLost(lane.server, lane.close_reason or "the connection is closed")
        run.asks.add(request_id)
        try:
            result: Mapping[str, Any] = await reply.future
            return result
        finally:
            run.asks.discard(request_id)
            run.polling = None
            if not reply.future.done():
                lane.drop(request_id)  # given up on (timeout, cancel): its late answer drops quietly

    async def _provide(self, run: _Run, requests: Mapping[str, Mapping[str, Any]]) -> None:
        """spec: ext-tasks "Task Update Requests" — fulfil each new input request as the equivalent
        standalone request (same trust model: the host's handlers), then send ``tasks/update``."""
        lane = self._lane
        fulfil = lane.fulfil
        if fulfil is None:
            asked = ", ".join(
                f"{request.get('method')} (key {key!r:.40})" for key, request in requests.items()
            )
            raise InputUnavailable(
                lane.server,
                proto.TOOLS_CALL,
                f"task {run.task_id:.60} asked for {asked}; no host handler is installed for that "
                "(see docs/host-callbacks.md)",
            )
        responses: dict[str, Any] = {}

        async def one(key: str, request: Mapping[str, Any]) -> None:
            params = request.get("params")
            responses[key] = dict(
                await fulfil(
                    lane.server, str(request["method"]), params if isinstance(params, Mapping) else {}
                )
            )

        try:
            async with anyio.create_task_group() as group:
                for key, request in requests.items():
                    group.start_soon(one, key, request)
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError | anyio.get_cancelled_exc_class()):
                raise
            first: BaseException = exc
            while isinstance(first, BaseExceptionGroup) and first.exceptions:
                first = first.exceptions[0]
            if isinstance(first, TimeoutError):
                raise first from None
            if isinstance(first, InputUnavailable):
                raise first from None
            raise InputUnavailable(lane.server, proto.TOOLS_CALL, str(first)) from None
        await self._ask(run, tasks.TASKS_UPDATE, {"taskId": run.task_id, "inputResponses": responses})
        run.tracker.provided(list(responses))

    # ---- notifications, cancellation, the end ------------------------------------------------------------

    def on_status(self, message: Notification) -> bool:
        """A task status notification (on the loop): wake its run. True when it was one (consumed)."""
        if message.method not in tasks.STATUS_NOTIFICATIONS:
            return False
        try:
            state = tasks.parse_task(message.params, modern=self._lane.engine.is_modern)
        except ProtocolError as exc:
            log.debug("server %s: unreadable task status notification: %s", self._lane.server, exc)
            return True
        # Handled on the loop, in order with the answers of the run's own requests (see _AskReply).
        self._lane.loop.post_if_running(self._on_state, state)
        return True

    def _on_state(self, state: tasks.TaskState) -> None:
        run = self._by_task.get(state.task_id)
        if run is None or run.is_over:
            return
        try:
            detail, _step = run.tracker.observe(state)
        except ProtocolError:
            return
        self._emit(detail)
        if run.polling is not None and not run.polling.done():
            return  # the answer to the tasks/get in flight is newer than this
        run.pushed = state
        if run.wake is not None:
            run.wake.set()

    def progress_of(self, message: Notification) -> Pending | None:
        """The call a ``notifications/progress`` is for, when that call runs as a task (spec: 2025-11-25
        progress — the token stays valid until the task is terminal); else None."""
        if message.method != proto.PROGRESS or not message.params:
            return None
        token = message.params.get("progressToken")
        with self._lock:
            for run in self._by_request.values():
                if run.pending.progress_token is not None and run.pending.progress_token == token:
                    return run.pending
        return None

    def owns(self, request_id: RequestId) -> bool:
        """Whether ``request_id`` is a call that runs as a task now."""
        run = self._by_request.get(request_id)
        return run is not None and not run.is_over

    def cancel(self, request_id: RequestId, reason: str) -> bool:
        """Cancel the task of call ``request_id`` (``tasks/cancel``); False if it runs no task."""
        run = self._by_request.get(request_id)
        if run is None or run.is_over:
            return False
        log.debug("server %s: cancelling task %s: %s", self._lane.server, printable(run.task_id, 80), reason)
        return self.cancel_run(run, CallCancelled(self._lane.server, request_id, proto.TOOLS_CALL))

    def request_of(self, reply: Any) -> RequestId | None:
        """The call whose caller waits on ``reply``, if it runs as a task."""
        with self._lock:
            for request_id, run in self._by_request.items():
                if run.owner.reply is reply and not run.is_over:
                    return request_id
        return None

    def cancel_run(self, run: _Run, error: TroupeError) -> bool:
        """spec: 2025-11-25 cancellation, ext-tasks — a task is cancelled with ``tasks/cancel``."""
        if run.is_over:
            return False
        self.send_cancel(run.task_id)
        self._finish(run, error=error)
        if run.handle is not None:
            run.handle.cancel()
        return True

    def _give_up(self, run: _Run, error: TroupeError) -> None:
        if not run.is_over:
            self.send_cancel(run.task_id)
        self._finish(run, error=error)

    def send_cancel(self, task_id: str) -> None:
        """Send ``tasks/cancel`` for ``task_id``; nobody waits for its answer (a refusal is logged)."""
        lane = self._lane
        server = lane.server
        from mcp_troupe.actors.lane import SessionOwner

        def refused(error: TroupeError) -> None:
            log.info("server %s: tasks/cancel of %s failed: %s", server, printable(task_id, 80), error)

        lane.request(tasks.TASKS_CANCEL, {"taskId": task_id}, SessionOwner(_ignore, refused), CANCEL_TIMEOUT)

    def _finish(
        self, run: _Run, *, result: Mapping[str, Any] | None = None, error: TroupeError | None = None
    ) -> None:
        with self._lock:
            if run.is_over:
                return
            run.is_over = True
            self._by_request.pop(run.pending.request_id, None)
            self._by_task.pop(run.task_id, None)
        owner = run.owner
        if error is not None:
            _fail(owner.reply, error)
        else:
            assert result is not None
            _complete(owner.reply, (result, owner.context) if owner.has_context else result)

    def close(self, error: TroupeError) -> None:
        """The connection ended: every run fails with ``error`` now (DESIGN rule 4), its loop task ends."""
        with self._lock:
            runs = list(self._by_request.values())
        for run in runs:
            self._finish(run, error=error)
            if run.handle is not None:
                run.handle.cancel()

    def _emit(self, detail: str | None) -> None:
        sink = self.on_event
        if detail is None or sink is None:
            return
        try:
            sink(detail)
        except Exception:  # an event sink's bug must not end the task
            log.exception("server %s: the task event sink failed", self._lane.server)


def _ignore(_result: Mapping[str, Any]) -> None:
    """tasks/cancel's answer: an empty acknowledgement, nothing to do."""
