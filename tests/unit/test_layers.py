"""The layering DESIGN §1 asks for, read off the source: pure layers import no actor, and nothing imports in
a circle at module level."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[2] / "src" / "mcp_troupe"


def module_name(path: Path) -> str:
    return ".".join(("mcp_troupe", *path.relative_to(SOURCE).with_suffix("").parts)).removesuffix(".__init__")


MODULES = {module_name(path): path for path in SOURCE.rglob("*.py")}


def imports_of(path: Path, *, module_level_only: bool) -> set[str]:
    """The mcp_troupe modules ``path`` imports (TYPE_CHECKING blocks left out)."""
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names if alias.name in MODULES)
            elif isinstance(node, ast.ImportFrom) and node.module:
                candidates = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
                found.update(name for name in candidates if name in MODULES)
            elif isinstance(node, (ast.If, ast.Try)) or not module_level_only:
                for field in ("body", "orelse", "finalbody"):
                    visit(getattr(node, field, None) or [])
                for handler in getattr(node, "handlers", None) or []:
                    visit(handler.body)

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return found - {module_name(path)}


@pytest.mark.parametrize(
    "name",
    sorted(
        name
        for name in MODULES
        if name.startswith(("mcp_troupe.protocol", "mcp_troupe.policy"))
        or name in ("mcp_troupe.builtin_tools", "mcp_troupe._builtin_specs")
    ),
)
def test_pure_layers_and_the_builtin_tools_import_no_actor(name: str) -> None:
    actors = {
        m for m in imports_of(MODULES[name], module_level_only=False) if m.startswith("mcp_troupe.actors")
    }

    assert actors == set(), f"{name} imports {sorted(actors)}"


def test_the_backoff_policy_is_pure() -> None:
    source = MODULES["mcp_troupe.actors.backoff"].read_text(encoding="utf-8")
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")])
    }
    assert imported <= {"__future__", "collections", "dataclasses"}, imported


def test_no_module_imports_itself_in_a_circle_at_module_level() -> None:
    graph = {name: imports_of(path, module_level_only=True) for name, path in MODULES.items()}
    cycles = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                walk(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            walk(node)
    assert cycles == []
