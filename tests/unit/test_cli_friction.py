"""Issue 17, "CLI and docs friction": each rough edge a new user hit, as a behaviour of ``troupe``.

The pure parts (which servers a name needs, the --strict rules, the wording of hints) are tested as functions;
what only a real run shows (which processes start, how long a failing call takes, the example configuration
outside the venv's PATH) runs ``python -m mcp_troupe.cli`` as a subprocess.
"""

from __future__ import annotations

import dataclasses
import io
import json
import logging
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe import (
    ApprovalRequired,
    ServerState,
    ServerStatus,
    ToolResult,
    ToolSpec,
    TroupeConfig,
    UnknownTool,
    load_config,
    stdio_server,
)
from mcp_troupe.cli import configure_logging, main
from mcp_troupe.cli.calls import (
    approval_error,
    approval_message,
    config_for_call,
    servers_for_tool,
    unknown_tool_error,
)
from mcp_troupe.cli.commands import cli_wording, listing_texts, strict_problems
from mcp_troupe.cli.output import plural
from mcp_troupe.interpreter import resolve_command

pytestmark = pytest.mark.timeout(60)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "troupe.yaml"


def run_troupe(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("TROUPE_")}
    environment.update(env or {})
    completed = subprocess.run(
        [sys.executable, "-m", "mcp_troupe.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=environment,
        timeout=45,
        stdin=subprocess.DEVNULL,
    )
    assert "Traceback" not in completed.stderr, completed.stderr
    return completed


def config_of(*names: str) -> TroupeConfig:
    return TroupeConfig(servers={name: stdio_server(name, sys.executable) for name in names})


def status(
    name: str, state: ServerState, *, error: str | None = None, tail: tuple[str, ...] = ()
) -> ServerStatus:
    return ServerStatus(
        name=name,
        transport="stdio",
        state=state,
        attempts=1 if error else 0,
        last_error=error,
        stderr_tail=tail,
    )


# ---- which servers a call starts ---------------------------------------------------------------------------


def test_a_qualified_name_needs_only_its_own_server() -> None:
    config = config_of("demo", "search", "fs.local")

    assert servers_for_tool(config, "mcp__demo__echo") == ("demo",)
    assert servers_for_tool(config, "mcp__fs_local__read") == (
        "fs.local",
    )  # sanitised, as names.qualify does
    assert list(config_for_call(config, "mcp__search__find").servers) == ["search"]


def test_a_name_two_server_prefixes_share_starts_both() -> None:
    config = config_of("a", "a__b", "c")

    assert servers_for_tool(config, "mcp__a__b__x") == ("a", "a__b")


@pytest.mark.parametrize("name", ["mcp_resources", "mcp_prompts", "mcp_tool_search", "echo"])
def test_a_builtin_or_a_bare_name_starts_every_server(name: str) -> None:
    config = config_of("demo", "search")

    assert config_for_call(config, name) is config


def test_a_server_part_no_server_has_fails_before_anything_starts_with_the_nearest_name() -> None:
    with pytest.raises(
        UnknownTool, match=r"no configured server is named 'dmeo'; did you mean 'mcp__demo__echo'\?"
    ):
        config_for_call(config_of("demo", "search"), "mcp__dmeo__echo")
    with pytest.raises(
        UnknownTool, match=r"no configured server is named 'zzz' \(configured: demo, search\)"
    ):
        config_for_call(config_of("demo", "search"), "mcp__zzz__echo")


def test_a_bare_tool_name_suggests_the_qualified_names_that_have_it() -> None:
    specs = [
        ToolSpec("mcp__demo__echo", "echo", "demo", "", {"type": "object"}),
        ToolSpec("mcp__two__echo", "echo", "two", "", {"type": "object"}),
    ]

    error = unknown_tool_error(UnknownTool("echo"), [status("demo", ServerState.READY)], specs)

    assert str(error) == "unknown tool 'echo': did you mean 'mcp__demo__echo' or 'mcp__two__echo'?"


def test_an_unknown_tool_names_each_server_that_is_not_ready_with_its_stderr_tail() -> None:
    failed = status("crashy", ServerState.FAILED, error="connect failed: exited with code 3", tail=("boom",))

    error = str(unknown_tool_error(UnknownTool("mcp__crashy__x"), [failed]))

    assert "server 'crashy' failed to connect" in error
    assert "last error: connect failed: exited with code 3" in error
    assert error.endswith("stderr (last lines):\n    boom")


def test_call_starts_only_the_server_its_tool_belongs_to(tmp_path: Path) -> None:
    # `other` leaves a file behind when it starts: the call to demo must not start it; a call to it does.
    marker = tmp_path / "other-started"
    other = [
        "-c",
        f"open({str(marker)!r}, 'w').close(); import runpy; "
        "runpy.run_module('mcp_troupe.demo', run_name='__main__')",
    ]
    document = {
        "permissions": {"approval": {"mode": "auto"}},
        "tools": {
            "mcp_servers": {
                "demo": {"command": sys.executable, "args": ["-m", "mcp_troupe.demo"]},
                "other": {"command": sys.executable, "args": other},
            }
        },
    }
    (tmp_path / "troupe.yaml").write_text(json.dumps(document), encoding="utf-8")

    to_demo = run_troupe("call", "mcp__demo__echo", "--args", '{"text": "hi"}', cwd=tmp_path)
    assert (to_demo.returncode, to_demo.stdout) == (0, "hi\n")
    assert not marker.exists()

    to_other = run_troupe("call", "mcp__other__echo", "--args", '{"text": "yo"}', cwd=tmp_path)
    assert (to_other.returncode, to_other.stdout) == (0, "yo\n")
    assert marker.exists()


@pytest.mark.slow
def test_a_call_to_a_crashing_server_fails_at_once_with_its_stderr_not_after_the_retries(
    tmp_path: Path,
) -> None:
    # The default reconnect policy (5 retries, 1+2+4+8+16 s) would hold the call ~31 s before this change.
    args = ["-m", "mcp_troupe.demo", "--stderr-lines", "1", "--exit-at-start", "3"]
    document = {"tools": {"mcp_servers": {"crashy": {"command": sys.executable, "args": args}}}}
    (tmp_path / "troupe.yaml").write_text(json.dumps(document), encoding="utf-8")

    started = time.monotonic()
    completed = run_troupe("call", "mcp__crashy__echo", "--yes", cwd=tmp_path)
    elapsed = time.monotonic() - started

    assert completed.returncode == 1
    assert elapsed < 10, elapsed
    assert "cannot call 'mcp__crashy__echo': server 'crashy' failed to connect" in completed.stderr
    assert "does not wait for its retries" in completed.stderr
    assert "demo: starting line 1" in completed.stderr
    assert "exited with code 3" in completed.stderr


# ---- approval ----------------------------------------------------------------------------------------------


def denied(tool: str) -> ApprovalRequired:
    # The registry's wording: why, then ", and no approver is installed: <how, for library users>".
    return ApprovalRequired(
        tool,
        f"{tool!r} is exec: needs approval once for this process, and no approver is installed: pass"
        " approver= to Troupe (troupe call: answer the prompt or use --yes; ...), or set"
        " permissions.approval.mode",
    )


def test_troupe_call_says_yes_or_a_terminal_and_drops_the_library_hint() -> None:
    message = str(approval_error(denied("mcp__demo__echo")))

    assert message.startswith("call to 'mcp__demo__echo' needs approval: 'mcp__demo__echo' is exec: needs")
    assert "pass --yes" in message and "terminal" in message
    assert "approver=" not in message and "troupe run" not in message


def test_troupe_ctl_call_says_the_manager_needs_troupe_run_yes_not_call_yes() -> None:
    message = approval_message("mcp__demo__echo", "'mcp__demo__echo' is exec", manager="/tmp/tr/c.sock")

    assert "the manager at /tmp/tr/c.sock has no approver: restart it with `troupe run --yes`" in message
    assert "--yes to approve every call of this command" not in message


# ---- check --strict ----------------------------------------------------------------------------------------


def test_strict_fails_a_check_that_connected_nothing() -> None:
    off = dataclasses.replace(stdio_server("off", sys.executable), enabled=False)
    config = TroupeConfig(servers={"off": off})

    problems = strict_problems(config, [status("off", ServerState.SKIPPED, error="enabled: false")])

    assert problems == ["no server is ready, so nothing was checked"]
    assert strict_problems(TroupeConfig(servers={}, source="x.yaml"), []) == [
        "no server is ready, so nothing was checked (no servers configured in x.yaml)"
    ]


def test_strict_fails_a_server_skipped_by_policy_but_not_one_switched_off() -> None:
    config = config_of("web", "demo")
    statuses = [
        status("web", ServerState.SKIPPED, error="an HTTP server, and execution.networkPolicy is deny"),
        status("demo", ServerState.READY),
    ]

    assert strict_problems(config, statuses) == [
        "server 'web' was skipped: an HTTP server, and execution.networkPolicy is deny"
    ]
    assert (
        strict_problems(config, [status("web", ServerState.READY), status("demo", ServerState.READY)]) == []
    )


# ---- wording -----------------------------------------------------------------------------------------------


def test_hints_that_name_the_tools_arguments_name_the_commands_options() -> None:
    text = "several connected servers offer resources: a, b; say which one with server=<name>"

    assert cli_wording(text, "resources").endswith("say which one with --server NAME")


def test_a_more_line_becomes_the_command_that_prints_the_next_page() -> None:
    more = '{"action": "list", "server": "my srv", "cursor": "c1"}'
    text = f"Resources of server 'a' (1-50 of 60):\nMore: call mcp_resources with {more}"
    read = '[more: call mcp_resources with {"action": "read", "uri": "demo://x", "cursor": "c2"}]'

    last = cli_wording(text, "resources").splitlines()[-1]
    assert last == "More: troupe resources list --server 'my srv' --cursor c1"
    assert cli_wording(read, "resources") == "[More: troupe resources read --uri demo://x --cursor c2]"


@given(st.text())
def test_cli_wording_never_fails_on_server_text(text: str) -> None:
    worded = cli_wording(text, "prompts")
    if "server=<name>" not in text and "call mcp_" not in text:
        assert worded == text


def test_a_listing_of_several_servers_says_which_offer_nothing_and_does_not_fail() -> None:
    results: list[tuple[str | None, ToolResult]] = [
        ("demo", ToolResult(text="Resources of server 'demo' (1-1 of 1):\n{}", is_error=False)),
        (
            "bare",
            ToolResult(text="server 'bare' does not offer resources; servers offering ...", is_error=True),
        ),
    ]

    texts, failed = listing_texts(results, action="list", command="resources")

    assert texts[1] == "Server 'bare' offers no resources."
    assert not failed
    alone, failed_alone = listing_texts(results[1:], action="list", command="resources")
    assert failed_alone and alone[0].startswith("server 'bare' does not offer")


@pytest.mark.parametrize(("count", "text"), [(0, "0 servers"), (1, "1 server"), (2, "2 servers")])
def test_counts_have_the_right_plural(count: int, text: str) -> None:
    assert plural(count, "server") == text


def test_verbose_logs_start_with_a_utc_time_and_warnings_alone_stay_short(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    configure_logging(1)
    logging.getLogger("mcp_troupe.test").info("hello")
    configure_logging(0)
    logging.getLogger("mcp_troupe.test").warning("careful")

    verbose, quiet = stream.getvalue().splitlines()
    assert re.fullmatch(r"troupe: \d\d:\d\d:\d\d\.\d{3}Z INFO: mcp_troupe\.test: hello", verbose)
    assert quiet == "troupe: WARNING: mcp_troupe.test: careful"


# ---- the example configuration and `command: python` -------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "expected"),
    [("python", "/venv/bin/python"), ("python3", "/venv/bin/python"), ("python3.12", "python3.12"),
     ("/usr/bin/python3", "/usr/bin/python3"), ("node", "node"), ("Python", "Python")],
)  # fmt: skip
def test_bare_python_means_the_running_interpreter_and_nothing_else_does(command: str, expected: str) -> None:
    assert resolve_command(command, "/venv/bin/python") == expected


def test_without_a_known_interpreter_python_is_left_as_written() -> None:
    assert resolve_command("python", "") == "python"
    assert resolve_command("python") == sys.executable


def test_the_example_configuration_runs_out_of_the_box_outside_the_venv(tmp_path: Path) -> None:
    # No variable set, and a PATH without this venv: `command: python` must still find mcp_troupe.demo.
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    assert load_config(EXAMPLE, environ={}).servers["demo"].command == "python"

    completed = run_troupe("check", "--json", "-c", str(EXAMPLE), cwd=tmp_path, env=environment)

    assert completed.returncode == 0, completed.stderr
    document = json.loads(completed.stdout)
    states = {server["name"]: server["state"] for server in document["servers"]}
    assert states == {"demo": "ready", "search": "skipped"}
    assert document["ok"] is True


# ---- troupe login ------------------------------------------------------------------------------------------


def write_login_config(directory: Path, policy: str, url: str) -> Path:
    path = directory / "login.yaml"
    document = {
        "execution": {"networkPolicy": policy},
        "tools": {"mcp_servers": {"remote": {"url": url, "auth": "oauth"}}},
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


@pytest.fixture
def isolated_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(variable, str(tmp_path / variable.lower()))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))


