"""MCP on top of JSON-RPC: method names, the handshake's params and result, typed views of tools, pagination.

Pure code. Every parser takes untrusted JSON values and either returns a typed view or raises
:class:`ProtocolError` naming what was wrong; one bad tool in a page is reported, not fatal to the page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from mcp_troupe._frozen import constructor
from mcp_troupe.errors import ProtocolError
from mcp_troupe.protocol.deepjson import TooDeep
from mcp_troupe.protocol.jsonrpc import RequestId, compact_encoder

__all__ = [
    "CANCELLED",
    "CATALOG_ITEM_KEYS",
    "INITIALIZE",
    "INITIALIZED",
    "PING",
    "PROMPTS_GET",
    "PROMPTS_LIST",
    "PROMPTS_LIST_CHANGED",
    "RESOURCES_LIST",
    "RESOURCES_LIST_CHANGED",
    "RESOURCES_READ",
    "RESOURCE_TEMPLATES_LIST",
    "TOOLS_CALL",
    "TOOLS_LIST",
    "TOOLS_LIST_CHANGED",
    "UNSUPPORTED_CLIENT_METHODS",
    "CatalogPage",
    "InitializeResult",
    "PageGuard",
    "SharedSchemas",
    "ToolDefinition",
    "ToolsPage",
    "call_tool_params",
    "cancelled_params",
    "get_prompt_params",
    "initialize_params",
    "parse_catalog_page",
    "parse_initialize_result",
    "parse_tool",
    "parse_tools_page",
    "read_resource_params",
    "with_progress_token",
]

INITIALIZE = "initialize"
INITIALIZED = "notifications/initialized"
PING = "ping"
TOOLS_LIST = "tools/list"
TOOLS_CALL = "tools/call"
CANCELLED = "notifications/cancelled"
PROGRESS = "notifications/progress"
LOG_MESSAGE = "notifications/message"
TOOLS_LIST_CHANGED = "notifications/tools/list_changed"
RESOURCES_LIST_CHANGED = "notifications/resources/list_changed"
PROMPTS_LIST_CHANGED = "notifications/prompts/list_changed"
RESOURCES_LIST = "resources/list"
RESOURCE_TEMPLATES_LIST = "resources/templates/list"
RESOURCES_READ = "resources/read"
PROMPTS_LIST = "prompts/list"
PROMPTS_GET = "prompts/get"

CATALOG_ITEM_KEYS: Mapping[str, str] = {
    RESOURCES_LIST: "resources",
    RESOURCE_TEMPLATES_LIST: "resourceTemplates",
    PROMPTS_LIST: "prompts",
}
"""The paginated listings other than ``tools/list``, each with the result key that holds its items."""

# Server-to-client requests we deliberately do not support: we declare none of these capabilities, so the
# server must not send them; if it does, it gets -32601 rather than silence (which would hang its tool call).
UNSUPPORTED_CLIENT_METHODS = frozenset({"sampling/createMessage", "elicitation/create", "roots/list"})

DEFAULT_MAX_PAGES = 1000


def initialize_params(
    protocol_version: str,
    client_name: str,
    client_version: str,
    capabilities: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Params of our ``initialize`` request; ``capabilities`` are the host's (none unless handlers exist)."""
    return {
        "protocolVersion": protocol_version,
        "capabilities": dict(capabilities or {}),
        "clientInfo": {"name": client_name, "version": client_version},
    }


@dataclass(frozen=True, slots=True)
class InitializeResult:
    """The server's answer to ``initialize``."""

    protocol_version: str
    capabilities: Mapping[str, Any]
    server_info: Mapping[str, Any]
    instructions: str | None = None

    @property
    def has_tools(self) -> bool:
        """Whether the server declared the tools capability."""
        return isinstance(self.capabilities.get("tools"), dict)

    def offers(self, capability: str) -> bool:
        """Whether the server declared ``capability`` (``"resources"``, ``"prompts"``...) as an object."""
        return isinstance(self.capabilities.get(capability), dict)

    def lists_changes(self, capability: str) -> bool:
        """Whether the server promised ``list_changed`` notifications for ``capability``."""
        entry = self.capabilities.get(capability)
        return isinstance(entry, dict) and entry.get("listChanged") is True


