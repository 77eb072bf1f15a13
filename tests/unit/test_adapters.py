"""The LLM adapters over real tool definitions, checked against the providers' own SDK types and rules."""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_troupe import ToolResult, ToolSpec, adapters
from mcp_troupe.adapters._schema import ArgumentMap, Unconvertible, gemini_schema, inline_refs, openai_schema
from mcp_troupe.builtin_tools import BUILTIN_TOOLS, SEARCH_SPEC
from mcp_troupe.policy.names import qualify

# The providers' SDKs, imported when this module's first test runs rather than when it is collected: every
# xdist worker collects every module, and these imports are ~5 s of CPU that the worker not running this
# module would pay for nothing. A missing SDK still skips the whole module.
openai_types: Any = None
anthropic_types: Any = None
genai_types: Any = None
pydantic: Any = None


@pytest.fixture(autouse=True, scope="module")
def _provider_sdks() -> None:
    global openai_types, anthropic_types, genai_types, pydantic
    openai_types = pytest.importorskip("openai.types")
    anthropic_types = pytest.importorskip("anthropic.types")
    genai_types = pytest.importorskip("google.genai.types")
    pydantic = pytest.importorskip("pydantic")


CORPUS = Path(__file__).resolve().parents[1] / "data" / "tool_corpus.json.gz"
_STRICT_KEYS = {
    "type", "description", "title", "enum", "const", "pattern", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "properties", "items", "anyOf", "required",
    "additionalProperties", "format",
}  # fmt: skip


def corpus_specs() -> list[ToolSpec]:
    servers = json.loads(gzip.decompress(CORPUS.read_bytes()))
    specs = [
        ToolSpec(
            name=qualify(entry["server"], tool["name"]),
            original_name=tool["name"],
            server=entry["server"],
            description=tool.get("description") or "",
            input_schema=tool.get("inputSchema") or {"type": "object"},
        )
        for entry in servers
        for tool in entry["tools"]
    ]
    return [*specs, SEARCH_SPEC, *(tool.spec for tool in BUILTIN_TOOLS.values())]


@pytest.fixture(scope="module")
def specs() -> list[ToolSpec]:
    return corpus_specs()


def spec(schema: Mapping[str, Any], name: str = "mcp__s__tool") -> ToolSpec:
    return ToolSpec(name=name, original_name="tool", server="s", description="A tool.", input_schema=schema)


def walk(node: Any) -> Iterator[Mapping[str, Any]]:
    if isinstance(node, Mapping):
        yield node
        for key, value in node.items():
            if key in ("properties", "$defs"):
                for child in value.values():
                    yield from walk(child)
            elif key == "items" or key == "anyOf":
                yield from walk(value)
    elif isinstance(node, list):
        for child in node:
            yield from walk(child)


# ---- tool lists over the real corpus ------------------------------------------------------------------


def chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def test_every_corpus_tool_is_a_valid_openai_chat_tool_or_excluded_with_a_reason(
    specs: list[ToolSpec],
) -> None:
    adapter = pydantic.TypeAdapter(openai_types.chat.ChatCompletionFunctionToolParam)
    for batch in chunks(specs, 128):
        tools = adapters.openai_tools(batch, api="chat")
        assert len(tools) + len(tools.excluded) == len(batch)
        for tool in tools:
            adapter.validate_python(tool)
            assert tool["function"]["parameters"]["type"] == "object"
            assert "properties" in tool["function"]["parameters"]


def test_strict_openai_schemas_follow_every_structured_output_rule(specs: list[ToolSpec]) -> None:
    adapter = pydantic.TypeAdapter(openai_types.responses.FunctionToolParam)
    included = 0
    for batch in chunks(specs, 128):
        tools = adapters.openai_tools(batch, api="responses", strict=True)
        assert len(tools) + len(tools.excluded) == len(batch)
        assert all(reason for reason in tools.excluded.values())
        for tool in tools:
            adapter.validate_python(tool)
            assert tool["strict"] is True
            for node in walk(tool["parameters"]):
                assert set(node) <= _STRICT_KEYS, (tool["name"], set(node) - _STRICT_KEYS)
                if "properties" in node:
                    assert node["additionalProperties"] is False
                    assert node["required"] == list(node["properties"])
            included += 1
    # Real tools are overwhelmingly expressible: a converter that excluded most would be useless.
    assert included >= 0.95 * len(specs)


