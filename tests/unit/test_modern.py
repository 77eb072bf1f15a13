"""The modern era's pure pieces: HTTP request headers, x-mcp-header declarations, MRTR params, discover."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe.errors import ProtocolError
from mcp_troupe.protocol import modern


def decode_header(value: str) -> str:
    if value.startswith("=?base64?") and value.endswith("?="):
        return base64.b64decode(value[len("=?base64?") : -2]).decode("utf-8")
    return value


def test_every_request_names_its_version_and_method_and_named_ones_their_name() -> None:
    headers = modern.request_headers("tools/call", {"name": "get_weather", "arguments": {}}, "2026-07-28")
    assert headers == {
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": "get_weather",
    }
    assert (
        modern.request_headers("resources/read", {"uri": "file:///a b"}, "2026-07-28")["Mcp-Name"]
        == "file:///a b"
    )
    assert "Mcp-Name" not in modern.request_headers("tools/list", None, "2026-07-28")


@pytest.mark.parametrize(
    "value",
    ["héllo", "line\nbreak", " leading", "trailing ", "=?base64?SGk=?=", "tab\there", "\x00"],
)
def test_values_that_are_not_plain_safe_ascii_use_the_base64_sentinel(value: str) -> None:
    encoded = modern.encode_header_value(value)
    assert encoded.startswith("=?base64?") and encoded.endswith("?=")
    assert decode_header(encoded) == value


@given(st.text(max_size=40))
def test_header_values_always_round_trip_and_are_header_safe(value: str) -> None:
    encoded = modern.encode_header_value(value)
    assert all(0x20 <= ord(char) <= 0x7E for char in encoded)
    assert encoded == encoded.strip()
    assert decode_header(encoded) == value


def test_an_empty_value_is_sent_as_it_is() -> None:
    assert modern.encode_header_value("") == ""


@given(st.text(min_size=100, max_size=300))
def test_long_and_short_values_encode_alike_and_the_memo_stays_bounded(value: str) -> None:
    # Short values are remembered (methods and tool names repeat on every request); long ones are not.
    encoded = modern.encode_header_value(value)
    assert decode_header(encoded) == value
    assert modern.encode_header_value(value) == encoded
    assert modern._encode_short_header_value.cache_info().currsize <= modern._CACHED_HEADER_VALUES


def schema_with(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


def test_declared_parameters_are_mirrored_when_present_and_not_null() -> None:
    schema = schema_with(
        region={"type": "string", "x-mcp-header": "Region"},
        count={"type": "integer", "x-mcp-header": "Count"},
        dry={"type": "boolean", "x-mcp-header": "Dry-Run"},
        nested={"type": "object", "properties": {"id": {"type": "string", "x-mcp-header": "Id"}}},
    )
    declared = modern.param_headers(schema)
    assert [(h.name, h.path) for h in declared] == [
        ("Count", ("count",)),
        ("Dry-Run", ("dry",)),
        ("Id", ("nested", "id")),
        ("Region", ("region",)),
    ]
    params = {
        "name": "t",
        "arguments": {"region": "eu-west", "count": 3, "dry": False, "nested": {"id": "ü"}},
    }
    headers = modern.request_headers("tools/call", params, "2026-07-28", declared)
    assert headers["Mcp-Param-Region"] == "eu-west"
    assert headers["Mcp-Param-Count"] == "3"
    assert headers["Mcp-Param-Dry-Run"] == "false"
    assert decode_header(headers["Mcp-Param-Id"]) == "ü"
    absent = modern.request_headers(
        "tools/call", {"name": "t", "arguments": {"region": None}}, "2026-07-28", declared
    )
    assert not any(name.startswith("Mcp-Param-") for name in absent)


def test_integers_beyond_the_safe_range_are_not_mirrored() -> None:
    declared = modern.param_headers(schema_with(n={"type": "integer", "x-mcp-header": "N"}))
    headers = modern.request_headers(
        "tools/call", {"name": "t", "arguments": {"n": 2**53}}, "2026-07-28", declared
    )
    assert "Mcp-Param-N" not in headers


@pytest.mark.parametrize(
    ("schema", "reason"),
    [
        (schema_with(x={"type": "number", "x-mcp-header": "X"}), "only string, integer and boolean"),
        (schema_with(x={"type": "string", "x-mcp-header": "bad name"}), "not a valid header name"),
        (schema_with(x={"type": "string", "x-mcp-header": ""}), "not a valid header name"),
        (
            schema_with(
                a={"type": "string", "x-mcp-header": "Dup"}, b={"type": "string", "x-mcp-header": "dup"}
            ),
            "declared twice",
        ),
        (
            {
                "type": "object",
                "properties": {"a": {"type": "array", "items": {"type": "string", "x-mcp-header": "A"}}},
            },
            "not on a 'properties' chain",
        ),
        ({"type": "object", "x-mcp-header": "Root"}, "not on a 'properties' chain"),
        (
            {"type": "object", "$defs": {"d": {"type": "string", "x-mcp-header": "D"}}},
            "not on a 'properties' chain",
        ),
    ],
)
def test_invalid_declarations_make_the_tool_invalid(schema: dict[str, Any], reason: str) -> None:
    with pytest.raises(ProtocolError, match=reason):
        modern.param_headers(schema)


def test_a_deeply_nested_schema_is_walked_without_recursion() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(5000):
        schema = {"type": "object", "properties": {"a": schema}}
    assert modern.param_headers(schema) == ()


def test_retry_params_carry_this_rounds_answers_only() -> None:
    first = modern.retry_params(
        {"name": "t", "inputResponses": {"old": {}}, "requestState": "old"}, {"k": {}}, None
    )
    assert first == {"name": "t", "inputResponses": {"k": {}}}
    assert modern.retry_params({"name": "t"}, {}, "s") == {"name": "t", "requestState": "s"}


def test_input_required_results_are_checked() -> None:
    needs = modern.input_required_of(
        {"resultType": "input_required", "inputRequests": {"a": {"method": "roots/list"}}}, "tools/call"
    )
    assert needs.request_state is None and list(needs.requests) == ["a"]
    with pytest.raises(ProtocolError, match="neither"):
        modern.input_required_of({"resultType": "input_required"}, "tools/call")
    with pytest.raises(ProtocolError, match="inputRequests\\['a'\\]"):
        modern.input_required_of({"inputRequests": {"a": 1}}, "tools/call")
    with pytest.raises(ProtocolError, match="requestState"):
        modern.input_required_of({"requestState": 3}, "tools/call")


def test_discover_results_are_checked() -> None:
    info, versions = modern.parse_discover_result(
        {"supportedVersions": ["2026-07-28"], "capabilities": {}, "instructions": "hi"}, "2026-07-28"
    )
    assert versions == ("2026-07-28",) and info.instructions == "hi" and info.server_info == {}
    with pytest.raises(ProtocolError):
        modern.parse_discover_result({"capabilities": {}}, "2026-07-28")
    with pytest.raises(ProtocolError):
        modern.parse_discover_result({"supportedVersions": ["x"]}, "2026-07-28")


def test_the_same_method_name_and_version_give_the_same_read_only_headers() -> None:
    # Issue #13: the transport merges these once per mapping, not on every call (see HttpConnection).
    params = {"name": "get_weather", "arguments": {"city": "Oslo"}}
    first = modern.request_headers("tools/call", params, "2026-07-28")
    again = modern.request_headers("tools/call", {"name": "get_weather"}, "2026-07-28")
    assert again is first
    with pytest.raises(TypeError):
        first["Mcp-Name"] = "other"  # type: ignore[index]
    assert modern.request_headers("tools/call", {"name": "other"}, "2026-07-28")["Mcp-Name"] == "other"
    assert modern.request_headers("tools/call", params, "2026-08-01")["MCP-Protocol-Version"] == "2026-08-01"


def test_a_long_name_is_encoded_all_the_same_and_not_kept() -> None:
    name = "é" * 300
    headers = modern.request_headers("resources/read", {"uri": name}, "2026-07-28")
    assert decode_header(headers["Mcp-Name"]) == name
    assert modern.request_headers("resources/read", {"uri": name}, "2026-07-28") is not headers


def test_declared_parameter_headers_are_a_new_mapping_beside_the_shared_one() -> None:
    declared = (modern.ParamHeader("Region", ("region",)),)
    params = {"name": "route", "arguments": {"region": "eu-west"}}
    shared = modern.request_headers("tools/call", params, "2026-07-28")
    mirrored = modern.request_headers("tools/call", params, "2026-07-28", declared)
    assert mirrored == {**shared, "Mcp-Param-Region": "eu-west"}
    assert "Mcp-Param-Region" not in shared
    # Declared but absent, or arguments that are not an object: nothing mirrored.
    assert (
        modern.request_headers("tools/call", {"name": "route", "arguments": {}}, "2026-07-28", declared)
        == shared
    )
    assert (
        modern.request_headers("tools/call", {"name": "route", "arguments": 3}, "2026-07-28", declared)
        == shared
    )
