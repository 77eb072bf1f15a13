"""The modern era (2026-07-28): per-request ``_meta``, ``server/discover``, ``resultType``, the new error
codes, ``input_required`` rounds, ``subscriptions/listen`` and the HTTP request headers derived from a
request.

Pure code, like the rest of :mod:`mcp_troupe.protocol`: untrusted JSON values in, typed views or
:class:`~mcp_troupe.errors.ProtocolError` out.

spec: 2026-07-28 basic/index ("Statelessness", "_meta"), server/discover, basic/patterns/mrtr,
basic/patterns/subscriptions, basic/transports/streamable-http ("Required request headers", "x-mcp-header").
"""

from __future__ import annotations

import base64
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from mcp_troupe.errors import ProtocolError
from mcp_troupe.protocol.mcp import InitializeResult

__all__ = [
    "CLIENT_CAPABILITIES",
    "CLIENT_INFO",
    "COMPLETE",
    "HEADER_MISMATCH",
    "INPUT_REQUIRED",
    "LOG_LEVEL",
    "MAX_INPUT_ROUNDS",
    "MISSING_CLIENT_CAPABILITY",
    "MODERN_ERROR_CODES",
    "PROTOCOL_VERSION",
    "RESOURCE_NOT_FOUND_LEGACY",
    "SERVER_DISCOVER",
    "SERVER_INFO",
    "SUBSCRIPTIONS_ACKNOWLEDGED",
    "SUBSCRIPTIONS_LISTEN",
    "SUBSCRIPTION_ID",
    "UNSUPPORTED_PROTOCOL_VERSION",
    "InputRequired",
    "ParamHeader",
    "encode_header_value",
    "input_required_of",
    "param_headers",
    "parse_discover_result",
    "request_headers",
    "result_type",
    "retry_params",
    "subscription_id_of",
    "supported_versions_of",
    "with_meta",
]

SERVER_DISCOVER = "server/discover"
SUBSCRIPTIONS_LISTEN = "subscriptions/listen"
SUBSCRIPTIONS_ACKNOWLEDGED = "notifications/subscriptions/acknowledged"

PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO = "io.modelcontextprotocol/clientInfo"
LOG_LEVEL = "io.modelcontextprotocol/logLevel"
SERVER_INFO = "io.modelcontextprotocol/serverInfo"
SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId"

# spec: 2026-07-28 basic/index, "Error Codes" — -32020..-32099 are the spec's own.
HEADER_MISMATCH = -32020
MISSING_CLIENT_CAPABILITY = -32021
UNSUPPORTED_PROTOCOL_VERSION = -32022
MODERN_ERROR_CODES = frozenset({HEADER_MISMATCH, MISSING_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION})
"""Errors only a modern server sends: recognising one means the server is modern (basic/versioning)."""
# Older servers' "resource not found"; 2026 servers send -32602 instead, and clients SHOULD accept both.
RESOURCE_NOT_FOUND_LEGACY = -32002

COMPLETE = "complete"
INPUT_REQUIRED = "input_required"
MAX_INPUT_ROUNDS = 10
"""``input_required`` rounds one request may take before we give up (the official SDKs use 10 too)."""


