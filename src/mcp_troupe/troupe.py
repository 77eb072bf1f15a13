"""Troupe: the facade over the actor system, for agents (sync and asyncio) and the CLI.

It talks to the actors only by messages (DESIGN §1): every method sends a command with a ``reply_to`` future
and waits on that future with a timeout. ``acall`` awaits the future through ``asyncio.wrap_future``, so the
caller's event loop is never blocked, and cancelling the awaiting task cancels the call on the server.

A call of a tool the registry has already cleared goes straight to its connection's lane (stdio), through
the :class:`~mcp_troupe.actors.lane.RouteBoard` the registry publishes: the caller's thread writes the request
into the server's pipe (or queues it for the I/O loop when others wait ahead) and the loop completes the
caller's future (for ``acall``, its asyncio future, through a :class:`~mcp_troupe.actors.lane.LoopReply`),
with no actor in between. Every other call (the first of each tool, one that needs approval, HTTP servers, a
server that is reconnecting) goes to the registry as a message.

Results are rendered here, on the caller's thread: the output budget (``tools.mcp.max_output_chars``) cuts a
longer text, and its whole text goes to the registry's result store, readable as ``troupe://results/<id>``.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import queue
import threading
import time
import weakref
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import pykka

from mcp_troupe.actors.lane import CallLane, LoopReply, RouteBoard
from mcp_troupe.actors.loop import IoLoop, Runtime
from mcp_troupe.actors.registry import (
    CallTool,
    CancelToolCall,
    GetStatus,
    ListTools,
    RegistryActor,
    Restart,
    SearchTools,
    Shutdown,
    Start,
    Stop,
    WhenSettled,
    render_reply,
)
from mcp_troupe.approval import Approver
from mcp_troupe.config import TroupeConfig
from mcp_troupe.errors import TroupeClosed
from mcp_troupe.types import ServerStatus, ToolResult, ToolSpec, TroupeEvent

__all__ = ["CallHandle", "Troupe"]

log = logging.getLogger("mcp_troupe.troupe")

T = TypeVar("T")

# How long the facade waits for the actors to answer a bookkeeping question (list, status, restart).
CONTROL_TIMEOUT = 10.0
# The session enforces each call's timeout; the facade waits this much longer as a last-resort guard.
CALL_WAIT_MARGIN = 30.0
# A call may wait for a human's approval before it is even sent; the facade waits that much longer for it.
APPROVAL_WAIT = 600.0


class CallHandle:
    """A tool call in flight: wait for it with :meth:`result`, give up on it with :meth:`cancel`."""

    __slots__ = ("_future", "_lane", "_request_id", "_troupe", "_wait", "name")

    def __init__(
        self,
        troupe: Troupe,
        name: str,
        future: Future[Any],
        wait: float,
        lane: tuple[CallLane, int] | None = None,
    ) -> None:
        self._troupe = troupe
        self._future = future
        self._wait = wait
        self.name = name
        # A call that went through a lane is cancelled there (the actors never saw it).
        self._lane: CallLane | None = lane[0] if lane is not None else None
        self._request_id = lane[1] if lane is not None else 0

    def result(self, timeout: float | None = None) -> ToolResult:
        """Wait for the result; raise the call's error (``CallTimedOut``, ``ConnectionLost``, ...)."""
        if not self._future.done():
            self._troupe._refuse_on_io_loop("call")
        try:
            reply = self._future.result(self._wait if timeout is None else timeout)
        except FutureTimeout:
            raise TimeoutError(f"no result for {self.name!r} yet") from None
        return self._troupe._render(reply)

    def done(self) -> bool:
        """Whether the call has finished (in any way)."""
        return self._future.done()

    def cancel(self, reason: str = "cancelled by the client") -> bool:
        """Stop waiting and tell the server (``notifications/cancelled``); False if it already finished.

        The connection stays open: cancelling one call never affects another.
        """
        if self._future.done():
            return False
        if self._lane is not None:
            return self._lane.cancel(self._request_id, reason)
        self._troupe._tell(CancelToolCall(self.name, self._future, reason))
        return True


