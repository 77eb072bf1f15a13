"""Tool search's optional embedding model: loaded from the installed package only, hybrid with the words."""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_troupe.search import embedding
from mcp_troupe.search.background import run_in_thread
from mcp_troupe.search.embedding import EmbeddingUnavailable, load_embedder
from mcp_troupe.search.ranking import INLINE_EMBEDDING, ToolDocument, ToolIndex

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


class Deferred:
    """A background that runs nothing until the test says so: what the index sees while work is pending."""

    def __init__(self) -> None:
        self.pending: list[tuple[Callable[[], Any], Future[Any]]] = []

    def __call__(self, work: Callable[[], Any]) -> Future[Any]:
        future: Future[Any] = Future()
        self.pending.append((work, future))
        return future

    def finish(self) -> None:
        pending, self.pending = self.pending, []
        for work, future in pending:
            try:
                future.set_result(work())
            except Exception as error:
                future.set_exception(error)


class Zed(Fake):
    """Fake, with a word no lexicon knows ("zzz") for the screen: only the model can find by it."""

    meanings = ("zzz capture grab screen", "remove delete erase drop", "money pay invoice")


def catalog() -> list[ToolDocument]:
    return [doc("a", "capture", "Grab the screen"), doc("a", "drop_row", "Erase a row"), doc("a", "x", "")]


def test_with_a_background_the_ranking_is_lexical_until_the_model_is_ready() -> None:
    background, calls = Deferred(), []

    def loader() -> Fake:
        calls.append(threading.current_thread().name)
        return Zed()

    index = ToolIndex(load_embedder=loader, background=background)
    lexical = ToolIndex()
    for each in (index, lexical):
        each.replace_server("a", catalog())
    index.warm_up()
    assert len(background.pending) == 1 and calls == []  # the load is handed over, not run here
    assert index.search("zzz", 3) == lexical.search("zzz", 3) == []  # no shared word
    assert index.search("erase a row", 3) == lexical.search("erase a row", 3)
    assert not index.is_hybrid and len(background.pending) == 1  # no second load while one is pending
    background.finish()
    assert index.search("zzz", 1)[0][0] == "a/capture"  # the model's result is picked up
    assert index.is_hybrid and calls == [threading.current_thread().name]


def test_a_big_catalog_change_is_embedded_in_the_background_and_a_small_one_at_once() -> None:
    background = Deferred()
    index = ToolIndex(load_embedder=Zed, background=background)
    index.replace_server("a", catalog())
    index.warm_up()
    background.finish()
    index.warm_up()
    assert index.is_hybrid
    index.replace_server("b", [doc("b", "bill", "Charge a customer")])  # small: embedded when searched
    assert index.search("pay", 1)[0][0] == "b/bill" and not background.pending
    big = [doc("c", f"pay_{n}", "money") for n in range(INLINE_EMBEDDING + 1)]
    index.replace_server("c", big)
    index.search("pay money", 1)
    assert len(background.pending) == 1 and not index.is_hybrid
    # While "c" is embedded elsewhere, one of its tools changes: its stale vector must not be kept.
    index.replace_server("c", [*big[1:], doc("c", "pay_0", "capture grab")])
    background.finish()
    index.search("zzz", 1)  # picks up the result, embeds the one changed tool here
    assert index.is_hybrid and not background.pending
    assert {key for key, _ in index.search("zzz", 2)} == {"a/capture", "c/pay_0"}  # its new meaning


def test_a_model_that_fails_in_the_background_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    def broken() -> None:
        raise EmbeddingUnavailable("tools.mcp.tool_search.embeddings is on, but the files are missing")

    background = Deferred()
    index = ToolIndex(load_embedder=broken, background=background)
    index.replace_server("s", [doc("s", "read_file", "Read a file")])
    with caplog.at_level(logging.ERROR, logger="mcp_troupe.search.ranking"):
        index.warm_up()
        background.finish()
        for _ in range(3):
            assert index.search("read a file", 1)[0][0] == "s/read_file"
    assert len(caplog.records) == 1 and "files are missing" in caplog.records[0].getMessage()
    assert not background.pending and not index.is_hybrid


