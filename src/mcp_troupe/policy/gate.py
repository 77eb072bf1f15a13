"""The capability gate: may this tool be called now, and must someone approve the call first?

Two questions, in this order:

1. **Capability.** Every MCP tool, and the built-ins ``mcp_resources`` and ``mcp_prompts``, carries the
   capability ``mcp.call``. Under the ``interactive`` profile it is granted (a human is there to approve).
   Under ``public_gateway`` and ``daemon`` no human watches each call, so it is denied unless the qualified
   tool name matches ``tools.allow`` (exact names and ``*``/``?`` patterns, :mod:`mcp_troupe.policy.filters`);
   under ``interactive`` ``tools.allow`` plays no part.
2. **Approval** (``permissions.approval.mode``), by the tool's *effective* risk:

   ==============  ==========  ===============================  ==================
   effective risk  ``ask``     ``auto``                         ``deny``
   ==============  ==========  ===============================  ==================
   read_only       runs        runs                             runs
   exec            asks once   runs (logged as auto-approved)   refused
                   per process
   dangerous       asks every  runs (logged as auto-approved)   refused
                   call
   ==============  ==========  ===============================  ==================

   ``ask`` is the default. An exec tool's approval is remembered for the life of the process (the caller
   records it, see ``remember``); a dangerous tool is asked for on every call, because what makes it
   dangerous is the particular arguments. ``auto`` is for automation whose tool set the operator has vetted
   (for example with a tight ``tools.allow``). ``deny`` is the read-only mode: nothing that can change the
   world runs, and nobody is asked.

This module does not know whether anybody *can* answer. :func:`decide` says ``needs_approval``; the caller
asks its approval callback and refuses the call when none is installed — which is what ``ask`` means under
``daemon`` and ``public_gateway`` unless the embedding application installs a callback (read_only tools still
run; exec and dangerous ones are refused with the reason that no approver is available). Quarantine of changed
definitions (:mod:`mcp_troupe.policy.fingerprint`) is checked before the gate and is not its business.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal, assert_never

from mcp_troupe.policy.filters import first_match
from mcp_troupe.types import Risk

__all__ = ["MCP_CALL", "ApprovalMode", "GateDecision", "Profile", "decide"]

Profile = Literal["interactive", "public_gateway", "daemon"]
"""``tools.profile``: who is in front of the agent. Only ``interactive`` has a human at hand for each call."""

ApprovalMode = Literal["ask", "auto", "deny"]
"""``permissions.approval.mode``; see the table in the module docstring."""

MCP_CALL: Final = "mcp.call"
"""The capability every MCP tool, ``mcp_resources`` and ``mcp_prompts`` carries."""

_UNATTENDED_PROFILES: Final[frozenset[str]] = frozenset({"public_gateway", "daemon"})


@dataclass(frozen=True, slots=True)
class GateDecision:
    """What the gate says about one call.

    ``allowed`` false: refuse, with ``reason``. Otherwise the call runs once approval is settled: when
    ``needs_approval`` is true the caller must get a yes from its approval callback first (and refuse when it
    has none), and when ``remember`` is also true a yes counts for the rest of the process (pass
    ``approved_before=True`` from then on). ``reason`` is written for the operator's log and for the model.
    """

    allowed: bool
    needs_approval: bool
    remember: bool
    reason: str


def _refuse(reason: str) -> GateDecision:
    return GateDecision(allowed=False, needs_approval=False, remember=False, reason=reason)


def _run(reason: str) -> GateDecision:
    return GateDecision(allowed=True, needs_approval=False, remember=False, reason=reason)


def decide(
    *,
    tool_name: str,
    capabilities: Sequence[str],
    risk: Risk,
    profile: Profile,
    allow: Sequence[str],
    mode: ApprovalMode,
    approved_before: bool,
) -> GateDecision:
    """Decide whether the tool ``tool_name`` (qualified name) may be called, and whether approval is needed.

    ``risk`` is the effective risk (after the server's trust level); ``approved_before`` says whether this
    process already approved this tool's current definition.
    """
    if MCP_CALL in capabilities and profile in _UNATTENDED_PROFILES:
        matched = first_match(tool_name, allow)
        if matched is None:
            return _refuse(
                f"{tool_name!r} needs capability {MCP_CALL}, which profile {profile!r} denies unless the "
                f"tool is allowed: add {tool_name!r} (or a pattern such as 'mcp__<server>__*') to tools.allow"
            )

    if risk is Risk.READ_ONLY:
        return _run(f"{tool_name!r} is read_only: runs without approval")

    match mode:
        case "auto":
            return _run(f"{tool_name!r} ({risk}) auto-approved: permissions.approval.mode is 'auto'")
        case "deny":
            return _refuse(
                f"{tool_name!r} is {risk}, and permissions.approval.mode 'deny' refuses every tool "
                "above read_only"
            )
        case "ask":
            if risk is Risk.DANGEROUS:
                return GateDecision(
                    allowed=True,
                    needs_approval=True,
                    remember=False,
                    reason=f"{tool_name!r} is dangerous: every call needs approval",
                )
            if approved_before:
                return _run(f"{tool_name!r} (exec) was approved earlier in this process")
            return GateDecision(
                allowed=True,
                needs_approval=True,
                remember=True,
                reason=f"{tool_name!r} is exec: needs approval once for this process",
            )
        case _:
            assert_never(mode)