def test_every_corpus_tool_is_a_valid_anthropic_tool_or_excluded(specs: list[ToolSpec]) -> None:
    adapter = pydantic.TypeAdapter(anthropic_types.ToolParam)
    tools = adapters.anthropic_tools(specs)
    assert len(tools) + len(tools.excluded) == len(specs)
    for tool in tools:
        adapter.validate_python(tool)
        assert not {"oneOf", "anyOf", "allOf"} & set(tool["input_schema"])
    assert len(tools) >= 0.98 * len(specs)


def test_every_corpus_tool_is_a_gemini_declaration_in_the_schema_subset(specs: list[ToolSpec]) -> None:
    tools = adapters.gemini_tools(specs)
    assert len(tools) + len(tools.excluded) == len(specs)
    for declaration in tools:
        # extra="forbid" in the SDK's models: an unknown key anywhere fails here.
        genai_types.FunctionDeclaration.model_validate(declaration)
        for node in walk(declaration.get("parameters", {})):
            assert not {"$ref", "$defs", "additionalProperties", "oneOf", "allOf", "const"} & set(node)
            assert isinstance(node.get("type", "STRING"), str)
            if node.get("type") == "ARRAY":
                assert "items" in node
            if "enum" in node:
                assert all(isinstance(value, str) for value in node["enum"])
            for name in node.get("properties", {}):
                assert adapters._GEMINI_NAME.match(name), name
    assert len(tools) >= 0.97 * len(specs)


def test_each_exclusion_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    bad = spec({"type": "object", "anyOf": [{"properties": {"a": {"type": "string"}}}]})
    tools = adapters.anthropic_tools([bad])
    assert list(tools.excluded) == ["mcp__s__tool"] and "anyOf" in tools.excluded["mcp__s__tool"]
    assert "left out" in caplog.text and "mcp__s__tool" in caplog.text


def test_openai_lists_stop_at_the_apis_128_tools() -> None:
    many = [spec({"type": "object"}, name=f"mcp__s__t{index}") for index in range(130)]
    tools = adapters.openai_tools(many)
    assert len(tools) == 128 and set(tools.excluded) == {"mcp__s__t128", "mcp__s__t129"}


def test_names_that_clash_after_renaming_are_both_left_out() -> None:
    tools = adapters.gemini_tools([spec({}, name="9tool"), spec({}, name="_9tool")])
    assert tools == [] or len(tools) == 1
    renamed = adapters.gemini_tools([spec({}, name="9tool")])
    assert renamed[0]["name"] == "_9tool"
    assert adapters.troupe_name("gemini", "_9tool") == "9tool"


def test_quarantined_tools_are_left_out() -> None:
    tools = adapters.openai_tools(
        [ToolSpec("mcp__s__t", "t", "s", "d", {"type": "object"}, is_quarantined=True)]
    )
    assert tools == [] and "quarantined" in tools.excluded["mcp__s__t"]


@pytest.mark.parametrize(
    ("meta", "is_app_only"),
    [
        ({"ui": {"resourceUri": "ui://s/view", "visibility": ["app"]}}, True),
        ({"ui": {"visibility": []}}, True),
        ({"ui": {"resourceUri": "ui://s/view", "visibility": ["model", "app"]}}, False),
        ({"ui": {"resourceUri": "ui://s/view"}}, False),  # the default: model and app
        ({"ui": {"visibility": "app"}}, False),  # not a list: not a visibility at all
        ({"ui": "ui://s/view"}, False),
        ({}, False),
    ],
    ids=repr,
)
def test_mcp_apps_app_only_tools_are_left_out_of_every_providers_list(
    meta: dict[str, Any], is_app_only: bool
) -> None:
    tool = ToolSpec("mcp__s__t", "t", "s", "d", {"type": "object"}, meta=meta)
    assert tool.is_app_only is is_app_only
    for build in (adapters.openai_tools, adapters.anthropic_tools, adapters.gemini_tools):
        tools = build([tool])
        if is_app_only:
            assert tools == [] and "visible to the server's app alone" in tools.excluded["mcp__s__t"]
        else:
            assert len(tools) == 1 and not tools.excluded


# ---- schema conversion and the way back ---------------------------------------------------------------


def test_strict_mode_makes_optional_fields_nullable_and_arguments_for_drops_their_nulls() -> None:
    schema = {
        "type": "object",
        "properties": {"path": {"type": "string"}, "limit": {"type": "integer", "default": 10}},
        "required": ["path"],
    }
    tools = adapters.openai_tools([spec(schema)], strict=True)
    parameters = tools[0]["function"]["parameters"]
    assert parameters["required"] == ["path", "limit"]
    assert parameters["properties"]["limit"]["type"] == ["integer", "null"]
    assert "default: 10" in parameters["properties"]["limit"]["description"]
    assert tools.arguments_for("mcp__s__tool", {"path": "a", "limit": None}) == {"path": "a"}
    assert adapters.arguments_for("openai", "mcp__s__tool", {"path": "a", "limit": 3}) == {
        "path": "a",
        "limit": 3,
    }


