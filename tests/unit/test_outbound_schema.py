"""Schema oracle: every message the client sends validates against each supported revision's schema.json.

The messages are built by the same functions the client uses and read back from the bytes they produce, so
the check covers what actually goes on the wire. spec: the JSON schemas of each revision, beside NOTES.md.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
from jsonschema.protocols import Validator
from tests.spec_schemas import SPEC_DIR

from mcp_troupe.protocol import jsonrpc, mcp, versions

REVISIONS = sorted(versions.REVISIONS)


@functools.cache
def _schema(version: str) -> dict[str, Any]:
    path = SPEC_DIR / version / "schema.json"
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema


def _validator(version: str, name: str) -> Validator:
    """A validator for one named definition of a revision's schema."""
    schema = _schema(version)
    # Revisions up to 2025-06-18 are draft-07 with "definitions"; later ones are 2020-12 with "$defs".
    key = "definitions" if "definitions" in schema else "$defs"
    root = {"$schema": schema["$schema"], "$ref": f"#/{key}/{name}", key: schema[key]}
    validator_class = jsonschema.validators.validator_for(schema, default=jsonschema.Draft7Validator)
    return validator_class(root)


def _assert_valid(version: str, message: dict[str, Any], *names: str) -> None:
    for name in names:
        errors = sorted(_validator(version, name).iter_errors(message), key=str)
        assert not errors, f"{version} {name}: " + "; ".join(error.message for error in errors)


def _wire(data: bytes) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(data)
    return message


def test_every_revision_we_speak_has_a_schema() -> None:
    for version in REVISIONS:
        assert (SPEC_DIR / version / "schema.json").is_file(), version


@pytest.mark.parametrize("version", REVISIONS)
def test_initialize_request_validates(version: str) -> None:
    params = mcp.initialize_params(version, "mcp-troupe", "0.1.0")

    message = _wire(jsonrpc.encode_request(0, mcp.INITIALIZE, params))

    _assert_valid(version, message, "InitializeRequest", "JSONRPCRequest")


@pytest.mark.parametrize("version", REVISIONS)
def test_initialized_notification_validates(version: str) -> None:
    message = _wire(jsonrpc.encode_notification(mcp.INITIALIZED))

    _assert_valid(version, message, "InitializedNotification", "JSONRPCNotification")


@pytest.mark.parametrize("version", REVISIONS)
@pytest.mark.parametrize("cursor", [None, "eyJwYWdlIjoyfQ==", ""])
def test_tools_list_request_validates(version: str, cursor: str | None) -> None:
    message = _wire(jsonrpc.encode_request(1, mcp.TOOLS_LIST, mcp.list_params(cursor)))

    _assert_valid(version, message, "ListToolsRequest", "JSONRPCRequest")


@pytest.mark.parametrize("version", REVISIONS)
@pytest.mark.parametrize(
    "arguments", [None, {}, {"path": "/tmp", "depth": 2, "flags": [True, None]}], ids=repr
)
def test_tools_call_request_validates(version: str, arguments: dict[str, Any] | None) -> None:
    message = _wire(
        jsonrpc.encode_request("call-2", mcp.TOOLS_CALL, mcp.call_tool_params("read_file", arguments))
    )

    _assert_valid(version, message, "CallToolRequest", "JSONRPCRequest")


@pytest.mark.parametrize("version", REVISIONS)
@pytest.mark.parametrize(("request_id", "reason"), [(7, "timed out after 30 s"), ("call-2", None)])
def test_cancelled_notification_validates(version: str, request_id: int | str, reason: str | None) -> None:
    message = _wire(jsonrpc.encode_notification(mcp.CANCELLED, mcp.cancelled_params(request_id, reason)))

    _assert_valid(version, message, "CancelledNotification", "JSONRPCNotification")


@pytest.mark.parametrize("version", REVISIONS)
@pytest.mark.parametrize("request_id", [0, 41, "srv-ping-1"])
def test_our_reply_to_ping_validates(version: str, request_id: int | str) -> None:
    message = _wire(jsonrpc.encode(jsonrpc.Response(request_id, {})))

    _assert_valid(version, message, "JSONRPCResponse")
    _assert_valid(version, message["result"], "EmptyResult")


@pytest.mark.parametrize("version", REVISIONS)
@pytest.mark.parametrize("method", sorted(mcp.UNSUPPORTED_CLIENT_METHODS))
def test_our_method_not_found_reply_validates(version: str, method: str) -> None:
    error = jsonrpc.ErrorObject(jsonrpc.METHOD_NOT_FOUND, "Method not found", {"method": method})

    message = _wire(jsonrpc.encode(jsonrpc.ErrorResponse(9, error)))

    _assert_valid(version, message, "JSONRPCError")
    assert message["error"]["code"] == -32601


# --- the oracle can fail --------------------------------------------------------------------------------


def _without_client_info(version: str) -> dict[str, Any]:
    params = mcp.initialize_params(version, "mcp-troupe", "0.1.0")
    del params["clientInfo"]
    return _wire(jsonrpc.encode_request(0, mcp.INITIALIZE, params))


NEGATIVE_CONTROLS: list[tuple[str, str, Callable[[str], dict[str, Any]]]] = [
    ("initialize without clientInfo", "InitializeRequest", _without_client_info),
    (
        "initialize with a numeric protocolVersion",
        "InitializeRequest",
        lambda version: _wire(
            jsonrpc.encode_request(
                0, mcp.INITIALIZE, {**mcp.initialize_params(version, "t", "1"), "protocolVersion": 1}
            )
        ),
    ),
    (
        "tools/call without params",
        "CallToolRequest",
        lambda _: _wire(jsonrpc.encode_request(1, mcp.TOOLS_CALL, None)),
    ),
    (
        "cancelled without requestId",
        "CancelledNotification",
        lambda _: _wire(jsonrpc.encode_notification(mcp.CANCELLED, {"reason": "x"})),
    ),
    ("request with a null id", "JSONRPCRequest", lambda _: {"jsonrpc": "2.0", "id": None, "method": "ping"}),
    ("response without result", "JSONRPCResponse", lambda _: {"jsonrpc": "2.0", "id": 1}),
    ("initialized under a wrong method name", "InitializedNotification", lambda _: {"method": "initialized"}),
]


@pytest.mark.parametrize("version", REVISIONS)
@pytest.mark.parametrize(("label", "name", "build"), NEGATIVE_CONTROLS, ids=[c[0] for c in NEGATIVE_CONTROLS])
def test_the_oracle_rejects_a_broken_message(
    version: str, label: str, name: str, build: Callable[[str], dict[str, Any]]
) -> None:
    message = build(version)

    assert not _validator(version, name).is_valid(message), label
