"""The ``troupe`` command, run as a real subprocess against the bundled demo server.

What the docs show (docs/cli.md: the demo tour, check's table and its failed servers, a configuration error,
call's output and exit statuses) is checked by tests/unit/test_docs_cli.py, which runs those examples."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_troupe import __version__
from mcp_troupe.cli import UsageError, format_table, parse_arguments_json

pytestmark = pytest.mark.timeout(60)

RUN_TIMEOUT = 45.0
DEMO_TOOL_COUNT = 9
TROUPE_SCRIPT = Path(sys.executable).parent / "troupe"


def run_troupe(
    *args: str, cwd: Path, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m mcp_troupe.cli ARGS`` in ``cwd``; never a traceback, whatever the exit status."""
    environment = {key: value for key, value in os.environ.items() if key != "TROUPE_CONFIG"}
    environment.update(env or {})
    completed = subprocess.run(
        [sys.executable, "-m", "mcp_troupe.cli", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        timeout=RUN_TIMEOUT,
    )
    assert "Traceback" not in completed.stderr, completed.stderr
    return completed


def write_config(
    directory: Path,
    servers: dict[str, list[str]],
    *,
    max_attempts: int | None = None,
    approval: str | None = "auto",
) -> Path:
    """Write a troupe.yaml whose servers run this Python with the given arguments (JSON is valid YAML).

    ``approval`` is permissions.approval.mode: auto unless a test is about approval itself.
    """
    section: dict[str, Any] = {
        "mcp_servers": {name: {"command": sys.executable, "args": args} for name, args in servers.items()}
    }
    if max_attempts is not None:
        section["mcp"] = {"reconnect": {"max_attempts": max_attempts}}
    document: dict[str, Any] = {"tools": section}
    if approval is not None:
        document["permissions"] = {"approval": {"mode": approval}}
    path = directory / "troupe.yaml"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


@pytest.fixture
def demo_config(tmp_path: Path) -> Path:
    return write_config(tmp_path, {"demo": ["-m", "mcp_troupe.demo"]})


# ---- troupe demo -------------------------------------------------------------------------------------------


def test_demo_json_is_one_document_with_the_calls_and_their_results(tmp_path: Path) -> None:
    completed = run_troupe("demo", "--json", cwd=tmp_path)

    assert completed.returncode == 0, completed.stderr
    document = json.loads(completed.stdout)
    assert document["server"]["state"] == "ready"
    names = [tool["name"] for tool in document["tools"]]
    # The demo's own tools, then the built-ins that reach its resources and prompts.
    assert len(names) == DEMO_TOOL_COUNT + 2
    assert names[-2:] == ["mcp_resources", "mcp_prompts"]
    results = {call["tool"]: call["result"] for call in document["calls"]}
    assert results["mcp__demo__echo"]["text"] == "hello from troupe"
    assert results["mcp__demo__add"]["structured"] == {"sum": 5}
    assert results["mcp__demo__fail"]["is_error"] is True
    assert document["stopped"] is True


@pytest.mark.skipif(
    not TROUPE_SCRIPT.exists(), reason="the troupe script is not installed beside this Python"
)
def test_the_installed_troupe_script_runs(tmp_path: Path) -> None:
    completed = subprocess.run(
        [str(TROUPE_SCRIPT), "demo"], cwd=tmp_path, capture_output=True, text=True, timeout=RUN_TIMEOUT
    )

    assert completed.returncode == 0, completed.stderr
    assert "hello from troupe" in completed.stdout


# ---- troupe check and status -------------------------------------------------------------------------------


def test_check_exits_2_when_the_config_file_is_missing(tmp_path: Path) -> None:
    completed = run_troupe("check", cwd=tmp_path)

    assert completed.returncode == 2
    assert completed.stderr.strip() == "troupe: error: troupe.yaml: configuration file not found"


def test_status_reads_troupe_config_and_exits_0_with_a_failed_server(tmp_path: Path) -> None:
    config = write_config(
        tmp_path, {"crashy": ["-m", "mcp_troupe.demo", "--exit-at-start", "1"]}, max_attempts=0
    )

    completed = run_troupe("status", "--json", cwd=tmp_path, env={"TROUPE_CONFIG": str(config)})

    assert completed.returncode == 0, completed.stderr
    [server] = json.loads(completed.stdout)["servers"]
    assert (server["name"], server["state"]) == ("crashy", "failed")


# ---- troupe tools ------------------------------------------------------------------------------------------


def test_tools_json_has_every_field_with_risk_as_a_name(tmp_path: Path, demo_config: Path) -> None:
    completed = run_troupe("tools", "--json", "-c", str(demo_config), cwd=tmp_path)

    assert completed.returncode == 0, completed.stderr
    tools = {tool["name"]: tool for tool in json.loads(completed.stdout)}
    echo = tools["mcp__demo__echo"]
    assert echo["risk"] == "exec"
    assert (echo["original_name"], echo["server"], echo["ready"]) == ("echo", "demo", True)
    assert echo["input_schema"]["required"] == ["text"]


# ---- troupe call -------------------------------------------------------------------------------------------


def test_call_reads_arguments_from_standard_input_and_prints_json(tmp_path: Path, demo_config: Path) -> None:
    completed = run_troupe(
        "call",
        "mcp__demo__add",
        "--args",
        "-",
        "--json",
        "-c",
        str(demo_config),
        cwd=tmp_path,
        stdin='{"a": 2, "b": 3}',
    )

    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    assert (result["text"], result["is_error"], result["structured"]) == ("5", False, {"sum": 5})
    assert result["raw"]["structuredContent"] == {"sum": 5}


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        (
            '{"a": 2,',
            "is not valid JSON: Expecting property name enclosed in double quotes at line 1, column 9",
        ),
        ("[2, 3]", "must be a JSON object, got an array"),
    ],
)
def test_call_exits_2_on_arguments_that_are_not_a_json_object(
    tmp_path: Path, arguments: str, reason: str
) -> None:
    completed = run_troupe("call", "mcp__demo__add", "--args", arguments, cwd=tmp_path)

    assert completed.returncode == 2
    assert reason in completed.stderr
    assert len(completed.stderr.splitlines()) == 1


