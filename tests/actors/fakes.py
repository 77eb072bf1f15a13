"""Test doubles for the actor tests: a probe actor that records what it is told, a fake wire, and a harness
that plays the server's side of one :class:`~mcp_troupe.actors.session.SessionActor`.

Nothing here sleeps to wait. Every wait is a queue ``get`` or an ``ask`` with a timeout, and "nothing else
arrived" is decided after a *barrier*: a message that the actor under test handles after everything told
before it (pykka mailboxes are FIFO), so whatever it sent before the barrier is already visible.
"""

from __future__ import annotations

import itertools
import json
import queue
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TypeVar

import pykka

from mcp_troupe.actors.lane import CallLane, Outgoing
from mcp_troupe.actors.loop import Runtime
from mcp_troupe.actors.session import (
    CallRequest,
    CancelCall,
    Connect,
    Opened,
    SessionActor,
    SessionReady,
)
from mcp_troupe.actors.transport import Open
from tests.spec_schemas import validator as spec_validator

__all__ = [
    "DEFAULT_WAIT",
    "FakeOutbound",
    "Probe",
    "ProbeHandle",
    "ScriptedSession",
    "error_frame",
    "initialize_result",
    "names_of",
    "notification_frame",
    "request_frame",
    "result_frame",
    "spec_errors",
    "start_probe",
    "tool",
]

DEFAULT_WAIT = 2.0
"""Seconds an ``expect`` waits by default: far above any scheduling delay, far below the test timeout."""

M = TypeVar("M")

_marker_counter = itertools.count(1)


# ---- the probe actor ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Marker:
    """A message a probe tells itself to learn that everything told to it before has been recorded."""

    token: int


class Probe(pykka.ThreadingActor):
    """An actor that records every message it receives, in order, into a thread-safe queue."""

    use_daemon_thread = True

    def __init__(self, inbox: queue.Queue[Any]) -> None:
        super().__init__()
        self.inbox = inbox

    def on_receive(self, message: Any) -> None:
        self.inbox.put(message)


def _describe(messages: Sequence[Any], limit: int = 20) -> str:
    if not messages:
        return "nothing"
    lines = [f"  {message!r:.300}" for message in messages[-limit:]]
    if len(messages) > limit:
        lines.insert(0, f"  ... {len(messages) - limit} earlier messages ...")
    return "\n" + "\n".join(lines)


class ProbeHandle:
    """The test's side of a :class:`Probe`: its ref, and ways to wait for what it was told.

    ``expect`` takes the *first* unconsumed message that matches and keeps the others, in order, for later
    ``expect`` calls (so interleaved reports, such as status snapshots between events, never get in the way).
    ``history`` holds everything that arrived, consumed or not.
    """

    def __init__(self, name: str, ref: pykka.ActorRef[Any], inbox: queue.Queue[Any]) -> None:
        self.name = name
        self.ref = ref
        self._inbox = inbox
        self._kept: list[Any] = []
        self.history: list[Any] = []

    def _take_from_inbox(self, timeout: float) -> Any:
        message = self._inbox.get(timeout=timeout)
        if not isinstance(message, _Marker):
            self.history.append(message)
        return message

    def expect(
        self,
        kind: type[M],
        timeout: float = DEFAULT_WAIT,
        where: Callable[[M], bool] = lambda message: True,
    ) -> M:
        """Wait for the next message of type ``kind`` for which ``where`` holds; return it.

        Raises:
            AssertionError: None arrived within ``timeout``; the message lists what arrived instead.
        """
        for index, message in enumerate(self._kept):
            if isinstance(message, kind) and where(message):
                del self._kept[index]
                return message
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            try:
                if remaining <= 0:
                    raise queue.Empty
                message = self._take_from_inbox(remaining)
            except queue.Empty:
                raise AssertionError(
                    f"probe {self.name!r}: no {kind.__name__} (matching the condition) within {timeout:g} s; "
                    f"unconsumed messages that arrived instead: {_describe(self._kept)}"
                ) from None
            if isinstance(message, _Marker):
                continue
            if isinstance(message, kind) and where(message):
                return message
            self._kept.append(message)

    def sync(self, timeout: float = DEFAULT_WAIT) -> list[Any]:
        """Return (without consuming) every unconsumed message told to the probe before this call.

        Anything another actor told the probe before it handled a message the test has seen handled (a
        barrier) is included: pykka delivers one sender's tells in order, and the barrier orders the senders.
        """
        token = next(_marker_counter)
        self.ref.tell(_Marker(token))
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            try:
                if remaining <= 0:
                    raise queue.Empty
                message = self._take_from_inbox(remaining)
            except queue.Empty:
                raise AssertionError(
                    f"probe {self.name!r} did not handle its marker within {timeout:g} s"
                ) from None
            if isinstance(message, _Marker):
                if message.token == token:
                    return list(self._kept)
                continue
            self._kept.append(message)

    def assert_none(self, kind: type[Any], where: Callable[[Any], bool] = lambda message: True) -> None:
        """Assert that no unconsumed message of type ``kind`` (matching ``where``) has arrived so far."""
        unwanted = [message for message in self.sync() if isinstance(message, kind) and where(message)]
        assert not unwanted, f"probe {self.name!r} got unexpected {kind.__name__}: {_describe(unwanted)}"

    def take_all(self, kind: type[M]) -> list[M]:
        """Consume and return every unconsumed message of type ``kind`` that has arrived so far."""
        self.sync()
        taken = [message for message in self._kept if isinstance(message, kind)]
        self._kept = [message for message in self._kept if not isinstance(message, kind)]
        return taken


