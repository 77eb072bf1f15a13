"""Streamable HTTP at its edges, against a scripted server: expiry, errors, broken and split streams, close.

The server is the tests' own: a small HTTP/1.1 server on ``asyncio`` in a thread, bound to 127.0.0.1, that
records every request it gets (method, headers, JSON body, when) and answers the way each test scripts it.
It speaks just enough MCP (initialize, tools/list, tools/call) for a :class:`~mcp_troupe.Troupe` to connect;
what a tool call does is up to the test. Tests wait on what the server saw (a condition variable), never on
sleeps.

spec: 2025-03-26 and 2025-06-18 basic/transports, "Streamable HTTP" (shared/spec/NOTES.md §c.2).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

import pytest

from mcp_troupe import (
    CallTimedOut,
    ConnectionLost,
    HttpError,
    ReconnectPolicy,
    RemoteError,
    ServerConfig,
    ServerState,
    Troupe,
    TroupeConfig,
)
from mcp_troupe.types import ServerStatus

pytestmark = [pytest.mark.faults]

FAST_RECONNECT = ReconnectPolicy(initial_delay=0.05, max_delay=0.2, max_attempts=3)
NO_RECONNECT = ReconnectPolicy(initial_delay=0.05, max_delay=0.2, max_attempts=0)


# ---- the scripted HTTP server ---------------------------------------------------------------------------


@dataclass
class Seen:
    """One request as the server received it; ``headers`` have lower-case names."""

    method: str
    headers: dict[str, str]
    body: Any
    at: float
    status: int | None = None

    @property
    def rpc_method(self) -> str | None:
        return self.body.get("method") if isinstance(self.body, dict) else None


class Exchange:
    """The answer to one request: a whole response, or a chunked stream written piece by piece."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, seen: Seen) -> None:
        self.reader = reader
        self.writer = writer
        self.seen = seen
        self.is_dropped = False

    async def reply(
        self,
        status: int,
        body: bytes = b"",
        *,
        content_type: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.seen.status = status
        lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}", f"content-length: {len(body)}"]
        if content_type is not None:
            lines.append(f"content-type: {content_type}")
        lines.extend(f"{name}: {value}" for name, value in (headers or {}).items())
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()

    async def start_stream(self, headers: dict[str, str] | None = None) -> None:
        self.seen.status = 200
        lines = ["HTTP/1.1 200 OK", "content-type: text/event-stream", "transfer-encoding: chunked"]
        lines.extend(f"{name}: {value}" for name, value in (headers or {}).items())
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await self.writer.drain()

    async def send(self, data: bytes, *, byte_by_byte: bool = False) -> None:
        pieces = [data[i : i + 1] for i in range(len(data))] if byte_by_byte else [data]
        for piece in pieces:
            self.writer.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            await self.writer.drain()
            if byte_by_byte:
                await asyncio.sleep(0.001)  # one TCP segment per byte, not one coalesced write

    async def end(self) -> None:
        self.writer.write(b"0\r\n\r\n")
        await self.writer.drain()

    def drop(self) -> None:
        """Close the connection mid-response (no terminating chunk)."""
        self.is_dropped = True
        self.writer.close()


Handler = Callable[[Seen, Exchange], Awaitable[None]]


