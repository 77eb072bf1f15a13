"""The README's tour runs as written: its YAML loads, and its Python block works against that config."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_troupe import load_config

README = Path(__file__).resolve().parents[2] / "README.md"


def block(language: str, starting: str) -> str:
    for match in re.finditer(rf"```{language}\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        if match.group(1).startswith(starting):
            return match.group(1)
    raise AssertionError(f"README.md has no {language} block starting with {starting!r}")


def write_config(directory: Path) -> Path:
    # `python` in the README means the interpreter that has mcp-troupe installed: this one.
    text = block("yaml", "# troupe.yaml").replace("command: python", f"command: {sys.executable}")
    path = directory / "troupe.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_readme_configuration_loads_with_the_documented_meaning(tmp_path: Path) -> None:
    config = load_config(write_config(tmp_path))
    assert config.servers["demo"].trust_level == "trusted"
    assert config.servers["remote"].auth == "oauth" and config.servers["remote"].transport == "http"
    assert (config.network_policy, config.approval_mode) == ("deny", "ask")


@pytest.mark.timeout(60)
def test_the_readme_python_tour_runs_against_that_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write_config(tmp_path)
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {}
    exec(
        compile(block("python", "from mcp_troupe import Troupe, load_config"), "README.md", "exec"), namespace
    )
    out = capsys.readouterr().out
    assert "5 {'sum': 5}" in out
    assert "mcp__demo__add read_only True" in out
    assert "state=<ServerState.SKIPPED: 'skipped'>" in out  # the OAuth server, while networkPolicy is deny
