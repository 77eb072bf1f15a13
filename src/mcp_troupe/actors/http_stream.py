"""A POST's ``text/event-stream`` answer on a Streamable HTTP connection: read until the response, resumed.

spec: 2025-06-18 transports — a POST's answer may be an SSE stream carrying the server's requests and
notifications before the response; the server SHOULD close it after the response. A stream that breaks
before the response is picked up with ``GET`` + ``Last-Event-ID`` when the server gave event ids (after its
``retry`` delay); a disconnect is never a cancellation. In the 2026-07-28 era there is no resumption: a
broken stream loses the request, which the lane re-issues under a new id when it is safe to repeat.

:func:`read_stream` and :func:`resume` keep no state of their own between streams; everything they send,
deliver and fail goes through their :class:`StreamHost`, the connection
(:class:`~mcp_troupe.actors.http_connection.HttpConnection`).
"""

from __future__ import annotations

import logging
from typing import Protocol

import anyio

from mcp_troupe._httpx import httpx
from mcp_troupe.actors.h1 import Answer
from mcp_troupe.actors.http_listen import ListenHost
from mcp_troupe.actors.http_wire import (
    ACCEPT_SSE,
    SESSION_HEADER,
    answer_kind,
    describe,
    error_excerpt,
    media_type,
    split_batch,
)
from mcp_troupe.actors.lane import CallLane, Outgoing
from mcp_troupe.errors import ConnectionLost, HttpError, TroupeError
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol import modern
from mcp_troupe.protocol.jsonrpc import Request
from mcp_troupe.protocol.sse import SseEvent, SseParser

__all__ = ["MAX_RESUME_ATTEMPTS", "STREAM_LINGER", "StreamHost", "frames_of", "read_stream", "resume"]

log = logging.getLogger("mcp_troupe.http")

# Resumptions of one POST's response stream in a row that bring no new event before we give up.
MAX_RESUME_ATTEMPTS = 5
# How long a POST's event stream is read on after its response, waiting for the server to end it.
STREAM_LINGER = 1.0


class StreamHost(ListenHost, Protocol):
    """What a POST's answer stream needs of its connection (all on the I/O loop): what the GET stream needs
    (:class:`~mcp_troupe.actors.http_listen.ListenHost`), and the lane and the ways to end one request."""

    lane: CallLane

    @property
    def is_modern(self) -> bool:
        """Whether the connection settled on the 2026-07-28 era."""
        ...

    def adopt_session(self, response: Answer) -> None:
        """Take the session id of a successful ``initialize`` answer."""
        ...

    def fail_request(self, request: Request, error: TroupeError) -> None:
        """End one request with ``error``."""
        ...

    def http_error(self, status: int, request: Request, excerpt: str = "", reason: str = "") -> HttpError:
        """The error for an HTTP status that answered ``request``."""
        ...

    def on_session_expired(self, frame: bytes, outgoing: Outgoing, sent_session_id: str) -> None:
        """A 404 to a request that carried ``sent_session_id``: the session is gone."""
        ...


def frames_of(events: list[SseEvent]) -> list[bytes]:
    """The JSON-RPC frames of some SSE events (a batch event gives one frame per message)."""
    frames: list[bytes] = []
    for event in events:
        # Events of other types, and empty ones (2025-11-25 "priming" events carry only an id), hold no
        # message.
        if event.event == "message" and event.data.strip():
            frames.extend(split_batch(event.data.encode("utf-8")))
    return frames


def deliver_answer(
    host: StreamHost, events: list[SseEvent], request: Request | None, response: Answer
) -> bool:
    """Deliver the messages of ``events``; return whether ``request``'s response was among them."""
    frames = frames_of(events)
    if request is None or not frames:
        host.deliver(frames)
        return False
    if request.method == proto.INITIALIZE:
        # The session id is taken from the answer before the session sees it: look at the frames first.
        kinds = [answer_kind(frame, request.id) for frame in frames]
        if "result" in kinds:
            host.adopt_session(response)
        host.deliver(frames)
        return any(kind is not None for kind in kinds)
    host.deliver(frames)
    # The lane has read the frames (one parse each): the request is answered once it is no longer pending
    # (its response or error, or input_required, retried under a new id), or its caller gave up.
    return host.lane.pending_of(request.id) is None


