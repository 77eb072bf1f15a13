"""The registry's records of each server, and the small helpers around them.

Split from :mod:`mcp_troupe.actors.registry`: :class:`ServerRecord` (everything the registry knows of one
configured server), :class:`ServerPart` (its tools after policy, before naming), :class:`Route` (where a
qualified name goes), :class:`SessionPort` (a session as the built-in tools reach it), :class:`SettleWaiters`
(the callers of ``wait_ready``), and helpers that need no actor. Only the registry's thread reads and
writes the records.
"""

from __future__ import annotations

import difflib
import threading
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Any

import pykka

from mcp_troupe._futures import complete, fail
from mcp_troupe.actors.backoff import RestartIntensity
from mcp_troupe.actors.judging import CatalogJudging
from mcp_troupe.actors.lane import CallLane
from mcp_troupe.actors.loop import safe_tell
from mcp_troupe.actors.prejudging import Prejudging
from mcp_troupe.actors.session import CallRequest, ListAll
from mcp_troupe.actors.supervisor import ServerCatalog
from mcp_troupe.builtin_tools import BUILTIN_NAMES, SEARCH_TOOL
from mcp_troupe.config import ServerConfig, TroupeConfig
from mcp_troupe.errors import ServerNotReady, UnknownTool
from mcp_troupe.policy.catalog import ChecksKey, ContentChecks, ToolVerdict
from mcp_troupe.policy.gate import GateDecision, decide
from mcp_troupe.policy.names import qualify
from mcp_troupe.protocol.mcp import ToolDefinition
from mcp_troupe.types import Risk, ServerState, ServerStatus, ToolSpec

__all__ = [
    "SUPERVISOR_RESTARTS",
    "Route",
    "ServerPart",
    "ServerRecord",
    "SessionPort",
    "SettleWaiters",
    "complete_when_all",
    "not_ready",
    "same_listing",
    "unknown_tool",
]

_COUNTER_LOCK = threading.Lock()

SUPERVISOR_RESTARTS = 3
"""A server whose supervisor crashes more often than this within 60 s is ``failed`` (restart intensity)."""


@dataclass(slots=True)
class ServerPart:
    """One server's tools after policy, before naming: what the table needs to re-judge its names alone."""

    policy_rejected: dict[str, str]
    # Tool name → its first definition, and that definition's verdict, in listing order; and the names policy
    # accepted, in listing order with repeats (a repeat is a naming rejection), which go to the NameTable.
    # Two maps, not one of (definition, verdict) pairs: a pair is one more object per tool for the garbage
    # collector to walk, in every collection, for as long as the catalog stands (issue 18).
    definitions: dict[str, ToolDefinition] = field(default_factory=dict)
    verdicts: dict[str, ToolVerdict] = field(default_factory=dict)
    accepted: list[str] = field(default_factory=list)
    # Tool name → why it is withheld until an operator reviews it (it is in policy_rejected too).
    withheld: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class ServerRecord:
    """Everything the registry knows of one configured server; this actor alone reads and writes it."""

    config: ServerConfig
    status: ServerStatus
    supervisor: pykka.ActorRef[Any] | None = None
    # The newest incarnation that came up, and its session and lane while it is up (calls route there).
    incarnation: int = 0
    session: pykka.ActorRef[Any] | None = None
    session_incarnation: int = 0
    lane: CallLane | None = None
    # The catalog as it arrived; the catalog the verdicts were computed for, and each tool's verdict by name;
    # the injection checks of its definitions (reused across listings).
    catalog: ServerCatalog | None = None
    verdicts_for: ServerCatalog | None = None
    verdicts: dict[str, ToolVerdict] = field(default_factory=dict)
    content_checks: dict[ChecksKey, ContentChecks] = field(default_factory=dict)
    # The policy pass over a catalog too big to judge in one slice, while it lasts (actors/judging.py).
    judging: CatalogJudging | None = None
    # The policy pass over the pages of a listing still in progress (actors/prejudging.py): verdicts only.
    prejudging: Prejudging | None = None
    # Its tools after policy (None: no catalog), and the tools naming rejected, with why.
    part: ServerPart | None = None
    name_rejected: dict[str, str] = field(default_factory=dict)
    # The built-in capabilities ("resources", "prompts") of its last handshake. Kept while the server
    # reconnects, so the built-in tools stay listed (not ready) instead of coming and going.
    offers: frozenset[str] | None = None
    # Crashes of its supervisor (each answered with a new one), limited like OTP's restart intensity. Made
    # at the first crash: most supervisors never crash, and in a gateway every object a server keeps is
    # walked by each full garbage collection (issue 18).
    restarts: RestartIntensity | None = None

    def restart_intensity(self) -> RestartIntensity:
        """The restart intensity of its supervisor's crashes (made on first use)."""
        if self.restarts is None:
            self.restarts = RestartIntensity(SUPERVISOR_RESTARTS, 60.0)
        return self.restarts

    @property
    def is_ready(self) -> bool:
        """Whether calls can be routed to it now: it is up, and its connection has not ended meanwhile."""
        return self.session is not None and (self.lane is None or not self.lane.is_closed)


@dataclass(slots=True)
class Route:
    """Where a qualified tool name goes: its server, its name there, the fingerprint of its verdict.

    Made when a call needs one (``RegistryActor._route_of``), from the table's entry and its server's part,
    not kept per tool: a catalog of 10,000 tools would keep 10,000 of them for the collector (issue 18).
    """

    server: str
    original_name: str
    fingerprint: str = ""


