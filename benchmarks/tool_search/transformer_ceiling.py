"""How far a real sentence transformer would take the hybrid: all-MiniLM-L6-v2 run whole (numpy), as a bound.

    python -m benchmarks.tool_search.transformer_ceiling MODEL_DIR

Not a shippable model (90 MB of weights, tens of milliseconds a text here): it measures whether a better
embedding could reach the goal at all, before any work on a static model that imitates it. The text
vectors are the transformer's, the word-by-word match stays WordLlama's. Tuning parts only; the dev
parts as totals.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy

from benchmarks.tool_search.distill import BertEncoder
from benchmarks.tool_search.evaluate import build_index, load_corpus, parts, recall
from mcp_troupe.search.embedding import load_embedder


class Transformer:
    """Sentence vectors of the whole transformer; word vectors from ``words``."""

    def __init__(self, model_dir: Path, words: Any) -> None:
        from tokenizers import Tokenizer

        self.encoder = BertEncoder(model_dir)
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(64)
        self.words = words

    def embed(self, texts: Sequence[str]) -> Any:
        rows = numpy.zeros((len(texts), 384), dtype=numpy.float32)
        encoded = self.tokenizer.encode_batch(list(texts))
        order = sorted(range(len(texts)), key=lambda i: len(encoded[i].ids))
        for start in range(0, len(order), 64):
            chunk = order[start : start + 64]
            width = max(len(encoded[i].ids) for i in chunk)
            ids = numpy.zeros((len(chunk), width), dtype=numpy.int64)
            mask = numpy.zeros_like(ids)
            for row, i in enumerate(chunk):
                ids[row, : len(encoded[i].ids)] = encoded[i].ids
                mask[row, : len(encoded[i].ids)] = 1
            vectors = self.encoder.sentence(ids, mask)
            rows[chunk] = vectors / numpy.maximum(numpy.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        return rows

    def token_ids(self, texts: Sequence[str]) -> list[Any]:
        return self.words.token_ids(texts)  # type: ignore[no-any-return]

    def token_vectors(self, ids: Any) -> Any:
        return self.words.token_vectors(ids)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    documents = load_corpus()
    model = Transformer(Path(argv[0]), load_embedder("on"))
    started = time.perf_counter()
    index = build_index(documents, model)
    index.search("warm up", 1)
    print(f"embedding {len(documents)} tools: {time.perf_counter() - started:.0f} s", flush=True)
    total = hits = 0
    cells = []
    for name, needs in parts(True, include_held_out=False).items():
        at5, misses = recall(needs, lambda text: [key for key, _ in index.search(text, 10)])
        cells.append(f"{name.split(' (')[0]} {at5:.1%}")
        if "dev" not in name:
            total += len(needs)
            hits += len(needs) - len(misses)
    print(f"whole transformer: tuning together {hits / total:.1%}; " + "; ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