class ScriptedServer:
    """An HTTP/1.1 server with keep-alive on 127.0.0.1 in its own thread; ``handler`` answers each request."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.seen: list[Seen] = []
        self._condition = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="scripted-http", daemon=True)
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        assert self._ready.wait(10), "the scripted server did not start"
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._loop is not None and self._stopping is not None:
            self._loop.call_soon_threadsafe(self._stopping.set)
        self._thread.join(10)
        assert not self._thread.is_alive(), "the scripted server did not stop"

    def requests(self, method: str | None = None, rpc_method: str | None = None) -> list[Seen]:
        with self._condition:
            return [
                seen
                for seen in self.seen
                if (method is None or seen.method == method)
                and (rpc_method is None or seen.rpc_method == rpc_method)
            ]

    def wait_for(self, predicate: Callable[[list[Seen]], bool], timeout: float = 10.0) -> bool:
        """Wait until ``predicate(seen)`` holds; False if ``timeout`` passed first."""
        with self._condition:
            return self._condition.wait_for(lambda: predicate(self.seen), timeout)

    def call_soon(self, fn: Callable[..., object], *args: object) -> None:
        assert self._loop is not None
        self._loop.call_soon_threadsafe(fn, *args)

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        server = await asyncio.start_server(self._serve_connection, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        await self._stopping.wait()
        server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await server.wait_closed()

    async def _serve_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                request_line, *header_lines = head.decode("latin-1").split("\r\n")
                headers: dict[str, str] = {}
                for line in header_lines:
                    if ":" in line:
                        name, value = line.split(":", 1)
                        headers[name.strip().lower()] = value.strip()
                raw = await reader.readexactly(int(headers.get("content-length", "0")))
                body = json.loads(raw) if raw else None
                seen = Seen(request_line.split()[0], headers, body, time.monotonic())
                with self._condition:
                    self.seen.append(seen)
                    self._condition.notify_all()
                exchange = Exchange(reader, writer, seen)
                await self.handler(seen, exchange)
                with self._condition:
                    self._condition.notify_all()  # the status is known now
                if exchange.is_dropped:
                    return
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass  # the client went away, or the server is stopping
        finally:
            self._tasks.discard(task)
            writer.close()


# ---- just enough MCP --------------------------------------------------------------------------------------

ToolScript = Callable[["FakeMcp", Seen, Exchange, dict[str, Any]], Awaitable[None]]


def sse(
    message: dict[str, Any], *, event_id: str | None = None, retry: int | None = None, eol: str = "\n"
) -> bytes:
    """One SSE ``message`` event holding ``message``."""
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    if retry is not None:
        lines.append(f"retry: {retry}")
    lines += ["event: message", f"data: {json.dumps(message)}", "", ""]
    return eol.join(lines).encode()


def result_of(request_id: Any, result: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def text_result(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": False}


@dataclass
class FakeMcp:
    """The scripted server's MCP behaviour; tests change its fields or add ``tools``' scripts."""

    mode: str = "json"  # how requests are answered: "json" or "sse"
    version: str = "2025-06-18"
    issue_sessions: bool = True
    tools: dict[str, ToolScript | None] = field(default_factory=lambda: {"echo": None})
    expired: set[str] = field(default_factory=set)
    # "405", "stream" (pushes from `pushes`), "once" (one event with an id, then ends), "silent" (no answer)
    get_mode: str = "405"
    replay: dict[str, list[bytes]] = field(default_factory=dict)  # Last-Event-ID → events to resend
    pushes: asyncio.Queue[bytes] | None = None
    sessions: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    async def __call__(self, seen: Seen, exchange: Exchange) -> None:
        session_id = seen.headers.get("mcp-session-id")
        if seen.method == "DELETE":
            await exchange.reply(200)
            return
        if seen.method == "GET":
            await self.on_get(seen, exchange)
            return
        message = seen.body
        if message.get("method") == "initialize":
            await self.on_initialize(seen, exchange)
            return
        if session_id in self.expired:
            await exchange.reply(
                404, b'{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"}}'
            )
            return
        if "id" not in message or "method" not in message:
            # spec: a notification or a response: 202 Accepted, no body.
            await exchange.reply(202)
            return
        if message["method"] == "tools/list":
            tools = [{"name": name, "inputSchema": {"type": "object"}} for name in self.tools]
            await self.answer(exchange, message["id"], {"tools": tools})
        elif message["method"] == "tools/call":
            name = message["params"]["name"]
            script = self.tools.get(name)
            if script is None:
                await self.answer(
                    exchange, message["id"], text_result(f"{name}: {message['params'].get('arguments')}")
                )
            else:
                await script(self, seen, exchange, message)
        else:
            await self.answer(exchange, message["id"], {})

    async def on_initialize(self, seen: Seen, exchange: Exchange) -> None:
        headers = {"mcp-session-id": f"s-{next(self.sessions)}"} if self.issue_sessions else {}
        result = {
            "protocolVersion": self.version,
            "capabilities": {"tools": {"listChanged": True}},
            "serverInfo": {"name": "scripted", "version": "1"},
        }
        await self.answer(exchange, seen.body["id"], result, headers=headers)

    async def answer(
        self,
        exchange: Exchange,
        request_id: Any,
        result: dict[str, Any],
        headers: dict[str, str] | None = None,
    ) -> None:
        if self.mode == "sse":
            await exchange.start_stream(headers)
            await exchange.send(sse(result_of(request_id, result)))
            await exchange.end()
        else:
            body = json.dumps(result_of(request_id, result)).encode()
            await exchange.reply(200, body, content_type="application/json", headers=headers)

    async def on_get(self, seen: Seen, exchange: Exchange) -> None:
        last_event_id = seen.headers.get("last-event-id")
        if last_event_id is not None and last_event_id in self.replay:
            await exchange.start_stream()
            for event in self.replay.pop(last_event_id):
                await exchange.send(event)
            await exchange.end()
        elif self.get_mode == "stream":
            self.pushes = pushes = asyncio.Queue()
            await exchange.start_stream()
            gone = asyncio.ensure_future(exchange.reader.read(1))  # EOF: the client closed the stream
            while True:
                push = asyncio.ensure_future(pushes.get())
                await asyncio.wait({push, gone}, return_when=asyncio.FIRST_COMPLETED)
                if gone.done():
                    push.cancel()
                    exchange.drop()
                    return
                await exchange.send(push.result())
        elif self.get_mode == "once":
            await exchange.start_stream()
            await exchange.send(b"id: g-1\nretry: 30\n: nothing more\n\n")
            await exchange.end()
        elif self.get_mode == "silent":
            await exchange.reader.read(1)  # never answers, not even the status line, until the client goes
            exchange.drop()
        else:
            await exchange.reply(405)


# ---- helpers ----------------------------------------------------------------------------------------------


@contextlib.contextmanager
def http_troupe(
    url: str,
    *,
    reconnect: ReconnectPolicy = NO_RECONNECT,
    headers: dict[str, str] | None = None,
    max_frame_bytes: int = 16 * 1024 * 1024,
    network_policy: str = "allow",
) -> Iterator[Troupe]:
    server = ServerConfig(
        name="edge",
        url=url,
        headers=headers or {},
        timeout=10,
        connect_timeout=5,
        max_frame_bytes=max_frame_bytes,
    )
    config = TroupeConfig(
        approval_mode="auto",  # approval has its own tests (tests/faults/test_policy.py)
        servers={"edge": server},
        reconnect=reconnect,
        network_policy=network_policy,
    )  # type: ignore[arg-type]
    with Troupe(config) as troupe:
        yield troupe


def status_of(troupe: Troupe) -> ServerStatus:
    (status,) = troupe.status()
    return status


def ready(troupe: Troupe) -> ServerStatus:
    assert troupe.wait_ready(10)
    status = status_of(troupe)
    assert status.state is ServerState.READY, status.last_error
    return status


def wait_for_status(
    troupe: Troupe, predicate: Callable[[ServerStatus], bool], timeout: float = 10.0
) -> ServerStatus:
    deadline = time.monotonic() + timeout
    status = status_of(troupe)
    while not predicate(status):
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"the server never reached the expected state; last status: {status}"
        for _event in troupe.events(timeout=min(0.2, remaining)):
            break
        status = status_of(troupe)
    return status


@contextlib.contextmanager
def scripted(fake: FakeMcp) -> Iterator[ScriptedServer]:
    with ScriptedServer(fake) as server:
        yield server


# ---- session expiry ----------------------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_an_expired_session_is_replaced_and_the_call_still_succeeds() -> None:
    fake = FakeMcp()
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        assert ready(troupe).session_id == "s-1"
        assert troupe.call("mcp__edge__echo", {"n": 1}).text == "echo: {'n': 1}"

        fake.expired.add("s-1")  # the server forgets the session (a deploy, an idle timeout)
        result = troupe.call("mcp__edge__echo", {"n": 2})

        assert result.text == "echo: {'n': 2}"
        initializes = server.requests("POST", "initialize")
        assert len(initializes) == 2
        # spec: 404 → "start a new session by sending a new InitializeRequest without a session ID attached"
        assert all("mcp-session-id" not in seen.headers for seen in initializes)
        calls = server.requests("POST", "tools/call")
        assert [seen.headers.get("mcp-session-id") for seen in calls] == ["s-1", "s-1", "s-2"]
        assert calls[1].status == 404 and calls[2].status == 200
        assert calls[1].body["id"] == calls[2].body["id"]  # the same request, retried once
        # The new session's catalog is listed again.
        assert server.wait_for(
            lambda seen: any(
                s.rpc_method == "tools/list" and s.headers.get("mcp-session-id") == "s-2" for s in seen
            )
        )
        assert status_of(troupe).state is ServerState.READY
        # status shows the new session, not the expired one.
        deadline = time.monotonic() + 5
        while status_of(troupe).session_id != "s-2" and time.monotonic() < deadline:
            time.sleep(0.02)
        assert status_of(troupe).session_id == "s-2"


@pytest.mark.timeout(30)
def test_concurrent_calls_on_an_expired_session_share_one_new_session() -> None:
    release = asyncio.Event()

    async def gated(fake: FakeMcp, seen: Seen, exchange: Exchange, message: dict[str, Any]) -> None:
        if seen.headers.get("mcp-session-id") == "s-1":
            await release.wait()
            await exchange.reply(404)
        else:
            await fake.answer(exchange, message["id"], text_result("gated ok"))

    fake = FakeMcp(tools={"echo": None, "gated": gated})
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        handles = [troupe.submit("mcp__edge__gated", {}) for _ in range(5)]
        assert server.wait_for(lambda seen: sum(s.rpc_method == "tools/call" for s in seen) == 5)
        server.call_soon(release.set)

        assert [handle.result(timeout=10).text for handle in handles] == ["gated ok"] * 5
        assert len(server.requests("POST", "initialize")) == 2  # one re-initialisation for five 404s


# ---- HTTP errors -------------------------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_a_500_fails_that_call_with_the_status_and_an_excerpt_and_the_next_call_works() -> None:
    calls = itertools.count()

    async def flaky(fake: FakeMcp, seen: Seen, exchange: Exchange, message: dict[str, Any]) -> None:
        if next(calls) == 0:
            await exchange.reply(500, b"database on fire\n" + b"x" * 2000, content_type="text/plain")
        else:
            await fake.answer(exchange, message["id"], text_result("fine now"))

    fake = FakeMcp(tools={"flaky": flaky})
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        with pytest.raises(HttpError) as caught:
            troupe.call("mcp__edge__flaky", {})

        error = caught.value
        assert (error.status, error.server, error.method) == (500, "edge", "tools/call")
        assert error.request_id == server.requests("POST", "tools/call")[0].body["id"]
        assert error.body_excerpt.startswith("database on fire x")
        assert len(error.body_excerpt) <= 300
        assert "HTTP 500 on tools/call (JSON-RPC id" in str(error)
        # Never retried behind the caller's back, and the connection is fine.
        assert len(server.requests("POST", "tools/call")) == 1
        assert troupe.call("mcp__edge__flaky", {}).text == "fine now"
        assert status_of(troupe).incarnation == 1


def test_a_json_rpc_error_body_of_a_400_answers_the_call_whatever_id_it_names() -> None:
    # A POST carries one message: a server that refuses it before reading it cannot name it. The 1.x Python
    # SDK says id "server-error" (how a legacy server refuses a modern request), others null or nothing.
    ids = iter(["server-error", None, "absent"])

    async def refused(fake: FakeMcp, seen: Seen, exchange: Exchange, message: dict[str, Any]) -> None:
        named = next(ids)
        body: dict[str, Any] = {"jsonrpc": "2.0", "error": {"code": -32600, "message": f"refused {named}"}}
        if named != "absent":
            body["id"] = named
        await exchange.reply(400, json.dumps(body).encode(), content_type="application/json")

    fake = FakeMcp(tools={"refused": refused})
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        for named in ("server-error", "None", "absent"):
            with pytest.raises(RemoteError) as caught:
                troupe.call("mcp__edge__refused", {})
            assert (caught.value.code, caught.value.remote_message) == (-32600, f"refused {named}")
        assert len(server.requests("POST", "tools/call")) == 3
        assert status_of(troupe).incarnation == 1


@pytest.mark.timeout(30)
def test_a_401_fails_the_call_through_the_authorization_seam() -> None:
    async def private(fake: FakeMcp, seen: Seen, exchange: Exchange, message: dict[str, Any]) -> None:
        await exchange.reply(401, b"no token", headers={"www-authenticate": 'Bearer realm="mcp"'})

    fake = FakeMcp(tools={"private": private, "echo": None})
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        with pytest.raises(HttpError, match="authorization required") as caught:
            troupe.call("mcp__edge__private", {})

        assert caught.value.status == 401
        assert troupe.call("mcp__edge__echo", {}).text == "echo: {}"


@pytest.mark.timeout(30)
def test_a_refused_connection_fails_the_connect_with_the_reason() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # nothing listens here once the probe is closed

    with http_troupe(f"http://127.0.0.1:{port}/mcp") as troupe:
        assert troupe.wait_ready(10)
        status = status_of(troupe)

    assert status.state is ServerState.FAILED
    # The first POST of a connection is the modern era's server/discover probe.
    assert status.last_error is not None and "POST server/discover failed" in status.last_error


@pytest.mark.timeout(30)
def test_an_answer_larger_than_max_frame_bytes_takes_the_transport_down_with_the_reason() -> None:
    async def huge(fake: FakeMcp, seen: Seen, exchange: Exchange, message: dict[str, Any]) -> None:
        await fake.answer(exchange, message["id"], text_result("x" * 100_000))

    fake = FakeMcp(tools={"huge": huge, "echo": None})
    with (
        scripted(fake) as server,
        http_troupe(server.url, max_frame_bytes=10_000, reconnect=FAST_RECONNECT) as troupe,
    ):
        ready(troupe)
        with pytest.raises(ConnectionLost, match="max_frame_bytes"):
            troupe.call("mcp__edge__huge", {})

        # The supervisor reconnects (a new incarnation, a new session) and calls work again.
        wait_for_status(troupe, lambda s: s.state is ServerState.READY and s.incarnation == 2)
        assert troupe.call("mcp__edge__echo", {}).text == "echo: {}"


# ---- SSE answers -------------------------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_an_sse_answer_written_one_byte_at_a_time_with_crlf_is_read_whole() -> None:
    async def trickle(fake: FakeMcp, seen: Seen, exchange: Exchange, message: dict[str, Any]) -> None:
        log_note = {
            "jsonrpc": "2.0",
            "method": "notifications/message",
            "params": {"level": "info", "data": "é"},
        }
        await exchange.start_stream()
        await exchange.send(b": warming up\r\n\r\n", byte_by_byte=True)
        await exchange.send(sse(log_note, eol="\r\n"), byte_by_byte=True)
        answer = result_of(message["id"], text_result("trickled ✓ \r\n done"))
        await exchange.send(sse(answer, event_id="t-1", eol="\r\n"), byte_by_byte=True)
        await exchange.end()

    fake = FakeMcp(mode="sse", tools={"trickle": trickle})
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        result = troupe.call("mcp__edge__trickle", {})

    assert (result.text, result.is_error) == ("trickled ✓ \r\n done", False)


@pytest.mark.timeout(30)
def test_a_dropped_sse_answer_is_resumed_with_get_and_last_event_id_after_retry() -> None:
    async def dropper(fake: FakeMcp, seen: Seen, exchange: Exchange, message: dict[str, Any]) -> None:
        progress = {
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": {"progressToken": 1, "progress": 1},
        }
        # The rest of this stream waits for whoever resumes after event ev-1.
        fake.replay["ev-1"] = [sse(result_of(message["id"], text_result("resumed")), event_id="ev-2")]
        await exchange.start_stream()
        await exchange.send(sse(progress, event_id="ev-1", retry=150))
        exchange.drop()

    fake = FakeMcp(mode="sse", tools={"dropper": dropper})
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        result = troupe.call("mcp__edge__dropper", {})

        assert result.text == "resumed"
        (post,) = server.requests("POST", "tools/call")
        resumes = [seen for seen in server.requests("GET") if "last-event-id" in seen.headers]
        assert [seen.headers["last-event-id"] for seen in resumes] == ["ev-1"]
        assert resumes[0].headers["accept"] == "text/event-stream"
        assert resumes[0].headers["mcp-session-id"] == "s-1"
        assert resumes[0].at - post.at >= 0.15  # spec: the client MUST respect the server's retry
        assert status_of(troupe).incarnation == 1  # a dropped stream is neither a lost connection…
        assert not server.requests("POST", "notifications/cancelled")  # …nor a cancellation


@pytest.mark.timeout(30)
def test_a_stream_that_ends_before_the_response_without_ids_fails_only_that_call() -> None:
    async def quitter(fake: FakeMcp, seen: Seen, exchange: Exchange, message: dict[str, Any]) -> None:
        await exchange.start_stream()
        await exchange.end()

    fake = FakeMcp(mode="sse", tools={"quitter": quitter, "echo": None})
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        with pytest.raises(ConnectionLost, match="before its response"):
            troupe.call("mcp__edge__quitter", {})
        assert troupe.call("mcp__edge__echo", {}).text == "echo: {}"


@pytest.mark.timeout(30)
def test_a_call_that_never_answers_does_not_hold_up_the_others() -> None:
    async def hang(fake: FakeMcp, seen: Seen, exchange: Exchange, message: dict[str, Any]) -> None:
        await exchange.start_stream()
        await asyncio.Event().wait()  # until the server stops

    fake = FakeMcp(mode="sse", tools={"hang": hang, "echo": None})
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        stuck = [troupe.submit("mcp__edge__hang", {}, timeout=20) for _ in range(3)]
        assert server.wait_for(lambda seen: sum(s.rpc_method == "tools/call" for s in seen) == 3)

        started = time.monotonic()
        assert [troupe.call("mcp__edge__echo", {"i": i}).text for i in range(5)] == [
            f"echo: {{'i': {i}}}" for i in range(5)
        ]
        assert time.monotonic() - started < 5
        assert not any(handle.done() for handle in stuck)


@pytest.mark.timeout(30)
def test_a_cancelled_call_ends_its_post_and_frees_its_slot(monkeypatch: pytest.MonkeyPatch) -> None:
    from mcp_troupe.actors import http_connection

    # One slot: the next call gets through only once the cancelled call's POST has given its slot back.
    monkeypatch.setattr(http_connection, "MAX_IN_FLIGHT", 1)

    async def hang(fake: FakeMcp, seen: Seen, exchange: Exchange, message: dict[str, Any]) -> None:
        await exchange.start_stream()
        await asyncio.Event().wait()  # until the server stops

    fake = FakeMcp(mode="sse", tools={"hang": hang, "echo": None})
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        handle = troupe.submit("mcp__edge__hang", {}, timeout=20)
        assert server.wait_for(lambda seen: any(s.rpc_method == "tools/call" for s in seen))
        handle.cancel()
        assert server.wait_for(lambda seen: any(s.rpc_method == "notifications/cancelled" for s in seen))
        assert troupe.call("mcp__edge__echo", {}, timeout=5).text == "echo: {}"


@pytest.mark.timeout(30)
def test_a_bug_in_one_post_takes_the_transport_down_and_the_server_comes_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mcp_troupe.actors import http_connection

    original = http_connection.HttpConnection._on_post_answer
    failures = iter([True])

    async def buggy(self: Any, response: Any, *args: Any) -> bool:
        request = args[3]
        if request is not None and request.method == "tools/call" and next(failures, False):
            raise RuntimeError("a bug in the answer's handling")
        return await original(self, response, *args)

    monkeypatch.setattr(http_connection.HttpConnection, "_on_post_answer", buggy)
    fake = FakeMcp(tools={"echo": None})
    with scripted(fake) as server, http_troupe(server.url, reconnect=FAST_RECONNECT) as troupe:
        ready(troupe)
        with pytest.raises(ConnectionLost, match="the HTTP transport failed: RuntimeError"):
            troupe.call("mcp__edge__echo", {})
        status = wait_for_status(troupe, lambda status: status.state is ServerState.READY)
        assert status.incarnation >= 2
        assert troupe.call("mcp__edge__echo", {}).text == "echo: {}"


@pytest.mark.timeout(30)
def test_a_bug_in_the_get_stream_takes_the_transport_down_and_the_server_comes_back(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # The GET stream is the connection's one child task (no task group): its unexpected failure must still
    # end the connection, as a failed child ended the group, and the supervisor reconnect.
    from mcp_troupe.actors import http_listen

    original = http_listen.GetStream._listen_loop
    failures = iter([True])

    async def buggy(self: Any) -> None:
        if next(failures, False):
            raise RuntimeError("a bug in the GET stream")
        await original(self)

    monkeypatch.setattr(http_listen.GetStream, "_listen_loop", buggy)
    fake = FakeMcp(tools={"echo": None})
    with scripted(fake) as server, http_troupe(server.url, reconnect=FAST_RECONNECT) as troupe:
        wait_for_status(troupe, lambda status: status.state is ServerState.READY and status.incarnation >= 2)
        assert troupe.call("mcp__edge__echo", {}).text == "echo: {}"
    # The first connection went down for that bug, and the supervisor heard why.
    assert any(
        record.name == "mcp_troupe.supervisor"
        and "the HTTP transport failed: RuntimeError('a bug in the GET stream')" in record.getMessage()
        for record in caplog.records
    )


@pytest.mark.timeout(30)
def test_a_2025_03_26_batch_answer_is_split_into_its_messages() -> None:
    async def batch(fake: FakeMcp, seen: Seen, exchange: Exchange, message: dict[str, Any]) -> None:
        note = {
            "jsonrpc": "2.0",
            "method": "notifications/message",
            "params": {"level": "info", "data": "hi"},
        }
        body = json.dumps([note, result_of(message["id"], text_result("from a batch"))]).encode()
        await exchange.reply(200, body, content_type="application/json")

    fake = FakeMcp(version="2025-03-26", tools={"batch": batch})
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        assert ready(troupe).protocol_version == "2025-03-26"
        assert troupe.call("mcp__edge__batch", {}).text == "from a batch"


# ---- headers -----------------------------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_the_protocol_version_header_follows_the_handshake_and_is_absent_on_initialize() -> None:
    fake = FakeMcp(get_mode="once")
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        troupe.call("mcp__edge__echo", {})
        assert server.wait_for(lambda seen: any(s.method == "GET" for s in seen))

    (initialize,) = server.requests("POST", "initialize")
    assert "mcp-protocol-version" not in initialize.headers
    # The probe before it speaks the modern era, whose headers name its own version.
    (probe,) = server.requests("POST", "server/discover")
    assert probe.headers.get("mcp-protocol-version") == "2026-07-28"
    assert probe.headers.get("mcp-method") == "server/discover"
    after = [seen for seen in server.seen if seen is not initialize and seen is not probe]
    assert {seen.method for seen in after} == {"POST", "GET", "DELETE"}
    assert all(seen.headers.get("mcp-protocol-version") == "2025-06-18" for seen in after)


@pytest.mark.timeout(30)
def test_repeated_calls_reuse_the_merged_post_headers(monkeypatch: pytest.MonkeyPatch) -> None:
    from mcp_troupe.actors.http_connection import HttpConnection

    merged: list[bool] = []
    original = HttpConnection._merge_post_headers

    def counted(self: HttpConnection, with_session: bool, token: str | None, extra: Any) -> Any:
        merged.append(with_session)
        return original(self, with_session, token, extra)

    handed_out: list[Any] = []
    original_post = HttpConnection._post_headers

    def recorded(self: HttpConnection, with_session: bool, token: str | None, extra: Any) -> Any:
        headers = original_post(self, with_session, token, extra)
        handed_out.append(headers)
        return headers

    monkeypatch.setattr(HttpConnection, "_merge_post_headers", counted)
    monkeypatch.setattr(HttpConnection, "_post_headers", recorded)
    fake = FakeMcp()
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        before, handed_before = len(merged), len(handed_out)
        for number in range(5):
            assert troupe.call("mcp__edge__echo", {"n": number}).text == f"echo: {{'n': {number}}}"
    # Issue #13: the POST's headers are merged once per connection state, not copied and merged per call;
    # every call still carried the session and the version (the cache follows the session, see expiry).
    assert len(merged) - before <= 1
    # The one merged mapping goes to every POST of that state, so it is read-only: a writer would change
    # the headers of every later request.
    shared = handed_out[handed_before:]
    assert len(shared) >= 5 and all(headers is shared[-1] for headers in shared[-5:])
    with pytest.raises(TypeError):
        shared[-1]["Mcp-Session-Id"] = "forged"
    calls = server.requests("POST", "tools/call")
    assert [seen.headers.get("mcp-session-id") for seen in calls] == ["s-1"] * 5
    assert all(seen.headers.get("mcp-protocol-version") == "2025-06-18" for seen in calls)


@pytest.mark.timeout(30)
def test_no_protocol_version_header_when_the_server_speaks_2025_03_26() -> None:
    fake = FakeMcp(version="2025-03-26")
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        troupe.call("mcp__edge__echo", {})

    # Only the modern probe (server/discover, refused by this legacy server) names a version.
    handshake_era = [seen for seen in server.seen if seen.rpc_method != "server/discover"]
    assert handshake_era and all("mcp-protocol-version" not in seen.headers for seen in handshake_era)


@pytest.mark.timeout(30)
def test_every_post_accepts_json_and_event_streams_and_says_it_sends_json() -> None:
    fake = FakeMcp(mode="sse")
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        troupe.call("mcp__edge__echo", {})

    posts = server.requests("POST")
    assert {seen.rpc_method for seen in posts} >= {
        "initialize",
        "notifications/initialized",
        "tools/list",
        "tools/call",
    }
    for seen in posts:
        assert {part.strip() for part in seen.headers["accept"].split(",")} == {
            "application/json",
            "text/event-stream",
        }
        assert seen.headers["content-type"] == "application/json"
    assert all(seen.headers["accept"] == "text/event-stream" for seen in server.requests("GET"))


@pytest.mark.timeout(30)
def test_configured_headers_go_on_every_request_and_never_into_the_logs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    secret = "sekrit-token-123"
    fake = FakeMcp(get_mode="once")
    headers = {"Authorization": f"Bearer {secret}", "X-Tenant": "t1", "accept": "text/plain"}
    with scripted(fake) as server, http_troupe(server.url, headers=headers) as troupe:
        ready(troupe)
        troupe.call("mcp__edge__echo", {})
        assert server.wait_for(lambda seen: any(s.method == "GET" for s in seen))

    assert {seen.method for seen in server.seen} == {"POST", "GET", "DELETE"}
    for seen in server.seen:
        assert seen.headers["authorization"] == f"Bearer {secret}"
        assert seen.headers["x-tenant"] == "t1"
        assert seen.headers["accept"] != "text/plain"  # the transport's own headers win
    assert secret not in caplog.text
    assert "accept" in caplog.text  # the ignored header is named (by name only)


# ---- notifications, the GET stream, close ------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_notifications_are_answered_202_and_that_is_success(caplog: pytest.LogCaptureFixture) -> None:
    async def hang(fake: FakeMcp, seen: Seen, exchange: Exchange, message: dict[str, Any]) -> None:
        await asyncio.Event().wait()  # no answer at all, until the server stops

    caplog.set_level(logging.WARNING, logger="mcp_troupe")
    fake = FakeMcp(tools={"hang": hang, "echo": None})
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        with pytest.raises(CallTimedOut):
            troupe.call("mcp__edge__hang", {}, timeout=0.3)
        assert server.wait_for(lambda seen: any(s.rpc_method == "notifications/cancelled" for s in seen))
        assert troupe.call("mcp__edge__echo", {}).text == "echo: {}"

    notifications = [seen for seen in server.requests("POST") if "id" not in seen.body]
    assert {seen.rpc_method for seen in notifications} >= {
        "notifications/initialized",
        "notifications/cancelled",
    }
    assert all(seen.status == 202 for seen in notifications)
    assert not [record for record in caplog.records if record.name.startswith("mcp_troupe")]


@pytest.mark.timeout(30)
def test_list_changed_on_the_get_stream_refreshes_the_tools() -> None:
    fake = FakeMcp(get_mode="stream")
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        assert server.wait_for(lambda seen: any(s.method == "GET" for s in seen))
        assert [spec.name for spec in troupe.tools()] == ["mcp__edge__echo"]

        fake.tools["fresh"] = None
        changed = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
        server.call_soon(lambda: fake.pushes.put_nowait(sse(changed)))  # type: ignore[union-attr]

        deadline = time.monotonic() + 10
        while "mcp__edge__fresh" not in {spec.name for spec in troupe.tools()}:
            assert time.monotonic() < deadline, "the new tool never appeared"
            for _event in troupe.events(timeout=0.2):
                break
        assert troupe.call("mcp__edge__fresh", {}).text == "fresh: {}"


@pytest.mark.timeout(30)
def test_the_first_request_after_the_handshake_waits_until_the_get_stream_is_answered() -> None:
    # What a server initiates at once (an elicitation inside the first call) goes on the GET stream, and is
    # lost if the stream is not there yet: the server sees the GET answered before any request after
    # notifications/initialized.
    fake = FakeMcp(get_mode="stream")
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        assert troupe.call("mcp__edge__echo", {}).text == "echo: {}"
    order = [seen.method if seen.method != "POST" else seen.rpc_method for seen in server.seen]
    assert order.index("GET") < order.index("tools/list"), order
    assert order.index("notifications/initialized") < order.index("GET"), order


@pytest.mark.timeout(30)
def test_a_get_stream_that_never_answers_holds_the_requests_back_half_a_second_at_most() -> None:
    fake = FakeMcp(get_mode="silent")
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        assert troupe.call("mcp__edge__echo", {}).text == "echo: {}"
        get = server.requests("GET")[0]
        listed = next(seen for seen in server.seen if seen.rpc_method == "tools/list")
    assert 0.4 <= listed.at - get.at < 3.0, listed.at - get.at


@pytest.mark.timeout(30)
def test_a_get_stream_that_ends_is_reopened_with_last_event_id_after_retry() -> None:
    fake = FakeMcp(get_mode="once")
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        assert server.wait_for(lambda seen: sum(s.method == "GET" for s in seen) >= 2)

    first, second = server.requests("GET")[:2]
    assert "last-event-id" not in first.headers
    assert second.headers["last-event-id"] == "g-1"
    assert second.at - first.at >= 0.03  # retry: 30


@pytest.mark.timeout(30)
def test_a_server_without_a_get_stream_is_asked_once() -> None:
    fake = FakeMcp(get_mode="405")
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        ready(troupe)
        assert server.wait_for(lambda seen: any(s.method == "GET" for s in seen))
        for index in range(3):
            troupe.call("mcp__edge__echo", {"i": index})
        # Were 405 retried, a second GET would come within the first backoff step (0.5 s).
        assert not server.wait_for(lambda seen: sum(s.method == "GET" for s in seen) > 1, timeout=1.5)

    assert len(server.requests("GET")) == 1


@pytest.mark.timeout(30)
def test_closing_sends_delete_with_the_session_id() -> None:
    fake = FakeMcp()
    with scripted(fake) as server:
        with http_troupe(server.url) as troupe:
            ready(troupe)
            assert not server.requests("DELETE")

        (delete,) = server.requests("DELETE")
        assert delete.headers["mcp-session-id"] == "s-1"
        assert delete.status == 200


@pytest.mark.timeout(30)
def test_a_stateless_server_gets_no_session_header_and_no_delete() -> None:
    fake = FakeMcp(issue_sessions=False)
    with scripted(fake) as server:
        with http_troupe(server.url) as troupe:
            assert ready(troupe).session_id is None
            troupe.call("mcp__edge__echo", {})

        assert all("mcp-session-id" not in seen.headers for seen in server.seen)
        assert not server.requests("DELETE")


@pytest.mark.timeout(30)
@pytest.mark.parametrize("mode", ["json", "sse"])
def test_the_initialize_answer_is_looked_at_once_for_its_session_id(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Review of issue 13: adopting the session id parsed the initialize answer twice (SSE: the kinds, then
    # again inside adopt_session). The connection looks at each frame of it once; the lane decodes it.
    from mcp_troupe.actors import http_connection, http_stream

    looked: list[bytes] = []
    original = http_connection.answer_kind

    def counting(frame: bytes, request_id: Any) -> str | None:
        looked.append(frame)
        return original(frame, request_id)

    # A JSON answer is looked at by the connection, an event stream's by the stream reader.
    monkeypatch.setattr(http_connection, "answer_kind", counting)
    monkeypatch.setattr(http_stream, "answer_kind", counting)
    fake = FakeMcp(mode=mode)
    with scripted(fake) as server, http_troupe(server.url) as troupe:
        assert ready(troupe).session_id == "s-1"
        assert troupe.call("mcp__edge__echo", {"n": 1}).text == "echo: {'n': 1}"
        assert server.requests("POST")[-1].headers.get("mcp-session-id") == "s-1"
    initialize_answers = [frame for frame in looked if b'"serverInfo"' in frame]
    assert len(initialize_answers) == 1, initialize_answers


@pytest.mark.timeout(30)
def test_network_policy_deny_skips_http_servers_with_the_reason() -> None:
    fake = FakeMcp()
    with scripted(fake) as server, http_troupe(server.url, network_policy="deny") as troupe:
        assert troupe.wait_ready(10)
        status = status_of(troupe)

        assert status.state is ServerState.SKIPPED
        assert status.last_error is not None and "networkPolicy" in status.last_error
        assert not server.seen  # not one request


@pytest.mark.timeout(60)
@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts file descriptors in /proc")
def test_opening_and_closing_twenty_times_leaks_no_connection_or_thread() -> None:
    fake = FakeMcp(mode="sse", get_mode="stream")
    with scripted(fake) as server:
        with http_troupe(server.url) as troupe:  # the first run pays for imports and the TLS context
            ready(troupe)
        fds_before, threads_before = len(os.listdir("/proc/self/fd")), threading.active_count()

        for index in range(20):
            with http_troupe(server.url) as troupe:
                ready(troupe)
                troupe.call("mcp__edge__echo", {"i": index})

        # Each close ended its GET stream and sent its DELETE before the troupe stopped.
        assert len(server.requests("DELETE")) == 21
        deadline = time.monotonic() + 5
        while len(os.listdir("/proc/self/fd")) > fds_before or threading.active_count() > threads_before:
            assert time.monotonic() < deadline, "file descriptors or threads were left behind"
            time.sleep(0.05)
