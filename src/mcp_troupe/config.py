"""Load and validate the troupe configuration: YAML in, frozen dataclasses out.

Validation reports *every* problem at once, each with its key path (``tools.mcp_servers.fs.args[1]``), in
file order, as one :class:`~mcp_troupe.errors.ConfigError`. It runs in passes:

1. YAML to plain data (:func:`load_config` only). A strict loader turns duplicate mapping keys into
   problems; PyYAML on its own silently keeps the last one.
2. Plain data to a checked shape: non-string keys are reported and dropped, and sections left empty in YAML
   (``mcp_servers:`` with nothing under it) count as empty mappings.
3. Structure against a JSON Schema (Draft 2020-12): types, unknown keys (with a "did you mean" hint), bounds.
4. Rules a schema states poorly: ``command`` xor ``url``, the URL's shape, server names and their collisions,
   ``$VAR`` expansion, finite numbers, ``max_delay >= initial_delay``.

Only when no pass found a problem are the dataclasses returned.

Secrets: values under ``env`` and ``headers`` are expanded from the environment and may hold tokens, so no
error message, log line or repr ever shows them, expanded or not; messages name the key and the variable.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import logging
import math
import os
import re
import types
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, TypeAlias
from urllib.parse import urlsplit

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from mcp_troupe.errors import ConfigError
from mcp_troupe.policy.bounds import CatalogLimits
from mcp_troupe.policy.names import SERVER_NAME_PATTERN, sanitize
from mcp_troupe.protocol.handshake import PINS

__all__ = [
    "ApprovalMode",
    "CatalogLimits",
    "NetworkPolicy",
    "OAuthConfig",
    "Profile",
    "ReconnectPolicy",
    "SecurityPolicy",
    "ServerConfig",
    "ToolSearchConfig",
    "TroupeConfig",
    "TrustLevel",
    "load_config",
    "parse_config",
    "stdio_server",
]

_log = logging.getLogger(__name__)

DEFAULT_TIMEOUT: Final = 120.0
"""Seconds one tool call may take when a server sets no ``timeout``."""

DEFAULT_CONNECT_TIMEOUT: Final = 60.0
"""Seconds spawning (or the TCP connect) plus the ``initialize`` handshake may take by default."""

DEFAULT_MAX_FRAME_BYTES: Final = 16 * 1024 * 1024
"""The largest single message a server may send; a larger one fails the connection cleanly."""

DEFAULT_MAX_OUTPUT_CHARS: Final = 100_000
"""How much of one tool result reaches the model before it is truncated (the rest stays retrievable)."""
DEFAULT_TOOL_SEARCH_THRESHOLD: Final = 100
"""``tool_search.mode: auto`` puts the tools behind ``mcp_tool_search`` past this many listed tools."""

TrustLevel: TypeAlias = Literal["trusted", "untrusted"]
SecurityPolicy: TypeAlias = Literal["block", "warn"]
Profile: TypeAlias = Literal["interactive", "public_gateway", "daemon"]
ApprovalMode: TypeAlias = Literal["ask", "auto", "deny"]
NetworkPolicy: TypeAlias = Literal["allow", "deny"]
AuthKind: TypeAlias = Literal["none", "oauth"]


# --- the dataclasses ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReconnectPolicy:
    """Backoff for connecting and reconnecting a server.

    The wait before a retry starts at ``initial_delay`` seconds and grows, up to ``max_delay``.
    ``max_attempts`` counts the retries after the first failed connect (0: never retry).
    """

    initial_delay: float = 1.0
    max_delay: float = 16.0
    max_attempts: int = 5


OAuthGrant: TypeAlias = Literal["authorization_code", "client_credentials", "workload_identity", "enterprise"]
OAUTH_GRANTS: Final[tuple[OAuthGrant, ...]] = (
    "authorization_code",
    "client_credentials",
    "workload_identity",
    "enterprise",
)
TOKEN_ENDPOINT_AUTH_METHODS: Final = ("client_secret_basic", "client_secret_post", "private_key_jwt", "none")


@dataclass(frozen=True, slots=True)
class OAuthConfig:
    """OAuth 2.1 settings of an HTTP server with ``auth: oauth``; everything is optional.

    ``grant`` picks how tokens are obtained: ``authorization_code`` (a user logs in; the default),
    ``client_credentials`` (the client's own secret or key), ``workload_identity`` (a platform-issued JWT,
    RFC 7523 jwt-bearer) or ``enterprise`` (the enterprise IdP's ID token exchanged for an ID-JAG, SEP-990).
    ``*_file`` values are paths read at each renewal (platforms rotate them). Secrets — ``client_secret``,
    ``private_key``, ``assertion``, ``id_token``, ``idp_client_secret`` — are left out of the repr.
    """

    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    client_metadata_url: str | None = None
    scopes: tuple[str, ...] = ()
    redirect_port: int = 0
    grant: OAuthGrant = "authorization_code"
    token_endpoint_auth_method: str | None = None
    private_key: str | None = field(default=None, repr=False)
    private_key_file: str | None = None
    signing_algorithm: Literal["RS256", "ES256"] | None = None
    key_id: str | None = None
    assertion: str | None = field(default=None, repr=False)
    assertion_file: str | None = None
    id_token: str | None = field(default=None, repr=False)
    id_token_file: str | None = None
    idp_token_endpoint: str | None = None
    idp_client_id: str | None = None
    idp_client_secret: str | None = field(default=None, repr=False)
    dpop: Literal["auto", "always", "never"] = "auto"

    def __post_init__(self) -> None:
        object.__setattr__(self, "scopes", tuple(self.scopes))


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """One MCP server: a stdio process (``command``) or a Streamable HTTP endpoint (``url``).

    ``env`` and ``headers`` hold expanded values that may be secrets; they are left out of the repr.
    Containers handed in by code are copied into immutable ones (``tuple``, ``MappingProxyType``).
    """

    name: str
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict, repr=False)
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    enabled: bool = True
    timeout: float = DEFAULT_TIMEOUT
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT
    trust_level: TrustLevel = "untrusted"
    tools_include: tuple[str, ...] | None = None
    tools_exclude: tuple[str, ...] = ()
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES
    auth: AuthKind = "none"
    oauth: OAuthConfig | None = None
    protocol: str = "auto"
    """Which protocol to speak: ``auto`` (probe and fall back, as the spec says), ``legacy`` or ``modern``
    (one era), or one version (``2025-06-18`` …). See docs/protocol.md."""
    limits: CatalogLimits | None = None
    """This server's catalog bounds (``limits``); ``None``: the troupe's (``tools.mcp.limits``)."""
    # Host callbacks (issue 14; see docs/host-callbacks.md). ``roots``: this server's roots (absolute paths
    # or file:// URIs), overriding ``Troupe(roots=...)``; ``log_level``: the level asked of the server;
    # ``max_call_time``: the hard cap on one call however much progress it reports (None: 10 x timeout).
    roots: tuple[str, ...] | None = None
    log_level: str | None = None
    max_call_time: float | None = None
    always_load: bool = False
    """With tool search active, this server's tools are listed in ``tools()`` as they are, not behind
    ``mcp_tool_search``."""

    def __post_init__(self) -> None:
        # Code (and tests) may pass lists and dicts; freeze copies so that a config never changes under the
        # actors that were started from it.
        object.__setattr__(self, "args", tuple(self.args))
        if self.tools_include is not None:
            object.__setattr__(self, "tools_include", tuple(self.tools_include))
        object.__setattr__(self, "tools_exclude", tuple(self.tools_exclude))
        if self.roots is not None:
            object.__setattr__(self, "roots", tuple(self.roots))
        object.__setattr__(self, "env", types.MappingProxyType(dict(self.env)))
        object.__setattr__(self, "headers", types.MappingProxyType(dict(self.headers)))

    @property
    def transport(self) -> Literal["stdio", "http"]:
        """Return ``"http"`` when the server has a ``url``, else ``"stdio"``."""
        return "http" if self.url is not None else "stdio"


@dataclass(frozen=True, slots=True)
class ToolSearchConfig:
    """``tools.mcp.tool_search``: list the tools behind a search tool instead of all at once.

    ``mode`` ``auto`` turns it on when more than ``threshold`` MCP tools are listed; ``on`` always, ``off``
    never. Servers with ``always_load: true`` keep their tools listed either way.
    """

    mode: Literal["auto", "on", "off"] = "off"
    threshold: int = DEFAULT_TOOL_SEARCH_THRESHOLD
    embeddings: Literal["auto", "on", "off"] = "auto"
    """The ranking's optional embedding model (``mcp-troupe[search]``): ``auto`` uses it when installed."""


@dataclass(frozen=True, slots=True)
class TroupeConfig:
    """The whole configuration: the servers in file order, the master switch, the reconnect policy, and the
    security, network and approval settings that apply to every server."""

    servers: Mapping[str, ServerConfig] = field(default_factory=dict)
    mcp_enabled: bool = True
    reconnect: ReconnectPolicy = field(default_factory=ReconnectPolicy)
    source: str = "<config>"
    security_policy: SecurityPolicy = "block"
    profile: Profile = "interactive"
    allow: tuple[str, ...] = ()
    network_policy: NetworkPolicy = "deny"
    approval_mode: ApprovalMode = "ask"
    max_output_chars: int = DEFAULT_MAX_OUTPUT_CHARS
    control_socket: str | None = None
    limits: CatalogLimits = field(default_factory=CatalogLimits)
    """Bounds on every server's catalog (``tools.mcp.limits``); a server's own ``limits`` override them."""
    tool_search: ToolSearchConfig = field(default_factory=lambda: ToolSearchConfig())

    def __post_init__(self) -> None:
        object.__setattr__(self, "servers", types.MappingProxyType(dict(self.servers)))
        object.__setattr__(self, "allow", tuple(self.allow))


# --- public entry points --------------------------------------------------------------------------------


def load_config(path: str | os.PathLike[str], *, environ: Mapping[str, str] | None = None) -> TroupeConfig:
    """Load the YAML file at ``path`` and validate it.

    An empty file (or one holding only comments) is a valid configuration with no servers.

    Args:
        path: The YAML file.
        environ: Where ``${VAR}`` in ``env`` and ``headers`` values is looked up; ``os.environ`` by default.

    Raises:
        ConfigError: The file cannot be read, is not valid YAML, or breaks any rule; ``problems`` lists
            them all, ``source`` is ``path``.
    """
    source = os.fspath(path)
    try:
        text = Path(source).read_bytes()
    except FileNotFoundError as exc:
        raise ConfigError("configuration file not found", source=source) from exc
    except IsADirectoryError as exc:
        raise ConfigError("is a directory, not a configuration file", source=source) from exc
    except OSError as exc:
        raise ConfigError(
            f"cannot read the configuration file: {exc.strerror or exc}", source=source
        ) from exc
    data, duplicates = _load_yaml(text, source)
    return _parse(data, source=source, environ=environ, problems=duplicates)


def parse_config(
    data: object, *, source: str = "<config>", environ: Mapping[str, str] | None = None
) -> TroupeConfig:
    """Validate already-loaded configuration data (what ``yaml.safe_load`` returns) into a config.

    ``None`` (an empty document) is a valid configuration with no servers.

    Raises:
        ConfigError: Every problem found, with its key path, in document order.
    """
    return _parse(data, source=source, environ=environ, problems=[])


def stdio_server(
    name: str,
    command: str,
    *args: str,
    env: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
    cwd: str | None = None,
) -> ServerConfig:
    """Build the config of a stdio server in code: ``stdio_server("fs", "python", "-m", "fs_server")``.

    The name follows the same rule as in a file. ``env`` values are taken as they are (no ``$VAR``
    expansion: code passes real values).

    Raises:
        ConfigError: The name is invalid, ``command`` is empty or a timeout is not a finite number > 0;
            the key paths are the argument names.
    """
    problems: list[tuple[str, str]] = []
    name_problem = _server_name_problem(name)
    if name_problem is not None:
        problems.append(("name", name_problem))
    if not command:
        problems.append(("command", "must not be empty"))
    for argument, seconds in (("timeout", timeout), ("connect_timeout", connect_timeout)):
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            problems.append((argument, f"expected a number, got {_describe(seconds)}"))
        elif not (seconds > 0 and math.isfinite(seconds)):
            problems.append((argument, f"must be a finite number greater than 0, got {seconds!r}"))
    if problems:
        raise ConfigError(source="stdio_server()", problems=tuple(problems))
    return ServerConfig(
        name=name,
        command=command,
        args=args,
        env=dict(env or {}),
        cwd=cwd,
        timeout=float(timeout),
        connect_timeout=float(connect_timeout),
    )


# --- key paths and problems -----------------------------------------------------------------------------

# A key path is a tuple of mapping keys (str) and list indices (int); it is turned into text only when the
# error is raised, so that problems can be sorted into document order first.
_KeyPath: TypeAlias = tuple[str | int, ...]
_Problem: TypeAlias = tuple[_KeyPath, str]

_PLAIN_KEY = re.compile(r"[A-Za-z0-9_.-]+")


def _format_path(path: _KeyPath) -> str:
    """Render ``("tools", "mcp_servers", "fs", "args", 1)`` as ``tools.mcp_servers.fs.args[1]``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _PLAIN_KEY.fullmatch(part):
            text += f".{part}" if text else part
        else:
            # Keys with spaces, quotes or nothing at all would make the path ambiguous; quote them.
            text += f"[{json.dumps(part, ensure_ascii=False)}]"
    return text


def _is_secret(path: _KeyPath) -> bool:
    """Tell whether ``path`` is, or lies under, a server's ``env`` or ``headers`` (values never shown)."""
    if len(path) >= 5 and path[:2] == ("tools", "mcp_servers") and path[3] == "oauth":
        return path[4] in _OAUTH_SECRETS
    return len(path) >= 4 and path[:2] == ("tools", "mcp_servers") and path[3] in ("env", "headers")


def _type_name(value: object) -> str:
    """Name the YAML type of ``value`` as a user would: integer, string, mapping..."""
    match value:
        case None:
            return "null"
        case bool():
            return "boolean"
        case int():
            return "integer"
        case float():
            return "number"
        case str():
            return "string"
        case list() | tuple():
            return "a list"
        case Mapping():
            return "a mapping"
        case _:
            return type(value).__name__


def _describe(value: object, *, secret: bool = False) -> str:
    """Describe ``value`` for an error message; a ``secret`` value is described by its type alone."""
    name = _type_name(value)
    if secret or value is None or isinstance(value, list | tuple | Mapping):
        return name
    if isinstance(value, bool):
        return f"{name} {str(value).lower()}"
    if isinstance(value, str):
        shown = value if len(value) <= 60 else value[:57] + "..."
        return f"{name} {shown!r}"
    if isinstance(value, int) and value.bit_length() > 64:
        return "a very large integer"  # str() of a huge int is unreadable, and past 4300 digits an error
    if isinstance(value, int | float):
        return f"{name} {value!r}"
    return name


def _key_text(key: object) -> str:
    """Spell a non-string mapping key as YAML wrote it, for a key path."""
    if key is None:
        return "null"
    if isinstance(key, bool):
        return str(key).lower()
    if isinstance(key, int) and key.bit_length() > 64:
        return "<a very large integer>"
    return str(key)


def _raise_problems(problems: list[_Problem], order: Mapping[_KeyPath, int], source: str) -> None:
    """Raise one ConfigError with ``problems`` in document order, deduplicated; do nothing if none."""
    if not problems:
        return

    def position(problem: _Problem) -> int:
        # A problem's path may name a key that is not in the data (a dropped non-string key): use its
        # nearest ancestor that is.
        path = problem[0]
        for end in range(len(path), -1, -1):
            index = order.get(path[:end])
            if index is not None:
                return index
        return -1

    ordered = sorted(problems, key=position)  # stable: problems at one key keep the order they were found
    unique = tuple(dict.fromkeys((_format_path(path), message) for path, message in ordered))
    raise ConfigError(source=source, problems=unique)


# --- pass 1: YAML ---------------------------------------------------------------------------------------

_MERGE_TAG: Final = "tag:yaml.org,2002:merge"


class _StrictLoader(yaml.SafeLoader):
    """A SafeLoader that records every duplicate mapping key, with its key path and lines.

    The check walks the composed node tree before construction instead of hooking ``construct_mapping``:
    PyYAML's ``flatten_mapping`` rewrites merge sources (``<<: *base``) in place before their own
    ``construct_mapping`` runs, so a hook there would see merged keys and report overrides as duplicates.
    The walk also gives every mapping its key path, which construction does not know.
    """

    def __init__(self, stream: bytes) -> None:
        super().__init__(stream)
        self.duplicate_keys: list[_Problem] = []

    def construct_document(self, node: yaml.Node) -> Any:
        """Find duplicate keys in the document, then construct it as SafeLoader does."""
        self._find_duplicate_keys(node, (), set())
        return super().construct_document(node)

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        """Construct as SafeLoader does, turning its stray ValueError/KeyError into a marked YAML error.

        SafeLoader lets plain Python errors escape for scalars it cannot convert (``2024-13-45``,
        ``!!int abc``, ``!!bool maybe``); their text may quote the value, so only the tag is kept.
        """
        try:
            return super().construct_object(node, deep)
        except (ValueError, LookupError, TypeError, ArithmeticError) as exc:
            kind = str(node.tag).rsplit(":", 1)[-1]
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read this value as {kind}", node.start_mark
            ) from exc

    def _find_duplicate_keys(self, node: yaml.Node, path: _KeyPath, visited: set[int]) -> None:
        # Aliases share nodes (and may even loop back to an ancestor): visit each node once.
        if id(node) in visited:
            return
        visited.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                self._find_duplicate_keys(item, (*path, index), visited)
        elif isinstance(node, yaml.MappingNode):
            first_lines: dict[object, int] = {}
            for key_node, value_node in node.value:
                if key_node.tag == _MERGE_TAG:
                    # Keys merged in may be overridden here; that is what merging is for, not a duplicate.
                    self._find_duplicate_keys(value_node, path, visited)
                    continue
                if not isinstance(key_node, yaml.ScalarNode):
                    continue  # SafeLoader rejects unhashable keys itself, with their line
                key = self.construct_object(key_node)
                key_part = key if isinstance(key, str) else _key_text(key)
                line = key_node.start_mark.line + 1
                if key in first_lines:
                    self.duplicate_keys.append(
                        (
                            (*path, key_part),
                            f"duplicate key on line {line} (first on line {first_lines[key]})",
                        )
                    )
                else:
                    first_lines[key] = line
                self._find_duplicate_keys(value_node, (*path, key_part), visited)


