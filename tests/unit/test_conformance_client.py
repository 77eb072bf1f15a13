"""The conformance client's host behaviour that is pure: arguments made from a schema, the suite's calls."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.conformance.client import SCENARIOS, arguments_for, context_calls, sample_value


def test_only_required_properties_are_filled_each_with_a_value_its_schema_allows() -> None:
    schema = {
        "type": "object",
        "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "count": {"type": "integer"},
            "ratio": {"type": "number"},
            "on": {"type": "boolean"},
            "mode": {"type": "string", "enum": ["fast", "slow"]},
            "level": {"type": "integer", "default": 3},
            "tags": {"type": "array", "items": {"type": "string"}},
            "nested": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
            "maybe": {"type": ["null", "string"]},
            "optional": {"type": "string"},
        },
        "required": ["region", "count", "ratio", "on", "mode", "level", "tags", "nested", "maybe"],
    }
    assert arguments_for(schema) == {
        "region": "example",
        "count": 1,
        "ratio": 1.5,
        "on": True,
        "mode": "fast",
        "level": 3,
        "tags": [],
        "nested": {"x": "example"},
        "maybe": None,
    }


def test_a_schema_without_required_properties_gets_no_arguments() -> None:
    assert arguments_for({"type": "object", "properties": {}, "required": []}) == {}
    assert arguments_for({"type": "object"}) == {}
    # A required name with no property schema is not invented.
    assert arguments_for({"type": "object", "properties": {}, "required": ["ghost"]}) == {}


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(), lambda inner: st.lists(inner)))
def test_sample_value_never_raises_on_junk_keywords(junk: Any) -> None:
    # Schemas come from the server: any keyword may hold anything.
    for keyword in ("type", "enum", "examples", "properties", "required"):
        sample_value({keyword: junk})
        arguments_for({"properties": {"a": {keyword: junk}}, "required": ["a"]})


def test_the_suites_tool_calls_are_taken_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = [{"name": "a", "arguments": {"v": None}}, {"name": "b"}]
    monkeypatch.setenv("MCP_CONFORMANCE_CONTEXT", json.dumps({"name": "s", "toolCalls": calls}))
    assert context_calls() == [("a", {"v": None}), ("b", {})]


@pytest.mark.parametrize(
    "context",
    [
        {},
        {"toolCalls": []},
        {"toolCalls": [{"arguments": {}}]},
        {"toolCalls": [{"name": "a", "arguments": 1}]},
    ],
)
def test_malformed_tool_calls_are_named(monkeypatch: pytest.MonkeyPatch, context: dict[str, Any]) -> None:
    monkeypatch.setenv("MCP_CONFORMANCE_CONTEXT", json.dumps(context))
    with pytest.raises(ValueError, match="toolCalls"):
        context_calls()


def test_every_2026_scenario_that_calls_tools_has_a_plan() -> None:
    for scenario in (
        "request-metadata",
        "sep-2322-client-request-state",
        "http-custom-headers",
        "http-invalid-tool-headers",
        "json-schema-2020-12-preservation",
    ):
        assert SCENARIOS[scenario] is not None, scenario
