"""The two OAuth import knots of issue 12 stay untied: read from the sources, function-level imports included.

- ``actors/oauth.py`` ↔ ``actors/supervisor.py``: the supervisor starts the flow; the flow reports with a
  message from ``actors/oauth_events.py`` and never imports the supervisor back.
- ``cli/`` → ``actors.oauth``: the CLI's login, logout and status go through the public ``mcp_troupe.auth``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "src" / "mcp_troupe"


def imported_modules(relative: str) -> set[str]:
    """Every ``mcp_troupe.*`` module that ``relative`` imports anywhere (top level or inside functions)."""
    tree = ast.parse((SOURCE / relative).read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.startswith("mcp_troupe")}


def test_the_oauth_flow_does_not_import_its_supervisor() -> None:
    for module in ("actors/oauth.py", "actors/oauth_bearer.py", "actors/oauth_drive.py"):
        assert "mcp_troupe.actors.supervisor" not in imported_modules(module), module
    assert "mcp_troupe.actors.supervisor" not in imported_modules("actors/oauth_events.py")
    assert "mcp_troupe.actors.oauth" not in imported_modules("actors/oauth_events.py")


def test_the_supervisor_takes_the_auth_message_from_the_neutral_module() -> None:
    from mcp_troupe.actors import oauth_events, supervisor

    assert supervisor.AuthStateChanged is oauth_events.AuthStateChanged


def test_the_cli_reaches_oauth_only_through_the_public_auth_module() -> None:
    cli_imports: set[str] = set()
    for module in sorted((SOURCE / "cli").glob("*.py")):
        cli_imports |= imported_modules(f"cli/{module.name}")

    assert not {name for name in cli_imports if name.startswith("mcp_troupe.actors.oauth")}
    assert "mcp_troupe.auth" in cli_imports


def test_the_pure_oauth_modules_import_no_actor_and_not_each_other_in_a_circle() -> None:
    assert "mcp_troupe.protocol.oauth" not in imported_modules("protocol/oauth_model.py")
    assert "mcp_troupe.protocol.oauth" not in imported_modules("protocol/oauth_tokens.py")
    assert "mcp_troupe.protocol.oauth_tokens" not in imported_modules("protocol/oauth_model.py")
    for part in ("protocol/oauth_discovery.py", "protocol/oauth_registration.py"):
        assert "mcp_troupe.protocol.oauth" not in imported_modules(part), part
    for module in (
        "protocol/oauth.py",
        "protocol/oauth_discovery.py",
        "protocol/oauth_model.py",
        "protocol/oauth_registration.py",
        "protocol/oauth_tokens.py",
        "protocol/jose.py",
    ):
        assert not {name for name in imported_modules(module) if name.startswith("mcp_troupe.actors")}, module


def test_an_http_connection_without_oauth_loads_none_of_the_oauth_modules() -> None:
    # Issue 18: the OAuth model, JOSE, PyJWT and cryptography cost ~90-150 ms of CPU to import, paid by the
    # first HTTP connect of every process; only OAuth's challenge path needs them. A fresh interpreter,
    # since this one may have them loaded already.
    probe = (
        "import sys, mcp_troupe.actors.http, mcp_troupe.actors.supervisor; "
        "print(sorted(m for m in ('mcp_troupe.protocol.oauth', 'mcp_troupe.protocol.jose', 'jwt', "
        "'cryptography') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
