"""The host's callbacks: elicitation, sampling, roots, progress and server logs, for every server of a troupe.

An MCP server may ask its client for things only the host application has: the user (a form, or a URL to
visit: *elicitation*), the host's model (*sampling*) and the directories it may work in (*roots*). It also
reports *progress* on long calls and sends *log* messages. The agent installs a handler for each on the
facade (``Troupe(config, elicitation_handler=..., sampling_handler=..., roots=..., log_handler=...,
progress_handler=...)``); :class:`Host` holds them and is the one place that answers a server.

How a request reaches it does not matter here. In the legacy era (≤ 2025-11-25) the server sends a JSON-RPC
request and the session spawns :meth:`Host.fulfil` as a task on the I/O loop; in the modern era (2026-07-28)
the same ``(method, params)`` pairs come as ``inputRequests`` of an ``input_required`` result and the
connection core calls the same coroutine for each before it retries. Either way:

- nothing is declared without a handler (:meth:`Host.capabilities`), and a request for an undeclared
  capability is refused with -32601 (the default mcp-troupe always had);
- an async handler is awaited on the loop; a sync one runs in a worker thread (it may block on a terminal
  prompt). Both are bounded by the server's call ``timeout``: a slow or failing handler fails *that* request
  with a clear JSON-RPC error, and never blocks the loop or another server;
- form answers are checked against the server's requested schema before they are sent, with the schema's
  defaults applied to fields the user left out (SEP-1034) — see :mod:`mcp_troupe.protocol.callbacks`;
- URL mode never opens anything: the handler gets the URL and its origin and decides;
- sampling from a server that is not ``trust_level: trusted`` goes through the approver first, like the first
  call of an exec tool (it spends the host's model and feeds it the server's text).

Notifications (progress, logs) are delivered in order per server by one drain task per server on the loop, so
that a slow progress handler of one server delays nothing else. Progress also appears in ``Troupe.events()``
(kind ``progress``), and every server log line goes to the Python logger ``mcp_troupe.server.<name>``.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import math
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

import anyio
import anyio.to_thread

from mcp_troupe._loop_watch import LoopStallWatch
from mcp_troupe.approval import ApprovalRequest, Approver, ask
from mcp_troupe.config import ServerConfig, TroupeConfig
from mcp_troupe.policy.gate import decide
from mcp_troupe.protocol import callbacks as cb
from mcp_troupe.protocol import jsonrpc
from mcp_troupe.protocol.callbacks import CallbackError
from mcp_troupe.protocol.tasks import EXTENSION as TASKS_EXTENSION
from mcp_troupe.types import Risk

if TYPE_CHECKING:
    from mcp_troupe.actors.loop import IoLoop

__all__ = [
    "Completion",
    "ElicitationHandler",
    "ElicitationRequest",
    "ElicitationResult",
    "Host",
    "LogEntry",
    "LogHandler",
    "ProgressEvent",
    "ProgressHandler",
    "Roots",
    "SamplingHandler",
    "SamplingRequest",
    "SamplingResult",
    "Subscription",
]

log = logging.getLogger("mcp_troupe.host")

# Notifications waiting for one server's handlers; beyond this the oldest are dropped (with a warning): a
# server that floods progress must not grow our memory without bound.
MAX_QUEUED_NOTIFICATIONS = 1000
# How often a callable ``roots`` is asked again, to notice a change (legacy roots/list_changed).
ROOTS_POLL_INTERVAL = 2.0
# Worker threads for sync handlers, apart from anyio's default pool (the approver's): a handler stuck for
# good on one server still leaves threads for everyone else.
HANDLER_THREADS = 16
# Task ids of calls remembered for CallHandle.task_id (the oldest are forgotten first).
MAX_REMEMBERED_TASKS = 10_000
# A log message's data is cut to this many characters before it reaches the Python logger.
MAX_LOG_CHARS = 4000


# ---- what the handlers receive ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ElicitationRequest:
    """A server asks the user for something: a form (``mode == "form"``) or a visit to a URL (``"url"``).

    Answer with ``{"action": "accept", "content": {...}}`` (form), ``{"action": "accept"}`` (url: the user
    consented to go there), ``{"action": "decline"}`` or ``{"action": "cancel"}``, or an
    :class:`ElicitationResult`. Form content is checked against ``requested_schema`` before it is sent;
    fields left out take their ``defaults``.
    """

    server: str
    message: str
    """The server's text; untrusted (show it as the server's words, not the host's)."""
    mode: Literal["form", "url"]
    requested_schema: Mapping[str, Any] | None = None
    """Form mode: a flat object schema of primitive fields (already checked)."""
    defaults: Mapping[str, Any] = field(default_factory=dict)
    """Form mode: the schema's default for every field that has one (SEP-1034), to pre-fill the form."""
    url: str | None = None
    """URL mode: the URL the server wants the user to open. Never opened by mcp-troupe."""
    elicitation_id: str | None = None

    @property
    def origin(self) -> str | None:
        """URL mode: ``scheme://host[:port]`` of :attr:`url`, the part the user must check first."""
        return cb.url_origin(self.url) if self.url is not None else None

    def describe(self) -> str:
        """A few lines for a terminal prompt."""
        lines = [f"server {self.server!r} asks: {cb.printable(self.message, 500)}"]
        if self.mode == "url" and self.url is not None:
            lines.append(f"  it wants you to open a page at {self.origin}")
            lines.append(f"  full URL: {cb.printable(self.url, 2000)}")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class ElicitationResult:
    """A typed answer to an :class:`ElicitationRequest` (a plain dict works as well)."""

    action: Literal["accept", "decline", "cancel"]
    content: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The wire form (``ElicitResult``)."""
        result: dict[str, Any] = {"action": self.action}
        if self.content is not None:
            result["content"] = dict(self.content)
        return result


@dataclass(frozen=True, slots=True)
class SamplingRequest:
    """A server asks the host's model for one message (``sampling/createMessage``).

    Answer with a ``CreateMessageResult`` dict (``{"role": "assistant", "content": {"type": "text", "text":
    ...}, "model": ..., "stopReason": ...}``) or a :class:`SamplingResult`. Everything here is the server's
    text: a model that reads it reads an untrusted party's prompt.
    """

    server: str
    messages: tuple[Mapping[str, Any], ...]
    """``SamplingMessage`` wire dicts (``role`` and ``content``)."""
    max_tokens: int
    system_prompt: str | None = None
    model_preferences: Mapping[str, Any] | None = None
    tools: tuple[Mapping[str, Any], ...] = ()
    """2025-11-25 sampling with tools: ``Tool`` definitions the model may call."""
    tool_choice: Mapping[str, Any] | None = None
    temperature: float | None = None
    stop_sequences: tuple[str, ...] = ()
    metadata: Mapping[str, Any] | None = None
    params: Mapping[str, Any] = field(default_factory=dict, repr=False)
    """The request's params as they came."""


