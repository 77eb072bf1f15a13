"""The agent-facing tools ``mcp_resources`` and ``mcp_prompts``: resources and prompts, for the model.

MCP servers publish resources and prompt templates besides tools, and a model sees none of them unless the
client turns them into tools (PEERS.md §2.12). These two tools do, with progressive disclosure: a compact
list first, then one item::

    mcp_resources  action=list      [server=S] [cursor=C]   compact metadata: uri, name, title, mimeType, size
                   action=read      uri=U [server=S]        one resource's contents (or a stored result)
                   action=templates [server=S] [cursor=C]   URI templates with their parameters
    mcp_prompts    action=list      [server=S] [cursor=C]   name, title, description, declared arguments
                   action=get       name=N [arguments={...}] [server=S]

Rules the model can rely on:

- **Which server.** ``server`` may be left out only when exactly one connected server offers the capability;
  otherwise the answer is an error that lists the candidates.
- **Pages.** A server's full listing is read by its session (every ``nextCursor``, cached until its
  ``list_changed``); these tools then show it :data:`PAGE_SIZE` entries at a time with a cursor of their own.
  That cursor names the server, the offset and a fingerprint of the listing, so a cursor from a listing that
  has changed since is refused instead of silently skipping or repeating entries.
- **Untrusted text.** Resource bodies, prompt messages and every listed entry are the server's words: for a
  server that is not trusted each goes through :func:`~mcp_troupe.policy.injection.wrap_untrusted`, which
  puts a banner in front of text that looks like an injection attempt (never drops it).
- **Role boundaries.** A rendered prompt shows each message under its role, its text indented, so a
  server-written assistant turn never reads as something this agent said.
- **Stored results.** A tool result longer than the output budget is cut, and its whole text is kept as
  ``troupe://results/<id>``; ``mcp_resources action=read uri=troupe://results/<id>`` serves it, a budget's
  worth at a time.

The module has three layers: the specs and their generated input schemas (in ``_builtin_specs``,
re-exported here); pure functions that check arguments, pick the server and render (unit-tested without
threads); and :func:`serve`, the task the registry starts on the I/O loop for one call, which reaches each
server through the :class:`SessionPort` the registry put in its :class:`ServerView`, awaits the futures
without blocking the loop, and renders in a worker thread (the injection scan of a large text takes long
enough to stall the loop). The module imports nothing from ``actors/``: the registry (an actor) depends on
it, never the other way round.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, TypeVar

import anyio.to_thread

from mcp_troupe._builtin_specs import (
    BUILTIN_NAMES,
    BUILTIN_SERVER,
    BUILTIN_TOOLS,
    MAX_COMPLETIONS,
    PROMPTS,
    PROMPTS_TOOL,
    RESOURCES,
    RESOURCES_TOOL,
    Action,
    BuiltinTool,
    input_schema,
)
from mcp_troupe._futures import complete as _complete
from mcp_troupe._futures import fail as _fail
from mcp_troupe.errors import ConnectionLost, InputUnavailable, RemoteError, TroupeClosed, TroupeError
from mcp_troupe.policy.injection import wrap_untrusted
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol.content import RESULTS_URI_PREFIX, render_block
from mcp_troupe.types import Risk, ToolSpec

__all__ = [
    "BUILTIN_NAMES",
    "BUILTIN_SERVER",
    "BUILTIN_TOOLS",
    "PAGE_SIZE",
    "PROMPTS_TOOL",
    "RESOURCES_TOOL",
    "SEARCH_SPEC",
    "SEARCH_TOOL",
    "Action",
    "BuiltinCall",
    "BuiltinTool",
    "Cursor",
    "Refused",
    "ServerView",
    "SessionPort",
    "check_arguments",
    "check_search_arguments",
    "choose_server",
    "decode_cursor",
    "encode_cursor",
    "error_result",
    "input_schema",
    "listing_fingerprint",
    "render_listing_page",
    "render_prompt",
    "render_read",
    "render_stored_result",
    "search_result",
    "serve",
    "template_parameters",
    "text_result",
]

log = logging.getLogger("mcp_troupe.builtin_tools")

T = TypeVar("T")

PAGE_SIZE: Final = 50
"""Entries per page of a built-in listing: small enough for one call's output, big enough for few calls."""

