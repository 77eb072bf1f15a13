"""Rules on single values that a schema states poorly: ``$VAR`` expansion, server names, URLs, env, headers.

Private to :mod:`mcp_troupe.config` (pass 4). Each check appends ``(key path, message)`` problems or returns
what is wrong; none quotes a value that may be a secret (an expanded variable, a URL with credentials).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import urlsplit

from mcp_troupe._config_paths import _KeyPath, _Problem
from mcp_troupe.policy.names import SERVER_NAME_PATTERN

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
