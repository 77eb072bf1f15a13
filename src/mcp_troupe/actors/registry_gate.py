"""The registry's capability gate and approval flow: whether a call may go out, and asking a human first.

Split from :mod:`mcp_troupe.actors.registry`, which composes one :class:`ApprovalGate` and runs it on its own
thread only. The gate applies :func:`~mcp_troupe.policy.gate.decide` to a call of a tool in the table; a
call that needs approval waits here (the awaiting-approval map) while a loop task asks the approver, and the
answer comes back to the registry as :class:`ApprovalDecided`. A call cancelled meanwhile leaves the map, so
the approver's later yes finds nothing to forward; what the human approved is forwarded only if the tool's
definition is still the one they saw.

The gate reads the table and the routes through narrow callbacks (the registry replaces both on shutdown);
the :class:`~mcp_troupe.policy.fingerprint.ApprovalBook` is the registry's, shared with its naming.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import pykka

from mcp_troupe._futures import fail as _fail
from mcp_troupe.actors.loop import Runtime, TaskHandle, safe_tell
from mcp_troupe.actors.registry_messages import CallTool
from mcp_troupe.actors.registry_records import Route, gate_decision
from mcp_troupe.approval import ApprovalRequest, Approver, ask
from mcp_troupe.config import TroupeConfig
from mcp_troupe.errors import ApprovalRequired, CallCancelled, ToolDenied, TroupeClosed
from mcp_troupe.policy.fingerprint import ApprovalBook
from mcp_troupe.types import Risk, ToolSpec

__all__ = ["ApprovalAbandoned", "ApprovalDecided", "ApprovalGate"]

log = logging.getLogger("mcp_troupe.registry")


@dataclass(frozen=True, slots=True)
class ApprovalDecided:
    """The approver answered for ``call`` (loop task → registry)."""

    call: CallTool
    fingerprint: str
    is_approved: bool
    why: str
    remember: bool


@dataclass(frozen=True, slots=True)
class ApprovalAbandoned:
    """The caller cancelled the future of a call waiting for approval (an ``acall`` task was cancelled)."""

    reply_to: Future[Any]


class ApprovalGate:
    """The capability gate and the calls waiting for the approver (see the module docstring).

    ``registry`` is the actor the loop task and the callers' futures report to (:class:`ApprovalDecided`,
    :class:`ApprovalAbandoned`); ``spec_of(name)`` is the table's spec of a qualified name in it, and
    ``route_of(name)`` its current route, if any.
    """

    def __init__(
        self,
        config: TroupeConfig,
        *,
        approver: Approver | None,
        approvals: ApprovalBook,
        runtime: Runtime,
        registry: pykka.ActorRef[Any],
        spec_of: Callable[[str], ToolSpec],
        route_of: Callable[[str], Route | None],
    ) -> None:
        self._config = config
        self.approver = approver
        self._approvals = approvals
        self._runtime = runtime
        self._registry = registry
        self._spec_of = spec_of
        self._route_of = route_of
        # Calls waiting for the approver, by their reply_to: the task asking, and the call. A call cancelled
        # meanwhile leaves this map, so the approver's later yes finds nothing to forward.
        self._awaiting: dict[Future[Any], tuple[TaskHandle, CallTool]] = {}

    def is_waiting(self, reply_to: Future[Any]) -> bool:
        """Whether the call answered through ``reply_to`` waits for the approver."""
        return reply_to in self._awaiting

    def is_allowed(self, msg: CallTool, route: Route) -> bool:
        """Apply the capability gate and the approval mode; False when the call was refused or is waiting."""
        spec = self._spec_of(msg.name)
        status = self._approvals.status(route.server, route.original_name, route.fingerprint)
        decision = gate_decision(
            self._config, spec.name, spec.capabilities, spec.risk, approved_before=status == "approved"
        )
        if not decision.allowed:
            _fail(msg.reply_to, ToolDenied(spec.name, decision.reason))
            return False
        if not decision.needs_approval:
            if self._config.approval_mode == "auto" and spec.risk > Risk.READ_ONLY and status != "approved":
                # Pinned even when no human looked: a later change of definition is still logged as one.
                self._approvals.approve(route.server, route.original_name, route.fingerprint)
            return True
        is_changed = status == "changed"
        reason = decision.reason
        if is_changed:
            reason = "its definition CHANGED since it was approved (a possible rug pull); " + reason
        if self.approver is None:
            _fail(
                msg.reply_to,
                ApprovalRequired(
                    spec.name,
                    f"{reason}, and no approver is installed: pass approver= to Troupe (troupe call: answer"
                    " the prompt or use --yes; for troupe ctl call, start the manager with troupe run"
                    " --yes), or set permissions.approval.mode",
                ),
            )
            return False
        request = ApprovalRequest(
            tool=spec.name,
            server=route.server,
            original_name=route.original_name,
            description=spec.description,
            arguments=dict(msg.arguments or {}),
            risk=spec.risk,
            declared=dict(spec.annotations),
            trust_level=self._config.servers[route.server].trust_level,
            reason=reason,
            is_changed=is_changed,
        )
        registry = self._registry
        try:
            handle = self._runtime.loop.spawn(
                self._ask_approver,
                request,
                msg,
                route.fingerprint,
                decision.remember,
                name=f"approve {spec.name}",
                # ask() never raises; should the task still fail, the call is refused, not left waiting.
                on_error=lambda error: safe_tell(
                    registry,
                    ApprovalDecided(
                        msg, route.fingerprint, False, f"asking for approval failed: {error!r}", False
                    ),
                ),
            )
        except TroupeClosed as exc:
            _fail(msg.reply_to, exc)
            return False
        self._awaiting[msg.reply_to] = (handle, msg)

        def on_done(future: Future[Any]) -> None:
            # An acall whose task is cancelled cancels its future; nobody tells us otherwise. A future we
            # completed ourselves (a refusal, the call's result) needs no message.
            if future.cancelled():
                safe_tell(registry, ApprovalAbandoned(future))

        msg.reply_to.add_done_callback(on_done)
        return False

    def cancel(self, reply_to: Future[Any], reason: str) -> None:
        """Cancel a call that is waiting for approval: it never runs, whatever the approver says later."""
        handle, call = self._awaiting.pop(reply_to)
        handle.cancel()
        route = self._route_of(call.name)
        log.info("call to %s cancelled while waiting for approval (%s)", call.name, reason)
        _fail(reply_to, CallCancelled(route.server if route is not None else "?", None, call.name))

    async def _ask_approver(
        self, request: ApprovalRequest, call: CallTool, fingerprint: str, remember: bool
    ) -> None:
        assert self.approver is not None
        is_approved, why = await ask(self.approver, request)
        safe_tell(self._registry, ApprovalDecided(call, fingerprint, is_approved, why, remember))

    def decided(self, msg: ApprovalDecided) -> Route | None:
        """The approver's answer arrived: the route to forward the call on, or None when it must not go
        (refused, given up on meanwhile, or the tool changed since; the caller has been told)."""
        call = msg.call
        if self._awaiting.pop(call.reply_to, None) is None or call.reply_to.done():
            return None  # the caller cancelled or gave up while the human was thinking: the call never runs
        if not msg.is_approved:
            _fail(call.reply_to, ToolDenied(call.name, msg.why))
            return None
        route = self._route_of(call.name)
        if route is None or route.fingerprint != msg.fingerprint:
            # Approved what the human saw, not what the tool is now: never forward across a change.
            _fail(
                call.reply_to,
                ToolDenied(call.name, "the tool changed while approval was pending; call it again"),
            )
            return None
        return route

    def fail_waiting(self, error: Callable[[], BaseException]) -> None:
        """Fail every call waiting for approval with ``error()`` and stop asking (a crash, the shutdown)."""
        awaiting, self._awaiting = self._awaiting, {}
        for handle, call in awaiting.values():
            handle.cancel()
            _fail(call.reply_to, error())