DESCRIPTION_LIMIT: Final = 200
"""Characters of a template's or prompt's description shown in a listing (the rest is cut with "…")."""

STORED_RESULT_MARGIN: Final = 400
"""Characters of the output budget kept free for the lines around a chunk of a stored result."""

# The task's last-resort wait for a session's answer, past the request's own timeout: a message told to a
# session in the instant it stops is dropped by pykka, and its future would otherwise never complete.
_GUARD_MARGIN: Final = 60.0
# A listing may take several pages, each with its own timeout.
_LISTING_GUARD_PAGES: Final = 10


# ---- mcp_tool_search ---------------------------------------------------------------------------------------

SEARCH_TOOL: Final = "mcp_tool_search"
"""The built-in that finds tools by a need when tool search keeps them out of the list
(``tools.mcp.tool_search``); the registry answers it from its index (:mod:`mcp_troupe.search`)."""
SEARCH_DEFAULT_LIMIT: Final = 5
SEARCH_MAX_LIMIT: Final = 20
SEARCH_QUERY_MAX_CHARS: Final = 1000

SEARCH_SPEC: Final = ToolSpec(
    name=SEARCH_TOOL,
    original_name=SEARCH_TOOL,
    server=BUILTIN_SERVER,
    description=(
        'Find tools of the connected MCP servers by what you need, in plain words ("create a ticket", '
        '"read a file", "send a chat message"). Many tools are not listed until found: search first '
        "when no listed tool fits. The answer lists the best matches with their input schemas; call a found "
        "tool by its name at once, with arguments that fit its schema."
    ),
    input_schema={
        "type": "object",
        "properties": {
            "query": {
                "type": "string",
                "minLength": 1,
                "maxLength": SEARCH_QUERY_MAX_CHARS,
                "description": "What the tool should do, in your own words.",
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": SEARCH_MAX_LIMIT,
                "default": SEARCH_DEFAULT_LIMIT,
                "description": "How many tools to return, best first.",
            },
        },
        "required": ["query"],
        "additionalProperties": False,
    },
    annotations={"readOnlyHint": True, "destructiveHint": False, "openWorldHint": False},
    # Searching reads the client's own table; it is still an MCP call, so a profile that denies MCP calls
    # denies it too.
    risk=Risk.READ_ONLY,
    capabilities=("mcp.call",),
)


def check_search_arguments(arguments: Mapping[str, Any] | None) -> tuple[str, int] | str:
    """``(query, limit)`` from the model's arguments, or the message that says what is wrong."""
    args = arguments or {}
    unknown = sorted(set(args) - {"query", "limit"})
    if unknown:
        return f"{SEARCH_TOOL}: unknown argument(s) {', '.join(unknown)}; it takes query and limit"
    query = args.get("query")
    if not isinstance(query, str) or not query.strip():
        return f"{SEARCH_TOOL}: 'query' is required: a non-empty string saying what the tool should do"
    if len(query) > SEARCH_QUERY_MAX_CHARS:
        return f"{SEARCH_TOOL}: 'query' is longer than {SEARCH_QUERY_MAX_CHARS} characters"
    limit = args.get("limit", SEARCH_DEFAULT_LIMIT)
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= SEARCH_MAX_LIMIT:
        return f"{SEARCH_TOOL}: 'limit' must be an integer from 1 to {SEARCH_MAX_LIMIT}"
    return query, limit


def search_result(found: Sequence[ToolSpec]) -> dict[str, Any]:
    """The ``CallToolResult`` of a search: ``{"tools": [{"name", "description", "input_schema"}]}`` as
    ``structuredContent`` and, for models that read only text, as JSON text."""
    tools = [
        {"name": spec.name, "description": spec.description, "input_schema": dict(spec.input_schema)}
        for spec in found
    ]
    structured = {"tools": tools}
    text = json.dumps(structured, ensure_ascii=False, sort_keys=False)
    if not tools:
        text = f"{text}\nNo connected tool matches; try other words for the need."
    return {"content": [{"type": "text", "text": text}], "structuredContent": structured, "isError": False}