async def read_stream(
    host: StreamHost, response: Answer, frame: bytes, request: Request | None, outgoing: Outgoing
) -> None:
    """Read a POST's SSE answer until the response to ``request`` arrived; resume it if it breaks."""
    parser = SseParser(host.max_frame)
    broken: httpx.HTTPError | None = None
    chunks = response.aiter_bytes()
    try:
        async for chunk in chunks:
            if deliver_answer(host, parser.feed(chunk), request, response):
                # The response is in, and the server SHOULD close the stream now (spec: 2025-06-18). Read on
                # briefly so that the connection goes back to the pool; a server that keeps the stream open
                # is left behind, so that it holds no slot.
                with anyio.move_on_after(STREAM_LINGER):
                    async for chunk in chunks:
                        host.deliver(frames_of(parser.feed(chunk)))
                return
    except httpx.HTTPError as exc:
        broken = exc
    if request is None:
        return
    if host.is_modern and outgoing.method == modern.SUBSCRIPTIONS_LISTEN:
        # The listen stream ended without its response (a deploy, a proxy's idle timeout): the session opens
        # it again, with backoff, and lists again whatever may have changed meanwhile.
        host.fail_request(request, ConnectionLost(host.server, "the listen stream ended"))
        return
    if host.is_modern:
        # spec: 2026-07-28 — no resumability: a broken stream loses the request, and the client MUST re-issue
        # it as a new request with a new id (only a request that is safe to repeat).
        reason = "the stream broke off" if broken is not None else "the server ended the stream early"
        error = ConnectionLost(
            host.server, f"{reason} before the answer to {request.method} (JSON-RPC id {request.id!r})"
        )
        host.lane.reissue(request.id, error)
        return
    if parser.last_event_id is not None:
        await resume(host, frame, outgoing, request, parser.last_event_id, parser.retry)
    elif broken is not None:
        host.report_down(f"the answer to {request.method} broke off: {describe(broken)}")
    else:
        reason = (
            f"the server ended the stream of {request.method} (JSON-RPC id {request.id!r}) before its "
            "response, and gave no event id to resume from"
        )
        host.fail_request(request, ConnectionLost(host.server, reason))


async def resume(
    host: StreamHost,
    frame: bytes,
    outgoing: Outgoing,
    request: Request,
    last_event_id: str,
    retry: int | None,
) -> None:
    """Pick up a POST's broken SSE stream with GET + ``Last-Event-ID`` until the response arrives.

    spec: 2025-06-18 transports, resumability — "the client SHOULD issue an HTTP GET to the MCP endpoint …
    and include the Last-Event-ID header"; the server replays what followed on *that* stream.
    Disconnection "SHOULD NOT be interpreted as the client cancelling its request".
    """
    client = host.client
    assert client is not None
    attempts = 0
    while attempts < MAX_RESUME_ATTEMPTS:
        attempts += 1
        # spec: 2025-11-25 transports — the client MUST respect `retry` before reconnecting.
        if retry:
            await anyio.sleep(retry / 1000)
        token = await host.token_or_none()
        headers = host.headers(ACCEPT_SSE, with_session=True, token=token, method="GET")
        headers["Last-Event-ID"] = last_event_id
        sent_session_id = headers.get(SESSION_HEADER)
        log.debug(
            "server %s: resuming the stream of id %r after event %r", host.server, request.id, last_event_id
        )
        parser = SseParser(host.max_frame)
        try:
            async with client.stream("GET", host.url, headers=headers) as response:
                status = response.status_code
                if status == 404 and sent_session_id is not None:
                    await response.aclose()
                    host.on_session_expired(frame, outgoing, sent_session_id)
                    return
                if status >= 300 or media_type(response) != "text/event-stream":
                    excerpt = await error_excerpt(response, host.redactor)
                    reason = "the response stream broke and the server would not resume it"
                    host.fail_request(request, host.http_error(status, request, excerpt, reason))
                    return
                try:
                    async for chunk in response.aiter_bytes():
                        if deliver_answer(host, parser.feed(chunk), request, response):
                            return
                except httpx.HTTPError as exc:
                    log.debug(
                        "server %s: resumed stream broke: %s",
                        host.server,
                        host.redactor.redact(describe(exc)),
                    )
        except httpx.HTTPError as exc:
            host.report_down(f"resuming the answer to {request.method} failed: {describe(exc)}")
            return
        if parser.last_event_id is not None and parser.last_event_id != last_event_id:
            last_event_id = parser.last_event_id
            attempts = 0  # progress: the server is still sending on this stream
        if parser.retry is not None:
            retry = parser.retry
    reason = (
        f"the stream of {request.method} (JSON-RPC id {request.id!r}) broke and "
        f"{MAX_RESUME_ATTEMPTS} resumptions brought nothing"
    )
    host.fail_request(request, ConnectionLost(host.server, reason))
