"""Size bounds on what a server lists, checked before any other policy work touches a definition.

A hostile server can make policy itself the attack: 100,000 tools in one page kept the registry busy for
seconds, a 1 MB ``pattern`` went through the regex compiler, a ``default`` nested 985 levels deep broke
every recursive walk after it (issue 15). So each definition is measured first, by one iterative walk that
stops as soon as a bound is crossed, and a definition that crosses one is rejected with a reason naming the
bound and the configuration key that sets it. A server listing more tools than ``max_tools`` is rejected
whole: its catalog is not judged at all.

The bounds are configuration (``tools.mcp.limits``, and per server ``tools.mcp_servers.<name>.limits``);
the defaults are far above what real servers list (the largest public catalogs hold a few hundred tools;
descriptions run to a few kilobytes; schemas to tens of kilobytes and a dozen levels).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from mcp_troupe.protocol.deepjson import TooDeep
from mcp_troupe.protocol.mcp import ToolDefinition

__all__ = ["CatalogLimits", "catalog_problem", "definition_problem", "schema_problem", "text_problem"]

_KEY = "tools.mcp.limits"


@dataclass(frozen=True, slots=True)
class CatalogLimits:
    """What one server's catalog may hold; a breach rejects the definition (``max_tools``: the server)."""

    max_tools: int = 10_000
    """Tools one server may list (all pages together)."""
    max_description_chars: int = 32_768
    """Characters in one tool's description (and its title)."""
    max_schema_bytes: int = 262_144
    """Approximate JSON size of one tool's ``inputSchema``, and of its ``outputSchema``."""
    max_schema_depth: int = 64
    """JSON nesting levels of one schema, everything in it counted (``default`` and ``enum`` values too)."""
    max_pattern_chars: int = 4_096
    """Characters in one ``pattern`` or ``patternProperties`` regex."""


DEFAULT_LIMITS: Final = CatalogLimits()


def catalog_problem(tool_count: int, limits: CatalogLimits) -> str | None:
    """Why a catalog of ``tool_count`` tools is rejected whole, or ``None``."""
    if tool_count > limits.max_tools:
        return (
            f"the server lists {tool_count} tools, more than {_KEY}.max_tools ({limits.max_tools}); "
            "none of them is registered"
        )
    return None


def definition_problem(tool: ToolDefinition, limits: CatalogLimits) -> str | None:
    """Why ``tool`` is too big to judge (a sentence naming the bound and where), or ``None``."""
    problem = text_problem(tool, limits)
    if problem is not None:
        return problem
    for root, schema in (("inputSchema", tool.input_schema), ("outputSchema", tool.output_schema)):
        if schema is not None:
            problem = schema_problem(schema, root, limits)
            if problem is not None:
                return problem
    return None


def text_problem(tool: ToolDefinition, limits: CatalogLimits) -> str | None:
    """The first part of :func:`definition_problem`: the description's and the title's lengths."""
    for field, text in (("description", tool.description), ("title", tool.title)):
        if text is not None and len(text) > limits.max_description_chars:
            return (
                f"its {field} has {len(text)} characters, more than "
                f"{_KEY}.max_description_chars ({limits.max_description_chars})"
            )
    return None


_PATH_SHOWN = 120


def _path(nodes: list[tuple[int, str | int]], index: int, root: str) -> str:
    parts: list[str] = []
    while index > 0:
        parent, key = nodes[index]
        parts.append(f"[{key}]" if isinstance(key, int) else f".{key}")
        index = parent
    path = root + "".join(reversed(parts))
    # A path 900 levels deep says nothing more than its start and its end do.
    return path if len(path) <= _PATH_SHOWN else f"{path[:80]}…{path[-39:]}"


def schema_problem(schema: Mapping[str, Any], root: str, limits: CatalogLimits) -> str | None:
    """Measure ``schema`` (found at ``root``) iteratively: depth, approximate size, pattern lengths; stop at
    the first breach."""
    # nodes[i] = (parent index, key): the path of a node is rebuilt only when it is reported.
    nodes: list[tuple[int, str | int]] = [(-1, "")]
    stack: list[tuple[object, int, int]] = [(schema, 1, 0)]  # (value, depth, node index)
    size = 0
    while stack:
        value, depth, index = stack.pop()
        if isinstance(value, TooDeep):
            # The frame decoder stopped building here (protocol.deepjson): deeper than any bound.
            return (
                f"{root} nests deeper than {_KEY}.max_schema_depth ({limits.max_schema_depth}) at "
                f"{_path(nodes, index, root)}"
            )
        if isinstance(value, dict | list) and depth > limits.max_schema_depth:
            return (
                f"{root} nests deeper than {_KEY}.max_schema_depth ({limits.max_schema_depth}) at "
                f"{_path(nodes, index, root)}"
            )
        if isinstance(value, dict):
            size += 2 + 4 * len(value)
            pattern = value.get("pattern")
            if isinstance(pattern, str) and len(pattern) > limits.max_pattern_chars:
                return _pattern_problem(len(pattern), _path(nodes, index, root) + ".pattern", limits)
            pattern_map = value.get("patternProperties")
            if isinstance(pattern_map, dict):
                for key in pattern_map:
                    if isinstance(key, str) and len(key) > limits.max_pattern_chars:
                        where = _path(nodes, index, root) + ".patternProperties"
                        return _pattern_problem(len(key), where, limits)
            for key, child in value.items():
                size += len(key) if isinstance(key, str) else 8
                if size > limits.max_schema_bytes:
                    return _size_problem(root, limits)
                nodes.append((index, key))
                stack.append((child, depth + 1, len(nodes) - 1))
        elif isinstance(value, list):
            size += 2 + len(value)
            for position, child in enumerate(value):
                if size > limits.max_schema_bytes:
                    return _size_problem(root, limits)
                nodes.append((index, position))
                stack.append((child, depth + 1, len(nodes) - 1))
        elif isinstance(value, str):
            size += len(value) + 2
        else:
            size += 8
        if size > limits.max_schema_bytes:
            return _size_problem(root, limits)
    return None


def _size_problem(root: str, limits: CatalogLimits) -> str:
    return f"{root} is larger than {_KEY}.max_schema_bytes ({limits.max_schema_bytes} bytes of JSON)"


def _pattern_problem(length: int, where: str, limits: CatalogLimits) -> str:
    return (
        f"{where} is a regex of {length} characters, more than {_KEY}.max_pattern_chars "
        f"({limits.max_pattern_chars})"
    )
