"""mcp-troupe: the MCP client layer for agents.

One agent process connects to many MCP servers (stdio subprocesses and Streamable HTTP endpoints), each kept
alive by its own supervisor; the agent sees one tool table and calls tools by qualified name::

    from mcp_troupe import Troupe, load_config

    with Troupe(load_config("troupe.yaml")) as troupe:
        troupe.wait_ready(timeout=30)
        result = troupe.call("mcp__demo__echo", {"text": "hello"})
"""

from typing import TYPE_CHECKING, Any

from mcp_troupe._version import __version__

if TYPE_CHECKING:
    from mcp_troupe.config import (
        ReconnectPolicy,
        ServerConfig,
        TroupeConfig,
        load_config,
        parse_config,
        stdio_server,
    )
    from mcp_troupe.errors import (
        ApprovalRequired,
        AuthError,
        AuthorizationDenied,
        AuthRefused,
        AuthServerError,
        AuthUnreachable,
        CallCancelled,
        CallError,
        CallTimedOut,
        ClientRejected,
        ConfigError,
        ConnectFailed,
        ConnectionLost,
        CredentialStoreError,
        DiscoveryFailed,
        FrameTooLarge,
        HttpError,
        InputUnavailable,
        InsufficientScope,
        InvalidArguments,
        MalformedMessage,
        NeedsLogin,
        OutboundFull,
        ProtocolError,
        RemoteError,
        ServerNotReady,
        ServerUnavailable,
        ToolDenied,
        TroupeBroken,
        TroupeClosed,
        TroupeError,
        UnknownServer,
        UnknownTool,
        UnsupportedProtocolVersion,
    )
    from mcp_troupe.host import (
        Completion,
        ElicitationRequest,
        ElicitationResult,
        LogEntry,
        ProgressEvent,
        SamplingRequest,
        SamplingResult,
        Subscription,
    )
    from mcp_troupe.troupe import CallHandle, Troupe
    from mcp_troupe.types import Risk, ServerState, ServerStatus, ToolResult, ToolSpec, TroupeEvent

# The public names are imported on first use (PEP 562): `python -m mcp_troupe.demo` and other light entry
# points must not pay for the actor stack, jsonschema and httpx at every start.
_LAZY = {
    **dict.fromkeys(
        ["ReconnectPolicy", "ServerConfig", "TroupeConfig", "load_config", "parse_config", "stdio_server"],
        "mcp_troupe.config",
    ),
    **dict.fromkeys(["CallHandle", "Troupe"], "mcp_troupe.troupe"),
    **dict.fromkeys(
        [
            "Completion",
            "ElicitationRequest",
            "ElicitationResult",
            "LogEntry",
            "ProgressEvent",
            "SamplingRequest",
            "SamplingResult",
            "Subscription",
        ],
        "mcp_troupe.host",
    ),
    **dict.fromkeys(
        ["Risk", "ServerState", "ServerStatus", "ToolResult", "ToolSpec", "TroupeEvent"], "mcp_troupe.types"
    ),
}


def __getattr__(name: str) -> Any:
    module_name = _LAZY.get(name)
    if module_name is None:
        import mcp_troupe.errors as errors

        if name in errors.__all__:
            return getattr(errors, name)
        raise AttributeError(f"module 'mcp_troupe' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module_name), name)


__all__ = [
    "ApprovalRequired",
    "AuthError",
    "AuthRefused",
    "AuthServerError",
    "AuthUnreachable",
    "AuthorizationDenied",
    "CallCancelled",
    "CallError",
    "CallHandle",
    "CallTimedOut",
    "ClientRejected",
    "Completion",
    "ConfigError",
    "ConnectFailed",
    "ConnectionLost",
    "CredentialStoreError",
    "DiscoveryFailed",
    "ElicitationRequest",
    "ElicitationResult",
    "FrameTooLarge",
    "HttpError",
    "InputUnavailable",
    "InsufficientScope",
    "InvalidArguments",
    "LogEntry",
    "MalformedMessage",
    "NeedsLogin",
    "OutboundFull",
    "ProgressEvent",
    "ProtocolError",
    "ReconnectPolicy",
    "RemoteError",
    "Risk",
    "SamplingRequest",
    "SamplingResult",
    "ServerConfig",
    "ServerNotReady",
    "ServerState",
    "ServerStatus",
    "ServerUnavailable",
    "Subscription",
    "ToolDenied",
    "ToolResult",
    "ToolSpec",
    "Troupe",
    "TroupeBroken",
    "TroupeClosed",
    "TroupeConfig",
    "TroupeError",
    "TroupeEvent",
    "UnknownServer",
    "UnknownTool",
    "UnsupportedProtocolVersion",
    "__version__",
    "load_config",
    "parse_config",
    "stdio_server",
]
