"""MCP on top of JSON-RPC (``mcp_troupe.protocol.mcp``): the handshake, tool definitions and pagination.

Every parser faces untrusted JSON: it returns a typed view or raises :class:`ProtocolError` naming the field
that was wrong, and one bad tool in a page is reported without losing the page.
"""

from __future__ import annotations

from typing import Any

import pytest

from mcp_troupe.errors import ProtocolError
from mcp_troupe.protocol.mcp import (
    NO_META,
    PageGuard,
    ToolDefinition,
    call_tool_params,
    cancelled_params,
    initialize_params,
    list_params,
    parse_initialize_result,
    parse_tool,
    parse_tools_page,
)

SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}}


def _tool(name: str = "read_file", **fields: Any) -> dict[str, Any]:
    return {"name": name, "inputSchema": SCHEMA, **fields}


# --- initialize -----------------------------------------------------------------------------------------


def test_initialize_params_offer_the_version_and_no_client_capabilities() -> None:
    params = initialize_params("2025-06-18", "mcp-troupe", "0.1.0")

    assert params == {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "mcp-troupe", "version": "0.1.0"},
    }


def test_parse_initialize_result_reads_every_field() -> None:
    result = parse_initialize_result(
        {
            "protocolVersion": "2025-03-26",
            "capabilities": {"tools": {"listChanged": True}, "logging": {}},
            "serverInfo": {"name": "weather", "version": "1.2"},
            "instructions": "Ask about the weather.",
        }
    )

    assert result.protocol_version == "2025-03-26"
    assert result.server_info == {"name": "weather", "version": "1.2"}
    assert result.instructions == "Ask about the weather."
    assert result.has_tools
    assert result.lists_changes("tools")
    assert not result.lists_changes("logging")
    assert not result.lists_changes("prompts")


@pytest.mark.parametrize(
    ("result", "field"),
    [
        ({"capabilities": {}, "serverInfo": {}}, "protocolVersion"),
        ({"protocolVersion": 20250618, "capabilities": {}}, "protocolVersion"),
        ({"protocolVersion": None, "capabilities": {}}, "protocolVersion"),
        ({"protocolVersion": "2025-06-18"}, "capabilities"),
        ({"protocolVersion": "2025-06-18", "capabilities": []}, "capabilities"),
        ({"protocolVersion": "2025-06-18", "capabilities": None}, "capabilities"),
    ],
    ids=repr,
)
def test_parse_initialize_result_refuses_a_missing_or_invalid_field_naming_it(
    result: dict[str, Any], field: str
) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_initialize_result(result)

    assert f"'{field}'" in str(caught.value)


@pytest.mark.parametrize("server_info", [None, "weather", ["weather"]])
def test_parse_initialize_result_tolerates_a_missing_or_invalid_server_info(server_info: object) -> None:
    raw: dict[str, Any] = {"protocolVersion": "2025-06-18", "capabilities": {}}
    if server_info is not None:
        raw["serverInfo"] = server_info

    result = parse_initialize_result(raw)

    assert result.server_info == {}


def test_parse_initialize_result_drops_instructions_that_are_not_text() -> None:
    result = parse_initialize_result(
        {"protocolVersion": "2025-06-18", "capabilities": {}, "instructions": 42}
    )

    assert result.instructions is None


@pytest.mark.parametrize("tools", [None, True, [], "yes"])
def test_a_tools_capability_counts_only_when_it_is_an_object(tools: object) -> None:
    result = parse_initialize_result({"protocolVersion": "2025-06-18", "capabilities": {"tools": tools}})

    assert not result.has_tools


def test_list_changed_must_be_exactly_true() -> None:
    result = parse_initialize_result(
        {"protocolVersion": "2025-06-18", "capabilities": {"tools": {"listChanged": "yes"}}}
    )

    assert not result.lists_changes("tools")


# --- parse_tool -----------------------------------------------------------------------------------------


def test_parse_tool_reads_every_field_and_keeps_the_raw_object() -> None:
    raw = _tool(
        description="Read a file.",
        title="Read File",
        outputSchema={"type": "object"},
        annotations={"readOnlyHint": True},
    )

    tool = parse_tool(raw)

    assert tool == ToolDefinition(
        name="read_file",
        input_schema=SCHEMA,
        description="Read a file.",
        title="Read File",
        output_schema={"type": "object"},
        annotations={"readOnlyHint": True},
    )
    assert tool.raw is raw


def test_parse_tool_fills_in_optional_fields() -> None:
    tool = parse_tool(_tool())

    assert tool.description == ""
    assert tool.title is None
    assert tool.output_schema is None
    assert tool.annotations == {}


def test_parse_tool_ignores_a_title_or_annotations_of_the_wrong_type() -> None:
    tool = parse_tool(_tool(title=7, annotations=["readOnlyHint"]))

    assert tool.title is None
    assert tool.annotations == {}