@dataclass(frozen=True, slots=True)
class SessionPort:
    """A session as the built-in tools reach it (:class:`~mcp_troupe.builtin_tools.SessionPort`)."""

    session: pykka.ActorRef[Any]

    def list_all(self, method: str, reply_to: Future[Any], is_continuation: bool = False) -> bool:
        return safe_tell(self.session, ListAll(method, reply_to, is_continuation))

    def request(
        self, method: str, params: Mapping[str, Any], reply_to: Future[Any], timeout: float | None
    ) -> bool:
        return safe_tell(self.session, CallRequest(method, params, reply_to, timeout))


def not_ready(record: ServerRecord) -> ServerNotReady:
    """Why a call to ``record``'s server is refused while it is not connected: its state, last error."""
    status = record.status
    return ServerNotReady(status.name, str(status.state), status.last_error)


def same_listing(previous: ServerCatalog, new: ServerCatalog) -> bool:
    """Whether ``new`` lists what ``previous`` did (the session passes unchanged definitions on as the same
    objects, so this is an identity check per tool in the common case, done in C)."""
    return previous.tools == new.tools and previous.rejected == new.rejected


def complete_when_all(futures: list[Future[None]], reply_to: Future[None]) -> None:
    """Complete ``reply_to`` once every one of ``futures`` is done (at once when there are none)."""
    if not futures:
        reply_to.set_result(None)
        return
    remaining = [len(futures)]

    def on_done(_future: Future[None]) -> None:
        # Callbacks run on whichever thread completes each future, so the count needs a lock.
        with _COUNTER_LOCK:
            remaining[0] -= 1
            is_last = remaining[0] == 0
        if is_last and not reply_to.done():
            reply_to.set_result(None)

    for future in futures:
        future.add_done_callback(on_done)


def unknown_tool(
    name: str, rejected: Mapping[str, str], servers: Iterable[ServerRecord], table: Mapping[str, ToolSpec]
) -> UnknownTool:
    """Why ``name`` is not a tool that can be called: rejected (and why), withheld for review, not judged yet,
    or unknown, with the nearest names of ``table`` and the built-ins when it looks misspelt."""
    reason = rejected.get(name)
    if reason is not None:
        return UnknownTool(name, reason=f"rejected: {reason}")
    for record in servers:
        part = record.part
        if part is None:
            continue
        for tool_name, withheld in part.withheld.items():
            if qualify(record.config.name, tool_name) == name:
                return UnknownTool(name, reason=withheld)
        job = record.judging
        if job is not None and any(
            qualify(record.config.name, tool.name) == name for tool in job.catalog.tools[job.position :]
        ):
            return UnknownTool(
                name,
                reason=f"server {record.config.name!r} is still judging its catalog ({job.position} of "
                f"{len(job.catalog.tools)} tools judged); a tool is callable only once judged",
            )
    # A model (or an operator) that misspells a name gets the nearest names of the current table.
    known = [*table, *BUILTIN_NAMES, SEARCH_TOOL]
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    if close:
        return UnknownTool(name, reason="did you mean " + " or ".join(repr(other) for other in close) + "?")
    return UnknownTool(name)


def gate_decision(
    config: TroupeConfig,
    name: str,
    capabilities: Sequence[str],
    risk: Risk,
    *,
    approved_before: bool = True,
) -> GateDecision:
    """The capability gate and approval mode of ``config`` applied to one tool (qualified ``name``)."""
    return decide(
        tool_name=name,
        capabilities=capabilities,
        risk=risk,
        profile=config.profile,
        allow=config.allow,
        mode=config.approval_mode,
        approved_before=approved_before,
    )


class SettleWaiters:
    """The callers of ``wait_ready`` (``WhenSettled``), answered once every server has settled and its
    catalog is judged (its tool list is complete)."""

    def __init__(self, records: Sequence[ServerRecord]) -> None:
        self._waiters: list[Future[None]] = []
        # The scan's order of the servers, and where its last scan stopped (see is_all_settled).
        self._order = tuple(records)
        self._cursor = 0

    def add(self, waiter: Future[None]) -> None:
        """Wait with ``waiter``; a waiter whose caller gave up (it cancels its future) is dropped."""
        self._waiters = [w for w in self._waiters if not w.done()]
        self._waiters.append(waiter)
        self.release()

    def release(self) -> None:
        """Answer every waiter if every server has settled (asked on each status change)."""
        if not self._waiters or not self.is_all_settled():
            return
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            complete(waiter, None)

    def fail_all(self, error: BaseException) -> None:
        """Fail every waiter with ``error`` (the troupe stopped, or the registry crashed)."""
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            fail(waiter, error)

    def is_all_settled(self) -> bool:
        """Whether every server has settled and its catalog is judged.

        Asked on every status change while someone waits: a scan of every server each time made a gateway
        of N servers O(N²). The scan goes on from the server that held it up last time and stops at the
        first one still unsettled: while that one has not settled (most changes are other servers'), a
        check is one step, and after it settles the scan moves on over servers that have; only "all
        settled" is a whole pass, and that answer ends the wait.
        """
        records = self._order
        count = len(records)
        start = self._cursor
        for step in range(count):
            index = (start + step) % count
            record = records[index]
            # A server whose catalog is still being judged has not settled: its tool list is not complete.
            if not record.status.state.is_settled or record.judging is not None:
                self._cursor = index
                return False
        return True


def corrected_status(record: ServerRecord, status: ServerStatus) -> ServerStatus:
    """``status``, corrected for a connection that ended before its supervisor's report arrived.

    The lane closes on the loop the moment the connection ends, before any caller is failed and before the
    supervisor hears of it; reading it here means that a caller who saw ``ConnectionLost`` never finds the
    server listed as ready afterwards (the record catches up a message later).
    """
    if status.state is not ServerState.READY or record.is_ready or record.session is None:
        return status
    reason = record.lane.close_reason if record.lane is not None else None
    return replace(status, state=ServerState.CONNECTING, last_error=reason or status.last_error)
