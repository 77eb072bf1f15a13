"""Tool search: word splitting, the index and its incremental updates, and the quality on held-out needs."""

from __future__ import annotations

import statistics
import time

import pytest
from benchmarks.tool_search import evaluate
from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe.search.ranking import (
    PlainBm25,
    ToolDocument,
    ToolIndex,
    bm25_rank,
    parse_query,
    split_words,
    stem,
    terms,
)

HELD_OUT_RECALL_AT_5 = 0.77
"""The floor for the lexical ranking's recall@5 on the blind held-out needs (measured: 78.9%, docs/)."""
HYBRID_HELD_OUT_RECALL_AT_5 = 0.85
"""The floor for the hybrid ranking's recall@5 there (measured: 86.9%, with the word-by-word match)."""


def doc(key: str, server: str = "s", description: str = "", **fields: object) -> ToolDocument:
    return ToolDocument(key=key, server=server, name=key.split("/")[-1], description=description, **fields)  # type: ignore[arg-type]


def test_names_are_split_where_people_write_words() -> None:
    assert split_words("getIssueComments") == ["get", "issue", "comments"]
    assert split_words("list_merge-requests.v2") == ["list", "merge", "requests", "v", "2"]
    assert split_words("HTTPServer") == ["http", "server"]


def test_the_stemmer_meets_the_forms_of_a_word() -> None:
    assert stem("creating") == stem("created") == stem("creation") == stem("create")
    assert stem("issues") == stem("issue")
    assert stem("entries") == stem("entry")
    assert stem("status") == "status"


@given(st.text(max_size=200))
def test_any_text_yields_terms_without_failing(text: str) -> None:
    for term in terms(text):
        assert term and term == term.lower()


def test_a_synonym_finds_a_tool_its_words_do_not_name() -> None:
    index = ToolIndex()
    index.replace_server(
        "s", [doc("s/get_issue", description="Get an issue by number."), doc("s/send_email")]
    )
    assert index.search("show me the ticket", 1)[0][0] == "s/get_issue"


def test_a_separated_phrasal_verb_reads_as_the_phrase() -> None:
    assert parse_query("bring it back").weights == parse_query("bring back").weights
    assert parse_query("turn them off").weights == parse_query("turn off").weights
    # Only inside a phrase: elsewhere the word is a stop word or a word of its own as before.
    assert parse_query("open that file").weights == parse_query("open file").weights
    index = ToolIndex()
    index.replace_server("t", [doc("t/reopen_tasks", description="Reopen tasks"), doc("t/get_tasks")])
    assert index.search("that task is not done, bring it back", 1)[0][0] == "t/reopen_tasks"


def test_replacing_a_server_changes_only_its_part_and_matches_a_fresh_index() -> None:
    incremental = ToolIndex()
    incremental.replace_server("a", [doc("a/read_file", "a"), doc("a/write_file", "a")])
    incremental.replace_server("b", [doc("b/read_file", "b")])
    incremental.replace_server("a", [doc("a/delete_file", "a")])
    fresh = ToolIndex()
    fresh.replace_server("b", [doc("b/read_file", "b")])
    fresh.replace_server("a", [doc("a/delete_file", "a")])
    assert len(incremental) == 2 and "a/read_file" not in incremental
    for query in ("read a file", "remove a file", "write"):
        assert incremental.search(query, 5) == fresh.search(query, 5)
    incremental.replace_server("a", [])
    assert [key for key, _ in incremental.search("delete file", 5)] == ["b/read_file"]


def test_allowed_filters_what_is_returned() -> None:
    index = ToolIndex()
    index.replace_server("s", [doc("s/read_file"), doc("s/read_text")])
    assert [key for key, _ in index.search("read", 5, allowed=lambda key: key != "s/read_file")] == [
        "s/read_text"
    ]
    assert index.search("read", 0) == [] and ToolIndex().search("read", 5) == []


# ---- on the real corpus ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus() -> tuple[list[ToolDocument], ToolIndex]:
    documents = evaluate.load_corpus()
    return documents, evaluate.build_index(documents)


def test_the_corpus_has_thousands_of_real_tools_from_many_servers(
    corpus: tuple[list[ToolDocument], ToolIndex],
) -> None:
    documents, _ = corpus
    assert len(documents) >= 2500 and len({document.server for document in documents}) >= 20


def test_every_labelled_answer_is_a_tool_of_the_corpus(corpus: tuple[list[ToolDocument], ToolIndex]) -> None:
    documents, _ = corpus
    keys = {document.key for document in documents}
    needs = (
        evaluate.load_needs()
        + evaluate.load_needs(evaluate.BLIND_NEEDS)
        + evaluate.load_needs(evaluate.FRESH_NEEDS)
        + evaluate.load_needs(evaluate.R3_NEEDS)
        + evaluate.load_needs(evaluate.R5_NEEDS)
    )
    assert [answer for need in needs for answer in need.answers if answer not in keys] == []
    assert all(need.answers for need in needs)
    assert len({need.text for need in needs}) == len(needs)  # no need counted twice or in both sets


def test_held_out_recall_at_5_stays_above_its_floor_and_beats_plain_bm25(
    corpus: tuple[list[ToolDocument], ToolIndex],
) -> None:
    documents, index = corpus
    held_out = evaluate.parts(include_tuning=False)["blind held-out"]
    assert len(held_out) >= 150
    ours, _misses = evaluate.recall(held_out, lambda text: [key for key, _ in index.search(text, 5)])
    baseline = PlainBm25(documents)
    plain, _ = evaluate.recall(held_out, lambda text: baseline.rank(text, 5))
    assert ours >= HELD_OUT_RECALL_AT_5
    assert ours > plain


def test_a_search_over_the_corpus_takes_milliseconds(corpus: tuple[list[ToolDocument], ToolIndex]) -> None:
    _, index = corpus
    timings = []
    for need in evaluate.load_needs()[:40]:
        best = float("inf")
        for _ in range(3):  # the best of three: a shared machine's pauses are not the ranking's cost
            started = time.perf_counter()
            index.search(need.text, 5)
            best = min(best, time.perf_counter() - started)
        timings.append(best)
    assert statistics.median(timings) < 0.02


def test_the_baseline_is_plain_bm25_with_no_synonyms() -> None:
    documents = [
        doc("s/get_issue", description="Get an issue."),
        doc("s/send_email", description="Send mail."),
    ]
    assert bm25_rank(documents, "the issue", 5) == ["s/get_issue"]
    assert bm25_rank(documents, "show me the ticket", 5) == []
    assert PlainBm25(documents).rank("send an email", 1) == ["s/send_email"]


def test_the_hybrid_ranking_beats_the_lexical_one_on_held_out_needs(
    corpus: tuple[list[ToolDocument], ToolIndex],
) -> None:
    embedding = pytest.importorskip("mcp_troupe.search.embedding")
    pytest.importorskip("wordllama")
    documents, lexical = corpus
    hybrid = evaluate.build_index(documents, embedding.load_embedder("on"))
    held_out = evaluate.parts(include_tuning=False)["blind held-out"]
    ours, _ = evaluate.recall(held_out, lambda text: [key for key, _ in hybrid.search(text, 5)])
    words_only, _ = evaluate.recall(held_out, lambda text: [key for key, _ in lexical.search(text, 5)])
    assert ours >= HYBRID_HELD_OUT_RECALL_AT_5
    assert ours > words_only
