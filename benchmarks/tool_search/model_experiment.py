"""Compare embedding models for the hybrid tool search on the tuning parts (the held-out half: never ranked).

    python -m benchmarks.tool_search.model_experiment TABLE.npz MODEL_DIR/tokenizer.json

Variants: WordLlama (the ``search`` extra's model), the table distilled from all-MiniLM-L6-v2
(``distill.py``, read by ``static_model.py``), and the two together (text vectors of both, concatenated with
weights, so that a cosine is a weighted mean of the two models' cosines; the word match from one).
The fifth-round dev part is reported as totals only.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.tool_search.evaluate import build_index, load_corpus, parts, recall
from benchmarks.tool_search.static_model import load_static_model
from mcp_troupe.search.embedding import load_embedder


class Pair:
    """Two models' text vectors side by side (weights ``share`` and ``1 - share``); words from ``words``."""

    def __init__(self, first: Any, second: Any, share: float, words: Any) -> None:
        self.first, self.second, self.share, self.words = first, second, share, words

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy

        a = numpy.nan_to_num(numpy.asarray(self.first.embed(texts), dtype=numpy.float32))
        b = numpy.nan_to_num(numpy.asarray(self.second.embed(texts), dtype=numpy.float32))
        rows = numpy.hstack([a * self.share**0.5, b * (1 - self.share) ** 0.5])
        norms = numpy.linalg.norm(rows, axis=1, keepdims=True)
        return rows / numpy.maximum(norms, 1e-12)

    def token_ids(self, texts: Sequence[str]) -> list[Any]:
        return self.words.token_ids(texts)  # type: ignore[no-any-return]

    def token_vectors(self, ids: Any) -> Any:
        return self.words.token_vectors(ids)


def main(argv: list[str]) -> int:
    documents = load_corpus()
    wordllama = load_embedder("on")
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    minilm = load_static_model(Path(argv[0]), Path(argv[1]))
    variants: dict[str, Any] = {"wordllama": wordllama, "minilm": minilm}
    for share in (0.3, 0.5, 0.7):
        variants[f"both {share} (words wordllama)"] = Pair(wordllama, minilm, share, wordllama)
        variants[f"both {share} (words minilm)"] = Pair(wordllama, minilm, share, minilm)
    reported = parts(True, include_held_out=False)
    for label, model in variants.items():
        index = build_index(documents, model)
        cells = []
        total = hits = 0
        for name, needs in reported.items():
            at5, misses = recall(needs, lambda text, index=index: [key for key, _ in index.search(text, 10)])
            cells.append(f"{name.split(' (')[0]} {at5:.1%}")
            if "dev" not in name:
                total += len(needs)
                hits += len(needs) - len(misses)
        print(f"{label}: tuning together {hits / total:.1%}; " + "; ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
