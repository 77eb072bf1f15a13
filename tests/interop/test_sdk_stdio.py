"""mcp-troupe against the official MCP Python SDK's servers, over stdio.

Each test starts one real server process through the public ``Troupe`` API, waits for it to settle, and checks
what an agent would see: the tool table, call results, the negotiated protocol version, and that nothing is
left running afterwards.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from mcp_troupe import Troupe
from mcp_troupe.config import ReconnectPolicy, TroupeConfig, stdio_server
from mcp_troupe.protocol.versions import SUPPORTED
from mcp_troupe.types import ServerState, ServerStatus

pytestmark = [pytest.mark.interop, pytest.mark.timeout(60)]

READY_TIMEOUT = 30.0
PID_LINE = re.compile(r"\bpid (\d+)\b")


@contextmanager
def running(name: str, python: str, script: Path, *args: str) -> Iterator[Troupe]:
    """Run a troupe of one stdio server, ``python script *args``, that does not retry a failed connect."""
    config = TroupeConfig(
        approval_mode="auto",  # approval has its own tests (tests/faults/test_policy.py)
        servers={name: stdio_server(name, python, str(script), *args)},
        reconnect=ReconnectPolicy(initial_delay=0.1, max_delay=0.5, max_attempts=0),
    )
    with Troupe(config) as troupe:
        troupe.wait_ready(timeout=READY_TIMEOUT)
        yield troupe


def status_of(troupe: Troupe, name: str) -> ServerStatus:
    """Return the status of the server called ``name``."""
    (status,) = [s for s in troupe.status() if s.name == name]
    return status


def assert_ready(troupe: Troupe, name: str) -> ServerStatus:
    """Assert the server called ``name`` is ready, showing its last error and stderr if it is not."""
    status = status_of(troupe, name)
    detail = "\n".join((f"{name} is {status.state}: {status.last_error}", *status.stderr_tail))
    assert status.state is ServerState.READY, detail
    return status


# sdk_tools: the SDK's high-level MCPServer


@pytest.fixture
def tools_troupe(python: str, sdk_tools_script: Path) -> Iterator[Troupe]:
    with running("tools", python, sdk_tools_script) as troupe:
        assert_ready(troupe, "tools")
        yield troupe


def test_sdk_server_tools_are_listed_under_qualified_names(tools_troupe: Troupe) -> None:
    specs = {spec.name: spec for spec in tools_troupe.tools() if spec.server == "tools"}

    assert set(specs) == {f"mcp__tools__{tool}" for tool in ("add", "echo", "greet", "fail", "slow")}
    add = specs["mcp__tools__add"]
    assert (add.original_name, add.server, add.ready) == ("add", "tools", True)
    assert set(add.input_schema["properties"]) == {"a", "b"}


def test_a_tools_title_safe_icons_and_meta_reach_its_spec(tools_troupe: Troupe) -> None:
    add = next(spec for spec in tools_troupe.tools() if spec.name == "mcp__tools__add")

    assert add.title == "Add two numbers"
    # The javascript: icon is dropped; the https one is kept with its fields as the server sent them.
    icon = {"src": "https://example.com/icons/add.png", "mimeType": "image/png", "sizes": ["48x48"]}
    assert add.icons == (icon,)
    assert add.meta == {"ui": {"resourceUri": "ui://troupe/add"}}
    echo = next(spec for spec in tools_troupe.tools() if spec.name == "mcp__tools__echo")
    assert (echo.title, echo.icons, dict(echo.meta)) == (None, (), {})


def test_sdk_server_reports_its_tool_count_and_identity(tools_troupe: Troupe) -> None:
    status = status_of(tools_troupe, "tools")

    assert status.tool_count == 5
    assert status.server_info is not None
    assert status.server_info["name"] == "sdk-tools"
    assert status.transport == "stdio"


def test_add_answers_five_as_text_and_structured_content(tools_troupe: Troupe) -> None:
    result = tools_troupe.call("mcp__tools__add", {"a": 2, "b": 3})

    assert result.text == "5"
    assert not result.is_error
    # The SDK wraps an annotated scalar return as {"result": ...} and sends it as structuredContent,
    # which 2025-06-18 (the revision we request) carries.
    assert result.structured == {"result": 5}
    assert result.raw["structuredContent"] == {"result": 5}


def test_echo_returns_its_text_unchanged(tools_troupe: Troupe) -> None:
    result = tools_troupe.call("mcp__tools__echo", {"text": "héllo, wörld\nline two"})

    assert (result.text, result.is_error) == ("héllo, wörld\nline two", False)


def test_greet_uses_its_default_argument(tools_troupe: Troupe) -> None:
    assert tools_troupe.call("mcp__tools__greet", {}).text == "Hello, world!"
    assert tools_troupe.call("mcp__tools__greet", {"name": "troupe"}).text == "Hello, troupe!"


def test_a_raising_tool_gives_an_error_result_not_an_exception(tools_troupe: Troupe) -> None:
    result = tools_troupe.call("mcp__tools__fail", {})

    assert result.is_error
    assert "failed as asked" in result.text


def test_an_async_tool_answers_after_it_sleeps(tools_troupe: Troupe) -> None:
    result = tools_troupe.call("mcp__tools__slow", {"seconds": 0.05}, timeout=10)

    assert (result.text, result.is_error) == ("slept 0.05s", False)


# sdk_paged: the SDK's low-level Server with a paginated tools/list


def test_every_page_of_a_paginated_tool_list_is_read(python: str, sdk_paged_script: Path) -> None:
    expected = [f"mcp__paged__tool_{index:03d}" for index in range(250)]

    with running("paged", python, sdk_paged_script, "--tools", "250", "--page-size", "100") as troupe:
        assert_ready(troupe, "paged")
        specs = troupe.tools()
        results = {name: troupe.call(name, {}) for name in expected}

    assert sorted(spec.name for spec in specs) == expected  # exactly 250: no page lost, none read twice
    assert all(spec.ready and spec.server == "paged" for spec in specs)
    for name, result in results.items():
        assert (result.text, result.is_error) == (f"{name.removeprefix('mcp__paged__')} ok", False)


# sdk_version: protocol version negotiation


@pytest.mark.parametrize("version", ["2025-06-18", "2025-03-26", "2024-11-05"])
def test_a_server_answering_a_supported_version_connects_at_that_version(
    version: str, python: str, sdk_version_script: Path
) -> None:
    with running("versioned", python, sdk_version_script, "--version", version) as troupe:
        status = assert_ready(troupe, "versioned")
        result = troupe.call("mcp__versioned__ping_tool", {})

    assert status.protocol_version == version
    assert (result.text, result.is_error) == ("pong", False)


def test_a_server_answering_an_unknown_version_is_refused_and_leaves_no_process(
    python: str, sdk_version_script: Path, child_watch
) -> None:
    seen_pids: set[int] = set()

    with running("future", python, sdk_version_script, "--version", "2099-01-01") as troupe:
        status = status_of(troupe, "future")
        if status.pid is not None:
            seen_pids.add(status.pid)
        # The server writes "pid <n>" to stderr at start: the pid survives there after the client let go.
        seen_pids.update(int(match[1]) for line in status.stderr_tail if (match := PID_LINE.search(line)))
        tools = troupe.tools()

    mentions_why = status.last_error is not None and all(
        version in status.last_error for version in ("2099-01-01", *SUPPORTED)
    )
    assert status.state is ServerState.FAILED or mentions_why, (status.state, status.last_error)
    assert not [spec for spec in tools if spec.server == "future" and spec.ready]
    assert child_watch.wait_until_gone(seen_pids) == set(), "the refused server's process is still running"
    assert child_watch.wait_until_gone() == set(), "a process started by the troupe is still running"
