"""ServerSupervisor: one per configured server. Owns the server's state, attempts, incarnation, and the refs
of
its current children (a session and a transport, brand new for every incarnation) and, for an HTTP server
with ``auth: oauth``, of its OAuthFlow (started once, living across incarnations: credentials outlive
connections).

States: connecting → ready; connecting → backoff → connecting … → failed (after ``max_attempts`` retries);
connecting → needs_login (the server wants an OAuth login and nobody can be asked: no retry, since none
could help — ``troupe login NAME`` then a restart); ready → backoff (runtime loss) → connecting …; any →
stopped (operator stop or shutdown); skipped (never connected, e.g. disabled by policy). A restart closes
the circuit from any state.

Every report from a child carries its incarnation; reports from an older incarnation are dropped (DESIGN §2
rule 3). The old transport is fully closed (process group gone) before the next incarnation starts.
"""

from __future__ import annotations

import functools
import logging
import random
import time
from collections.abc import Callable, Mapping, Sized
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, assert_never

import pykka

from mcp_troupe._futures import complete
from mcp_troupe.actors.backoff import STABLE_PERIOD, GiveUp, RestartIntensity, Retries, Retry
from mcp_troupe.actors.lane import CallLane
from mcp_troupe.actors.loop import Runtime, safe_tell
from mcp_troupe.actors.oauth_events import AuthStateChanged
from mcp_troupe.actors.prejudging import pages_teller
from mcp_troupe.actors.session import (
    CatalogChanged,
    Close,
    SessionActor,
    SessionFailed,
    SessionLost,
    SessionReady,
    SessionRenewed,
)
from mcp_troupe.actors.supervision import ChildFailed, Supervised
from mcp_troupe.actors.transport import CloseTransport, Open
from mcp_troupe.config import ReconnectPolicy, ServerConfig
from mcp_troupe.errors import ConnectFailed, NeedsLogin, TroupeError, UnsupportedProtocolVersion
from mcp_troupe.protocol.mcp import InitializeResult
from mcp_troupe.protocol.versions import REVISIONS, Era
from mcp_troupe.types import ServerState, ServerStatus

if TYPE_CHECKING:
    from mcp_troupe.actors.oauth import BearerTokens

__all__ = [
    "STABLE_PERIOD",
    "AuthStateChanged",
    "RestartServer",
    "ServerCatalog",
    "ServerDown",
    "ServerSupervisor",
    "ServerUp",
    "StartServer",
    "StopServer",
]

log = logging.getLogger("mcp_troupe.supervisor")

# Grace periods when closing a transport: generous on an orderly stop, short when tearing down a failure.
STOP_GRACE = 2.0
FAILURE_GRACE = 0.5


# ---- commands ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartServer:
    """Connect (the first time)."""


@dataclass(frozen=True, slots=True)
class RestartServer:
    """Tear down the current children and connect again at once, closing an open circuit."""

    reply_to: Future[None] = field(default_factory=Future)


@dataclass(frozen=True, slots=True)
class StopServer:
    """Close the connection and stay stopped; ``reply_to`` completes once the transport is closed.

    ``accepted``, when given, completes as soon as the close has been handed to the children (before it
    is done): how the troupe's close paces its wave of stops (``actors/stop_wave.py``).
    """

    reply_to: Future[None] = field(default_factory=Future)
    accepted: Future[None] | None = None


@dataclass(frozen=True, slots=True)
class _Connect:
    generation: int


@dataclass(frozen=True, slots=True)
class _ConnectDeadline:
    incarnation: int


@dataclass(frozen=True, slots=True)
class _TransportClosed:
    incarnation: int
    stderr_tail: tuple[str, ...]


SupervisorMessage = (
    StartServer
    | RestartServer
    | StopServer
    | _Connect
    | _ConnectDeadline
    | _TransportClosed
    | SessionReady
    | CatalogChanged
    | SessionFailed
    | SessionLost
    | SessionRenewed
    | AuthStateChanged
    | ChildFailed
)


