"""A big catalog is judged in slices (issue 15): the registry answers between them, and no tool of the
catalog is callable before its verdict (DESIGN §2 rule 8)."""

from __future__ import annotations

import time

import pytest

from mcp_troupe.actors import registry as registry_module
from mcp_troupe.actors.session import CallRequest
from mcp_troupe.errors import UnknownTool

from .fakes import DEFAULT_WAIT, ProbeHandle
from .test_registry_actor import RegistryUnderTest, registry, session  # noqa: F401  (fixtures)

TOOLS = [f"tool_{index}" for index in range(300)]


@pytest.fixture(autouse=True)
def _tiny_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every slice ends after its first 16 tools: the catalog below takes about twenty of them.
    monkeypatch.setattr(registry_module, "JUDGE_SLICE_SECONDS", 0.0)


def wait_for_tools(under_test: RegistryUnderTest, count: int) -> None:
    deadline = time.monotonic() + DEFAULT_WAIT
    while len(under_test.tools()) < count:
        assert time.monotonic() < deadline, "the catalog was never judged"
        time.sleep(0.01)


@pytest.mark.timeout(30)
def test_no_tool_is_callable_before_its_catalog_is_judged_and_the_registry_answers_meanwhile(
    registry: RegistryUnderTest,  # noqa: F811
    session: ProbeHandle,  # noqa: F811
) -> None:
    registry.up("alpha", 1, session, *TOOLS)
    early = registry.call("mcp__alpha__tool_299", {})
    (alpha, _beta) = registry.status()  # answered while the judging is under way
    assert alpha.tool_count < len(TOOLS)

    error = early.exception(timeout=DEFAULT_WAIT)
    assert isinstance(error, UnknownTool) and "still being checked" in str(error)
    session.assert_none(CallRequest)

    wait_for_tools(registry, len(TOOLS))
    assert registry.status()[0].tool_count == len(TOOLS)
    registry.call("mcp__alpha__tool_299", {})
    assert session.expect(CallRequest).params == {"name": "tool_299", "arguments": {}}


@pytest.mark.timeout(30)
def test_a_catalog_replaced_mid_judging_is_judged_afresh_and_the_old_one_never_lands(
    registry: RegistryUnderTest,  # noqa: F811
    session: ProbeHandle,  # noqa: F811
) -> None:
    registry.up("alpha", 1, session, *TOOLS)
    registry.up("alpha", 2, session, "only_this")
    deadline = time.monotonic() + DEFAULT_WAIT
    while [spec.name for spec in registry.tools()] != ["mcp__alpha__only_this"]:
        assert time.monotonic() < deadline, registry.tools()[:3]
        time.sleep(0.01)
    time.sleep(0.2)  # any stale slice of the first catalog would have landed by now
    assert [spec.name for spec in registry.tools()] == ["mcp__alpha__only_this"]
