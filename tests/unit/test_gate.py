"""The capability gate: mcp.call per profile and tools.allow, then the approval mode by effective risk."""

from __future__ import annotations

import itertools

import pytest

from mcp_troupe.policy.gate import MCP_CALL, ApprovalMode, GateDecision, Profile, decide
from mcp_troupe.types import Risk

TOOL = "mcp__github__create_issue"
PROFILES: list[Profile] = ["interactive", "public_gateway", "daemon"]
MODES: list[ApprovalMode] = ["ask", "auto", "deny"]

# What the approval mode decides once the capability is granted:
# (risk, mode, approved_before) -> (allowed, needs_approval, remember)
APPROVAL_TABLE = {
    (Risk.READ_ONLY, "ask", False): (True, False, False),
    (Risk.READ_ONLY, "ask", True): (True, False, False),
    (Risk.READ_ONLY, "auto", False): (True, False, False),
    (Risk.READ_ONLY, "deny", False): (True, False, False),
    (Risk.EXEC, "ask", False): (True, True, True),
    (Risk.EXEC, "ask", True): (True, False, False),
    (Risk.EXEC, "auto", False): (True, False, False),
    (Risk.EXEC, "deny", False): (False, False, False),
    (Risk.EXEC, "deny", True): (False, False, False),
    (Risk.DANGEROUS, "ask", False): (True, True, False),
    (Risk.DANGEROUS, "ask", True): (True, True, False),
    (Risk.DANGEROUS, "auto", False): (True, False, False),
    (Risk.DANGEROUS, "deny", False): (False, False, False),
}


def gate(
    *,
    risk: Risk = Risk.EXEC,
    profile: Profile = "interactive",
    allow: tuple[str, ...] = (),
    mode: ApprovalMode = "ask",
    approved_before: bool = False,
    capabilities: tuple[str, ...] = (MCP_CALL,),
    tool: str = TOOL,
) -> GateDecision:
    return decide(
        tool_name=tool,
        capabilities=capabilities,
        risk=risk,
        profile=profile,
        allow=allow,
        mode=mode,
        approved_before=approved_before,
    )


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize(("risk", "mode", "approved_before"), APPROVAL_TABLE)
def test_the_approval_mode_decides_by_effective_risk_once_the_capability_is_granted(
    profile: Profile, risk: Risk, mode: ApprovalMode, approved_before: bool
) -> None:
    decision = gate(risk=risk, profile=profile, allow=("*",), mode=mode, approved_before=approved_before)
    assert (decision.allowed, decision.needs_approval, decision.remember) == APPROVAL_TABLE[
        (risk, mode, approved_before)
    ]
    assert decision.reason


@pytest.mark.parametrize(
    ("profile", "risk", "mode"),
    list(itertools.product(["public_gateway", "daemon"], list(Risk), MODES)),
)
def test_unattended_profiles_deny_mcp_call_unless_allowed(
    profile: Profile, risk: Risk, mode: ApprovalMode
) -> None:
    decision = gate(profile=profile, risk=risk, mode=mode, allow=("mcp__slack__*",))
    assert not decision.allowed and not decision.needs_approval
    assert f"profile {profile!r}" in decision.reason
    assert "tools.allow" in decision.reason and repr(TOOL) in decision.reason


@pytest.mark.parametrize(
    "pattern", [TOOL, "mcp__github__*", "mcp__*__create_issue", "*", "mcp__github__create_issu?"]
)
def test_an_exact_name_or_a_pattern_in_allow_grants_the_capability(pattern: str) -> None:
    assert gate(profile="daemon", allow=(pattern,), mode="auto").allowed


def test_interactive_ignores_the_allow_list() -> None:
    decision = gate(profile="interactive", allow=())
    assert decision.allowed and decision.needs_approval


def test_a_tool_without_mcp_call_is_not_gated_by_the_profile() -> None:
    decision = gate(profile="daemon", allow=(), capabilities=("other.capability",), risk=Risk.READ_ONLY)
    assert decision.allowed


def test_builtin_resource_and_prompt_tools_are_gated_like_any_other() -> None:
    for builtin in ("mcp_resources", "mcp_prompts"):
        assert not gate(tool=builtin, profile="public_gateway", risk=Risk.READ_ONLY).allowed
        assert gate(tool=builtin, profile="public_gateway", allow=(builtin,), risk=Risk.READ_ONLY).allowed


def test_ask_under_a_daemon_still_asks_and_leaves_refusal_to_the_caller() -> None:
    # No human is there; decide() cannot know whether an approval callback is installed.
    decision = gate(profile="daemon", allow=("*",), mode="ask", risk=Risk.EXEC)
    assert decision.allowed and decision.needs_approval and decision.remember


def test_the_deny_reason_names_the_mode_and_the_risk() -> None:
    decision = gate(mode="deny", risk=Risk.DANGEROUS)
    assert "'deny'" in decision.reason and "dangerous" in decision.reason
