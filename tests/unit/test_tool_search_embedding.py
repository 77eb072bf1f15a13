"""Tool search's optional embedding model: loaded from the installed package only, hybrid with the words."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_troupe.search import embedding
from mcp_troupe.search.embedding import EmbeddingUnavailable, load_embedder
from mcp_troupe.search.ranking import ToolDocument, ToolIndex

pytest.importorskip("wordllama")
numpy = pytest.importorskip("numpy")


def doc(server: str, name: str, description: str) -> ToolDocument:
    return ToolDocument(key=f"{server}/{name}", server=server, name=name, description=description)


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Any connection attempt fails the test: the model must come from the package's own files."""

    def refuse(*_args: Any, **_kwargs: Any) -> None:
        raise AssertionError("the embedding model tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    embedding._load_bundled.cache_clear()
    yield
    embedding._load_bundled.cache_clear()


def test_the_model_loads_from_the_package_without_the_network(no_network: None) -> None:
    embedder = load_embedder("on")
    assert embedder is not None
    rows = numpy.asarray(embedder.embed(["take a screenshot of the page", "delete the branch"]))
    assert rows.shape == (2, 256)
    assert numpy.allclose(numpy.linalg.norm(rows.astype(numpy.float32), axis=1), 1.0, atol=1e-2)
    assert load_embedder("off") is None


def test_on_without_the_package_is_an_error_that_names_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedding, "_package_dir", lambda: None)
    embedding._load_bundled.cache_clear()
    assert load_embedder("auto") is None
    with pytest.raises(
        EmbeddingUnavailable, match=r"tools\.mcp\.tool_search\.embeddings.*mcp-troupe\[search\]"
    ):
        load_embedder("on")


class Fake:
    """A stand-in model: a text's vector says which of a few meanings it is nearest to."""

    meanings = ("picture screen screenshot", "remove delete erase", "money pay invoice")

    def embed(self, texts: Sequence[str]) -> Any:
        rows = []
        for text in texts:
            words = set(text.lower().replace("_", " ").split())
            row = [len(words & set(meaning.split())) + 0.01 for meaning in self.meanings]
            rows.append(row)
        matrix = numpy.asarray(rows, dtype=numpy.float32)
        return matrix / numpy.linalg.norm(matrix, axis=1, keepdims=True)


def test_the_hybrid_finds_by_meaning_and_stays_in_step_with_the_servers() -> None:
    index = ToolIndex(Fake())
    index.replace_server("a", [doc("a", "capture", "Grab the screen"), doc("a", "drop_row", "Erase a row")])
    index.replace_server("b", [doc("b", "bill", "Charge a customer")])
    assert index.search("picture", 1)[0][0] == "a/capture"  # no shared word, the model decides
    assert index.search("pay", 1)[0][0] == "b/bill"
    index.replace_server("b", [])  # the server went away: its tool is never returned
    assert "b/bill" not in [key for key, _ in index.search("pay money invoice", 5)]
    index.replace_server("b", [doc("b", "invoice_send", "Send an invoice")])
    assert index.search("pay money", 1)[0][0] == "b/invoice_send"
    assert [key for key, _ in index.search("picture", 5, allowed=lambda key: key != "a/capture")] != [
        "a/capture"
    ]


def test_a_model_that_fails_to_load_leaves_the_ranking_lexical(caplog: pytest.LogCaptureFixture) -> None:
    def broken() -> None:
        raise EmbeddingUnavailable("tools.mcp.tool_search.embeddings is on, but the files are missing")

    index = ToolIndex(load_embedder=broken)
    index.replace_server("s", [doc("s", "read_file", "Read a file"), doc("s", "write_file", "Write")])
    with caplog.at_level(logging.ERROR, logger="mcp_troupe.search.ranking"):
        assert index.search("read a file", 1)[0][0] == "s/read_file"
        assert index.search("write a file", 1)[0][0] == "s/write_file"
    assert [record.getMessage() for record in caplog.records].count(
        "tool search stays lexical: tools.mcp.tool_search.embeddings is on, but the files are missing"
    ) == 1


def test_the_loader_runs_only_at_the_first_search() -> None:
    calls = []

    def loader() -> Fake:
        calls.append(1)
        return Fake()

    index = ToolIndex(load_embedder=loader)
    index.replace_server("s", [doc("s", "capture", "Grab the screen")])
    assert calls == []
    index.search("picture", 1)
    index.search("picture", 1)
    assert calls == [1]


@pytest.mark.parametrize("query", ["", "   ", "\x00\x01", "🙂", "a" * 5000])
def test_a_need_the_model_cannot_read_gives_no_nan_and_no_noise(query: str) -> None:
    embedder = load_embedder("on")
    index = ToolIndex(embedder)
    index.replace_server("s", [doc("s", "read_file", "Read a file"), doc("s", "x", "")])
    results = index.search(query, 5)
    assert all(score > 0 and score == score for _, score in results)  # no NaN, no zero-score filler
    assert index.search("", 5) == []


@given(st.text(max_size=300), st.text(max_size=60))
@settings(max_examples=60, deadline=None)
def test_any_need_over_any_tool_gives_finite_positive_scores(query: str, name: str) -> None:
    for index in (ToolIndex(), ToolIndex(Fake())):
        index.replace_server("s", [doc("s", name or "x", query[::-1]), doc("s", "read_file", "Read a file")])
        for _, score in index.search(query, 5):
            assert 0 < score < float("inf")
