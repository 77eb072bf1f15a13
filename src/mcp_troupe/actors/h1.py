"""The Streamable HTTP transport's own HTTP/1.1 client: keep-alive connections to one origin, on the I/O loop.

httpx's request and response models cost a Streamable HTTP call about a millisecond of Python (URL merging,
header normalisation, cookie extraction, auth and redirect hooks, httpcore's pool and h11 events), ten
times what a hand-written exchange costs. :class:`Http1Client` is the hand-written exchange, made robust:
one per transport, speaking to the one origin of the server's URL, with the interface of the part of
``httpx.AsyncClient`` the transport uses (``stream(method, url, content=, headers=)`` as an async context
manager, ``delete``, ``aclose``), so that :mod:`mcp_troupe.actors.http` runs unchanged on either.
The transport falls back to httpx wherever this client does not go (:func:`is_supported`): a proxy, a
URL with credentials in it, a scheme other than http/https.

- Connections are asyncio protocols (no task per read); the framing is
  :class:`mcp_troupe.protocol.http1.ResponseParser` (pure). Each connection carries one exchange at a time;
  the pool keeps up to ``max_connections``, reuses the most recently used idle one first, and hands a freed
  connection straight to the longest waiter. A wait longer than ``pool_timeout`` is ``httpx.PoolTimeout``.
- An idle connection is closed after ``keepalive_expiry`` seconds (the transport's 2 s rule: before the
  server's own keep-alive timeout, see ``docs/http.md``), and is checked before reuse: one the server has
  closed, or that holds unasked bytes, is dropped and the request goes out on another. Only a request that
  was never written is sent again (a POST holding a JSON-RPC request must not run twice).
- A response's body is handed over as it arrives (``aiter_bytes``), chunked, sized or close-delimited;
  ``gzip`` and ``deflate`` content codings are decoded (``Accept-Encoding`` says so, as httpx's does).
  Reading pauses while more than :data:`READ_BUFFER_LIMIT` bytes wait for the consumer.
- Cookies the server sets are kept for the origin and sent back, as httpx's client does (a load balancer's
  sticky-session cookie must follow the session).
- Errors are httpx's exception types (``ConnectError``, ``ConnectTimeout``, ``ReadError``,
  ``WriteError``, ``WriteTimeout``, ``RemoteProtocolError``, ``LocalProtocolError``, ``DecodingError``,
  ``PoolTimeout``), so the transport's handling is the same whichever client answered.
- Cancellation (a call's deadline, a closed transport) at any point closes the connection the exchange was
  on: its state is unknown, so it is never reused.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import ipaddress
import select
import ssl
import zlib
from collections.abc import AsyncIterator, Mapping
from types import MappingProxyType, TracebackType
from typing import Any, Protocol

from mcp_troupe._httpx import httpx
from mcp_troupe.protocol.http1 import (
    END,
    Headers,
    ProtocolError,
    ResponseHead,
    ResponseParser,
    encode_head,
    is_valid_header,
)

__all__ = [
    "KEEPALIVE_EXPIRY",
    "READ_BUFFER_LIMIT",
    "Answer",
    "Http1Client",
    "Http1Response",
    "is_supported",
]

KEEPALIVE_EXPIRY = 2.0
"""Seconds an idle connection is kept (uvicorn and Node.js close theirs after 5 s)."""
READ_BUFFER_LIMIT = 256 * 1024
"""Bytes of a body buffered for a slow consumer before the connection stops reading."""
WRITE_BUFFER_LIMIT = 64 * 1024
"""Bytes of a request waiting in the socket's user-space buffer before the writer waits for it to drain."""
ACCEPT_ENCODING = "gzip, deflate"
# Distinct encoded request heads one client keeps (2026-07-28 requests name their tool in a header).
_HEADS_KEPT = 64
_DEFAULT_PORTS = {"http": 80, "https": 443}


class HeaderLookup(Protocol):
    """Case-insensitive header lookup: ``httpx.Headers`` and :class:`~mcp_troupe.protocol.http1.Headers`."""

    def get(self, key: str, default: Any = None) -> Any:
        """The value of header ``key`` (any case), or ``default``."""
        ...