def test_a_null_the_original_schema_allowed_is_kept() -> None:
    schema = {"type": "object", "properties": {"note": {"type": ["string", "null"]}}}
    parameters, mapping = openai_schema(schema, strict=True)
    assert parameters["properties"]["note"]["type"] == ["string", "null"]
    assert mapping.apply({"note": None}) == {"note": None}


def test_free_form_objects_travel_as_json_strings_and_come_back_decoded() -> None:
    schema = {
        "type": "object",
        "properties": {"headers": {"type": "object", "additionalProperties": {"type": "string"}}},
    }
    parameters, mapping = openai_schema(schema, strict=True)
    assert parameters["properties"]["headers"]["type"] == ["string", "null"]
    assert mapping.apply({"headers": '{"a": "b"}'}) == {"headers": {"a": "b"}}
    gemini, gemini_map = gemini_schema(schema)
    assert gemini is not None and gemini["properties"]["headers"]["type"] == "STRING"
    assert gemini_map.apply({"headers": '{"a": 1}'}) == {"headers": {"a": 1}}
    assert gemini_map.apply({"headers": "not json"}) == {"headers": "not json"}


def test_refs_are_inlined_and_recursive_refs_refused() -> None:
    schema = {
        "type": "object",
        "$defs": {"point": {"type": "object", "properties": {"x": {"type": "number"}}}},
        "properties": {"at": {"$ref": "#/$defs/point", "description": "Where."}},
    }
    inlined = inline_refs(schema)
    assert inlined["properties"]["at"] == {
        "type": "object",
        "properties": {"x": {"type": "number"}},
        "description": "Where.",
    }
    recursive = {
        "type": "object",
        "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
        "properties": {"head": {"$ref": "#/$defs/node"}},
    }
    with pytest.raises(Unconvertible, match="recursive"):
        inline_refs(recursive)
    tools = adapters.gemini_tools([spec(recursive)])
    assert "recursive" in tools.excluded["mcp__s__tool"]


def test_gemini_renames_parameters_outside_its_name_rule_and_maps_them_back() -> None:
    schema = {
        "type": "object",
        "properties": {"$filter": {"type": "string"}, "2nd": {"type": "integer"}},
        "required": ["$filter"],
    }
    parameters, mapping = gemini_schema(schema)
    assert parameters is not None
    assert set(parameters["properties"]) == {"_filter", "_2nd"} and parameters["required"] == ["_filter"]
    assert mapping.apply({"_filter": "x", "_2nd": 2}) == {"$filter": "x", "2nd": 2}


def test_gemini_types_enums_and_nullables_use_the_subset() -> None:
    schema = {
        "type": "object",
        "properties": {
            "mode": {"type": "string", "enum": ["a", "b"]},
            "level": {"type": "integer", "enum": [1, 2]},
            "maybe": {"type": ["string", "null"], "format": "email"},
            "either": {"oneOf": [{"type": "string"}, {"type": "number"}]},
        },
    }
    parameters, _ = gemini_schema(schema)
    assert parameters is not None
    properties = parameters["properties"]
    assert properties["mode"] == {"type": "STRING", "enum": ["a", "b"], "format": "enum"}
    assert properties["level"]["type"] == "INTEGER" and "one of: 1, 2" in properties["level"]["description"]
    assert properties["maybe"]["nullable"] is True and "format: email" in properties["maybe"]["description"]
    assert [option["type"] for option in properties["either"]["anyOf"]] == ["STRING", "NUMBER"]


def test_a_tool_without_arguments_has_no_gemini_parameters() -> None:
    assert "parameters" not in adapters.gemini_tools([spec({"type": "object"})])[0]


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.dictionaries(
            st.sampled_from(
                ["type", "description", "enum", "items", "properties", "required", "anyOf", "$ref", "default"]
            ),
            st.one_of(st.text(max_size=5), st.integers(), st.booleans(), st.none()),
            max_size=4,
        ),
        lambda children: st.dictionaries(
            st.sampled_from(["properties", "items", "anyOf", "type"]), children, max_size=3
        ),
        max_leaves=10,
    )
)
def test_any_schema_converts_or_is_refused_with_unconvertible(schema: dict[str, Any]) -> None:
    # Untrusted server input: conversion either succeeds or says why, never another exception.
    for convert in (
        lambda: openai_schema(schema, strict=True),
        lambda: openai_schema(schema, strict=False),
        lambda: gemini_schema(schema),
    ):
        try:
            convert()
        except Unconvertible:
            pass


