"""Per-server tool filters (``tools_include`` / ``tools_exclude``) and the name patterns shared with the gate.

A pattern is an exact name or a glob in which ``*`` matches any run of characters (also none) and ``?``
exactly one; every other character, ``[`` and ``]`` included, stands for itself. Matching is case-sensitive
(tool names are, spec: 2025-11-25 "Tool Names"). Only ``*`` and ``?`` are special, rather than everything
``fnmatch`` knows, so that a name with brackets in it means what it says in a config file.

``tools_include`` and ``tools_exclude`` name a server's tools by their *original* names, the ones the server
lists (``read_file``), not the qualified names the model sees (``mcp__fs__read_file``): they sit under the
server's own entry in the config, so the server part would only repeat itself. ``tools.allow`` (the gate) is
the other way round: it spans servers, so it uses qualified names.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

__all__ = ["first_match", "is_included", "matches"]


@functools.lru_cache(maxsize=1024)
def _compiled(pattern: str) -> re.Pattern[str]:
    parts = []
    for char in pattern:
        if char == "*":
            parts.append(".*")
        elif char == "?":
            parts.append(".")
        else:
            parts.append(re.escape(char))
    # DOTALL: a name is matched whole, whatever characters it holds.
    return re.compile("".join(parts), re.DOTALL)


def matches(name: str, pattern: str) -> bool:
    """Whether ``name`` matches ``pattern`` (an exact name, or a glob with ``*`` and ``?``)."""
    if "*" not in pattern and "?" not in pattern:
        return name == pattern
    return _compiled(pattern).fullmatch(name) is not None


def first_match(name: str, patterns: Sequence[str]) -> str | None:
    """The first of ``patterns`` that ``name`` matches, or ``None``."""
    for pattern in patterns:
        if matches(name, pattern):
            return pattern
    return None


def is_included(tool_name: str, include: Sequence[str] | None, exclude: Sequence[str]) -> str | None:
    """Return why a server's tool is filtered out, or ``None`` when it is kept.

    ``tool_name`` is the server's original name. ``include`` is ``tools_include``: ``None`` when the config
    does not give it (every tool is a candidate), otherwise only matching tools are kept, so an empty list
    keeps none. ``exclude`` is ``tools_exclude`` and wins over ``include``: a tool that matches both is
    dropped, since an explicit exclusion is the narrower, more deliberate statement.
    """
    excluded_by = first_match(tool_name, exclude)
    if excluded_by is not None:
        how = "is listed" if excluded_by == tool_name else f"matches {excluded_by!r}"
        return f"tool {tool_name!r} {how} in tools_exclude"
    if include is not None and first_match(tool_name, include) is None:
        if not include:
            return f"tool {tool_name!r} is not included: tools_include is empty"
        return f"tool {tool_name!r} matches no pattern in tools_include"
    return None