class Answer(Protocol):
    """What the transport reads of a response: ``httpx.Response`` and :class:`Http1Response` both are one."""

    @property
    def status_code(self) -> int:
        """The HTTP status."""
        ...

    @property
    def headers(self) -> HeaderLookup:
        """The response headers."""
        ...

    def aiter_bytes(self) -> AsyncIterator[bytes]:
        """The decoded body, chunk by chunk."""
        ...

    async def aread(self) -> bytes:
        """The rest of the body, whole."""
        ...

    async def aclose(self) -> None:
        """Done with the response."""
        ...


@functools.lru_cache(maxsize=4096)
def parse_url(url: str) -> httpx.URL:
    """``httpx.URL(url)``, parsed once per URL: the transport asks three times per connect, and a parse
    costs tens of microseconds (a gateway of 1,000 servers connects 1,000 URLs, and again on reconnects).
    ``httpx.URL`` is immutable; an invalid URL raises ``httpx.InvalidURL`` each time (never cached)."""
    return httpx.URL(url)


def is_supported(url: str, proxy: str | None) -> bool:
    """Whether :class:`Http1Client` can carry this server's requests (else the transport uses httpx)."""
    if proxy is not None:
        return False
    try:
        parsed = parse_url(url)
    except httpx.InvalidURL:
        return False
    # Credentials in the URL become Basic auth in httpx; a rare case that httpx keeps handling.
    return parsed.scheme in _DEFAULT_PORTS and not parsed.userinfo and bool(parsed.host)


class _Body:
    """A response body as it arrives: the async iterator behind :meth:`Http1Response.aiter_bytes`."""

    __slots__ = ("_chunks", "_decoder", "_error", "_is_ended", "_response", "_size", "_waiter")

    def __init__(self, response: Http1Response, decoder: _Decoder | None) -> None:
        self._response = response
        self._chunks: collections.deque[bytes] = collections.deque()
        self._size = 0
        self._is_ended = False
        self._error: BaseException | None = None
        self._waiter: asyncio.Future[None] | None = None
        self._decoder = decoder

    # ---- fed by the connection (loop callbacks) --------------------------------------------------------

    def put(self, chunk: bytes) -> bool:
        """Queue ``chunk``; return whether the connection should stop reading for now."""
        self._chunks.append(chunk)
        self._size += len(chunk)
        self._wake()
        return self._size > READ_BUFFER_LIMIT

    def end(self) -> None:
        self._is_ended = True
        self._wake()

    def fail(self, error: BaseException) -> None:
        if not self._is_ended:
            self._error = error
            self._is_ended = True
            self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    # ---- read by the consumer --------------------------------------------------------------------------

    def __aiter__(self) -> _Body:
        return self

    async def __anext__(self) -> bytes:
        while True:
            if self._chunks:
                chunk = self._chunks.popleft()
                self._size -= len(chunk)
                if self._size <= READ_BUFFER_LIMIT:
                    self._response._resume_reading()
                if self._decoder is not None:
                    chunk = self._decoder.decode(chunk)
                    if not chunk:
                        continue
                return chunk
            if self._is_ended:
                if self._error is not None:
                    raise self._error
                if self._decoder is not None:
                    tail, self._decoder = self._decoder.flush(), None
                    if tail:
                        return tail
                raise StopAsyncIteration
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            await waiter

    @property
    def is_complete(self) -> bool:
        """Whether every byte has arrived (nothing more will come)."""
        return self._is_ended and self._error is None


class _Decoder:
    """A streaming ``gzip`` / ``deflate`` content decoder (deflate: zlib-wrapped, or raw as some send it)."""

    __slots__ = ("_is_deflate", "_object")

    def __init__(self, coding: str) -> None:
        self._is_deflate = coding == "deflate"
        self._object = zlib.decompressobj(zlib.MAX_WBITS if self._is_deflate else zlib.MAX_WBITS | 16)

    def decode(self, chunk: bytes) -> bytes:
        try:
            return self._object.decompress(chunk)
        except zlib.error as exc:
            if self._is_deflate:
                # The first bytes were not a zlib header: raw deflate (RFC 9110 §8.4.1.2 notes both exist).
                self._is_deflate = False
                self._object = zlib.decompressobj(-zlib.MAX_WBITS)
                try:
                    return self._object.decompress(chunk)
                except zlib.error as raw_exc:
                    raise httpx.DecodingError(f"undecodable deflate body: {raw_exc}") from raw_exc
            raise httpx.DecodingError(f"undecodable {self._name} body: {exc}") from exc

    def flush(self) -> bytes:
        try:
            return self._object.flush()
        except zlib.error as exc:
            raise httpx.DecodingError(f"undecodable {self._name} body: {exc}") from exc

    @property
    def _name(self) -> str:
        return "deflate" if self._is_deflate else "gzip"


