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
from collections.abc import Callable, Iterable, Iterator, Mapping
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
from mcp_troupe.actors.supervision import ChildFailed
from mcp_troupe.approval import Approver
from mcp_troupe.config import TroupeConfig
from mcp_troupe.errors import CallError, TroupeBroken, TroupeClosed, UnknownServer
from mcp_troupe.host import (
    Completion,
    ElicitationHandler,
    Host,
    LogHandler,
    ProgressHandler,
    Roots,
    SamplingHandler,
    Subscription,
)
from mcp_troupe.protocol.jsonrpc import RequestId
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
# The longest timeout a method takes: one year. Far longer ones overflowed the waits of the caller's thread
# (OverflowError after the call had been sent, leaving it running with no handle to cancel it).
MAX_TIMEOUT = 365 * 24 * 3600.0


class CallHandle:
    """A tool call in flight: wait for it with :meth:`result`, give up on it with :meth:`cancel`."""

    __slots__ = ("_future", "_lane", "_request_id", "_troupe", "_wait", "name")

    def __init__(
        self,
        troupe: Troupe,
        name: str,
        future: Future[Any],
        wait: float,
        lane: tuple[CallLane, RequestId] | None = None,
    ) -> None:
        self._troupe = troupe
        self._future = future
        self._wait = wait
        self.name = name
        # A call that went through a lane is cancelled there (the actors never saw it).
        self._lane: CallLane | None = lane[0] if lane is not None else None
        self._request_id: RequestId = lane[1] if lane is not None else 0

    def result(self, timeout: float | None = None) -> ToolResult:
        """Wait for the result; raise the call's error (``CallTimedOut``, ``ConnectionLost``, ...)."""
        if not self._future.done():
            self._troupe._refuse_on_io_loop("call")
        try:
            reply = self._future.result(self._wait if timeout is None else timeout)
        except FutureTimeout:
            raise TimeoutError(f"no result for {self.name!r} yet") from None
        return self._troupe._render(reply)

    @property
    def task_id(self) -> str | None:
        """The server's task id when the call runs as a task (2025-11-25 ``execution.taskSupport``, or a
        2026-07-28 server that answered with a task handle).

        None until the server has answered with its task (and for calls that are not tasks);
        :meth:`cancel` then cancels the task (``tasks/cancel``).
        """
        return self._troupe.host.task_id(self._future)

    def done(self) -> bool:
        """Whether the call has finished (in any way)."""
        return self._future.done()

    def cancel(self, reason: str = "cancelled by the client") -> bool:
        """Stop waiting and tell the server (``notifications/cancelled``, or ``tasks/cancel`` for a call that
        runs as a server task: docs/tasks.md); False if it already finished.

        The connection stays open: cancelling one call never affects another.
        """
        if not isinstance(reason, str):
            raise TypeError(
                f"the reason for cancelling {self.name!r} must be a string, got {type(reason).__name__}"
            )
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
        elicitation_handler: answers a server's ``elicitation/create`` (a form, or a URL for the user to
            visit): takes an :class:`~mcp_troupe.host.ElicitationRequest`, returns the ``ElicitResult`` dict.
        sampling_handler: answers ``sampling/createMessage`` with the host's model: takes a
            :class:`~mcp_troupe.host.SamplingRequest`, returns a ``CreateMessageResult`` dict. Sampling from a
            server that is not ``trust_level: trusted`` is put to ``approver`` first.
        roots: the roots servers may list (``roots/list``): paths, ``file://`` URIs, or a callable taking the
            server name; a server's ``roots:`` config key overrides it.
        log_handler: receives every server log message as a :class:`~mcp_troupe.host.LogEntry` (they also go
            to the Python logger ``mcp_troupe.server.<name>``).
        progress_handler: receives every :class:`~mcp_troupe.host.ProgressEvent` of every call.
        extensions: MCP extensions the host supports, declared to every server that speaks 2025-11-25 or
            later, as ``{identifier: settings}``: for an MCP Apps host,
            ``{"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}``. The host
            then does what the extension asks of it (``ToolSpec.meta`` holds the tools' ``_meta.ui``); the
            tasks extension is the troupe's own (``docs/tasks.md``).

        Every handler may be sync (run in a worker thread) or async (awaited on the I/O loop). With none
        installed nothing is declared to the servers; see ``docs/host-callbacks.md``.
    """

    def __init__(
        self,
        config: TroupeConfig,
        *,
        builtin_tools: Iterable[str] = (),
        approver: Approver | None = None,
        elicitation_handler: ElicitationHandler | None = None,
        sampling_handler: SamplingHandler | None = None,
        roots: Roots | None = None,
        log_handler: LogHandler | None = None,
        progress_handler: ProgressHandler | None = None,
        io_loop: asyncio.AbstractEventLoop | None = None,
        extensions: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        if not isinstance(config, TroupeConfig):
            hint = (
                " (a mapping: parse_config(it); a file: load_config(path))"
                if isinstance(config, Mapping | str | Path)
                else ""
            )
            raise TypeError(f"Troupe() needs a TroupeConfig, got {type(config).__name__}{hint}")
        if io_loop is not None and not isinstance(io_loop, asyncio.AbstractEventLoop):
            raise TypeError(
                f"io_loop must be a running asyncio event loop or None, got {type(io_loop).__name__}"
            )
        if isinstance(builtin_tools, str) or not isinstance(builtin_tools, Iterable):
            # A string is iterable by its characters: each would have become a reserved name.
            raise TypeError(
                f"builtin_tools must be a list of tool names, got {type(builtin_tools).__name__} "
                f"(one name goes in a list: [{builtin_tools!r:.60}])"
            )
        reserved = tuple(builtin_tools)
        for index, reserved_name in enumerate(reserved):
            if not isinstance(reserved_name, str):
                raise TypeError(
                    f"builtin_tools[{index}] must be a tool name (a string), got {reserved_name!r:.60}"
                )
        self.config = config
        self.builtin_tools = reserved
        self.approver = approver
        self.io_loop = io_loop
        self.host = Host(
            config,
            approver=approver,
            elicitation_handler=elicitation_handler,
            sampling_handler=sampling_handler,
            roots=roots,
            log_handler=log_handler,
            progress_handler=progress_handler,
            extensions=extensions,
        )
        self._runtime: Runtime | None = None
        self._registry: pykka.ActorRef[Any] | None = None
        self._board = RouteBoard()
        self._lock = threading.Lock()
        self._is_stopped = False
        # Set (from the registry's thread) when the registry crashed: every later call raises it at once.
        self._broken: TroupeBroken | None = None
        self._control: Any = None
        timeouts = [server.timeout for server in config.servers.values()] or [120.0]
        self._longest_call = max(timeouts)

    # ---- lifecycle -----------------------------------------------------------------------------------------

    def start(self) -> Troupe:
        """Start the actor system; servers begin connecting in the background."""
        with self._lock:
            if self._is_stopped:
                # (Checked first: a started and stopped troupe returned itself, stopped, as if started.)
                raise TroupeClosed("a stopped Troupe cannot be started again; create a new one")
            if self._registry is not None:
                return self
            loop = IoLoop()
            if self.io_loop is not None:
                loop.start_on(self.io_loop)
            else:
                loop.start()
            runtime = Runtime(loop, host=self.host)
            self.host.bind(loop, runtime.emit)
            try:
                registry = RegistryActor.start(
                    config=self.config,
                    runtime=runtime,
                    reserved_names=self.builtin_tools,
                    approver=self.approver,
                    board=self._board,
                    parent=_on_registry_failed(weakref.ref(self)),
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
        _check_seconds("stop", timeout)
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
        broken = self._broken
        if broken is not None:
            raise TroupeBroken(str(broken)) from broken.__cause__
        registry = self._registry
        if registry is None or self._is_stopped:
            raise TroupeClosed("the troupe is not running (use it as a context manager or call start())")
        try:
            registry.tell(message)
        except pykka.ActorDeadError:
            broken = self._broken  # the registry died in the instant since the check above
            if broken is not None:
                raise TroupeBroken(str(broken)) from broken.__cause__
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
        _check_seconds("wait_ready", timeout)
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
        if type(limit) is not int:
            raise TypeError(f"limit must be an integer, got {type(limit).__name__}")
        if limit < 1:
            raise ValueError("limit must be at least 1")
        result: list[ToolSpec] = self._ask(lambda f: SearchTools(query, limit, f), CONTROL_TIMEOUT)
        return result

    def submit(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        timeout: float | None = None,
        progress_handler: ProgressHandler | None = None,
    ) -> CallHandle:
        """Start a call and return its handle at once (``progress_handler``: see :meth:`call`)."""
        _check_call(name, arguments, timeout)
        future: Future[Any] = Future()
        self._watch(future, name, progress_handler)
        lane = self._send_call(name, arguments, future, timeout)
        wait = (timeout if timeout is not None else self._longest_call) + CALL_WAIT_MARGIN
        if self.approver is not None and self.config.approval_mode == "ask":
            wait += APPROVAL_WAIT
        # A server's configured timeout may be huge (1e300): the wait is bounded below what a thread can wait
        # for (an OverflowError once the call was sent, before).
        return CallHandle(self, name, future, min(wait, MAX_TIMEOUT), lane)

    def _send_call(
        self, name: str, arguments: Mapping[str, Any] | None, future: Future[Any], timeout: float | None
    ) -> tuple[CallLane, RequestId] | None:
        """Send a call through its lane when the registry has published one, else to the registry."""
        route = self._board.routes.get(name)
        if route is not None and not self._is_stopped and self._broken is None:
            request_id = route.lane.call(route.original_name, arguments, future, route.context, timeout)
            if request_id is not None:
                return route.lane, request_id
        self._tell(CallTool(name, arguments, future, timeout))
        return None

    def call(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        timeout: float | None = None,
        progress_handler: ProgressHandler | None = None,
    ) -> ToolResult:
        """Call a tool by its qualified name and wait for the result.

        ``timeout`` overrides the server's configured call timeout; it is an *inactivity* timeout: each
        progress notification the server sends restarts it, up to the server's ``max_call_time`` (by default
        ten times the timeout). ``progress_handler`` receives this call's
        :class:`~mcp_troupe.host.ProgressEvent` s (the troupe's own handler, if any, receives them too).
        Raises ``UnknownTool``, ``ServerNotReady``, ``ConnectionLost``, ``CallTimedOut`` or ``RemoteError``;
        a tool that ran and failed is not an exception but a result with ``is_error`` set. A name that is not
        a string, arguments that are not a mapping, or a timeout that is not a positive finite number raise
        ``TypeError``/``ValueError`` at once; arguments holding a value JSON cannot write (an object of
        another type, ``NaN``, a value holding itself) raise ``InvalidArguments``, and nothing is sent.
        """
        return self.submit(name, arguments, timeout=timeout, progress_handler=progress_handler).result()

    async def acall(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        timeout: float | None = None,
        progress_handler: ProgressHandler | None = None,
    ) -> ToolResult:
        """Like :meth:`call`, for asyncio code; cancelling the awaiting task cancels the call on the server.

        Never blocks the caller's event loop.
        """
        _check_call(name, arguments, timeout)
        route = self._board.routes.get(name)
        if route is not None and not self._is_stopped and self._broken is None:
            reply_to = LoopReply(asyncio.get_running_loop())
            self._watch(reply_to, name, progress_handler)
            lane = route.lane
            request_id = lane.call(route.original_name, arguments, reply_to, route.context, timeout)
            if request_id is not None:
                try:
                    reply = await reply_to.future
                except asyncio.CancelledError:
                    # This task was cancelled (and the future with it): give the call up on the server too
                    # (notifications/cancelled, or tasks/cancel for a task). Done here rather than by a done
                    # callback on the future, which every answered call would pay for. A failure to tell the
                    # server is logged, as the loop logged a failing callback: the cancellation stands.
                    try:
                        lane.cancel(request_id, "the caller cancelled the call")
                    except Exception:
                        log.exception("could not cancel call %r of %s on the server", request_id, name)
                    raise
                return self._render(reply)
        future: Future[Any] = Future()
        self._watch(future, name, progress_handler)
        self._tell(CallTool(name, arguments, future, timeout))
        reply = await asyncio.wrap_future(future)
        return self._render(reply)

    def _watch(self, reply_to: Any, name: str, progress_handler: ProgressHandler | None) -> None:
        """Tell the host which tool a call is, so that its progress events name it (and reach its handler)."""
        if progress_handler is not None or self.host.progress_handler is not None:
            if progress_handler is not None and not callable(progress_handler):
                kind = type(progress_handler).__name__
                raise TypeError(f"the progress_handler of {name!r} must be a function or None, got {kind}")
            self.host.watch_call(reply_to, name, progress_handler)

    def complete(
        self,
        *,
        argument: str,
        value: str = "",
        prompt: str | None = None,
        resource_template: str | None = None,
        context: Mapping[str, str] | None = None,
        server: str | None = None,
        timeout: float | None = None,
    ) -> Completion:
        """Suggest values for a prompt's argument or a URI template's parameter (``completion/complete``).

        Name exactly one of ``prompt`` and ``resource_template``; ``value`` is what is typed so far and
        ``context`` the other arguments already chosen. ``server`` may be left out when exactly one connected
        server offers that kind of thing. The same as ``mcp_prompts`` / ``mcp_resources`` ``action=complete``;
        raises :class:`~mcp_troupe.errors.CallError` with the reason when the server cannot complete.
        """
        if (prompt is None) == (resource_template is None):
            raise ValueError("complete() needs exactly one of prompt= and resource_template=")
        if context is not None and (
            not isinstance(context, Mapping)
            or not all(isinstance(key, str) and isinstance(item, str) for key, item in context.items())
        ):
            raise TypeError(f"complete() context= must map argument names to strings, got {context!r:.80}")
        arguments: dict[str, Any] = {"action": "complete", "argument": argument, "value": value}
        if prompt is not None:
            tool, arguments["name"] = "mcp_prompts", prompt
        else:
            tool, arguments["uri"] = "mcp_resources", resource_template
        if context:
            arguments["context"] = dict(context)
        if server is not None:
            arguments["server"] = server
        result = self.call(tool, arguments, timeout=timeout)
        structured = result.structured
        if result.is_error or not isinstance(structured, Mapping):
            raise CallError(result.text)
        total = structured.get("total")
        return Completion(
            values=tuple(structured.get("values", ())),
            total=total if isinstance(total, int) else None,
            has_more=structured.get("hasMore") is True,
        )

    def subscribe(
        self,
        uri: str,
        callback: Callable[[str], Any],
        *,
        server: str | None = None,
        timeout: float = CONTROL_TIMEOUT,
    ) -> Subscription:
        """Call ``callback(uri)`` whenever the server says the resource ``uri`` changed.

        Legacy era: ``resources/subscribe``; 2026-07-28: the URI joins the ``subscriptions/listen`` filter
        (``resourceSubscriptions``). Made again after every reconnect; the callback runs like any handler
        (sync in a worker thread, async on the loop). ``server`` may be left out when only one is
        configured. When the server is connected its answer is awaited (a refusal raises ``RemoteError``);
        otherwise the subscription is sent when it connects. ``.cancel()`` unsubscribes.
        """
        if not isinstance(uri, str) or not uri:
            raise TypeError(f"subscribe() needs a resource URI (a non-empty string), got {uri!r:.80}")
        if not callable(callback):
            raise TypeError(f"subscribe() needs a callable callback(uri), got {type(callback).__name__}")
        if server is None:
            if len(self.config.servers) != 1:
                raise ValueError("subscribe() needs server= when more than one server is configured")
            (server,) = self.config.servers
        if server not in self.config.servers:
            raise UnknownServer(server, tuple(self.config.servers))
        _check_seconds("subscribe", timeout)
        if self._runtime is None or self._is_stopped:
            # It was taken, and its callback never called: nothing would ever send it.
            raise TroupeClosed("the troupe is not running (use it as a context manager or call start())")
        self._refuse_on_io_loop("subscribe")
        subscription, answer = self.host.subscribe(server, uri, callback)
        if answer is not None:
            try:
                answer.result(timeout)
            except BaseException:
                subscription.cancel()
                raise
        return subscription

    def roots_changed(self, timeout: float = CONTROL_TIMEOUT) -> list[str]:
        """Ask a callable ``roots`` again now; send ``notifications/roots/list_changed`` where it changed.

        Returns the servers that were notified. (A callable is also asked every two seconds on its own.)
        """
        _check_seconds("roots_changed", timeout)
        runtime = self._runtime
        if runtime is None or self._is_stopped:
            raise TroupeClosed("the troupe is not running")
        self._refuse_on_io_loop("roots_changed")
        future: Future[list[str]] = Future()

        async def check() -> None:
            try:
                future.set_result(await self.host.roots_changed())
            except Exception as exc:  # reported to the caller, who asked
                future.set_exception(exc)

        runtime.loop.spawn(check, name="roots changed")
        try:
            return future.result(timeout)
        except FutureTimeout:
            raise TimeoutError(f"the roots were not checked within {timeout} s") from None

    def status(self) -> list[ServerStatus]:
        """Every server's state, attempts, last error, pid, tool count, in configuration order."""
        result: list[ServerStatus] = self._ask(GetStatus, CONTROL_TIMEOUT)
        return result

    def restart(self, server: str, timeout: float = CONTROL_TIMEOUT) -> None:
        """Tear down one server's actors and reconnect it at once; the others keep serving."""
        _check_seconds("restart", timeout)
        self._refuse_on_io_loop("restart")
        self._ask(lambda f: Restart(server, f), timeout)

    def stop_server(self, server: str, timeout: float = CONTROL_TIMEOUT) -> None:
        """Stop one server (its tools leave the table) until :meth:`start_server`."""
        _check_seconds("stop_server", timeout)
        self._refuse_on_io_loop("stop_server")
        self._ask(lambda f: Stop(server, f), timeout)

    def start_server(self, server: str, timeout: float = CONTROL_TIMEOUT) -> None:
        """Start a stopped or failed server again."""
        _check_seconds("start_server", timeout)
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

    def events(self, *, timeout: float | None = None, history: bool = False) -> Iterator[TroupeEvent]:
        """Yield connected / lost / changed / crashed / restarted / failed / stopped events as they happen.

        Each call is a subscriber of its own, from the moment of the call: it sees the events emitted from
        then on (every subscriber sees every event; none takes events from another). ``history=True``
        first yields the events kept so far (the last :data:`~mcp_troupe.actors.loop.EVENT_HISTORY`).
        Ends when the troupe stops, or when ``timeout`` seconds pass without an event; a subscriber that
        reads too slowly loses its oldest unread events, never anyone else's.
        """
        if timeout is not None:
            _check_seconds("events", timeout)
        runtime = self._runtime
        if runtime is None:
            raise TroupeClosed("the troupe is not running")
        inbox = runtime.subscribe(history=history)
        return self._read_events(runtime, inbox, timeout)

    def _read_events(
        self, runtime: Runtime, inbox: queue.Queue[TroupeEvent], timeout: float | None
    ) -> Iterator[TroupeEvent]:
        try:
            while True:
                wait = 0.2 if timeout is None else max(0.0, min(0.2, timeout))
                started = time.monotonic()
                while True:
                    try:
                        yield inbox.get(timeout=wait)
                        break
                    except queue.Empty:
                        if self._is_stopped:
                            return
                        if timeout is not None and time.monotonic() - started >= timeout:
                            return
        finally:
            runtime.unsubscribe(inbox)


def _check_seconds(method: str, timeout: object) -> None:
    """Refuse a timeout a control method cannot wait for, naming the method (a string failed with
    ``'>' not supported between instances of 'str' and 'int'``, a huge one with an OverflowError). Zero or
    less means: do not wait (as for a future's ``result``)."""
    if isinstance(timeout, bool) or not isinstance(timeout, int | float):
        raise TypeError(f"{method}() timeout must be a number of seconds, got {type(timeout).__name__}")
    if not timeout <= MAX_TIMEOUT:  # (NaN fails this too)
        raise ValueError(
            f"{method}() timeout must be a number of seconds, at most {MAX_TIMEOUT:.0f} (a year), "
            f"got {timeout!r}"
        )


def _check_call(name: object, arguments: object, timeout: object) -> None:
    """Refuse a call whose name, arguments or timeout are not what :meth:`Troupe.call` takes, in the caller's
    thread and naming what was wrong: nothing of it reaches the registry or a server (a string passed as the
    arguments used to crash the registry, and with it the whole troupe)."""
    if type(name) is not str:
        raise TypeError(f"the tool name must be a string, got {type(name).__name__}")
    if arguments is not None and type(arguments) is not dict and not isinstance(arguments, Mapping):
        kind = type(arguments).__name__
        raise TypeError(f"the arguments of {name!r} must be a mapping (a JSON object) or None, got {kind}")
    if timeout is not None:
        if (type(timeout) is not float and type(timeout) is not int) and (
            isinstance(timeout, bool) or not isinstance(timeout, int | float)
        ):
            raise TypeError(
                f"the timeout of {name!r} must be a number of seconds, got {type(timeout).__name__}"
            )
        if not 0 < timeout <= MAX_TIMEOUT:  # (NaN fails this too)
            raise ValueError(
                f"the timeout of {name!r} must be a positive, finite number of seconds, got {timeout!r} "
                f"(at most {MAX_TIMEOUT:.0f}, a year)"
            )


def _on_registry_failed(ref: weakref.ReferenceType[Troupe]) -> Callable[[ChildFailed], None]:
    """The registry's parent: its crash breaks the troupe (a weak reference, so a forgotten Troupe can
    still be collected and stopped at exit)."""

    def on_failed(report: ChildFailed) -> None:
        troupe = ref()
        if troupe is None:
            return
        broken = TroupeBroken(
            f"the troupe's registry crashed: {report.error!r}; stop this Troupe and start a new one"
        )
        broken.__cause__ = report.error
        troupe._broken = broken
        log.error("%s; every call fails until a new Troupe is started", broken)

    return on_failed


def _stop_at_exit(ref: weakref.ReferenceType[Troupe]) -> None:
    troupe = ref()
    if troupe is not None:
        troupe.stop(timeout=5.0)