# ---- arguments ---------------------------------------------------------------------------------------------


class Refused(Exception):
    """The call cannot be served as asked; the message is for the model (it becomes an ``isError`` result)."""


def check_arguments(tool: BuiltinTool, arguments: Mapping[str, Any] | None) -> tuple[Action, dict[str, Any]]:
    """Check ``arguments`` against ``tool``'s actions the way its input schema does, with plainer messages.

    Returns the action and the arguments; raises :class:`Refused` saying what to change.
    """
    args = dict(arguments or {})
    names = ", ".join(action.name for action in tool.actions)
    action_name = args.get("action")
    if action_name is None:
        raise Refused(f"{tool.name} needs an action: one of {names}")
    action = tool.action(action_name) if isinstance(action_name, str) else None
    if action is None:
        raise Refused(f"{tool.name}: unknown action {action_name!r}; use one of {names}")
    unknown = sorted(set(args) - set(tool.fields) - {"action"})
    if unknown:
        raise Refused(f"{tool.name}: unknown argument {', '.join(map(repr, unknown))}")
    misplaced = sorted(set(args) - action.allowed)
    if misplaced:
        raise Refused(
            f"{tool.name} action={action.name} does not take {', '.join(map(repr, misplaced))}; "
            f"it takes {', '.join(sorted(action.allowed - {'action'})) or 'nothing else'}"
        )
    missing = [name for name in action.required if name not in args]
    if missing:
        raise Refused(f"{tool.name} action={action.name} needs {', '.join(missing)}")
    for name, value in args.items():
        expected = tool.fields.get(name, {"type": "string"})["type"]
        if expected == "string" and not isinstance(value, str):
            raise Refused(f"{tool.name}: {name!r} must be a string")
        if expected == "object":
            if not isinstance(value, dict):
                raise Refused(f"{tool.name}: {name!r} must be an object")
            if not all(isinstance(item, str) for item in value.values()):
                raise Refused(f"{tool.name}: every value in {name!r} must be a string")
    return action, args


# ---- which server ------------------------------------------------------------------------------------------


class SessionPort(Protocol):
    """How a built-in call reaches one connected server's session (the registry provides it).

    Each method hands the request over without waiting and returns False when the session is gone;
    ``reply_to`` then gets the answer (or the error). Cancelling ``reply_to`` cancels the request.
    """

    def list_all(self, method: str, reply_to: Future[Any], is_continuation: bool = False) -> bool:
        """Ask for the complete listing of ``method`` (every page), as a list of items; a continuation
        pages on through the listing it started with, whatever its ``ttlMs``."""
        ...

    def request(
        self, method: str, params: Mapping[str, Any], reply_to: Future[Any], timeout: float | None
    ) -> bool:
        """Send one request; ``reply_to`` gets its raw result."""
        ...


@dataclass(frozen=True, slots=True)
class ServerView:
    """One configured server as a built-in call sees it: a snapshot the registry takes when the call arrives.

    ``offers`` holds the capabilities of its last handshake (``"resources"``, ``"prompts"``); ``session`` is
    set only while it is connected; ``timeout`` is its configured call timeout.
    """

    name: str
    state: str
    offers: frozenset[str] = frozenset()
    is_trusted: bool = False
    session: SessionPort | None = None
    timeout: float = 120.0

    @property
    def is_connected(self) -> bool:
        """Whether calls can go to this server now."""
        return self.session is not None


def choose_server(servers: Sequence[ServerView], capability: str, requested: str | None) -> ServerView:
    """Pick the server a call goes to, or raise :class:`Refused` naming the candidates.

    ``server`` may be left out only when exactly one *connected* server offers ``capability``.
    """
    offering = [view for view in servers if capability in view.offers]
    connected = [view for view in offering if view.is_connected]
    if requested is not None:
        view = next((view for view in servers if view.name == requested), None)
        if view is None:
            raise Refused(f"no server named {requested!r}; {_candidates(capability, connected)}")
        if not view.is_connected:
            raise Refused(f"server {requested!r} is not connected (state: {view.state}); try again later")
        if capability not in view.offers:
            raise Refused(
                f"server {requested!r} does not offer {capability}; {_candidates(capability, connected)}"
            )
        return view
    if len(connected) == 1:
        return connected[0]
    if connected:
        names = ", ".join(view.name for view in connected)
        raise Refused(
            f"several connected servers offer {capability}: {names}; say which one with server=<name>"
        )
    waiting = [f"{view.name} ({view.state})" for view in offering]
    later = (
        f"; {', '.join(waiting)} offered them but {'is' if len(waiting) == 1 else 'are'} not connected now"
    )
    raise Refused(f"no connected server offers {capability}" + (later if waiting else ""))