@dataclass(frozen=True, slots=True)
class SamplingResult:
    """A typed answer to a :class:`SamplingRequest`: one text message from ``model``."""

    text: str
    model: str
    stop_reason: str | None = "endTurn"

    def to_dict(self) -> dict[str, Any]:
        """The wire form (``CreateMessageResult``)."""
        result: dict[str, Any] = {
            "role": "assistant",
            "content": {"type": "text", "text": self.text},
            "model": self.model,
        }
        if self.stop_reason is not None:
            result["stopReason"] = self.stop_reason
        return result


@dataclass(frozen=True, slots=True)
class ProgressEvent:
    """A server reported progress on a call (``notifications/progress``)."""

    server: str
    tool: str
    """The qualified tool name the agent called (the server's own name for calls made elsewhere)."""
    progress: float
    total: float | None = None
    message: str | None = None

    @property
    def fraction(self) -> float | None:
        """``progress / total`` in [0, 1] when the total is known."""
        if self.total is None or self.total <= 0:
            return None
        return max(0.0, min(1.0, self.progress / self.total))


@dataclass(frozen=True, slots=True)
class LogEntry:
    """A server's log message (``notifications/message``)."""

    server: str
    level: str
    """``debug`` … ``emergency`` (the syslog levels)."""
    logger: str | None
    data: Any


@dataclass(frozen=True, slots=True)
class Completion:
    """Suggested values for one argument (``Troupe.complete``): at most 100, best first."""

    values: tuple[str, ...]
    total: int | None = None
    has_more: bool = False


class Subscription:
    """A resource subscription (``Troupe.subscribe``); :meth:`cancel` ends it."""

    def __init__(self, host: Host, server: str, uri: str, callback: Callable[[str], Any]) -> None:
        self._host = host
        self.server = server
        self.uri = uri
        self.callback = callback

    def cancel(self) -> None:
        """Stop calling the callback; the last subscriber of a URI unsubscribes it on the server."""
        self._host.unsubscribe(self)


