"""Run a sans-I/O OAuth flow: send its requests, and get the user's redirect when it needs one.

Part of the OAuth actor layer (:mod:`mcp_troupe.actors.oauth` re-exports every public name here):

- :func:`drive` sends a flow's requests with httpx (never following redirects on its own: every hop is checked
  first) and hands its :class:`~mcp_troupe.protocol.oauth.UserAuthorization` step to a callback;
- :class:`LoopbackRedirect` is the one-shot ``http://127.0.0.1:<port>/callback`` listener that receives the
  browser's redirect (RFC 8252 §7.3: a loopback IP literal, any port);
- :func:`open_browser` hands a validated authorization URL to :mod:`webbrowser` — never to a shell;
- :func:`read_pasted_redirect` / :func:`paste_redirect` are the fallback without a browser: print the URL,
  read back the address the browser was redirected to.

Logs name URLs without their query and never a token, code or secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import webbrowser
from collections.abc import Awaitable, Callable, Mapping
from types import TracebackType
from typing import Final, TextIO, TypeVar
from urllib.parse import parse_qsl, urlsplit

import anyio
import anyio.to_thread

from mcp_troupe._httpx import httpx
from mcp_troupe.errors import AuthError, AuthRefused, AuthUnreachable, NeedsLogin
from mcp_troupe.protocol.oauth import (
    Flow,
    UserAuthorization,
    describe_url,
    require_secure_url,
    validate_authorization_url,
)

__all__ = [
    "CALLBACK_PATH",
    "DEFAULT_LOGIN_TIMEOUT",
    "MAX_BODY_BYTES",
    "MAX_REDIRECTS",
    "LoopbackRedirect",
    "UserAuthorizationHandler",
    "drive",
    "open_browser",
    "paste_redirect",
    "read_pasted_redirect",
]

# The logger of the whole OAuth layer: operators filter on one name, whichever module logs.
log = logging.getLogger("mcp_troupe.oauth")

_T = TypeVar("_T")

CALLBACK_PATH: Final = "/callback"
DEFAULT_LOGIN_TIMEOUT: Final = 300.0
"""Seconds a login waits for the browser's redirect."""
MAX_REDIRECTS: Final = 5
MAX_BODY_BYTES: Final = 1024 * 1024
"""Metadata and token responses are small; a larger body is refused rather than buffered."""
_MAX_REQUEST_HEAD: Final = 16 * 1024

UserAuthorizationHandler = Callable[[UserAuthorization], Awaitable[Mapping[str, str]]]


# --- driving a flow ------------------------------------------------------------------------------------


async def drive(
    flow: Flow[_T],
    client: httpx.AsyncClient,
    *,
    on_user_authorization: UserAuthorizationHandler | None,
    server: str = "",
    max_redirects: int = MAX_REDIRECTS,
) -> _T:
    """Run ``flow`` to its result: send each request it yields and run its user step.

    Requests are sent with ``follow_redirects=False``. A redirect on a ``GET`` (metadata) is followed here,
    at most ``max_redirects`` hops, each hop checked with :func:`require_secure_url` first (spec: security
    best practices, SSRF — "validate each redirect hop"); a redirect on a ``POST`` (token, registration) is
    handed to the flow as it is, which treats it as an error: re-posting a code or a secret to wherever a 307
    points is how they leak. Network failures become :class:`AuthUnreachable`.
    ``on_user_authorization=None`` means there is nobody to ask: a user step raises :class:`NeedsLogin`.
    """
    try:
        step = next(flow)
        while True:
            if isinstance(step, httpx.Request):
                response = await _send(client, step, server=server, max_redirects=max_redirects)
                step = flow.send(response)
            else:
                if on_user_authorization is None:
                    raise NeedsLogin(server)
                params = await on_user_authorization(step)
                step = flow.send(dict(params))
    except StopIteration as stop:
        result: _T = stop.value
        return result
    finally:
        flow.close()


async def _send(
    client: httpx.AsyncClient, request: httpx.Request, *, server: str, max_redirects: int
) -> httpx.Response:
    for _hop in range(max_redirects + 1):
        response = await _send_once(client, request, server=server)
        log.debug(
            "server %s: OAuth %s %s -> %d",
            server,
            request.method,
            describe_url(str(request.url)),
            response.status_code,
        )
        if not (response.is_redirect and request.method == "GET"):
            return response
        location = response.headers.get("location", "")
        target = str(request.url.join(location))
        require_secure_url(target, server=server, what="redirect target")
        request = httpx.Request("GET", target, headers=_without_authorization(request.headers))
    raise AuthUnreachable(
        server, f"more than {max_redirects} redirects from {describe_url(str(request.url))}"
    )