def parse_initialize_result(result: Mapping[str, Any]) -> InitializeResult:
    """Check the shape of an ``initialize`` result (``versions.negotiate`` checks the version itself)."""
    version = result.get("protocolVersion")
    if not isinstance(version, str):
        raise ProtocolError(f"initialize result has no string 'protocolVersion' (got {version!r:.40})")
    capabilities = result.get("capabilities")
    if not isinstance(capabilities, dict):
        raise ProtocolError("initialize result has no 'capabilities' object")
    server_info = result.get("serverInfo")
    if not isinstance(server_info, dict):
        # Required by every revision's schema; some servers omit it. It is informational only, so a
        # missing one is tolerated rather than refusing an otherwise working server.
        server_info = {}
    instructions = result.get("instructions")
    return InitializeResult(
        protocol_version=version,
        capabilities=capabilities,
        server_info=server_info,
        instructions=instructions if isinstance(instructions, str) else None,
    )


NO_META: Mapping[str, Any] = MappingProxyType({})
"""The ``meta`` of every definition that has no ``_meta`` (read-only, shared)."""


@dataclass(frozen=True, slots=True)
class ToolDefinition:
    """A tool as the server published it."""

    name: str
    input_schema: Mapping[str, Any]
    description: str = ""
    title: str | None = None
    output_schema: Mapping[str, Any] | None = None
    annotations: Mapping[str, Any] = field(default_factory=dict)
    icons: tuple[Mapping[str, Any], ...] = ()
    """2025-11-25+: the icons whose ``src`` is safe to show (``https:`` or ``data:``)."""
    meta: Mapping[str, Any] = field(default_factory=dict)
    """The definition's ``_meta`` object (empty when it has none, or one that is not an object)."""
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def display_title(self) -> str:
        """spec: tools — display-name precedence is ``title``, then ``annotations.title``, then ``name``."""
        if self.title:
            return self.title
        annotated = self.annotations.get("title")
        return annotated if isinstance(annotated, str) and annotated else self.name


_TOOL_DEFINITION = constructor(ToolDefinition)
"""``ToolDefinition(...)`` built directly (mcp_troupe._frozen): a first listing makes one per tool, and a
frozen dataclass's own ``__init__`` writes each of its nine fields through ``object.__setattr__``."""

# The exact JSON text of a schema, key order kept (NaN written as the decoder reads it), C encoder made once.
_SCHEMA_JSON, _C_SCHEMA_JSON = compact_encoder(allow_nan=True)
_MARKER_TEXT = str(TooDeep())


class SharedSchemas:
    """One listing's input schemas by their exact JSON text, so that tools with the same schema share it.

    Generated and real catalogs repeat input schemas word for word (no parameters, one ``path``, the same
    pagination arguments: all 10,000 tools of the benchmark server have one). Decoded, each repeat is its
    own three or four containers, which the garbage collector tracks and walks for as long as the catalog
    stands, and which policy would encode again to find what it knows of the schema (policy.definition).
    Shared, the repeats are freed as their page is parsed, and the registry meets one object it has seen
    (issue 18: 3 of the 7 objects per tool that a 10,000-tool first connect left the collector).

    The same JSON text means equal values of the same JSON types, in the same key order, so everything
    policy derives from a schema (its checks, bounds, fingerprint, findings in document order) is the same
    for the shared object. Not shared: a schema whose text holds the words of a
    :class:`~mcp_troupe.protocol.deepjson.TooDeep` marker (a marker and a plain string with those words
    write the same text, and the bounds tell them apart), one longer than :data:`MAX_CHARS` (rarely
    repeated word for word; the table holds at most :data:`MAX_ENTRIES` texts of at most that size), and a
    value that is not JSON (a hand-built definition). A shared schema is one object in many definitions and
    :class:`~mcp_troupe.types.ToolSpec` values: it must not be changed in place (no code of ours does).
    """

    MAX_CHARS = 4096
    MAX_ENTRIES = 1024

    __slots__ = ("_schemas",)

    def __init__(self) -> None:
        self._schemas: dict[str, dict[str, Any]] = {}

    def share(self, schema: dict[str, Any]) -> dict[str, Any]:
        """The schema with ``schema``'s JSON text that came first in this listing, or ``schema`` itself."""
        try:
            text = (
                "".join(_C_SCHEMA_JSON(schema, 0))
                if _C_SCHEMA_JSON is not None
                else _SCHEMA_JSON.encode(schema)
            )
        except (TypeError, ValueError, RecursionError):
            return schema
        if len(text) > self.MAX_CHARS or _MARKER_TEXT in text:
            return schema
        schemas = self._schemas
        known = schemas.get(text)
        if known is not None:
            return known
        if len(schemas) < self.MAX_ENTRIES:
            schemas[text] = schema
        return schema


