"""The host side of MCP's client features, as pure functions: what a client declares and how it answers.

A server may ask its client (the *host*) for three things: a form or a URL visit from the user
(``elicitation/create``), a completion from the host's model (``sampling/createMessage``) and the
directories it may work in (``roots/list``). In the legacy era (2024-11-05 … 2025-11-25) these arrive as
JSON-RPC requests from the server; in the modern era (2026-07-28) as ``inputRequests`` inside an
``input_required`` result, answered by retrying the original request. Either way the same checks apply,
and they live here, with no threads, sockets or clocks:

- :func:`client_capabilities`: the ``capabilities`` object to declare for a protocol version, given which
  handlers the host installed. Nothing installed, nothing declared (the server must then not ask).
- :func:`parse_elicitation`, :func:`check_requested_schema`, :func:`schema_defaults`,
  :func:`check_elicit_result`: the restricted form schema (flat, primitive properties only), its defaults
  (SEP-1034) and the validation of the user's answer against it *before* it is sent.
- :func:`url_origin` and :func:`check_elicitation_url`: URL mode never opens anything; the origin is what the
  user is shown first, and only ``https`` (or ``http`` on a loopback host) URLs are offered at all.
- :func:`check_create_message_result`, :func:`roots_result`, :func:`log_level_number`: the other answers.

Every refusal is a :class:`CallbackError`: a JSON-RPC error *value* (code, message, data) that goes back to
the server as the answer to its request. It is not part of the agent-facing exception tree in
:mod:`mcp_troupe.errors` on purpose: nothing the agent called failed; the server's question was bad or the
human said no.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal
from urllib.parse import urlsplit

from mcp_troupe.protocol import jsonrpc

__all__ = [
    "ELICITATION_COMPLETE",
    "ELICITATION_CREATE",
    "LOGGING_SET_LEVEL",
    "LOG_LEVELS",
    "RESOURCES_SUBSCRIBE",
    "RESOURCES_UNSUBSCRIBE",
    "RESOURCES_UPDATED",
    "ROOTS_LIST",
    "ROOTS_LIST_CHANGED",
    "SAMPLING_CREATE_MESSAGE",
    "USER_REJECTED",
    "CallbackError",
    "ElicitationShape",
    "check_create_message_result",
    "check_elicit_result",
    "check_elicitation_url",
    "check_requested_schema",
    "client_capabilities",
    "field_problem",
    "log_level_number",
    "parse_elicitation",
    "printable",
    "roots_result",
    "schema_defaults",
    "url_origin",
]

ELICITATION_CREATE: Final = "elicitation/create"
ELICITATION_COMPLETE: Final = "notifications/elicitation/complete"
SAMPLING_CREATE_MESSAGE: Final = "sampling/createMessage"
ROOTS_LIST: Final = "roots/list"
ROOTS_LIST_CHANGED: Final = "notifications/roots/list_changed"
LOGGING_SET_LEVEL: Final = "logging/setLevel"
RESOURCES_SUBSCRIBE: Final = "resources/subscribe"
RESOURCES_UNSUBSCRIBE: Final = "resources/unsubscribe"
RESOURCES_UPDATED: Final = "notifications/resources/updated"

# spec: client/sampling, error handling — the example for a refused sampling request is code -1, "User
# rejected sampling request"; the official SDKs answer a declined approval the same way.
USER_REJECTED: Final = -1

LOG_LEVELS: Final[tuple[str, ...]] = (
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
)
"""The syslog levels of ``notifications/message`` (RFC 5424 order, least severe first)."""

# Python logging numbers for the MCP levels: notice sits between INFO (20) and WARNING (30); alert and
# emergency are more than CRITICAL (50) says.
_PYTHON_LEVELS: Final[Mapping[str, int]] = {
    "debug": 10,
    "info": 20,
    "notice": 25,
    "warning": 30,
    "error": 40,
    "critical": 50,
    "alert": 55,
    "emergency": 60,
}

# Bounds on what an untrusted server may ask of a form, so that a hostile schema cannot make the host build
# an enormous dialog or walk an enormous enum.
MAX_FORM_PROPERTIES: Final = 100
MAX_ENUM_OPTIONS: Final = 1000
MAX_TEXT_CHARS: Final = 100_000

_STRING_FORMATS: Final = frozenset({"date", "date-time", "email", "uri"})
_DATE = re.compile(r"\A\d{4}-\d{2}-\d{2}\Z")
_DATE_TIME = re.compile(r"\A\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})\Z")
_EMAIL = re.compile(r"\A[^@\s]+@[^@\s]+\Z")

ElicitationMode = Literal["form", "url"]


class CallbackError(Exception):
    """The JSON-RPC error to answer a server's request with (code, message, optional data)."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def to_error(self) -> jsonrpc.ErrorObject:
        """The error object of the JSON-RPC answer."""
        return jsonrpc.ErrorObject(self.code, self.message, self.data)


