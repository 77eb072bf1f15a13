"""Files split on their seams (issue 12 bullet 6) stay one module to their users: the private parts beside a
public module are imported by that module and by each other only, and the public module still offers every
name its users take from it. Read from the sources, function-level imports included."""

from __future__ import annotations

import ast
import functools
import importlib
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[2] / "src" / "mcp_troupe"

# public module -> the private parts that hold its code
PARTS = {
    "mcp_troupe.config": (
        "mcp_troupe._config_paths",
        "mcp_troupe._config_schema",
        "mcp_troupe._config_values",
        "mcp_troupe._config_yaml",
    ),
    "mcp_troupe.builtin_tools": ("mcp_troupe._builtin_specs",),
    "mcp_troupe.actors.lane": ("mcp_troupe.actors.lane_replies",),
    "mcp_troupe.actors.registry": (
        "mcp_troupe.actors.registry_builtins",
        "mcp_troupe.actors.registry_gate",
        "mcp_troupe.actors.registry_records",
        "mcp_troupe.actors.registry_search",
    ),
}


def module_name(path: Path) -> str:
    return ".".join(("mcp_troupe", *path.relative_to(SOURCE).with_suffix("").parts)).removesuffix(".__init__")


def imported_by(path: Path) -> set[str]:
    """Every module ``path`` imports anywhere in its source (``from a import b`` counts ``a`` and ``a.b``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


@functools.cache
def import_graph() -> dict[str, frozenset[str]]:
    """What each module under src/ imports, parsed once per test run."""
    return {module_name(path): frozenset(imported_by(path)) for path in SOURCE.rglob("*.py")}


def importers_of(target: str) -> set[str]:
    """Every module under src/ that imports ``target``."""
    return {name for name, imports in import_graph().items() if target in imports}


@pytest.mark.parametrize(
    ("public", "part"), [(public, part) for public, parts in PARTS.items() for part in parts]
)
def test_a_private_part_is_imported_only_by_its_public_module_and_its_siblings(
    public: str, part: str
) -> None:
    allowed = {public, *PARTS[public]}

    assert importers_of(part) <= allowed, f"{part} is imported from outside {public}"


@pytest.mark.parametrize(
    ("public", "names"),
    [
        (
            "mcp_troupe.config",
            ("OAUTH_GRANTS", "TOKEN_ENDPOINT_AUTH_METHODS", "OAuthGrant", "load_config", "parse_config"),
        ),
        ("mcp_troupe.builtin_tools", ("RESOURCES", "PROMPTS", "MAX_COMPLETIONS", "Action", "input_schema")),
        ("mcp_troupe.protocol.oauth", ("discover", "fetch_as_metadata", "obtain_client", "register_client")),
        ("mcp_troupe.actors.oauth", ("BearerTokens", "drive", "LoopbackRedirect", "MAX_REDIRECTS")),
        (
            "mcp_troupe.actors.lane",
            ("Outgoing", "Send", "ProgressHost", "ProgressSink", "LoopReply", "settle_on_loop", "FastRoute"),
        ),
        ("mcp_troupe.actors.registry", ("SUPERVISOR_RESTARTS", "RESULTS_MAX_ENTRIES", "RESULTS_MAX_CHARS")),
    ],
)
def test_the_public_module_still_offers_the_names_that_moved(public: str, names: tuple[str, ...]) -> None:
    module = importlib.import_module(public)

    assert [name for name in names if not hasattr(module, name)] == []


@pytest.mark.parametrize(
    "public",
    [
        "mcp_troupe.config",
        "mcp_troupe.builtin_tools",
        "mcp_troupe.protocol.oauth",
        "mcp_troupe.actors.oauth",
        "mcp_troupe.actors.lane",
        "mcp_troupe.actors.registry",
    ],
)
def test_every_name_in_a_public_modules_all_is_there(public: str) -> None:
    module = importlib.import_module(public)

    assert [name for name in module.__all__ if not hasattr(module, name)] == []