ElicitationHandler: TypeAlias = Callable[[ElicitationRequest], Any]
"""Takes an :class:`ElicitationRequest`, returns (or returns an awaitable of) a dict or ElicitationResult."""
SamplingHandler: TypeAlias = Callable[[SamplingRequest], Any]
"""Takes a :class:`SamplingRequest`, returns (or returns an awaitable of) a dict or SamplingResult."""
ProgressHandler: TypeAlias = Callable[[ProgressEvent], Any]
LogHandler: TypeAlias = Callable[[LogEntry], Any]
RootEntry: TypeAlias = "str | Path | Mapping[str, Any]"
Roots: TypeAlias = "Iterable[str | Path | Mapping[str, Any]] | Callable[[str], Any]"
"""A list of paths / ``file://`` URIs / ``{"uri", "name"}`` mappings, or a callable taking the server name
and returning (or returning an awaitable of) such a list."""


@dataclass(slots=True)
class _CallWatch:
    tool: str
    handler: ProgressHandler | None
    last_progress: float = -math.inf


@dataclass(slots=True)
class _Drain:
    """One server's queue of notifications for the handlers, drained in order by one loop task."""

    items: deque[tuple[Callable[[Any], Any], Any, str]] = field(default_factory=deque)
    is_running: bool = False