def _load_yaml(text: bytes, source: str) -> tuple[object, list[_Problem]]:
    """Parse ``text`` as one YAML document; return the data and the duplicate-key problems."""
    try:
        loader = _StrictLoader(text)  # already reads (and may reject) the first bytes
        try:
            data: object = loader.get_single_data()
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        raise ConfigError(_yaml_error_text(exc), source=source) from exc
    except RecursionError as exc:
        raise ConfigError("invalid YAML: nested too deeply", source=source) from exc
    return data, loader.duplicate_keys


def _yaml_error_text(exc: yaml.YAMLError) -> str:
    """Say where and what the YAML error is, without PyYAML's snippet of the line (it may hold a secret)."""
    if isinstance(exc, yaml.reader.ReaderError):
        # Its str() quotes the offending character, which may belong to a secret: keep to the position.
        return f"invalid YAML: {exc.reason} at character {exc.position}"
    if not isinstance(exc, yaml.MarkedYAMLError):
        return f"invalid YAML: {type(exc).__name__}"
    mark = exc.problem_mark or exc.context_mark
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    what = exc.problem or exc.context or "syntax error"
    text = f"invalid YAML{where}: {what}"
    if exc.problem and exc.context:
        context_line = f" started on line {exc.context_mark.line + 1}" if exc.context_mark is not None else ""
        text += f" ({exc.context}{context_line})"
    return text


