"""HttpTransport: the actor of one Streamable HTTP connection (incarnation), as thin as stdio's.

It takes ``Open`` / ``CloseTransport`` and keeps the lifecycle. On ``Open`` it prepares what may block (the
TLS context, the proxy lookup) on its own thread, then starts the connection on the I/O loop, where the wire
lives; on ``CloseTransport`` the connection DELETEs its session and closes.

The HTTP transport's modules: ``http_connection`` (the wire, the session's Outbound: read it for what goes
over the wire), ``http_wire`` (header names, reading answers, the bearer-token seam), ``http_listen`` (the
GET stream) and ``http_pool`` (the HTTP clients).
"""

from __future__ import annotations

import ssl
from concurrent.futures import Future
from typing import Any, assert_never

import pykka

from mcp_troupe._httpx import httpx
from mcp_troupe.actors.h1 import is_supported
from mcp_troupe.actors.http_connection import MAX_IN_FLIGHT, HttpConnection
from mcp_troupe.actors.http_pool import environment_proxy, shared_ssl_context
from mcp_troupe.actors.http_wire import ACCEPT_POST, SESSION_HEADER, TokenSource
from mcp_troupe.actors.loop import Runtime, safe_tell
from mcp_troupe.actors.session import OpenFailed, TransportDown
from mcp_troupe.actors.supervision import Supervised
from mcp_troupe.actors.transport import CloseTransport, Open
from mcp_troupe.config import ServerConfig
from mcp_troupe.errors import ConnectFailed, TroupeClosed

__all__ = [
    "ACCEPT_POST",
    "MAX_IN_FLIGHT",
    "SESSION_HEADER",
    "HttpTransport",
    "TokenSource",
    "shared_ssl_context",
]


class HttpTransport(Supervised, pykka.ThreadingActor):
    """One Streamable HTTP connection's lifecycle: prepare the client on ``Open``, DELETE and close on
    ``CloseTransport``."""

    use_daemon_thread = True

    def __init__(
        self,
        *,
        config: ServerConfig,
        incarnation: int,
        session: pykka.ActorRef[Any],
        runtime: Runtime,
        max_frame: int = 16 * 1024 * 1024,
        auth: TokenSource | None = None,
        parent: pykka.ActorRef[Any] | None = None,
    ) -> None:
        super().__init__()
        self.config = config
        self.runtime = runtime
        self.session = session
        self.incarnation = incarnation
        self.parent, self.server = parent, config.name
        self.connection = HttpConnection(config, incarnation, session, runtime, max_frame, auth)
        self._is_closing = False

    def on_receive(self, message: Any) -> None:
        msg: Open | CloseTransport = message
        match msg:
            case Open():
                # Done here, on the actor's thread: the first TLS context takes ~50 ms, and proxy lookup may
                # consult the system; the loop must not wait for either.
                assert self.config.url is not None
                try:
                    proxy = environment_proxy(self.config.url)
                    # Only TLS needs the context (~0.75 MiB, tens of ms): a plain http:// server that the
                    # lean client carries never builds it.
                    needs_tls = not self.config.url.startswith("http://") or not is_supported(
                        self.config.url, proxy
                    )
                    ssl_context = shared_ssl_context() if needs_tls else None
                except (ssl.SSLError, OSError, httpx.InvalidURL) as exc:
                    error = ConnectFailed(self.config.name, f"could not prepare the HTTP client: {exc}")
                    safe_tell(self.session, OpenFailed(self.incarnation, error))
                    return
                try:
                    self.runtime.loop.spawn(
                        self.connection.run,
                        ssl_context,
                        proxy,
                        name=f"http {self.config.name}",
                        on_error=self._on_run_failed,
                    )
                except TroupeClosed as exc:
                    safe_tell(
                        self.session, OpenFailed(self.incarnation, ConnectFailed(self.config.name, str(exc)))
                    )
            case CloseTransport():
                if self._is_closing:
                    return
                self._is_closing = True
                try:
                    self.runtime.loop.spawn(
                        self._close, msg.reply_to, msg.grace, name=f"close {self.config.name}"
                    )
                except TroupeClosed:
                    _complete(msg.reply_to)
                    self.actor_ref.stop(block=False)
            case _:
                assert_never(msg)

    def _on_run_failed(self, error: BaseException) -> None:
        # The connection's task died of an error it did not expect: the connection is gone, and the session
        # must hear now (before or after the handshake alike). Runs on the loop thread; a tell never blocks.
        safe_tell(self.session, TransportDown(self.incarnation, f"the HTTP connection failed: {error!r}"))

    async def _close(self, reply_to: Future[tuple[str, ...]], grace: float) -> None:
        try:
            await self.connection.close(grace)
        finally:
            _complete(reply_to)
            self.actor_ref.stop(block=False)

    def on_stop(self) -> None:
        # Stopped without a graceful close (the troupe is being torn down): never leave the client open.
        if not self._is_closing:
            self.runtime.loop.post_if_running(self.connection.abort)

    def on_crash(self, error: BaseException) -> None:
        """A bug in a handler: the client goes at once, as on a forced stop."""
        self.runtime.loop.post_if_running(self.connection.abort)


def _complete(reply_to: Future[tuple[str, ...]]) -> None:
    # HTTP servers have no stderr to hand back.
    if not reply_to.done():
        reply_to.set_result(())
