"""Try a second-stage re-rank of the hybrid's best 30 by field-aware embedding similarity (tuning parts only).

    python -m benchmarks.tool_search.field_rerank_experiment

Each tool's name (in words, with its title), first description sentence, and parameter names with their
descriptions are embedded apart with the ``search`` extra's model; a candidate's new score is its hybrid
score (scaled to the best) plus a weighted sum of the need's cosine with each field. The weights are
searched on the tuning parts; the fifth-round dev part is reported as a total only, for the chosen ones.
"""

from __future__ import annotations

import itertools
import re
import sys

import numpy

from benchmarks.tool_search.evaluate import build_index, load_corpus, parts
from mcp_troupe.search.embedding import load_embedder
from mcp_troupe.search.ranking import split_words

DEPTH = 30


def main(argv: list[str]) -> int:
    documents = load_corpus()
    model = load_embedder("on")
    assert model is not None
    index = build_index(documents, model)
    by_key = {document.key: document for document in documents}
    keys = list(by_key)
    names = [" ".join(split_words(d.name)) + (". " + d.title if d.title else "") for d in documents]
    firsts = [re.split(r"(?<=[.!?])\s", d.description.strip(), maxsplit=1)[0][:300] for d in documents]
    params = [
        "; ".join(f"{' '.join(split_words(p))}: {t[:80]}" for p, t in d.parameters[:12]) for d in documents
    ]
    fields = [
        numpy.nan_to_num(numpy.asarray(model.embed(texts), dtype=numpy.float32))
        for texts in (names, firsts, params)
    ]
    row_of = {key: row for row, key in enumerate(keys)}
    reported = parts(True, include_held_out=False)
    cache: dict[str, tuple[list[str], numpy.ndarray, numpy.ndarray]] = {}
    for needs in reported.values():
        for need in needs:
            found = index.search(need.text, DEPTH)
            query = numpy.nan_to_num(numpy.asarray(model.embed([need.text])[0], dtype=numpy.float32))
            cand = [key for key, _ in found]
            base = (
                numpy.asarray([score for _, score in found]) / max(found[0][1], 1e-9)
                if found
                else numpy.zeros(0)
            )
            rows = [row_of[key] for key in cand]
            cos = (
                numpy.stack([field[rows] @ query for field in fields], axis=1)
                if rows
                else numpy.zeros((0, 3))
            )
            cache[need.text] = (cand, base, cos)

    def score(weights: tuple[float, float, float], names_: list[str]) -> tuple[float, dict[str, float]]:
        result = {}
        total = hits = 0
        for name in names_:
            needs = reported[name]
            got = 0
            for need in needs:
                cand, base, cos = cache[need.text]
                if not cand:
                    continue
                new = base + cos @ numpy.asarray(weights)
                top = [cand[i] for i in numpy.argsort(-new, kind="stable")[:5]]
                got += bool(need.answers & set(top))
            result[name] = got / len(needs)
            total += len(needs)
            hits += got
        return hits / total, result

    tuning = [name for name in reported if "dev" not in name]
    grid = [0.0, 0.1, 0.2, 0.3, 0.5]
    results = []
    for weights in itertools.product(grid, grid, [*grid, 0.7, 1.0, 1.5]):
        together, _ = score(weights, tuning)
        results.append((together, weights))
    results.sort(reverse=True)
    dev_parts = ["r3 dev (totals only)", "r5 dev (totals only)"]
    for together, weights in [(score((0.0, 0.0, 0.0), tuning)[0], (0.0, 0.0, 0.0)), *results[:8]]:
        dev = score(weights, dev_parts)[1]
        print(
            f"weights name/first/params {weights}: tuning {together:.1%}; dev "
            + ", ".join(f"{k.split(' (')[0]} {v:.1%}" for k, v in dev.items())
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
