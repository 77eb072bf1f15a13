"""The lean HTTP/1.1 client (actors/h1.py) against real servers: a scripted raw asyncio server for the edges
(chunked, close-delimited, Connection: close, resets, idle expiry, pool limits), uvicorn/starlette for a real
one, and TLS with a certificate made for the test. Every server listens on 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import gzip
import ipaddress
import socket
import ssl
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import httpx
import pytest

from mcp_troupe.actors.h1 import Http1Client, is_supported

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter, "Script"], Awaitable[None]]


class Script:
    """A raw HTTP/1.1 server on the test's loop; ``handler`` serves each connection as the test scripts."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.connections = 0
        self.requests: list[bytes] = []
        self.closed = asyncio.Event()
        self.server: asyncio.Server | None = None
        self.url = ""

    async def __aenter__(self) -> Script:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}/mcp"
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.close()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(2):
                await self.server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            await self.handler(reader, writer, self)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
            self.closed.set()

    async def read_request(self, reader: asyncio.StreamReader) -> bytes | None:
        """One request (head and sized body), or None at EOF."""
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            return None
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        body = await reader.readexactly(length) if length else b""
        self.requests.append(head + body)
        return head + body


def sized(body: bytes, status: str = "200 OK", extra: bytes = b"") -> bytes:
    return b"HTTP/1.1 " + status.encode() + b"\r\nContent-Length: %d\r\n" % len(body) + extra + b"\r\n" + body


async def echo_forever(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script) -> None:
    while (request := await script.read_request(reader)) is not None:
        writer.write(sized(request.split(b"\r\n\r\n", 1)[1], extra=b"Content-Type: application/json\r\n"))


def client_for(url: str, **options: float | int) -> Http1Client:
    return Http1Client(
        url, ssl_context=None, connect_timeout=float(options.pop("connect_timeout", 5.0)), **options
    )  # type: ignore[arg-type]


async def post(client: Http1Client, body: bytes = b"{}") -> tuple[int, bytes]:
    async with client.stream(
        "POST", client.url, content=body, headers={"Accept": "application/json"}
    ) as answer:
        return answer.status_code, await answer.aread()


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 20))


# ---- keep-alive --------------------------------------------------------------------------------------------


def test_requests_in_a_row_share_one_kept_alive_connection() -> None:
    async def test() -> None:
        async with Script(echo_forever) as script:
            client = client_for(script.url)
            for index in range(5):
                assert await post(client, b'{"n":%d}' % index) == (200, b'{"n":%d}' % index)
            await client.aclose()
        assert script.connections == 1
        request = script.requests[0].decode()
        assert request.startswith("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:")
        assert "Content-Length: 7\r\n" in request and "Accept-Encoding: gzip, deflate\r\n" in request

    run(test)


def test_concurrent_requests_open_connections_up_to_the_limit_and_then_wait() -> None:
    async def test() -> None:
        release = asyncio.Event()

        async def slow(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script) -> None:
            while await script.read_request(reader) is not None:
                await release.wait()
                writer.write(sized(b"ok"))

        async with Script(slow) as script:
            client = client_for(script.url, max_connections=2)
            tasks = [asyncio.create_task(post(client)) for _ in range(5)]
            while len(script.requests) < 2:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.05)
            assert len(script.requests) == 2  # the other three wait for a connection
            release.set()
            assert [result for result in await asyncio.gather(*tasks)] == [(200, b"ok")] * 5
            assert script.connections == 2
            await client.aclose()

    run(test)


def test_waiting_longer_than_the_pool_timeout_is_a_pool_timeout() -> None:
    async def test() -> None:
        async def stuck(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script) -> None:
            await script.read_request(reader)
            await asyncio.sleep(10)

        async with Script(stuck) as script:
            client = client_for(script.url, max_connections=1, pool_timeout=0.2)
            first = asyncio.create_task(post(client))
            while not script.requests:
                await asyncio.sleep(0.01)
            with pytest.raises(httpx.PoolTimeout):
                await post(client)
            first.cancel()
            await client.aclose()

    run(test)