class Http1Response:
    """One response: status and headers at once, the body as it arrives (``aiter_bytes``, ``aread``).

    Close it (``aclose``, or leave the ``stream`` context) when done; a body not read to its end closes the
    connection, one read to its end has already given the connection back to the pool.
    """

    __slots__ = ("_body", "_connection", "headers", "reason_phrase", "status_code")

    def __init__(self, head: ResponseHead, connection: _Connection) -> None:
        self.status_code = head.status
        self.reason_phrase = head.reason
        self.headers = head.headers
        self._connection: _Connection | None = connection
        coding = (head.headers.get("content-encoding") or "").strip().lower()
        decoder = None
        if coding in ("gzip", "x-gzip", "deflate"):
            decoder = _Decoder("deflate" if coding == "deflate" else "gzip")
        elif coding not in ("", "identity"):
            decoder = _UnknownCoding(coding)
        self._body = _Body(self, decoder)

    def aiter_bytes(self) -> AsyncIterator[bytes]:
        """The (decoded) body, chunk by chunk as it arrives; one iterator for the response's lifetime."""
        return self._body

    async def aread(self) -> bytes:
        """The rest of the (decoded) body, whole."""
        return b"".join([chunk async for chunk in self._body])

    async def aclose(self) -> None:
        """Done with the response: an unfinished body closes its connection."""
        connection, self._connection = self._connection, None
        if connection is not None and not self._body.is_complete:
            connection.abandon()

    def _resume_reading(self) -> None:
        connection = self._connection
        if connection is not None:
            connection.resume_reading()

    def _detach(self) -> None:
        """The connection is done with this response (it ended, or the connection went away)."""
        self._connection = None


class _UnknownCoding(_Decoder):
    __slots__ = ("_coding",)

    def __init__(self, coding: str) -> None:
        self._coding = coding

    def decode(self, chunk: bytes) -> bytes:
        raise httpx.DecodingError(f"unsupported Content-Encoding {self._coding[:40]!r}")

    def flush(self) -> bytes:
        return b""


