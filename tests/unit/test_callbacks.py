"""Pure host-callback checks: capabilities per revision, form schema, defaults, answers, URLs, roots."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.spec_schemas import validator

from mcp_troupe.protocol import callbacks as cb
from mcp_troupe.protocol.callbacks import CallbackError

FORM: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 20},
        "age": {"type": "integer", "minimum": 0, "maximum": 150, "default": 30},
        "email": {"type": "string", "format": "email"},
        "colour": {"type": "string", "enum": ["red", "blue"], "default": "blue"},
        "size": {
            "type": "string",
            "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}],
        },
        "tags": {"type": "array", "items": {"enum": ["a", "b", "c"]}, "maxItems": 2, "default": ["a"]},
        "ok": {"type": "boolean", "default": False},
    },
    "required": ["name"],
}


# ---- capabilities ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"])
@pytest.mark.parametrize("installed", [(False, False, False), (True, True, True), (True, False, True)])
def test_declared_capabilities_are_valid_for_their_revision(
    version: str, installed: tuple[bool, bool, bool]
) -> None:
    elicitation, sampling, roots = installed
    capabilities = cb.client_capabilities(
        version, elicitation=elicitation, sampling=sampling, roots=roots, roots_change=roots
    )
    assert list(validator(version, "ClientCapabilities").iter_errors(capabilities)) == []
    assert ("sampling" in capabilities) == sampling
    assert ("roots" in capabilities) == roots
    assert ("elicitation" in capabilities) == (elicitation and version >= "2025-06-18")


def test_nothing_installed_declares_nothing() -> None:
    assert (
        cb.client_capabilities(
            "2025-06-18", elicitation=False, sampling=False, roots=False, roots_change=False
        )
        == {}
    )


def test_each_revision_gets_its_own_shapes() -> None:
    def caps(version: str) -> dict[str, Any]:
        return cb.client_capabilities(version, elicitation=True, sampling=True, roots=True, roots_change=True)

    assert caps("2025-06-18") == {"elicitation": {}, "sampling": {}, "roots": {"listChanged": True}}
    assert caps("2025-11-25") == {
        "elicitation": {"form": {}, "url": {}},
        "sampling": {"tools": {}},
        "roots": {"listChanged": True},
    }
    # 2026-07-28 removed notifications/roots/list_changed.
    assert caps("2026-07-28")["roots"] == {}


UI = {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}


@pytest.mark.parametrize("version", ["2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28"])
def test_host_extensions_are_declared_from_2025_11_25_on_and_valid_there(version: str) -> None:
    capabilities = cb.client_capabilities(
        version, elicitation=False, sampling=False, roots=False, roots_change=False, extensions=UI
    )

    assert list(validator(version, "ClientCapabilities").iter_errors(capabilities)) == []
    if version >= "2025-11-25":
        assert capabilities == {"extensions": UI}
        # A copy: the declaration cannot change under the caller, nor the caller's under it.
        capabilities["extensions"]["io.modelcontextprotocol/ui"]["mimeTypes"] = []
        assert UI["io.modelcontextprotocol/ui"]["mimeTypes"] == ["text/html;profile=mcp-app"]
    else:
        assert capabilities == {}  # the revisions before it define no extensions


@pytest.mark.parametrize(
    ("extensions", "error", "message"),
    [
        ("io.modelcontextprotocol/ui", TypeError, "extensions must map extension identifiers"),
        ({"ui": {}}, ValueError, "'ui' is not an extension identifier"),
        ({"io.modelcontextprotocol/": {}}, ValueError, "is not an extension identifier"),
        ({"-bad.example/x": {}}, ValueError, "is not an extension identifier"),
        ({5: {}}, ValueError, "5 is not an extension identifier"),
        ({"io.modelcontextprotocol/ui": ["text/html"]}, TypeError, "must be a settings object"),
        ({"io.modelcontextprotocol/ui": {"n": float("nan")}}, ValueError, "cannot be written as JSON"),
        ({"io.modelcontextprotocol/tasks": {}}, ValueError, "declared by the troupe itself"),
    ],
    ids=["str", "no-prefix", "no-name", "bad-label", "int", "list", "nan", "reserved"],
)
def test_bad_host_extensions_are_refused_naming_the_entry(
    extensions: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        cb.check_extensions(extensions, reserved=("io.modelcontextprotocol/tasks",))


def test_good_host_extensions_are_copied() -> None:
    given_extensions = {"com.example.tools/trace": {}, **UI}
    checked = cb.check_extensions(given_extensions)

    assert checked == given_extensions and checked is not given_extensions


def test_static_roots_promise_no_change_notifications() -> None:
    caps = cb.client_capabilities(
        "2025-06-18", elicitation=False, sampling=False, roots=True, roots_change=False
    )
    assert caps == {"roots": {}}


# ---- the requested schema ----------------------------------------------------------------------------------


def test_a_flat_primitive_schema_is_accepted_and_its_defaults_offered() -> None:
    cb.check_requested_schema(FORM)
    assert cb.schema_defaults(FORM) == {"age": 30, "colour": "blue", "tags": ["a"], "ok": False}


@pytest.mark.parametrize(
    ("prop", "problem"),
    [
        ({"type": "object", "properties": {}}, "type 'object' is not allowed"),
        ({"type": "string", "format": "hostname"}, "unsupported format"),
        ({"type": "string", "enum": [1, 2]}, "'enum' must be an array of strings"),
        ({"type": "integer", "default": "three"}, "its default must be an integer"),
        ({"type": "string", "enum": ["a"], "default": "b"}, "its default must be one of"),
        ({"type": "array", "items": {"type": "string"}}, "need 'enum' or 'anyOf'"),
        ("string", "must be an object"),
    ],
)
def test_a_schema_outside_the_restricted_subset_is_refused_with_the_field(prop: Any, problem: str) -> None:
    with pytest.raises(CallbackError) as caught:
        cb.check_requested_schema({"type": "object", "properties": {"f": prop}})
    assert caught.value.code == -32602
    assert "'f'" in caught.value.message and problem in caught.value.message


def test_a_required_field_must_exist() -> None:
    with pytest.raises(CallbackError, match="required field 'x' is not in 'properties'"):
        cb.check_requested_schema({"type": "object", "properties": {}, "required": ["x"]})


# ---- the user's answer -------------------------------------------------------------------------------------


def test_an_accepted_form_gets_the_defaults_the_user_left_alone() -> None:
    answer = cb.check_elicit_result({"action": "accept", "content": {"name": "Ada", "age": 36}}, FORM)
    assert answer == {
        "action": "accept",
        "content": {"name": "Ada", "age": 36, "colour": "blue", "tags": ["a"], "ok": False},
    }
    assert list(validator("2025-11-25", "ElicitResult").iter_errors(answer)) == []


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ({}, "required field 'name' is missing"),
        ({"name": ""}, "at least 1 characters"),
        ({"name": "Ada", "age": 151}, "at most 150"),
        ({"name": "Ada", "age": 3.5}, "must be an integer"),
        ({"name": "Ada", "age": True}, "must be an integer"),
        ({"name": "Ada", "email": "nope"}, "must be an email address"),
        ({"name": "Ada", "colour": "green"}, "must be one of"),
        ({"name": "Ada", "size": "m"}, "must be one of"),
        ({"name": "Ada", "tags": ["a", "b", "c"]}, "at most 2 selections"),
        ({"name": "Ada", "tags": ["z"]}, "not one of"),
        ({"name": "Ada", "ok": "yes"}, "must be true or false"),
        ({"name": "Ada", "extra": 1}, "not in the requested schema"),
    ],
)
def test_an_answer_that_breaks_the_schema_is_refused_naming_the_field(
    content: dict[str, Any], problem: str
) -> None:
    with pytest.raises(ValueError, match=problem):
        cb.check_elicit_result({"action": "accept", "content": content}, FORM)


@pytest.mark.parametrize("action", ["decline", "cancel"])
def test_decline_and_cancel_carry_no_content(action: str) -> None:
    assert cb.check_elicit_result({"action": action}, FORM) == {"action": action}
    with pytest.raises(ValueError, match="carries no content"):
        cb.check_elicit_result({"action": action, "content": {"name": "x"}}, FORM)


def test_an_unknown_action_is_refused() -> None:
    with pytest.raises(ValueError, match="accept, decline or cancel"):
        cb.check_elicit_result({"action": "maybe"}, FORM)


@given(st.dictionaries(st.text(max_size=8), st.one_of(st.none(), st.integers(), st.text(), st.booleans())))
def test_whatever_the_handler_answers_either_fits_the_schema_or_raises_value_error(
    content: dict[str, Any],
) -> None:
    try:
        answer = cb.check_elicit_result({"action": "accept", "content": content}, FORM)
    except ValueError:
        return
    assert list(validator("2025-11-25", "ElicitResult").iter_errors(answer)) == []
    assert answer["content"]["name"]


# ---- elicitation requests and URL mode ---------------------------------------------------------------------


def test_url_mode_needs_the_url_capability() -> None:
    params = {"mode": "url", "message": "go", "url": "https://example.com/x", "elicitationId": "1"}
    with pytest.raises(CallbackError, match="mode 'url' was not declared"):
        cb.parse_elicitation(params, url_mode=False)
    shape = cb.parse_elicitation(params, url_mode=True)
    assert (shape.mode, shape.url, shape.elicitation_id) == ("url", "https://example.com/x", "1")


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "data:text/html,hi",
        "file:///etc/passwd",
        "http://example.com/",
        "https://trusted.example@evil.example/",
        "https://exa\nmple.com/",
        "https:///nohost",
    ],
)
def test_a_url_the_host_must_not_offer_is_refused(url: str) -> None:
    with pytest.raises(CallbackError) as caught:
        cb.check_elicitation_url(url)
    assert caught.value.code == -32602


def test_loopback_http_is_allowed_for_development() -> None:
    cb.check_elicitation_url("http://127.0.0.1:8080/callback")


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://auth.example.com/connect?session=1", "https://auth.example.com"),
        ("https://auth.example.com:8443/x", "https://auth.example.com:8443"),
        ("https://auth.example.com:443/x", "https://auth.example.com"),
        ("https://b\u00fccher.example/x", "https://xn--bcher-kva.example"),
        ("http://[::1]:9/x", "http://[::1]:9"),
    ],
)
def test_the_origin_shown_is_scheme_host_and_port_in_ascii(url: str, origin: str) -> None:
    assert cb.url_origin(url) == origin


def test_a_request_without_mode_is_form_mode() -> None:
    shape = cb.parse_elicitation({"message": "hi", "requestedSchema": FORM}, url_mode=False)
    assert shape.mode == "form" and shape.requested_schema == FORM


# ---- sampling, roots, logging --------------------------------------------------------------------------


def test_a_sampling_answer_needs_role_model_and_content() -> None:
    good = {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"}
    assert cb.check_create_message_result(good) == good
    assert list(validator("2025-11-25", "CreateMessageResult").iter_errors(good)) == []
    for broken in ({**good, "model": None}, {**good, "role": "robot"}, {**good, "content": "hi"}):
        with pytest.raises(ValueError, match="sampling answer"):
            cb.check_create_message_result(broken)


def test_roots_become_file_uris(tmp_path: Path) -> None:
    result = cb.roots_result(
        [tmp_path, str(tmp_path / "a"), "file:///srv", {"uri": "file:///x", "name": "X"}]
    )
    assert result == {
        "roots": [
            {"uri": tmp_path.as_uri()},
            {"uri": (tmp_path / "a").as_uri()},
            {"uri": "file:///srv"},
            {"uri": "file:///x", "name": "X"},
        ]
    }
    assert list(validator("2025-06-18", "ListRootsResult").iter_errors(result)) == []


@pytest.mark.parametrize("root", [{"uri": "https://example.com"}, 42, {"uri": "file:///x", "name": 3}])
def test_a_bad_root_is_refused_naming_its_index(root: Any) -> None:
    with pytest.raises(ValueError, match=r"roots\[1\]"):
        cb.roots_result(["/ok", root])


def test_log_levels_map_onto_python_levels_in_order() -> None:
    numbers = [cb.log_level_number(level) for level in cb.LOG_LEVELS]
    assert numbers == sorted(numbers) and numbers[0] == 10 and numbers[3] == 30
    assert cb.log_level_number("nonsense") == 30


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
PROPERTY = st.fixed_dictionaries(
    {"type": st.sampled_from(["string", "number", "integer", "boolean", "array", "object", 3])},
    optional={
        "enum": JSON,
        "oneOf": JSON,
        "items": JSON,
        "default": JSON,
        "minimum": JSON,
        "maxLength": JSON,
        "format": JSON,
        "title": JSON,
    },
)


@given(
    st.fixed_dictionaries(
        {
            "message": JSON,
            "requestedSchema": st.fixed_dictionaries(
                {
                    "type": st.just("object"),
                    "properties": st.dictionaries(st.text(max_size=5), PROPERTY, max_size=4),
                },
                optional={"required": JSON},
            ),
        },
        optional={"mode": st.sampled_from(["form", "url", "other"]), "url": JSON},
    ),
    JSON,
)
def test_an_untrusted_request_and_any_answer_fail_only_in_the_documented_ways(
    params: dict[str, Any], content: Any
) -> None:
    try:
        shape = cb.parse_elicitation(params, url_mode=True)
    except CallbackError as exc:
        assert exc.code == -32602
        return
    if shape.requested_schema is None:
        return
    defaults = cb.schema_defaults(shape.requested_schema)
    try:
        answer = cb.check_elicit_result({"action": "accept", "content": content}, shape.requested_schema)
    except ValueError:
        return
    filled = answer["content"]
    properties = shape.requested_schema["properties"]
    assert set(filled) <= set(properties)  # nothing the server did not ask for
    assert set(shape.requested_schema.get("required", [])) <= set(filled)
    assert all(filled[name] == value for name, value in defaults.items() if name not in (content or {}))
