"""The fifth round's model experiment: the numpy BERT forward pass, the table reduction, the static embedder.

These are benchmark tools (``benchmarks/tool_search/distill.py``, ``static_model.py``), not shipped code,
but their figures are quoted in docs/tool-search.md, so what they compute is checked on a tiny random model.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

numpy = pytest.importorskip("numpy")
safetensors_numpy = pytest.importorskip("safetensors.numpy")
tokenizers = pytest.importorskip("tokenizers")

from benchmarks.tool_search.distill import BertEncoder, _erf, reduce, token_rows  # noqa: E402
from benchmarks.tool_search.static_model import StaticEmbedder  # noqa: E402

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "the", "delete", "file", "erase", "page", "##s", ",", "grab"]
WIDTH, HEADS, LAYERS, INNER = 8, 2, 2, 16


def write_tiny_bert(folder: Path, seed: int = 7) -> Path:
    """A random 2-layer BERT in the files ``sentence-transformers`` saves (config, weights, tokenizer)."""
    rng = numpy.random.default_rng(seed)
    weights: dict[str, Any] = {}

    def add(name: str, *shape: int) -> None:
        weights[name] = rng.normal(0, 0.3, shape).astype(numpy.float32)

    add("embeddings.word_embeddings.weight", len(VOCAB), WIDTH)
    add("embeddings.position_embeddings.weight", 16, WIDTH)
    add("embeddings.token_type_embeddings.weight", 2, WIDTH)
    for part in ("weight", "bias"):
        add(f"embeddings.LayerNorm.{part}", WIDTH)
    for layer in range(LAYERS):
        at = f"encoder.layer.{layer}."
        for name in ("query", "key", "value"):
            add(at + f"attention.self.{name}.weight", WIDTH, WIDTH)
            add(at + f"attention.self.{name}.bias", WIDTH)
        add(at + "attention.output.dense.weight", WIDTH, WIDTH)
        add(at + "attention.output.dense.bias", WIDTH)
        add(at + "intermediate.dense.weight", INNER, WIDTH)
        add(at + "intermediate.dense.bias", INNER)
        add(at + "output.dense.weight", WIDTH, INNER)
        add(at + "output.dense.bias", WIDTH)
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            add(at + f"{norm}.weight", WIDTH)
            add(at + f"{norm}.bias", WIDTH)
    safetensors_numpy.save_file(weights, str(folder / "model.safetensors"))
    config = {"num_attention_heads": HEADS, "num_hidden_layers": LAYERS, "layer_norm_eps": 1e-12}
    (folder / "config.json").write_text(json.dumps(config))
    tokenizer_of(folder).save(str(folder / "tokenizer.json"))
    return folder


def tokenizer_of(folder: Path) -> Any:
    vocab = folder / "vocab.txt"
    vocab.write_text("\n".join(VOCAB) + "\n")
    return tokenizers.BertWordPieceTokenizer(str(vocab), lowercase=True)._tokenizer


def test_erf_matches_the_standard_library() -> None:
    points = numpy.linspace(-4.0, 4.0, 161)
    expected = numpy.asarray([math.erf(x) for x in points])
    assert numpy.abs(_erf(points) - expected).max() < 2e-7


def test_padding_does_not_change_a_sentence_vector(tmp_path: Path) -> None:
    """Mean pooling and attention both ignore masked positions: padding a sentence leaves its vector."""
    encoder = BertEncoder(write_tiny_bert(tmp_path))
    ids = numpy.asarray([[2, 5, 6, 3]])
    padded = numpy.asarray([[2, 5, 6, 3, 0, 0, 0], [2, 7, 8, 9, 3, 0, 0]])
    mask = (padded != 0).astype(numpy.int64)
    alone = encoder.sentence(ids, numpy.ones_like(ids))
    together = encoder.sentence(padded, mask)
    assert numpy.allclose(alone[0], together[0], atol=1e-5)
    assert not numpy.allclose(together[0], together[1], atol=1e-3)  # different words, different vectors


def test_reduce_keeps_the_table_close_in_int8(tmp_path: Path) -> None:
    rows = token_rows(write_tiny_bert(tmp_path), batch=5)
    assert rows.shape == (len(VOCAB), WIDTH) and numpy.isfinite(rows).all()
    result = reduce(rows, WIDTH)  # all dimensions: only the rounding to int8 is lost
    restored = result["table"].astype(numpy.float32) * result["scale"][:, None]
    centred = rows - rows.mean(0)
    assert result["table"].dtype == numpy.int8
    assert result["variance_kept"] == pytest.approx(1.0)
    # PCA rotates, so compare what a cosine reads: the Gram matrices.
    tolerance = 0.05 * numpy.abs(centred).max() ** 2
    assert numpy.allclose(restored @ restored.T, centred @ centred.T, atol=tolerance)
    fewer = reduce(rows, 3)
    assert fewer["table"].shape == (len(VOCAB), 3) and 0.0 < fewer["variance_kept"] < 1.0


def test_static_embedder_means_rows_and_skips_markers_and_stop_words(tmp_path: Path) -> None:
    table = numpy.eye(len(VOCAB), dtype=numpy.float32)
    model = StaticEmbedder(table, tokenizer_of(tmp_path))
    rows = model.embed(["Delete the file", "", ", ,"])
    delete, the, file = VOCAB.index("delete"), VOCAB.index("the"), VOCAB.index("file")
    expected = numpy.zeros(len(VOCAB))
    expected[[delete, the, file]] = 1 / math.sqrt(3)  # markers out; stop words still shape the mean
    assert numpy.allclose(rows[0], expected)
    assert not rows[1].any()  # a text with no token has a zero row, never NaN
    ids = model.token_ids(["Delete the files, grab pages"])[0]
    words = sorted(VOCAB[token] for token in ids.tolist())
    assert words == ["delete", "file", "grab", "page"]  # no "the", no ",", no "##s"
    assert numpy.allclose(numpy.linalg.norm(model.token_vectors(ids), axis=1), 1.0)