# --- pass 2: plain data ---------------------------------------------------------------------------------

# The sections a user may leave empty (``mcp_servers:`` with every server commented out); YAML reads them as
# null, which means "nothing here", not "wrong type".
_SECTIONS: Final[frozenset[_KeyPath]] = frozenset(
    {(), ("tools",), ("tools", "mcp"), ("tools", "mcp", "reconnect"), ("tools", "mcp_servers")}
)
# The deepest valid value is a string at tools.mcp_servers.<name>.env.<KEY> (depth 5), so any container
# deeper than that sits under an ancestor the schema already rejects; there is no need to copy it, and not
# copying it keeps recursive aliases from looping.
_MAX_DEPTH: Final = 8
# Aliases let a few lines of YAML expand to billions of values ("billion laughs"); stop copying long before.
_MAX_VALUES: Final = 100_000


# No setting takes an integer beyond float range; jsonschema would also repr it in its messages, which for
# more than 4300 digits raises ValueError. Such integers are reported here and replaced by a stand-in.
_MAX_INTEGER_BITS: Final = 1024


class _TooLarge:
    """Stands in for an integer already reported as too large; the schema pass skips it."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<an integer too large to use>"


_TOO_LARGE: Final = _TooLarge()


class _Normalizer:
    """Copy arbitrary loaded data into plain dicts and lists with string keys, noting document order."""

    def __init__(self, problems: list[_Problem]) -> None:
        self.problems = problems
        self.order: dict[_KeyPath, int] = {}
        self._values = 0

    def copy(self, value: object, path: _KeyPath = ()) -> object:
        """Return a plain copy of ``value``; report non-string keys and drop them."""
        self.order.setdefault(path, len(self.order))
        self._values += 1
        if self._values == _MAX_VALUES:
            self.problems.append(((), f"the configuration holds more than {_MAX_VALUES} values"))
        if self._values >= _MAX_VALUES or len(path) > _MAX_DEPTH:
            return None
        if value is None and path in _SECTIONS:
            return {}
        if isinstance(value, int) and value.bit_length() > _MAX_INTEGER_BITS:
            self.problems.append((path, "is too large: an integer beyond 1.8e308"))
            return _TOO_LARGE
        if isinstance(value, Mapping):
            copied: dict[str, object] = {}
            for key, item in value.items():
                if isinstance(key, str):
                    copied[key] = self.copy(item, (*path, key))
                else:
                    key_path = (*path, _key_text(key))
                    self.order.setdefault(key_path, len(self.order))
                    message = f"keys must be strings, got {_describe(key)} (quote it)"
                    self.problems.append((key_path, message))
            return copied
        if isinstance(value, list | tuple):
            return [self.copy(item, (*path, index)) for index, item in enumerate(value)]
        return value


# --- pass 3: the schema ---------------------------------------------------------------------------------

_SECONDS: Final[dict[str, Any]] = {"type": "number", "exclusiveMinimum": 0}
_STRING_MAP: Final[dict[str, Any]] = {"type": "object", "additionalProperties": {"type": "string"}}
_NAMES: Final[dict[str, Any]] = {"type": "array", "items": {"type": "string", "minLength": 1}}
_FRAME_BYTES: Final[dict[str, Any]] = {"type": "integer", "minimum": 1024}
_COUNT: Final[dict[str, Any]] = {"type": "integer", "minimum": 1}
_LIMITS_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "max_tools": _COUNT,
        "max_description_chars": _COUNT,
        "max_schema_bytes": _COUNT,
        "max_schema_depth": _COUNT,
        "max_pattern_chars": _COUNT,
    },
    "additionalProperties": False,
}
_SERVER_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "command": {"type": "string", "minLength": 1},
        "args": {"type": "array", "items": {"type": "string"}},
        "env": _STRING_MAP,
        "cwd": {"type": "string", "minLength": 1},
        "url": {"type": "string", "minLength": 1},
        "headers": _STRING_MAP,
        "enabled": {"type": "boolean"},
        "timeout": _SECONDS,
        "connect_timeout": _SECONDS,
        "trust_level": {"enum": ["trusted", "untrusted"]},
        "tools_include": _NAMES,
        "tools_exclude": _NAMES,
        "max_frame_bytes": _FRAME_BYTES,
        "auth": {"enum": ["none", "oauth"]},
        "protocol": {"enum": list(PINS)},
        "limits": _LIMITS_SCHEMA,
        "roots": {"type": "array", "items": {"type": "string", "minLength": 1}},
        "log_level": {
            "enum": ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
        },
        "max_call_time": _SECONDS,
        "always_load": {"type": "boolean"},
        "oauth": {
            "type": "object",
            "properties": {
                "client_id": {"type": "string", "minLength": 1},
                "client_secret": {"type": "string"},
                "client_metadata_url": {"type": "string", "minLength": 1},
                "scopes": _NAMES,
                "redirect_port": {"type": "integer", "minimum": 0, "maximum": 65535},
                "grant": {"enum": list(OAUTH_GRANTS)},
                "token_endpoint_auth_method": {"enum": list(TOKEN_ENDPOINT_AUTH_METHODS)},
                "private_key": {"type": "string", "minLength": 1},
                "private_key_file": {"type": "string", "minLength": 1},
                "signing_algorithm": {"enum": ["RS256", "ES256"]},
                "key_id": {"type": "string", "minLength": 1},
                "assertion": {"type": "string", "minLength": 1},
                "assertion_file": {"type": "string", "minLength": 1},
                "id_token": {"type": "string", "minLength": 1},
                "id_token_file": {"type": "string", "minLength": 1},
                "idp_token_endpoint": {"type": "string", "minLength": 1},
                "idp_client_id": {"type": "string", "minLength": 1},
                "idp_client_secret": {"type": "string"},
                "dpop": {"enum": ["auto", "always", "never"]},
            },
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
}
_SCHEMA: Final[dict[str, Any]] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "tools": {
            "type": "object",
            "properties": {
                "mcpSecurityPolicy": {"enum": ["block", "warn"]},
                "profile": {"enum": ["interactive", "public_gateway", "daemon"]},
                "allow": _NAMES,
                "mcp": {
                    "type": "object",
                    "properties": {
                        "enabled": {"type": "boolean"},
                        "max_output_chars": {"type": "integer", "minimum": 1000},
                        "control_socket": {"type": "string", "minLength": 1},
                        "limits": _LIMITS_SCHEMA,
                        "tool_search": {
                            "type": "object",
                            "properties": {
                                "mode": {"enum": ["auto", "on", "off"]},
                                "threshold": {"type": "integer", "minimum": 0},
                                "embeddings": {"enum": ["auto", "on", "off"]},
                            },
                            "additionalProperties": False,
                        },
                        "reconnect": {
                            "type": "object",
                            "properties": {
                                "initial_delay": _SECONDS,
                                "max_delay": _SECONDS,
                                "max_attempts": {"type": "integer", "minimum": 0},
                            },
                            "additionalProperties": False,
                        },
                    },
                    "additionalProperties": False,
                },
                # Server names are checked in Python (pass 4): the schema's "pattern" is searched with
                # re.search, whose "$" also matches before a trailing newline.
                "mcp_servers": {"type": "object", "additionalProperties": _SERVER_SCHEMA},
            },
            "additionalProperties": False,
        },
        "execution": {
            "type": "object",
            "properties": {"networkPolicy": {"enum": ["allow", "deny"]}},
            "additionalProperties": False,
        },
        "permissions": {
            "type": "object",
            "properties": {
                "approval": {
                    "type": "object",
                    "properties": {"mode": {"enum": ["ask", "auto", "deny"]}},
                    "additionalProperties": False,
                },
            },
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
}
_VALIDATOR: Final = Draft202012Validator(_SCHEMA)
_SERVER_KEYS: Final = frozenset(_SERVER_SCHEMA["properties"])

_EXPECTED: Final = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "number": "a number",
    "integer": "an integer",
    "boolean": "a boolean (true or false)",
    "null": "null",
}


def _key_homes(schema: Mapping[str, Any], where: str = "") -> dict[str, list[str]]:
    """Map every key the schema knows to where it belongs, for "it belongs under" hints."""
    homes: dict[str, list[str]] = {}
    for key, subschema in schema.get("properties", {}).items():
        homes.setdefault(key, []).append(where or "the top level")
        for inner, places in _key_homes(subschema, f"{where}.{key}" if where else key).items():
            homes.setdefault(inner, []).extend(places)
    items = schema.get("additionalProperties")
    if isinstance(items, Mapping):
        for inner, places in _key_homes(items, f"{where}.<name>").items():
            homes.setdefault(inner, []).extend(places)
    return homes


_KEY_HOMES: Final = _key_homes(_SCHEMA)


def _unknown_key_message(key: str, valid: Iterable[str]) -> str:
    """Say that ``key`` is unknown here, with the closest valid key or where ``key`` belongs."""
    valid = sorted(valid)
    close = difflib.get_close_matches(key, valid, n=2, cutoff=0.6)
    if close:
        return f"unknown key {key!r}; did you mean " + " or ".join(repr(c) for c in close) + "?"
    homes = _KEY_HOMES.get(key)
    if homes:
        return f"unknown key {key!r} here; it belongs under " + " or ".join(homes)
    return f"unknown key {key!r}; valid keys are " + ", ".join(repr(v) for v in valid)


def _schema_problems(data: object) -> list[_Problem]:
    """Validate ``data`` against the schema and turn each error into readable problems."""
    problems: list[_Problem] = []
    for error in _VALIDATOR.iter_errors(data):
        if error.instance is not _TOO_LARGE:
            problems.extend(_problems_from(error))
    return problems


def _as_list(value: object) -> list[object]:
    """Return ``value`` if it is a list (a schema keyword's value), else an empty list."""
    return list(value) if isinstance(value, list) else []


def _strings(value: object) -> list[str]:
    """Return the strings in ``value`` if it is a list, else an empty list."""
    return [item for item in _as_list(value) if isinstance(item, str)]


def _problems_from(error: ValidationError) -> list[_Problem]:
    """Translate one jsonschema error into ``(key path, message)`` problems."""
    path: _KeyPath = tuple(error.absolute_path)
    secret = _is_secret(path)
    value = error.instance
    got = _describe(value, secret=secret)
    match error.validator:
        case "type":
            expected: object = error.validator_value
            names = [expected] if isinstance(expected, str) else _strings(expected)
            message = "expected " + " or ".join(_EXPECTED.get(n, n) for n in names) + f", got {got}"
            if "string" in names and value is not None and not isinstance(value, list | Mapping):
                message += " (quote it)"  # YAML read a number, boolean or date where text was meant
            if path == ():
                message = f"the configuration must be a mapping with a 'tools' key, got {got}"
            return [(path, message)]
        case "additionalProperties":
            known = error.schema.get("properties", {}) if isinstance(error.schema, Mapping) else {}
            extras = [key for key in value if key not in known] if isinstance(value, Mapping) else []
            return [((*path, key), _unknown_key_message(key, known)) for key in extras]
        case "exclusiveMinimum":
            return [(path, f"must be greater than {error.validator_value}, got {got}")]
        case "minimum":
            return [(path, f"must be at least {error.validator_value}, got {got}")]
        case "minLength" if error.validator_value == 1:
            return [(path, "must not be empty")]
        case "enum":
            choices = ", ".join(repr(choice) for choice in _as_list(error.validator_value))
            return [(path, f"expected one of {choices}, got {got}")]
        case _:
            # Not reached with the schema above. jsonschema's own text may quote the value: not for secrets.
            return [(path, "is invalid" if secret else error.message)]


# --- pass 4: rules beyond the schema, and building ------------------------------------------------------

# spec (ours): ${VAR} and $VAR expand, $$ is a literal "$"; any other "$" is an error rather than a guess.
_VARIABLE = re.compile(
    r"\$(?:(?P<dollar>\$)|\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)\}|(?P<bare>[A-Za-z_][A-Za-z0-9_]*))?"
)
# RFC 9110 section 5.6.2: a field name is a token.
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


def _server_name_problem(name: str) -> str | None:
    """Say what is wrong with a server name, or return None if it is valid."""
    # fullmatch, not match: the pattern's "$" would accept a trailing newline.
    if SERVER_NAME_PATTERN.fullmatch(name):
        return None
    return (
        f"invalid server name {name!r}: use 1 to 64 letters, digits, '.', '-' or '_' "
        "(it becomes part of the tool names mcp__<server>__<tool>)"
    )


def _parse(
    data: object, *, source: str, environ: Mapping[str, str] | None, problems: list[_Problem]
) -> TroupeConfig:
    """Run passes 2 to 4 over loaded ``data``; ``problems`` may already hold the YAML pass's."""
    environ = os.environ if environ is None else environ
    normalizer = _Normalizer(problems)
    plain = normalizer.copy(data)
    problems.extend(_schema_problems(plain))

    tools = _section(_section(plain).get("tools"))
    mcp = _section(tools.get("mcp"))
    enabled = mcp.get("enabled")
    reconnect = _reconnect(_section(mcp.get("reconnect")), ("tools", "mcp", "reconnect"), problems)
    global_limits = _limits(_section(mcp.get("limits")), CatalogLimits())

    servers: dict[str, ServerConfig] = {}
    tool_prefixes: dict[str, str] = {}
    for name, raw in _section(tools.get("mcp_servers")).items():
        path: _KeyPath = ("tools", "mcp_servers", name)
        name_problem = _server_name_problem(name)
        if name_problem is not None:
            problems.append((path, name_problem))
        else:
            # spec (ours): tool names are mcp__<sanitize(server)>__<tool>, and sanitize turns "." into "_";
            # two servers whose names sanitise alike would hand the model indistinguishable tools.
            prefix = sanitize(name)
            other = tool_prefixes.setdefault(prefix, name)
            if other != name:
                problems.append(
                    (
                        path,
                        f"server name {name!r} collides with {other!r}: both name tools mcp__{prefix}__*",
                    )
                )
        server = _server(name, raw, path, environ, problems)
        if server is not None and isinstance(raw, dict) and isinstance(raw.get("limits"), dict):
            server = dataclasses.replace(server, limits=_limits(raw["limits"], global_limits))
        if server is not None:
            servers[name] = server

    _raise_problems(problems, normalizer.order, source)
    _log.debug("configuration %s: %d servers (%s)", source, len(servers), ", ".join(servers))
    execution = _section(_section(plain).get("execution"))
    approval = _section(_section(_section(plain).get("permissions")).get("approval"))
    max_output = mcp.get("max_output_chars")
    control_socket = mcp.get("control_socket")
    return TroupeConfig(
        servers=servers,
        mcp_enabled=enabled if isinstance(enabled, bool) else True,
        reconnect=reconnect,
        source=source,
        security_policy=_choice(tools.get("mcpSecurityPolicy"), ("block", "warn")),
        profile=_choice(tools.get("profile"), ("interactive", "public_gateway", "daemon")),
        allow=tuple(_strings(tools.get("allow"))),
        network_policy=_choice(execution.get("networkPolicy"), ("deny", "allow")),
        approval_mode=_choice(approval.get("mode"), ("ask", "auto", "deny")),
        max_output_chars=_int_in(max_output, 1000) or DEFAULT_MAX_OUTPUT_CHARS,
        control_socket=control_socket if isinstance(control_socket, str) else None,
        limits=global_limits,
        tool_search=_tool_search(_section(mcp.get("tool_search"))),
    )


def _tool_search(raw: Mapping[str, object]) -> ToolSearchConfig:
    """``tools.mcp.tool_search`` (the schema checked its values)."""
    threshold = raw.get("threshold")
    return ToolSearchConfig(
        mode=_choice(raw.get("mode"), ("off", "auto", "on")),
        threshold=threshold
        if isinstance(threshold, int) and not isinstance(threshold, bool) and threshold >= 0
        else DEFAULT_TOOL_SEARCH_THRESHOLD,
        embeddings=_choice(raw.get("embeddings"), ("auto", "on", "off")),
    )


def _limits(raw: Mapping[str, object], base: CatalogLimits) -> CatalogLimits:
    """``base`` with the bounds ``raw`` sets (a wrong value was reported by the schema and is ignored)."""
    changes: dict[str, int] = {}
    for key in _LIMITS_SCHEMA["properties"]:
        value = _int_in(raw.get(key), 1)
        if value is not None:
            changes[key] = value
    return dataclasses.replace(base, **changes)


def _choice(value: object, choices: tuple[Any, ...]) -> Any:
    """``value`` when it is one of ``choices`` (else the schema reported it), or the first, the default."""
    return value if value in choices else choices[0]


def _int_in(value: object, low: int, high: int | None = None) -> int | None:
    """``value`` when it is an integer within bounds (the schema reported it otherwise), else None."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        return None
    return value if high is None or value <= high else None


def _section(value: object) -> dict[str, object]:
    """Return ``value`` if it is a mapping (already reported otherwise), else an empty one."""
    return value if isinstance(value, dict) else {}


def _seconds(raw: Mapping[str, object], key: str, path: _KeyPath, problems: list[_Problem]) -> float | None:
    """Return ``raw[key]`` as finite seconds > 0, or None if it is absent or invalid.

    The schema reports wrong types and values <= 0; what it cannot see (NaN, infinity) is reported here.
    """
    value = raw.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and math.isnan(value):
        problems.append(((*path, key), "must be a finite number, got number nan"))
        return None
    if value <= 0:
        return None
    if value == math.inf:
        problems.append(((*path, key), "must be a finite number, got number inf"))
        return None
    return float(value)  # an integer beyond float range never gets here: see _MAX_INTEGER_BITS


def _reconnect(raw: Mapping[str, object], path: _KeyPath, problems: list[_Problem]) -> ReconnectPolicy:
    """Check the reconnect section and build the policy, with defaults for what is missing."""
    default = ReconnectPolicy()
    initial = _seconds(raw, "initial_delay", path, problems)
    maximum = _seconds(raw, "max_delay", path, problems)
    # Compare with the default initial delay only when none was written; a wrong one is reported already.
    floor = initial if "initial_delay" in raw else default.initial_delay
    if maximum is not None and floor is not None and maximum < floor:
        note = "" if "initial_delay" in raw else ", the default"
        problems.append(
            ((*path, "max_delay"), f"must be at least initial_delay ({floor:g}{note}), got {maximum:g}")
        )
    attempts = raw.get("max_attempts")
    # JSON Schema's "integer" admits 3.0; anything else the schema has reported.
    if isinstance(attempts, bool) or not isinstance(attempts, int | float) or attempts < 0:
        max_attempts = default.max_attempts
    elif isinstance(attempts, float):
        max_attempts = int(attempts) if attempts.is_integer() else default.max_attempts
    else:
        max_attempts = attempts
    return ReconnectPolicy(
        initial_delay=default.initial_delay if initial is None else initial,
        max_delay=default.max_delay if maximum is None else maximum,
        max_attempts=max_attempts,
    )


def _server(
    name: str, raw: object, path: _KeyPath, environ: Mapping[str, str], problems: list[_Problem]
) -> ServerConfig | None:
    """Check the rules the schema cannot state for one server and build it (None if not a mapping)."""
    if not isinstance(raw, dict):
        return None  # the schema reported it
    problems.extend(_transport_problems(raw, path))

    command, url, cwd = raw.get("command"), raw.get("url"), raw.get("cwd")
    if isinstance(url, str) and url:
        url_problem = _url_problem(url)
        if url_problem is not None:
            problems.append(((*path, "url"), url_problem))
    args = raw.get("args")
    env = _expanded(raw.get("env"), (*path, "env"), environ, problems)
    headers = _expanded(raw.get("headers"), (*path, "headers"), environ, problems)
    _check_env(env, (*path, "env"), problems)
    _check_headers(headers, (*path, "headers"), problems)
    enabled = raw.get("enabled")
    timeout = _seconds(raw, "timeout", path, problems)
    connect_timeout = _seconds(raw, "connect_timeout", path, problems)
    include = raw.get("tools_include")
    max_frame = raw.get("max_frame_bytes")
    auth = _choice(raw.get("auth"), ("none", "oauth"))
    oauth = _oauth(raw.get("oauth"), (*path, "oauth"), environ, problems)
    if oauth is not None and auth != "oauth":
        problems.append(((*path, "oauth"), "'oauth' settings need auth: \"oauth\" on the same server"))
    if auth == "oauth" and oauth is None:
        oauth = OAuthConfig()
    roots, log_level, max_call_time = _host_keys(raw, path, timeout, problems)
    return ServerConfig(
        name=name,
        command=command if isinstance(command, str) else None,
        args=tuple(arg for arg in args if isinstance(arg, str)) if isinstance(args, list) else (),
        env=env,
        cwd=cwd if isinstance(cwd, str) else None,
        url=url if isinstance(url, str) else None,
        headers=headers,
        enabled=enabled if isinstance(enabled, bool) else True,
        timeout=DEFAULT_TIMEOUT if timeout is None else timeout,
        connect_timeout=DEFAULT_CONNECT_TIMEOUT if connect_timeout is None else connect_timeout,
        trust_level=_choice(raw.get("trust_level"), ("untrusted", "trusted")),
        tools_include=tuple(_strings(include)) if isinstance(include, list) else None,
        tools_exclude=tuple(_strings(raw.get("tools_exclude"))),
        max_frame_bytes=_int_in(max_frame, 1024) or DEFAULT_MAX_FRAME_BYTES,
        auth=auth,
        oauth=oauth,
        protocol=_choice(raw.get("protocol"), PINS),
        roots=roots,
        log_level=log_level,
        max_call_time=max_call_time,
        always_load=raw.get("always_load") is True,
    )


def _host_keys(
    raw: Mapping[str, object], path: _KeyPath, timeout: float | None, problems: list[_Problem]
) -> tuple[tuple[str, ...] | None, str | None, float | None]:
    """The host-callback keys of one server: ``roots``, ``log_level``, ``max_call_time``."""
    roots = None
    raw_roots = raw.get("roots")
    if isinstance(raw_roots, list):
        roots = tuple(_strings(raw_roots))
        for index, root in enumerate(raw_roots):
            # A relative path would mean whatever directory the agent happens to run in: refuse it.
            if isinstance(root, str) and root and not (root.startswith(("/", "~", "file://"))):
                problems.append(((*path, "roots", index), "must be an absolute path or a file:// URI"))
    level = raw.get("log_level")
    max_call_time = _seconds(raw, "max_call_time", path, problems)
    limit = DEFAULT_TIMEOUT if timeout is None else timeout
    if max_call_time is not None and max_call_time < limit:
        problems.append(
            ((*path, "max_call_time"), f"must be at least timeout ({limit:g} s), got {max_call_time:g}")
        )
    return roots, level if isinstance(level, str) else None, max_call_time


def _oauth(
    raw: object, path: _KeyPath, environ: Mapping[str, str], problems: list[_Problem]
) -> OAuthConfig | None:
    """Build the OAuth settings; ``client_secret`` expands ``${VAR}`` like ``env`` values, never shown."""
    if not isinstance(raw, dict):
        return None
    client_id, metadata_url, port = (
        raw.get("client_id"),
        raw.get("client_metadata_url"),
        raw.get("redirect_port"),
    )
    if isinstance(metadata_url, str) and metadata_url:
        problem = _url_problem(metadata_url)
        if problem is None and not metadata_url.startswith("https://"):
            problem = "must be an https:// URL (a Client ID Metadata Document is fetched by the server)"
        if problem is not None:
            problems.append(((*path, "client_metadata_url"), problem))

    def secret_of(key: str) -> str | None:
        value = raw.get(key)
        return _expand(value, (*path, key), environ, problems) if isinstance(value, str) else None

    def text_of(key: str) -> str | None:
        value = raw.get(key)
        return value if isinstance(value, str) and value else None

    config = OAuthConfig(
        client_id=client_id if isinstance(client_id, str) else None,
        client_secret=secret_of("client_secret"),
        client_metadata_url=metadata_url if isinstance(metadata_url, str) else None,
        scopes=tuple(_strings(raw.get("scopes"))),
        redirect_port=_int_in(port, 0, 65535) or 0,
        grant=_choice(raw.get("grant"), OAUTH_GRANTS),
        token_endpoint_auth_method=text_of("token_endpoint_auth_method"),
        private_key=secret_of("private_key"),
        private_key_file=_expand_path(text_of("private_key_file")),
        signing_algorithm=_choice(raw.get("signing_algorithm"), (None, "RS256", "ES256")),
        key_id=text_of("key_id"),
        assertion=secret_of("assertion"),
        assertion_file=_expand_path(text_of("assertion_file")),
        id_token=secret_of("id_token"),
        id_token_file=_expand_path(text_of("id_token_file")),
        idp_token_endpoint=text_of("idp_token_endpoint"),
        idp_client_id=text_of("idp_client_id"),
        idp_client_secret=secret_of("idp_client_secret"),
        dpop=_choice(raw.get("dpop"), ("auto", "always", "never")),
    )
    problems.extend(_grant_problems(config, raw, path))
    return config


_OAUTH_SECRETS: Final = frozenset(
    {"client_secret", "private_key", "assertion", "id_token", "idp_client_secret"}
)


def _expand_path(value: str | None) -> str | None:
    return os.path.expanduser(value) if value is not None else None


def _grant_problems(config: OAuthConfig, raw: Mapping[str, object], path: _KeyPath) -> list[_Problem]:
    """What each grant needs, said at the key that is missing or wrong (values are never quoted)."""
    problems: list[_Problem] = []
    grant = config.grant

    def need(condition: bool, key: str, text: str) -> None:
        if not condition:
            problems.append(((*path, key), text))

    for inline, file in (
        ("private_key", "private_key_file"),
        ("assertion", "assertion_file"),
        ("id_token", "id_token_file"),
    ):
        need(not (inline in raw and file in raw), file, f"give {inline!r} or {file!r}, not both")
    has_key = config.private_key is not None or config.private_key_file is not None
    method = config.token_endpoint_auth_method
    if method == "private_key_jwt":
        need(
            has_key,
            "private_key",
            "token_endpoint_auth_method private_key_jwt needs private_key or private_key_file",
        )
    if method in ("client_secret_basic", "client_secret_post"):
        need(
            bool(config.client_secret),
            "client_secret",
            f"token_endpoint_auth_method {method} needs a client_secret",
        )
    if grant in ("client_credentials", "enterprise"):
        need(
            bool(config.client_id), "client_id", f"grant {grant} needs the client_id registered at the server"
        )
    if grant == "client_credentials":
        need(
            bool(config.client_secret) or has_key,
            "client_secret",
            "grant client_credentials needs a client_secret, or private_key / private_key_file "
            "for private_key_jwt",
        )
    if grant == "workload_identity":
        need(
            config.assertion is not None or config.assertion_file is not None,
            "assertion_file",
            "grant workload_identity needs the platform's JWT: assertion_file (a path) or assertion",
        )
    if grant == "enterprise":
        need(
            config.idp_token_endpoint is not None,
            "idp_token_endpoint",
            "grant enterprise needs the IdP's token endpoint",
        )
        need(
            config.id_token is not None or config.id_token_file is not None,
            "id_token_file",
            "grant enterprise needs the IdP's ID token: id_token_file (a path) or id_token",
        )
    if config.idp_token_endpoint is not None:
        problem = _url_problem(config.idp_token_endpoint)
        if problem is not None:
            problems.append(((*path, "idp_token_endpoint"), problem))
    if grant != "authorization_code":
        for key in ("client_metadata_url", "redirect_port"):
            need(
                key not in raw, key, f"is for logins in a browser; grant {grant} has no user and no redirect"
            )
    for key in ("idp_token_endpoint", "idp_client_id", "idp_client_secret", "id_token", "id_token_file"):
        need(grant == "enterprise" or key not in raw, key, "is only used with grant: enterprise")
    for key in ("assertion", "assertion_file"):
        need(
            grant == "workload_identity" or key not in raw, key, "is only used with grant: workload_identity"
        )
    return problems


def _transport_problems(raw: Mapping[str, object], path: _KeyPath) -> list[_Problem]:
    """Check that a server is either stdio (``command``) or HTTP (``url``), with only that kind's keys."""
    has_command, has_url = "command" in raw, "url" in raw
    if has_command and has_url:
        # Never silently prefer one: the user meant one of two different servers.
        both = "has both 'command' and 'url': use 'command' for a stdio server or 'url' for an HTTP server"
        return [(path, both)]
    if not raw.keys() <= _SERVER_KEYS:
        # With an unknown key in the server (a misspelt "comand"), that key's hint is the useful message;
        # the rules below would only guess at what the server was meant to be.
        return []
    if has_url:
        only_stdio = "is only valid with 'command' (a stdio server), and this server has a 'url'"
        return [((*path, key), f"{key!r} {only_stdio}") for key in ("args", "env", "cwd") if key in raw]
    if has_command:
        only_http = "is only valid with 'url' (an HTTP server), and this server has a 'command'"
        # spec: authorization — stdio servers SHOULD NOT use OAuth; credentials come from the environment.
        return [((*path, key), f"{key!r} {only_http}") for key in ("headers", "auth", "oauth") if key in raw]
    return [(path, "needs 'command' (a stdio server) or 'url' (an HTTP server)")]


def _url_problem(url: str) -> str | None:
    """Say what is wrong with an HTTP server's URL, or return None. The URL itself is not quoted back:
    it may carry credentials (``https://user:token@host``)."""
    if any(char.isspace() or not char.isprintable() for char in url):
        return "must not contain spaces or control characters"
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number in 0..65535
    except ValueError:
        return "is not a valid URL"
    if parts.scheme not in ("http", "https"):
        got = f", got {parts.scheme + ':'!r}" if parts.scheme else ""
        return f"must be an http:// or https:// URL{got}"
    if not host:
        return "must name a host: http://HOST[:PORT]/PATH or https://HOST[:PORT]/PATH"
    return None


def _expanded(
    raw: object, path: _KeyPath, environ: Mapping[str, str], problems: list[_Problem]
) -> dict[str, str]:
    """Expand the variables in the string values of an ``env`` or ``headers`` mapping; keys stay as written.

    Non-string values were reported by the schema (without their value) and are left out.
    """
    if not isinstance(raw, dict):
        return {}
    return {
        key: _expand(value, (*path, key), environ, problems)
        for key, value in raw.items()
        if isinstance(value, str)
    }


def _expand(value: str, path: _KeyPath, environ: Mapping[str, str], problems: list[_Problem]) -> str:
    """Expand ``${VAR}`` and ``$VAR`` in ``value`` from ``environ``; ``$$`` is a literal ``$``.

    An unset variable or a stray ``$`` is a problem naming the key path and the variable, never the value:
    the result is a secret, and so may be the text around the variable.
    """
    pieces: list[str] = []
    end = 0
    for match in _VARIABLE.finditer(value):
        pieces.append(value[end : match.start()])
        end = match.end()
        variable = match["braced"] or match["bare"]
        if match["dollar"]:
            pieces.append("$")
        elif variable is None:
            problems.append(
                (path, "has a '$' that starts no variable: write ${NAME} or $NAME, or '$$' for a literal '$'")
            )
        elif variable in environ:
            pieces.append(environ[variable])
        else:
            # Never keep the literal "${VAR}": a server would get a wrong token and fail far from here.
            problems.append((path, f"environment variable {variable} is not set"))
    pieces.append(value[end:])
    return "".join(pieces)


def _check_env(env: Mapping[str, str], path: _KeyPath, problems: list[_Problem]) -> None:
    """Report environment entries that a process could not be given (the value is not shown)."""
    for key, value in env.items():
        if not key or "=" in key or "\0" in key:
            problems.append(((*path, key), "is not a valid environment variable name (empty, '=' or NUL)"))
        if "\0" in value:
            problems.append(((*path, key), "must not contain a NUL character"))


def _check_headers(headers: Mapping[str, str], path: _KeyPath, problems: list[_Problem]) -> None:
    """Report header names that are not HTTP tokens and values that could split the request."""
    for key, value in headers.items():
        if not _HEADER_NAME.fullmatch(key):
            problems.append(((*path, key), "is not a valid HTTP header name"))
        if any(char in value for char in "\r\n\0"):
            # A line break in a header value would inject headers (e.g. from a variable's value).
            problems.append(
                ((*path, key), "must not contain line breaks or NUL characters (after expansion)")
            )
