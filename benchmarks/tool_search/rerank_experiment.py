"""The learned second-stage re-rank tried in the third round (docs/tool-search.md), kept to be rerun.

    python -m benchmarks.tool_search.rerank_experiment      # needs the embedding extra (numpy, wordllama)

For each tuning need, the best 30 tools of the hybrid and of the lexical ranking get 12 cheap features
(their ranks and scores in both, the share of the need's own words in the tool's name, description,
parameters and server, expansions in the name, the intent factor, server size, name length); a listwise
logistic model (softmax over a need's candidates) is trained on three tuning parts and scored on the
fourth, then trained on all four and scored on the third-round dev part (totals only). The held-out
half is never ranked. Not used by the library: on the dev part it gained nothing.
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy

from benchmarks.tool_search.evaluate import build_index as build
from benchmarks.tool_search.evaluate import load_corpus, parts
from mcp_troupe.search.embedding import load_embedder
from mcp_troupe.search.intent import action_factor, need_actions, tool_action
from mcp_troupe.search.ranking import _fields, parse_query, split_words

DEPTH = 30
DEV = "r3 dev (totals only)"
Rows = list[tuple[Any, Any]]  # per need: its candidates' features, and which of them are right


def _candidates(documents: list[Any]) -> dict[str, Rows]:
    by_key = {document.key: document for document in documents}
    server_size: dict[str, int] = {}
    for document in documents:
        server_size[document.server] = server_size.get(document.server, 0) + 1
    words = {document.key: {k: set(v) for k, v in _fields(document).items()} for document in documents}
    lexical, hybrid = build(documents), build(documents, load_embedder("on"))
    data: dict[str, Rows] = {}
    for name, part in parts(True, include_held_out=False).items():
        rows: Rows = []
        for need in part:
            lexical_top, hybrid_top = lexical.search(need.text, DEPTH), hybrid.search(need.text, DEPTH)
            lexical_rank = {key: rank for rank, (key, _) in enumerate(lexical_top)}
            hybrid_rank = {key: rank for rank, (key, _) in enumerate(hybrid_top)}
            lexical_score, hybrid_score = dict(lexical_top), dict(hybrid_top)
            lexical_best = lexical_top[0][1] if lexical_top else 1.0
            hybrid_best = hybrid_top[0][1] if hybrid_top else 1.0
            parsed = parse_query(need.text)
            own = [term for term, weight in parsed.weights.items() if weight >= 1.0]
            count = max(len(own), 1)
            needed, verb = need_actions(split_words(need.text))
            features, right = [], []
            for key in dict.fromkeys([k for k, _ in hybrid_top] + [k for k, _ in lexical_top]):
                fields, document = words[key], by_key[key]
                in_name = fields["name"] | fields["title"]
                description = fields["summary"] | fields["description"]
                parameters = fields["parameters"] | fields["parameter_descriptions"]
                action, tool_verb = tool_action(split_words(document.name), skip=split_words(document.server))
                features.append(
                    [
                        1.0 / (1 + hybrid_rank[key]) if key in hybrid_rank else 0.0,
                        hybrid_score.get(key, 0.0) / hybrid_best if hybrid_best > 0 else 0.0,
                        1.0 / (1 + lexical_rank[key]) if key in lexical_rank else 0.0,
                        lexical_score.get(key, 0.0) / lexical_best if lexical_best > 0 else 0.0,
                        sum(term in in_name for term in own) / count,
                        sum(term in description for term in own) / count,
                        sum(term in parameters for term in own) / count,
                        sum(term in fields["server"] for term in own) / count,
                        len((set(parsed.weights) - set(own)) & in_name) / max(len(parsed.weights), 1),
                        math.log(action_factor(needed, verb, action, tool_verb)) if needed else 0.0,
                        math.log(server_size[document.server]),
                        float(len(fields["name"])),
                    ]
                )
                right.append(key in need.answers)
            rows.append((numpy.array(features), numpy.array(right, dtype=float)))
        data[name] = rows
    return data


def _train(rows: Rows, l2: float = 0.01, epochs: int = 400, rate: float = 0.3) -> tuple[Any, Any, Any]:
    stacked = numpy.vstack([x for x, _ in rows])
    mean, spread = stacked.mean(0), stacked.std(0) + 1e-9
    weights = numpy.zeros(stacked.shape[1])
    usable = [((x - mean) / spread, y / y.sum()) for x, y in rows if y.sum() > 0]
    for _ in range(epochs):
        gradient = l2 * weights
        for x, target in usable:
            scores = x @ weights
            p = numpy.exp(scores - scores.max())
            gradient = gradient + x.T @ (p / p.sum() - target) / len(usable)
        weights = weights - rate * gradient
    return weights, mean, spread


def _recall(rows: Rows, model: tuple[Any, Any, Any] | None = None, k: int = 5) -> float:
    hits = 0
    for x, y in rows:
        if model is None:
            order = numpy.arange(len(y))  # the hybrid ranking's own order
        else:
            weights, mean, spread = model
            order = numpy.argsort(-(((x - mean) / spread) @ weights), kind="stable")
        hits += bool(y[order[:k]].sum() > 0)
    return hits / len(rows) if rows else 0.0


def main() -> int:
    data = _candidates(load_corpus())
    tuning = [name for name in data if name != DEV]
    for held in tuning:
        model = _train([row for name in tuning if name != held for row in data[name]])
        print(f"{held}: hybrid @5 {_recall(data[held]):.1%} -> re-ranked {_recall(data[held], model):.1%}")
    model = _train([row for name in tuning for row in data[name]])
    print(f"{DEV}: hybrid @5 {_recall(data[DEV]):.1%} -> re-ranked {_recall(data[DEV], model):.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