def test_call_of_an_unknown_tool_exits_1(tmp_path: Path, demo_config: Path) -> None:
    completed = run_troupe("call", "mcp__demo__nope", "-c", str(demo_config), cwd=tmp_path)

    assert completed.returncode == 1
    assert "troupe: error: unknown tool 'mcp__demo__nope'" in completed.stderr


# ---- the command line itself -------------------------------------------------------------------------------


def test_version_prints_the_package_version(tmp_path: Path) -> None:
    completed = run_troupe("--version", cwd=tmp_path)

    assert (completed.returncode, completed.stdout.strip()) == (0, f"troupe {__version__}")


def test_no_command_exits_2_with_the_usage(tmp_path: Path) -> None:
    completed = run_troupe(cwd=tmp_path)

    assert completed.returncode == 2
    assert completed.stderr.startswith("usage: troupe")


# ---- pure helpers ------------------------------------------------------------------------------------------


def test_format_table_aligns_columns_two_spaces_apart() -> None:
    lines = format_table(("NAME", "N"), [("a", "10"), ("long-name", "2")])

    assert lines == ["NAME       N", "a          10", "long-name  2"]


def test_arguments_come_from_a_file_when_prefixed_with_at(tmp_path: Path) -> None:
    path = tmp_path / "args.json"
    path.write_text('{"text": "from a file"}', encoding="utf-8")

    assert parse_arguments_json(f"@{path}") == {"text": "from a file"}
    assert parse_arguments_json("-", stdin=io.StringIO("{}")) == {}
    assert parse_arguments_json(None) == {}
    with pytest.raises(UsageError, match="cannot read"):
        parse_arguments_json(f"@{tmp_path / 'missing.json'}")


# ---- approval ---------------------------------------------------------------------------------------------


def test_call_of_an_exec_tool_without_a_terminal_fails_saying_how_to_approve(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"demo": ["-m", "mcp_troupe.demo"]}, approval=None)  # the default: ask

    refused = run_troupe(
        "call", "mcp__demo__echo", "--args", '{"text": "x"}', "-c", str(config), cwd=tmp_path
    )
    approved = run_troupe(
        "call", "mcp__demo__echo", "--args", '{"text": "ok"}', "--yes", "-c", str(config), cwd=tmp_path
    )

    assert refused.returncode == 1
    assert "needs approval" in refused.stderr and "--yes" in refused.stderr
    assert (approved.returncode, approved.stdout.strip()) == (0, "ok")
