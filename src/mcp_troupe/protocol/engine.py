"""RequestEngine: the one request engine of a connection, sans-I/O (in h11's shape).

Everything a client must remember about its own requests lives here, once per connection, for stdio and
HTTP alike: request ids, the pending requests and their deadlines, cancellation, late and unknown answers,
unreadable frames, the era's per-request ``_meta``, ``resultType``, ``input_required`` rounds (re-sent under
new ids), progress that extends an inactivity deadline up to a hard cap, memoised re-listings, and the
decisions of HTTP session expiry. It does no I/O, reads no clock and starts no thread: frames (bytes) and the
current time go in; frames to write and :class:`Event` values come out. Whoever owns the connection (the
lane, :mod:`mcp_troupe.actors.lane`) writes the frames, arms one timer for :attr:`RequestEngine.earliest`,
and routes each event to the owner of its request.

An *owner* is whatever the shell attaches to a request (a caller's future, the session's callbacks): the
engine stores it and hands it back, and never looks inside.

Not thread-safe on its own; the shell serialises calls (the lane holds a lock around each).
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from mcp_troupe.errors import InvalidArguments, MalformedMessage, ProtocolError
from mcp_troupe.protocol import jsonrpc, modern, tasks
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol.deadlines import SLACK, Deadlines
from mcp_troupe.protocol.jsonrpc import ErrorObject, ErrorResponse, Notification, Request, RequestId, Response
from mcp_troupe.protocol.versions import Revision

__all__ = [
    "MAX_CONSECUTIVE_BAD_FRAMES",
    "Answered",
    "Event",
    "Incoming",
    "Invalid",
    "NeedsInput",
    "Pending",
    "Progressed",
    "Refused",
    "RequestEngine",
    "TaskStarted",
    "Unexpected",
    "Unreadable",
    "expiry_decision",
]

# A peer that keeps writing garbage is broken, not chatty: after this many unreadable frames in a row the
# connection is failed (one good frame resets the count).
MAX_CONSECUTIVE_BAD_FRAMES = 100
# Ids of requests given up on (timed out, cancelled), remembered so that their late answers drop quietly.
RECENTLY_ABANDONED = 1024
# Requests given up on without notifications/cancelled. spec: lifecycle — initialize MUST NOT be cancelled;
# the server/discover probe that times out is a legacy server's silence (spec: 2026-07-28 basic/versioning),
# answered by falling back to initialize, before which a legacy server expects nothing else of us.
_NEVER_CANCELLED = frozenset({proto.INITIALIZE, modern.SERVER_DISCOVER})
# Requests whose result may be `input_required` (spec: 2026-07-28 basic/patterns/mrtr).
INPUT_METHODS = frozenset({proto.TOOLS_CALL, proto.RESOURCES_READ, proto.PROMPTS_GET})
# Requests that are safe to send again after a broken stream or an expired session: they change nothing.
REPEATABLE_METHODS = frozenset(
    {
        proto.TOOLS_LIST,
        proto.RESOURCES_LIST,
        proto.RESOURCE_TEMPLATES_LIST,
        proto.PROMPTS_LIST,
        proto.RESOURCES_READ,
        proto.PROMPTS_GET,
        modern.SERVER_DISCOVER,
        modern.SUBSCRIPTIONS_LISTEN,
        proto.PING,
    }
)


@dataclass(slots=True, eq=False)
class Pending:
    """One request on the wire, as the engine remembers it."""

    request_id: RequestId
    method: str
    owner: Any
    timeout: float | None
    deadline: float | None
    hard_deadline: float | None = None
    """Progress moves ``deadline`` on, never past this (spec: timeouts — "a maximum timeout SHOULD always be
    enforced"). None: progress does not extend the deadline."""
    params: Mapping[str, Any] | None = field(default=None, repr=False)
    """Kept for requests that may be sent again (input rounds, a broken stream); else None."""
    rounds: int = 0
    """``input_required`` rounds so far."""
    is_retried: bool = False
    """Already sent again once after an HTTP session expired."""
    progress_token: RequestId | None = None
    started: float = 0.0
    """When the request (its first round) was sent: a timeout names how long it really ran."""
    is_task: bool = False
    """A 2025-11-25 task-augmented ``tools/call`` (sent with ``params.task``): answered by a task."""


# ---- events --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answered:
    """A request's complete result."""

    pending: Pending
    result: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Refused:
    """A request's JSON-RPC error."""

    pending: Pending
    error: ErrorObject


@dataclass(frozen=True, slots=True)
class NeedsInput:
    """The server answered ``input_required``: fulfil ``needs`` and :meth:`RequestEngine.retry`."""

    pending: Pending
    needs: modern.InputRequired


@dataclass(frozen=True, slots=True)
class Invalid:
    """A request's answer cannot be used (an unknown ``resultType``, too many input rounds, an unreadable
    frame whose id could still be read): the request is over."""

    pending: Pending
    error: ProtocolError


@dataclass(frozen=True, slots=True)
class TaskStarted:
    """A ``tools/call`` was answered with a task (2025-11-25 ``CreateTaskResult``, or the 2026-07-28
    extension's ``resultType: "task"``): the call goes on as that task, driven by whoever owns it."""

    pending: Pending
    task: tasks.TaskState


@dataclass(frozen=True, slots=True)
class Progressed:
    """``notifications/progress`` for a pending request (its deadline already moved on)."""

    pending: Pending
    params: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Incoming:
    """A server request or notification that is not progress of one of ours."""

    message: Request | Notification


@dataclass(frozen=True, slots=True)
class Unexpected:
    """An answer for no pending request: ``is_late`` when it is for one we gave up on (drop it quietly)."""

    response_id: RequestId | None
    is_late: bool
    error: ErrorObject | None = None


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A frame that does not decode; ``is_fatal`` once too many came in a row."""

    error: MalformedMessage
    in_a_row: int
    is_fatal: bool


Event = (
    Answered | Refused | NeedsInput | Invalid | TaskStarted | Progressed | Incoming | Unexpected | Unreadable
)


class RequestEngine:
    """One connection's requests (see the module docstring)."""

    def __init__(self, *, server: str = "") -> None:
        self.server = server
        self.ids: Iterator[int] = itertools.count(1)
        self.revision: Revision | None = None
        self.is_modern = False
        """Whether the connection speaks the modern era (a plain field: read on every request and answer)."""
        self._is_batching = False
        # The modern era's per-request `_meta` (protocol version, capabilities, client info, log level).
        self._meta: Mapping[str, Any] | None = None
        self._meta_members: bytes | None = None
        self._comma_members = b""
        """``,`` and then :attr:`_meta_members`: what follows a progress token in a modern request."""
        # The modern era: we declared the tasks extension, so a tools/call may be answered with a task.
        self.accepts_tasks = False
        self.pending: dict[object, Pending] = {}
        self._deadlines = Deadlines()
        self._deadline_heap = self._deadlines.heap
        self._abandoned: deque[object] = deque(maxlen=RECENTLY_ABANDONED)
        self._bad_in_a_row = 0
        self._progress: dict[object, object] = {}  # progress token -> request id
        # Memoised pages: request ids whose answers may be memoised, and decoded results by their tail
        # bytes (jsonrpc.split_result), of the listing in progress and of the one before.
        self._memo_ids: set[object] = set()
        self._memo: dict[bytes, Any] = {}
        self._memo_previous: dict[bytes, Any] = {}

    # ---- the era -------------------------------------------------------------------------------------------

    def settle(self, revision: Revision, meta: Mapping[str, Any] | None = None) -> None:
        """The handshake chose ``revision``; a modern one adds ``meta`` to every request from now on."""
        self.revision = revision
        # Read on every request and answer: kept as plain fields, not derived through properties each time.
        self.is_modern = revision.is_modern
        self._is_batching = revision.batching
        self._meta = dict(meta) if revision.is_modern and meta else None
        # Encoded once: every request of the connection carries it (see prepare()).
        self._meta_members = jsonrpc.encode_members(self._meta) if self._meta else None
        self._comma_members = b"," + self._meta_members if self._meta_members else b""
        self.accepts_tasks = revision.is_modern and tasks.declares_extension(meta)

    @property
    def batching(self) -> bool:
        """Whether JSON-RPC batches may arrive (2025-03-26)."""
        return self._is_batching

    def params_of(self, params: Mapping[str, Any] | None, meta: Mapping[str, Any] | None = None) -> Any:
        """``params`` as they go on the wire in this era (modern: with the per-request ``_meta``)."""
        era_meta = self._meta
        if era_meta is None and meta is None:
            return params
        combined = {**(era_meta or {}), **(meta or {})}
        return modern.with_meta(params, combined)

    # ---- requests ---------------------------------------------------------------------------------------

    def _unsendable(
        self, exc: BaseException, request_id: RequestId, method: str, params: Mapping[str, Any] | None
    ) -> InvalidArguments:
        """The refusal of a request whose params ``json`` could not write (``exc``), naming the tool."""
        tool = params.get("name") if method == proto.TOOLS_CALL and isinstance(params, Mapping) else None
        if isinstance(exc, RecursionError):
            reason = "nested too deeply to write, or holding a reference to itself"
        else:
            reason = str(exc) or type(exc).__name__
        return InvalidArguments(
            self.server, request_id, method, reason, tool=tool if isinstance(tool, str) else None
        )

    def prepare(
        self,
        method: str,
        params: Mapping[str, Any] | None,
        owner: Any,
        now: float,
        timeout: float | None,
        hard_timeout: float | None = None,
        progress: bool = False,
        meta: Mapping[str, Any] | None = None,
    ) -> tuple[Pending, bytes]:
        """A new request and its frame; nothing is pending until :meth:`track`.

        Split in two so that a shell can encode outside its lock and register inside it. ``progress`` asks
        the server for progress (a ``progressToken`` equal to the request id); ``hard_timeout`` is then the
        cap that progress cannot extend the deadline past.
        """
        request_id = next(self.ids)
        try:
            members, era_meta = self._meta_members, self._meta
            if (
                progress
                and not meta
                and params is not None
                and "_meta" not in params
                and (era_meta is None or "progressToken" not in era_meta)
            ):
                # The call path (every tools/call asks for progress, see Host.wants_progress): the token is
                # spliced in as bytes, ahead of the era's pre-encoded members if any, instead of merging dicts
                # for it on every call (the legacy call had become 4 dicts dearer than before the engine).
                token = b'"progressToken":%d' % request_id
                frame = jsonrpc.encode_request_with_members(
                    request_id, method, params, token, self._comma_members
                )
            else:
                wire_meta = dict(meta) if meta else {}
                if progress:
                    wire_meta["progressToken"] = request_id
                if (
                    members is not None
                    and era_meta is not None
                    and params is not None
                    and "_meta" not in params
                    and wire_meta.keys().isdisjoint(era_meta)
                ):
                    # The modern call path: the era's _meta spliced in pre-encoded, so that a modern request
                    # costs the client about what a legacy one does (issue #13; benchmarks/bench_eras.py).
                    frame = jsonrpc.encode_request_with_meta(request_id, method, params, wire_meta, members)
                else:
                    wire = self.params_of(params, wire_meta or None)
                    frame = jsonrpc.encode_request(request_id, method, wire)
        except (TypeError, ValueError, RecursionError) as exc:
            # The caller's arguments hold what JSON cannot write (an object of another type, NaN, a cycle):
            # this request fails alone, before anything is sent or tracked.
            raise self._unsendable(exc, request_id, method, params) from None
        # spec: 2025-11-25 tasks — a tools/call with `params.task` is task-augmented: its answer is a task.
        is_task = method == proto.TOOLS_CALL and params is not None and "task" in params
        # Every field by position: the pending of a call is made once per request, on the hot path. A call
        # with a progress token keeps its params and its hard deadline (progress extends the soft one).
        keep = (
            progress
            or is_task
            or method in REPEATABLE_METHODS
            or (self.is_modern and method in INPUT_METHODS)
        )
        return Pending(
            request_id,
            method,
            owner,
            timeout,
            None if timeout is None else now + timeout,
            None if hard_timeout is None or not progress else now + hard_timeout,
            params if keep else None,
            0,
            False,
            request_id if progress else None,
            now,
            is_task,
        ), frame

    def track(self, pending: Pending) -> None:
        """Count ``pending`` as on the wire (its answer, timeout or cancellation is awaited from now on)."""
        request_id = pending.request_id
        pending_map = self.pending
        pending_map[request_id] = pending
        if pending.deadline is not None:
            # Deadlines.push, inline (once per request): the heap, and its compaction when stale entries
            # (of answered requests) dominate it.
            heap = self._deadline_heap
            heapq.heappush(heap, (pending.deadline, request_id))
            if len(heap) > 2 * len(pending_map) + SLACK:
                self._deadlines.compact(pending_map)
        token = pending.progress_token
        if token is not None and token != request_id:
            # Only a request re-sent under a new id keeps an older token (input rounds): a token equal to
            # its request's id is found through `pending` itself (see _on_progress), no map entry per call.
            self._progress[token] = request_id

    def request(
        self,
        method: str,
        params: Mapping[str, Any] | None,
        owner: Any,
        *,
        now: float,
        timeout: float | None,
        **options: Any,
    ) -> tuple[Pending, bytes]:
        """:meth:`prepare` and :meth:`track` in one step."""
        pending, frame = self.prepare(method, params, owner, now=now, timeout=timeout, **options)
        self.track(pending)
        return pending, frame

    def notification(self, method: str, params: Mapping[str, Any] | None = None) -> bytes:
        """The frame of a notification."""
        return jsonrpc.encode_notification(method, params)

    def retry(
        self, pending: Pending, responses: Mapping[str, Any], request_state: str | None
    ) -> tuple[Pending, bytes]:
        """Send an ``input_required`` request again, under a new id, with this round's answers.

        The deadline, the owner and the original params carry over (spec: basic/patterns/mrtr — a new
        JSON-RPC id; ``inputResponses`` and the exact ``requestState`` apply to this retry only).
        """
        params = pending.params
        request_id = next(self.ids)
        retried = replace(pending, request_id=request_id, params=params, rounds=pending.rounds + 1)
        token_meta = {"progressToken": retried.progress_token} if retried.progress_token is not None else None
        wire = self.params_of(modern.retry_params(params, responses, request_state), token_meta)
        try:
            frame = jsonrpc.encode_request(request_id, pending.method, wire)
        except (TypeError, ValueError, RecursionError) as exc:
            # The host's answers hold what JSON cannot write: this request fails, not tracked again.
            raise self._unsendable(exc, request_id, pending.method, params) from None
        self.track(retried)
        return retried, frame

    def reissue(self, pending: Pending) -> tuple[Pending, bytes] | None:
        """Send a request again under a new id after its stream broke, if it is safe to (else None).

        spec: 2026-07-28 — no resumability: a broken stream loses the request and the client MUST re-issue it
        with a new id. Only requests that change nothing are re-issued, once; a tool call is not.
        """
        if pending.method not in REPEATABLE_METHODS or pending.is_retried:
            return None
        self.take(pending.request_id)
        self._abandoned.append(pending.request_id)
        return self.again(pending)

    def again(self, pending: Pending) -> tuple[Pending, bytes]:
        """Track ``pending`` again under a new id, marked as retried (it is never retried twice)."""
        request_id = next(self.ids)
        retried = replace(
            pending,
            request_id=request_id,
            is_retried=True,
            progress_token=request_id if pending.progress_token is not None else None,
        )
        self.track(retried)
        wire_meta = {"progressToken": request_id} if retried.progress_token is not None else None
        return retried, jsonrpc.encode_request(
            request_id, pending.method, self.params_of(pending.params, wire_meta)
        )

    def take(self, request_id: object) -> Pending | None:
        """Stop tracking ``request_id`` (the transport failed it, or it was never sent); its pending."""
        pending = self.pending.pop(request_id, None)
        if pending is not None:
            token = pending.progress_token
            if token is not None and token != request_id:
                self._progress.pop(token, None)
        return pending

    def cancel(self, request_id: object, reason: str) -> tuple[Pending, bytes] | None:
        """Give up on ``request_id``: its pending and ``notifications/cancelled`` frame; None if not pending.

        spec: cancellation — the sender SHOULD ignore a response that arrives afterwards: remembering the id
        lets it drop quietly instead of being reported as unknown. ``initialize`` MUST NOT be cancelled: it
        is given up on without the notification (the frame is empty).
        """
        pending = self.take(request_id)
        if pending is None:
            return None
        self._abandoned.append(pending.request_id)
        if pending.method == proto.INITIALIZE:
            return pending, b""
        return pending, jsonrpc.encode_notification(
            proto.CANCELLED, proto.cancelled_params(pending.request_id, reason)
        )

    def forget(self, request_id: object) -> None:
        """Drop a late answer to ``request_id`` quietly (it was given up on without the engine)."""
        self._abandoned.append(request_id)

    def expire(self, now: float) -> list[Pending]:
        """Every pending request whose deadline has passed, no longer pending (its cancel frame is the
        shell's to send: see :meth:`cancel_frame`)."""
        expired = self._deadlines.pop_expired(now, self.pending)
        for request_id, pending in expired:
            self._abandoned.append(request_id)
            if pending.progress_token is not None and pending.progress_token != request_id:
                self._progress.pop(pending.progress_token, None)
        return [pending for _request_id, pending in expired]

    def cancel_frame(self, pending: Pending, reason: str) -> bytes:
        """The ``notifications/cancelled`` frame for a request given up on (empty for ``initialize`` and the
        ``server/discover`` probe)."""
        if pending.method in _NEVER_CANCELLED:
            return b""
        return jsonrpc.encode_notification(
            proto.CANCELLED, proto.cancelled_params(pending.request_id, reason)
        )

    @property
    def earliest(self) -> float | None:
        """The earliest deadline to arm a timer for (possibly of an answered request), or None."""
        return self._deadlines.earliest

    def close(self) -> list[Pending]:
        """Every pending request, none pending any more (the connection ended)."""
        pending, self.pending = self.pending, {}
        self._deadlines.clear()
        self._progress.clear()
        # Answers may still arrive while the transport winds down: they are late, not unknown.
        self._abandoned.extend(pending)
        return list(pending.values())

    # ---- memoised listings ---------------------------------------------------------------------------

    def memoize(self, request_id: object) -> None:
        """The answer to ``request_id`` (a ``tools/list`` page) may be memoised by its bytes."""
        self._memo_ids.add(request_id)

    def begin_listing(self) -> None:
        """A new listing starts: the pages memoised so far become the previous listing's."""
        self._memo_ids.clear()  # a page of an abandoned listing is not worth remembering
        if self._memo:
            self._memo_previous, self._memo = self._memo, {}

    # ---- answers ---------------------------------------------------------------------------------------

    def receive(self, frame: bytes, now: float) -> list[Event]:
        """Decode one frame and say what it means for our requests."""
        return self.receive_all([frame], now)

    def receive_all(self, frames: list[bytes], now: float) -> list[Event]:
        """:meth:`receive` of each frame in turn, the events in one list (one read's worth of frames)."""
        events: list[Event] = []
        if self._is_batching or self._memo_ids:
            for frame in frames:
                self._receive_into(events, frame, now)
            return events
        # The common read, answers to pending calls (one, or 1,000 in flight): each answer is matched here,
        # in the loop, without a call per frame; anything else takes _on_message's path. A modern answer
        # takes it too when it is complete (resultType absent or "complete", spec: 2026-07-28
        # basic/index), so a modern call costs what a legacy one does (issue #13).
        pending_map = self.pending
        decode = jsonrpc.decode_answer
        is_modern = self.is_modern
        complete = modern.COMPLETE
        for frame in frames:
            try:
                message = decode(frame)
            except MalformedMessage as exc:
                events.append(self._unreadable(frame, exc))
                continue
            self._bad_in_a_row = 0
            if isinstance(message, tuple):
                response_id, result = message
                pending = pending_map.get(response_id)
                if (
                    pending is not None
                    and not pending.is_task  # (a task's answer: the general path)
                    and (not is_modern or result.get("resultType", complete) == complete)
                ):
                    del pending_map[response_id]
                    if pending.progress_token is not None and pending.progress_token != response_id:
                        self._progress.pop(pending.progress_token, None)
                    events.append(Answered(pending, result))
                    continue
                message = Response(response_id, result)
            events.append(self._on_message(message, now))
        return events

    def _receive_into(self, events: list[Event], frame: bytes, now: float) -> None:
        """A frame of a batching revision (2025-03-26) or of a listing whose pages are memoised."""
        try:
            messages = jsonrpc.decode_batch(frame) if self._is_batching else [self._decode_page(frame)]
        except MalformedMessage as exc:
            events.append(self._unreadable(frame, exc))
            return
        self._bad_in_a_row = 0
        for message in messages:
            events.append(self._on_message(message, now))

    def _unreadable(self, frame: bytes, exc: MalformedMessage) -> Event:
        self._bad_in_a_row += 1
        # An answer we cannot read still ends its request at once when its id shows (an absurdly deep or
        # broken result), instead of leaving the caller to wait out the timeout.
        request_id = jsonrpc.recover_id(frame)
        pending = self.take(request_id) if request_id is not None else None
        if pending is not None:
            self._abandoned.append(pending.request_id)
            error = ProtocolError(
                f"server {self.server!r}: the answer to {pending.method} "
                f"(JSON-RPC id {pending.request_id!r}) could not be read: {exc}"
            )
            return Invalid(pending, error)
        in_a_row = self._bad_in_a_row
        return Unreadable(exc, in_a_row, in_a_row >= MAX_CONSECUTIVE_BAD_FRAMES)

    def _on_message(self, message: jsonrpc.Message, now: float) -> Event:
        if type(message) is Response:
            pending = self.take(message.id)
            if pending is None:
                return Unexpected(message.id, message.id in self._abandoned)
            return self._on_result(pending, message.result)
        if type(message) is ErrorResponse:
            if message.id is None:
                return Unexpected(None, False, message.error)
            pending = self.take(message.id)
            if pending is None:
                return Unexpected(message.id, message.id in self._abandoned, message.error)
            return Refused(pending, message.error)
        if type(message) is Notification and message.method == proto.PROGRESS:
            progressed = self._on_progress(message.params, now)
            if progressed is not None:
                return progressed
        assert isinstance(message, Request | Notification)
        return Incoming(message)

    def _on_result(self, pending: Pending, result: Mapping[str, Any]) -> Event:
        if not self.is_modern:
            # Legacy results have no resultType: whatever a server puts there means nothing.
            if pending.is_task and "task" in result:
                # spec: 2025-11-25 tasks — a task-augmented request is answered with a CreateTaskResult.
                try:
                    return TaskStarted(pending, tasks.created_task(result, modern=False))
                except ProtocolError as exc:
                    return Invalid(pending, ProtocolError(f"server {self.server!r}: {exc}"))
            return Answered(pending, result)
        kind = result.get("resultType")
        if kind is None or kind == modern.COMPLETE:
            # The modern call's common answer, checked as cheaply as a legacy one (issue #13); absent means
            # complete (spec: 2026-07-28 basic/index).
            return Answered(pending, result)
        try:
            kind = modern.result_type(result, pending.method)
            if kind == tasks.RESULT_TYPE_TASK and self.accepts_tasks and pending.method in tasks.TASK_METHODS:
                # spec: ext-tasks — with the extension declared, the server may answer with a task handle;
                # for any other request, or undeclared, "task" is an unrecognised resultType (invalid).
                return TaskStarted(pending, tasks.created_task(result, modern=True))
            if kind == modern.INPUT_REQUIRED and pending.method in INPUT_METHODS:
                needs = modern.input_required_of(result, pending.method)
                if pending.rounds >= modern.MAX_INPUT_ROUNDS:
                    raise ProtocolError(
                        f"{pending.method} still asked for input after {pending.rounds} rounds; giving up"
                    )
                if pending.params is None:
                    raise ProtocolError(
                        f"{pending.method} asked for input on a request that cannot be retried"
                    )
                return NeedsInput(pending, needs)
            # spec: 2026-07-28 basic/index — an unrecognised resultType MUST be treated as invalid.
            raise ProtocolError(
                f"{pending.method} answered with resultType {kind!r:.40}, which we do not accept"
            )
        except ProtocolError as exc:
            return Invalid(pending, ProtocolError(f"server {self.server!r}: {exc}"))

    def _on_progress(self, params: Mapping[str, Any] | None, now: float) -> Progressed | None:
        if not params:
            return None
        token = params.get("progressToken")
        if type(token) is not int and type(token) is not str:
            return None  # spec: a ProgressToken is a string or an integer; nothing of ours has another
        pending = self.pending.get(token)
        if pending is None or pending.progress_token != token:
            # A request re-sent under a new id (input rounds) keeps its first token: mapped in track().
            request_id = self._progress.get(token)
            pending = self.pending.get(request_id) if request_id is not None else None
            if pending is None or pending.progress_token != token:
                return None
        if pending.hard_deadline is not None and pending.timeout is not None and pending.deadline is not None:
            # spec: timeouts — progress MAY reset the timeout; a maximum SHOULD still be enforced.
            moved = min(now + pending.timeout, pending.hard_deadline)
            if moved > pending.deadline:
                pending.deadline = moved
                self._deadlines.push(moved, pending.request_id, self.pending)
        return Progressed(pending, params)

    def _decode_page(self, frame: bytes) -> jsonrpc.Message:
        split = jsonrpc.split_result(frame)
        if split is None or split[0] not in self._memo_ids:
            return jsonrpc.decode(frame)
        request_id, tail = split
        self._memo_ids.discard(request_id)
        result = self._memo.get(tail)
        if result is None:
            result = self._memo_previous.get(tail)
        if result is not None:
            self._memo[tail] = result
            return Response(request_id, result)
        message = jsonrpc.decode(frame)
        # Checked once, here, by the full decoding: this tail means this result for whatever head it gets.
        if type(message) is Response and message.id == request_id:
            self._memo[tail] = message.result
        return message


def expiry_decision(pending: Pending, params: Mapping[str, Any] | None) -> Literal["retry", "relist", "fail"]:
    """What to do with a request the server refused because its HTTP session expired.

    spec: 2025-06-18 transports, session management — a new session is started; the request is sent again
    once when that is safe. A pagination continuation is never sent again (a cursor of a dead session means
    nothing to the new one): its listing restarts. A request already sent again once fails.
    """
    if pending.method.endswith("/list") and params is not None and "cursor" in params:
        return "relist"
    if pending.is_retried:
        return "fail"
    return "retry"
