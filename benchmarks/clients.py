"""The clients under comparison, each behind the same small interface.

- ``troupe``: mcp-troupe, ``Troupe.call`` (the blocking API, in a worker thread as blocking code would run it)
  for sequential calls, and ``Troupe.acall`` for calls in flight; ``troupe_acall`` is the same troupe measured
  with ``acall`` for sequential calls too; ``troupe_shared`` is a troupe started with ``io_loop=`` the
  benchmark's own event loop (the servers' I/O runs there, no I/O thread), measured with ``acall`` throughout;
- ``sdk``: the official MCP Python SDK's ``ClientSession`` over its ``stdio_client`` or
  ``streamable_http_client`` (``mcp`` 2.3.0), on the benchmark's event loop;
- ``raw``: no library at all, the floor. Over stdio: ``subprocess.Popen``, write a line, read a line, in a
  worker thread. Over HTTP: raw asyncio streams, a hand-written HTTP/1.1 request, a hand-parsed response.

Every client can hold one or several servers (``call(text, server_index)``), can list every page of the
tools (for discovery figures), and is closed by the ``AsyncExitStack`` it was connected with.

Every loop is bounded in count and in time; a call that takes longer than ``CALL_TIMEOUT`` means a client
or server is stuck, and the measurement is abandoned (:class:`Aborted`).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any, Protocol

from benchmarks.servers import kill

__all__ = [
    "CALL_TIMEOUT",
    "RAW_MODERN_META",
    "Aborted",
    "Client",
    "RawHttpClient",
    "RawPipeClient",
    "SdkClient",
    "SdkModernClient",
    "TroupeAcallClient",
    "TroupeClient",
    "inflight_async",
    "sequential_async",
    "troupe_protocol_option",
]

CALL_TIMEOUT = 10.0
"""No single call may take longer than this (seconds); it would mean the client or server is stuck."""
PROTOCOL_VERSION = "2025-06-18"
MODERN_VERSION = "2026-07-28"
_INFO = {"name": "bench-raw", "version": "0"}
RAW_MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
    # What mcp-troupe declares (the tasks extension), so that the floor's frames are the same size as ours.
    "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}},
    "io.modelcontextprotocol/clientInfo": _INFO,
}
"""The ``_meta`` a raw floor client sends on every request in the modern era (``modern=True``)."""


class Aborted(Exception):
    """A measurement ran past its deadline or its client broke; the client is measured no further."""


class Client(Protocol):
    """What the benchmark needs from each client."""

    name: str

    async def sequential(self, calls: int, deadline: float) -> list[int]:
        """Make ``calls`` calls one after another; return each one's latency in nanoseconds."""
        ...

    async def inflight(self, total: int, concurrency: int, deadline: float) -> float | None:
        """Make ``total`` calls keeping ``concurrency`` in flight over all servers; return the seconds.

        None when this client does not measure throughput (``troupe_acall`` shares ``troupe``'s).
        """
        ...


# ---- shared drivers for clients that run on the benchmark's event loop -------------------------------------


async def sequential_async(call: Callable[[str], Awaitable[None]], calls: int, deadline: float) -> list[int]:
    """Await ``call`` ``calls`` times in a row; return each latency in nanoseconds."""
    latencies = []
    clock = time.perf_counter_ns
    for index in range(calls):
        text = f"call {index}"
        started = clock()
        await call(text)
        latencies.append(clock() - started)
        if time.monotonic() > deadline:
            raise Aborted(f"passed the deadline after {index + 1} of {calls} calls")
    return latencies


async def inflight_async(
    calls: list[Callable[[str], Awaitable[None]]], total: int, concurrency: int, deadline: float
) -> float:
    """Make ``total`` calls with ``concurrency`` workers; worker ``i`` uses ``calls[i % len(calls)]``.

    Return the seconds it took.
    """
    remaining = total

    async def worker(call: Callable[[str], Awaitable[None]]) -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1  # no await between the test and the decrement: workers cannot overshoot
            await call("x")

    started = time.perf_counter()
    workers = [asyncio.create_task(worker(calls[index % len(calls)])) for index in range(concurrency)]
    # When one call fails, or the deadline passes, every other worker is cancelled too instead of calling on
    # in the background. Not an asyncio.TaskGroup: on Python 3.11 a failing child cancels the *parent* task
    # too, and with asyncio.timeout around it that cancellation can outlive the group and surface later, in
    # an unrelated client's teardown (seen when a client under test failed a call).
    try:
        done, pending = await asyncio.wait(
            workers, timeout=max(0.0, deadline - time.monotonic()), return_when=asyncio.FIRST_EXCEPTION
        )
    finally:
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
    failures = [task.exception() for task in done if not task.cancelled() and task.exception() is not None]
    if failures:
        raise Aborted(f"a call failed: {failures[0]!r}") from failures[0]
    if pending:
        raise Aborted(f"passed the deadline with {remaining} of {total} calls not yet sent")
    return time.perf_counter() - started