def _candidates(capability: str, connected: Sequence[ServerView]) -> str:
    if not connected:
        return f"no connected server offers {capability}"
    return f"servers offering {capability}: {', '.join(view.name for view in connected)}"


# ---- our own cursor ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cursor:
    """Where a built-in listing (or a stored result) continues.

    ``kind`` is the listing (``resources``, ``templates``, ``prompts``) or ``result``; ``source`` the server
    (or the result's URI); ``generation`` a fingerprint of the listing the offset counts into.
    """

    kind: str
    source: str
    offset: int
    generation: str


def encode_cursor(cursor: Cursor) -> str:
    """An opaque, URL-safe token for ``cursor``."""
    payload = json.dumps(
        [cursor.kind, cursor.source, cursor.offset, cursor.generation], separators=(",", ":")
    )
    return base64.urlsafe_b64encode(payload.encode()).decode().rstrip("=")


def decode_cursor(token: str) -> Cursor:
    """Read a token made by :func:`encode_cursor`; raise :class:`Refused` for anything else."""
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        kind, source, offset, generation = json.loads(raw)
    except (binascii.Error, ValueError, TypeError, UnicodeDecodeError):
        raise Refused("this cursor was not made by this tool; list again without a cursor") from None
    if not (
        isinstance(kind, str)
        and isinstance(source, str)
        and isinstance(generation, str)
        and isinstance(offset, int)
        and offset >= 0
    ):
        raise Refused("this cursor was not made by this tool; list again without a cursor")
    return Cursor(kind, source, offset, generation)


