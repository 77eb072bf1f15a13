"""mcp_tool_search and Troupe.search_tools against a real server (the demo), with tool_search on."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from mcp_troupe import Troupe, parse_config
from mcp_troupe.builtin_tools import SEARCH_TOOL


@pytest.fixture(scope="module")
def troupe() -> Iterator[Troupe]:
    demo = {"command": sys.executable, "args": ["-m", "mcp_troupe.demo"]}
    config = parse_config(
        {
            "tools": {
                "mcp": {"tool_search": {"mode": "on"}},
                "mcp_servers": {"demo": demo, "pinned": {**demo, "always_load": True}},
            },
            "permissions": {"approval": {"mode": "auto"}},
        }
    )
    with Troupe(config) as started:
        assert started.wait_ready(timeout=30)
        yield started


def test_tools_lists_the_always_loaded_tools_and_the_search_tool_only(troupe: Troupe) -> None:
    names = [spec.name for spec in troupe.tools()]
    assert SEARCH_TOOL in names
    assert "mcp__pinned__echo" in names and "mcp__demo__echo" not in names


def test_the_search_tool_finds_a_hidden_tool_that_is_then_callable(troupe: Troupe) -> None:
    result = troupe.call(SEARCH_TOOL, {"query": "say my text back to me", "limit": 3})
    found = [tool["name"] for tool in result.structured["tools"]]
    assert "mcp__demo__echo" in found and len(found) <= 3
    assert set(result.structured["tools"][0]) == {"name", "description", "input_schema"}
    assert '"tools"' in result.text
    assert troupe.call("mcp__demo__echo", {"text": "hi"}).text == "hi"


def test_search_tools_gives_the_same_ranking_to_python(troupe: Troupe) -> None:
    specs = troupe.search_tools("add two numbers", limit=2)
    assert specs and specs[0].original_name == "add" and all(spec.ready for spec in specs)


def test_bad_search_arguments_are_a_tool_error_that_says_what_is_wrong(troupe: Troupe) -> None:
    result = troupe.call(SEARCH_TOOL, {"query": "", "limit": 99})
    assert result.is_error and "'query' is required" in result.text
    assert troupe.call(SEARCH_TOOL, {"query": "x", "limit": 0}).is_error


def test_a_stopped_server_has_no_tools_in_the_search(troupe: Troupe) -> None:
    troupe.stop_server("demo")
    try:
        assert all(spec.server != "demo" for spec in troupe.search_tools("echo text", limit=10))
    finally:
        troupe.start_server("demo")
        troupe.wait_ready(timeout=30)


def test_an_unknown_tool_name_gets_the_nearest_names(troupe: Troupe) -> None:
    from mcp_troupe import UnknownTool

    with pytest.raises(UnknownTool, match="did you mean 'mcp__demo__echo'"):
        troupe.call("mcp__demo__ecko", {"text": "hi"})


def test_the_embeddings_setting_is_read_and_checked() -> None:
    from mcp_troupe.errors import ConfigError

    assert parse_config({}).tool_search.embeddings == "auto"
    config = parse_config({"tools": {"mcp": {"tool_search": {"mode": "on", "embeddings": "off"}}}})
    assert config.tool_search.embeddings == "off"
    with pytest.raises(ConfigError, match="embeddings"):
        parse_config({"tools": {"mcp": {"tool_search": {"embeddings": "sometimes"}}}})


def test_search_tools_is_hybrid_with_the_model_installed(troupe: Troupe) -> None:
    pytest.importorskip("wordllama")  # embeddings: auto, so the registry's index mixes in the model
    found = [spec.name for spec in troupe.search_tools("give back the same string", limit=3)]
    assert found[0] in ("mcp__demo__echo", "mcp__pinned__echo")
    # The words alone match one tool; the model ranks every tool, so the limit is filled.
    assert len(found) == 3
