"""Rendering ``tools/call`` results into the text the model reads (``mcp_troupe.protocol.content``).

Every content type becomes readable text; binary data becomes a typed placeholder while the bytes stay in
``raw``; nothing a server sends makes rendering crash.
"""

from __future__ import annotations

import base64
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_troupe.protocol.content import render_block, render_call_result

PNG_BYTES = b"\x89PNG\r\n\x1a\n" + b"\x00" * 92  # 100 bytes
PNG_DATA = base64.b64encode(PNG_BYTES).decode("ascii")


def test_text_blocks_are_rendered_as_is_and_joined_by_newlines() -> None:
    result = render_call_result(
        {"content": [{"type": "text", "text": "first"}, {"type": "text", "text": "second\nline"}]}
    )

    assert result.text == "first\nsecond\nline"
    assert result.is_error is False
    assert result.structured is None


def test_a_text_block_without_text_says_so() -> None:
    assert render_block({"type": "text", "text": None}) == "[text block without text]"


@pytest.mark.parametrize(("kind", "mime"), [("image", "image/png"), ("audio", "audio/wav")])
def test_binary_blocks_become_a_placeholder_with_mime_type_and_decoded_size(kind: str, mime: str) -> None:
    block = {"type": kind, "data": PNG_DATA, "mimeType": mime}

    result = render_call_result({"content": [block]})

    assert result.text == f"[{kind}: {mime}, 100 bytes]"
    assert PNG_DATA not in result.text
    assert result.raw["content"][0]["data"] == PNG_DATA


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        ({"type": "image", "data": "abc"}, "[image: unknown type, unknown size]"),  # bad padding
        ({"type": "image", "mimeType": "image/png"}, "[image: image/png, unknown size]"),
        ({"type": "audio", "mimeType": "audio/ogg", "data": 42}, "[audio: audio/ogg, unknown size]"),
        ({"type": "image", "mimeType": "image/png", "data": "données"}, "[image: image/png, unknown size]"),
    ],
    ids=repr,
)
def test_a_binary_block_with_missing_or_broken_data_still_renders(
    block: dict[str, Any], expected: str
) -> None:
    assert render_block(block) == expected


def test_line_wrapped_base64_is_measured_by_its_decoded_bytes() -> None:
    wrapped = "\n".join(PNG_DATA[i : i + 76] for i in range(0, len(PNG_DATA), 76))

    assert (
        render_block({"type": "image", "mimeType": "image/png", "data": wrapped})
        == "[image: image/png, 100 bytes]"
    )


def test_a_resource_link_shows_its_uri_name_and_mime_type() -> None:
    block = {
        "type": "resource_link",
        "uri": "file:///project/README.md",
        "name": "README.md",
        "mimeType": "text/markdown",
        "description": "",
    }

    text = render_block(block)

    assert text == (
        "[resource link: uri=file:///project/README.md, name=README.md, mimeType=text/markdown; "
        "readable with mcp_resources action=read]"
    )


def test_an_embedded_text_resource_is_shown_inline() -> None:
    block = {
        "type": "resource",
        "resource": {"uri": "file:///notes.txt", "mimeType": "text/plain", "text": "remember the milk"},
    }

    assert render_block(block) == "[resource file:///notes.txt]\nremember the milk"


def test_an_embedded_blob_resource_is_summarised_and_kept_in_raw() -> None:
    block = {
        "type": "resource",
        "resource": {"uri": "file:///logo.png", "mimeType": "image/png", "blob": PNG_DATA},
    }

    result = render_call_result({"content": [block]})

    assert result.text == "[resource file:///logo.png: image/png, 100 bytes]"
    assert result.raw["content"][0]["resource"]["blob"] == PNG_DATA


def test_an_embedded_resource_without_contents_says_so() -> None:
    assert render_block({"type": "resource"}) == "[embedded resource without contents]"


def test_structured_content_is_rendered_as_json_when_there_is_no_text() -> None:
    structured = {"temperature": 21.5, "city": "Zürich"}

    result = render_call_result({"content": [], "structuredContent": structured})

    assert result.text == '{"city": "Zürich", "temperature": 21.5}'
    assert result.structured == structured