# ---- tool results ---------------------------------------------------------------------------------------

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nrest").decode()


def result(*, is_error: bool = False, image: bool = False) -> ToolResult:
    content: list[dict[str, Any]] = [{"type": "text", "text": "done"}]
    if image:
        content.append({"type": "image", "mimeType": "image/png", "data": PNG})
    text = "done\n[image: image/png, 12 bytes]" if image else "done"
    return ToolResult(
        text=text, is_error=is_error, raw={"content": content}, structured={"n": 1} if not image else None
    )


def test_tool_result_exposes_its_content_blocks() -> None:
    assert [block["type"] for block in result(image=True).content] == ["text", "image"]
    assert ToolResult(text="", raw={"content": "nonsense"}).content == []


def test_openai_chat_tool_message_is_text_and_says_error() -> None:
    message = adapters.openai_tool_message("c1", result(is_error=True), api="chat")
    pydantic.TypeAdapter(openai_types.chat.ChatCompletionToolMessageParam).validate_python(message)
    assert message == {"role": "tool", "tool_call_id": "c1", "content": "Error: done"}


def test_openai_responses_output_carries_images() -> None:
    item = adapters.openai_tool_message("c1", result(image=True), api="responses")
    pydantic.TypeAdapter(openai_types.responses.response_input_item_param.FunctionCallOutput).validate_python(
        item
    )
    assert item["output"][1] == {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}"}


def test_anthropic_tool_result_has_the_error_flag_and_the_image() -> None:
    block = adapters.anthropic_tool_result(
        "t1", ToolResult(text="x", is_error=True, raw={"content": result(image=True).raw["content"]})
    )
    pydantic.TypeAdapter(anthropic_types.ToolResultBlockParam).validate_python(block)
    assert block["is_error"] is True
    assert block["content"][1]["source"] == {"type": "base64", "media_type": "image/png", "data": PNG}


def test_gemini_function_response_is_a_part_with_output_or_error() -> None:
    part = adapters.gemini_function_response("f", result(), call_id="c1")
    validated = genai_types.Part.model_validate(part)
    assert validated.function_response is not None
    assert validated.function_response.response == {"output": "done", "structuredContent": {"n": 1}}
    failed = adapters.gemini_function_response("f", result(is_error=True))
    assert failed["functionResponse"]["response"]["error"] == "done"
    with_image = genai_types.Part.model_validate(adapters.gemini_function_response("f", result(image=True)))
    assert with_image.function_response is not None and with_image.function_response.parts is not None
    assert with_image.function_response.parts[0].inline_data.data.startswith(b"\x89PNG")  # type: ignore[union-attr]


def test_gemini_gets_structured_content_once_not_beside_its_own_json() -> None:
    # Servers SHOULD send a structuredContent's JSON as text too; the model is sent the object once.
    same = ToolResult(text='{"n": 1, "items": [2]}', structured={"n": 1, "items": [2]})
    part = genai_types.Part.model_validate(adapters.gemini_function_response("f", same))
    assert part.function_response is not None
    assert part.function_response.response == {"output": {"n": 1, "items": [2]}}
    # A text that says something else keeps both; a failed call keeps its error text alone.
    other = ToolResult(text='{"n": 2}', structured={"n": 1})
    assert adapters.gemini_function_response("f", other)["functionResponse"]["response"] == {
        "output": '{"n": 2}',
        "structuredContent": {"n": 1},
    }
    failed = ToolResult(text='{"n": 1}', is_error=True, structured={"n": 1})
    assert adapters.gemini_function_response("f", failed)["functionResponse"]["response"] == {
        "error": '{"n": 1}'
    }
    # A text cut to the output budget: the whole object would bring back what was cut.
    cut = ToolResult(
        text="[1, 2, ...", structured=list(range(10_000)), full_text="[...]", result_uri="troupe://results/1"
    )
    assert adapters.gemini_function_response("f", cut)["functionResponse"]["response"] == {
        "output": "[1, 2, ..."
    }


def test_identity_maps_change_nothing() -> None:
    assert ArgumentMap().is_identity and ArgumentMap().apply({"a": None}) == {"a": None}
