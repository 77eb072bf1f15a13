"""Pass 3 of :mod:`mcp_troupe.config`: the key tables (a JSON Schema, Draft 2020-12) and readable problems.

Private to :mod:`mcp_troupe.config`. Every key a configuration may hold, with its type and bounds, is written
here once; a jsonschema error becomes a ``(key path, message)`` problem, an unknown key gets a "did you mean"
or "it belongs under" hint, and a secret's value is never quoted.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal, TypeAlias

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from mcp_troupe._config_paths import _describe, _is_secret, _KeyPath, _Problem
from mcp_troupe._config_yaml import _TOO_LARGE
from mcp_troupe.protocol.handshake import PINS

# The OAuth choices are named here, where the schema lists them; config.py re-exports them.
OAuthGrant: TypeAlias = Literal["authorization_code", "client_credentials", "workload_identity", "enterprise"]
OAUTH_GRANTS: Final[tuple[OAuthGrant, ...]] = (
    "authorization_code",
    "client_credentials",
    "workload_identity",
    "enterprise",
)
TOKEN_ENDPOINT_AUTH_METHODS: Final = ("client_secret_basic", "client_secret_post", "private_key_jwt", "none")


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