class _Connection(asyncio.Protocol):
    """One TCP (or TLS) connection; carries one exchange at a time."""

    def __init__(self, pool: Http1Client) -> None:
        self._pool = pool
        self.transport: asyncio.Transport | None = None
        self.parser = ResponseParser()
        self.idle_since = 0.0
        self.is_closed = False
        self._poller: select.poll | None = None
        self._head: asyncio.Future[Http1Response] | None = None
        self._response: Http1Response | None = None
        self._is_reading_paused = False
        self._drained: asyncio.Future[None] | None = None
        self._is_writing_paused = False

    # ---- asyncio.Protocol ------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            # One poller per connection, asked before each reuse (is_reusable).
            self._poller = select.poll()
            self._poller.register(sock.fileno(), select.POLLIN)

    def data_received(self, data: bytes) -> None:
        head, response = self._head, self._response
        if head is None and response is None:
            # Bytes while idle: the server broke the one-exchange-at-a-time rule (or is closing with a
            # message); nothing here can be trusted for another request.
            self.parser.feed(data)
            self.close()
            return
        try:
            events = self.parser.feed(data)
        except ProtocolError as exc:
            self._fail(httpx.RemoteProtocolError(str(exc)))
            return
        for event in events:
            if event is END:
                self._finish()
            elif isinstance(event, bytes):
                if response is not None and response._body.put(event) and not self._is_reading_paused:
                    self._is_reading_paused = True
                    assert self.transport is not None
                    self.transport.pause_reading()
            else:
                assert isinstance(event, ResponseHead)
                response = self._response = Http1Response(event, self)
                self._head = None
                self._pool._remember_cookies(event.headers)
                if head is not None and not head.done():
                    head.set_result(response)

    def eof_received(self) -> bool | None:
        try:
            events = self.parser.feed_eof()
        except ProtocolError as exc:
            self._fail(httpx.RemoteProtocolError(str(exc)))
            return None
        if END in events:
            self._finish()
        return None  # close the transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.is_closed = True
        error: httpx.TransportError
        if exc is None:
            error = httpx.RemoteProtocolError("the server closed the connection mid-exchange")
        else:
            error = httpx.ReadError(f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
        self._fail(error)
        drained, self._drained = self._drained, None
        if drained is not None and not drained.done():
            drained.set_exception(httpx.WriteError("the connection closed while the request was sent"))
        self._pool._forget(self)

    def pause_writing(self) -> None:
        self._is_writing_paused = True

    def resume_writing(self) -> None:
        self._is_writing_paused = False
        drained, self._drained = self._drained, None
        if drained is not None and not drained.done():
            drained.set_result(None)

    # ---- used by the pool --------------------------------------------------------------------------------

    def is_reusable(self, now: float) -> bool:
        """Whether this idle connection may carry the next request: alive, fresh, and silent."""
        transport = self.transport
        if self.is_closed or transport is None or transport.is_closing():
            return False
        if now - self.idle_since > self._pool.keepalive_expiry:
            return False
        # The server may have closed it (or sent something unasked) in the moment since the loop last
        # looked: EOF or bytes make the socket readable. One poll, far cheaper than a request that fails.
        return self._poller is None or not self._poller.poll(0)

    def start(self, request: bytes, loop: asyncio.AbstractEventLoop) -> asyncio.Future[Http1Response]:
        """Write ``request``; return the future of its response head."""
        if self.parser.is_done:
            self.parser.next_response()
        head = self._head = loop.create_future()
        assert self.transport is not None
        self.transport.write(request)
        return head

    async def drain(self, timeout: float) -> None:
        """Wait until the request left the user-space buffer, when it is large."""
        transport = self.transport
        if transport is None or transport.get_write_buffer_size() <= WRITE_BUFFER_LIMIT:
            return
        if not self._is_writing_paused:
            return
        drained = self._drained = asyncio.get_running_loop().create_future()
        try:
            async with asyncio.timeout(timeout):
                await drained
        except TimeoutError:
            raise httpx.WriteTimeout(f"the request was not sent within {timeout} s") from None

    def resume_reading(self) -> None:
        if self._is_reading_paused and self.transport is not None and not self.is_closed:
            self._is_reading_paused = False
            self.transport.resume_reading()

    def abandon(self, error: httpx.TransportError | None = None) -> None:
        """The exchange stopped midway (cancelled, its body not read to the end, the client closed): close.

        A request still waiting for its answer gets ``error`` (or is cancelled: its own task gave up).
        """
        head, self._head = self._head, None
        if head is not None and not head.done():
            if error is None:
                head.cancel()
            else:
                head.set_exception(error)
        response, self._response = self._response, None
        if response is not None:
            response._body.fail(httpx.ReadError("the response was closed before its end"))
            response._detach()
        self.close()

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()
        if not self.is_closed:
            self.is_closed = True
            self._pool._forget(self)

    # ---- internals ---------------------------------------------------------------------------------------

    def _finish(self) -> None:
        response, self._response = self._response, None
        self._head = None
        if response is not None:
            response._body.end()
            response._detach()
        transport = self.transport
        # A response that came while our request was still being written (an early error answer) leaves
        # the rest of the request on the wire: the server would read it as the next request.
        if (
            self.parser.is_reusable
            and transport is not None
            and not transport.is_closing()
            and not transport.get_write_buffer_size()
        ):
            if self._is_reading_paused:
                self._is_reading_paused = False
                transport.resume_reading()
            self._pool._release(self)
        else:
            self.close()

    def _fail(self, error: httpx.TransportError) -> None:
        head, self._head = self._head, None
        response, self._response = self._response, None
        if head is not None and not head.done():
            head.set_exception(error)
        if response is not None:
            response._body.fail(error)
            response._detach()
        self.close()


class _Stream:
    """``async with client.stream(...) as response``: send the request, close the response at the end."""

    __slots__ = ("_client", "_request", "_response")

    def __init__(self, client: Http1Client, request: bytes) -> None:
        self._client = client
        self._request = request
        self._response: Http1Response | None = None

    async def __aenter__(self) -> Http1Response:
        self._response = await self._client._send(self._request)
        return self._response

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        response, self._response = self._response, None
        if response is not None:
            await response.aclose()


class Http1Client:
    """Keep-alive HTTP/1.1 connections to the origin of ``url``: the transport's hot path (see the module).

    Every method runs on the I/O loop. ``url`` fixes the origin and the request target; ``stream`` and
    ``delete`` accept only that URL (the transport has one endpoint).
    """

    def __init__(
        self,
        url: str,
        *,
        ssl_context: ssl.SSLContext | None,
        connect_timeout: float,
        write_timeout: float | None = None,
        pool_timeout: float | None = None,
        max_connections: int = 100,
        keepalive_expiry: float = KEEPALIVE_EXPIRY,
    ) -> None:
        parsed = parse_url(url)
        if parsed.scheme not in _DEFAULT_PORTS or parsed.userinfo or not parsed.host:
            raise httpx.UnsupportedProtocol(f"not an http(s) URL without credentials: {parsed.scheme}://…")
        self.url = url
        self.scheme = parsed.scheme
        self.host = parsed.host  # IDNA-encoded, IPv6 without brackets
        self.port = parsed.port or _DEFAULT_PORTS[parsed.scheme]
        self.target = parsed.raw_path.decode("ascii") or "/"
        try:
            ipaddress.ip_address(self.host)
            self._is_address = True
        except ValueError:
            self._is_address = False
        host_header = f"[{self.host}]" if ":" in self.host else self.host
        if parsed.port is not None and parsed.port != _DEFAULT_PORTS[parsed.scheme]:
            host_header += f":{parsed.port}"
        self._host_header = host_header
        self._ssl_context = ssl_context if self.scheme == "https" else None
        self.connect_timeout = connect_timeout
        self.write_timeout = write_timeout if write_timeout is not None else connect_timeout
        self.pool_timeout = pool_timeout if pool_timeout is not None else connect_timeout
        self.max_connections = max_connections
        self.keepalive_expiry = keepalive_expiry
        self._idle: list[_Connection] = []
        self._connections: set[_Connection] = set()
        self._opening = 0
        self._waiters: collections.deque[asyncio.Future[_Connection | None]] = collections.deque()
        self._cookies: dict[str, str] = {}
        # Encoded heads by (method, headers, cookie epoch); the epoch moves whenever the cookies change.
        self._heads: dict[tuple[str, tuple[tuple[str, str], ...], int], bytes] = {}
        # The same, by the identity of a read-only mapping (the transport's cached POST headers): no tuple
        # of its items built and hashed per request. The mapping is kept, so its id is not reused meanwhile.
        self._heads_by_mapping: dict[int, tuple[Mapping[str, str], str, int, bytes]] = {}
        self._cookie_epoch = 0
        self._sweep: asyncio.TimerHandle | None = None
        self._is_closed = False

    # ---- the httpx.AsyncClient subset the transport uses ----------------------------------------------

    def stream(
        self, method: str, url: str, *, content: bytes | None = None, headers: Mapping[str, str]
    ) -> _Stream:
        """``async with`` it: send one request, get its :class:`Http1Response`, close it at the end."""
        return _Stream(self, self._encode(method, url, content, headers))

    async def delete(self, url: str, *, headers: Mapping[str, str]) -> Http1Response:
        """Send ``DELETE`` and read its whole answer (which is then closed)."""
        response = await self._send(self._encode("DELETE", url, None, headers))
        try:
            await response.aread()
        finally:
            await response.aclose()
        return response

    async def aclose(self) -> None:
        """Close every connection; later requests fail with ``httpx.ConnectError``."""
        self._is_closed = True
        if self._sweep is not None:
            self._sweep.cancel()
            self._sweep = None
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_exception(httpx.ConnectError("the HTTP client was closed"))
        self._waiters.clear()
        for connection in list(self._connections):
            connection.abandon(httpx.ReadError("the HTTP client was closed"))
        self._idle.clear()

    # ---- requests ---------------------------------------------------------------------------------------

    def _encode(self, method: str, url: str, content: bytes | None, headers: Mapping[str, str]) -> bytes:
        if url != self.url:
            raise httpx.UnsupportedProtocol("Http1Client speaks to one endpoint only")
        # A transport sends the same headers on call after call: the head (all but Content-Length) is
        # encoded and checked once per distinct set, then reused (a few microseconds instead of tens). A
        # read-only mapping (MappingProxyType) is taken to stay as it is: the transport's are views of
        # dicts that nobody else holds, so the head is found by the mapping's identity.
        epoch = self._cookie_epoch
        if type(headers) is MappingProxyType:
            known = self._heads_by_mapping.get(id(headers))
            if known is not None and known[0] is headers and known[1] == method and known[2] == epoch:
                head = known[3]
            else:
                head = self._head_of(method, headers, epoch)
                if len(self._heads_by_mapping) >= _HEADS_KEPT:
                    self._heads_by_mapping.clear()
                self._heads_by_mapping[id(headers)] = (headers, method, epoch, head)
        else:
            head = self._head_of(method, headers, epoch)
        if content is not None or method in ("POST", "PUT", "PATCH"):
            head += b"Content-Length: %d\r\n" % len(content or b"")
        head += b"\r\n"
        return head + content if content else head

    def _head_of(self, method: str, headers: Mapping[str, str], epoch: int) -> bytes:
        key = (method, tuple(headers.items()), epoch)
        head = self._heads.get(key)
        if head is None:
            head = self._encode_head(method, headers)
            if len(self._heads) >= _HEADS_KEPT:
                self._heads.clear()
            self._heads[key] = head
        return head

    def _encode_head(self, method: str, headers: Mapping[str, str]) -> bytes:
        """The request line and every header line but Content-Length (each ending in CRLF)."""
        fields = [("Host", self._host_header)]
        has_encoding = False
        for name, value in headers.items():
            lowered = name.lower()
            if lowered in ("content-length", "transfer-encoding", "connection"):
                continue  # framing is ours
            if lowered == "host":
                fields[0] = (name, value)  # a configured Host (virtual hosting behind an address), as httpx
                continue
            has_encoding = has_encoding or lowered == "accept-encoding"
            fields.append((name, value))
        if not has_encoding:
            fields.append(("Accept-Encoding", ACCEPT_ENCODING))
        if self._cookies:
            fields.append(("Cookie", "; ".join(f"{key}={value}" for key, value in self._cookies.items())))
        try:
            head = encode_head(method, self.target, fields)
        except ProtocolError as exc:
            raise httpx.LocalProtocolError(str(exc)) from None
        return head[:-2]  # without the blank line: Content-Length goes after

    async def _send(self, request: bytes) -> Http1Response:
        loop = asyncio.get_running_loop()
        is_retry = False
        while True:
            connection = await self._acquire(loop)
            try:
                head = connection.start(request, loop)
                transport = connection.transport
                if not is_retry and (connection.is_closed or transport is None or transport.is_closing()):
                    # The write failed at once (the peer reset the connection): nothing of the request
                    # left, so it may go out once more on another connection.
                    is_retry = True
                    head.cancel()
                    connection.close()
                    continue
                if len(request) > WRITE_BUFFER_LIMIT:
                    await connection.drain(self.write_timeout)
                return await head
            except BaseException:
                connection.abandon()
                raise

    async def _acquire(self, loop: asyncio.AbstractEventLoop) -> _Connection:
        if self._is_closed:
            raise httpx.ConnectError("the HTTP client was closed")
        idle = self._idle
        if idle:
            now = loop.time()
            while idle:
                connection = idle.pop()
                if connection.is_reusable(now):
                    return connection
                connection.close()
        if len(self._connections) + self._opening < self.max_connections:
            return await self._connect(loop)
        waiter: asyncio.Future[_Connection | None] = loop.create_future()
        self._waiters.append(waiter)
        try:
            async with asyncio.timeout(self.pool_timeout):
                handed = await waiter
        except BaseException as exc:
            if waiter in self._waiters:
                self._waiters.remove(waiter)
            if waiter.done() and not waiter.cancelled():
                # Handed a connection (or a free slot) in the very moment this wait ended: pass it on, or
                # the pool would count a connection that nobody holds.
                passed = waiter.result()
                if passed is not None:
                    self._release(passed)
                else:
                    self._wake_one()
            else:
                waiter.cancel()
            if isinstance(exc, TimeoutError):
                raise httpx.PoolTimeout(
                    f"no free connection within {self.pool_timeout} s ({self.max_connections} in use)"
                ) from None
            raise
        if handed is not None:
            return handed
        return await self._acquire(loop)  # a connection closed: room to open one

    async def _connect(self, loop: asyncio.AbstractEventLoop) -> _Connection:
        self._opening += 1
        try:
            async with asyncio.timeout(self.connect_timeout):
                _, connection = await loop.create_connection(
                    lambda: _Connection(self),
                    self.host,
                    self.port,
                    ssl=self._ssl_context,
                    server_hostname=self.host if self._ssl_context is not None else None,
                    ssl_handshake_timeout=self.connect_timeout if self._ssl_context is not None else None,
                    # As anyio's connect_tcp (httpx's): a name with IPv6 and IPv4 addresses races them. An
                    # address literal has one address: no race, and none of its tasks per connect.
                    happy_eyeballs_delay=None if self._is_address else 0.25,
                )
        except TimeoutError:
            raise httpx.ConnectTimeout(f"no connection within {self.connect_timeout} s") from None
        except (OSError, ssl.SSLError) as exc:  # refused, unreachable, name unknown, certificate refused
            raise httpx.ConnectError(f"{type(exc).__name__}: {exc}") from exc
        finally:
            self._opening -= 1
        if self._is_closed:
            connection.close()
            raise httpx.ConnectError("the HTTP client was closed")
        self._connections.add(connection)
        return connection

    # ---- the pool ---------------------------------------------------------------------------------------

    def _release(self, connection: _Connection) -> None:
        """A connection's exchange ended and it may carry another: to the longest waiter, else idle."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(connection)
                return
        connection.idle_since = _now()
        self._idle.append(connection)
        if self._sweep is None and not self._is_closed:
            self._sweep = asyncio.get_running_loop().call_later(self.keepalive_expiry, self._sweep_idle)

    def _forget(self, connection: _Connection) -> None:
        """A connection closed: it leaves the pool, and a waiter may open another."""
        if connection not in self._connections:
            return
        self._connections.discard(connection)
        if connection in self._idle:
            self._idle.remove(connection)
        self._wake_one()

    def _wake_one(self) -> None:
        """Tell the longest waiter there is room to open a connection."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    def _sweep_idle(self) -> None:
        """Close the connections idle for longer than the expiry; come back while any stay idle."""
        self._sweep = None
        now = _now()
        keep = []
        for connection in self._idle:
            if now - connection.idle_since > self.keepalive_expiry or connection.is_closed:
                connection.close()
            else:
                keep.append(connection)
        self._idle[:] = [connection for connection in keep if not connection.is_closed]
        if self._idle and not self._is_closed:
            oldest = min(connection.idle_since for connection in self._idle)
            delay = max(0.05, oldest + self.keepalive_expiry - now + 0.01)
            self._sweep = asyncio.get_running_loop().call_later(delay, self._sweep_idle)

    def _remember_cookies(self, headers: Headers) -> None:
        """Keep the ``Set-Cookie`` name=value pairs for this origin (RFC 6265 §5.2, cut to one origin)."""
        if "set-cookie" not in headers:
            return
        for line in headers.get_list("set-cookie"):
            pair, _, attributes = line.partition(";")
            name, equals, value = pair.partition("=")
            name, value = name.strip(), value.strip()
            if not equals or not name or not is_valid_header(name, value) or ";" in value:
                continue
            expired = False
            for attribute in attributes.split(";"):
                key, _, argument = attribute.partition("=")
                key = key.strip().lower()
                if key == "max-age":
                    text = argument.strip()
                    expired = text.lstrip("-").isdigit() and int(text) <= 0
                elif key == "secure" and self.scheme != "https":
                    expired = True  # never sent over plain HTTP (RFC 6265 §5.4)
            if expired:
                if self._cookies.pop(name, None) is not None:
                    self._cookie_epoch += 1
            elif self._cookies.get(name) != value:
                self._cookies[name] = value
                self._cookie_epoch += 1


def _now() -> float:
    return asyncio.get_running_loop().time()
