"""The HTTP clients of Streamable HTTP connections: the lean HTTP/1.1 one, or httpx over small pools.

:func:`http_client` picks :class:`~mcp_troupe.actors.h1.Http1Client` wherever it can carry the requests and
httpx (through :class:`Lanes`) where a proxy applies or the URL carries credentials. Preparing a client (the
TLS context, the proxy lookup) may block: it runs on an actor thread, never on the I/O loop.
"""

from __future__ import annotations

import functools
import os
import ssl
from collections.abc import AsyncIterator

from mcp_troupe._httpx import httpx
from mcp_troupe.actors.h1 import Http1Client, is_supported, parse_url

__all__ = [
    "CONNECTIONS_PER_LANE",
    "KEEPALIVE_EXPIRY",
    "LANES",
    "Lanes",
    "environment_proxy",
    "http_client",
    "shared_ssl_context",
]

# httpcore's pool does O(connections²) work on every request and response (measured: one pool of 80
# connections drops a trivial local server from ~900 to ~160-400 requests/s). So the one client of a
# transport spreads its requests over LANES small pools, least busy first: the same connection count, a
# fraction of the bookkeeping. Each lane has room beyond its share of MAX_IN_FLIGHT for the GET stream
# (which pins a connection), notifications, our responses to the server and stream resumptions, so those
# never wait behind the requests.
LANES = 16
CONNECTIONS_PER_LANE = 8


@functools.cache
def shared_ssl_context() -> ssl.SSLContext:
    """The one TLS context of this process, shared by every HTTP client.

    Building one costs ~50 ms and ~0.8 MiB; httpx would build one per client even for ``http://`` URLs.
    Built on first use, from an actor thread (never on the I/O loop, which must not block).
    """
    return httpx.create_ssl_context()


def environment_proxy(url: str) -> str | None:
    """The proxy the environment (``HTTPS_PROXY``, ``ALL_PROXY``, ``NO_PROXY`` …) names for ``url``.

    httpx honours these only for its own default transport; ours (:class:`Lanes`) asks here instead.
    May consult the system configuration: call it from an actor thread, not on the loop.
    """
    import urllib.request

    parts = parse_url(url)
    # urllib reads the whole environment four times per lookup (~0.1-0.6 ms, decoding every variable):
    # more than the rest of a connect costs a gateway of 1,000 servers. Where the environment is all it
    # reads (POSIX other than macOS), the answer is kept for as long as the environment stays the same.
    environment = _environment_key()
    key = (environment, parts.scheme, parts.host)
    if environment is not None and key in _proxy_answers:
        return _proxy_answers[key]
    if urllib.request.proxy_bypass(parts.host):
        proxy = None
    else:
        proxies = urllib.request.getproxies()
        proxy = proxies.get(parts.scheme) or proxies.get("all")
    if environment is not None:
        if len(_proxy_answers) >= _PROXY_ANSWERS_KEPT:
            _proxy_answers.clear()
        _proxy_answers[key] = proxy
    return proxy


_PROXY_ANSWERS_KEPT = 1024
_proxy_answers: dict[tuple[object, str, str], str | None] = {}


def _environment_key() -> object | None:
    """Something equal for equal environments, cheap to take; None where urllib consults more than the
    environment (macOS's and Windows's system proxy settings), so nothing may be cached."""
    import urllib.request

    if (
        urllib.request.getproxies is not urllib.request.getproxies_environment
        or urllib.request.proxy_bypass is not getattr(urllib.request, "proxy_bypass_environment", None)
    ):
        return None
    # The raw (bytes) store of os.environ: a tuple of it in C, no per-variable decoding. Every change
    # through os.environ (and putenv via it) lands there.
    data = getattr(os.environ, "_data", None)
    return tuple(data.items()) if isinstance(data, dict) else None


class _Released(httpx.AsyncByteStream):
    """A response body that tells its lane when it is closed."""

    def __init__(self, stream: httpx.AsyncByteStream, lane: _Lane) -> None:
        self._stream = stream
        self._lane: _Lane | None = lane

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._stream:
            yield chunk

    async def aclose(self) -> None:
        try:
            await self._stream.aclose()
        finally:
            lane, self._lane = self._lane, None
            if lane is not None:
                lane.busy -= 1


class _Lane:
    __slots__ = ("busy", "transport")

    def __init__(self, transport: httpx.AsyncHTTPTransport) -> None:
        self.transport = transport
        self.busy = 0


# An idle connection is dropped after this many seconds, before the server's own keep-alive timeout would
# close it (uvicorn and Node.js: 5 s; httpx's default is 5 s too). Reusing a connection the server is closing
# at that very moment fails the request with a read error: seen against the SDK's uvicorn server in the
# benchmark, once in a few thousand POSTs, after idle gaps of about 5 s.
KEEPALIVE_EXPIRY = 2.0


class Lanes(httpx.AsyncBaseTransport):
    """One client's transport: several small connection pools, each request to the least busy."""

    def __init__(self, ssl_context: ssl.SSLContext, proxy: str | None) -> None:
        limits = httpx.Limits(
            max_connections=CONNECTIONS_PER_LANE,
            max_keepalive_connections=CONNECTIONS_PER_LANE,
            keepalive_expiry=KEEPALIVE_EXPIRY,
        )
        self._lanes = [
            _Lane(httpx.AsyncHTTPTransport(verify=ssl_context, limits=limits, proxy=proxy))
            for _ in range(LANES)
        ]

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        lane = min(self._lanes, key=_busy)
        lane.busy += 1
        try:
            response = await lane.transport.handle_async_request(request)
        except BaseException:
            lane.busy -= 1
            raise
        assert isinstance(response.stream, httpx.AsyncByteStream)
        return httpx.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_Released(response.stream, lane),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        for lane in self._lanes:
            await lane.transport.aclose()


def _busy(lane: _Lane) -> int:
    return lane.busy


def http_client(
    url: str, ssl_context: ssl.SSLContext | None, proxy: str | None, timeout: httpx.Timeout
) -> httpx.AsyncClient | Http1Client:
    """The connection's HTTP client: :class:`Http1Client` (the lean keep-alive one) wherever it can go,
    httpx through a proxy, or for a URL with credentials in it."""
    if is_supported(url, proxy):
        assert timeout.connect is not None
        return Http1Client(
            url,
            ssl_context=ssl_context,
            connect_timeout=timeout.connect,
            max_connections=LANES * CONNECTIONS_PER_LANE,
            keepalive_expiry=KEEPALIVE_EXPIRY,
        )
    assert ssl_context is not None  # built whenever httpx carries the requests
    return httpx.AsyncClient(transport=Lanes(ssl_context, proxy), timeout=timeout)
