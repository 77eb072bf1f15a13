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

This module holds the dataclasses, the entry points and the building of pass 4; the rest lives in private
modules beside it: key paths and the wording of problems in ``_config_paths``, passes 1 and 2 in
``_config_yaml``, the key tables (the schema) of pass 3 in ``_config_schema``, and the single-value rules of
pass 4 (``$VAR`` expansion, names, URLs, env and headers) in ``_config_values``.

Secrets: values under ``env`` and ``headers`` are expanded from the environment and may hold tokens, so no
error message, log line or repr ever shows them, expanded or not; messages name the key and the variable.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, TypeAlias, get_args

from mcp_troupe._config_paths import _describe, _KeyPath, _Problem, _raise_problems
from mcp_troupe._config_schema import _LIMITS_SCHEMA, _SERVER_KEYS, _schema_problems, _strings
from mcp_troupe._config_schema import OAUTH_GRANTS as OAUTH_GRANTS
from mcp_troupe._config_schema import TOKEN_ENDPOINT_AUTH_METHODS as TOKEN_ENDPOINT_AUTH_METHODS
from mcp_troupe._config_schema import OAuthGrant as OAuthGrant
from mcp_troupe._config_values import (
    _check_env,
    _check_headers,
    _expand,
    _expanded,
    _server_name_problem,
    _url_problem,
)
from mcp_troupe._config_yaml import _load_yaml, _Normalizer
from mcp_troupe.errors import ConfigError
from mcp_troupe.policy.bounds import CatalogLimits
from mcp_troupe.policy.names import sanitize
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
        # actors that were started from it. parse_config checked all of this for a file; code building a
        # ServerConfig itself gets the same refusal here, not a failure in an actor later.
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"ServerConfig name= must be a non-empty string, got {self.name!r:.60}")
        where = f"server {self.name!r}"
        for option in ("command", "url", "cwd"):
            value = getattr(self, option)
            if value is not None and not isinstance(value, str):
                raise TypeError(f"{where}: {option} must be a string, got {type(value).__name__}")
        if self.command is not None and self.url is not None:
            raise ValueError(f"{where}: give command (a stdio server) or url (an HTTP server), not both")
        _check_choice(where, "trust_level", self.trust_level, get_args(TrustLevel))
        _check_choice(where, "auth", self.auth, get_args(AuthKind))
        _check_choice(where, "protocol", self.protocol, PINS)
        if isinstance(self.args, str):
            # A string is iterable by its characters: each would have become an argument of its own.
            raise TypeError(f"ServerConfig args= must be a list of strings, got str ({self.args!r:.60})")
        for option in ("timeout", "connect_timeout"):
            seconds = getattr(self, option)
            if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds > 0:
                # (parse_config and stdio_server check this; code building a ServerConfig itself was not.)
                raise ValueError(
                    f"server {self.name!r}: {option} must be a number of seconds greater than 0, "
                    f"got {seconds!r}"
                )
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

    def __post_init__(self) -> None:
        where = "tool_search"
        _check_choice(where, "mode", self.mode, ("auto", "on", "off"))
        _check_choice(where, "embeddings", self.embeddings, ("auto", "on", "off"))
        if isinstance(self.threshold, bool) or not isinstance(self.threshold, int) or self.threshold < 0:
            raise ValueError(f"{where}: threshold must be an integer >= 0, got {self.threshold!r:.60}")


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
        if not isinstance(self.servers, Mapping):
            raise TypeError(
                f"TroupeConfig servers= must map names to ServerConfig, got {type(self.servers).__name__}"
            )
        for key, server in self.servers.items():
            if not isinstance(server, ServerConfig):
                # (Taken, it failed in the registry at start, with AttributeError.)
                raise TypeError(
                    f"TroupeConfig servers[{key!r}] must be a ServerConfig (stdio_server(...) or "
                    f"ServerConfig(...)), got {type(server).__name__}"
                )
            if server.name != key:
                # (The registry named the server by its key and its actors by its name.)
                raise ValueError(
                    f"TroupeConfig servers[{key!r}] holds the ServerConfig of {server.name!r}: a server is "
                    "keyed by its own name"
                )
        where = "TroupeConfig"
        _check_choice(where, "security_policy", self.security_policy, get_args(SecurityPolicy))
        _check_choice(where, "profile", self.profile, get_args(Profile))
        _check_choice(where, "network_policy", self.network_policy, get_args(NetworkPolicy))
        _check_choice(where, "approval_mode", self.approval_mode, get_args(ApprovalMode))
        if isinstance(self.allow, str):
            # (Iterated, one pattern per character.)
            raise TypeError(f"TroupeConfig allow= must be a list of patterns, got str ({self.allow!r:.60})")
        object.__setattr__(self, "servers", types.MappingProxyType(dict(self.servers)))
        object.__setattr__(self, "allow", tuple(self.allow))


def _check_choice(where: str, option: str, value: object, choices: tuple[object, ...]) -> None:
    """Refuse ``value`` unless it is one of ``choices`` (a config built in code: the file's were checked)."""
    if not isinstance(value, str) or value not in choices:
        listed = ", ".join(str(choice) for choice in choices)
        raise ValueError(f"{where}: {option} must be one of {listed}, got {value!r:.60}")


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
    if not isinstance(path, str | os.PathLike):
        hint = " (data already loaded: parse_config(it))" if isinstance(path, Mapping) else ""
        raise TypeError(f"load_config() needs the path of a YAML file, got {type(path).__name__}{hint}")
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
    name_problem = (
        _server_name_problem(name) if isinstance(name, str) else f"expected a string, got {_describe(name)}"
    )
    if name_problem is not None:
        problems.append(("name", name_problem))
    if not isinstance(command, str):
        # (A list was taken as the command: the spawn failed later, far from here.)
        problems.append(("command", f"expected a string (arguments follow it), got {_describe(command)}"))
    elif not command:
        problems.append(("command", "must not be empty"))
    for index, argument in enumerate(args):
        if not isinstance(argument, str):
            problems.append((f"args[{index}]", f"expected a string, got {_describe(argument)}"))
    if env is not None and (
        not isinstance(env, Mapping)
        or not all(isinstance(key, str) and isinstance(value, str) for key, value in env.items())
    ):
        problems.append(("env", "expected a mapping of strings to strings"))
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


# --- pass 4: rules beyond the schema, and building ------------------------------------------------------


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
    if not name:
        return None  # (an empty name is reported; ServerConfig refuses one)
    return ServerConfig(
        name=name,
        # (With both given, a problem is reported and this config is never returned.)
        command=command if isinstance(command, str) and not isinstance(url, str) else None,
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