def parse_tool(obj: object, shared: SharedSchemas | None = None) -> ToolDefinition:
    """Build a :class:`ToolDefinition`, or raise :class:`ProtocolError` saying what is wrong with it.

    With ``shared``, an ``inputSchema`` with the same JSON text as one of an earlier tool is replaced, in the
    definition and in ``obj``, by that tool's (:class:`SharedSchemas`).
    """
    if not isinstance(obj, dict):
        raise ProtocolError(f"a tool must be an object, got {type(obj).__name__}")
    name = obj.get("name")
    if not isinstance(name, str) or not name:
        raise ProtocolError(f"a tool has no string 'name' (got {name!r:.40})")
    input_schema = obj.get("inputSchema")
    if not isinstance(input_schema, dict):
        raise ProtocolError(f"tool {name!r}: 'inputSchema' must be an object")
    if shared is not None:
        known = shared.share(input_schema)
        if known is not input_schema:
            obj["inputSchema"] = input_schema = known
    description = obj.get("description")
    if description is not None and not isinstance(description, str):
        raise ProtocolError(f"tool {name!r}: 'description' must be a string")
    title = obj.get("title")
    output_schema = obj.get("outputSchema")
    if output_schema is not None and not isinstance(output_schema, dict):
        raise ProtocolError(f"tool {name!r}: 'outputSchema' must be an object")
    annotations = obj.get("annotations")
    icons = safe_icons(obj.get("icons"))
    meta = obj.get("_meta")
    return _TOOL_DEFINITION(
        name=name,
        input_schema=input_schema,
        description=description or "",
        title=title if isinstance(title, str) else None,
        output_schema=output_schema,
        annotations=annotations if isinstance(annotations, dict) else {},
        icons=icons,
        # (One shared empty mapping for the many definitions without one: a first connect makes thousands.)
        meta=meta if isinstance(meta, dict) and meta else NO_META,
        raw=obj,
    )


_ICON_KEYS = ("src", "mimeType", "sizes", "theme")


def safe_icons(value: object) -> tuple[Mapping[str, Any], ...]:
    """The icons of a definition that a client may show: ``src`` with the ``https:`` or ``data:`` scheme only.

    spec: 2025-11-25 basic/index, icons — clients MUST reject unsafe schemes (``javascript:``, ``file:``,
    ``http:`` …). Only the documented keys are kept, so nothing else of the server's rides along.
    """
    if not isinstance(value, list):
        return ()
    icons: list[Mapping[str, Any]] = []
    for item in value[:16]:
        if not isinstance(item, dict):
            continue
        src = item.get("src")
        if not isinstance(src, str) or not src.lower().startswith(("https:", "data:image/")):
            continue
        icons.append({key: item[key] for key in _ICON_KEYS if key in item})
    return tuple(icons)


@dataclass(frozen=True, slots=True)
class ToolsPage:
    """One page of ``tools/list``: the good tools, the rejected ones with reasons, and the next cursor."""

    tools: tuple[ToolDefinition, ...]
    rejected: tuple[tuple[str, str], ...]
    next_cursor: str | None


def parse_tools_page(result: Mapping[str, Any], shared: SharedSchemas | None = None) -> ToolsPage:
    """Parse a ``tools/list`` result; a malformed entry is rejected with its reason, the rest kept.

    ``shared`` (one per listing) makes tools whose input schemas have the same JSON text share one schema
    object (:class:`SharedSchemas`).
    """
    items = result.get("tools")
    if not isinstance(items, list):
        raise ProtocolError("tools/list result has no 'tools' array")
    tools: list[ToolDefinition] = []
    rejected: list[tuple[str, str]] = []
    for index, item in enumerate(items):
        try:
            tools.append(parse_tool(item, shared))
        except ProtocolError as exc:
            label = item.get("name") if isinstance(item, dict) else None
            rejected.append((label if isinstance(label, str) else f"#{index}", str(exc)))
    cursor = result.get("nextCursor")
    if cursor is not None and not isinstance(cursor, str):
        raise ProtocolError(f"tools/list 'nextCursor' must be a string, got {cursor!r:.40}")
    return ToolsPage(tuple(tools), tuple(rejected), cursor)


