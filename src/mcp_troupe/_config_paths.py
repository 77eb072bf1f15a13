"""Key paths and problems: how a configuration problem names its place and describes a value.

Private to :mod:`mcp_troupe.config`. A problem is a ``(key path, message)`` pair; the path stays a tuple until
:func:`_raise_problems` sorts the problems into document order and raises the one
:class:`~mcp_troupe.errors.ConfigError`. Values under ``env``, ``headers`` and the OAuth secrets are never
described by more than their type.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Final, TypeAlias

from mcp_troupe.errors import ConfigError

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


_OAUTH_SECRETS: Final = frozenset(
    {"client_secret", "private_key", "assertion", "id_token", "idp_client_secret"}
)