def test_structured_content_is_not_repeated_when_the_server_sent_text() -> None:
    result = render_call_result(
        {"content": [{"type": "text", "text": "21.5 °C"}], "structuredContent": {"temperature": 21.5}}
    )

    assert result.text == "21.5 °C"
    assert result.structured == {"temperature": 21.5}


@pytest.mark.parametrize(
    ("is_error", "expected"), [(True, True), (False, False), ("true", False), (None, False)]
)
def test_is_error_is_true_only_for_a_json_true(is_error: object, expected: bool) -> None:
    result = render_call_result({"content": [{"type": "text", "text": "no such file"}], "isError": is_error})

    assert result.is_error is expected


def test_an_unknown_content_type_is_named_not_fatal() -> None:
    result = render_call_result({"content": [{"type": "video", "uri": "x"}, {"type": "text", "text": "ok"}]})

    assert result.text == "[unsupported content type 'video']\nok"


@pytest.mark.parametrize("block", ["just a string", 42, None, ["text"]], ids=repr)
def test_a_block_that_is_not_an_object_is_named_not_fatal(block: object) -> None:
    assert render_block(block) == f"[unreadable content block: {type(block).__name__}]"


@pytest.mark.parametrize("content", [None, "text", {"type": "text", "text": "x"}], ids=repr)
def test_content_that_is_not_a_list_renders_as_empty_text(content: object) -> None:
    result = render_call_result({"content": content})

    assert result.text == ""


def test_the_raw_result_is_kept_untouched() -> None:
    raw = {"content": [{"type": "text", "text": "x"}], "_meta": {"trace": "abc"}}

    assert render_call_result(raw).raw is raw


json_leaves = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10)
json_values = st.recursive(
    json_leaves,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
)
block_like = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["text", "image", "audio", "resource_link", "resource", "other"])
        | json_values,
        "text": json_values,
        "data": st.text(max_size=20) | json_values,
        "mimeType": json_values,
        "uri": json_values,
        "name": json_values,
        "resource": st.fixed_dictionaries(
            {}, optional={"uri": json_values, "text": json_values, "blob": json_values}
        )
        | json_values,
    },
)


@settings(max_examples=200, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "content": st.lists(block_like | json_values, max_size=4) | json_values,
            "structuredContent": json_values,
            "isError": json_values,
        },
    )
)
def test_rendering_never_crashes_on_arbitrary_results(result: dict[str, Any]) -> None:
    rendered = render_call_result(result)

    assert isinstance(rendered.text, str)
    assert rendered.raw is result


# ---- structuredContent against the tool's outputSchema -----------------------------------------------------

TEMPERATURE = {"type": "object", "properties": {"celsius": {"type": "number"}}, "required": ["celsius"]}


def test_structured_content_that_matches_the_output_schema_adds_nothing() -> None:
    raw = {"content": [{"type": "text", "text": "21.5"}], "structuredContent": {"celsius": 21.5}}

    assert render_call_result(raw, output_schema=TEMPERATURE).text == "21.5"


def test_a_mismatch_with_the_output_schema_is_reported_on_its_own_line() -> None:
    raw = {"content": [{"type": "text", "text": "warm"}], "structuredContent": {"celsius": "warm"}}

    result = render_call_result(raw, output_schema=TEMPERATURE)

    assert result.text == (
        "warm\nstructuredContent does not match the tool's outputSchema: 'warm' is not of type 'number' "
        "(at structuredContent['celsius'])"
    )
    assert result.is_error is False  # reported, not turned into a failure: the model decides what it means
    assert result.structured == {"celsius": "warm"}


def test_a_missing_property_is_reported_at_the_root() -> None:
    result = render_call_result({"content": [], "structuredContent": {}}, output_schema=TEMPERATURE)

    assert result.text == (
        "{}\nstructuredContent does not match the tool's outputSchema: 'celsius' is a required property"
    )


