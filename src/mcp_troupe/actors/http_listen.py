"""The GET stream of a Streamable HTTP connection: where a handshake-era server sends what it initiates.

spec: 2025-06-18 transports, "Listening for Messages from the Server" — the client MAY GET the endpoint with
``Accept: text/event-stream``; the server answers a stream or 405 Method Not Allowed. This is how
``notifications/tools/list_changed`` reaches a legacy client. (The 2026-07-28 era has no GET stream: its
``subscriptions/listen`` is a request, carried like the others.)

:class:`GetStream` keeps the stream's own state (whether the server offers one, its backoff); everything it
sends and delivers goes through its :class:`ListenHost`, the connection.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

import anyio

from mcp_troupe._httpx import httpx
from mcp_troupe.actors.h1 import Http1Client
from mcp_troupe.actors.http_wire import ACCEPT_SSE, describe, media_type
from mcp_troupe.errors import FrameTooLarge
from mcp_troupe.policy.redaction import Redactor
from mcp_troupe.protocol.sse import SseEvent, SseParser

__all__ = ["LISTEN_INITIAL_DELAY", "LISTEN_MAX_DELAY", "GetStream", "ListenHost"]

log = logging.getLogger("mcp_troupe.http")

# The GET stream's reconnect backoff when the server gives no `retry`, or the stream delivered nothing.
LISTEN_INITIAL_DELAY = 0.5
LISTEN_MAX_DELAY = 30.0


class ListenHost(Protocol):
    """What the GET stream needs of its connection (all on the I/O loop)."""

    server: str
    url: str
    max_frame: int
    redactor: Redactor

    @property
    def client(self) -> httpx.AsyncClient | Http1Client | None:
        """The connection's HTTP client while it is open."""
        ...

    async def token_or_none(self) -> str | None:
        """The bearer token for the next request, if the server is protected and one is at hand."""
        ...

    def headers(self, accept: str, *, with_session: bool, token: str | None, method: str) -> dict[str, str]:
        """The request headers for one exchange (session id, protocol version, authorization)."""
        ...

    def frames_of(self, events: list[SseEvent]) -> list[bytes]:
        """The JSON-RPC frames of some SSE events."""
        ...

    def deliver(self, frames: list[bytes]) -> None:
        """Hand frames to the connection's lane, in arrival order."""
        ...

    def report_down(self, reason: str) -> None:
        """The connection is gone: tell the session."""
        ...


class GetStream:
    """One connection's GET stream: opened after the handshake, reopened when it drops, until stopped."""

    def __init__(self, host: ListenHost) -> None:
        self._host = host
        self._scope: anyio.CancelScope | None = None
        # The server said it offers no stream (405, not an event stream) or refused it (4xx).
        self.is_unsupported = False
        # A refusal (4xx, unlike 405) is the word of one session: a new session tries once more.
        self._is_retried_per_session = False
        self._on_answered: Callable[[], object] | None = None

    def start(
        self,
        start_task: Callable[[Coroutine[Any, Any, None]], object],
        on_answered: Callable[[], object] | None = None,
    ) -> bool:
        """Open the stream as a task ``start_task`` starts (the connection's child), unless it is open
        already or the server offers none; return whether it was started.

        ``on_answered`` is called once, on the loop, when the server has answered the first GET (its status
        line and headers) or that first attempt ended without an answer.
        """
        if self._scope is not None or self.is_unsupported:
            return False
        scope = self._scope = anyio.CancelScope()
        self._on_answered = on_answered
        start_task(self._listen(scope))
        return True

    def _answered(self) -> None:
        on_answered, self._on_answered = self._on_answered, None
        if on_answered is not None:
            on_answered()

    def stop(self) -> None:
        """Close the stream (it is not reopened until :meth:`start`)."""
        scope, self._scope = self._scope, None
        if scope is not None:
            scope.cancel()

    def on_new_session(self) -> None:
        """The session was replaced: stop, and forget a refusal that was the old session's."""
        self.stop()
        if self._is_retried_per_session:
            self.is_unsupported = self._is_retried_per_session = False

    async def _listen(self, scope: anyio.CancelScope) -> None:
        with scope:
            try:
                await self._listen_loop()
            finally:
                self._answered()
                if self._scope is scope:
                    self._scope = None

    async def _listen_loop(self) -> None:
        host = self._host
        client = host.client
        assert client is not None
        delay = LISTEN_INITIAL_DELAY
        last_event_id: str | None = None
        while True:
            token = await host.token_or_none()
            headers = host.headers(ACCEPT_SSE, with_session=True, token=token, method="GET")
            if last_event_id is not None:
                headers["Last-Event-ID"] = last_event_id
            has_events = False
            retry: int | None = None
            try:
                async with client.stream("GET", host.url, headers=headers) as response:
                    self._answered()
                    status = response.status_code
                    if status == 405:
                        log.debug("server %s offers no GET stream (405)", host.server)
                        self.is_unsupported = True
                        return
                    if 400 <= status < 500:
                        # 404 here may mean an expired session, but the next request finds out for sure;
                        # re-initialising on a GET's word could loop with a server that has no GET route.
                        # A new session tries once more (unlike after 405, which is the server's answer).
                        log.info(
                            "server %s: the GET stream was refused (HTTP %d); not listening",
                            host.server,
                            status,
                        )
                        self.is_unsupported = True
                        self._is_retried_per_session = True
                        return
                    if status >= 300:
                        log.info("server %s: the GET stream failed (HTTP %d); retrying", host.server, status)
                    elif media_type(response) != "text/event-stream":
                        log.info(
                            "server %s: the GET stream is not an event stream; not listening", host.server
                        )
                        self.is_unsupported = True
                        return
                    else:
                        parser = SseParser(host.max_frame)
                        try:
                            async for chunk in response.aiter_bytes():
                                events = parser.feed(chunk)
                                if events:
                                    has_events = True
                                    host.deliver(host.frames_of(events))
                        except httpx.HTTPError as exc:
                            log.debug(
                                "server %s: the GET stream broke: %s",
                                host.server,
                                host.redactor.redact(describe(exc)),
                            )
                        if parser.last_event_id is not None:
                            has_events = has_events or parser.last_event_id != last_event_id
                            last_event_id = parser.last_event_id
                        retry = parser.retry
            except httpx.HTTPError as exc:
                # The POSTs find out whether the server is really gone; this stream only waits and retries.
                log.debug(
                    "server %s: the GET stream failed: %s", host.server, host.redactor.redact(describe(exc))
                )
            except FrameTooLarge as exc:
                host.report_down(f"a message on the GET stream exceeded max_frame_bytes ({exc.limit} bytes)")
                return
            self._answered()  # a first attempt that ended without an answer (a no-op once answered)
            # spec: 2025-11-25 transports — the client MUST wait `retry` before reconnecting. A stream that
            # brought nothing backs off as well (never less than `retry`), so a server that accepts the GET
            # and closes it at once is not hammered.
            if has_events:
                delay = LISTEN_INITIAL_DELAY
                wait = retry / 1000 if retry is not None else LISTEN_INITIAL_DELAY
            else:
                wait = max(retry / 1000 if retry is not None else 0.0, delay)
                delay = min(delay * 2, LISTEN_MAX_DELAY)
            await anyio.sleep(wait)