def test_a_waiter_that_gives_up_as_it_is_handed_a_connection_passes_it_on() -> None:
    async def test() -> None:
        async with Script(echo_forever) as script:
            client = client_for(script.url, max_connections=1)
            await post(client)
            connection = client._idle.pop()  # as if another request held it
            waiting = asyncio.create_task(post(client))
            while not client._waiters:
                await asyncio.sleep(0)
            client._waiters[0].set_result(connection)  # handed over, as a finished exchange does ...
            waiting.cancel()  # ... in the same moment its task gives up
            with pytest.raises(asyncio.CancelledError):
                await waiting
            assert client._idle == [connection]
            assert (await post(client))[0] == 200
            assert script.connections == 1
            await client.aclose()

    run(test)


def test_a_request_that_timed_out_waiting_leaves_the_pool_whole() -> None:
    async def test() -> None:
        release = asyncio.Event()

        async def gated(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script) -> None:
            while await script.read_request(reader) is not None:
                await release.wait()
                writer.write(sized(b"ok"))

        async with Script(gated) as script:
            client = client_for(script.url, max_connections=1, pool_timeout=0.1)
            first = asyncio.create_task(post(client))
            while not script.requests:
                await asyncio.sleep(0.01)
            with pytest.raises(httpx.PoolTimeout):
                await post(client)
            release.set()
            assert await first == (200, b"ok")
            assert await post(client) == (200, b"ok")
            assert script.connections == 1 and not client._waiters
            await client.aclose()

    run(test)


def test_closing_the_client_fails_the_requests_waiting_for_an_answer() -> None:
    async def test() -> None:
        async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script) -> None:
            await script.read_request(reader)
            await reader.read()

        async with Script(silent) as script:
            client = client_for(script.url)
            waiting = asyncio.create_task(post(client))
            while not script.requests:
                await asyncio.sleep(0.01)
            await client.aclose()
            with pytest.raises(httpx.ReadError, match="closed"):
                await waiting

    run(test)


def test_a_connection_the_server_closed_while_idle_is_not_used_again() -> None:
    async def test() -> None:
        async def one_each(
            reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script
        ) -> None:
            await script.read_request(reader)
            writer.write(sized(b"ok"))
            await writer.drain()
            # Then close without saying so (no Connection: close), as a server's keep-alive timeout does.

        async with Script(one_each) as script:
            client = client_for(script.url)
            assert await post(client) == (200, b"ok")
            await script.closed.wait()
            assert await post(client) == (200, b"ok")  # no error: a fresh connection carried it
            assert script.connections == 2 and len(script.requests) == 2
            await client.aclose()

    run(test)


def test_an_idle_connection_is_closed_after_the_expiry() -> None:
    async def test() -> None:
        async with Script(echo_forever) as script:
            client = client_for(script.url, keepalive_expiry=0.1)
            assert (await post(client))[0] == 200
            started = time.monotonic()
            async with asyncio.timeout(5):
                await script.closed.wait()  # the client closed it: the server read EOF
            assert time.monotonic() - started >= 0.09
            assert (await post(client))[0] == 200
            assert script.connections == 2
            await client.aclose()

    run(test)


def test_connection_close_is_honoured() -> None:
    async def test() -> None:
        async def closing(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script) -> None:
            while await script.read_request(reader) is not None:
                writer.write(sized(b"ok", extra=b"Connection: close\r\n"))

        async with Script(closing) as script:
            client = client_for(script.url)
            assert await post(client) == (200, b"ok")
            assert await post(client) == (200, b"ok")
            assert script.connections == 2
            await client.aclose()

    run(test)


