"""The server's requests to the client, handshake era: answered at once, or served by the host on the loop.

spec: 2025-06-18 (and 2025-11-25) client features — a server may send ``ping``, ``roots/list``,
``sampling/createMessage`` and ``elicitation/create`` requests; the client answers what it declared a
capability for and refuses the rest with ``-32601`` at once rather than leaving the server waiting. A server
may cancel its own request (``notifications/cancelled``), and then gets no answer. In 2026-07-28 servers send
no requests at all: what they need arrives as ``input_required`` rounds (the lane's business).

:class:`ServerRequests` belongs to one session and runs on its actor's thread; the host's handlers run on
the loop, and their answers come back to the session as :class:`ServerRequestDone`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pykka

from mcp_troupe.actors.lane import CallLane, Fulfiller
from mcp_troupe.actors.loop import Runtime, TaskHandle, safe_tell
from mcp_troupe.errors import RemoteError
from mcp_troupe.protocol import callbacks as cb
from mcp_troupe.protocol import jsonrpc
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol.jsonrpc import ErrorObject, ErrorResponse, Request, RequestId, Response

__all__ = ["ServerRequestDone", "ServerRequests"]

log = logging.getLogger("mcp_troupe.session")


@dataclass(frozen=True, slots=True)
class ServerRequestDone:
    """The host answered (or refused) one of the server's requests. (loop → session)"""

    request: Request
    result: Mapping[str, Any] | None
    error: ErrorObject | None


class ServerRequests:
    """The server's requests being served by the host, by id, for one session."""

    def __init__(
        self, server: str, runtime: Runtime, fulfil: Fulfiller | None, session: pykka.ActorRef[Any]
    ) -> None:
        self.server = server
        self._runtime = runtime
        self._fulfil = fulfil
        self._session = session
        self._serving: dict[RequestId, TaskHandle] = {}

    def on_request(self, request: Request, lane: CallLane | None, *, is_modern: bool) -> None:
        """A request from the server: answer it now, or have the host serve it."""
        if is_modern:
            # spec: 2026-07-28 — servers MUST NOT initiate JSON-RPC requests (they use input_required).
            reason = "servers send no requests in protocol 2026-07-28"
            _answer(lane, request, None, ErrorObject(jsonrpc.INVALID_REQUEST, reason))
            return
        if request.method == proto.PING:
            _answer(lane, request, {}, None)
            return
        fulfil = self._fulfil
        host = self._runtime.host
        handled = host.handles(self.server, request.method) if host is not None else fulfil is not None
        if fulfil is None or not handled or request.method not in proto.UNSUPPORTED_CLIENT_METHODS:
            # We declared no capability for it: the server must not ask, and if it does it gets a clear
            # "method not found" at once rather than a hang.
            log.info("server %s asked for %s; answered -32601", self.server, request.method)
            refusal = ErrorObject(
                jsonrpc.METHOD_NOT_FOUND, f"Method not found: {request.method} (not supported)"
            )
            _answer(lane, request, None, refusal)
            return
        self._serving[request.id] = self._runtime.loop.spawn(
            self._serve, request, fulfil, name=f"{request.method} host"
        )

    def on_done(self, msg: ServerRequestDone, lane: CallLane | None) -> None:
        """The host's answer: send it, unless the server cancelled its request meanwhile."""
        if self._serving.pop(msg.request.id, None) is not None:
            _answer(lane, msg.request, msg.result, msg.error)

    def on_cancelled(self, request_id: object) -> None:
        """spec: cancellation — the server gave up on its own request: stop asking the human."""
        if not isinstance(request_id, int | str):
            return
        handle = self._serving.pop(request_id, None)
        if handle is not None:
            handle.cancel()

    def cancel_all(self) -> None:
        """The session ended: stop serving everything."""
        serving, self._serving = self._serving, {}
        for handle in serving.values():
            handle.cancel()

    async def _serve(self, request: Request, fulfil: Fulfiller) -> None:
        cb.SERVING.set(f" ({request.method}, JSON-RPC id {request.id!r})")  # this task's own context
        try:
            result = await fulfil(self.server, request.method, request.params or {})
        except cb.CallbackError as exc:
            done = ServerRequestDone(request, None, exc.to_error())
        except RemoteError as exc:
            done = ServerRequestDone(request, None, ErrorObject(exc.code, str(exc)))
        except Exception as exc:
            # A failing handler fails this one request, with a reason the server can show.
            error = ErrorObject(
                jsonrpc.INTERNAL_ERROR, f"the client could not answer {request.method}: {exc}"
            )
            done = ServerRequestDone(request, None, error)
        else:
            done = ServerRequestDone(request, dict(result), None)
        safe_tell(self._session, done)


def _answer(
    lane: CallLane | None, request: Request, result: Mapping[str, Any] | None, error: ErrorObject | None
) -> None:
    if lane is None:
        return
    reply: jsonrpc.Message = (
        ErrorResponse(request.id, error) if error is not None else Response(request.id, result or {})
    )
    try:
        frame = jsonrpc.encode(reply)
    except (TypeError, ValueError, RecursionError) as exc:
        # The host's handler answered with what JSON cannot write (an object of another type, NaN, a
        # cycle): the server is told that this one request failed, and the session goes on.
        log.warning("server %s: our answer to %s (JSON-RPC id %r) is not JSON: %s", lane.server,
                    request.method, request.id, exc)  # fmt: skip
        failed = ErrorObject(
            jsonrpc.INTERNAL_ERROR, f"the client's answer to {request.method} could not be written as JSON"
        )
        frame = jsonrpc.encode(ErrorResponse(request.id, failed))
    lane.respond(frame)
