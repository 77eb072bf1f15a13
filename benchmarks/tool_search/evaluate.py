"""Measure tool search: recall@k of the ranking against plain BM25 on labelled needs over the real corpus.

    python -m benchmarks.tool_search.evaluate [--all] [--misses]

Reports the held-out part only (``--all`` adds the tuning part, for work on the ranking; ``--misses`` lists
the needs that missed at 5). The split is fixed by a hash of each need's text, so adding needs never moves
old ones between the parts.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mcp_troupe.search.ranking import ToolDocument, ToolIndex, bm25_rank, document_from_definition

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"
CORPUS = DATA / "tool_corpus.json.gz"
NEEDS = DATA / "tool_search_needs.txt"
HELD_OUT_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class Need:
    """One labelled need: the words, and the tools (``server/tool``) that meet it."""

    text: str
    answers: frozenset[str]

    @property
    def is_held_out(self) -> bool:
        """Whether the need belongs to the held-out part (a stable hash of its text decides)."""
        digest = hashlib.sha256(self.text.encode()).digest()
        return digest[0] / 256 < HELD_OUT_SHARE


def load_corpus(path: Path = CORPUS) -> list[ToolDocument]:
    """Every tool of the corpus as a search document keyed ``server/tool``."""
    servers = json.loads(gzip.decompress(path.read_bytes()))
    documents = []
    for entry in servers:
        for tool in entry["tools"]:
            documents.append(
                document_from_definition(
                    f"{entry['server']}/{tool['name']}",
                    entry["server"],
                    tool["name"],
                    tool.get("description") or "",
                    tool.get("inputSchema") or {},
                    tool.get("title") or "",
                )
            )
    return documents


def load_needs(path: Path = NEEDS) -> list[Need]:
    """The labelled needs (``need | server/tool, server/tool``; ``#`` starts a comment line)."""
    needs = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        text, _, answers = line.partition("|")
        needs.append(Need(text.strip(), frozenset(a.strip() for a in answers.split(",") if a.strip())))
    return needs


def build_index(documents: Sequence[ToolDocument]) -> ToolIndex:
    """An index with the corpus, one server at a time (as the registry fills it)."""
    index = ToolIndex()
    by_server: dict[str, list[ToolDocument]] = {}
    for document in documents:
        by_server.setdefault(document.server, []).append(document)
    for server, docs in by_server.items():
        index.replace_server(server, docs)
    return index


def recall(needs: Sequence[Need], rank: Callable[[str], list[str]], k: int = 5) -> tuple[float, list[Need]]:
    """The share of ``needs`` with a right tool in the first ``k`` of ``rank``, and the needs that missed."""
    misses = [need for need in needs if not need.answers & set(rank(need.text)[:k])]
    return (1.0 - len(misses) / len(needs)) if needs else 0.0, misses


def main(argv: list[str]) -> int:
    documents = load_corpus()
    index = build_index(documents)
    needs = load_needs()
    parts = {"held-out": [n for n in needs if n.is_held_out]}
    if "--all" in argv:
        parts["tuning"] = [n for n in needs if not n.is_held_out]
    known = {document.key for document in documents}
    unknown = sorted(answer for need in needs for answer in need.answers if answer not in known)
    if unknown:
        print(f"answers not in the corpus: {unknown}", file=sys.stderr)
    print(f"corpus: {len({d.server for d in documents})} servers, {len(documents)} tools")

    def ranked(text: str) -> list[str]:
        return [key for key, _ in index.search(text, 5)]

    def baseline(text: str) -> list[str]:
        return bm25_rank(documents, text, 5)

    for name, part in parts.items():
        ours, misses = recall(part, ranked)
        plain, _ = recall(part, baseline)
        ours1, _ = recall(part, ranked, k=1)
        plain1, _ = recall(part, baseline, k=1)
        print(
            f"{name}: {len(part)} needs; recall@5 {ours:.1%} (BM25 {plain:.1%}); "
            f"recall@1 {ours1:.1%} (BM25 {plain1:.1%})"
        )
        if "--misses" in argv and name == "tuning":  # held-out misses stay unseen while tuning
            for need in misses:
                print(f"  MISS {need.text!r}: got {ranked(need.text)} want {sorted(need.answers)}")
    timings = []
    for need in needs:
        started = time.perf_counter()
        index.search(need.text, 5)
        timings.append(time.perf_counter() - started)
    print(
        f"search time over {len(documents)} tools: median {statistics.median(timings) * 1000:.2f} ms, "
        f"max {max(timings) * 1000:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
