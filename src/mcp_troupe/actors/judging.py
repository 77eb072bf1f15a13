"""The policy pass over one server's catalog, done a slice at a time (issue 15, item 5).

Judging a tool (bounds, schema checks, the injection scan) costs about a millisecond on real definitions, so a
catalog of 10,000 tools would hold the registry's thread for seconds if judged in one go, and every
``status()``, ``tools()`` and call of every other server would wait behind it. The registry instead judges a
slice of at most :data:`SLICE_SECONDS`, publishes the tools judged so far, and tells itself to go on; the
messages that arrived meanwhile are answered in between (pykka mailboxes are FIFO). A tool is visible and
callable only once it has been judged: the unjudged rest of the catalog is not in the table at all.

This module holds the progress of one pass; the registry owns the table and decides what a verdict means.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from mcp_troupe.actors.supervisor import ServerCatalog
from mcp_troupe.policy.catalog import ChecksKey, ContentChecks, ToolVerdict, checks_key
from mcp_troupe.protocol.mcp import ToolDefinition

__all__ = ["IDLE_STRETCH", "SLICE_SECONDS", "CatalogJudging", "JudgeMore"]

SLICE_SECONDS = 0.01
"""How long one slice of judging may hold the registry's thread before it answers other messages. Publishing
the slice's tools (table, names, search index) adds at most about as much again, so the registry answers
within some 20 ms of work while a big catalog is judged. One tool is always judged whole, so a slice can run
longer by at most one definition (whose size ``tools.mcp.limits`` bounds)."""

IDLE_STRETCH = 20
"""How many budgets one slice may go on for while nothing else waits for the registry (see
:meth:`CatalogJudging.judge`): about 0.2 s, past which the slice ends anyway, so that the judged tools are
published at least that often."""


@dataclass(frozen=True, slots=True)
class JudgeMore:
    """The registry's note to itself: judge the next slice of ``server``'s catalog, if pass ``generation`` is
    still the current one (a newer catalog, a lost server or the shutdown ends a pass)."""

    server: str
    generation: int


@dataclass(slots=True)
class CatalogJudging:
    """The verdicts computed so far for ``catalog``: its first ``position`` tools are judged (listing order).

    ``previous`` and ``previous_tools`` are the last complete pass (a definition passed on as the same object
    keeps its verdict); ``checks`` the content checks of definitions seen, reused by fingerprint, of which
    ``used`` are kept when the pass completes.
    """

    catalog: ServerCatalog
    generation: int
    previous: Mapping[str, ToolVerdict]
    previous_tools: Mapping[str, ToolDefinition]
    checks: dict[ChecksKey, ContentChecks]
    position: int = 0
    verdicts: dict[str, ToolVerdict] = field(default_factory=dict)
    used: set[ChecksKey] = field(default_factory=set)

    @property
    def is_done(self) -> bool:
        """Whether every tool of the catalog has its verdict."""
        return self.position >= len(self.catalog.tools)

    @property
    def pending(self) -> int:
        """How many tools of the catalog are not judged yet."""
        return len(self.catalog.tools) - self.position

    def judge(
        self,
        evaluate: Callable[[ToolDefinition], ToolVerdict],
        *,
        budget: float = SLICE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        max_tools: int | None = None,
        is_idle: Callable[[], bool] | None = None,
    ) -> tuple[ToolDefinition, ...]:
        """Judge the next tools for about ``budget`` seconds (at least one tool, at most ``max_tools``).

        When ``budget`` is spent and ``is_idle()`` says that no message waits, the slice goes on for another
        ``budget``, up to :data:`IDLE_STRETCH` budgets in all: ending a slice costs a publication of its
        tools (about a millisecond each, issue 18), which only buys something when someone waits for an
        answer meanwhile.

        Returns the tools judged in this slice, in listing order; the verdict that holds for each is
        ``verdicts[tool.name]`` (a name listed twice keeps its first definition's verdict, as the one-pass
        judging did). Not a list of (tool, verdict) pairs: a slice can run for many collections of the
        garbage collector, which would walk (and promote) a pair per tool meanwhile (issue 18).
        """
        tools = self.catalog.tools
        first = self.position
        started = clock()
        deadline = started + budget
        while self.position < len(tools):
            tool = tools[self.position]
            self.position += 1
            verdict = self.previous.get(tool.name)
            if verdict is None or self.previous_tools.get(tool.name) is not tool:
                verdict = evaluate(tool)
            self.used.add(checks_key(verdict.fingerprint, tool.title))
            self.verdicts.setdefault(tool.name, verdict)
            if max_tools is not None and self.position - first >= max_tools:
                break
            now = clock()
            if now >= deadline:
                if is_idle is None or now - started >= budget * IDLE_STRETCH or not is_idle():
                    break
                deadline = now + budget
        return tools[first : self.position]

    def kept_checks(self) -> dict[ChecksKey, ContentChecks]:
        """The content checks of the definitions this catalog holds (those of vanished tools are dropped, so
        the cache never outgrows the server's tool list)."""
        return {key: value for key, value in self.checks.items() if key in self.used}
