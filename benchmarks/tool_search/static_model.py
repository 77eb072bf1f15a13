"""The static token-embedding table that ``distill.py`` makes, as a tool-search embedder (an experiment).

``python -m benchmarks.tool_search.distill MODEL_DIR minilm_static.npz`` writes the table (all-MiniLM-L6-v2's
vocabulary, each token run through the transformer alone, PCA to 256 dimensions, int8: 6.8 MB); this module
reads it with the model's own ``tokenizer.json`` and gives the
:class:`~mcp_troupe.search.embedding.TokenEmbedder` interface the index uses, so that
``model_experiment.py`` can put it in the place of WordLlama. A text's vector is the mean of its tokens'
rows. It was measured and not kept (docs/tool-search.md, fifth round): it ranks below WordLlama, so it is
not shipped in the package.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mcp_troupe.search.lexicon import STOPWORDS

__all__ = ["StaticEmbedder", "load_static_model"]


class StaticEmbedder:
    """Mean-of-token-rows embeddings over a static table, with word vectors (a
    :class:`~mcp_troupe.search.embedding.TokenEmbedder`)."""

    def __init__(self, table: Any, tokenizer: Any) -> None:
        import numpy

        self._table = numpy.ascontiguousarray(table, dtype=numpy.float32)
        norms = numpy.linalg.norm(self._table, axis=1)
        self._unit = self._table / numpy.maximum(norms, 1e-12)[:, None]
        self._tokenizer = tokenizer
        # Which ids carry no meaning of their own: markers ([CLS], [unused0]), punctuation, stop words.
        self._skipped = numpy.zeros(len(self._table), dtype=bool)
        self._special = numpy.zeros(len(self._table), dtype=bool)
        for token, token_id in tokenizer.get_vocab().items():
            if not 0 <= token_id < len(self._table):
                continue
            if token.startswith("[") and token.endswith("]"):
                self._special[token_id] = self._skipped[token_id] = True
                continue
            word = token.removeprefix("##")
            # A short word piece after the first ("##s", "##ed") is an ending, not a meaning of its own.
            ending = token.startswith("##") and len(word) <= 2
            if ending or not word.isalnum() or word in STOPWORDS:
                self._skipped[token_id] = True

    def _ids(self, texts: Sequence[str]) -> list[Any]:
        import numpy

        encoded = self._tokenizer.encode_batch(list(texts), add_special_tokens=False)
        result = []
        for each in encoded:
            ids = numpy.asarray(each.ids, dtype=numpy.int64)
            result.append(ids[(ids >= 0) & (ids < len(self._table))])
        return result

    def embed(self, texts: Sequence[str]) -> Any:
        """One L2-normalised row per text: the mean of its tokens' rows (a zero row for a text with none)."""
        import numpy

        rows = numpy.zeros((len(texts), self._table.shape[1]), dtype=numpy.float32)
        for row, ids in enumerate(self._ids(texts)):
            ids = ids[~self._special[ids]]
            if len(ids):
                mean = self._table[ids].mean(axis=0)
                norm = float(numpy.linalg.norm(mean))
                if norm > 0:
                    rows[row] = mean / norm
        return rows

    def token_ids(self, texts: Sequence[str]) -> list[Any]:
        """Per text, its distinct content token ids (no markers, punctuation, stop words or endings)."""
        import numpy

        return [numpy.unique(ids[~self._skipped[ids]]) for ids in self._ids(texts)]

    def token_vectors(self, ids: Any) -> Any:
        """The unit vector of each token id in ``ids``."""
        return self._unit[ids]


def load_static_model(table_path: Path, tokenizer_path: Path) -> StaticEmbedder:
    """The table that ``distill.py`` wrote, with the transformer's ``tokenizer.json``."""
    import numpy
    from tokenizers import Tokenizer

    with numpy.load(table_path) as stored:
        table = stored["table"].astype(numpy.float32) * stored["scale"][:, None]
    tokenizer = Tokenizer.from_file(str(tokenizer_path))
    tokenizer.no_padding()  # the file pads every text to 128 tokens for the transformer
    tokenizer.no_truncation()
    return StaticEmbedder(table, tokenizer)
