"""Rendering ``tools/call`` results into the text the model reads (``mcp_troupe.protocol.content``).

Every content type becomes readable text; binary data becomes a typed placeholder while the bytes stay in
``raw``; nothing a server sends makes rendering crash.
"""

from __future__ import annotations

import base64
from typing import Any

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

    assert text == "[resource link: uri=file:///project/README.md, name=README.md, mimeType=text/markdown]"


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