# ---- the floor over stdio: a JSON-RPC loop over the pipes, no library --------------------------------------


def _call_line(request_id: int, text: str, meta: dict[str, Any] | None = None) -> bytes:
    params: dict[str, Any] = {"name": "echo", "arguments": {"text": text}}
    if meta is not None:
        params["_meta"] = meta
    message = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


class RawPipe:
    """One server process spoken to with blocking reads and writes on its pipes.

    ``meta``: the modern era (2026-07-28): ``server/discover`` instead of the handshake, and this ``_meta``
    on every request (``RAW_MODERN_META``); None: the legacy handshake.
    """

    def __init__(self, command: list[str], meta: dict[str, Any] | None = None) -> None:
        self.meta = meta
        # start_new_session as mcp-troupe does: on Linux it also makes spawning under load much faster.
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self._stdin = self.process.stdin
        self._stdout = self.process.stdout
        self._next_id = 0
        self.tool_count = 0

    def handshake(self) -> None:
        """``initialize``, ``notifications/initialized``, then every page of ``tools/list`` (modern:
        ``server/discover``, then the pages)."""
        if self.meta is not None:
            # request() raises Aborted unless it is a result: a legacy-only server answers -32601.
            self.request("server/discover", {})
        else:
            self.request(
                "initialize", {"protocolVersion": PROTOCOL_VERSION, "capabilities": {}, "clientInfo": _INFO}
            )
            self.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.tool_count = self.list_all_tools()

    def list_all_tools(self, max_pages: int = 1000) -> int:
        """Request every page of ``tools/list``, decode each; return how many tools there are."""
        count, cursor = 0, None
        for _ in range(max_pages):
            result = self.request("tools/list", {"cursor": cursor} if cursor is not None else {})["result"]
            count += len(result["tools"])
            cursor = result.get("nextCursor")
            if cursor is None:
                return count
        raise Aborted(f"more than {max_pages} pages of tools")

    def close(self) -> None:
        """Close stdin, which ends the server, and reap it."""
        kill(self.process, grace=5.0)

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        request_id = self._next_id
        self._next_id += 1
        if self.meta is not None:
            params = {**params, "_meta": self.meta}
        message = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        self.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        response = self.read()
        if response.get("id") != request_id or "result" not in response:
            raise Aborted(f"bad answer to {method}: {str(response)[:200]}")
        return response

    def take_ids(self, count: int) -> int:
        first = self._next_id
        self._next_id += count
        return first

    def write(self, data: bytes) -> None:
        self._stdin.write(data)
        self._stdin.flush()

    def read(self) -> dict[str, Any]:
        line = self._stdout.readline()
        if not line:
            raise Aborted("the server closed its stdout (it died, or the watchdog killed it)")
        message: dict[str, Any] = json.loads(line)
        return message

    @staticmethod
    def check(response: dict[str, Any], request_id: int, text: str) -> None:
        content = (response.get("result") or {}).get("content") or [{}]
        if response.get("id") != request_id or content[0].get("text") != text:
            raise Aborted(f"wrong answer to call {request_id}: {response!r}")

    def sequential(self, calls: int, deadline: float) -> list[int]:
        latencies = []
        clock = time.perf_counter_ns
        for index in range(calls):
            text = f"call {index}"
            started = clock()
            request_id = self.take_ids(1)
            self.write(_call_line(request_id, text, self.meta))
            self.check(self.read(), request_id, text)
            latencies.append(clock() - started)
            if time.monotonic() > deadline:
                raise Aborted(f"passed the deadline after {index + 1} of {calls} calls")
        return latencies

    def inflight(self, total: int, concurrency: int, deadline: float) -> float:
        # A writer thread sends while this one reads; a semaphore of `concurrency` permits, released as each
        # answer arrives, keeps that many calls outstanding. The writer sends what permits allow in one write.
        permits = threading.Semaphore(concurrency)
        stop = threading.Event()
        first_id = self.take_ids(total)
        failure: list[BaseException] = []

        def write_all() -> None:
            sent = 0
            try:
                while sent < total and not stop.is_set():
                    if not permits.acquire(timeout=0.1):
                        continue
                    batch = 1
                    while batch < 256 and sent + batch < total and permits.acquire(blocking=False):
                        batch += 1
                    lines = (_call_line(first_id + sent + k, "x", self.meta) for k in range(batch))
                    self.write(b"".join(lines))
                    sent += batch
            except BaseException as exc:
                failure.append(exc)

        writer = threading.Thread(target=write_all, name="raw-writer", daemon=True)
        started = time.perf_counter()
        writer.start()
        outstanding = set(range(first_id, first_id + total))
        try:
            for received in range(total):
                # Servers that handle calls concurrently (the SDK's) may answer out of order.
                response = self.read()
                request_id = response.get("id")
                if request_id not in outstanding:
                    raise Aborted(f"an answer to no call of this round: {str(response)[:200]}")
                outstanding.discard(request_id)
                self.check(response, request_id, "x")
                permits.release()
                if received % 256 == 0 and time.monotonic() > deadline:
                    raise Aborted(f"passed the deadline after {received} of {total} calls")
            elapsed = time.perf_counter() - started
        finally:
            stop.set()
            writer.join(timeout=CALL_TIMEOUT)
            if writer.is_alive():
                # Stuck writing to a server that is stuck writing to us: end the server to free the writer.
                self.process.kill()
                writer.join(timeout=CALL_TIMEOUT)
        if failure:
            raise Aborted(f"the writer failed: {failure[0]!r}") from failure[0]
        return elapsed


