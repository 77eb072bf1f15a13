"""The on-demand catalogs of one connection: resources, resource templates and prompts, listed page by page.

Owned by the :class:`~mcp_troupe.actors.session.SessionActor` (one per connection) and run on its thread;
split out because it is a state machine of its own. A listing runs all pages, is cached for the life of the
connection (modern era: for the ``ttlMs`` the server gave), is shared by every ``ListAll`` that arrives while
it is in flight, restarts when its ``list_changed`` arrives mid-listing, and is dropped by the matching
``list_changed``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from mcp_troupe._futures import complete as _complete
from mcp_troupe._futures import fail as _fail
from mcp_troupe.errors import ConnectionLost, ProtocolError, RemoteError, TroupeError
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol.jsonrpc import RequestId
from mcp_troupe.protocol.mcp import CATALOG_ITEM_KEYS, PageGuard

__all__ = ["MAX_LISTING_RESTARTS", "Catalogs", "ListAll"]

log = logging.getLogger("mcp_troupe.session")

# A catalog listing restarts when its list_changed arrives mid-listing; a server that changes its list on
# every page would keep us listing forever, so after this many restarts the listing fails instead.
MAX_LISTING_RESTARTS = 10

SendPage = Callable[
    [str, Mapping[str, Any] | None, Callable[[Mapping[str, Any]], None], Callable[[TroupeError], None]],
    RequestId | None,
]
"""``(method, params, on_result, on_error) -> request id`` (None: the connection is closed)."""


@dataclass(frozen=True, slots=True)
class ListAll:
    """Complete ``reply_to`` with every item of the listing ``method``, all pages.

    ``method`` is ``resources/list``, ``resources/templates/list`` or ``prompts/list``. The answer comes from
    this session's cache when it has one; otherwise one listing runs, shared by every ``ListAll`` for the same
    method that arrives before it ends. Errors: ``ConnectionLost``, ``CallTimedOut`` (one page),
    ``RemoteError``, ``ProtocolError`` (a malformed page, a pagination loop).
    """

    method: str
    reply_to: Future[list[dict[str, Any]]]
    is_continuation: bool = False
    """The caller pages on through a listing it read before: a cached one serves even past its ``ttlMs``
    (its pages must come from one listing)."""


@dataclass(slots=True)
class _CatalogListing:
    """One on-demand listing in flight, with the callers waiting for it."""

    guard: PageGuard
    items: list[dict[str, Any]]
    waiters: list[Future[list[dict[str, Any]]]]
    restarts: int = 0
    # A list_changed arrived meanwhile: the pages read so far may be stale; start again from the first.
    is_dirty: bool = False
    # HTTP session expiry dropped its continuation request: nothing is in flight until the new session.
    is_stalled: bool = False
    # Modern: the smallest ttlMs of its pages (None: no limit given).
    ttl_ms: int | None = None


@dataclass(slots=True)
class _Cached:
    items: tuple[dict[str, Any], ...]
    expires_at: float | None = None


class Catalogs:
    """The resources, templates and prompts of one connection (see the module docstring)."""

    def __init__(self, *, server: str, send: SendPage, is_modern: Callable[[], bool]) -> None:
        self.server = server
        self._send = send
        self._is_modern = is_modern
        self._cache: dict[str, _Cached] = {}
        self._listings: dict[str, _CatalogListing] = {}

    def list_all(self, msg: ListAll, *, is_connected: bool) -> None:
        """Answer ``msg`` from the cache, or from a listing (started if none is in flight)."""
        reply_to = msg.reply_to
        if reply_to.done():  # the caller gave up before it reached us
            return
        method = msg.method
        if method not in CATALOG_ITEM_KEYS:
            # A caller's mistake, not the server's: no listing of that name exists.
            _fail(reply_to, ValueError(f"{method!r} is not a listing ListAll pages through"))
            return
        if not is_connected:
            _fail(reply_to, ConnectionLost(self.server, "the session is not connected"))
            return
        cached = self._cache.get(method)
        if cached is not None and (
            msg.is_continuation or cached.expires_at is None or time.monotonic() < cached.expires_at
        ):
            _complete(reply_to, list(cached.items))
            return
        listing = self._listings.get(method)
        if listing is None:
            listing = _CatalogListing(PageGuard(method), [], [])
            self._listings[method] = listing
            self._request_page(listing, None)
        listing.waiters.append(reply_to)

    def _request_page(self, listing: _CatalogListing, cursor: str | None) -> None:
        request_id = self._send(
            listing.guard.method,
            proto.list_params(cursor),
            lambda result: self._on_page(listing, result),
            lambda error: self._on_failed(listing, error),
        )
        if request_id is None:
            self._on_failed(listing, ConnectionLost(self.server, "the connection is closed"))

    def _on_page(self, listing: _CatalogListing, result: Mapping[str, Any]) -> None:
        method = listing.guard.method
        if self._listings.get(method) is not listing:
            return  # a listing that was failed or replaced meanwhile
        try:
            page = proto.parse_catalog_page(method, result)
            listing.guard.count_page()
            if listing.is_dirty:
                # list_changed arrived while we were listing: what we have may mix old and new pages.
                self._restart(listing)
                return
            listing.items.extend(page.items)
            ttl = result.get("ttlMs")
            if isinstance(ttl, int) and not isinstance(ttl, bool) and ttl >= 0:
                # spec: 2026-07-28 server/utilities/caching — each page is cached for its own ttlMs.
                listing.ttl_ms = ttl if listing.ttl_ms is None else min(listing.ttl_ms, ttl)
            if page.skipped:
                log.warning(
                    "server %s: %s page had %d entries that are not objects; skipped",
                    self.server, method, page.skipped,
                )  # fmt: skip
            if page.next_cursor is not None:
                listing.guard.follow(page.next_cursor)
                self._request_page(listing, page.next_cursor)
                return
        except ProtocolError as exc:
            self._on_failed(listing, exc)
            return
        del self._listings[method]
        items = tuple(listing.items)
        is_modern = self._is_modern()
        expires_at = (
            time.monotonic() + listing.ttl_ms / 1000 if is_modern and listing.ttl_ms is not None else None
        )
        self._cache[method] = _Cached(items, expires_at)
        for waiter in listing.waiters:
            _complete(waiter, list(items))

    def _restart(self, listing: _CatalogListing) -> None:
        method = listing.guard.method
        listing.restarts += 1
        if listing.restarts > MAX_LISTING_RESTARTS:
            error = ProtocolError(
                f"server {self.server!r}: {method} changed {listing.restarts} times while being listed"
            )
            self._on_failed(listing, error)
            return
        listing.guard = PageGuard(method)
        listing.items = []
        listing.is_dirty = False
        listing.is_stalled = False
        listing.ttl_ms = None
        self._request_page(listing, None)

    def _on_failed(self, listing: _CatalogListing, error: TroupeError) -> None:
        method = listing.guard.method
        if self._listings.get(method) is not listing:
            return
        if listing.is_dirty and isinstance(error, RemoteError):
            # The list changed while this page was asked for (or the session was replaced): the server may
            # have refused a cursor of the old list. What the waiters want is the new list.
            self._restart(listing)
            return
        del self._listings[method]
        # Nothing is cached: the next ListAll tries again.
        for waiter in listing.waiters:
            _fail(waiter, error)

    def changed(self, methods: tuple[str, ...]) -> None:
        """Their ``list_changed`` arrived: drop what is cached, and restart what is being listed."""
        for method in methods:
            self._cache.pop(method, None)
            listing = self._listings.get(method)
            if listing is not None:
                listing.is_dirty = True

    def replaced(self) -> None:
        """A new HTTP session replaced the old one: nothing cached or half-listed from the old one stands."""
        self._cache.clear()
        for listing in list(self._listings.values()):
            if listing.is_stalled:
                self._restart(listing)
            else:
                # Its request is in flight (retried or answered by the old session): restart when it answers.
                listing.is_dirty = True

    def stall(self, method: str) -> None:
        """An HTTP session expired under ``method``'s continuation: nothing of it is in flight any more."""
        listing = self._listings.get(method)
        if listing is not None:
            listing.is_stalled = True

    def fail_all(self, error: TroupeError) -> None:
        """The connection ended: every caller waiting for a listing fails with ``error``."""
        listings, self._listings = self._listings, {}
        for listing in listings.values():
            for waiter in listing.waiters:
                _fail(waiter, error)