def start_probe(runtime: Runtime, name: str) -> ProbeHandle:
    """Start a :class:`Probe` (tracked by ``runtime``, so the fixtures stop it) and return its handle."""
    inbox: queue.Queue[Any] = queue.Queue()
    ref = runtime.track(Probe.start(inbox))
    return ProbeHandle(name, ref, inbox)


# ---- the fake wire -----------------------------------------------------------------------------------------


class FakeOutbound:
    """The write side of a fake transport: every frame the session sends is decoded and queued.

    It implements :class:`mcp_troupe.actors.session.Outbound`. Like :class:`ProbeHandle`, ``expect`` takes the
    first matching unconsumed message and keeps the others; ``sent`` holds every message ever sent.
    """

    def __init__(self, name: str = "wire", session_id: str | None = None) -> None:
        self.name = name
        self.protocol_version: str | None = None
        """What the session last passed to :meth:`set_protocol_version`."""
        self._session_id = session_id
        self._queue: queue.Queue[dict[str, Any]] = queue.Queue()
        self._lock = threading.Lock()
        self._sent: list[dict[str, Any]] = []
        self._kept: list[dict[str, Any]] = []
        self.outgoing: list[Outgoing] = []
        """What the lane said each frame is, in order."""

    def send(self, frame: bytes, outgoing: Outgoing | None = None, direct: bool = True) -> None:
        """Decode ``frame`` (one JSON-RPC message, no newline) and queue it for the test."""
        if outgoing is not None:
            self.outgoing.append(outgoing)
        # spec: stdio — messages are delimited by newlines and MUST NOT contain embedded newlines.
        assert b"\n" not in frame, f"a frame with an embedded newline: {frame!r:.200}"
        message = json.loads(frame)
        with self._lock:
            self._sent.append(message)
        self._queue.put(message)

    def set_protocol_version(self, version: str) -> None:
        """Record the version the handshake settled on."""
        self.protocol_version = version

    @property
    def session_id(self) -> str | None:
        """The transport-level session id (a stdio-like fake has none unless given one)."""
        return self._session_id

    @property
    def sent(self) -> list[dict[str, Any]]:
        """Every message sent so far, in order (read it after a barrier)."""
        with self._lock:
            return list(self._sent)

    def expect(
        self, timeout: float = DEFAULT_WAIT, where: Callable[[dict[str, Any]], bool] = lambda message: True
    ) -> dict[str, Any]:
        """Wait for the next sent message for which ``where`` holds; return it.

        Raises:
            AssertionError: None was sent within ``timeout``; the message lists what was sent instead.
        """
        for index, message in enumerate(self._kept):
            if where(message):
                del self._kept[index]
                return message
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            try:
                if remaining <= 0:
                    raise queue.Empty
                message = self._queue.get(timeout=remaining)
            except queue.Empty:
                raise AssertionError(
                    f"{self.name}: no matching message sent within {timeout:g} s; "
                    f"unconsumed messages sent instead: {_describe(self._kept)}"
                ) from None
            if where(message):
                return message
            self._kept.append(message)

    def expect_request(
        self,
        method: str,
        timeout: float = DEFAULT_WAIT,
        where: Callable[[dict[str, Any]], bool] = lambda message: True,
    ) -> dict[str, Any]:
        """Wait for a request (it has an id) for ``method``."""
        return self.expect(timeout, lambda m: m.get("method") == method and "id" in m and where(m))

    def expect_notification(
        self,
        method: str,
        timeout: float = DEFAULT_WAIT,
        where: Callable[[dict[str, Any]], bool] = lambda message: True,
    ) -> dict[str, Any]:
        """Wait for a notification (no id) for ``method``."""
        return self.expect(timeout, lambda m: m.get("method") == method and "id" not in m and where(m))

    def expect_response(self, request_id: Any, timeout: float = DEFAULT_WAIT) -> dict[str, Any]:
        """Wait for our answer (result or error) to the server's request ``request_id``."""
        return self.expect(
            timeout,
            lambda m: (
                "method" not in m and m.get("id") == request_id and type(m.get("id")) is type(request_id)
            ),
        )

    def unconsumed(self) -> list[dict[str, Any]]:
        """Consume and return everything sent and not yet expected (call it after a barrier)."""
        leftovers, self._kept = self._kept, []
        while True:
            try:
                leftovers.append(self._queue.get_nowait())
            except queue.Empty:
                return leftovers