def _invalid(message: str) -> CallbackError:
    return CallbackError(jsonrpc.INVALID_PARAMS, message)


# ---- capabilities ------------------------------------------------------------------------------------------


def client_capabilities(
    version: str,
    *,
    elicitation: bool,
    sampling: bool,
    roots: bool,
    roots_change: bool,
    extensions: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """The client ``capabilities`` to declare for protocol ``version``, given the installed handlers.

    ``roots_change`` says whether the host can tell when its roots change (a callable ``roots``); only then is
    ``roots.listChanged`` promised, and only in the legacy era (2026-07-28 removed the notification).

    spec: lifecycle, capability negotiation — "Both parties MUST only use capabilities that were successfully
    negotiated": with no handler there is no capability, and a server that asks anyway gets -32601.
    """
    capabilities: dict[str, Any] = {}
    # 2025-11-25 split elicitation into form and url modes (an empty object still means form only) and added
    # sampling with tools; 2026-07-28 keeps both shapes.
    is_2025_11 = version >= "2025-11-25"
    if roots:
        if version >= "2026-07-28":
            capabilities["roots"] = {}
        else:
            capabilities["roots"] = {"listChanged": True} if roots_change else {}
    if sampling:
        # sampling.context is left out on purpose: we never include other servers' context in a prompt
        # (includeContext thisServer/allServers is soft-deprecated and a cross-server leak).
        capabilities["sampling"] = {"tools": {}} if is_2025_11 else {}
    if elicitation and version >= "2025-06-18":
        capabilities["elicitation"] = {"form": {}, "url": {}} if is_2025_11 else {}
    if extensions and is_2025_11:
        # spec: 2026-07-28 schema ClientCapabilities.extensions (SEP-2133); the 2025-11-25 extensions (MCP
        # Apps, SEP-1865) read the same map, which that revision's open capabilities object allows.
        capabilities["extensions"] = {name: dict(settings) for name, settings in extensions.items()}
    return capabilities


_LABEL = r"[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
_EXTENSION_ID = re.compile(rf"{_LABEL}(?:\.{_LABEL})*/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")
"""An extension identifier: a ``_meta``-style key with its prefix (``io.modelcontextprotocol/ui``)."""


def check_extensions(extensions: object, *, reserved: tuple[str, ...] = ()) -> dict[str, dict[str, Any]]:
    """The host's ``extensions`` option checked: identifier → settings object (JSON), in a copy; raises
    ``TypeError``/``ValueError`` naming the entry that is wrong. ``reserved`` identifiers are the troupe's own
    to declare."""
    if not isinstance(extensions, Mapping):
        raise TypeError(
            "extensions must map extension identifiers to settings objects "
            f"({{'io.modelcontextprotocol/ui': {{...}}}}), got {type(extensions).__name__}"
        )
    checked: dict[str, dict[str, Any]] = {}
    for name, settings in extensions.items():
        if not isinstance(name, str) or not _EXTENSION_ID.fullmatch(name):
            raise ValueError(
                f"extensions: {name!r:.80} is not an extension identifier (a prefix, '/', a name: "
                "'io.modelcontextprotocol/ui')"
            )
        if name in reserved:
            raise ValueError(f"extensions: {name!r} is declared by the troupe itself; leave it out")
        if not isinstance(settings, Mapping):
            raise TypeError(
                f"extensions[{name!r}] must be a settings object (a mapping; {{}} for none), "
                f"got {type(settings).__name__}"
            )
        try:
            jsonrpc.encode_members(settings)  # as the capabilities will be written on the wire
        except (TypeError, ValueError, RecursionError) as exc:
            raise ValueError(f"extensions[{name!r}] cannot be written as JSON: {exc}") from None
        checked[name] = dict(settings)
    return checked


# ---- elicitation ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ElicitationShape:
    """A checked ``elicitation/create`` request: which mode, and what that mode carries."""

    mode: ElicitationMode
    message: str
    requested_schema: Mapping[str, Any] | None
    url: str | None
    elicitation_id: str | None


def parse_elicitation(params: Mapping[str, Any], *, url_mode: bool) -> ElicitationShape:
    """Check an ``elicitation/create`` request's params; ``url_mode`` says whether url mode was declared.

    Raises :class:`CallbackError` (-32602) naming the bad field.
    spec: 2025-11-25 client/elicitation — "Clients MUST return -32602 for modes they did not declare"; a
    request without ``mode`` is form mode.
    """
    message = params.get("message")
    if not isinstance(message, str):
        raise _invalid("elicitation/create: 'message' must be a string")
    mode = params.get("mode", "form")
    if mode == "form":
        schema = params.get("requestedSchema")
        check_requested_schema(schema)
        assert isinstance(schema, Mapping)
        return ElicitationShape("form", message, schema, None, None)
    if mode == "url":
        if not url_mode:
            raise _invalid("elicitation/create: mode 'url' was not declared by this client")
        url = params.get("url")
        if not isinstance(url, str):
            raise _invalid("elicitation/create: url mode needs a string 'url'")
        check_elicitation_url(url)
        elicitation_id = params.get("elicitationId")
        if elicitation_id is not None and not isinstance(elicitation_id, str):
            raise _invalid("elicitation/create: 'elicitationId' must be a string")
        return ElicitationShape("url", message, None, url, elicitation_id)
    raise _invalid(f"elicitation/create: unknown mode {mode!r:.40} (this client supports form and url)")


def check_requested_schema(schema: object) -> None:
    """Check that ``schema`` is the restricted form schema: an object of flat, primitive properties.

    spec: client/elicitation, requested schema — "only top-level properties are allowed, without nesting";
    each property is a string (with optional format and length bounds), number/integer (with bounds),
    boolean, single-select enum (``enum``, titled ``oneOf`` or the legacy ``enumNames``) or multi-select array
    of string enums (2025-11-25).
    """
    if not isinstance(schema, Mapping):
        raise _invalid("elicitation/create: 'requestedSchema' must be an object")
    if schema.get("type") != "object":
        raise _invalid("elicitation/create: 'requestedSchema.type' must be 'object'")
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        raise _invalid("elicitation/create: 'requestedSchema.properties' must be an object")
    if len(properties) > MAX_FORM_PROPERTIES:
        raise _invalid(f"elicitation/create: more than {MAX_FORM_PROPERTIES} form fields")
    for name, prop in properties.items():
        _check_property(str(name), prop)
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(item, str) for item in required):
        raise _invalid("elicitation/create: 'requestedSchema.required' must be an array of strings")
    unknown = [item for item in required if item not in properties]
    if unknown:
        raise _invalid(f"elicitation/create: required field {unknown[0]!r:.60} is not in 'properties'")


