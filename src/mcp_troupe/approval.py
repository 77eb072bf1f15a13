"""Approval: what the agent's approver is asked, and how it is run without blocking any actor.

The agent installs an approver with ``Troupe(config, approver=...)``: any callable taking an
:class:`ApprovalRequest` and returning ``True`` (run it) or ``False`` (refuse), or an awaitable of that. The
registry decides *when* to ask (``policy.gate.decide``); the question is put on the I/O loop — an async
approver is awaited there, a sync one (which may block on a terminal prompt) runs in a worker thread — and the
answer comes back to the registry as a message.

Both the server's declared hints and the effective risk are in the request, so whoever approves sees what the
server claims and what mcp-troupe concluded from it.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio.to_thread

from mcp_troupe._loop_watch import LoopStallWatch
from mcp_troupe.types import Risk

__all__ = ["ApprovalRequest", "Approver", "approve_all", "ask"]

log = logging.getLogger("mcp_troupe.approval")


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    """One call waiting for a human's yes or no."""

    tool: str
    """The qualified name the model called (``mcp__fs__write_file``)."""
    server: str
    original_name: str
    description: str
    arguments: Mapping[str, Any]
    risk: Risk
    """The effective risk: what mcp-troupe concluded, after the server's trust level."""
    declared: Mapping[str, Any] = field(default_factory=dict)
    """The server's own annotations (hints), as it sent them."""
    trust_level: str = "untrusted"
    reason: str = ""
    """Why approval is asked: first call of an exec tool, a dangerous tool, or a changed definition."""
    is_changed: bool = False
    """The tool was approved before with another definition (a possible rug pull)."""

    def describe(self) -> str:
        """A few lines for a terminal prompt: the tool, both risk views, the arguments."""
        hints = ", ".join(f"{key}={value}" for key, value in self.declared.items()) or "none"
        lines = [
            f"{self.tool} (tool {self.original_name!r} of server {self.server!r}, {self.trust_level})",
            f"  effective risk: {self.risk}; declared hints: {hints}",
            f"  why: {self.reason}",
        ]
        if self.is_changed:
            lines.append("  WARNING: this tool's definition changed since it was approved")
        if self.description:
            first = self.description.strip().splitlines()[0] if self.description.strip() else ""
            lines.append(f"  description: {first[:200]}")
        lines.append(f"  arguments: {dict(self.arguments)!r:.500}")
        return "\n".join(lines)


Approver = Callable[[ApprovalRequest], "bool | Awaitable[bool]"]


def approve_all(request: ApprovalRequest) -> bool:
    """An approver that says yes to everything (``troupe call --yes``); each approval is logged."""
    log.warning("auto-approved %s (%s): %s", request.tool, request.risk, request.reason)
    return True


async def ask(approver: Approver, request: ApprovalRequest) -> tuple[bool, str]:
    """Put ``request`` to ``approver``; return ``(approved, why)``. Never raises: a failure refuses."""
    try:
        if inspect.iscoroutinefunction(approver):
            with LoopStallWatch(f"the approver (asked about {request.tool})"):
                answer: object = await approver(request)
        else:
            # A sync approver may block on input(); it must never hold the loop.
            answer = await anyio.to_thread.run_sync(approver, request, abandon_on_cancel=True)
            if inspect.isawaitable(answer):
                with LoopStallWatch(f"the approver (asked about {request.tool})"):
                    answer = await answer
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is None or task.cancelling() > 0:
            raise  # the call was cancelled, or the troupe is stopping
        # Raised by the approver of its own accord: a failure like any other (let through, the call waited
        # for an answer that never came).
        log.warning("the approver raised CancelledError for %s; refusing the call", request.tool)
        return False, "the approver failed: CancelledError()"
    except BaseException as exc:  # the approver is the agent's code; its failure is a refusal, not a crash
        # (SystemExit or KeyboardInterrupt too: raised on a worker thread, they would end the I/O loop.)
        log.warning("the approver failed for %s: %r; refusing the call", request.tool, exc)
        return False, f"the approver failed: {exc!r}"
    if answer is True:
        return True, "approved"
    if answer is not False:
        log.warning("the approver answered %s for %s, not True or False; refusing the call",
                    type(answer).__name__, request.tool)  # fmt: skip
        return False, f"the approver answered {type(answer).__name__}, not True or False"
    return False, "the approver declined"
