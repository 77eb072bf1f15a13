"""A 2026-07-28 tasks-extension server (``io.modelcontextprotocol/tasks``, SEP-2663) on the official SDK.

``mcp`` 2.3.0 has no tasks extension of its own, but it has the pluggable extension interface (SEP-2133,
``mcp.server.extension``): new request methods and a ``tools/call`` interceptor. This server uses exactly that
to serve the extension as the ext-tasks spec describes it, so the SDK does the transport, the modern
handshake (``server/discover``, capabilities with ``extensions``) and the serialisation. Run it as::

    python tests/interop/servers/sdk_tasks.py            # stdio, until stdin reaches EOF
    python tests/interop/servers/sdk_tasks.py --http     # Streamable HTTP on 127.0.0.1, port printed first

Over HTTP it serves ``/mcp`` until its stdin closes, and journals the ``Mcp-Name`` header each ``tasks/*``
request carried (spec: ext-tasks "Streamable HTTP: Routing Headers" — it MUST equal ``params.taskId``).

Tools (each answered with a task handle, ``resultType: "task"``, only when the request declares the
extension in its per-request client capabilities; otherwise ``-32021`` naming it, as the spec says a server
that cannot answer without a task MUST):

- ``hello()``: ``input_required`` with an ``elicitation/create`` for a name (key ``name``), then completed
  with ``Hello, <name>!``.
- ``sleepy(seconds)``: works for ``seconds``, then completes with ``slept <seconds>``; ``tasks/cancel`` stops
  it (status ``cancelled``).
- ``broken()``: fails with the JSON-RPC error ``-32603`` "backend down".
- ``crash()``: the whole process exits (status 3) 0.3 s into the task: a server dying mid-task.

Tool ``journal()`` (not a task) answers the task methods this process received so far, one per line
(``tasks/cancel <taskId>`` ..., and over HTTP ``header <method> <Mcp-Name>``), so a test can check what the
client sent; ``declared_extensions()`` (not a task) the extension identifiers its request's client
capabilities declared.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import sys
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import anyio
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.extension import Extension, MethodBinding
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolRequestParams, RequestParams
from pydantic import ConfigDict

EXT = "io.modelcontextprotocol/tasks"
TASK_TOOLS = frozenset({"hello", "sleepy", "broken", "crash"})
POLL_MS = 100
JOURNAL: list[str] = []


class TaskParams(RequestParams):
    """``tasks/get`` and ``tasks/cancel`` params."""

    model_config = ConfigDict(extra="allow")
    taskId: str


class UpdateParams(TaskParams):
    """``tasks/update`` params."""

    inputResponses: dict[str, Any]


def _text(text: str) -> dict[str, Any]:
    # The SDK gives a `-> str` tool an outputSchema {"result": string}: the result carries both forms.
    return {
        "content": [{"type": "text", "text": text}],
        "structuredContent": {"result": text},
        "isError": False,
    }


def _now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


class _Task:
    def __init__(self, task_id: str) -> None:
        self.task_id = task_id
        self.status = "working"
        self.created = _now()
        self.updated = self.created
        self.result: dict[str, Any] | None = None
        self.error: dict[str, Any] | None = None
        self.input_requests: dict[str, Any] = {}
        self.answers: dict[str, Any] = {}
        self.answered = asyncio.Event()
        self.runner: asyncio.Task[None] | None = None

    def set(self, status: str) -> None:
        self.status = status
        self.updated = _now()

    def detailed(self) -> dict[str, Any]:
        task: dict[str, Any] = {
            "taskId": self.task_id,
            "status": self.status,
            "createdAt": self.created,
            "lastUpdatedAt": self.updated,
            "ttlMs": 60_000,
            "pollIntervalMs": POLL_MS,
        }
        if self.status == "completed":
            task["result"] = self.result
        elif self.status == "failed":
            task["error"] = self.error
        elif self.status == "input_required":
            task["inputRequests"] = self.input_requests
        return task


class TasksExtension(Extension):
    """The server side of ext-tasks, in memory."""

    identifier = EXT

    def __init__(self) -> None:
        self.tasks: dict[str, _Task] = {}

    def methods(self) -> Sequence[MethodBinding]:
        return (
            MethodBinding("tasks/get", TaskParams, self._get),
            MethodBinding("tasks/update", UpdateParams, self._update),
            MethodBinding("tasks/cancel", TaskParams, self._cancel),
        )

    async def intercept_tool_call(
        self, params: CallToolRequestParams, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        if params.name not in TASK_TOOLS:
            return await call_next(ctx)
        meta = (ctx.params or {}).get("_meta") or {}
        capabilities = meta.get("io.modelcontextprotocol/clientCapabilities") or {}
        if EXT not in (capabilities.get("extensions") or {}):
            raise MCPError(
                -32021,
                "Missing required client capability",
                {"requiredCapabilities": {"extensions": {EXT: {}}}},
            )
        task = _Task(secrets.token_urlsafe(16))
        self.tasks[task.task_id] = task
        task.runner = asyncio.get_running_loop().create_task(
            self._work(task, params.name, params.arguments or {})
        )
        return {"resultType": "task", **task.detailed()}

    async def _work(self, task: _Task, name: str, arguments: dict[str, Any]) -> None:
        try:
            if name == "hello":
                await asyncio.sleep(0.2)
                task.input_requests = {
                    "name": {
                        "method": "elicitation/create",
                        "params": {
                            "mode": "form",
                            "message": "Please enter your name.",
                            "requestedSchema": {
                                "type": "object",
                                "properties": {"name": {"type": "string"}},
                                "required": ["name"],
                            },
                        },
                    }
                }
                task.set("input_required")
                await task.answered.wait()
                task.input_requests = {}
                task.set("working")
                await asyncio.sleep(0.2)
                answer = task.answers.get("name") or {}
                who = (answer.get("content") or {}).get("name", "nobody")
                task.result = _text(f"Hello, {who}!")
                task.set("completed")
            elif name == "sleepy":
                seconds = float(arguments.get("seconds", 1))
                await asyncio.sleep(seconds)
                task.result = _text(f"slept {seconds:g}")
                task.set("completed")
            elif name == "crash":
                await asyncio.sleep(0.3)
                os._exit(3)
            else:
                await asyncio.sleep(0.1)
                task.error = {"code": -32603, "message": "backend down"}
                task.set("failed")
        except asyncio.CancelledError:
            task.set("cancelled")

    def _known(self, task_id: str) -> _Task:
        task = self.tasks.get(task_id)
        if task is None:
            raise MCPError(-32602, "Failed to retrieve task: Task not found")
        return task

    async def _get(self, ctx: ServerRequestContext[Any, Any], params: TaskParams) -> HandlerResult:
        JOURNAL.append(f"tasks/get {params.taskId}")
        return {"resultType": "complete", **self._known(params.taskId).detailed()}

    async def _update(self, ctx: ServerRequestContext[Any, Any], params: UpdateParams) -> HandlerResult:
        JOURNAL.append(f"tasks/update {params.taskId} {sorted(params.inputResponses)}")
        task = self._known(params.taskId)
        for key, answer in params.inputResponses.items():
            if key in task.input_requests and key not in task.answers:
                task.answers[key] = answer
        if task.input_requests and set(task.input_requests) <= set(task.answers):
            task.answered.set()
        return {"resultType": "complete"}

    async def _cancel(self, ctx: ServerRequestContext[Any, Any], params: TaskParams) -> HandlerResult:
        JOURNAL.append(f"tasks/cancel {params.taskId}")
        task = self._known(params.taskId)
        if task.runner is not None and task.status not in ("completed", "failed", "cancelled"):
            task.runner.cancel()
        return {"resultType": "complete"}


def build_server() -> MCPServer:
    server = MCPServer("sdk-tasks", version="2.3.0-interop", extensions=[TasksExtension()])

    @server.tool()
    async def hello() -> str:
        """Greets you, once you said your name (runs as a task)."""
        return "not as a task"

    @server.tool()
    async def sleepy(seconds: float = 1.0) -> str:
        """Sleeps (runs as a task)."""
        return "not as a task"

    @server.tool()
    async def broken() -> str:
        """Fails (runs as a task)."""
        return "not as a task"

    @server.tool()
    async def crash() -> str:
        """Exits the server mid-task (runs as a task)."""
        return "not as a task"

    @server.tool()
    async def journal() -> str:
        """The task methods received so far, one per line."""
        return "\n".join(JOURNAL)

    @server.tool()
    async def declared_extensions(ctx: Context) -> str:  # type: ignore[type-arg]
        """The extension identifiers this request's client capabilities declare, one per line."""
        declared = ctx.client_capabilities.model_dump(by_alias=True, exclude_none=True).get("extensions")
        return "\n".join(sorted(declared or {}))

    return server


def serve_http(server: MCPServer) -> None:
    """Serve ``/mcp`` over Streamable HTTP on 127.0.0.1; print the port first; stop when stdin closes."""
    import uvicorn

    inner = server.streamable_http_app(json_response=False, stateless_http=True)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await inner(scope, receive, send)
            return
        headers = dict(scope["headers"])
        method = headers.get(b"mcp-method", b"").decode()
        if method.startswith("tasks/"):
            JOURNAL.append(f"header {method} {headers.get(b'mcp-name', b'-').decode()}")
        await inner(scope, receive, send)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    print(sock.getsockname()[1], flush=True)
    runner = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
    )

    def exit_on_stdin_eof() -> None:
        while sys.stdin.buffer.read(4096):
            pass
        runner.should_exit = True

    threading.Thread(target=exit_on_stdin_eof, daemon=True).start()
    runner.run(sockets=[sock])


if __name__ == "__main__":
    if "--http" in sys.argv[1:]:
        serve_http(build_server())
    else:
        anyio.run(build_server().run_stdio_async)
