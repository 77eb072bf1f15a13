"""Catalog bounds: a definition past a bound is rejected, unread, with the bound and its key in the reason."""

from __future__ import annotations

import time
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe.policy.bounds import CatalogLimits, catalog_problem, definition_problem
from mcp_troupe.policy.catalog import evaluate_tool
from mcp_troupe.protocol.deepjson import TooDeep
from mcp_troupe.protocol.mcp import parse_tool

LIMITS = CatalogLimits(
    max_tools=10, max_description_chars=100, max_schema_bytes=2000, max_schema_depth=8, max_pattern_chars=20
)


def tool(schema: dict[str, Any] | None = None, **fields: Any) -> Any:
    return parse_tool({"name": "t", "inputSchema": schema or {"type": "object"}, **fields})


def nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


def test_an_ordinary_definition_passes() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string", "pattern": "^[a-z]+$"}}}
    assert definition_problem(tool(schema, description="Find things."), LIMITS) is None


def test_too_many_tools_reject_the_catalog_naming_the_key() -> None:
    assert catalog_problem(10, LIMITS) is None
    problem = catalog_problem(11, LIMITS)
    assert problem is not None and "tools.mcp.limits.max_tools (10)" in problem


def test_a_long_description_is_rejected() -> None:
    problem = definition_problem(tool(description="x" * 101), LIMITS)
    assert problem is not None and "max_description_chars" in problem


def test_a_deep_default_is_rejected_with_where_it_is() -> None:
    schema = {"type": "object", "properties": {"x": {"default": nested(20)}}}
    problem = definition_problem(tool(schema), LIMITS)
    assert problem is not None
    assert "max_schema_depth (8)" in problem and "inputSchema.properties.x.default[0]" in problem


def test_a_decoder_marker_is_rejected_as_too_deep() -> None:
    schema = {"type": "object", "properties": {"x": {"default": TooDeep()}}}
    problem = definition_problem(tool(schema), LIMITS)
    assert problem is not None and "nests deeper" in problem


def test_a_long_pattern_or_pattern_property_is_rejected() -> None:
    long_pattern = {"type": "object", "properties": {"x": {"type": "string", "pattern": "a" * 21}}}
    problem = definition_problem(tool(long_pattern), LIMITS)
    assert problem is not None and "inputSchema.properties.x.pattern" in problem
    long_key = {"type": "object", "patternProperties": {"b" * 21: {}}}
    problem = definition_problem(tool(long_key), LIMITS)
    assert problem is not None and "max_pattern_chars" in problem


def test_a_big_schema_or_output_schema_is_rejected() -> None:
    big = {"type": "object", "properties": {f"p{index}": {"type": "string"} for index in range(200)}}
    problem = definition_problem(tool(big), LIMITS)
    assert problem is not None and "inputSchema is larger than" in problem
    problem = definition_problem(tool(outputSchema=big), LIMITS)
    assert problem is not None and "outputSchema is larger than" in problem


def test_measuring_stops_early_on_a_huge_schema() -> None:
    huge = {"type": "object", "enum": list(range(2_000_000))}
    started = time.monotonic()
    assert definition_problem(tool(huge), LIMITS) is not None
    assert time.monotonic() - started < 0.5


def test_evaluate_tool_rejects_before_it_fingerprints_or_scans() -> None:
    schema = {"type": "object", "properties": {"x": {"default": nested(5000)}}}
    verdict = evaluate_tool(
        tool(schema), trust="untrusted", include=None, exclude=(), security_policy="block", limits=LIMITS
    )
    assert verdict.rejected is not None and "max_schema_depth" in verdict.rejected
    assert verdict.fingerprint.startswith("unjudged:")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=40,
)


@given(st.dictionaries(st.sampled_from(["type", "pattern", "patternProperties", "default", "x"]), JSON))
def test_any_schema_is_measured_without_error_and_within_bounds_passes(schema: dict[str, Any]) -> None:
    problem = definition_problem(tool({"type": "object", **schema}), LIMITS)
    roomy = CatalogLimits(max_schema_depth=1000, max_schema_bytes=10**9, max_pattern_chars=10**6)
    assert problem is None or isinstance(problem, str)
    assert definition_problem(tool({"type": "object", **schema}), roomy) is None