@pytest.mark.parametrize(
    ("obj", "problem"),
    [
        pytest.param("read_file", "a tool must be an object, got str", id="not-an-object"),
        pytest.param(None, "a tool must be an object, got NoneType", id="null"),
        pytest.param({"inputSchema": SCHEMA}, "'name'", id="no-name"),
        pytest.param({"name": "", "inputSchema": SCHEMA}, "'name'", id="empty-name"),
        pytest.param({"name": 42, "inputSchema": SCHEMA}, "'name'", id="int-name"),
        pytest.param({"name": "t"}, "tool 't': 'inputSchema' must be an object", id="no-input-schema"),
        pytest.param(
            {"name": "t", "inputSchema": "object"}, "'inputSchema' must be an object", id="str-schema"
        ),
        pytest.param({"name": "t", "inputSchema": None}, "'inputSchema' must be an object", id="null-schema"),
        pytest.param(
            _tool("t", description=["x"]), "tool 't': 'description' must be a string", id="description"
        ),
        pytest.param(
            _tool("t", outputSchema=[]), "tool 't': 'outputSchema' must be an object", id="output-schema"
        ),
    ],
)
def test_parse_tool_refuses_each_invalid_shape_saying_why(obj: object, problem: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_tool(obj)

    assert problem in str(caught.value)


# --- display_title --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"title": "Top", "annotations": {"title": "Annotated"}}, "Top"),
        ({"annotations": {"title": "Annotated"}}, "Annotated"),
        ({"title": "", "annotations": {"title": "Annotated"}}, "Annotated"),
        ({"annotations": {"title": ""}}, "read_file"),
        ({"annotations": {"title": 42}}, "read_file"),
        ({}, "read_file"),
    ],
    ids=repr,
)
def test_display_title_prefers_title_then_annotations_title_then_name(
    fields: dict[str, Any], expected: str
) -> None:
    assert parse_tool(_tool(**fields)).display_title == expected


# --- _meta ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("meta", "expected"),
    [
        ({"ui": {"resourceUri": "ui://app/view"}}, {"ui": {"resourceUri": "ui://app/view"}}),
        ({}, {}),
        ("ui://app/view", {}),
        (["ui"], {}),
        (None, {}),
    ],
    ids=repr,
)
def test_a_definitions_meta_is_kept_when_it_is_an_object(meta: object, expected: dict[str, Any]) -> None:
    tool = parse_tool(_tool(_meta=meta))

    assert dict(tool.meta) == expected
    if not expected:
        # Every definition without one shares the same read-only empty mapping.
        assert tool.meta is NO_META
        with pytest.raises(TypeError):
            tool.meta["x"] = 1  # type: ignore[index]


# --- parse_tools_page -----------------------------------------------------------------------------------


def test_a_tools_page_keeps_good_tools_and_rejects_bad_ones_with_reasons() -> None:
    page = parse_tools_page(
        {
            "tools": [
                _tool("good_one"),
                {"name": "no_schema"},
                "not a tool",
                {"name": 7, "inputSchema": SCHEMA},
                _tool("good_two"),
            ],
            "nextCursor": "page-2",
        }
    )

    assert [tool.name for tool in page.tools] == ["good_one", "good_two"]
    assert [label for label, _ in page.rejected] == ["no_schema", "#2", "#3"]
    assert "'inputSchema'" in page.rejected[0][1]
    assert "must be an object" in page.rejected[1][1]
    assert "'name'" in page.rejected[2][1]
    assert page.next_cursor == "page-2"


def test_a_tools_page_without_next_cursor_is_the_last() -> None:
    assert parse_tools_page({"tools": []}).next_cursor is None


def test_an_empty_string_is_a_valid_cursor() -> None:
    # spec: 2026-07-28 pagination — an empty string is a valid cursor, not the end of results.
    assert parse_tools_page({"tools": [], "nextCursor": ""}).next_cursor == ""


@pytest.mark.parametrize("cursor", [2, True, ["c"], {"page": 2}])
def test_a_tools_page_with_a_non_string_next_cursor_is_refused(cursor: object) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_tools_page({"tools": [_tool()], "nextCursor": cursor})

    assert "'nextCursor' must be a string" in str(caught.value)


@pytest.mark.parametrize("result", [{}, {"tools": None}, {"tools": {"read_file": {}}}], ids=repr)
def test_a_tools_page_without_a_tools_array_is_refused(result: dict[str, Any]) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_tools_page(result)

    assert "'tools' array" in str(caught.value)


# --- PageGuard ------------------------------------------------------------------------------------------


def test_page_guard_follows_distinct_cursors() -> None:
    guard = PageGuard("tools/list")

    for cursor in ["a", "b", "c", ""]:
        guard.count_page()
        guard.follow(cursor)

    assert guard.pages == 4


def test_page_guard_refuses_a_repeated_cursor_naming_it() -> None:
    guard = PageGuard("tools/list")
    guard.count_page()
    guard.follow("page-2")
    guard.count_page()

    with pytest.raises(ProtocolError) as caught:
        guard.follow("page-2")

    assert "'page-2'" in str(caught.value)
    assert "tools/list" in str(caught.value)


def test_page_guard_stops_after_max_pages() -> None:
    guard = PageGuard("tools/list", max_pages=3)
    fetched = 1  # the first page needs no cursor
    guard.count_page()

    with pytest.raises(ProtocolError) as caught:
        while True:
            guard.follow(f"cursor-{fetched}")
            fetched += 1
            guard.count_page()

    assert fetched == 3
    assert "more than 3 pages" in str(caught.value)


# --- request params -------------------------------------------------------------------------------------


def test_list_params_carry_the_cursor_only_when_there_is_one() -> None:
    assert list_params(None) is None
    assert list_params("c") == {"cursor": "c"}
    assert list_params("") == {"cursor": ""}


def test_call_tool_params_always_carry_an_arguments_object() -> None:
    arguments = {"path": "/tmp"}

    params = call_tool_params("read_file", arguments)

    assert params == {"name": "read_file", "arguments": {"path": "/tmp"}}
    assert params["arguments"] is not arguments
    assert call_tool_params("now", None) == {"name": "now", "arguments": {}}


def test_cancelled_params_carry_the_reason_only_when_there_is_one() -> None:
    assert cancelled_params(4, "timed out") == {"requestId": 4, "reason": "timed out"}
    assert cancelled_params("r", None) == {"requestId": "r"}
    assert cancelled_params(4, "") == {"requestId": 4}