# ---- reports to the registry -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ServerUp:
    """A new incarnation is ready: route calls to ``session``; its full catalog is in ``catalog``.

    ``info`` is the server's answer to ``initialize``: its capabilities say whether it offers resources and
    prompts (``None`` only from code that has no handshake to report).
    """

    server: str
    incarnation: int
    session: pykka.ActorRef[Any]
    catalog: ServerCatalog
    info: InitializeResult | None = None
    # The connection's fast path for tools/call (stdio), open; None when calls go through the session.
    lane: CallLane | None = None
    # The supervisor's status snapshot at ready, applied right after the catalog (as a StatusChanged that
    # followed would be): one registry message a connect instead of two (issue 18). None: none came with it.
    status: ServerStatus | None = None


@dataclass(frozen=True, slots=True)
class ServerCatalog:
    """The server's tool listing as it arrived (before policy)."""

    server: str
    incarnation: int
    tools: tuple[Any, ...]
    rejected: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class ServerDown:
    """The server can take no calls; ``unregister`` removes its tools from the table too."""

    server: str
    incarnation: int
    unregister: bool


@dataclass(frozen=True, slots=True)
class StatusChanged:
    """A fresh status snapshot."""

    status: ServerStatus


class ServerSupervisor(Supervised, pykka.ThreadingActor):
    """Keeps one server connected."""

    use_daemon_thread = True

    def __init__(
        self,
        *,
        config: ServerConfig,
        reconnect: ReconnectPolicy,
        registry: pykka.ActorRef[Any],
        runtime: Runtime,
        incarnation: int = 0,
        last_error: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        uniform: Callable[[float, float], float] = random.uniform,
    ) -> None:
        super().__init__()
        self.config = config
        self.reconnect = reconnect
        self.registry = registry
        self.parent = registry
        self.server = config.name
        self.runtime = runtime
        self._clock = clock

        self.state = ServerState.CONNECTING
        # A supervisor restarted by the registry goes on from its predecessor's incarnation, so reports of
        # the dead one's children stay stale and the registry's incarnation order holds.
        self.incarnation = incarnation
        self._retries = Retries(
            initial_delay=reconnect.initial_delay,
            max_delay=reconnect.max_delay,
            max_attempts=reconnect.max_attempts,
            uniform=uniform,
        )
        # Crashes of this server's children (a bug in a handler), limited like OTP's restart intensity.
        self._crashes = RestartIntensity()
        self.last_error: str | None = last_error
        self.stderr_tail: tuple[str, ...] = ()
        self._session: pykka.ActorRef[Any] | None = None
        self._transport: pykka.ActorRef[Any] | None = None
        self._pid: int | None = None
        self._session_id: str | None = None
        self._protocol_version: str | None = None
        self._era_hint: Era | None = None
        self._server_info: dict[str, Any] | None = None
        # Incarnations whose transports are still closing; the next one waits for them.
        self._closing: set[int] = set()
        self._connect_when_closed = False
        # Bumped whenever a scheduled _Connect must no longer fire (restart, stop).
        self._generation = 0
        self._stop_waiters: list[Future[None]] = []
        # OAuth (HTTP with auth: oauth): the flow actor and its loop side, shared by every incarnation.
        self._oauth: pykka.ActorRef[Any] | None = None
        self._bearer_tokens: BearerTokens | None = None
        self._auth: Mapping[str, Any] | None = None

    # ---- dispatch ----------------------------------------------------------------------------------------

    def on_receive(self, message: Any) -> None:
        msg: SupervisorMessage = message
        match msg:
            case StartServer():
                self._connect_now()
            case _Connect(generation=generation):
                if generation == self._generation and self.state is ServerState.BACKOFF:
                    self._connect_now()
            case SessionReady():
                if msg.incarnation == self.incarnation and self.state is ServerState.CONNECTING:
                    self._on_ready(msg)
            case CatalogChanged():
                if msg.incarnation == self.incarnation and self.state is ServerState.READY:
                    self._tell_registry(
                        ServerCatalog(self.config.name, msg.incarnation, msg.tools, msg.rejected)
                    )
                    self.runtime.emit("changed", self.config.name, msg.incarnation, _tool_count(msg.tools))
            case SessionFailed():
                if msg.incarnation == self.incarnation and self.state is ServerState.CONNECTING:
                    self._on_connect_failed(msg.error)
            case _ConnectDeadline():
                if msg.incarnation == self.incarnation and self.state is ServerState.CONNECTING:
                    timeout = self.config.connect_timeout
                    self._on_connect_failed(
                        ConnectFailed(
                            self.config.name,
                            f"no ready connection within connect_timeout ({timeout:g} s)",
                        )
                    )
            case SessionRenewed():
                if msg.incarnation == self.incarnation and self.state is ServerState.READY:
                    self._session_id = msg.session_id
                    self._publish_status()
            case SessionLost():
                if msg.incarnation == self.incarnation and self.state is ServerState.READY:
                    self._on_lost(msg)
            case _TransportClosed(incarnation=incarnation, stderr_tail=stderr_tail):
                self._on_transport_closed(incarnation, stderr_tail)
            case RestartServer():
                self._on_restart(msg.reply_to)
            case StopServer():
                try:
                    self._on_stop_requested(msg.reply_to)
                finally:
                    # Even if the stop failed (a crash follows): the wave of stops must go on.
                    if msg.accepted is not None:
                        complete(msg.accepted, None)
            case AuthStateChanged(description=description):
                self._auth = self._auth_in_state(description)
                self._publish_status()
            case ChildFailed():
                self._on_child_failed(msg)
            case _:
                assert_never(msg)

    def on_start(self) -> None:
        if self.config.transport == "http" and self.config.auth == "oauth":
            self._start_oauth_flow()
            # The login's state is news to the registry. Without OAuth there is none: the registry starts
            # every record as CONNECTING and tells StartServer right after starting us, whose CONNECTING
            # status (with its incarnation) follows at once (one registry message less a connect).
            self._publish_status()
        elif self.incarnation or self.last_error is not None:
            self._publish_status()  # a restarted supervisor: its carried state replaces the crashed one's

    def on_stop(self) -> None:
        self._teardown("the supervisor stopped", grace=0.0)
        oauth, self._oauth = self._oauth, None
        if oauth is not None:
            try:
                oauth.stop(block=False)
            except pykka.ActorDeadError:
                pass

    def on_crash(self, error: BaseException) -> None:
        """A bug in a handler: the children go with it (the registry starts a new supervisor)."""
        self.on_stop()

    def _start_oauth_flow(self) -> None:
        from mcp_troupe.actors.oauth import start_oauth_flow

        ref, self._bearer_tokens = start_oauth_flow(
            self.config, supervisor=self.actor_ref, runtime=self.runtime
        )
        self._oauth = self.runtime.track(ref)

    # ---- supervision -------------------------------------------------------------------------------------

    def _on_transport_closed(self, incarnation: int, stderr_tail: tuple[str, ...]) -> None:
        self._closing.discard(incarnation)
        if stderr_tail and self.state is not ServerState.READY:
            # The last words of a server that failed: shown in status next to last_error.
            self.stderr_tail = stderr_tail
            self._publish_status()
        if not self._closing:
            if self._connect_when_closed:
                self._connect_when_closed = False
                self._start_incarnation()
            self._release_stop_waiters()

    def _on_child_failed(self, msg: ChildFailed) -> None:
        """A child crashed: handled like a lost connection, within the restart intensity."""
        if msg.incarnation in self._closing and msg.role.endswith("Transport"):
            # It crashed while closing (its on_crash killed what it held): closed, as far as we care.
            self._on_transport_closed(msg.incarnation, ())
            return
        urn = msg.child.actor_urn
        is_oauth = self._oauth is not None and urn == self._oauth.actor_urn
        is_current = msg.incarnation == self.incarnation and any(
            child is not None and child.actor_urn == urn for child in (self._session, self._transport)
        )
        if not is_oauth and not is_current:
            return  # a child of an incarnation already torn down: its crash changes nothing
        crashed = self.incarnation
        if not self._crashes.allow(self._clock()):
            self.last_error = f"{msg.reason}; gave up after {self._crashes.describe()}"
            log.error("server %s: %s", self.config.name, self.last_error)
            self._generation += 1  # no scheduled retry may fire now
            self._teardown(msg.reason, grace=FAILURE_GRACE)
            self._give_up()
            self.runtime.emit("crashed", self.config.name, crashed, msg.reason)
            return
        if self._transport is not None and self._transport.actor_urn == urn:
            # The transport itself crashed: its on_crash killed what it held before it reported, and a close
            # sent to it now may never be answered (it would hold the next incarnation back for good).
            self._transport = None
        if is_oauth:
            # The tokens' loop side belonged to the dead flow: a new flow, and a connection that uses it.
            self._oauth = None
            self._start_oauth_flow()
        match self.state:
            case ServerState.READY:
                self._on_lost(SessionLost(self.incarnation, msg.reason))
            case ServerState.CONNECTING:
                self._on_connect_failed(ConnectFailed(self.config.name, msg.reason))
            case _:
                pass  # backing off, failed, stopped...: nothing is connected to lose
        # Emitted last: whoever sees the event and asks for status finds the registry already told.
        self.runtime.emit("crashed", self.config.name, crashed, msg.reason)

    # ---- connecting ---------------------------------------------------------------------------------------

    def _connect_now(self) -> None:
        self.state = ServerState.CONNECTING
        if self._closing:
            self._connect_when_closed = True
            self._publish_status()
        else:
            # _start_incarnation publishes the CONNECTING status with its new incarnation: one status
            # message to the registry, not two a connect (issue 18: per-server connect cost).
            self._start_incarnation()

    def _start_incarnation(self) -> None:
        self.incarnation += 1
        incarnation = self.incarnation
        config = self.config
        session = self.runtime.track(
            SessionActor.start(
                server=config.name,
                incarnation=incarnation,
                supervisor=self.actor_ref,
                runtime=self.runtime,
                call_timeout=config.timeout,
                handshake_timeout=config.connect_timeout,
                protocol=config.protocol,
                # spec: 2026-07-28 basic/versioning — the era is cached per server and tried first next
                # time; a failed assumption falls back as a fresh probe would.
                era_hint=self._era_hint,
                # The first listing's pages go to the registry as they arrive, judged meanwhile (issue 18).
                on_first_pages=pages_teller(self.registry, config.name, incarnation),
            )
        )
        on_deadline = functools.partial(safe_tell, self.actor_ref, _ConnectDeadline(incarnation))
        transport = self.runtime.track(self._start_transport(incarnation, session, on_deadline))
        self._session = session
        self._transport = transport
        self._pid = None
        self._session_id = None
        log.info(
            "server %s: connecting (incarnation %d, attempt %d)",
            config.name, incarnation, self._retries.attempts + 1,
        )  # fmt: skip
        if config.transport != "stdio":
            # connect_timeout bounds the whole flow: spawn/TCP, initialize, and the first full tool listing.
            # (A stdio transport's open task arms it on the loop: see _start_transport.)
            self.runtime.loop.call_later(config.connect_timeout, on_deadline)
            # A stdio transport opens itself as it starts (open_at_start); the session needs no Connect
            # either way: the transport's Opened reaches it (one thread wake-up less a connect, issue 18).
            transport.tell(Open())
        self._publish_status()

    def _start_transport(
        self, incarnation: int, session: pykka.ActorRef[Any], on_deadline: Callable[[], object]
    ) -> pykka.ActorRef[Any]:
        if self.config.transport == "stdio":
            from mcp_troupe.actors.stdio import StdioTransport

            return StdioTransport.start(
                config=self.config,
                incarnation=incarnation,
                session=session,
                runtime=self.runtime,
                max_frame=self.config.max_frame_bytes,
                parent=self.actor_ref,
                open_at_start=True,
                # connect_timeout bounds the whole flow: spawn, initialize, and the first full tool listing.
                # The transport's open task arms it, already on the loop: one loop post less a connect
                # (issue 18). It counts from the spawn, after the transport thread's start (microseconds).
                deadline=(self.config.connect_timeout, on_deadline),
            )
        from mcp_troupe.actors.http import HttpTransport

        return HttpTransport.start(
            config=self.config,
            incarnation=incarnation,
            session=session,
            runtime=self.runtime,
            max_frame=self.config.max_frame_bytes,
            auth=self._bearer_tokens,
            parent=self.actor_ref,
        )

    def _on_ready(self, msg: SessionReady) -> None:
        self.state = ServerState.READY
        self._retries.connected(self._clock())
        self.last_error = None
        self._pid = msg.pid
        self._session_id = msg.session_id
        self._protocol_version = msg.info.protocol_version
        revision = REVISIONS.get(msg.info.protocol_version)
        self._era_hint = revision.era if revision is not None else None
        self._server_info = dict(msg.info.server_info)
        log.info(
            "server %s: ready (incarnation %d, protocol %s, %d tools)",
            self.config.name, msg.incarnation, msg.info.protocol_version, len(msg.tools),
        )  # fmt: skip
        self._tell_registry(
            ServerUp(
                self.config.name,
                msg.incarnation,
                msg.session,
                ServerCatalog(self.config.name, msg.incarnation, msg.tools, msg.rejected),
                msg.info,
                msg.lane,
                self.status(),
            )
        )
        self.runtime.emit("connected", self.config.name, msg.incarnation, _tool_count(msg.tools))

    def _on_connect_failed(self, error: TroupeError) -> None:
        if isinstance(error, NeedsLogin):
            self._on_needs_login(error)
            return
        if isinstance(error, UnsupportedProtocolVersion):
            # No retry can produce a shared version: fail at once, naming what both sides offered.
            self.last_error = str(error)
            log.warning("server %s: %s", self.config.name, self.last_error)
            self._teardown(str(error), grace=FAILURE_GRACE)
            self._fail_now()
            return
        # The stderr tail is kept (and shown) on its own; last_error is the one-line reason.
        if isinstance(error, ConnectFailed):
            self.last_error = f"connect failed: {error.reason}"
            if error.stderr_tail:
                self.stderr_tail = error.stderr_tail
        else:
            self.last_error = str(error)
        self._teardown(str(error), grace=FAILURE_GRACE)
        self._schedule_retry(self.last_error)

    def _on_lost(self, msg: SessionLost) -> None:
        self.last_error = msg.reason
        if msg.stderr_tail:
            self.stderr_tail = msg.stderr_tail
        self._retries.lost(self._clock())
        self._tell_registry(ServerDown(self.config.name, msg.incarnation, unregister=False))
        self.runtime.emit("lost", self.config.name, msg.incarnation, msg.reason)
        self._teardown(msg.reason, grace=FAILURE_GRACE)
        self._schedule_retry(f"connection lost: {msg.reason}")

    def _on_needs_login(self, error: NeedsLogin) -> None:
        # Settled, like failed, but without the retries: no backoff can produce a login. `troupe login NAME`
        # stores credentials; a restart (`troupe ctl restart NAME`, Troupe.restart) then connects with them.
        self.last_error = str(error)
        log.warning("server %s: %s", self.config.name, self.last_error)
        self._teardown(str(error), grace=FAILURE_GRACE)
        self._retries.stopped()
        self.state = ServerState.NEEDS_LOGIN
        self._auth = self._auth_in_state(self._auth or {"state": "logged_out"})
        self._tell_registry(ServerDown(self.config.name, self.incarnation, unregister=True))
        self._publish_status()
        self.runtime.emit("needs_login", self.config.name, self.incarnation, self.last_error)

    def _auth_in_state(self, description: Mapping[str, Any]) -> Mapping[str, Any]:
        # The session's NeedsLogin and the OAuthFlow's report of it arrive in either order: while the server
        # needs a login, a report of no usable credentials says so too, so no snapshot shows "logged_out".
        if self.state is ServerState.NEEDS_LOGIN and description.get("state") in ("logged_out", "expired"):
            return {**description, "state": "needs_login"}
        return description

    def _schedule_retry(self, what: str) -> None:
        """Retry after a failure (``what`` happened), or give up: one log line says which, and why."""
        # attempts: failed connection attempts in a row; max_attempts: retries allowed after the first.
        decision = self._retries.failed()
        match decision:
            case GiveUp(attempts=attempts):
                # One line for the last failure: its reason is in it (it used to follow a warning saying
                # the same).
                log.error(
                    "server %s: failed after %d failed attempt%s; restart it to try again (last error: %s)",
                    self.config.name, attempts, "" if attempts == 1 else "s", what,
                )  # fmt: skip
                self._give_up()
            case Retry(delay=delay, attempt=attempt):
                self.state = ServerState.BACKOFF
                self._publish_status()
                # Each retry's line counts, so that six failures in a row read as a countdown, not six times
                # the same line.
                log.warning(
                    "server %s: %s; retry %d of %d in %.1f s",
                    self.config.name, what, attempt, self._retries.max_attempts, delay,
                )  # fmt: skip
                self.runtime.loop.call_later(delay, safe_tell, self.actor_ref, _Connect(self._generation))
            case _:
                assert_never(decision)

    def _give_up(self) -> None:
        """Open the circuit: state failed, the tools leave the table, until an operator restart."""
        self.state = ServerState.FAILED
        self._tell_registry(ServerDown(self.config.name, self.incarnation, unregister=True))
        self._publish_status()
        self.runtime.emit("failed", self.config.name, self.incarnation, self.last_error or "")

    def _fail_now(self) -> None:
        """Settle in ``failed`` without retrying (an error no retry can cure)."""
        self._ready_since = None
        self.state = ServerState.FAILED
        self._tell_registry(ServerDown(self.config.name, self.incarnation, unregister=True))
        self._publish_status()
        self.runtime.emit("failed", self.config.name, self.incarnation, self.last_error or "")

    # ---- operator actions ---------------------------------------------------------------------------------

    def _on_restart(self, reply_to: Future[None]) -> None:
        self._generation += 1
        was_ready = self.state is ServerState.READY
        if was_ready or self._session is not None:
            self._tell_registry(ServerDown(self.config.name, self.incarnation, unregister=False))
        self._teardown("restarted by the operator", grace=STOP_GRACE)
        self._retries.reset()
        self.last_error = None
        self.runtime.emit("restarted", self.config.name, self.incarnation)
        self._connect_now()
        reply_to.set_result(None)

    def _on_stop_requested(self, reply_to: Future[None]) -> None:
        self._generation += 1
        self._tell_registry(ServerDown(self.config.name, self.incarnation, unregister=True))
        self._teardown("stopped", grace=STOP_GRACE)
        self._connect_when_closed = False
        self.state = ServerState.STOPPED
        self._retries.stopped()
        self._publish_status()
        self.runtime.emit("stopped", self.config.name, self.incarnation)
        self._stop_waiters.append(reply_to)
        if not self._closing:
            self._release_stop_waiters()

    def _release_stop_waiters(self) -> None:
        waiters, self._stop_waiters = self._stop_waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    # ---- children ------------------------------------------------------------------------------------------

    def _teardown(self, reason: str, *, grace: float) -> None:
        session, transport = self._session, self._transport
        self._session = self._transport = None
        if session is not None:
            safe_tell(session, Close(reason))
        if transport is not None:
            incarnation = self.incarnation
            closed: Future[tuple[str, ...]] = Future()
            self._closing.add(incarnation)
            self_ref = self.actor_ref

            def on_closed(future: Future[tuple[str, ...]]) -> None:
                tail = future.result() if not future.cancelled() and future.exception() is None else ()
                safe_tell(self_ref, _TransportClosed(incarnation, tail))

            closed.add_done_callback(on_closed)
            if not safe_tell(transport, CloseTransport(closed, grace)):
                self._closing.discard(incarnation)

    # ---- reporting -----------------------------------------------------------------------------------------

    def _tell_registry(self, message: object) -> None:
        safe_tell(self.registry, message)

    def _publish_status(self) -> None:
        self._tell_registry(StatusChanged(self.status()))

    def status(self) -> ServerStatus:
        """A snapshot of this server's state."""
        return ServerStatus(
            name=self.config.name,
            transport=self.config.transport,
            state=self.state,
            incarnation=self.incarnation,
            attempts=self._retries.attempts,
            last_error=self.last_error,
            stderr_tail=self.stderr_tail,
            pid=self._pid if self.state is ServerState.READY else None,
            session_id=self._session_id if self.state is ServerState.READY else None,
            protocol_version=self._protocol_version,
            server_info=self._server_info,
            ready_since=self._retries.ready_since if self.state is ServerState.READY else None,
            auth=self._auth,
        )


def _tool_count(tools: Sized) -> str:
    """``1 tool`` / ``9 tools``: the detail of a connected or changed event, as ``troupe run`` prints it."""
    return "1 tool" if len(tools) == 1 else f"{len(tools)} tools"