# ---- frames the fake server sends --------------------------------------------------------------------------


def _frame(message: Mapping[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode()


def result_frame(request_id: Any, result: Mapping[str, Any]) -> bytes:
    """A JSON-RPC success response."""
    return _frame({"jsonrpc": "2.0", "id": request_id, "result": result})


def error_frame(request_id: Any, code: int, message: str, data: Any = None) -> bytes:
    """A JSON-RPC error response."""
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return _frame({"jsonrpc": "2.0", "id": request_id, "error": error})


def request_frame(request_id: Any, method: str, params: Mapping[str, Any] | None = None) -> bytes:
    """A request from the server to the client."""
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return _frame(message)


def notification_frame(method: str, params: Mapping[str, Any] | None = None) -> bytes:
    """A notification from the server."""
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return _frame(message)


def _asks_for(cursor: str) -> Callable[[dict[str, Any]], bool]:
    def matches(message: dict[str, Any]) -> bool:
        return bool((message.get("params") or {}).get("cursor") == cursor)

    return matches


def tool(name: str, description: str = "", **extra: Any) -> dict[str, Any]:
    """A well-formed tool entry of a ``tools/list`` page."""
    return {
        "name": name,
        "description": description or f"the {name} tool",
        "inputSchema": {"type": "object", "properties": {}},
        **extra,
    }


def initialize_result(version: str, *, list_changed: bool = True) -> dict[str, Any]:
    """A server's ``initialize`` result that declares the tools capability."""
    return {
        "protocolVersion": version,
        "capabilities": {"tools": {"listChanged": list_changed}},
        "serverInfo": {"name": "scripted", "version": "1.0"},
    }


# ---- the session harness -----------------------------------------------------------------------------------


class ScriptedSession:
    """A real :class:`SessionActor` whose supervisor and transport are probes and whose wire is a
    :class:`FakeOutbound`; the test plays the server by telling it ``Inbound`` frames.
    """

    def __init__(
        self,
        runtime: Runtime,
        *,
        server: str = "scripted",
        incarnation: int = 7,
        call_timeout: float = 5.0,
        handshake_timeout: float = 5.0,
        protocol: str = "auto",
        is_http: bool = False,
        **session_options: Any,
    ) -> None:
        self.server = server
        self.incarnation = incarnation
        self.runtime = runtime
        self.is_http = is_http
        self.supervisor = start_probe(runtime, "supervisor")
        self.transport = start_probe(runtime, "transport")
        self.wire = FakeOutbound()
        self.ref = runtime.track(
            SessionActor.start(
                server=server,
                incarnation=incarnation,
                supervisor=self.supervisor.ref,
                runtime=runtime,
                call_timeout=call_timeout,
                handshake_timeout=handshake_timeout,
                protocol=protocol,
                **session_options,
            )
        )
        self.lane = self.new_lane(None, incarnation)

    def new_lane(self, wire: FakeOutbound | None, incarnation: int) -> CallLane:
        """A real lane (the connection's request engine) that writes to ``wire`` (None: to ``self.wire``,
        whichever it is at the time)."""

        def send(frame: bytes, outgoing: Outgoing, direct: bool = True) -> None:
            (self.wire if wire is None else wire).send(frame, outgoing, direct)

        return CallLane(
            server=self.server,
            incarnation=incarnation,
            session=self.ref,
            loop=self.runtime.loop,
            send=send,
            is_http=self.is_http,
        )

    # ---- driving the session -------------------------------------------------------------------------------

    def open(self, pid: int = 123) -> dict[str, Any]:
        """``Connect`` → the transport probe gets ``Open`` → ``Opened``; return the first request sent."""
        self.ref.tell(Connect(self.transport.ref))
        self.transport.expect(Open)
        self.ref.tell(Opened(self.incarnation, self.wire, self.lane, pid=pid))
        return self.wire.expect(where=lambda m: "id" in m and "method" in m)

    def connect(self, pid: int = 123) -> dict[str, Any]:
        """Open, refuse the modern probe like a legacy server (-32601); return the ``initialize`` request."""
        return self.refuse_probe(self.open(pid))

    def refuse_probe(self, first: dict[str, Any]) -> dict[str, Any]:
        """Answer the ``server/discover`` probe ``first`` as a legacy server does; return ``initialize``."""
        if first["method"] == "server/discover":
            self.reply_error(first, -32601, "Method not found")
            return self.wire.expect_request("initialize")
        assert first["method"] == "initialize", first
        return first

    def feed(self, *frames: bytes, incarnation: int | None = None) -> None:
        """These frames were read from the wire: they go to the connection's lane, as a transport's do."""
        if incarnation is not None and incarnation != self.incarnation:
            # A stale incarnation's lane: what it reads reaches the session tagged with that incarnation.
            self.new_lane(self.wire, incarnation).receive(list(frames))
            return
        self.lane.receive(list(frames))

    def reply(self, request: Mapping[str, Any], result: Mapping[str, Any]) -> None:
        """Answer one of the session's requests with a result."""
        self.feed(result_frame(request["id"], result))

    def reply_error(self, request: Mapping[str, Any], code: int, message: str, data: Any = None) -> None:
        """Answer one of the session's requests with a JSON-RPC error."""
        self.feed(error_frame(request["id"], code, message, data))

    def initialize(self, version: str = "2025-06-18", *, list_changed: bool = True) -> dict[str, Any]:
        """Connect, answer ``initialize`` with ``version``, see ``notifications/initialized``; return the
        first ``tools/list`` request."""
        request = self.connect()
        self.reply(request, initialize_result(version, list_changed=list_changed))
        self.wire.expect_notification("notifications/initialized")
        return self.wire.expect_request("tools/list")

    def answer_listing(self, first: Mapping[str, Any], pages: Sequence[Sequence[Mapping[str, Any]]]) -> None:
        """Answer a ``tools/list`` listing that starts with request ``first``: one page per entry of
        ``pages``, chained with cursors ``page-2``, ``page-3`` ..."""
        request = first
        for number, page in enumerate(pages, start=1):
            result: dict[str, Any] = {"tools": list(page)}
            is_last = number == len(pages)
            cursor = f"page-{number + 1}"
            if not is_last:
                result["nextCursor"] = cursor
            self.reply(request, result)
            if not is_last:
                request = self.wire.expect_request("tools/list", where=_asks_for(cursor))

    def handshake(
        self,
        version: str = "2025-06-18",
        tools: Sequence[Mapping[str, Any]] = (),
        *,
        list_changed: bool = True,
    ) -> SessionReady:
        """The whole handshake with one page of ``tools``; return the ``SessionReady`` report."""
        first = self.initialize(version, list_changed=list_changed)
        self.answer_listing(first, [tools or [tool("echo")]])
        return self.supervisor.expect(SessionReady)

    def call(
        self, name: str = "echo", arguments: Mapping[str, Any] | None = None, timeout: float | None = None
    ) -> tuple[Future[Any], dict[str, Any]]:
        """Send a ``tools/call``; return its future and the request as it appeared on the wire."""
        future: Future[Any] = Future()
        params = {"name": name, "arguments": dict(arguments or {})}
        self.ref.tell(CallRequest("tools/call", params, future, timeout))
        request = self.wire.expect_request("tools/call", where=lambda m: m["params"] == params)
        return future, request

    def barrier(self, timeout: float = DEFAULT_WAIT) -> None:
        """Return once the session has handled every message told to it before.

        A ``CancelCall`` for a future the session never saw is a no-op it answers like any message.
        """
        self.ref.ask(CancelCall(Future(), "barrier"), block=True, timeout=timeout)


# ---- the spec's schema -------------------------------------------------------------------------------------


def spec_errors(message: Mapping[str, Any], *definitions: str, version: str = "2025-06-18") -> list[str]:
    """Validate ``message`` against each named definition of the revision's schema; return the problems."""
    return [
        f"{definition}: {error.message}"
        for definition in definitions
        for error in spec_validator(version, definition).iter_errors(message)
    ]


def names_of(tools: Iterable[Any]) -> list[str]:
    """The ``name`` of each tool definition, in order."""
    return [definition.name for definition in tools]
