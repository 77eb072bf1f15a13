"""mcp_tool_search and Troupe.search_tools against a real server (the demo), with tool_search on."""

from __future__ import annotations

import sys
import threading
import time
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
    # The model loads in the background; until it is ready the ranking is lexical (two tools match).
    deadline = time.monotonic() + 30
    while True:
        found = [spec.name for spec in troupe.search_tools("give back the same string", limit=3)]
        if len(found) == 3 or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert found[0] in ("mcp__demo__echo", "mcp__pinned__echo")
    # The words alone match one tool; the model ranks every tool, so the limit is filled.
    assert len(found) == 3


def test_loading_the_model_never_stalls_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model's load runs off the registry's thread: while it is held up, searches answer at once
    (by words alone) and so does everything else; once it is done, the ranking is hybrid."""
    from mcp_troupe.actors import registry_search

    release, started = threading.Event(), threading.Event()
    loader_threads = []

    def slow_loader(mode: str) -> object:
        loader_threads.append(threading.current_thread().name)
        started.set()
        assert release.wait(20), "the test never released the model"
        return _Meaning()

    monkeypatch.setattr(registry_search, "load_embedder", slow_loader)
    demo = {"command": sys.executable, "args": ["-m", "mcp_troupe.demo"]}
    config = parse_config(
        {
            "tools": {"mcp": {"tool_search": {"mode": "on"}}, "mcp_servers": {"demo": demo}},
            "permissions": {"approval": {"mode": "auto"}},
        }
    )
    try:
        with Troupe(config) as troupe:
            assert troupe.wait_ready(timeout=30)
            assert started.wait(10)  # readiness indexed the catalog and started the load
            began = time.monotonic()
            lexical = [spec.original_name for spec in troupe.search_tools("add two numbers", limit=5)]
            assert troupe.tools() and time.monotonic() - began < 2.0  # not ~20 s behind the loader
            assert lexical[0] == "add"
            assert troupe.search_tools("zzz meaningful", limit=5) == []  # lexical: no word matches
            release.set()
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                found = [spec.original_name for spec in troupe.search_tools("zzz meaningful", limit=5)]
                if found:  # no word matches: only the model's vectors can find anything
                    break
                time.sleep(0.05)
            assert found and found[0] == "echo"
    finally:
        release.set()
    assert loader_threads == ["troupe-tool-search-model"]


class _Meaning:
    """A stand-in model: every text near the echo tool's meaning, so any need finds it."""

    def embed(self, texts: list[str]) -> object:
        numpy = pytest.importorskip("numpy")
        rows = [[1.0, 0.1] if "echo" in text.lower() else [0.1, 1.0] for text in texts]
        matrix = numpy.asarray(rows, dtype=numpy.float32)
        if texts and "meaningful" in texts[0]:
            matrix = numpy.asarray([[1.0, 0.0]] * len(texts), dtype=numpy.float32)
        return matrix / numpy.linalg.norm(matrix, axis=1, keepdims=True)


def test_an_mcp_apps_app_only_tool_is_never_found_for_the_model() -> None:
    from mcp_troupe.actors.registry_search import ToolSearch
    from mcp_troupe.types import ToolSpec

    config = parse_config({"tools": {"mcp": {"tool_search": {"mode": "on", "embeddings": "off"}}}})
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    table = {
        spec.name: spec
        for spec in (
            ToolSpec("mcp__w__forecast", "forecast", "w", "Weather forecast for a city", schema),
            ToolSpec(
                "mcp__w__forecast_refresh",
                "forecast_refresh",
                "w",
                "Weather forecast for a city, refreshed for the forecast view",
                schema,
                meta={"ui": {"resourceUri": "ui://w/forecast", "visibility": ["app"]}},
            ),
        )
    }
    search = ToolSearch(
        config,
        table=lambda: table,
        entries_of=lambda server: list(table.values()),
        is_ready=lambda server: True,
        schedule=lambda: None,
    )
    search.reindex(["w"])

    assert [spec.name for spec in search.search("weather forecast for a city", 5)] == ["mcp__w__forecast"]