def listing_fingerprint(items: Sequence[Mapping[str, Any]]) -> str:
    """A short hash of a full listing: the same entries give the same fingerprint, any change another."""
    canonical = json.dumps(items, sort_keys=True, ensure_ascii=False, default=str, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()[:12]


# ---- rendering ---------------------------------------------------------------------------------------------


def text_result(text: str, *, is_error: bool = False) -> dict[str, Any]:
    """A ``CallToolResult``-shaped answer with one text block."""
    return {"content": [{"type": "text", "text": text}], "isError": is_error}


def error_result(message: str) -> dict[str, Any]:
    """An ``isError`` answer the model reads."""
    return text_result(message, is_error=True)


def _clip(text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _strings(entry: Mapping[str, Any], keys: Sequence[str]) -> dict[str, Any]:
    return {key: entry[key] for key in keys if isinstance(entry.get(key), str) and entry[key]}


def _compact_resource(entry: Mapping[str, Any]) -> dict[str, Any]:
    compact = _strings(entry, ("uri", "name", "title", "mimeType"))
    size = entry.get("size")
    if isinstance(size, int) and not isinstance(size, bool):
        compact["size"] = size
    return compact


_TEMPLATE_EXPRESSION = re.compile(r"\{([^{}]*)\}")


def template_parameters(template: str) -> list[str]:
    """The variable names of an RFC 6570 URI template, in order, each once (``{+path}``, ``{?q,lang}``...)."""
    names: list[str] = []
    for expression in _TEMPLATE_EXPRESSION.findall(template):
        if expression[:1] in ("+", "#", ".", "/", ";", "?", "&"):
            expression = expression[1:]
        for variable in expression.split(","):
            name = variable.split(":", 1)[0].rstrip("*").strip()
            if name and name not in names:
                names.append(name)
    return names


def _compact_template(entry: Mapping[str, Any]) -> dict[str, Any]:
    compact = _strings(entry, ("uriTemplate", "name", "title", "mimeType"))
    template = entry.get("uriTemplate")
    compact["parameters"] = template_parameters(template) if isinstance(template, str) else []
    description = entry.get("description")
    if isinstance(description, str) and description:
        compact["description"] = _clip(description)
    return compact


def _compact_prompt(entry: Mapping[str, Any]) -> dict[str, Any]:
    compact = _strings(entry, ("name", "title"))
    description = entry.get("description")
    if isinstance(description, str) and description:
        compact["description"] = _clip(description)
    arguments = []
    for argument in entry.get("arguments") or ():
        if not isinstance(argument, dict) or not isinstance(argument.get("name"), str):
            continue
        shown: dict[str, Any] = {"name": argument["name"], "required": argument.get("required") is True}
        if isinstance(argument.get("description"), str) and argument["description"]:
            shown["description"] = _clip(argument["description"])
        arguments.append(shown)
    compact["arguments"] = arguments
    return compact


@dataclass(frozen=True, slots=True)
class _Listing:
    method: str
    noun: str
    compact: Callable[[Mapping[str, Any]], dict[str, Any]]


_LISTINGS: Final[Mapping[str, _Listing]] = {
    "resources": _Listing(proto.RESOURCES_LIST, "resources", _compact_resource),
    "templates": _Listing(proto.RESOURCE_TEMPLATES_LIST, "resource templates", _compact_template),
    "prompts": _Listing(proto.PROMPTS_LIST, "prompts", _compact_prompt),
}


def render_listing_page(
    kind: str,
    tool: str,
    server: ServerView,
    items: Sequence[Mapping[str, Any]],
    cursor: Cursor | None,
    *,
    page_size: int = PAGE_SIZE,
) -> str:
    """One page of a server's full listing, as compact JSON lines, with the cursor of the next page.

    ``cursor`` (decoded) says where to start; it must be for this kind, this server and this very listing.
    Every entry is the server's text, so each line goes through ``wrap_untrusted`` on its own: a banner marks
    the entry that looks like an injection attempt, right where it is.
    """
    listing = _LISTINGS[kind]
    generation = listing_fingerprint(items)
    offset = 0
    if cursor is not None:
        if cursor.kind != kind or cursor.source != server.name:
            raise Refused(
                f"this cursor belongs to another listing; list {listing.noun} again without a cursor"
            )
        if cursor.generation != generation or cursor.offset > len(items):
            raise Refused(
                f"the {listing.noun} of server {server.name!r} changed since this cursor was made; "
                "list again without a cursor"
            )
        offset = cursor.offset
    if not items:
        return f"Server {server.name!r} has no {listing.noun}."
    page = items[offset : offset + page_size]
    end = offset + len(page)
    lines = [f"{listing.noun.capitalize()} of server {server.name!r} ({offset + 1}-{end} of {len(items)}):"]
    for entry in page:
        line = json.dumps(listing.compact(entry), ensure_ascii=False)
        lines.append(wrap_untrusted(line, source=server.name, trusted=server.is_trusted))
    if end < len(items):
        token = encode_cursor(Cursor(kind, server.name, end, generation))
        action = "list" if kind != "templates" else "templates"
        arguments = json.dumps({"action": action, "server": server.name, "cursor": token})
        lines.append(f"More: call {tool} with {arguments}")
    return "\n".join(lines)


def render_read(server: ServerView, uri: str, result: Mapping[str, Any]) -> dict[str, Any]:
    """The answer to ``resources/read``: text inline (bannered when untrusted), blobs as embedded resources.

    A blob stays whole in the answer's content (an embedded ``resource`` block, which the model sees as a
    typed summary) so that code holding the raw result still has the bytes.
    """
    contents = result.get("contents")
    if not isinstance(contents, list) or not contents:
        return text_result(f"Resource {uri} from server {server.name!r} has no contents.")
    blocks: list[dict[str, Any]] = []
    for item in contents:
        if not isinstance(item, dict):
            blocks.append({"type": "text", "text": f"[unreadable resource contents: {type(item).__name__}]"})
            continue
        item_uri = item.get("uri") if isinstance(item.get("uri"), str) else uri
        mime = item.get("mimeType") if isinstance(item.get("mimeType"), str) else "unknown type"
        text = item.get("text")
        if isinstance(text, str):
            header = f"[resource {item_uri} ({mime}) from server {server.name!r}]"
            body = wrap_untrusted(text, source=server.name, trusted=server.is_trusted)
            blocks.append({"type": "text", "text": f"{header}\n{body}"})
        elif isinstance(item.get("blob"), str):
            blocks.append({"type": "resource", "resource": item})
        else:
            blocks.append({"type": "text", "text": f"[resource {item_uri}: neither text nor blob]"})
    return {"content": blocks, "isError": False}


_ROLE_LABELS: Final = {"user": "[user]", "assistant": "[assistant (written by server {server!r})]"}


def _message_text(content: object) -> str:
    if isinstance(content, list):  # not in the schema, but some servers send a list of blocks
        return "\n".join(render_block(block) for block in content)
    return render_block(content)


def render_prompt(server: ServerView, name: str, result: Mapping[str, Any]) -> str:
    """A ``prompts/get`` answer with its role boundaries kept.

    Each message starts with its role on a line of its own, at the left margin, and its text follows indented
    by two spaces. Nothing a server writes can start at the margin, so a message cannot forge another role's
    label, and an ``assistant`` message is labelled as written by the server, never as this agent's own turn.
    """
    messages = result.get("messages")
    lines = [f"Prompt {name!r} from server {server.name!r}."]
    description = result.get("description")
    if isinstance(description, str) and description:
        lines.append("Description:")
        lines.append(_indent(wrap_untrusted(description, source=server.name, trusted=server.is_trusted)))
    if not isinstance(messages, list) or not messages:
        lines.append("It has no messages.")
        return "\n".join(lines)
    if len(messages) == 1:
        count = "Its message follows, under its role"
    else:
        count = f"Its {len(messages)} messages follow, each under its role"
    lines.append(f"{count}; every word below was written by server {server.name!r}:")
    for message in messages:
        role = message.get("role") if isinstance(message, dict) else None
        label = _ROLE_LABELS.get(role) if isinstance(role, str) else None
        if label is None:
            shown_role = role if isinstance(role, str) else "no role"
            label = f"[{shown_role} (unknown role, written by server {{server!r}})]"
        lines.append(label.format(server=server.name))
        content = message.get("content") if isinstance(message, dict) else message
        text = wrap_untrusted(_message_text(content), source=server.name, trusted=server.is_trusted)
        lines.append(_indent(text))
    return "\n".join(lines)


def _indent(text: str) -> str:
    return "\n".join(f"  {line}" if line else "" for line in text.split("\n"))


def render_stored_result(
    uri: str, text: str | None, cursor: Cursor | None, *, max_chars: int
) -> dict[str, Any]:
    """A piece of a stored tool result that fits the output budget, with a cursor for the next piece."""
    if text is None:
        return error_result(
            f"{uri} is not available: stored results are kept for this troupe's life, "
            "the most recent ones only"
        )
    offset = 0
    if cursor is not None:
        if cursor.kind != "result" or cursor.source != uri or cursor.offset > len(text):
            raise Refused(f"this cursor does not belong to {uri}; read it again without a cursor")
        offset = cursor.offset
    chunk = max(1, max_chars - STORED_RESULT_MARGIN)
    piece = text[offset : offset + chunk]
    end = offset + len(piece)
    if offset == 0 and end == len(text):
        return text_result(text)
    lines = [f"[{uri}: characters {offset + 1}-{end} of {len(text)}]", piece]
    if end < len(text):
        token = encode_cursor(Cursor("result", uri, end, ""))
        arguments = json.dumps({"action": "read", "uri": uri, "cursor": token})
        lines.append(f"[more: call {RESOURCES_TOOL} with {arguments}]")
    return text_result("\n".join(lines))


# ---- serving one call (a task on the I/O loop) -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BuiltinCall:
    """Everything one built-in call needs, copied by the registry when the call arrived.

    ``stored`` holds the stored result the call names (``troupe://results/<id>`` → its text), if any.
    """

    tool: str
    arguments: Mapping[str, Any] | None
    servers: tuple[ServerView, ...]
    max_chars: int
    timeout: float | None = None
    stored: Mapping[str, str] = field(default_factory=dict)


# "Resource not found": -32602 since 2026-07-28, -32002 from older servers (clients SHOULD accept both).
NOT_FOUND_CODES = frozenset({-32602, -32002})


async def serve(call: BuiltinCall, reply_to: Future[Any]) -> None:
    """Serve one built-in call and complete ``reply_to`` with a ``CallToolResult``-shaped dict.

    A mistake the model can fix (an unknown action, a missing or ambiguous server, a stale cursor, a server's
    JSON-RPC error such as "resource not found") is an ``isError`` result it reads. A broken connection or a
    timeout fails ``reply_to`` with the usual exception, as for any tool.
    """
    try:
        try:
            result = await _run(call)
        except Refused as exc:
            result = error_result(str(exc))
        except InputUnavailable as exc:
            # The server asked for input (input_required) the host cannot give: the model reads why.
            result = error_result(str(exc))
        except RemoteError as exc:
            if exc.method == "resources/read" and exc.code in NOT_FOUND_CODES:
                uri = (call.arguments or {}).get("uri")
                result = error_result(
                    f"server {exc.server!r} has no resource {uri!r} ({exc.remote_message}); "
                    "list the resources to see what exists"
                )
            else:
                result = error_result(
                    f"server {exc.server!r} answered {exc.method} with error {exc.code}: {exc.remote_message}"
                )
    except asyncio.CancelledError:
        # The caller gave up (reply_to is done already) or the troupe is stopping.
        _fail(reply_to, TroupeClosed(f"{call.tool} was cancelled: the troupe is stopping"))
        raise
    except Exception as exc:
        _fail(reply_to, exc)
        if not isinstance(exc, TroupeError):
            log.exception("%s failed", call.tool)
        return
    _complete(reply_to, result)


async def _run(call: BuiltinCall) -> dict[str, Any]:
    tool = BUILTIN_TOOLS[call.tool]
    action, args = check_arguments(tool, call.arguments)
    cursor = decode_cursor(args["cursor"]) if "cursor" in args else None
    if tool is RESOURCES and action.name == "read" and args["uri"].startswith(RESULTS_URI_PREFIX):
        uri = args["uri"]
        return render_stored_result(uri, call.stored.get(uri), cursor, max_chars=call.max_chars)
    requested = args.get("server")
    if requested is None and cursor is not None and cursor.kind != "result":
        requested = cursor.source  # a cursor names its server
    server = choose_server(call.servers, tool.capability, requested)
    if action.name in ("list", "templates"):
        kind = "prompts" if tool is PROMPTS else "resources" if action.name == "list" else "templates"
        # A continuation pages through the listing its first page came from, whatever its ttlMs said.
        items = await _list_all(
            server, _LISTINGS[kind].method, call.timeout, is_continuation=cursor is not None
        )
        page = await _off_loop(render_listing_page, kind, tool.name, server, items, cursor)
        return text_result(page)
    if action.name == "read":
        if cursor is not None:
            raise Refused("a cursor continues only troupe://results/<id>; read other resources without one")
        params = proto.read_resource_params(args["uri"])
        raw = await _request(server, proto.RESOURCES_READ, params, call.timeout)
        return await _off_loop(render_read, server, args["uri"], raw)
    if action.name == "complete":
        return await _complete_argument(server, tool is PROMPTS, args, call.timeout)
    if action.name == "get":
        params = proto.get_prompt_params(args["name"], args.get("arguments"))
        raw = await _request(server, proto.PROMPTS_GET, params, call.timeout)
        return text_result(await _off_loop(render_prompt, server, args["name"], raw))
    # Unreachable: check_arguments accepts only the actions handled above.
    raise AssertionError(f"{tool.name}: action {action.name!r} has no handler")


async def _complete_argument(
    server: ServerView, is_prompt: bool, args: Mapping[str, Any], timeout: float | None
) -> dict[str, Any]:
    """``completion/complete`` for a prompt's argument or a URI template's parameter."""
    if "completions" not in server.offers:
        raise Refused(f"server {server.name!r} does not offer completions")
    ref = (
        {"type": "ref/prompt", "name": args["name"]}
        if is_prompt
        else {"type": "ref/resource", "uri": args["uri"]}
    )
    params: dict[str, Any] = {
        "ref": ref,
        "argument": {"name": args["argument"], "value": args.get("value", "")},
    }
    if args.get("context"):
        # spec: 2025-06-18 completion — context.arguments holds the arguments already resolved.
        params["context"] = {"arguments": dict(args["context"])}
    raw = await _request(server, COMPLETION_COMPLETE, params, timeout)
    return render_completion(server, ref, args["argument"], raw)


COMPLETION_COMPLETE: Final = "completion/complete"


def render_completion(
    server: ServerView, ref: Mapping[str, Any], argument: str, result: Mapping[str, Any]
) -> dict[str, Any]:
    """The completion values as text for the model, and as ``structuredContent`` for code."""
    completion = result.get("completion")
    if not isinstance(completion, Mapping) or not isinstance(completion.get("values"), list):
        raise Refused(f"server {server.name!r} answered completion/complete without completion.values")
    values = [value for value in completion["values"] if isinstance(value, str)][:MAX_COMPLETIONS]
    total = completion.get("total")
    has_more = completion.get("hasMore") is True
    target = f"prompt {ref.get('name')!r}" if ref["type"] == "ref/prompt" else f"template {ref.get('uri')!r}"
    shown = [_clip(value, DESCRIPTION_LIMIT).replace("\n", " ") for value in values]
    lines = [f"completions for {argument!r} of {target} (server {server.name}):"]
    lines += [f"- {value}" for value in shown] or ["(none)"]
    if has_more or (isinstance(total, int) and total > len(values)):
        lines.append(f"({len(values)} of {total if isinstance(total, int) else 'more'}; type more to narrow)")
    structured: dict[str, Any] = {"values": values, "hasMore": has_more}
    if isinstance(total, int) and not isinstance(total, bool):
        structured["total"] = total
    return {"content": [{"type": "text", "text": "\n".join(lines)}], "structuredContent": structured}


async def _off_loop(render: Callable[..., T], *args: Any) -> T:
    """Run ``render`` in a worker thread.

    Rendering runs the injection scan over every piece of server text, which costs tens of milliseconds per
    10 KB (seconds for a large resource): on the loop it would stall every server's I/O (DESIGN §2 rule 2).
    """
    return await anyio.to_thread.run_sync(render, *args, abandon_on_cancel=True)


async def _list_all(
    server: ServerView, method: str, timeout: float | None, *, is_continuation: bool = False
) -> list[dict[str, Any]]:
    guard = (timeout or server.timeout) * _LISTING_GUARD_PAGES + _GUARD_MARGIN
    items: list[dict[str, Any]] = await _ask(
        server, lambda session, future: session.list_all(method, future, is_continuation), guard
    )
    return items


async def _request(
    server: ServerView, method: str, params: Mapping[str, Any], timeout: float | None
) -> Mapping[str, Any]:
    guard = (timeout or server.timeout) + _GUARD_MARGIN
    raw: Mapping[str, Any] = await _ask(
        server, lambda session, future: session.request(method, params, future, timeout), guard
    )
    if not isinstance(raw, Mapping):
        raise TroupeError(f"server {server.name!r}: {method} answered with a {type(raw).__name__}")
    return raw


async def _ask(server: ServerView, send: Callable[[SessionPort, Future[Any]], bool], guard: float) -> Any:
    """Hand the server's session a request with ``send`` and await its future without blocking the loop."""
    assert server.session is not None  # choose_server returns connected servers only
    future: Future[Any] = Future()
    if not send(server.session, future):
        raise ConnectionLost(server.name, "the session ended")
    try:
        # Cancelling this task cancels ``future`` too (wrap_future chains cancellation), which tells the
        # session to send notifications/cancelled for a request in flight.
        return await asyncio.wait_for(asyncio.wrap_future(future), guard)
    except TimeoutError:
        raise ConnectionLost(server.name, f"the session did not answer within {guard:g} s") from None