def test_unasked_bytes_on_an_idle_connection_drop_it() -> None:
    async def test() -> None:
        async def chatty(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script) -> None:
            while await script.read_request(reader) is not None:
                writer.write(sized(b"ok") + b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nextra")

        async with Script(chatty) as script:
            client = client_for(script.url)
            assert await post(client) == (200, b"ok")
            assert await post(client) == (200, b"ok")
            assert script.connections == 2
            await client.aclose()

    run(test)


def test_a_request_whose_write_failed_at_once_goes_out_once_more_on_a_new_connection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mcp_troupe.actors import h1

    async def test() -> None:
        async with Script(echo_forever) as script:
            client = client_for(script.url)
            assert (await post(client, b"[1]"))[0] == 200
            (idle,) = client._idle
            assert idle.transport is not None
            idle.transport.abort()  # dead, and the pool not told yet: the write will go nowhere
            monkeypatch.setattr(h1._Connection, "is_reusable", lambda self, now: True)
            assert await post(client, b"[2]") == (200, b"[2]")
            assert [request.endswith(b"[2]") for request in script.requests] == [False, True]
            assert script.connections == 2
            await client.aclose()

    run(test)


def test_a_request_the_server_does_not_read_is_a_write_timeout() -> None:
    async def test() -> None:
        async def deaf(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script) -> None:
            writer.transport.pause_reading()
            await asyncio.sleep(5)

        async with Script(deaf) as script:
            client = client_for(script.url, write_timeout=0.3)
            started = time.monotonic()
            with pytest.raises(httpx.WriteTimeout):
                await post(client, b"x" * (16 * 1024 * 1024))
            assert time.monotonic() - started < 4
            await client.aclose()

    run(test)


# ---- bodies ------------------------------------------------------------------------------------------------


def test_a_chunked_body_arrives_chunk_by_chunk_as_it_is_sent() -> None:
    async def test() -> None:
        go_on = asyncio.Event()

        async def streaming(
            reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script
        ) -> None:
            await script.read_request(reader)
            writer.write(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
            )
            writer.write(b"d\r\ndata: first\n\n\r\n")
            await go_on.wait()
            writer.write(b"e\r\ndata: second\n\n\r\n0\r\n\r\n")
            await script.read_request(reader)

        async with Script(streaming) as script:
            client = client_for(script.url)
            async with client.stream("POST", client.url, content=b"{}", headers={}) as answer:
                assert answer.headers.get("content-type") == "text/event-stream"
                chunks = answer.aiter_bytes()
                assert await anext(chunks) == b"data: first\n\n"
                go_on.set()
                assert [chunk async for chunk in chunks] == [b"data: second\n\n"]
            await client.aclose()

    run(test)


def test_a_close_delimited_body_ends_with_the_connection() -> None:
    async def test() -> None:
        async def unsized(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script) -> None:
            await script.read_request(reader)
            writer.write(b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{"a":')
            await writer.drain()
            writer.write(b"1}")

        async with Script(unsized) as script:
            client = client_for(script.url)
            assert await post(client) == (200, b'{"a":1}')
            assert await post(client) == (200, b'{"a":1}')
            assert script.connections == 2
            await client.aclose()

    run(test)


def test_a_connection_reset_mid_body_is_a_read_error() -> None:
    async def test() -> None:
        async def reset(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script) -> None:
            await script.read_request(reader)
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial")
            await writer.drain()
            sock = writer.get_extra_info("socket")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            writer.transport.abort()

        async with Script(reset) as script:
            client = client_for(script.url)
            with pytest.raises((httpx.ReadError, httpx.RemoteProtocolError)):
                await post(client)
            await client.aclose()

    run(test)


def test_a_server_that_closes_after_reading_a_request_fails_it_and_does_not_send_it_again() -> None:
    async def test() -> None:
        async def swallow(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script) -> None:
            await script.read_request(reader)

        async with Script(swallow) as script:
            client = client_for(script.url)
            with pytest.raises(httpx.RemoteProtocolError, match="without sending a response"):
                await post(client)
            assert len(script.requests) == 1
            await client.aclose()

    run(test)


def test_a_large_body_read_slowly_arrives_whole() -> None:
    payload = bytes(range(256)) * 8192  # 2 MiB: past the read buffer limit, so reading pauses and resumes

    async def test() -> None:
        async def big(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script) -> None:
            await script.read_request(reader)
            writer.write(sized(payload))
            await writer.drain()
            await script.read_request(reader)

        async with Script(big) as script:
            client = client_for(script.url)
            received = bytearray()
            async with client.stream("POST", client.url, content=b"{}", headers={}) as answer:
                async for chunk in answer.aiter_bytes():
                    received += chunk
                    await asyncio.sleep(0)
            assert bytes(received) == payload
            await client.aclose()

    run(test)


def test_a_large_request_body_is_sent_whole() -> None:
    payload = b"x" * (3 * 1024 * 1024)

    async def test() -> None:
        async with Script(echo_forever) as script:
            client = client_for(script.url)
            status, body = await post(client, payload)
            assert status == 200 and body == payload
            await client.aclose()

    run(test)


def test_gzip_and_deflate_bodies_are_decoded() -> None:
    async def test() -> None:
        async def compressed(
            reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script
        ) -> None:
            await script.read_request(reader)
            writer.write(sized(gzip.compress(b'{"zipped":true}'), extra=b"Content-Encoding: gzip\r\n"))
            await script.read_request(reader)
            import zlib

            writer.write(sized(zlib.compress(b"deflated"), extra=b"Content-Encoding: deflate\r\n"))
            await script.read_request(reader)
            writer.write(sized(b"???", extra=b"Content-Encoding: br\r\n"))

        async with Script(compressed) as script:
            client = client_for(script.url)
            assert await post(client) == (200, b'{"zipped":true}')
            assert await post(client) == (200, b"deflated")
            with pytest.raises(httpx.DecodingError, match="br"):
                await post(client)
            await client.aclose()

    run(test)


def test_an_unreadable_response_is_a_remote_protocol_error() -> None:
    async def test() -> None:
        async def garbage(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script) -> None:
            await script.read_request(reader)
            writer.write(b"SPDY/3 200 OK\r\n\r\n")

        async with Script(garbage) as script:
            client = client_for(script.url)
            with pytest.raises(httpx.RemoteProtocolError, match="status line"):
                await post(client)
            await client.aclose()

    run(test)


# ---- headers, cookies, errors ------------------------------------------------------------------------------


def test_cookies_the_server_sets_are_sent_back_and_expired_ones_dropped() -> None:
    async def test() -> None:
        answers = iter(
            [
                sized(b"1", extra=b"Set-Cookie: lb=node-3; Path=/; HttpOnly\r\nSet-Cookie: t=1\r\n"),
                sized(b"2", extra=b"Set-Cookie: t=; Max-Age=0\r\n"),
                sized(b"3"),
            ]
        )

        async def cookies(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script) -> None:
            while await script.read_request(reader) is not None:
                writer.write(next(answers))

        async with Script(cookies) as script:
            client = client_for(script.url)
            for _ in range(3):
                await post(client)
            await client.aclose()
        assert b"Cookie" not in script.requests[0]
        assert b"Cookie: lb=node-3; t=1\r\n" in script.requests[1]
        assert b"Cookie: lb=node-3\r\n" in script.requests[2]

    run(test)


def test_a_header_value_with_a_line_break_is_refused_before_anything_is_sent() -> None:
    async def test() -> None:
        async with Script(echo_forever) as script:
            client = client_for(script.url)
            with pytest.raises(httpx.LocalProtocolError, match="invalid name or value"):
                client.stream("POST", client.url, content=b"{}", headers={"X-A": "1\r\nInjected: yes"})
            assert script.connections == 0
            await client.aclose()

    run(test)


def test_a_refused_connection_is_a_connect_error() -> None:
    async def test() -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        client = client_for(f"http://127.0.0.1:{port}/mcp")
        with pytest.raises(httpx.ConnectError):
            await post(client)
        await client.aclose()

    run(test)


def test_cancelling_an_exchange_closes_its_connection() -> None:
    async def test() -> None:
        async def slow_then_echo(
            reader: asyncio.StreamReader, writer: asyncio.StreamWriter, script: Script
        ) -> None:
            if script.connections == 1:
                await script.read_request(reader)
                await reader.read()  # until the client closes
                return
            await echo_forever(reader, writer, script)

        async with Script(slow_then_echo) as script:
            client = client_for(script.url)
            task = asyncio.create_task(post(client))
            while not script.requests:
                await asyncio.sleep(0.01)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            async with asyncio.timeout(5):
                await script.closed.wait()
            assert (await post(client))[0] == 200
            assert script.connections == 2
            await client.aclose()

    run(test)


def test_a_closed_client_refuses_requests_and_closes_its_connections() -> None:
    async def test() -> None:
        async with Script(echo_forever) as script:
            client = client_for(script.url)
            await post(client)
            await client.aclose()
            async with asyncio.timeout(5):
                await script.closed.wait()
            with pytest.raises(httpx.ConnectError, match="closed"):
                await post(client)

    run(test)


def test_delete_reads_the_whole_answer() -> None:
    async def test() -> None:
        async with Script(echo_forever) as script:
            client = client_for(script.url)
            answer = await client.delete(client.url, headers={"Mcp-Session-Id": "abc"})
            assert answer.status_code == 200
            assert script.requests[0].startswith(b"DELETE /mcp HTTP/1.1\r\n")
            assert b"Content-Length" not in script.requests[0]
            await client.aclose()

    run(test)


@pytest.mark.parametrize(
    ("url", "proxy", "supported"),
    [
        ("http://127.0.0.1:1/mcp", None, True),
        ("https://example.com/mcp?x=1", None, True),
        ("http://127.0.0.1:1/mcp", "http://proxy:3128", False),
        ("http://user:secret@127.0.0.1:1/mcp", None, False),
        ("ftp://example.com/", None, False),
    ],
)
def test_which_urls_the_lean_client_carries(url: str, proxy: str | None, supported: bool) -> None:
    assert is_supported(url, proxy) is supported


def test_the_request_target_and_host_come_from_the_url() -> None:
    client = Http1Client("https://example.com/a/b?c=1", ssl_context=None, connect_timeout=1.0)
    request = client._encode("POST", client.url, b"{}", {})
    assert request.startswith(b"POST /a/b?c=1 HTTP/1.1\r\nHost: example.com\r\n")
    ipv6 = Http1Client("http://[::1]:8080/mcp", ssl_context=None, connect_timeout=1.0)
    assert b"Host: [::1]:8080\r\n" in ipv6._encode("GET", ipv6.url, None, {})
    # A configured Host wins (virtual hosting behind an address), as with httpx; framing headers do not.
    custom = client._encode("POST", client.url, b"{}", {"host": "api.internal", "Content-Length": "99"})
    assert custom.startswith(b"POST /a/b?c=1 HTTP/1.1\r\nhost: api.internal\r\n")
    assert b"Content-Length: 2\r\n" in custom and b"99" not in custom


def test_a_reused_request_head_follows_the_body_the_headers_and_the_cookies() -> None:
    from mcp_troupe.protocol.http1 import Headers

    client = Http1Client("http://127.0.0.1:9/mcp", ssl_context=None, connect_timeout=1.0)
    headers = {"Accept": "application/json", "Mcp-Session-Id": "s1"}
    first = client._encode("POST", client.url, b"{}", headers)
    second = client._encode("POST", client.url, b'{"a":1}', headers)
    assert first.endswith(b"Content-Length: 2\r\n\r\n{}")
    assert second.endswith(b'Content-Length: 7\r\n\r\n{"a":1}')
    assert first.split(b"Content-Length")[0] == second.split(b"Content-Length")[0]
    get = client._encode("GET", client.url, None, headers)
    assert get.endswith(b"\r\n\r\n") and b"Content-Length" not in get and b"Mcp-Session-Id: s1\r\n" in get
    assert b"Mcp-Session-Id: s2\r\n" in client._encode(
        "POST", client.url, b"{}", {**headers, "Mcp-Session-Id": "s2"}
    )
    # A cookie the server sets, or sets anew, is on the next request although the headers are the same.
    client._remember_cookies(Headers([("Set-Cookie", "lb=a")]))
    assert b"Cookie: lb=a\r\n" in client._encode("POST", client.url, b"{}", headers)
    client._remember_cookies(Headers([("Set-Cookie", "lb=b")]))
    assert b"Cookie: lb=b\r\n" in client._encode("POST", client.url, b"{}", headers)
    client._remember_cookies(Headers([("Set-Cookie", "lb=; Max-Age=0")]))
    assert b"Cookie" not in client._encode("POST", client.url, b"{}", headers)
    # A bad value is refused every time, never remembered as a head.
    for _ in range(2):
        with pytest.raises(httpx.LocalProtocolError):
            client._encode("POST", client.url, b"{}", {"X-A": "1\r\nInjected: yes"})


def test_the_transport_uses_httpx_through_a_proxy_and_the_lean_client_otherwise() -> None:
    from mcp_troupe.actors.http_pool import http_client

    timeout = httpx.Timeout(5.0)
    lean = http_client("http://127.0.0.1:1/mcp", None, None, timeout)
    assert isinstance(lean, Http1Client)
    proxied = http_client(
        "http://127.0.0.1:1/mcp", ssl.create_default_context(), "http://127.0.0.1:2", timeout
    )
    assert isinstance(proxied, httpx.AsyncClient)
    asyncio.run(proxied.aclose())


# ---- a real server: uvicorn + starlette --------------------------------------------------------------------


@contextlib.contextmanager
def uvicorn_server(certfile: Path | None = None, keyfile: Path | None = None) -> Iterator[int]:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response, StreamingResponse
    from starlette.routing import Route

    async def echo(request: Request) -> Response:
        return Response(await request.body(), media_type="application/json")

    async def events(request: Request) -> StreamingResponse:
        async def stream() -> AsyncIterator[bytes]:
            for index in range(3):
                yield b"data: %d\n\n" % index
                await asyncio.sleep(0.01)

        return StreamingResponse(stream(), media_type="text/event-stream")

    app = Starlette(routes=[Route("/mcp", echo, methods=["POST"]), Route("/sse", events, methods=["POST"])])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, ssl_certfile=certfile, ssl_keyfile=keyfile, lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        yield listener.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listener.close()


@pytest.mark.interop
def test_against_uvicorn_json_and_a_streamed_body() -> None:
    with uvicorn_server() as port:

        async def test() -> None:
            client = client_for(f"http://127.0.0.1:{port}/mcp")
            for index in range(3):
                assert await post(client, b'{"i":%d}' % index) == (200, b'{"i":%d}' % index)
            await client.aclose()
            sse = client_for(f"http://127.0.0.1:{port}/sse")
            async with sse.stream("POST", sse.url, content=b"{}", headers={}) as answer:
                assert answer.headers.get("transfer-encoding") == "chunked"
                assert (
                    b"".join([chunk async for chunk in answer.aiter_bytes()])
                    == b"data: 0\n\ndata: 1\n\ndata: 2\n\n"
                )
            await sse.aclose()

        run(test)


def _certificate(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1, made for the test."""
    x509 = pytest.importorskip("cryptography.x509")
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
        .sign(key, hashes.SHA256())
    )
    certfile, keyfile = directory / "cert.pem", directory / "key.pem"
    certfile.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    keyfile.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return certfile, keyfile


@pytest.mark.interop
def test_tls_with_a_trusted_certificate_and_a_refused_one(tmp_path: Path) -> None:
    certfile, keyfile = _certificate(tmp_path)
    with uvicorn_server(certfile, keyfile) as port:

        async def test() -> None:
            url = f"https://127.0.0.1:{port}/mcp"
            trusting = ssl.create_default_context(cafile=str(certfile))
            client = Http1Client(url, ssl_context=trusting, connect_timeout=5.0)
            assert await post(client, b"[1]") == (200, b"[1]")
            assert await post(client, b"[2]") == (200, b"[2]")
            assert len(client._connections) == 1
            await client.aclose()
            stranger = Http1Client(url, ssl_context=ssl.create_default_context(), connect_timeout=5.0)
            with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
                await post(stranger)
            await stranger.aclose()

        run(test)