def _without_authorization(headers: httpx.Headers) -> dict[str, str]:
    # Discovery requests carry no credentials, but a hop to another host must never inherit any; Host too
    # must be recomputed for the new URL.
    return {
        key: value for key, value in headers.items() if key.lower() not in ("authorization", "host", "cookie")
    }


def _transport_reason(error: httpx.TransportError) -> str:
    """``ConnectError: [Errno 111] Connection refused``: the class and the socket's reason (never headers)."""
    kind, text = type(error).__name__, str(error)
    return f"{kind}: {text}" if text and text != kind else kind


async def _send_once(client: httpx.AsyncClient, request: httpx.Request, *, server: str) -> httpx.Response:
    try:
        response = await client.send(request, stream=True, follow_redirects=False)
    except httpx.TransportError as error:
        raise AuthUnreachable(
            server, f"{request.method} {describe_url(str(request.url))} failed: {_transport_reason(error)}"
        ) from error
    try:
        body = bytearray()
        async for chunk in response.aiter_bytes():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                raise AuthUnreachable(
                    server, f"{describe_url(str(request.url))} answered more than {MAX_BODY_BYTES} bytes"
                )
    except httpx.TransportError as error:
        raise AuthUnreachable(
            server, f"reading {describe_url(str(request.url))} failed: {_transport_reason(error)}"
        ) from error
    finally:
        await response.aclose()
    # The body is already decoded: drop the headers that describe the encoded form.
    headers = [
        (key, value)
        for key, value in response.headers.multi_items()
        if key.lower() not in ("content-encoding", "content-length", "transfer-encoding")
    ]
    return httpx.Response(response.status_code, headers=headers, content=bytes(body), request=request)


# --- the loopback redirect -----------------------------------------------------------------------------

_DONE_PAGE: Final = (
    "<!doctype html><html><head><meta charset='utf-8'><title>mcp-troupe</title></head>"
    "<body><p>Login received. You can close this window and return to mcp-troupe.</p></body></html>"
)
_SECURITY_HEADERS: Final = (
    # The page's URL holds the code: no referrer may carry it anywhere, nothing may frame or script it.
    "Referrer-Policy: no-referrer\r\n"
    "Content-Security-Policy: default-src 'none'\r\n"
    "X-Frame-Options: DENY\r\n"
    "Cache-Control: no-store\r\n"
)


class LoopbackRedirect:
    """A one-shot listener on ``http://127.0.0.1:<port>/callback`` for the authorization redirect.

    ``port=0`` picks a free port. Use it as an async context manager (bound on entry, closed on exit), then
    :meth:`wait` for the redirect's query parameters. Requests for other paths, without ``code`` or
    ``error``, with a duplicated parameter or with a ``state`` other than the expected one are answered with
    an error and ignored, so a stray or forged request cannot end the login (the flow checks ``state``
    again). The answer page shows nothing of the request.
    """

    def __init__(self, port: int = 0, *, path: str = CALLBACK_PATH, server: str = "") -> None:
        self._requested_port = port
        self._path = path
        self._server_name = server
        self._server: asyncio.Server | None = None
        self._result: asyncio.Future[dict[str, str]] | None = None
        self._expected_state: str | None = None
        self.port = 0

    @property
    def redirect_uri(self) -> str:
        """``http://127.0.0.1:<port><path>``; valid once started."""
        if self._server is None:
            raise RuntimeError("LoopbackRedirect is not started")
        return f"http://127.0.0.1:{self.port}{self._path}"

    async def start(self) -> None:
        """Bind 127.0.0.1 (not ``localhost``, which may resolve elsewhere: RFC 8252 §8.3)."""
        self._result = asyncio.get_running_loop().create_future()
        self._server = await asyncio.start_server(
            self._handle, host="127.0.0.1", port=self._requested_port, limit=_MAX_REQUEST_HEAD
        )
        self.port = self._server.sockets[0].getsockname()[1]

    async def aclose(self) -> None:
        """Stop listening."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 5.0)
        if self._result is not None and not self._result.done():
            self._result.cancel()

    async def __aenter__(self) -> LoopbackRedirect:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def wait(
        self, *, timeout: float = DEFAULT_LOGIN_TIMEOUT, expected_state: str | None = None
    ) -> dict[str, str]:
        """The redirect's query parameters; :class:`AuthError` after ``timeout`` seconds."""
        if self._result is None:
            raise RuntimeError("LoopbackRedirect is not started")
        self._expected_state = expected_state
        try:
            return await asyncio.wait_for(asyncio.shield(self._result), timeout)
        except TimeoutError:
            raise AuthError(self._server_name, f"no login redirect arrived within {timeout:g} s") from None

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            status, body = await asyncio.wait_for(self._answer(reader), 10.0)
        except (
            TimeoutError,
            asyncio.IncompleteReadError,
            asyncio.LimitOverrunError,
            ConnectionError,
            ValueError,
        ):
            status, body = "400 Bad Request", "<p>Bad request.</p>"
        payload = body.encode("utf-8")
        head = (
            f"HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\n"
            f"Content-Length: {len(payload)}\r\nConnection: close\r\n{_SECURITY_HEADERS}\r\n"
        )
        try:
            writer.write(head.encode("ascii") + payload)
            await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _answer(self, reader: asyncio.StreamReader) -> tuple[str, str]:
        # The stream's limit (set in start) bounds the head; a longer one raises LimitOverrunError.
        head = await reader.readuntil(b"\r\n\r\n")
        request_line = head.split(b"\r\n", 1)[0].decode("latin-1")
        parts = request_line.split(" ")
        if len(parts) != 3 or parts[0] != "GET":
            return "405 Method Not Allowed", "<p>Bad request.</p>"
        target = urlsplit(parts[1])
        if target.path != self._path:
            return "404 Not Found", "<p>Not found.</p>"
        pairs = parse_qsl(target.query, keep_blank_values=True)
        params = dict(pairs)
        if len(params) != len(pairs):
            # RFC 6749 §3.1: parameters MUST NOT be included more than once.
            return "400 Bad Request", "<p>Bad request.</p>"
        if "code" not in params and "error" not in params:
            return "400 Bad Request", "<p>Bad request.</p>"
        if self._expected_state is not None and params.get("state") != self._expected_state:
            log.warning("server %s: ignored a login redirect with the wrong state", self._server_name)
            return "400 Bad Request", "<p>This login link is not the one mcp-troupe is waiting for.</p>"
        if self._result is None or self._result.done():
            return "409 Conflict", "<p>This login was already received.</p>"
        self._result.set_result(params)
        return "200 OK", _DONE_PAGE