class Troupe:
    """Many MCP servers behind one tool table.

    Use it as a context manager (``with Troupe(config) as troupe:``), or call :meth:`start` and :meth:`stop`.
    Servers connect in the background; :meth:`wait_ready` waits until each has settled.

    Args:
        config: the loaded configuration (see :func:`mcp_troupe.load_config`).
        builtin_tools: the agent's own tool names; a server tool that would shadow one is rejected.
        approver: asked before calls that need a human's yes (``permissions.approval.mode: ask``): a
            callable taking an :class:`~mcp_troupe.approval.ApprovalRequest` and returning ``True`` or
            ``False`` (or an awaitable of it). Without one, such calls fail with ``ApprovalRequired``.
        io_loop: run the servers' I/O on this asyncio loop (the application's, already running) instead of a
            thread of the troupe's own: ``await troupe.acall(...)`` then wakes once per answer instead of
            twice. Everything that blocks that loop then stalls the servers' I/O too, and the blocking
            methods that wait for I/O (``call``, ``wait_ready``, ``restart``...) refuse to run on it. Use it
            as ``async with Troupe(config, io_loop=asyncio.get_running_loop()) as troupe:``.
    """

    def __init__(
        self,
        config: TroupeConfig,
        *,
        builtin_tools: Iterable[str] = (),
        approver: Approver | None = None,
        io_loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self.config = config
        self.builtin_tools = tuple(builtin_tools)
        self.approver = approver
        self.io_loop = io_loop
        self._runtime: Runtime | None = None
        self._registry: pykka.ActorRef[Any] | None = None
        self._board = RouteBoard()
        self._lock = threading.Lock()
        self._is_stopped = False
        self._control: Any = None
        timeouts = [server.timeout for server in config.servers.values()] or [120.0]
        self._longest_call = max(timeouts)

    # ---- lifecycle -----------------------------------------------------------------------------------------

    def start(self) -> Troupe:
        """Start the actor system; servers begin connecting in the background."""
        with self._lock:
            if self._registry is not None:
                return self
            if self._is_stopped:
                raise TroupeClosed("a stopped Troupe cannot be started again; create a new one")
            loop = IoLoop()
            if self.io_loop is not None:
                loop.start_on(self.io_loop)
            else:
                loop.start()
            runtime = Runtime(loop)
            try:
                registry = RegistryActor.start(
                    config=self.config,
                    runtime=runtime,
                    reserved_names=self.builtin_tools,
                    approver=self.approver,
                    board=self._board,
                )
            except BaseException:
                loop.stop()
                raise
            runtime.track(registry)
            self._runtime, self._registry = runtime, registry
        # A process that forgets to stop must still not leave server processes behind.
        atexit.register(_stop_at_exit, weakref.ref(self))
        return self

    def stop(self, timeout: float = CONTROL_TIMEOUT) -> None:
        """Unregister every tool, close every server (HTTP: DELETE; stdio: EOF → SIGTERM → SIGKILL), stop."""
        self._refuse_on_io_loop("stop")
        with self._lock:
            if self._is_stopped:
                return
            self._is_stopped = True
            registry, runtime = self._registry, self._runtime
        if registry is None or runtime is None:
            return
        if self._control is not None:
            self._control.close()
        deadline = time.monotonic() + timeout
        done: Future[None] = Future()
        try:
            registry.tell(Shutdown(done))
            done.result(timeout)
        except pykka.ActorDeadError:
            pass
        except FutureTimeout:
            log.warning("servers did not all close within %s s; stopping them forcefully", timeout)
        stuck = runtime.stop_actors(max(1.0, deadline - time.monotonic()))
        if stuck:
            log.warning("actors did not stop in time: %s", ", ".join(stuck))
        runtime.loop.stop(max(1.0, deadline - time.monotonic()))

    def __enter__(self) -> Troupe:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    async def __aenter__(self) -> Troupe:
        return await asyncio.to_thread(self.start)

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await asyncio.to_thread(self.stop)

    # ---- asking the registry -------------------------------------------------------------------------------

    def _tell(self, message: object) -> None:
        registry = self._registry
        if registry is None or self._is_stopped:
            raise TroupeClosed("the troupe is not running (use it as a context manager or call start())")
        try:
            registry.tell(message)
        except pykka.ActorDeadError:
            raise TroupeClosed("the troupe is stopped") from None

    def _render(self, reply: Any) -> ToolResult:
        return render_reply(reply, max_chars=self.config.max_output_chars, registry=self._registry)

    def _refuse_on_io_loop(self, what: str) -> None:
        """Raise instead of deadlocking: waiting on the loop's own thread for work that loop must do."""
        runtime = self._runtime
        if runtime is not None and runtime.loop.in_loop_thread():
            raise RuntimeError(
                f"Troupe.{what}() would block the event loop the servers' I/O runs on (io_loop) and wait "
                "for itself: await the async form (acall) or run it in a thread (asyncio.to_thread)"
            )

    def _ask(self, make: Any, timeout: float) -> Any:
        future: Future[Any] = Future()
        self._tell(make(future))
        try:
            return future.result(timeout)
        except FutureTimeout:
            raise TimeoutError(f"the registry did not answer within {timeout} s") from None

    # ---- the agent's API -----------------------------------------------------------------------------------

    def wait_ready(self, timeout: float = 30.0) -> bool:
        """Wait until every enabled server is ready, failed or skipped; False if ``timeout`` passed first."""
        self._refuse_on_io_loop("wait_ready")
        future: Future[None] = Future()
        self._tell(WhenSettled(future))
        try:
            future.result(timeout)
        except FutureTimeout:
            future.cancel()  # lets the registry forget this waiter
            return False
        return True

    def tools(self, *, ready_only: bool = False) -> list[ToolSpec]:
        """The tool table; ``ready_only`` leaves out tools of servers that are not connected right now.

        Once the troupe is stopped the table is empty: the model must see no MCP tool after that.
        """
        if self._is_stopped:
            return []
        result: list[ToolSpec] = self._ask(lambda f: ListTools(f, ready_only), CONTROL_TIMEOUT)
        return result

    def search_tools(self, query: str, limit: int = 5) -> list[ToolSpec]:
        """The ``limit`` tools that best fit a need in plain words, best first (the ranking behind
        ``mcp_tool_search``); only tools callable right now, ready to :meth:`call` by name."""
        if self._is_stopped:
            return []
        if not isinstance(query, str) or not query.strip():
            raise ValueError("query must be a non-empty string")
        if limit < 1:
            raise ValueError("limit must be at least 1")
        result: list[ToolSpec] = self._ask(lambda f: SearchTools(query, limit, f), CONTROL_TIMEOUT)
        return result

    def submit(
        self, name: str, arguments: Mapping[str, Any] | None = None, *, timeout: float | None = None
    ) -> CallHandle:
        """Start a call and return its handle at once."""
        future: Future[Any] = Future()
        lane = self._send_call(name, arguments, future, timeout)
        wait = (timeout if timeout is not None else self._longest_call) + CALL_WAIT_MARGIN
        if self.approver is not None and self.config.approval_mode == "ask":
            wait += APPROVAL_WAIT
        return CallHandle(self, name, future, wait, lane)

    def _send_call(
        self, name: str, arguments: Mapping[str, Any] | None, future: Future[Any], timeout: float | None
    ) -> tuple[CallLane, int] | None:
        """Send a call through its lane when the registry has published one, else to the registry."""
        route = self._board.routes.get(name)
        if route is not None and not self._is_stopped:
            request_id = route.lane.call(route.original_name, arguments, future, route.context, timeout)
            if request_id is not None:
                return route.lane, request_id
        self._tell(CallTool(name, arguments, future, timeout))
        return None

    def call(
        self, name: str, arguments: Mapping[str, Any] | None = None, *, timeout: float | None = None
    ) -> ToolResult:
        """Call a tool by its qualified name and wait for the result.

        ``timeout`` overrides the server's configured call timeout. Raises ``UnknownTool``,
        ``ServerNotReady``, ``ConnectionLost``, ``CallTimedOut`` or ``RemoteError``; a tool that ran and
        failed is not an exception but a result with ``is_error`` set.
        """
        return self.submit(name, arguments, timeout=timeout).result()

    async def acall(
        self, name: str, arguments: Mapping[str, Any] | None = None, *, timeout: float | None = None
    ) -> ToolResult:
        """Like :meth:`call`, for asyncio code; cancelling the awaiting task cancels the call on the server.

        Never blocks the caller's event loop.
        """
        route = self._board.routes.get(name)
        if route is not None and not self._is_stopped:
            reply_to = LoopReply(asyncio.get_running_loop())
            if route.lane.call(route.original_name, arguments, reply_to, route.context, timeout) is not None:
                return self._render(await reply_to.future)
        future: Future[Any] = Future()
        self._tell(CallTool(name, arguments, future, timeout))
        reply = await asyncio.wrap_future(future)
        return self._render(reply)

    def status(self) -> list[ServerStatus]:
        """Every server's state, attempts, last error, pid, tool count, in configuration order."""
        result: list[ServerStatus] = self._ask(GetStatus, CONTROL_TIMEOUT)
        return result

    def restart(self, server: str, timeout: float = CONTROL_TIMEOUT) -> None:
        """Tear down one server's actors and reconnect it at once; the others keep serving."""
        self._refuse_on_io_loop("restart")
        self._ask(lambda f: Restart(server, f), timeout)

    def stop_server(self, server: str, timeout: float = CONTROL_TIMEOUT) -> None:
        """Stop one server (its tools leave the table) until :meth:`start_server`."""
        self._refuse_on_io_loop("stop_server")
        self._ask(lambda f: Stop(server, f), timeout)

    def start_server(self, server: str, timeout: float = CONTROL_TIMEOUT) -> None:
        """Start a stopped or failed server again."""
        self._refuse_on_io_loop("start_server")
        self._ask(lambda f: Start(server, f), timeout)

    def serve_control(self, path: str | Path | None = None) -> Path:
        """Open the operator control socket (``troupe ctl``) at ``path``; return the path.

        The socket is a Unix domain socket with mode 0600 in a 0700 directory; the default path is
        :func:`mcp_troupe.control.default_socket_path`. It is closed and removed by :meth:`stop`.
        """
        from mcp_troupe.control import ControlServer, default_socket_path  # lazily: only managers need it

        registry, runtime = self._registry, self._runtime
        if registry is None or runtime is None or self._is_stopped:
            raise TroupeClosed("the troupe is not running")
        if self._control is not None:
            return Path(self._control.path)
        server = ControlServer(
            registry=registry,
            loop=runtime.loop,
            path=Path(path) if path else default_socket_path(),
            max_output_chars=self.config.max_output_chars,
        )
        server.start()
        self._control = server
        return server.path

    def events(self, *, timeout: float | None = None) -> Iterator[TroupeEvent]:
        """Yield connect / lost / changed / restarted / failed / stopped events as they happen.

        Ends when the troupe stops, or when ``timeout`` seconds pass without an event.
        """
        runtime = self._runtime
        if runtime is None:
            raise TroupeClosed("the troupe is not running")
        while True:
            wait = 0.2 if timeout is None else min(0.2, timeout)
            started = time.monotonic()
            while True:
                try:
                    yield runtime.events.get(timeout=wait)
                    break
                except queue.Empty:
                    if self._is_stopped:
                        return
                    if timeout is not None and time.monotonic() - started >= timeout:
                        return


def _stop_at_exit(ref: weakref.ReferenceType[Troupe]) -> None:
    troupe = ref()
    if troupe is not None:
        troupe.stop(timeout=5.0)