def _check_property(name: str, prop: object) -> None:
    where = f"elicitation/create: field {name!r:.60}"
    if not isinstance(prop, Mapping):
        raise _invalid(f"{where} must be an object")
    kind = prop.get("type")
    for key in ("title", "description"):
        if key in prop and not isinstance(prop[key], str):
            raise _invalid(f"{where}: {key!r} must be a string")
    match kind:
        case "string":
            options = _string_options(prop, where)
            if options is None:
                fmt = prop.get("format")
                if fmt is not None and fmt not in _STRING_FORMATS:
                    raise _invalid(f"{where}: unsupported format {fmt!r:.40}")
                for key in ("minLength", "maxLength"):
                    if key in prop and not _is_int(prop[key]):
                        raise _invalid(f"{where}: {key!r} must be an integer")
        case "number" | "integer":
            for key in ("minimum", "maximum"):
                if key in prop and not _is_number(prop[key]):
                    raise _invalid(f"{where}: {key!r} must be a number")
        case "boolean":
            pass
        case "array":
            items = prop.get("items")
            if not isinstance(items, Mapping):
                raise _invalid(f"{where}: a multi-select needs 'items'")
            if _multi_options(items, where) is None:
                raise _invalid(f"{where}: a multi-select's items need 'enum' or 'anyOf' options")
            for key in ("minItems", "maxItems"):
                if key in prop and not _is_int(prop[key]):
                    raise _invalid(f"{where}: {key!r} must be an integer")
        case _:
            raise _invalid(
                f"{where}: type {kind!r:.40} is not allowed (string, number, integer, boolean, array)"
            )
    if "default" in prop:
        problem = _value_problem(prop, prop["default"])
        if problem is not None:
            raise _invalid(f"{where}: its default {problem}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _string_options(prop: Mapping[str, Any], where: str) -> tuple[str, ...] | None:
    """The allowed values of a single-select string field, or None for free text."""
    if "enum" in prop:
        options = prop["enum"]
        if not isinstance(options, list) or not all(isinstance(option, str) for option in options):
            raise _invalid(f"{where}: 'enum' must be an array of strings")
        names = prop.get("enumNames")
        if names is not None and (
            not isinstance(names, list)
            or len(names) != len(options)
            or not all(isinstance(n, str) for n in names)
        ):
            raise _invalid(f"{where}: 'enumNames' must be strings, one per enum value")
    elif "oneOf" in prop:
        options = _titled(prop["oneOf"], where, "oneOf")
    else:
        return None
    if len(options) > MAX_ENUM_OPTIONS:
        raise _invalid(f"{where}: more than {MAX_ENUM_OPTIONS} options")
    return tuple(options)


def _multi_options(items: Mapping[str, Any], where: str) -> tuple[str, ...] | None:
    if "enum" in items:
        options = items["enum"]
        if not isinstance(options, list) or not all(isinstance(option, str) for option in options):
            raise _invalid(f"{where}: 'items.enum' must be an array of strings")
    elif "anyOf" in items:
        options = _titled(items["anyOf"], where, "items.anyOf")
    else:
        return None
    if len(options) > MAX_ENUM_OPTIONS:
        raise _invalid(f"{where}: more than {MAX_ENUM_OPTIONS} options")
    return tuple(options)


def _titled(entries: object, where: str, key: str) -> list[str]:
    if not isinstance(entries, list):
        raise _invalid(f"{where}: {key!r} must be an array")
    options = []
    for entry in entries:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("const"), str):
            raise _invalid(f"{where}: every {key!r} entry needs a string 'const'")
        if "title" in entry and not isinstance(entry["title"], str):
            raise _invalid(f"{where}: every {key!r} entry's 'title' must be a string")
        options.append(entry["const"])
    return options