class RawPipeClient:
    """The raw-pipe floor over one or more server processes.

    The calls run in worker threads (``asyncio.to_thread``) so that the event loop, and the SDK client's
    tasks on it, are not what is being measured. A blocked read cannot see a deadline, so a watchdog kills
    the servers when a measurement overruns: the read then ends with EOF.
    """

    name = "raw"

    def __init__(self, pipes: list[RawPipe]) -> None:
        self.pipes = pipes

    @classmethod
    def connect(
        cls, stack: AsyncExitStack, commands: list[list[str]], meta: dict[str, Any] | None = None
    ) -> RawPipeClient:
        """Start one process per command and handshake with each (``meta``: modern, see
        :class:`RawPipe`); the stack reaps them."""
        pipes = []
        for command in commands:
            pipe = RawPipe(command, meta)
            stack.callback(pipe.close)
            pipe.handshake()
            pipes.append(pipe)
        return cls(pipes)

    async def sequential(self, calls: int, deadline: float) -> list[int]:
        return await asyncio.to_thread(self._watched, self.pipes[0].sequential, calls, deadline)

    async def inflight(self, total: int, concurrency: int, deadline: float) -> float:
        # One thread per server, each keeping its share of the calls in flight; the figure is the wall time
        # until the last one finished.
        count = len(self.pipes)
        shares = [total // count + (1 if index < total % count else 0) for index in range(count)]
        per_server = max(1, concurrency // count)
        started = time.perf_counter()
        await asyncio.gather(
            *(
                asyncio.to_thread(self._watched, pipe.inflight, share, per_server, deadline)
                for pipe, share in zip(self.pipes, shares, strict=True)
            )
        )
        return time.perf_counter() - started

    def _watched(self, measure: Callable[..., Any], *args: Any) -> Any:
        deadline = args[-1]

        def kill_all() -> None:
            for pipe in self.pipes:
                pipe.process.kill()

        watchdog = threading.Timer(max(0.0, deadline - time.monotonic()) + CALL_TIMEOUT, kill_all)
        watchdog.daemon = True
        watchdog.start()
        try:
            return measure(*args)
        finally:
            watchdog.cancel()


# ---- the floor over HTTP: raw asyncio streams, hand-written HTTP/1.1 ---------------------------------------


class _RawHttpConnection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer


class RawHttpClient:
    """The raw HTTP floor: keep-alive connections (at most ``max_connections``, httpx's default of 100),
    one request at a time on each, a hand-built request and a hand-parsed response (JSON or one SSE event).

    ``meta``: the modern era (2026-07-28, stateless): ``server/discover`` and no session, this ``_meta`` on
    every request, and the ``MCP-Protocol-Version``, ``Mcp-Method`` and ``Mcp-Name`` headers it requires.
    """

    name = "raw"

    def __init__(
        self, urls: list[str], max_connections: int = 100, meta: dict[str, Any] | None = None
    ) -> None:
        self.meta = meta
        self._version = MODERN_VERSION if meta is not None else PROTOCOL_VERSION
        self._meta_json = (
            b"" if meta is None else b',"_meta":' + json.dumps(meta, separators=(",", ":")).encode()
        )
        self._targets: list[tuple[str, int, str]] = []
        for url in urls:
            host_port, _, path = url.removeprefix("http://").partition("/")
            host, _, port = host_port.partition(":")
            self._targets.append((host, int(port), "/" + path))
        self._sessions: list[str] = []
        self._idle: list[list[_RawHttpConnection]] = [[] for _ in urls]
        self._open: list[_RawHttpConnection] = []
        self._limit = asyncio.Semaphore(max_connections)
        self._next_id = 0
        self.tool_count = 0

    @classmethod
    async def connect(
        cls, stack: AsyncExitStack, urls: list[str], meta: dict[str, Any] | None = None
    ) -> RawHttpClient:
        """Open a session with each server (initialize, initialized, every tools/list page; ``meta``:
        modern, server/discover and the pages)."""
        client = cls(urls, meta=meta)
        stack.push_async_callback(client.aclose)
        for index in range(len(urls)):
            await client.handshake(index)
        return client

    async def handshake(self, index: int) -> None:
        params = {"protocolVersion": PROTOCOL_VERSION, "capabilities": {}, "clientInfo": _INFO}
        self._sessions.append("")
        if self.meta is not None:
            body, _ = await self.post(
                index, self._request_body("server/discover", {}), method="server/discover"
            )
            if "supportedVersions" not in (body.get("result") or {}):
                raise Aborted(f"server/discover was not answered as a modern server does: {str(body)[:200]}")
        else:
            _, headers = await self.post(index, self._request_body("initialize", params))
            self._sessions[index] = headers.get("mcp-session-id", "")
            await self.post(index, b'{"jsonrpc":"2.0","method":"notifications/initialized"}', expect=202)
        count, cursor = 0, None
        for _ in range(1000):
            body, _ = await self.post(
                index,
                self._request_body("tools/list", {"cursor": cursor} if cursor else {}),
                method="tools/list",
            )
            result = body["result"]
            count += len(result["tools"])
            cursor = result.get("nextCursor")
            if cursor is None:
                break
        self.tool_count = count

    def _request_body(self, method: str, params: dict[str, Any]) -> bytes:
        self._next_id += 1
        if self.meta is not None:
            params = {**params, "_meta": self.meta}
        message = {"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params}
        return json.dumps(message, separators=(",", ":")).encode()

    async def post(
        self, index: int, body: bytes, expect: int = 200, method: str = "", name: str = ""
    ) -> tuple[dict[str, Any], dict[str, str]]:
        host, port, path = self._targets[index]
        session = self._sessions[index] if index < len(self._sessions) else ""
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nContent-Length: {len(body)}\r\n"
            f"MCP-Protocol-Version: {self._version}\r\n"
        )
        if self.meta is not None and method:
            # spec: 2026-07-28 streamable-http — Mcp-Method on every request, Mcp-Name on tools/call.
            head += f"Mcp-Method: {method}\r\n" + (f"Mcp-Name: {name}\r\n" if name else "")
        if session:
            head += f"Mcp-Session-Id: {session}\r\n"
        request = head.encode() + b"\r\n" + body
        async with self._limit:
            idle = self._idle[index]
            connection = idle.pop() if idle else await self._open_connection(host, port)
            connection.writer.write(request)
            try:
                status, headers, payload = await self._read_response(connection.reader)
            except (asyncio.IncompleteReadError, ConnectionError):
                # A kept-alive connection the server closed while it sat idle (uvicorn closes them after
                # 5 s): send again once on a new one, as HTTP clients do; a new one failing is an error.
                connection.writer.close()
                connection = await self._open_connection(host, port)
                connection.writer.write(request)
                status, headers, payload = await self._read_response(connection.reader)
            idle.append(connection)
        if status != expect:
            raise Aborted(f"HTTP {status} from {path}: {payload[:200]!r}")
        if not payload:
            return {}, headers
        if headers.get("content-type", "").startswith("text/event-stream"):
            for line in payload.split(b"\n"):
                if line.startswith(b"data:"):
                    payload = line[5:]
                    break
        message: dict[str, Any] = json.loads(payload)
        return message, headers

    async def _open_connection(self, host: str, port: int) -> _RawHttpConnection:
        reader, writer = await asyncio.open_connection(host, port)
        connection = _RawHttpConnection(reader, writer)
        self._open.append(connection)
        return connection

    @staticmethod
    async def _read_response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            if line:
                key, _, value = line.partition(":")
                headers[key.strip().lower()] = value.strip()
        if "content-length" in headers:
            return status, headers, await reader.readexactly(int(headers["content-length"]))
        if headers.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int((await reader.readuntil(b"\r\n")).strip().split(b";")[0], 16)
                chunk = await reader.readexactly(size + 2)
                if size == 0:
                    return status, headers, body
                body += chunk[:-2]
        raise Aborted("a response without a length (the floor client reads only sized bodies)")

    async def call(self, text: str, index: int = 0) -> None:
        self._next_id += 1
        request_id = self._next_id
        body = (
            b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":%s}%s}}'
            % (request_id, json.dumps(text).encode(), self._meta_json)
        )
        post = self.post(index, body, method="tools/call", name="echo")
        message, _ = await asyncio.wait_for(post, CALL_TIMEOUT)
        content = (message.get("result") or {}).get("content") or [{}]
        if message.get("id") != request_id or content[0].get("text") != text:
            raise Aborted(f"wrong answer: {message!r}")

    async def sequential(self, calls: int, deadline: float) -> list[int]:
        return await sequential_async(self.call, calls, deadline)

    async def inflight(self, total: int, concurrency: int, deadline: float) -> float:
        calls = [_bind(self.call, index) for index in range(len(self._targets))]
        return await inflight_async(calls, total, concurrency, deadline)

    async def aclose(self) -> None:
        for connection in self._open:
            connection.writer.close()
        self._open.clear()


def _bind(call: Callable[[str, int], Awaitable[None]], index: int) -> Callable[[str], Awaitable[None]]:
    async def bound(text: str) -> None:
        await call(text, index)

    return bound


# ---- the official SDK (mcp 2.3.0): ClientSession over stdio_client or streamable_http_client ---------------


class SdkClient:
    """The official SDK's ``ClientSession``, one per server, on the benchmark's event loop."""

    name = "sdk"

    def __init__(self, sessions: list[Any]) -> None:
        self.sessions = sessions
        self.tool_count = 0

    @classmethod
    async def connect(
        cls, stack: AsyncExitStack, commands: list[list[str]] | None = None, urls: list[str] | None = None
    ) -> SdkClient:
        """Start (stdio) or reach (HTTP) each server and handshake; the stack closes everything."""
        from mcp import ClientSession, StdioServerParameters, stdio_client
        from mcp.client.streamable_http import streamable_http_client

        sessions = []
        client = cls(sessions)
        for command in commands or []:
            parameters = StdioServerParameters(command=command[0], args=command[1:])
            read_stream, write_stream = await stack.enter_async_context(stdio_client(parameters))
            sessions.append(await client._open(stack, ClientSession(read_stream, write_stream)))
        for url in urls or []:
            read_stream, write_stream = await stack.enter_async_context(streamable_http_client(url))
            sessions.append(await client._open(stack, ClientSession(read_stream, write_stream)))
        return client

    async def _open(self, stack: AsyncExitStack, session: Any) -> Any:
        session = await stack.enter_async_context(session)
        # initialize() is the legacy handshake directly; the high-level mcp.Client would first probe
        # server/discover (mode="auto"). Listing the tools caches their output schemas; without it the SDK
        # lists them itself on the first call.
        await session.initialize()
        self.tool_count = await self.list_all_tools(session)
        return session

    @staticmethod
    async def list_all_tools(session: Any, max_pages: int = 1000) -> int:
        """Every page of ``tools/list``, as a user of ``ClientSession`` writes the loop; return the count."""
        from mcp.types import PaginatedRequestParams

        count, cursor = 0, None
        for _ in range(max_pages):
            params = PaginatedRequestParams(cursor=cursor) if cursor is not None else None
            result = await session.list_tools(params=params)
            count += len(result.tools)
            cursor = result.next_cursor
            if cursor is None:
                return count
        raise Aborted(f"more than {max_pages} pages of tools")

    async def call(self, text: str, index: int = 0) -> None:
        result = await self.sessions[index].call_tool(
            "echo", {"text": text}, read_timeout_seconds=CALL_TIMEOUT
        )
        if result.is_error or result.content[0].text != text:
            raise Aborted(f"wrong answer: {result!r}")

    async def sequential(self, calls: int, deadline: float) -> list[int]:
        return await sequential_async(self.call, calls, deadline)

    async def inflight(self, total: int, concurrency: int, deadline: float) -> float:
        calls = [_bind(self.call, index) for index in range(len(self.sessions))]
        return await inflight_async(calls, total, concurrency, deadline)


class SdkModernClient:
    """The SDK's high-level ``mcp.Client`` pinned to a modern (stateless, 2026-07-28) protocol revision, over
    Streamable HTTP: no initialize handshake, every request self-describing."""

    name = "sdk"

    def __init__(self, clients: list[Any]) -> None:
        self.clients = clients
        self.tool_count = 0

    @classmethod
    async def connect(cls, stack: AsyncExitStack, urls: list[str], protocol: str) -> SdkModernClient:
        """Open a ``Client(url, mode=protocol)`` per server and list its tools; the stack closes them."""
        from mcp import Client

        clients = []
        for url in urls:
            client = await stack.enter_async_context(Client(url, mode=protocol))  # type: ignore[arg-type]
            clients.append(client)
        result = cls(clients)
        result.tool_count = len((await clients[0].list_tools()).tools) if clients else 0
        return result

    async def call(self, text: str, index: int = 0) -> None:
        result = await self.clients[index].call_tool("echo", {"text": text})
        if result.is_error or result.content[0].text != text:
            raise Aborted(f"wrong answer: {result!r}")

    async def sequential(self, calls: int, deadline: float) -> list[int]:
        return await sequential_async(self.call, calls, deadline)

    async def inflight(self, total: int, concurrency: int, deadline: float) -> float:
        calls = [_bind(self.call, index) for index in range(len(self.clients))]
        return await inflight_async(calls, total, concurrency, deadline)


def troupe_protocol_option() -> bool:
    """Whether this mcp-troupe's ``ServerConfig`` takes a ``protocol`` (era) option."""
    import dataclasses

    from mcp_troupe.config import ServerConfig

    return any(field.name == "protocol" for field in dataclasses.fields(ServerConfig))


# ---- mcp-troupe: Troupe.call for sequential calls (in a worker thread), Troupe.acall for calls in flight ---


class TroupeClient:
    """mcp-troupe's ``Troupe`` facade with one or more servers, ``echo`` (or ``echo0`` .. ``echoN-1``)."""

    name = "troupe"

    def __init__(self, troupe: Any, tools: list[str]) -> None:
        self.troupe = troupe
        self.tools = tools

    @staticmethod
    def config(
        commands: list[list[str]] | None = None,
        urls: list[str] | None = None,
        reconnect: Any = None,
        protocol: str | None = None,
    ) -> Any:
        """The ``TroupeConfig`` of the given servers, named ``echo`` (one) or ``echo<i>`` (several).

        ``protocol`` pins every server's protocol version or era (``ServerConfig.protocol``); it raises
        :class:`Aborted` when this mcp-troupe has no such option (see :func:`troupe_protocol_option`).
        """
        import dataclasses

        from mcp_troupe.config import ReconnectPolicy, ServerConfig, TroupeConfig, stdio_server

        if protocol is not None and not troupe_protocol_option():
            raise Aborted("this mcp-troupe has no ServerConfig.protocol option")
        extra = {"protocol": protocol} if protocol is not None else {}

        targets: list[tuple[str, Any]] = [("stdio", command) for command in commands or []]
        targets += [("http", url) for url in urls or []]
        servers = {}
        for index, (kind, target) in enumerate(targets):
            name = "echo" if len(targets) == 1 else f"echo{index}"
            if kind == "stdio":
                servers[name] = dataclasses.replace(stdio_server(name, target[0], *target[1:]), **extra)
            else:
                servers[name] = ServerConfig(name=name, url=target, **extra)
        return TroupeConfig(
            servers=servers,
            reconnect=reconnect or ReconnectPolicy(initial_delay=0.1, max_delay=0.5, max_attempts=0),
            network_policy="allow" if urls else "deny",
            # Unattended, like any automation whose tools the operator vetted: no approver to ask. The gate
            # still runs on every call (and is part of what is measured).
            approval_mode="auto",
        )

    @classmethod
    def connect(
        cls,
        stack: AsyncExitStack,
        commands: list[list[str]] | None = None,
        urls: list[str] | None = None,
        protocol: str | None = None,
    ) -> TroupeClient:
        """Start the troupe and wait for every server; the stack stops the troupe."""
        from mcp_troupe import Troupe

        config = cls.config(commands, urls, protocol=protocol)
        troupe = stack.enter_context(Troupe(config))
        if not troupe.wait_ready(timeout=60) or not all(s.state == "ready" for s in troupe.status()):
            raise Aborted(f"the servers did not all become ready: {troupe.status()!r}")
        return cls(troupe, [f"mcp__{name}__echo" for name in config.servers])

    async def sequential(self, calls: int, deadline: float) -> list[int]:
        # The blocking API is meant for code without an event loop: give it a thread of its own.
        return await asyncio.to_thread(self._sequential, calls, deadline)

    def _sequential(self, calls: int, deadline: float) -> list[int]:
        latencies = []
        clock = time.perf_counter_ns
        call = self.troupe.call
        tool = self.tools[0]
        for index in range(calls):
            text = f"call {index}"
            started = clock()
            result = call(tool, {"text": text}, timeout=CALL_TIMEOUT)
            latencies.append(clock() - started)
            if result.is_error or result.text != text:
                raise Aborted(f"wrong answer: {result!r}")
            if time.monotonic() > deadline:
                raise Aborted(f"passed the deadline after {index + 1} of {calls} calls")
        return latencies

    async def acall(self, text: str, index: int = 0) -> None:
        result = await self.troupe.acall(self.tools[index], {"text": text}, timeout=CALL_TIMEOUT)
        if result.is_error or result.text != text:
            raise Aborted(f"wrong answer: {result!r}")

    async def inflight(self, total: int, concurrency: int, deadline: float) -> float:
        calls = [_bind(self.acall, index) for index in range(len(self.tools))]
        return await inflight_async(calls, total, concurrency, deadline)


class TroupeSharedClient:
    """A troupe whose servers' I/O runs on the benchmark's own asyncio loop (``Troupe(io_loop=...)``), used
    with ``await Troupe.acall`` for sequential calls and calls in flight: how an asyncio agent can run it."""

    name = "troupe_shared"

    def __init__(self, troupe: Any, tools: list[str]) -> None:
        self.troupe = troupe
        self.tools = tools

    @classmethod
    async def connect(
        cls, stack: AsyncExitStack, commands: list[list[str]] | None = None, urls: list[str] | None = None
    ) -> TroupeSharedClient:
        """Start the troupe on the running loop and wait for every server; the stack stops the troupe."""
        from mcp_troupe import Troupe

        config = TroupeClient.config(commands, urls)
        troupe = await stack.enter_async_context(Troupe(config, io_loop=asyncio.get_running_loop()))
        is_ready = await asyncio.to_thread(troupe.wait_ready, 60)
        if not is_ready or not all(s.state == "ready" for s in troupe.status()):
            raise Aborted(f"the servers did not all become ready: {troupe.status()!r}")
        return cls(troupe, [f"mcp__{name}__echo" for name in config.servers])

    async def acall(self, text: str, index: int = 0) -> None:
        result = await self.troupe.acall(self.tools[index], {"text": text}, timeout=CALL_TIMEOUT)
        if result.is_error or result.text != text:
            raise Aborted(f"wrong answer: {result!r}")

    async def sequential(self, calls: int, deadline: float) -> list[int]:
        return await sequential_async(self.acall, calls, deadline)

    async def inflight(self, total: int, concurrency: int, deadline: float) -> float:
        calls = [_bind(self.acall, index) for index in range(len(self.tools))]
        return await inflight_async(calls, total, concurrency, deadline)


class TroupeAcallClient:
    """The same troupe, measured with ``await Troupe.acall`` for sequential calls (asyncio agents)."""

    name = "troupe_acall"

    def __init__(self, client: TroupeClient) -> None:
        self._client = client

    async def sequential(self, calls: int, deadline: float) -> list[int]:
        return await sequential_async(self._client.acall, calls, deadline)

    async def inflight(self, total: int, concurrency: int, deadline: float) -> float | None:
        return None  # troupe's in-flight figure already uses acall