def test_login_under_network_policy_deny_refuses_before_any_request(
    tmp_path: Path, isolated_store: None, capsys: pytest.CaptureFixture[str]
) -> None:
    # Port 9 on loopback: nothing listens, so a request would show up as a connection error instead.
    config = write_login_config(tmp_path, "deny", "http://127.0.0.1:9/mcp")

    status_code = main(["login", "remote", "--no-browser", "-c", str(config)])

    error = capsys.readouterr().err
    assert status_code == 1
    assert (
        "not logging in to server 'remote' (http://127.0.0.1:9/mcp): execution.networkPolicy is deny" in error
    )
    assert "ConnectError" not in error


def test_login_to_an_unreachable_server_names_the_server_and_the_address(
    tmp_path: Path, isolated_store: None, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_login_config(tmp_path, "allow", "http://127.0.0.1:9/mcp?key=secret-value")

    status_code = main(["login", "remote", "--no-browser", "-c", str(config)])

    error = capsys.readouterr().err.strip()
    assert status_code == 1
    assert error.startswith("troupe: error: server 'remote': ")
    assert "127.0.0.1:9" in error and "ConnectError: " in error
    assert not error.endswith("ConnectError")
    assert "secret-value" not in error


# ---- troupe run --------------------------------------------------------------------------------------------


ONE_TOOL_SERVER = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    if message["method"] == "initialize":
        result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "one", "version": "1"}}
    elif message["method"] == "tools/list":
        tool = {"name": "only", "description": "The one tool.", "inputSchema": {"type": "object"}}
        result = {"tools": [tool]}
    else:
        result = {}
    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
"""


def test_troupe_run_counts_one_server_and_one_tool_in_the_singular(tmp_path: Path) -> None:
    (tmp_path / "one_tool.py").write_text(ONE_TOOL_SERVER, encoding="utf-8")
    solo = {"command": sys.executable, "args": [str(tmp_path / "one_tool.py")]}
    document = {"tools": {"mcp_servers": {"solo": solo}}}
    (tmp_path / "troupe.yaml").write_text(json.dumps(document), encoding="utf-8")
    environment = {key: value for key, value in os.environ.items() if not key.startswith("TROUPE_")}
    manager = subprocess.Popen(
        [sys.executable, "-m", "mcp_troupe.cli", "run", "--no-view", "--socket", str(tmp_path / "c.sock")],
        cwd=tmp_path,
        env={**environment, "PYTHONUNBUFFERED": "1"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert manager.stdout is not None
        lines = [manager.stdout.readline() for _ in range(3)]
    finally:
        manager.terminate()
        manager.wait(timeout=20)

    assert lines[0] == "troupe: managing 1 server from troupe.yaml\n"
    assert lines[2].endswith(" solo connected (incarnation 1): 1 tool\n"), lines