def schema_defaults(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The ``default`` of every field that has one (SEP-1034), for the host to pre-fill its form with.

    ``schema`` must have passed :func:`check_requested_schema` (so every default is valid for its field).
    """
    properties = schema.get("properties", {})
    return {str(name): prop["default"] for name, prop in properties.items() if "default" in prop}


def check_elicit_result(result: object, schema: Mapping[str, Any] | None) -> dict[str, Any]:
    """Check the host's answer to an elicitation and return the ``ElicitResult`` to send.

    For ``accept`` in form mode, fields the user left out take their schema default (SEP-1034: defaults are
    what the server proposed, and a form pre-filled with them that the user submitted means exactly that),
    then the content must satisfy ``schema``: every required field present, no unknown field, every value of
    its field's type and within its bounds. In URL mode (``schema`` None) ``accept`` carries no content.
    ``decline`` and ``cancel`` carry none either. Raises :class:`ValueError` naming the first problem: the
    host's handler answered wrongly, which is the host's bug, reported to it and to the server.
    """
    if not isinstance(result, Mapping):
        raise ValueError(f"an elicitation answer must be a mapping, got {type(result).__name__}")
    action = result.get("action")
    if action not in ("accept", "decline", "cancel"):
        raise ValueError(
            f"an elicitation answer's 'action' must be accept, decline or cancel, got {action!r:.40}"
        )
    answer: dict[str, Any] = {"action": action}
    meta = result.get("_meta")
    if isinstance(meta, Mapping):
        answer["_meta"] = dict(meta)
    content = result.get("content")
    if action != "accept" or schema is None:
        if content:
            raise ValueError(f"an elicitation answer with action {action!r} carries no content")
        return answer
    if content is None:
        content = {}
    if not isinstance(content, Mapping):
        raise ValueError("an accepted elicitation's 'content' must be a mapping of field names to values")
    properties: Mapping[str, Any] = schema.get("properties", {})
    filled = {**schema_defaults(schema), **content}
    for name, value in filled.items():
        prop = properties.get(name)
        if prop is None:
            raise ValueError(f"field {name!r:.60} is not in the requested schema")
        problem = _value_problem(prop, value)
        if problem is not None:
            raise ValueError(f"field {name!r:.60} {problem}")
    for name in schema.get("required", []):
        if name not in filled:
            raise ValueError(f"required field {name!r:.60} is missing")
    answer["content"] = filled
    return answer


def field_problem(prop: Mapping[str, Any], value: object) -> str | None:
    """What is wrong with ``value`` for the form field ``prop`` (from a checked schema), or None."""
    return _value_problem(prop, value)


def printable(value: object, limit: int) -> str:
    """``value`` as one line of at most ``limit`` characters, control characters escaped.

    For showing untrusted text (a server's message, its log data) to a human or a log: no forged lines, no
    terminal escape sequences.
    """
    text = value if isinstance(value, str) else repr(value)
    if len(text) > limit:
        text = text[:limit] + "…"
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def _value_problem(prop: Mapping[str, Any], value: object) -> str | None:
    """What is wrong with ``value`` for the (checked) field ``prop``, or None."""
    kind = prop.get("type")
    if kind == "string":
        if not isinstance(value, str):
            return f"must be a string, got {type(value).__name__}"
        if len(value) > MAX_TEXT_CHARS:
            return f"is longer than {MAX_TEXT_CHARS} characters"
        options = _string_options(prop, "")
        if options is not None:
            return None if value in options else f"must be one of {list(options)!r:.200}, got {value!r:.60}"
        if "minLength" in prop and len(value) < prop["minLength"]:
            return f"must have at least {prop['minLength']} characters"
        if "maxLength" in prop and len(value) > prop["maxLength"]:
            return f"must have at most {prop['maxLength']} characters"
        return _format_problem(prop.get("format"), value)
    if kind in ("number", "integer"):
        if kind == "integer":
            is_integral = _is_int(value) or (isinstance(value, float) and value.is_integer())
            if not is_integral:
                return f"must be an integer, got {value!r:.40}"
        elif not _is_number(value):
            return f"must be a number, got {value!r:.40}"
        assert isinstance(value, int | float)
        if "minimum" in prop and value < prop["minimum"]:
            return f"must be at least {prop['minimum']}"
        if "maximum" in prop and value > prop["maximum"]:
            return f"must be at most {prop['maximum']}"
        return None
    if kind == "boolean":
        return None if isinstance(value, bool) else f"must be true or false, got {value!r:.40}"
    if kind == "array":
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            return "must be an array of strings"
        options = _multi_options(prop.get("items", {}), "") or ()
        bad = [item for item in value if item not in options]
        if bad:
            return f"has {bad[0]!r:.60}, which is not one of {list(options)!r:.200}"
        if len(set(value)) != len(value):
            return "lists an option twice"
        if "minItems" in prop and len(value) < prop["minItems"]:
            return f"needs at least {prop['minItems']} selections"
        if "maxItems" in prop and len(value) > prop["maxItems"]:
            return f"allows at most {prop['maxItems']} selections"
        return None
    return f"has an unsupported type {kind!r:.40}"


def _format_problem(fmt: object, value: str) -> str | None:
    if fmt == "date" and not _DATE.match(value):
        return f"must be a date (YYYY-MM-DD), got {value!r:.60}"
    if fmt == "date-time" and not _DATE_TIME.match(value):
        return f"must be a date-time (RFC 3339), got {value!r:.60}"
    if fmt == "email" and not _EMAIL.match(value):
        return f"must be an email address, got {value!r:.60}"
    if fmt == "uri":
        parts = urlsplit(value)
        if not parts.scheme or not (parts.netloc or parts.path):
            return f"must be a URI, got {value!r:.60}"
    return None


# ---- URL mode ------------------------------------------------------------------------------------------


def check_elicitation_url(url: str) -> None:
    """Refuse a URL the host must not offer to open (-32602).

    spec: 2025-11-25 client/elicitation, URL mode — the client MUST NOT pre-fetch or open the URL by itself
    and MUST show it before the user consents; security best practices — allow only ``https`` (``http`` for a
    loopback host during development), never ``javascript:``, ``data:``, ``file:`` and the like.
    """
    if len(url) > 8192:
        raise _invalid("elicitation/create: 'url' is longer than 8192 characters")
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in url):
        raise _invalid("elicitation/create: 'url' contains control characters")
    try:
        parts = urlsplit(url)
        hostname = parts.hostname
    except ValueError:
        raise _invalid("elicitation/create: 'url' is not a valid URL") from None
    if parts.scheme not in ("https", "http") or not hostname:
        raise _invalid("elicitation/create: 'url' must be an https:// URL")
    if parts.scheme == "http" and hostname not in ("localhost", "127.0.0.1", "::1"):
        raise _invalid("elicitation/create: 'url' must be https:// (http:// only for a loopback host)")
    if parts.username is not None or parts.password is not None:
        # https://trusted.example@evil.example/ shows a trusted name that is not the host.
        raise _invalid("elicitation/create: 'url' must not carry user information")


def url_origin(url: str) -> str:
    """``scheme://host[:port]`` of a checked URL: what the user must see first, before the rest of it.

    A non-ASCII host name is shown in its ASCII (punycode) form, so that a look-alike name (one with a
    Cyrillic letter that looks Latin) cannot pass for the real one.
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    if not host.isascii():
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            host = host.encode("ascii", "backslashreplace").decode("ascii")
    if ":" in host:
        host = f"[{host}]"
    default_port = {"https": 443, "http": 80}.get(parts.scheme)
    port = f":{parts.port}" if parts.port is not None and parts.port != default_port else ""
    return f"{parts.scheme}://{host}{port}"


# ---- sampling ---------------------------------------------------------------------------------------------


def check_create_message_result(result: object) -> dict[str, Any]:
    """Check the host's ``CreateMessageResult`` (``role``, ``content``, ``model``); return it as a dict.

    Raises :class:`ValueError` naming the problem (the host's handler answered wrongly).
    """
    if not isinstance(result, Mapping):
        raise ValueError(f"a sampling answer must be a mapping, got {type(result).__name__}")
    if result.get("role") not in ("assistant", "user"):
        raise ValueError("a sampling answer needs 'role' (normally 'assistant')")
    if not isinstance(result.get("model"), str):
        raise ValueError("a sampling answer needs a string 'model' (the name of the model that answered)")
    content = result.get("content")
    blocks = content if isinstance(content, list) else [content]
    if not blocks or not all(
        isinstance(block, Mapping) and isinstance(block.get("type"), str) for block in blocks
    ):
        raise ValueError(
            "a sampling answer's 'content' must be a content block (or a list of them) with 'type'"
        )
    stop = result.get("stopReason")
    if stop is not None and not isinstance(stop, str):
        raise ValueError("a sampling answer's 'stopReason' must be a string")
    return dict(result)


# ---- roots --------------------------------------------------------------------------------------------


SERVING: ContextVar[str] = ContextVar("mcp_troupe_serving", default="")
"""Which of the server's requests the host is answering, for its log lines (``" (JSON-RPC id 7)"``): set in
the task that awaits ``Host.fulfil`` (a context variable, so each request's task has its own)."""


def is_root_list(roots: object) -> bool:
    """Whether ``roots`` can be a list of roots: iterable, and not one path, URI or mapping (a single path is
    iterable too, by its characters, and each would become a root of its own)."""
    return isinstance(roots, Iterable) and not isinstance(roots, str | bytes | Path | Mapping)


def roots_result(roots: Iterable[object]) -> dict[str, Any]:
    """The ``ListRootsResult`` for the host's roots: URIs, paths, or ``{"uri", "name"}`` mappings.

    A path (``str`` without a scheme, or :class:`pathlib.Path`) becomes an absolute ``file://`` URI.
    spec: client/roots — "The URI identifying the root. This *must* start with file:// for now." Raises
    :class:`ValueError` naming the bad entry.
    """
    if not is_root_list(roots):
        raise ValueError(
            f"roots must be a list of paths, file:// URIs or {{'uri', 'name'}} mappings, got "
            f"{type(roots).__name__} (one root goes in a list: [{roots!r:.60}])"
        )
    entries: list[dict[str, Any]] = []
    for index, root in enumerate(roots):
        name: object = None
        if isinstance(root, Mapping):
            uri, name = root.get("uri"), root.get("name")
            if name is not None and not isinstance(name, str):
                raise ValueError(f"roots[{index}]: 'name' must be a string")
        elif isinstance(root, Path):
            uri = root.expanduser().absolute().as_uri()
        elif isinstance(root, str):
            uri = root if root.startswith("file://") else Path(root).expanduser().absolute().as_uri()
        else:
            raise ValueError(
                f"roots[{index}]: expected a path, a file:// URI or a mapping, got {type(root).__name__}"
            )
        if not isinstance(uri, str) or not uri.startswith("file://"):
            raise ValueError(f"roots[{index}]: a root's URI must start with file:// (got {uri!r:.80})")
        entry: dict[str, Any] = {"uri": uri}
        if name is not None:
            entry["name"] = name
        entries.append(entry)
    return {"roots": entries}


# ---- logging ----------------------------------------------------------------------------------------------


def log_level_number(level: object) -> int:
    """The Python logging level for an MCP log level; an unknown one counts as WARNING."""
    return _PYTHON_LEVELS.get(level, 30) if isinstance(level, str) else 30


def is_log_level(level: object) -> bool:
    """Whether ``level`` is one of :data:`LOG_LEVELS`."""
    return isinstance(level, str) and level in _PYTHON_LEVELS


def progress_token_of(params: Mapping[str, Any] | None) -> object:
    """The ``progressToken`` of a ``notifications/progress``'s params (None when absent)."""
    return params.get("progressToken") if params is not None else None


def sequence_of_dicts(value: object) -> Sequence[Mapping[str, Any]] | None:
    """``value`` if it is a list of mappings, else None."""
    if isinstance(value, list) and all(isinstance(item, Mapping) for item in value):
        return value
    return None
