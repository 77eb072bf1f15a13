"""The modern era's ``subscriptions/listen`` stream of one session: change notifications and resource updates.

spec: 2026-07-28 basic/patterns/subscriptions — the client opts in to notification types with a long-lived
``subscriptions/listen`` request whose ``notifications`` filter names them (``toolsListChanged``,
``promptsListChanged``, ``resourcesListChanged``, ``resourceSubscriptions``: the URIs whose
``notifications/resources/updated`` it wants, replacing ``resources/subscribe``). The server acknowledges
first (``notifications/subscriptions/acknowledged``, with the subset it honours), then tags every
notification of the stream with the request's id (``subscriptionId``). It ends the stream with a result, or
with ``notifications/cancelled``; the client opens it again, and re-lists what may have changed meanwhile.

:class:`ListenStream` keeps that state for one session and runs on the session actor's thread; what it sends
goes through its :class:`ListenHost`, the session.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from typing import Any, Protocol

from mcp_troupe._futures import fail as _fail
from mcp_troupe.actors.lane import CallLane
from mcp_troupe.errors import CallError, RemoteError, TroupeError
from mcp_troupe.protocol import callbacks as cb
from mcp_troupe.protocol import jsonrpc, modern
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol.jsonrpc import Notification, RequestId
from mcp_troupe.protocol.mcp import InitializeResult

__all__ = ["LISTEN_RETRY_INITIAL", "LISTEN_RETRY_MAX", "ListenHost", "ListenStream"]

log = logging.getLogger("mcp_troupe.session")

# How soon a closed or refused stream is opened again, doubling up to the cap.
LISTEN_RETRY_INITIAL = 1.0
LISTEN_RETRY_MAX = 30.0


class ListenHost(Protocol):
    """What the listen stream needs of its session (all on the session actor's thread)."""

    server: str

    @property
    def info(self) -> InitializeResult | None:
        """The server's capabilities, once the handshake settled."""
        ...

    @property
    def is_closed(self) -> bool:
        """Whether the session is closing or closed."""
        ...

    @property
    def lane(self) -> CallLane | None:
        """The connection's lane, while it is open."""
        ...

    def request(
        self,
        method: str,
        params: Mapping[str, Any] | None,
        on_result: Callable[[Mapping[str, Any]], None],
        on_error: Callable[[TroupeError], None],
        *,
        timeout: float | None,
    ) -> RequestId | None:
        """Send a request of the session's own; its answer comes back to one of the callbacks."""
        ...

    def on_list_changed(self) -> None:
        """List the tools again (and drop the cached catalogs)."""
        ...

    def listen_later(self, delay: float) -> None:
        """Call :meth:`ListenStream.listen` on the session's thread after ``delay`` seconds."""
        ...


class ListenStream:
    """One session's ``subscriptions/listen``: opened when the session is ready, reopened when it ends."""

    def __init__(self, host: ListenHost) -> None:
        self._host = host
        self.request_id: RequestId | None = None
        self.wanted: dict[str, Any] = {}
        self.retry_delay = LISTEN_RETRY_INITIAL
        self.is_unsupported = False
        # Opened again after it ended: once the server acknowledges it, list again what may have changed.
        self._must_refresh = False
        # The resource URIs the host subscribed to (the filter's resourceSubscriptions), and the subscribe()
        # calls waiting for the server's acknowledgement of a filter that names theirs.
        self.resources: set[str] = set()
        self._awaiting: list[tuple[str, Future[Any]]] = []
        # Which listen request is the current one: one replaced by a new filter ends without a relisten.
        self._generation = 0

    def listen(self) -> None:
        """Open the stream with the filter of what the server offers and the host subscribed to."""
        host = self._host
        info = host.info
        if info is None or host.is_closed or self.is_unsupported or self.request_id is not None:
            return
        wanted: dict[str, Any] = {}
        if info.lists_changes("tools"):
            wanted["toolsListChanged"] = True
        if info.lists_changes("prompts"):
            wanted["promptsListChanged"] = True
        if info.lists_changes("resources"):
            wanted["resourcesListChanged"] = True
        if self.resources:
            # spec: 2026-07-28 patterns/subscriptions — replaces resources/subscribe.
            wanted["resourceSubscriptions"] = sorted(self.resources)
        if not wanted:
            return
        self.wanted = wanted
        self._generation += 1
        generation = self._generation
        # A long-lived request; every notification on it carries its id as `subscriptionId`. No deadline: it
        # is meant to stay open.
        self.request_id = host.request(
            modern.SUBSCRIPTIONS_LISTEN,
            {"notifications": wanted},
            lambda result: self._on_ended(result, generation),
            lambda error: self._on_failed(error, generation),
            timeout=None,
        )

    def on_resource_subscription(
        self, method: str, params: Mapping[str, Any] | None, reply: Future[Any]
    ) -> None:
        """``resources/subscribe`` / ``unsubscribe`` from the host, in the modern era: a new listen filter."""
        server = self._host.server
        uri = (params or {}).get("uri")
        if not isinstance(uri, str):
            _fail(reply, CallError(f"server {server!r}: {method} needs a string uri"))
            return
        if self.is_unsupported:
            reason = f"server {server!r} offers no subscriptions/listen: it cannot push updates of {uri!r}"
            _fail(reply, CallError(reason))
            return
        if method == cb.RESOURCES_SUBSCRIBE:
            self.resources.add(uri)
            self._awaiting.append((uri, reply))
        else:
            self.resources.discard(uri)
            if not reply.done():
                reply.set_result({})
        self._refilter()

    def on_notification(self, message: Notification) -> bool:
        """Handle the stream's own notifications (acknowledgement, teardown); True if ``message`` was one."""
        named = modern.subscription_id_of(message.params)
        if named is not None and named != self.request_id:
            # A stream we replaced (its notifications are not asked for any more), or none of ours.
            return message.method in (modern.SUBSCRIPTIONS_ACKNOWLEDGED, proto.CANCELLED)
        if message.method != modern.SUBSCRIPTIONS_ACKNOWLEDGED:
            if message.method == proto.CANCELLED:
                params = message.params or {}
                lane = self._host.lane
                if params.get("requestId") == self.request_id and lane is not None:
                    # spec: patterns/cancellation — the server tears the subscription down this way.
                    lane.drop(params.get("requestId", ""))
                    self.request_id = None
                    self._relisten(refresh=False)
                    return True
            return False
        self.retry_delay = LISTEN_RETRY_INITIAL
        if self._must_refresh:
            self._must_refresh = False
            self._host.on_list_changed()
        honoured = (message.params or {}).get("notifications")
        self.settle_awaiting(honoured if isinstance(honoured, Mapping) else None)
        if isinstance(honoured, Mapping) and dict(honoured) != self.wanted:
            log.info(
                "server %s honours only %s of the subscriptions asked for (%s)",
                self._host.server, dict(honoured), self.wanted,
            )  # fmt: skip
        return True

    def settle_awaiting(self, honoured: Mapping[str, Any] | None, error: TroupeError | None = None) -> None:
        """Answer the subscribe() calls waiting for an acknowledgement (or fail them with ``error``)."""
        awaiting, self._awaiting = self._awaiting, []
        taken = honoured.get("resourceSubscriptions") if honoured is not None else None
        for uri, reply in awaiting:
            if reply.done():
                continue
            if error is not None:
                _fail(reply, error)
            elif honoured is None or (isinstance(taken, list) and uri in taken):
                reply.set_result({})
            else:
                # spec: the acknowledgement names the subset the server agreed to honour.
                reason = f"server {self._host.server!r} did not take the subscription to {uri!r}"
                _fail(reply, CallError(reason))

    def _refilter(self) -> None:
        """The host's resource subscriptions changed: listen with the new filter, then end the old stream
        (in that order, so that no update falls between the two)."""
        old, self.request_id = self.request_id, None
        self.listen()
        lane = self._host.lane
        if old is not None and lane is not None:
            lane.cancel(old, "the subscriptions changed")

    def _on_ended(self, result: Mapping[str, Any], generation: int) -> None:
        if generation != self._generation:
            return  # replaced by a listen with a newer filter
        # A graceful close by the server: open it again (a change in between is caught by a fresh listing).
        self.request_id = None
        self._relisten(refresh=True)

    def _on_failed(self, error: TroupeError, generation: int) -> None:
        if generation != self._generation:
            return  # replaced by a listen with a newer filter (and cancelled by us)
        self.request_id = None
        server = self._host.server
        if isinstance(error, RemoteError) and error.code == jsonrpc.METHOD_NOT_FOUND:
            log.info("server %s offers no subscriptions/listen; changes are not pushed", server)
            self.is_unsupported = True
            self.settle_awaiting(None, CallError(f"server {server!r} offers no subscriptions/listen"))
            return
        log.info("server %s: subscriptions/listen ended: %s", server, error)
        self._relisten(refresh=True)

    def _relisten(self, *, refresh: bool) -> None:
        if self._host.is_closed:
            return
        delay = self.retry_delay
        self.retry_delay = min(delay * 2, LISTEN_RETRY_MAX)
        # Whatever changed while nobody listened is picked up by listing again, once the server has taken
        # the new subscription (so a server that is restarting is not asked for its tools meanwhile).
        self._must_refresh = self._must_refresh or refresh
        self._host.listen_later(delay)
