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

from mcp_troupe.protocol import jsonrpc, mcp, modern, versions
from mcp_troupe.protocol.engine import RequestEngine
from mcp_troupe.protocol.handshake import Handshake

REVISIONS = sorted(versions.REVISIONS)
LEGACY = sorted(versions.LEGACY_VERSIONS)
MODERN = sorted(versions.MODERN_VERSIONS)


def _engine(version: str) -> RequestEngine:
    """An engine settled on ``version`` as the handshake would settle it (modern: with its ``_meta``)."""
    engine = RequestEngine(server="s")
    shake = Handshake(
        server="s", client_info={"name": "mcp-troupe", "version": "0.1.0"}, capabilities=lambda revision: {}
    )
    revision = versions.REVISIONS[version]
    engine.settle(revision, shake.meta_for(version) if revision.is_modern else None)
    return engine


def _sent(version: str, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
    _pending, data = _engine(version).request(method, params, None, now=0.0, timeout=1.0)
    return _wire(data)


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


@pytest.mark.parametrize("version", LEGACY)
def test_initialize_request_validates(version: str) -> None:
    params = mcp.initialize_params(version, "mcp-troupe", "0.1.0")

    message = _wire(jsonrpc.encode_request(0, mcp.INITIALIZE, params))

    _assert_valid(version, message, "InitializeRequest", "JSONRPCRequest")


@pytest.mark.parametrize("version", LEGACY)
def test_initialized_notification_validates(version: str) -> None:
    message = _wire(jsonrpc.encode_notification(mcp.INITIALIZED))

    _assert_valid(version, message, "InitializedNotification", "JSONRPCNotification")


@pytest.mark.parametrize("version", REVISIONS)
@pytest.mark.parametrize("cursor", [None, "eyJwYWdlIjoyfQ==", ""])
def test_tools_list_request_validates(version: str, cursor: str | None) -> None:
    message = _sent(version, mcp.TOOLS_LIST, mcp.list_params(cursor))

    _assert_valid(version, message, "ListToolsRequest", "JSONRPCRequest")


@pytest.mark.parametrize("version", REVISIONS)
@pytest.mark.parametrize(
    "arguments", [None, {}, {"path": "/tmp", "depth": 2, "flags": [True, None]}], ids=repr
)
def test_tools_call_request_validates(version: str, arguments: dict[str, Any] | None) -> None:
    message = _sent(version, mcp.TOOLS_CALL, mcp.call_tool_params("read_file", arguments))

    _assert_valid(version, message, "CallToolRequest", "JSONRPCRequest")


@pytest.mark.parametrize("version", REVISIONS)
@pytest.mark.parametrize(
    ("method", "params", "definition"),
    [
        (mcp.RESOURCES_LIST, None, "ListResourcesRequest"),
        (mcp.RESOURCE_TEMPLATES_LIST, None, "ListResourceTemplatesRequest"),
        (mcp.PROMPTS_LIST, {"cursor": "c"}, "ListPromptsRequest"),
        (mcp.RESOURCES_READ, {"uri": "file:///x"}, "ReadResourceRequest"),
        (mcp.PROMPTS_GET, {"name": "review", "arguments": {"code": "x"}}, "GetPromptRequest"),
    ],
)
def test_catalog_requests_validate(
    version: str, method: str, params: dict[str, Any] | None, definition: str
) -> None:
    _assert_valid(version, _sent(version, method, params), definition, "JSONRPCRequest")


@pytest.mark.parametrize("version", MODERN)
def test_the_modern_probe_and_listen_validate(version: str) -> None:
    shake = Handshake(
        server="s", client_info={"name": "mcp-troupe", "version": "0.1.0"}, capabilities=lambda revision: {}
    )
    probe = shake.start()
    assert probe.method == modern.SERVER_DISCOVER  # type: ignore[union-attr]
    discover = _wire(jsonrpc.encode_request(1, probe.method, probe.params))  # type: ignore[union-attr]
    _assert_valid(version, discover, "DiscoverRequest", "JSONRPCRequest")
    listen = _sent(version, modern.SUBSCRIPTIONS_LISTEN, {"notifications": {"toolsListChanged": True}})
    _assert_valid(version, listen, "SubscriptionsListenRequest", "JSONRPCRequest")


@pytest.mark.parametrize("version", MODERN)
def test_an_input_required_retry_validates(version: str) -> None:
    engine = _engine(version)
    pending, _ = engine.request(mcp.TOOLS_CALL, mcp.call_tool_params("t", {}), None, now=0.0, timeout=1.0)
    answer = {"action": "accept", "content": {"ok": True}}
    _retried, data = engine.retry(pending, {"k": answer}, "state")
    _assert_valid(version, _wire(data), "CallToolRequest", "JSONRPCRequest")


@pytest.mark.parametrize("version", REVISIONS)
@pytest.mark.parametrize(("request_id", "reason"), [(7, "timed out after 30 s"), ("call-2", None)])
def test_cancelled_notification_validates(version: str, request_id: int | str, reason: str | None) -> None:
    message = _wire(jsonrpc.encode_notification(mcp.CANCELLED, mcp.cancelled_params(request_id, reason)))

    _assert_valid(version, message, "CancelledNotification", "JSONRPCNotification")


@pytest.mark.parametrize("version", LEGACY)
@pytest.mark.parametrize("request_id", [0, 41, "srv-ping-1"])
def test_our_reply_to_ping_validates(version: str, request_id: int | str) -> None:
    message = _wire(jsonrpc.encode(jsonrpc.Response(request_id, {})))

    _assert_valid(version, message, "JSONRPCResponse")
    _assert_valid(version, message["result"], "EmptyResult")


@pytest.mark.parametrize("version", LEGACY)
@pytest.mark.parametrize("method", sorted(mcp.UNSUPPORTED_CLIENT_METHODS))
def test_our_method_not_found_reply_validates(version: str, method: str) -> None:
    error = jsonrpc.ErrorObject(jsonrpc.METHOD_NOT_FOUND, "Method not found", {"method": method})

    message = _wire(jsonrpc.encode(jsonrpc.ErrorResponse(9, error)))

    # 2025-11-25 renamed the definition; the shape is the same.
    name = (
        "JSONRPCErrorResponse"
        if "JSONRPCErrorResponse" in _schema(version).get("$defs", {})
        else "JSONRPCError"
    )
    _assert_valid(version, message, name)
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


@pytest.mark.parametrize("version", LEGACY)
@pytest.mark.parametrize(("label", "name", "build"), NEGATIVE_CONTROLS, ids=[c[0] for c in NEGATIVE_CONTROLS])
def test_the_oracle_rejects_a_broken_message(
    version: str, label: str, name: str, build: Callable[[str], dict[str, Any]]
) -> None:
    if label == "cancelled without requestId" and version >= "2025-11-25":
        pytest.skip("2025-11-25 made requestId optional (task cancellation goes through tasks/cancel)")
    message = build(version)

    assert not _validator(version, name).is_valid(message), label


@pytest.mark.parametrize("version", MODERN)
def test_the_modern_oracle_rejects_a_request_without_its_meta(version: str) -> None:
    bare = _wire(jsonrpc.encode_request(1, mcp.TOOLS_CALL, mcp.call_tool_params("t", {})))
    assert not _validator(version, "CallToolRequest").is_valid(bare)