def test_a_search_does_not_wait_for_a_slow_model_in_a_thread() -> None:
    release = threading.Event()

    def slow() -> Fake:
        assert release.wait(10)
        return Zed()

    index = ToolIndex(load_embedder=slow, background=run_in_thread)
    index.replace_server("a", catalog())
    try:
        began = time.monotonic()
        assert index.search("erase a row", 1)[0][0] == "a/drop_row"
        assert index.search("zzz", 1) == []
        assert time.monotonic() - began < 1.0
    finally:
        release.set()
    deadline = time.monotonic() + 10
    while not index.search("zzz", 1) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert index.search("zzz", 1)[0][0] == "a/capture" and index.is_hybrid


class Words(Fake):
    """Fake with word vectors: a word's vector is its meaning's, so single words can be matched."""

    vocabulary = ("zzz", "capture", "grab", "screen", "remove", "delete", "erase", "drop", "money", "pay")

    def token_ids(self, texts: Sequence[str]) -> list[Any]:
        result = []
        for text in texts:
            words = set(text.lower().replace("_", " ").replace(".", " ").split())
            result.append(
                numpy.asarray(sorted(self.vocabulary.index(w) for w in words if w in self.vocabulary))
            )
        return result

    def token_vectors(self, ids: Any) -> Any:
        return numpy.vstack([self.embed([self.vocabulary[int(i)]]) for i in ids])


class FlatWords(Words):
    """Words, but every whole text has the same vector: only the word-by-word match can tell tools apart."""

    meanings = Zed.meanings

    def embed(self, texts: Sequence[str]) -> Any:
        if len(texts) == 1 and texts[0] in self.vocabulary:
            return super().embed(texts)  # a single word's vector (token_vectors)
        return numpy.full((len(texts), 3), 3**-0.5, dtype=numpy.float32)


def test_the_word_match_finds_the_tool_whose_own_word_is_near_the_need() -> None:
    tools = [doc("s", "wipe", "grab"), doc("s", "bill", "money")]
    words = ToolIndex(FlatWords())
    words.replace_server("s", tools)
    # "zzz" is in no text and no lexicon, and the texts' vectors are all alike: "grab" is its nearest word.
    assert words.search("zzz", 1)[0][0] == "s/wipe"
    assert all(0 < score < float("inf") for _, score in words.search("zzz erase pay", 5))


def test_word_statistics_follow_the_servers_like_a_fresh_index() -> None:
    updated, fresh = ToolIndex(Words()), ToolIndex(Words())
    updated.replace_server("a", catalog())
    updated.replace_server("b", [doc("b", "bill", "money pay"), doc("b", "erase", "delete drop")])
    updated.search("warm up", 1)
    updated.replace_server("b", [doc("b", "bill", "money pay")])
    updated.replace_server("c", [doc("c", "grab", "screen")])
    fresh.replace_server("a", catalog())
    fresh.replace_server("b", [doc("b", "bill", "money pay")])
    fresh.replace_server("c", [doc("c", "grab", "screen")])
    fresh.search("warm up", 1)
    for need in ("erase the row", "pay money", "grab the screen", "zzz"):
        # The same ranking; scores may differ a little, as the words' length averages do (see ToolIndex).
        assert [key for key, _ in updated.search(need, 5)] == [key for key, _ in fresh.search(need, 5)]
    assert updated._token_df == fresh._token_df and updated._token_ids.keys() == fresh._token_ids.keys()


def test_the_bundled_model_gives_content_words_only() -> None:
    embedder = load_embedder("on")
    assert isinstance(embedder, embedding.TokenEmbedder)
    ids = embedder.token_ids(["Take a screenshot of the page!", "", "🙂 , ."])
    assert len(ids[0]) == 3 and len(ids[1]) == 0 and len(ids[2]) == 0  # take, screenshot, page
    vectors = numpy.asarray(embedder.token_vectors(ids[0]))
    assert numpy.allclose(numpy.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)


@given(st.text(max_size=200), st.text(max_size=60))
@settings(max_examples=40, deadline=None)
def test_any_need_over_any_tool_gives_finite_scores_with_the_bundled_model(query: str, name: str) -> None:
    index = ToolIndex(load_embedder("on"))
    index.replace_server("s", [doc("s", name or "x", query[::-1]), doc("s", "read_file", "Read a file")])
    for _, score in index.search(query, 5):
        assert 0 < score < float("inf")