def with_meta(params: Mapping[str, Any] | None, meta: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` with the era's ``_meta`` keys merged in (the caller's own ``_meta`` keys kept, ours win)."""
    merged: dict[str, Any] = dict(params) if params else {}
    own = merged.get("_meta")
    merged["_meta"] = {**own, **meta} if isinstance(own, Mapping) else dict(meta)
    return merged


def result_type(result: Mapping[str, Any], method: str) -> str:
    """The result's ``resultType``: absent means ``complete`` (a legacy server); a non-string is invalid.

    spec: 2026-07-28 basic/index — the client MUST treat an absent ``resultType`` as ``"complete"`` and an
    unrecognised one as invalid; which values are recognised is the caller's business (extensions add some).
    """
    kind = result.get("resultType", COMPLETE)
    if not isinstance(kind, str):
        raise ProtocolError(f"{method} result has a non-string 'resultType' ({kind!r:.40})")
    return kind


@dataclass(frozen=True, slots=True)
class InputRequired:
    """An ``input_required`` result: what the server needs before it can answer, and its opaque state."""

    requests: Mapping[str, Mapping[str, Any]]
    """Key → an embedded request (``elicitation/create``, ``sampling/createMessage``, ``roots/list``)."""
    request_state: str | None


def input_required_of(result: Mapping[str, Any], method: str) -> InputRequired:
    """Check an ``input_required`` result (spec: basic/patterns/mrtr)."""
    requests = result.get("inputRequests")
    state = result.get("requestState")
    if requests is None and state is None:
        raise ProtocolError(f"{method}: input_required result has neither 'inputRequests' nor 'requestState'")
    if requests is None:
        requests = {}
    if not isinstance(requests, Mapping):
        raise ProtocolError(f"{method}: 'inputRequests' must be an object")
    for key, request in requests.items():
        if not isinstance(request, Mapping) or not isinstance(request.get("method"), str):
            raise ProtocolError(f"{method}: inputRequests[{key!r:.40}] is not a request with a 'method'")
    if state is not None and not isinstance(state, str):
        raise ProtocolError(f"{method}: 'requestState' must be a string")
    return InputRequired(requests, state)


def retry_params(
    params: Mapping[str, Any] | None, responses: Mapping[str, Any], request_state: str | None
) -> dict[str, Any]:
    """The params of an ``input_required`` retry: the original params plus this round's answers.

    spec: basic/patterns/mrtr — ``inputResponses`` (same keys) and ``requestState`` echoed exactly, and only
    on this retry: a previous round's answers are replaced, never accumulated.
    """
    retried: dict[str, Any] = dict(params) if params else {}
    retried.pop("inputResponses", None)
    retried.pop("requestState", None)
    if responses:
        retried["inputResponses"] = dict(responses)
    if request_state is not None:
        retried["requestState"] = request_state
    return retried


def supported_versions_of(data: Any) -> tuple[str, ...] | None:
    """The ``supported`` list of a ``-32022`` (or legacy ``-32602`` version) error's data, if it has one."""
    if not isinstance(data, Mapping):
        return None
    supported = data.get("supported")
    if not isinstance(supported, list):
        return None
    return tuple(v for v in supported if isinstance(v, str))


def parse_discover_result(
    result: Mapping[str, Any], version: str
) -> tuple[InitializeResult, tuple[str, ...]]:
    """Check a ``server/discover`` result; return it as the connection's server description, and the
    versions the server supports."""
    versions = result.get("supportedVersions")
    if not isinstance(versions, list) or not all(isinstance(v, str) for v in versions):
        raise ProtocolError("server/discover result has no 'supportedVersions' array of strings")
    capabilities = result.get("capabilities")
    if not isinstance(capabilities, dict):
        raise ProtocolError("server/discover result has no 'capabilities' object")
    meta = result.get("_meta")
    server_info = meta.get(SERVER_INFO) if isinstance(meta, Mapping) else None
    instructions = result.get("instructions")
    info = InitializeResult(
        protocol_version=version,
        capabilities=capabilities,
        server_info=server_info if isinstance(server_info, dict) else {},
        instructions=instructions if isinstance(instructions, str) else None,
    )
    return info, tuple(versions)


def subscription_id_of(params: Mapping[str, Any] | None) -> object:
    """The ``subscriptionId`` a notification carries in its ``_meta`` (None if it names none)."""
    meta = params.get("_meta") if params else None
    return meta.get(SUBSCRIPTION_ID) if isinstance(meta, Mapping) else None


# ---- HTTP request headers --------------------------------------------------------------------------------

# spec: 2026-07-28 streamable-http — values that are not plain, safe ASCII travel as =?base64?…?=; a value
# that happens to look like that sentinel is encoded too, so that it is never mistaken for one.
_SAFE_HEADER_VALUE = re.compile(r"[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?\Z")
_SENTINEL = re.compile(r"=\?base64\?.*\?=\Z", re.IGNORECASE | re.DOTALL)
_HEADER_NAME = re.compile(r"[A-Za-z0-9!#$%&'*+.^_`|~-]+\Z")
_MAX_SAFE_INTEGER = 2**53 - 1
NAMED_METHODS = {
    "tools/call": "name",
    "prompts/get": "name",
    "resources/read": "uri",
    # spec: ext-tasks "Streamable HTTP: Routing Headers" — tasks/get, tasks/update and tasks/cancel MUST set
    # Mcp-Name to params.taskId (so that intermediaries route them to the instance holding the task).
    "tasks/get": "taskId",
    "tasks/update": "taskId",
    "tasks/cancel": "taskId",
}
"""Methods whose request carries ``Mcp-Name``, and the param it mirrors."""


def encode_header_value(value: str) -> str:
    """A header-safe form of ``value`` (itself, or the base64 sentinel form)."""
    if len(value) <= _CACHED_HEADER_CHARS:
        # Methods and tool names repeat on every request of a connection: each is checked once.
        return _encode_short_header_value(value)
    return _encode_header_value(value)


# Values this short are remembered (at most _CACHED_HEADER_VALUES of them): a bounded cost, whatever a
# server names its tools or a caller passes as an argument that a header mirrors.
_CACHED_HEADER_CHARS = 128
_CACHED_HEADER_VALUES = 1024


def _encode_header_value(value: str) -> str:
    if not value or (_SAFE_HEADER_VALUE.match(value) and not _SENTINEL.match(value)):
        # An empty value is plain, safe ASCII too: the header is sent empty.
        return value
    return "=?base64?" + base64.b64encode(value.encode("utf-8")).decode("ascii") + "?="


_encode_short_header_value = functools.lru_cache(maxsize=_CACHED_HEADER_VALUES)(_encode_header_value)