# --- browser and paste fallback ------------------------------------------------------------------------


def open_browser(url: str, *, server: str = "") -> bool:
    """Open a validated authorization URL in the user's browser; ``False`` when there is no browser.

    :func:`validate_authorization_url` runs first (https or loopback http only, no ``javascript:``/``data:``/
    ``file:``, no whitespace or quotes), and the URL goes to :func:`webbrowser.open`, which starts browsers
    with an argument list — never through a shell (spec: security best practices, "never open URLs through a
    shell"). On a Unix without a display (and no ``$BROWSER``) it returns ``False`` rather than start a
    console browser in our terminal; the caller then falls back to :func:`paste_redirect`.
    """
    validate_authorization_url(url, server=server)
    if (
        sys.platform not in ("darwin", "win32")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
        and not os.environ.get("BROWSER")
    ):
        return False
    try:
        return webbrowser.open(url, new=1, autoraise=True)
    except webbrowser.Error:
        return False


def read_pasted_redirect(
    authorization_url: str,
    redirect_uri: str,
    *,
    input_stream: TextIO,
    output: TextIO,
    server: str = "",
) -> dict[str, str]:
    """Print ``authorization_url`` and read back the redirect the browser ended on (blocking).

    Accepts the full address (which must be ``redirect_uri`` plus a query) or just its query string. The
    printed URL goes to the user's terminal, not to a log.
    """
    validate_authorization_url(authorization_url, server=server)
    who = f" to server {server!r}" if server else ""
    output.write(
        f"Open this URL in a browser to log in{who}:\n\n  {authorization_url}\n\n"
        f"After you approve, the browser goes to {redirect_uri}?code=... (that page may fail to load).\n"
        "Paste the full address from the browser's address bar here: "
    )
    output.flush()
    line = input_stream.readline().strip()
    if not line:
        raise AuthError(server, "no redirect URL was pasted")
    if "://" in line:
        pasted, expected = urlsplit(line), urlsplit(redirect_uri)
        if (pasted.scheme, pasted.netloc, pasted.path) != (expected.scheme, expected.netloc, expected.path):
            raise AuthRefused(server, "redirect", f"the pasted address is not {redirect_uri}")
        query = pasted.query
    else:
        query = line.lstrip("?")
    pairs = parse_qsl(query, keep_blank_values=True)
    params = dict(pairs)
    if len(params) != len(pairs) or ("code" not in params and "error" not in params):
        raise AuthError(server, "the pasted address carries no authorization response")
    return params


async def paste_redirect(
    authorization_url: str,
    redirect_uri: str,
    *,
    input_stream: TextIO,
    output: TextIO,
    server: str = "",
) -> dict[str, str]:
    """:func:`read_pasted_redirect` in a worker thread, so the event loop keeps running."""
    return await anyio.to_thread.run_sync(
        lambda: read_pasted_redirect(
            authorization_url, redirect_uri, input_stream=input_stream, output=output, server=server
        ),
        abandon_on_cancel=True,
    )
