"""Security policy end to end, against a real stdio server whose tools break every rule.

The registry must end in exactly the expected state: the poisoned tool, the broken schema and both sides of
the collision rejected with their reasons; exec tools approved once, dangerous ones every time; a tool whose
definition changes after approval quarantined until approved again; profiles and modes honoured.
"""

from __future__ import annotations

import dataclasses
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from mcp_troupe import ApprovalRequired, ToolDenied, Troupe, TroupeConfig, stdio_server
from mcp_troupe.approval import ApprovalRequest
from mcp_troupe.types import Risk, ToolSpec

pytestmark = [pytest.mark.faults, pytest.mark.timeout(30)]

SERVER = str(Path(__file__).parent / "servers" / "policy_server.py")


class RecordingApprover:
    """Says ``answer`` and records every request it was asked."""

    def __init__(self, answer: bool = True) -> None:
        self.answer = answer
        self.asked: list[ApprovalRequest] = []
        self._lock = threading.Lock()

    def __call__(self, request: ApprovalRequest) -> bool:
        with self._lock:
            self.asked.append(request)
        return self.answer

    def tools_asked(self) -> list[str]:
        return [request.original_name for request in self.asked]


@contextmanager
def policy_troupe(approver: Any = None, **settings: Any) -> Iterator[Troupe]:
    config = TroupeConfig(servers={"pol": stdio_server("pol", sys.executable, SERVER)}, **settings)
    with Troupe(config, approver=approver) as troupe:
        assert troupe.wait_ready(10)
        yield troupe


def by_name(troupe: Troupe) -> dict[str, ToolSpec]:
    return {spec.original_name: spec for spec in troupe.tools() if spec.server == "pol"}


def test_the_registry_ends_in_exactly_the_expected_state() -> None:
    with policy_troupe() as troupe:
        assert set(by_name(troupe)) == {"safe_read", "destroy", "mutable", "mutate"}
        (status,) = troupe.status()
        assert set(status.rejected) == {"poisoned", "bad_schema", "a.b", "a_b"}
        assert "prompt injection" in status.rejected["poisoned"]
        assert "sensitive-path" in status.rejected["poisoned"]
        assert status.rejected["bad_schema"].startswith("invalid inputSchema")
        assert "collides" in status.rejected["a.b"] and "collides" in status.rejected["a_b"]
        specs = by_name(troupe)
        # Untrusted: a readOnlyHint never lowers risk; destructiveHint raises it. The hints stay visible.
        assert specs["safe_read"].risk is Risk.EXEC and specs["safe_read"].annotations == {
            "readOnlyHint": True
        }
        assert specs["destroy"].risk is Risk.DANGEROUS


def test_warn_registers_the_suspicious_tool_with_its_finding() -> None:
    with policy_troupe(security_policy="warn") as troupe:
        poisoned = by_name(troupe)["poisoned"]
        assert poisoned.warnings and "prompt injection" in poisoned.warnings[0]


def test_exec_is_approved_once_dangerous_every_time_and_a_no_is_a_denial() -> None:
    approver = RecordingApprover()
    with policy_troupe(approver) as troupe:
        for _ in range(2):
            troupe.call("mcp__pol__mutable", {"path": "x"})
            troupe.call("mcp__pol__destroy", {"path": "x"})
        assert approver.tools_asked() == ["mutable", "destroy", "destroy"]
        request = approver.asked[1]
        assert (request.risk, request.declared) == (Risk.DANGEROUS, {"destructiveHint": True})
        assert request.arguments == {"path": "x"}

        approver.answer = False
        with pytest.raises(ToolDenied, match="declined"):
            troupe.call("mcp__pol__destroy", {"path": "y"})


def test_a_definition_that_changes_after_approval_is_quarantined_until_approved_again() -> None:
    approver = RecordingApprover()
    with policy_troupe(approver) as troupe:
        troupe.call("mcp__pol__mutable", {"path": "x"})
        assert approver.tools_asked() == ["mutable"]
        troupe.call("mcp__pol__mutate")  # the server rewrites mutable's description, then says list_changed
        deadline = time.monotonic() + 10
        while not by_name(troupe)["mutable"].is_quarantined:
            assert time.monotonic() < deadline, "the changed tool was never quarantined"
            time.sleep(0.02)

        approver.answer = False
        with pytest.raises(ToolDenied):
            troupe.call("mcp__pol__mutable", {"path": "x"})
        assert approver.asked[-1].is_changed and "CHANGED" in approver.asked[-1].reason

        approver.answer = True
        assert troupe.call("mcp__pol__mutable", {"path": "x"}).text == "mutable ran"
        assert not by_name(troupe)["mutable"].is_quarantined
        asked = len(approver.asked)
        troupe.call("mcp__pol__mutable", {"path": "x"})
        assert len(approver.asked) == asked  # the new definition is the approved one now


def test_without_an_approver_an_exec_call_fails_at_once_saying_what_to_do() -> None:
    with policy_troupe() as troupe, pytest.raises(ApprovalRequired, match="no approver is installed"):
        troupe.call("mcp__pol__mutable", {"path": "x"})


def test_deny_mode_runs_nothing_above_read_only_and_auto_runs_everything() -> None:
    with policy_troupe(approval_mode="deny") as troupe, pytest.raises(ToolDenied, match="deny"):
        troupe.call("mcp__pol__safe_read", {"path": "x"})
    with policy_troupe(approval_mode="auto") as troupe:
        assert troupe.call("mcp__pol__destroy", {"path": "x"}).text == "destroy ran"


def test_unattended_profiles_call_only_what_tools_allow_lists() -> None:
    with policy_troupe(profile="daemon", allow=("mcp__pol__safe_*",), approval_mode="auto") as troupe:
        assert troupe.call("mcp__pol__safe_read", {"path": "x"}).text == "safe_read ran"
        with pytest.raises(ToolDenied, match=r"tools\.allow"):
            troupe.call("mcp__pol__mutable", {"path": "x"})


def test_filters_keep_only_what_the_operator_included() -> None:
    config_server = stdio_server("pol", sys.executable, SERVER)
    server = dataclasses.replace(
        config_server, tools_include=("safe_*", "mutable"), tools_exclude=("mutable",)
    )
    with Troupe(TroupeConfig(servers={"pol": server})) as troupe:
        assert troupe.wait_ready(10)
        assert set(by_name(troupe)) == {"safe_read"}
        (status,) = troupe.status()
        assert "tools_exclude" in status.rejected["mutable"] and "tools_include" in status.rejected["destroy"]