@dataclass(frozen=True, slots=True)
class ParamHeader:
    """One ``x-mcp-header`` declaration: the header ``Mcp-Param-<name>`` mirrors the argument at ``path``."""

    name: str
    path: tuple[str, ...]


def param_headers(input_schema: Mapping[str, Any]) -> tuple[ParamHeader, ...]:
    """The ``x-mcp-header`` declarations of a tool's ``inputSchema``; raise ProtocolError if any is invalid.

    spec: 2026-07-28 streamable-http, "x-mcp-header" — the annotated property must be reachable through
    ``properties`` chains only, be of type string, integer or boolean (not number), and the names must be
    valid header tokens, unique case-insensitively. An invalid tool MUST be dropped from tools/list (HTTP).
    """
    found: list[ParamHeader] = []
    seen: set[str] = set()
    # Iterative: a schema is untrusted and may nest deeply.
    stack: list[tuple[Mapping[str, Any], tuple[str, ...], bool]] = [(input_schema, (), True)]
    while stack:
        schema, path, reachable = stack.pop()
        for key, value in schema.items():
            if key == "x-mcp-header":
                if not reachable or not path:
                    raise ProtocolError(f"x-mcp-header at {_where(path)} is not on a 'properties' chain")
                _check_header(value, schema, path, seen)
                found.append(ParamHeader(value, path))
            elif key == "properties" and isinstance(value, Mapping):
                for name, sub in value.items():
                    if isinstance(sub, Mapping):
                        stack.append((sub, (*path, str(name)), reachable))
            elif isinstance(value, Mapping):
                stack.append((value, (*path, key), False))
            elif isinstance(value, list):
                stack.extend((item, (*path, key), False) for item in value if isinstance(item, Mapping))
    return tuple(sorted(found, key=lambda header: header.path))


def _where(path: tuple[str, ...]) -> str:
    return "/".join(path) or "the root"


def _check_header(value: object, schema: Mapping[str, Any], path: tuple[str, ...], seen: set[str]) -> None:
    if not isinstance(value, str) or not value or not _HEADER_NAME.match(value):
        raise ProtocolError(f"x-mcp-header at {_where(path)} is not a valid header name ({value!r:.40})")
    if value.lower() in seen:
        raise ProtocolError(f"x-mcp-header {value!r} is declared twice (names are case-insensitive)")
    seen.add(value.lower())
    kind = schema.get("type")
    if kind not in ("string", "integer", "boolean"):
        raise ProtocolError(
            f"x-mcp-header {value!r} annotates a property of type {kind!r}; only string, integer and "
            "boolean may be mirrored"
        )


def request_headers(
    method: str,
    params: Mapping[str, Any] | None,
    version: str,
    declared: tuple[ParamHeader, ...] = (),
) -> Mapping[str, str]:
    """The headers a modern HTTP request carries besides the transport's own (a read-only mapping).

    spec: 2026-07-28 streamable-http — ``MCP-Protocol-Version`` (equal to the ``_meta`` version),
    ``Mcp-Method`` on every request, ``Mcp-Name`` on tools/call, resources/read and prompts/get, and
    ``Mcp-Param-<Name>`` for each declared argument that is present and not null.

    Without declared argument headers the result depends on the method, the name and the version only:
    the same read-only mapping comes back for the same three (issue #13: a modern call must cost no more
    than a legacy one, and these were built anew on every call), so the transport may cache by identity
    what it derives from them.
    """
    name_key = NAMED_METHODS.get(method)
    name: object = None
    if name_key is not None and params is not None:
        name = params.get(name_key)
    if not isinstance(name, str):
        name = None
    if name is None or len(name) <= _CACHED_HEADER_CHARS:
        fixed = _cached_fixed_headers(method, name, version)
    else:
        fixed = _fixed_headers(method, name, version)
    if not declared or params is None:
        return fixed
    arguments = params.get("arguments")
    if not isinstance(arguments, Mapping):
        return fixed
    headers = dict(fixed)
    for header in declared:
        text = _argument_text(arguments, header.path)
        if text is not None:
            headers[f"Mcp-Param-{header.name}"] = encode_header_value(text)
    return headers


def _fixed_headers(method: str, name: str | None, version: str) -> Mapping[str, str]:
    headers = {"MCP-Protocol-Version": version, "Mcp-Method": encode_header_value(method)}
    if name is not None:
        headers["Mcp-Name"] = encode_header_value(name)
    return MappingProxyType(headers)


# Bounded like the encoded values: whatever a server names its tools or resources, at most this many kept.
_cached_fixed_headers = functools.lru_cache(maxsize=_CACHED_HEADER_VALUES)(_fixed_headers)


def _argument_text(arguments: Mapping[str, Any], path: tuple[str, ...]) -> str | None:
    value: Any = arguments
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        # Integers beyond +/-(2^53 - 1) are not mirrored: JavaScript servers could not compare them exactly.
        return str(value) if abs(value) <= _MAX_SAFE_INTEGER else None
    if isinstance(value, str):
        return value
    return None