def test_a_tool_with_an_output_schema_that_sent_no_structured_content_is_reported() -> None:
    result = render_call_result({"content": [{"type": "text", "text": "21.5"}]}, output_schema=TEMPERATURE)

    assert result.text == "21.5\nthe tool declares an outputSchema but sent no structuredContent"


def test_an_error_result_is_not_checked_against_the_output_schema() -> None:
    raw = {"content": [{"type": "text", "text": "no sensor"}], "isError": True}

    assert render_call_result(raw, output_schema=TEMPERATURE).text == "no sensor"


def test_an_output_schema_that_is_not_json_schema_is_reported_not_raised() -> None:
    raw = {"content": [], "structuredContent": {"celsius": 1}}

    result = render_call_result(raw, output_schema={"type": "object", "properties": {"celsius": {"type": 5}}})

    assert result.text.splitlines()[-1].startswith("the tool's outputSchema is not a valid JSON Schema: ")


def test_a_remote_reference_is_never_fetched_and_is_reported() -> None:
    schema = {"$ref": "https://example.invalid/schema.json"}

    result = render_call_result({"content": [], "structuredContent": {"a": 1}}, output_schema=schema)

    assert "structuredContent could not be checked against the tool's outputSchema" in result.text


def test_the_validator_is_built_once_per_schema_object(mocker: Any) -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    built = mocker.spy(jsonschema.validators, "validator_for")
    for value in (1, 2, "three"):
        render_call_result({"content": [], "structuredContent": {"n": value}}, output_schema=schema)

    # jsonschema calls validator_for internally too (for meta-schemas); only our schema's calls count here.
    assert len([call for call in built.call_args_list if call.args and call.args[0] is schema]) == 1


# ---- the output budget -------------------------------------------------------------------------------------


def new_uri() -> str:
    return "troupe://results/abc"


def test_a_text_within_the_budget_is_untouched_and_stores_nothing() -> None:
    calls: list[str] = []

    def uri() -> str:
        calls.append("called")
        return "troupe://results/never"

    result = render_call_result(
        {"content": [{"type": "text", "text": "x" * 1000}]}, max_chars=1000, new_result_uri=uri
    )

    assert (len(result.text), result.full_text, result.result_uri, calls) == (1000, None, None, [])


def test_a_text_over_the_budget_is_cut_with_a_marker_saying_where_the_rest_is() -> None:
    full = "".join(str(index % 10) for index in range(5000))

    result = render_call_result(
        {"content": [{"type": "text", "text": full}]}, max_chars=1000, new_result_uri=new_uri
    )

    shown = result.text.index("\n")
    assert len(result.text) <= 1000
    assert result.text == (
        f"{full[:shown]}\n[truncated: showing {shown} of 5000 characters; "
        "full text: mcp_resources action=read uri=troupe://results/abc]"
    )
    assert (result.full_text, result.result_uri) == (full, "troupe://results/abc")


def test_a_schema_mismatch_survives_the_cut() -> None:
    raw = {"content": [{"type": "text", "text": "y" * 5000}], "structuredContent": {"celsius": "hot"}}

    result = render_call_result(raw, max_chars=1000, output_schema=TEMPERATURE, new_result_uri=new_uri)

    lines = result.text.splitlines()
    assert len(result.text) <= 1000
    assert lines[-2].startswith("structuredContent does not match the tool's outputSchema")
    assert lines[-1].startswith("[truncated: showing ")
    assert result.full_text is not None and result.full_text.endswith(lines[-2])


def test_a_budget_without_a_place_for_the_rest_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="new_result_uri"):
        render_call_result({"content": [{"type": "text", "text": "z" * 2000}]}, max_chars=1000)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=3000), st.integers(min_value=1000, max_value=2500))
def test_a_cut_text_never_exceeds_the_budget_and_starts_like_the_whole(text: str, budget: int) -> None:
    result = render_call_result(
        {"content": [{"type": "text", "text": text}]}, max_chars=budget, new_result_uri=new_uri
    )

    assert len(result.text) <= budget
    if result.full_text is None:
        assert result.text == text
    else:
        assert result.full_text == text
        assert text.startswith(result.text[: result.text.rindex("\n[truncated: ")])