@dataclass(frozen=True, slots=True)
class CatalogPage:
    """One page of ``resources/list``, ``resources/templates/list`` or ``prompts/list``.

    ``items`` keeps every entry that is a JSON object, as the server sent it; ``skipped`` counts the others.
    """

    items: tuple[dict[str, Any], ...]
    skipped: int
    next_cursor: str | None


def parse_catalog_page(method: str, result: Mapping[str, Any]) -> CatalogPage:
    """Parse one page of the listing ``method`` (a key of :data:`CATALOG_ITEM_KEYS`).

    The entries are not checked field by field here: they are shown to the model as compact metadata, and a
    field of the wrong type is simply left out then. Only the page's own shape can make it unusable.
    """
    key = CATALOG_ITEM_KEYS[method]
    items = result.get(key)
    if not isinstance(items, list):
        raise ProtocolError(f"{method} result has no {key!r} array")
    kept = tuple(item for item in items if isinstance(item, dict))
    cursor = result.get("nextCursor")
    if cursor is not None and not isinstance(cursor, str):
        raise ProtocolError(f"{method} 'nextCursor' must be a string, got {cursor!r:.40}")
    return CatalogPage(kept, len(items) - len(kept), cursor)


class PageGuard:
    """Stop a paginated listing that would never end: a repeated cursor, or too many pages.

    spec: pagination — cursors are opaque; a missing ``nextCursor`` ends the listing. We never parse a cursor,
    only remember which ones we have already followed.
    """

    __slots__ = ("_seen", "max_pages", "method", "pages")

    def __init__(self, method: str, max_pages: int = DEFAULT_MAX_PAGES) -> None:
        self.method = method
        self.max_pages = max_pages
        self.pages = 0
        self._seen: set[str] = set()

    def follow(self, cursor: str) -> None:
        """Record that we are about to request ``cursor``; raise if that can't end well."""
        if cursor in self._seen:
            raise ProtocolError(f"{self.method}: the server repeated cursor {cursor!r:.60} (pagination loop)")
        if self.pages >= self.max_pages:
            raise ProtocolError(f"{self.method}: more than {self.max_pages} pages; giving up")
        self._seen.add(cursor)

    def count_page(self) -> None:
        """Record that one page arrived."""
        self.pages += 1


def list_params(cursor: str | None) -> dict[str, Any] | None:
    """Params of a ``*/list`` request."""
    return None if cursor is None else {"cursor": cursor}


def call_tool_params(name: str, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
    """Params of ``tools/call``."""
    return {"name": name, "arguments": dict(arguments) if arguments is not None else {}}


def with_progress_token(params: Mapping[str, Any], token: RequestId) -> dict[str, Any]:
    """``params`` with ``_meta.progressToken`` set to ``token`` (other ``_meta`` keys kept).

    spec: basic/utilities/progress — a request asks for progress with ``params._meta.progressToken``, a string
    or integer unique across the sender's active requests.
    """
    meta = params.get("_meta")
    return {**params, "_meta": {**(meta if isinstance(meta, Mapping) else {}), "progressToken": token}}


def read_resource_params(uri: str) -> dict[str, Any]:
    """Params of ``resources/read``."""
    return {"uri": uri}


def get_prompt_params(name: str, arguments: Mapping[str, str] | None) -> dict[str, Any]:
    """Params of ``prompts/get`` (``arguments`` only when there are some)."""
    params: dict[str, Any] = {"name": name}
    if arguments:
        params["arguments"] = dict(arguments)
    return params


def cancelled_params(request_id: RequestId, reason: str | None) -> dict[str, Any]:
    """Params of ``notifications/cancelled`` for one of our requests."""
    params: dict[str, Any] = {"requestId": request_id}
    if reason:
        params["reason"] = reason
    return params