class Host:
    """The troupe's answers to its servers' requests, and the sink of their progress and logs."""

    def __init__(
        self,
        config: TroupeConfig,
        *,
        approver: Approver | None = None,
        elicitation_handler: ElicitationHandler | None = None,
        sampling_handler: SamplingHandler | None = None,
        roots: Roots | None = None,
        log_handler: LogHandler | None = None,
        progress_handler: ProgressHandler | None = None,
        extensions: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        for option, handler in (
            ("approver", approver),
            ("elicitation_handler", elicitation_handler),
            ("sampling_handler", sampling_handler),
            ("log_handler", log_handler),
            ("progress_handler", progress_handler),
        ):
            if handler is not None and not callable(handler):
                # Taken silently, it failed only at the first request that needed it, far from here.
                raise TypeError(
                    f"{option} must be a function (sync or async) or None, got {type(handler).__name__}"
                )
        if roots is not None and not callable(roots):
            if not cb.is_root_list(roots):
                raise TypeError(
                    "roots must be a list of paths, file:// URIs or {'uri', 'name'} mappings, or a function "
                    f"of the server name, got {type(roots).__name__} (one root goes in a list: "
                    f"[{roots!r:.60}])"
                )
            roots = tuple(roots)
            cb.roots_result(roots)  # a bad entry is the caller's mistake: say so now, not to the first server
        # The extensions the host supports, declared to every server of 2025-11-25 or later (MCP Apps' UI,
        # say); the tasks extension is the troupe's own to declare.
        self.extensions = (
            {} if extensions is None else cb.check_extensions(extensions, reserved=(TASKS_EXTENSION,))
        )
        self.config = config
        self.approver = approver
        self.elicitation_handler = elicitation_handler
        self.sampling_handler = sampling_handler
        self.roots = roots
        self.log_handler = log_handler
        self.progress_handler = progress_handler
        self._loop: IoLoop | None = None
        self._emit: Callable[[str, str, int, str], None] | None = None
        self._limiter: anyio.CapacityLimiter | None = None
        self._declared: dict[str, Mapping[str, Any]] = {}
        self._sampling_approved: set[str] = set()
        self._calls: dict[object, _CallWatch] = {}
        self._task_ids: dict[object, str] = {}
        self._drains: dict[str, _Drain] = {}
        # Roots: what each server was last told, and how to tell its live session that they changed.
        self._roots_told: dict[str, dict[str, Any]] = {}
        self._roots_listeners: dict[str, Callable[[], None]] = {}
        self._is_polling = False
        # Resource subscriptions by server and URI, and how to reach each server's live session.
        self._subscriptions: dict[str, dict[str, list[Subscription]]] = {}
        self._sessions: dict[str, Callable[[str, Mapping[str, Any]], Any]] = {}

    # ---- wiring -------------------------------------------------------------------------------------------

    def bind(self, loop: IoLoop, emit: Callable[[str, str, int, str], None]) -> None:
        """Attach to the troupe's I/O loop and event stream (``Runtime.emit``); called once at start."""
        self._loop = loop
        self._emit = emit

    @property
    def wants_progress(self) -> bool:
        """Whether calls ask for progress: always, since progress also extends a call's inactivity timeout."""
        return True

    def _server(self, server: str) -> ServerConfig | None:
        return self.config.servers.get(server)

    def _roots_for(self, server: str) -> Roots | None:
        config = self._server(server)
        configured = getattr(config, "roots", None)
        if configured is not None:
            return tuple(configured)
        return self.roots

    def capabilities(self, server: str, version: str) -> dict[str, Any]:
        """The client capabilities to declare to ``server`` when offering protocol ``version``."""
        roots = self._roots_for(server)
        capabilities = cb.client_capabilities(
            version,
            elicitation=self.elicitation_handler is not None,
            sampling=self.sampling_handler is not None,
            roots=roots is not None,
            roots_change=callable(roots),
            extensions=self.extensions,
        )
        self._declared[server] = capabilities
        return capabilities

    def handles(self, server: str, method: str) -> bool:
        """Whether ``server`` may send request ``method``: the capability was declared to it."""
        declared = self._declared.get(server, {})
        match method:
            case cb.ELICITATION_CREATE:
                return "elicitation" in declared
            case cb.SAMPLING_CREATE_MESSAGE:
                return "sampling" in declared
            case cb.ROOTS_LIST:
                return "roots" in declared
            case _:
                return False

    def log_level(self, server: str) -> str | None:
        """The level to ask ``server`` for (``logging/setLevel``, or the modern per-request ``logLevel``).

        The server's ``log_level`` config key when set; ``info`` while a ``log_handler`` is installed; else
        None (leave the server's default alone).
        """
        configured = getattr(self._server(server), "log_level", None)
        if isinstance(configured, str):
            return configured
        return "info" if self.log_handler is not None else None

    def max_call_time(self, server: str, timeout: float) -> float:
        """The hard cap on one call, however much progress it reports (default ten times its timeout).

        spec: lifecycle, timeouts — the timer MAY be reset on progress notifications, but a maximum timeout
        SHOULD always be enforced.
        """
        configured = getattr(self._server(server), "max_call_time", None)
        if isinstance(configured, int | float) and configured > 0:
            return max(float(configured), timeout)
        return 10.0 * timeout

    def _handler_timeout(self, server: str) -> float:
        config = self._server(server)
        return config.timeout if config is not None else 120.0

    # ---- requests: the one entry point ------------------------------------------------------------------

    async def fulfil(self, server: str, method: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
        """Answer ``server``'s request ``method``: return the result, or raise :class:`CallbackError`.

        Runs on the I/O loop; never blocks it. Both the legacy server-request path and the modern
        ``input_required`` path call this.
        """
        if not self.handles(server, method):
            raise CallbackError(jsonrpc.METHOD_NOT_FOUND, f"Method not found: {method} (not supported)")
        args: Mapping[str, Any] = params if isinstance(params, Mapping) else {}
        match method:
            case cb.ELICITATION_CREATE:
                return await self._elicit(server, args)
            case cb.SAMPLING_CREATE_MESSAGE:
                return await self._sample(server, args)
            case cb.ROOTS_LIST:
                return await self._list_roots(server)
            case _:
                raise CallbackError(jsonrpc.METHOD_NOT_FOUND, f"Method not found: {method} (not supported)")

    async def _elicit(self, server: str, params: Mapping[str, Any]) -> dict[str, Any]:
        declared = self._declared.get(server, {}).get("elicitation", {})
        shape = cb.parse_elicitation(params, url_mode=isinstance(declared, Mapping) and "url" in declared)
        request = ElicitationRequest(
            server=server,
            message=shape.message,
            mode=shape.mode,
            requested_schema=shape.requested_schema,
            defaults=cb.schema_defaults(shape.requested_schema) if shape.requested_schema is not None else {},
            url=shape.url,
            elicitation_id=shape.elicitation_id,
        )
        assert self.elicitation_handler is not None
        answer = await self._run(self.elicitation_handler, request, server, "elicitation")
        if isinstance(answer, ElicitationResult):
            answer = answer.to_dict()
        try:
            return cb.check_elicit_result(answer, shape.requested_schema)
        except ValueError as exc:
            log.warning(
                "server %s%s: the elicitation handler's answer was refused: %s", server, cb.SERVING.get(), exc
            )
            # The server gets an error rather than content that does not match what it asked for.
            raise CallbackError(
                jsonrpc.INTERNAL_ERROR, f"the client's answer did not match the form: {exc}"
            ) from None

    async def _sample(self, server: str, params: Mapping[str, Any]) -> dict[str, Any]:
        messages = cb.sequence_of_dicts(params.get("messages"))
        if messages is None:
            raise CallbackError(
                jsonrpc.INVALID_PARAMS, "sampling/createMessage: 'messages' must be an array of objects"
            )
        max_tokens = params.get("maxTokens")
        if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
            raise CallbackError(
                jsonrpc.INVALID_PARAMS, "sampling/createMessage: 'maxTokens' must be a positive integer"
            )
        tools = params.get("tools")
        if tools is not None and cb.sequence_of_dicts(tools) is None:
            raise CallbackError(
                jsonrpc.INVALID_PARAMS, "sampling/createMessage: 'tools' must be an array of objects"
            )
        if tools and "tools" not in self._declared.get(server, {}).get("sampling", {}):
            # spec: 2025-11-25 client/sampling — tools need the client capability sampling.tools.
            raise CallbackError(
                jsonrpc.INVALID_PARAMS, "sampling/createMessage: this client did not declare sampling.tools"
            )
        system_prompt = params.get("systemPrompt")
        preferences = params.get("modelPreferences")
        tool_choice = params.get("toolChoice")
        temperature = params.get("temperature")
        stops = params.get("stopSequences")
        metadata = params.get("metadata")
        request = SamplingRequest(
            server=server,
            messages=tuple(messages),
            max_tokens=max_tokens,
            system_prompt=system_prompt if isinstance(system_prompt, str) else None,
            model_preferences=preferences if isinstance(preferences, Mapping) else None,
            tools=tuple(tools or ()),
            tool_choice=tool_choice if isinstance(tool_choice, Mapping) else None,
            temperature=float(temperature)
            if isinstance(temperature, int | float) and not isinstance(temperature, bool)
            else None,
            stop_sequences=tuple(s for s in stops if isinstance(s, str)) if isinstance(stops, list) else (),
            metadata=metadata if isinstance(metadata, Mapping) else None,
            params=dict(params),
        )
        await self._approve_sampling(request)
        assert self.sampling_handler is not None
        answer = await self._run(self.sampling_handler, request, server, "sampling")
        if isinstance(answer, SamplingResult):
            answer = answer.to_dict()
        try:
            return cb.check_create_message_result(answer)
        except ValueError as exc:
            log.warning(
                "server %s%s: the sampling handler's answer was refused: %s", server, cb.SERVING.get(), exc
            )
            raise CallbackError(
                jsonrpc.INTERNAL_ERROR, f"the client's sampling answer was malformed: {exc}"
            ) from None

    async def _approve_sampling(self, request: SamplingRequest) -> None:
        """Sampling from a server that is not trusted needs approval, like the first call of an exec tool."""
        server = request.server
        config = self._server(server)
        trust = config.trust_level if config is not None else "untrusted"
        if trust == "trusted":
            return
        what = f"sampling for server {server!r}"
        decision = decide(
            tool_name=what,
            capabilities=(),
            risk=Risk.EXEC,
            profile=self.config.profile,
            allow=self.config.allow,
            mode=self.config.approval_mode,
            approved_before=server in self._sampling_approved,
        )
        if not decision.allowed:
            raise CallbackError(cb.USER_REJECTED, f"User rejected sampling request: {decision.reason}")
        if not decision.needs_approval:
            return
        if self.approver is None:
            raise CallbackError(
                cb.USER_REJECTED,
                "User rejected sampling request: the server is untrusted and no approver is installed",
            )
        first = request.messages[-1] if request.messages else {}
        approval = ApprovalRequest(
            tool=cb.SAMPLING_CREATE_MESSAGE,
            server=server,
            original_name=cb.SAMPLING_CREATE_MESSAGE,
            description="the server asks the host's model for a completion (it spends your model, and the "
            "model reads the server's text)",
            arguments={
                "maxTokens": request.max_tokens,
                "systemPrompt": request.system_prompt,
                "messages": len(request.messages),
                "last message": first.get("content"),
                "tools": [tool.get("name") for tool in request.tools],
            },
            risk=Risk.EXEC,
            trust_level=trust,
            reason=f"{what} needs approval once for this process (the server is {trust})",
        )
        is_approved, why = await ask(self.approver, approval)
        if not is_approved:
            raise CallbackError(cb.USER_REJECTED, f"User rejected sampling request ({why})")
        if decision.remember:
            self._sampling_approved.add(server)

    async def _list_roots(self, server: str) -> dict[str, Any]:
        result = await self._evaluate_roots(server)
        self._roots_told[server] = result
        return result

    async def _evaluate_roots(self, server: str) -> dict[str, Any]:
        roots = self._roots_for(server)
        if roots is None:
            return {"roots": []}
        entries: Any = await self._run(roots, server, server, "roots") if callable(roots) else roots
        try:
            return cb.roots_result(entries)
        except (TypeError, ValueError) as exc:
            log.warning(
                "server %s%s: the roots callable answered something unusable: %s",
                server,
                cb.SERVING.get(),
                exc,
            )
            raise CallbackError(jsonrpc.INTERNAL_ERROR, f"the client's roots are malformed: {exc}") from None

    async def _run(self, handler: Callable[[Any], Any], argument: Any, server: str, what: str) -> Any:
        """Run one handler, bounded by the server's timeout; its failure becomes a CallbackError."""
        timeout = self._handler_timeout(server)
        try:
            with anyio.fail_after(timeout):
                if _is_async(handler):
                    with LoopStallWatch(f"server {server}{cb.SERVING.get()}: the {what} handler"):
                        answer = await handler(argument)
                else:
                    if self._limiter is None:
                        self._limiter = anyio.CapacityLimiter(HANDLER_THREADS)
                    # A sync handler may block (a terminal prompt, a model call): never on the loop.
                    answer = await anyio.to_thread.run_sync(
                        handler, argument, abandon_on_cancel=True, limiter=self._limiter
                    )
                if inspect.isawaitable(answer):
                    with LoopStallWatch(f"server {server}{cb.SERVING.get()}: the {what} handler"):
                        answer = await answer
        except TimeoutError:
            log.warning(
                "server %s%s: the %s handler did not answer within %g s",
                server,
                cb.SERVING.get(),
                what,
                timeout,
            )
            raise CallbackError(
                jsonrpc.INTERNAL_ERROR, f"the client's {what} handler did not answer within {timeout:g} s"
            ) from None
        except CallbackError:
            raise
        except asyncio.CancelledError as exc:
            if _is_cancelled_from_outside():
                raise  # the server withdrew its request, or the troupe is stopping
            # The handler raised it on its own (it awaited something that was cancelled): this request
            # fails, where it would otherwise end with no answer, and the server would wait for one.
            log.warning(
                "server %s%s: the %s handler raised CancelledError of its own", server, cb.SERVING.get(), what
            )
            raise CallbackError(
                jsonrpc.INTERNAL_ERROR, f"the client's {what} handler failed ({type(exc).__name__})"
            ) from None
        except BaseException as exc:
            # The handler is the host's code: its message may hold anything, so the server only learns that
            # it failed; the operator's log has the whole story. SystemExit or KeyboardInterrupt raised in a
            # handler fails its request too: let through, it crashed the I/O loop of every server.
            log.warning(
                "server %s%s: the %s handler failed: %r", server, cb.SERVING.get(), what, exc, exc_info=True
            )
            raise CallbackError(
                jsonrpc.INTERNAL_ERROR, f"the client's {what} handler failed ({type(exc).__name__})"
            ) from None
        return answer

    # ---- roots changes (legacy: notifications/roots/list_changed) ---------------------------------------

    def watch_roots(self, server: str, notify: Callable[[], None]) -> None:
        """``server``'s live session wants ``notify()`` when its roots change (it declared listChanged)."""
        self._roots_listeners[server] = notify
        if callable(self._roots_for(server)) and not self._is_polling and self._loop is not None:
            self._is_polling = True
            self._loop.spawn(self._poll_roots, name="roots poll")

    def unwatch_roots(self, server: str, notify: Callable[[], None]) -> None:
        """The session that registered ``notify`` has ended."""
        if self._roots_listeners.get(server) is notify:
            del self._roots_listeners[server]
            self._roots_told.pop(server, None)

    async def roots_changed(self) -> list[str]:
        """Ask every callable ``roots`` again; notify each server whose answer changed. Returns their names.

        Only servers that have listed their roots at least once are compared (the others will ask anyway).
        """
        changed = []
        for server, notify in list(self._roots_listeners.items()):
            told = self._roots_told.get(server)
            if told is None or not callable(self._roots_for(server)):
                continue
            try:
                now = await self._evaluate_roots(server)
            except CallbackError:
                continue
            if now != told:
                self._roots_told[server] = now
                changed.append(server)
                notify()
        return changed

    async def _poll_roots(self) -> None:
        while True:
            await anyio.sleep(ROOTS_POLL_INTERVAL)
            await self.roots_changed()

    # ---- notifications: progress and logs ----------------------------------------------------------------

    def watch_call(self, reply_to: Any, tool: str, handler: ProgressHandler | None) -> None:
        """Remember which tool the call answered through ``reply_to`` is, and its own progress handler.

        Called by the facade before the call is sent; forgotten when ``reply_to`` is done.
        """
        calls = self._calls
        calls[reply_to] = _CallWatch(tool, handler)
        reply_to.add_done_callback(lambda done: calls.pop(done, None))

    def on_task(self, reply_to: Any, task_id: str) -> None:
        """The call answered through ``reply_to`` runs as server task ``task_id`` (``CallHandle.task_id``)."""
        # Kept after the call ends (the handle may ask later), the oldest forgotten past a bound.
        self._task_ids[reply_to] = task_id
        while len(self._task_ids) > MAX_REMEMBERED_TASKS:
            self._task_ids.pop(next(iter(self._task_ids)))

    def task_id(self, reply_to: Any) -> str | None:
        """The task id of a pending call that runs as a task, once the server has named it."""
        return self._task_ids.get(reply_to)

    def on_progress(
        self, server: str, incarnation: int, tool: str, params: Mapping[str, Any], reply_to: Any
    ) -> None:
        """A progress notification for the pending call answered through ``reply_to`` (any thread)."""
        progress = params.get("progress")
        if not isinstance(progress, int | float) or isinstance(progress, bool) or not math.isfinite(progress):
            log.debug("server %s: progress notification without a numeric 'progress'; ignored", server)
            return
        total = params.get("total")
        message = params.get("message")
        watch = self._calls.get(reply_to)
        if watch is not None:
            # spec: progress — "The progress value MUST increase with each notification": one that does not is
            # a server bug, and passing it on would make a progress bar go backwards.
            if progress <= watch.last_progress:
                log.debug("server %s: progress %g did not increase; ignored", server, progress)
                return
            watch.last_progress = float(progress)
            tool = watch.tool
        event = ProgressEvent(
            server=server,
            tool=tool,
            progress=float(progress),
            total=float(total) if isinstance(total, int | float) and not isinstance(total, bool) else None,
            message=message if isinstance(message, str) else None,
        )
        if self._emit is not None:
            shown = f"{event.progress:g}" + (f"/{event.total:g}" if event.total is not None else "")
            detail = f"{tool}: {shown}" + (f" {cb.printable(event.message, 200)}" if event.message else "")
            self._emit("progress", server, incarnation, detail)
        if watch is not None and watch.handler is not None:
            self._deliver(server, watch.handler, event, "progress")
        if self.progress_handler is not None:
            self._deliver(server, self.progress_handler, event, "progress")

    def on_log(self, server: str, params: Mapping[str, Any] | None) -> None:
        """A ``notifications/message`` from ``server`` (any thread)."""
        args = params if isinstance(params, Mapping) else {}
        level = args.get("level")
        level_name = level if cb.is_log_level(level) else "warning"
        logger_name = args.get("logger")
        entry = LogEntry(
            server=server,
            level=str(level_name),
            logger=logger_name if isinstance(logger_name, str) else None,
            data=args.get("data"),
        )
        number = cb.log_level_number(level_name)
        wanted = self.log_level(server)
        if wanted is not None and number < cb.log_level_number(wanted):
            # Below the level we asked for: a legacy server may ignore logging/setLevel (or not offer it).
            return
        python_logger = logging.getLogger(f"mcp_troupe.server.{server}")
        if python_logger.isEnabledFor(number):
            source = f"[{cb.printable(entry.logger, 80)}] " if entry.logger else ""
            python_logger.log(number, "%s%s", source, cb.printable(entry.data, MAX_LOG_CHARS))
        if self.log_handler is not None:
            self._deliver(server, self.log_handler, entry, "log")

    def on_elicitation_complete(
        self, server: str, incarnation: int, params: Mapping[str, Any] | None
    ) -> None:
        """``notifications/elicitation/complete``: the out-of-band interaction of a URL elicitation ended."""
        elicitation_id = params.get("elicitationId") if isinstance(params, Mapping) else None
        if self._emit is not None:
            self._emit("elicitation_complete", server, incarnation, cb.printable(elicitation_id, 200))

    def _deliver(self, server: str, handler: Callable[[Any], Any], item: Any, what: str) -> None:
        loop = self._loop
        if loop is None:
            return
        loop.post_if_running(self._enqueue, server, handler, item, what)

    def _enqueue(self, server: str, handler: Callable[[Any], Any], item: Any, what: str) -> None:
        # On the loop: the queue and its flag are only touched here and by the drain task.
        drain = self._drains.setdefault(server, _Drain())
        if len(drain.items) >= MAX_QUEUED_NOTIFICATIONS:
            drain.items.popleft()
            log.warning(
                "server %s: its %s handler falls behind; dropped the oldest notification", server, what
            )
        drain.items.append((handler, item, what))
        if not drain.is_running and self._loop is not None:
            drain.is_running = True
            self._loop.spawn(self._drain, server, drain, name=f"{server} notifications")

    async def _drain(self, server: str, drain: _Drain) -> None:
        try:
            while drain.items:
                handler, item, what = drain.items.popleft()
                try:
                    await self._run(handler, item, server, what)
                except CallbackError:
                    pass  # logged by _run; a notification has nobody to answer
        finally:
            drain.is_running = False

    # ---- resource subscriptions (legacy: resources/subscribe; the modern era: subscriptions/listen) -------

    def attach(self, server: str, send: Callable[[str, Mapping[str, Any]], Any]) -> list[str]:
        """A session of ``server`` is ready; ``send(method, params)`` sends a request on it (returning a
        future). Returns the URIs it must subscribe (again, after a reconnect)."""
        self._sessions[server] = send
        return list(self._subscriptions.get(server, {}))

    def detach(self, server: str, send: Callable[[str, Mapping[str, Any]], Any]) -> None:
        """That session ended."""
        if self._sessions.get(server) is send:
            del self._sessions[server]

    def subscribe(self, server: str, uri: str, callback: Callable[[str], Any]) -> tuple[Subscription, Any]:
        """Register ``callback`` for ``uri``; returns the subscription and the server's answer (a future), or
        None when nothing was sent (already subscribed, or the server is not connected: sent on connect)."""
        subscription = Subscription(self, server, uri, callback)
        by_uri = self._subscriptions.setdefault(server, {})
        is_new = uri not in by_uri
        by_uri.setdefault(uri, []).append(subscription)
        send = self._sessions.get(server)
        answer = send(cb.RESOURCES_SUBSCRIBE, {"uri": uri}) if is_new and send is not None else None
        return subscription, answer

    def unsubscribe(self, subscription: Subscription) -> None:
        """End one subscription; unsubscribe on the server when it was the URI's last."""
        by_uri = self._subscriptions.get(subscription.server, {})
        callbacks = by_uri.get(subscription.uri, [])
        if subscription in callbacks:
            callbacks.remove(subscription)
        if not callbacks and subscription.uri in by_uri:
            del by_uri[subscription.uri]
            send = self._sessions.get(subscription.server)
            if send is not None:
                send(cb.RESOURCES_UNSUBSCRIBE, {"uri": subscription.uri})

    def on_resource_updated(self, server: str, params: Mapping[str, Any] | None) -> None:
        """``notifications/resources/updated``: call every callback subscribed to that URI."""
        uri = params.get("uri") if isinstance(params, Mapping) else None
        if not isinstance(uri, str):
            return
        for subscription in list(self._subscriptions.get(server, {}).get(uri, [])):
            self._deliver(server, subscription.callback, uri, "subscription")

    # ---- the facade's helpers --------------------------------------------------------------------------

    def close(self) -> None:
        """Forget every live session's hooks (the troupe stopped)."""
        self._roots_listeners.clear()
        self._calls.clear()


def _is_cancelled_from_outside() -> bool:
    """Whether the running task was asked to stop (``Task.cancel``): a CancelledError that a handler raised
    of its own accord, with nobody cancelling, is that handler's failure."""
    task = asyncio.current_task()
    return task is None or task.cancelling() > 0


def _is_async(handler: object) -> bool:
    """Whether ``handler`` is an ``async def`` function or object (awaited on the loop, not in a thread)."""
    call = type(handler).__call__ if not inspect.isroutine(handler) else None
    return inspect.iscoroutinefunction(handler) or inspect.iscoroutinefunction(call)
