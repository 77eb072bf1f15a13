"""The policy pass over a listing's pages while the listing goes on (issue 18: work off the critical path).

A first connect lists the server's tools page by page, and only the whole listing reaches the registry (as
the ``ServerUp`` of a new incarnation): judging 10,000 tools after that was most of the first connect's
time, while the registry's thread had sat idle for the hundred round trips of the listing. So the session
also hands each page of its first listing but the last that the server was slow to answer
(:data:`SLOW_PAGE_SECONDS`) to the registry as it parses it (:class:`ToolsListed`; the last page comes with
the catalog, so there is nothing left to overlap it with, and a listing of one page or of fast pages costs
no message more than before), and the
registry judges those definitions in bounded slices meanwhile (:class:`Prejudging`), **publishing nothing**:
the verdicts wait, keyed by the very definition objects of the pages. When the complete catalog arrives, the
pass over it (:class:`~mcp_troupe.actors.judging.CatalogJudging`) takes a waiting verdict for a definition
that is the same object, and judges everything else itself, so what the table holds, and when, is exactly
what it was: the whole catalog published at once after the listing, nothing of a stale or failed listing
ever visible.

- A ``list_changed`` mid-listing makes the session list again from the first page; the first page of a
  listing starts a new :class:`Prejudging`, and the verdicts of the stale pages go with the old one. (They
  could never be taken anyway: the new pages are new objects, except those the session reuses unchanged from
  the last published listing, whose verdict is the same.)
- A failed listing fails its incarnation: no catalog comes, and the next incarnation's first page (or the
  server's going down) drops what was judged.
- A listing longer than ``tools.mcp.limits.max_tools`` is rejected whole, unjudged, when it arrives, so its
  pages are not judged past that bound either: what is kept never outgrows the limit.

A verdict is a function of the definition and of the server's configuration, which is fixed for the
registry's life, so a verdict judged early is the one the catalog's pass would compute (logging included:
the registry logs a verdict when the catalog's pass takes it, as if it had computed it then).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pykka

from mcp_troupe.actors.loop import safe_tell
from mcp_troupe.policy.catalog import ChecksKey, ContentChecks, ToolVerdict
from mcp_troupe.protocol.mcp import ToolDefinition

__all__ = ["SLOW_PAGE_SECONDS", "PagesTeller", "PrejudgeMore", "Prejudging", "ToolsListed", "pages_teller"]


@dataclass(frozen=True, slots=True)
class ToolsListed:
    """One page of ``server``'s first tool listing in incarnation ``incarnation``, as the session parsed it;
    ``is_first``: the listing's first page (a listing that starts again starts a new pass)."""

    server: str
    incarnation: int
    is_first: bool
    tools: tuple[ToolDefinition, ...]


@dataclass(frozen=True, slots=True)
class PrejudgeMore:
    """The registry's note to itself: judge the next slice of the pages of ``server``'s listing, if pass
    ``generation`` is still the current one."""

    server: str
    generation: int


@dataclass(slots=True)
class Prejudging:
    """The pages of one listing received so far, and the verdicts of those judged.

    ``checks`` is the content-check cache the early verdicts were computed with (seeded from the server's
    own); the catalog's pass merges it into its own, so checks are never computed twice.
    """

    incarnation: int
    generation: int
    max_tools: int
    checks: dict[ChecksKey, ContentChecks]
    pending: deque[ToolDefinition] = field(default_factory=deque)
    verdicts: dict[str, tuple[ToolDefinition, ToolVerdict]] = field(default_factory=dict)
    received: int = 0
    is_scheduled: bool = False
    """A :class:`PrejudgeMore` for this pass is in the registry's mailbox."""
    is_frozen: bool = False
    """The catalog arrived: its own pass judges what is still pending; this one only answers :meth:`take`."""

    def add(self, tools: Sequence[ToolDefinition]) -> bool:
        """Queue a page's tools; False when the listing has passed ``max_tools`` (nothing more is queued, and
        what is pending is dropped: the catalog will be rejected whole, unjudged)."""
        self.received += len(tools)
        if self.received > self.max_tools:
            self.pending.clear()
            return False
        self.pending.extend(tools)
        return True

    def judge(
        self,
        evaluate: Callable[[ToolDefinition], ToolVerdict],
        *,
        budget: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Judge pending tools for about ``budget`` seconds (at least one, if any is pending)."""
        pending = self.pending
        verdicts = self.verdicts
        deadline = clock() + budget
        while pending and not self.is_frozen:
            tool = pending.popleft()
            # A name listed twice keeps its first definition here; the other is judged by the catalog's pass
            # (take() answers only for the very object judged).
            if tool.name not in verdicts:
                verdicts[tool.name] = (tool, evaluate(tool))
            if clock() >= deadline:
                break

    @property
    def has_pending(self) -> bool:
        """Whether tools wait to be judged (and this pass may still judge them)."""
        return bool(self.pending) and not self.is_frozen

    def take(self, tool: ToolDefinition) -> ToolVerdict | None:
        """The early verdict of this very definition object, if one was judged."""
        entry = self.verdicts.get(tool.name)
        if entry is None or entry[0] is not tool:
            return None
        return entry[1]


SLOW_PAGE_SECONDS = 0.02
"""A page is handed on only when the server took at least this long to answer it (from the request to the
answer's arrival at the session). Judging a page overlaps with nothing but the wait for the next one, and
the threads share the GIL: against a server that answers at once (the benchmark's, whose pages are encoded
before it starts) the client is busy throughout the listing, and judging meanwhile only made every page
wait for the GIL (a first connect to 10,000 tools 0-10 % slower, measured in round 7). A server that takes
milliseconds a page (a remote one, one that builds its pages) leaves that much idle time a page."""


class PagesTeller:
    """What a session of ``server``'s incarnation ``incarnation`` calls (on its own thread) with each page of
    its first listing: tells the registry :class:`ToolsListed` for a page the server was slow to answer
    (:data:`SLOW_PAGE_SECONDS`). The first page told of a listing is marked as its start, so a listing that
    starts again (the session says so with ``is_first_page``) starts a new pass in the registry."""

    __slots__ = ("_incarnation", "_is_started", "_registry", "_server", "slow")

    def __init__(
        self,
        registry: pykka.ActorRef[Any],
        server: str,
        incarnation: int,
        *,
        slow: float | None = None,
    ) -> None:
        self._registry = registry
        self._server = server
        self._incarnation = incarnation
        self._is_started = False
        self.slow = SLOW_PAGE_SECONDS if slow is None else slow
        """The threshold this teller applies (default :data:`SLOW_PAGE_SECONDS`)."""

    def __call__(self, is_first_page: bool, tools: tuple[ToolDefinition, ...], waited: float) -> None:
        if is_first_page:
            self._is_started = False
        if waited < self.slow or not tools:
            return
        safe_tell(self._registry, ToolsListed(self._server, self._incarnation, not self._is_started, tools))
        self._is_started = True


def pages_teller(registry: pykka.ActorRef[Any], server: str, incarnation: int) -> PagesTeller:
    """The :class:`PagesTeller` of one session (the supervisor's seam)."""
    return PagesTeller(registry, server, incarnation)
