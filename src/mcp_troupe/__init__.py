"""mcp-troupe: the MCP client layer for agents.

One agent process connects to many MCP servers (stdio subprocesses and Streamable HTTP endpoints), each kept
alive by its own supervisor; the agent sees one tool table and calls tools by qualified name::

    from mcp_troupe import Troupe, load_config

    with Troupe(load_config("troupe.yaml")) as troupe:
        troupe.wait_ready(timeout=30)
        result = troupe.call("mcp__demo__echo", {"text": "hello"})
"""

from mcp_troupe._version import __version__
from mcp_troupe.config import ReconnectPolicy, ServerConfig, TroupeConfig, load_config, parse_config, stdio_server
from mcp_troupe.errors import (
    CallCancelled,
    CallError,
    CallTimedOut,
    ConfigError,
    ConnectFailed,
    ConnectionLost,
    FrameTooLarge,
    MalformedMessage,
    ProtocolError,
    RemoteError,
    ServerNotReady,
    ServerUnavailable,
    TroupeClosed,
    TroupeError,
    UnknownTool,
    UnsupportedProtocolVersion,
)
from mcp_troupe.troupe import CallHandle, Troupe
from mcp_troupe.types import Risk, ServerState, ServerStatus, ToolResult, ToolSpec, TroupeEvent

__all__ = [
    "CallCancelled",
    "CallError",
    "CallHandle",
    "CallTimedOut",
    "ConfigError",
    "ConnectFailed",
    "ConnectionLost",
    "FrameTooLarge",
    "MalformedMessage",
    "ProtocolError",
    "ReconnectPolicy",
    "RemoteError",
    "Risk",
    "ServerConfig",
    "ServerNotReady",
    "ServerState",
    "ServerStatus",
    "ServerUnavailable",
    "ToolResult",
    "ToolSpec",
    "Troupe",
    "TroupeClosed",
    "TroupeConfig",
    "TroupeError",
    "TroupeEvent",
    "UnknownTool",
    "UnsupportedProtocolVersion",
    "__version__",
    "load_config",
    "parse_config",
    "stdio_server",
]
