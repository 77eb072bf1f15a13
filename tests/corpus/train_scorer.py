"""Train the injection scan's learned scorer (``src/mcp_troupe/policy/injection_model.tsv.gz``).

    python -m tests.corpus.train_scorer [--candidate] [--check] [--folds-only] [--out PATH]
    python -m tests.corpus.train_scorer --candidate --folds-only --gate {all,groups} [--mark] [--budget B]

Run by hand; the output is committed and deterministic (the same corpora give the same bytes; the unit
tests hold it to that). It reads the TUNING parts only. The shipped model (round 9's recipe, format 3)
reads benign ``tuning`` .. ``tuning-8`` (``tuning-7``: the round-8 look-alikes and the real tools of
``benign_real_5.json``) and the first benign corpus, and poisoned families ``a``, ``b``, ``e``, ``f``,
``h``, ``i``, ``j`` and ``l``. ``--candidate`` is round 12's recipe (format 4, character 4-grams, eleven
folds): it also reads ``tuning-9`` .. ``tuning-11`` (the former blind parts ``held-out-5`` ..
``held-out-7``: families ``m``, ``n``, ``o``, their real tools and look-alikes), and its threshold's budget
is 0.45 %. It is not shipped: docs/security.md, "Round 12", says why. Families ``c``, ``d``, ``g`` and
``k``, the held-out benign packages, ``held-out-3``, ``held-out-4`` and any newer blind part are never read
here.

The unit is a sentence (``policy._injection_model.sentences``), filtered as the scan filters it. A
sentence of a benign tool is a negative. A sentence of a poisoned tool is a positive unless it is a
sentence of the carrier tools the payloads were placed in (``build_poisoned.CARRIERS``): those are
negatives, so the model cannot learn the carriers. A tool's score is the highest of its sentences'.

The model is L2-regularised logistic regression over the features that occur in two training sentences or
more, classes weighted to balance, fitted by full-batch Adam (fixed steps, fixed order: deterministic).

The threshold is chosen by cross-validation grouped by family, not on the data the final model saw: leave
one poisoned family out (train on the other families and on the benign tools of the other folds; a real
benign package is in one of the folds by a hash of its name, and the look-alikes written with a family are
in that family's fold), score the left-out family and its benign fold, pool the out-of-fold benign tool
scores, and take the lowest threshold at which at most 0.5 % of the real benign tuning tools are kept out
(since round 9: by the rules, or by scoring at or above it; the rules' share is the scorer's no more). The
written look-alikes are trained on as negatives but not counted in that rate: they are hard
cases written on purpose, not a sample of what servers say; how many of them score over the threshold is
printed beside it. The out-of-fold catch rate of each left-out family, by the scorer alone and by the rules
or the scorer together, is the estimate of how the scan does on an unseen family; it is printed. (The rules
were written with every family but ``o`` in view, so the combined figure is honest for ``o`` only; the
scorer-alone figure is honest for every family, and its pooled sum is round 12's objective.)
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from tests.corpus import build_poisoned, build_poisoned_m, build_poisoned_n, build_poisoned_o
from tests.corpus.evaluate import (
    LOOKALIKES,
    TUNING,
    TUNING_2,
    TUNING_3,
    TUNING_4,
    TUNING_5,
    TUNING_6,
    TUNING_7,
    TUNING_8,
    TUNING_9,
    TUNING_10,
    TUNING_11,
    benign_tools,
    graded_scan,
    load,
    poisoned_tools,
)

from mcp_troupe.policy import _injection_model
from mcp_troupe.policy._injection_model import (
    LEARNED_SCORE,
    MODEL_FILE,
    Model,
    dump,
    features,
    is_value_field,
    sentences,
)
from mcp_troupe.policy._injection_text import _normalise
from mcp_troupe.policy.injection import _schema_strings, grade

TRAINING_FAMILIES: tuple[str, ...] = ("a", "b", "e", "f", "h", "i", "j", "l")
BENIGN_SPLITS: tuple[str, ...] = (
    *(TUNING, TUNING_2, TUNING_3, TUNING_4, TUNING_5, TUNING_6, TUNING_7, TUNING_8),
)
CANDIDATE_FAMILIES = (*TRAINING_FAMILIES, "m", "n", "o")
CANDIDATE_SPLITS = (*BENIGN_SPLITS, TUNING_9, TUNING_10, TUNING_11)
GRAMS = False
GATES = ("all", "groups")
"""Round 13's wider gates, measured out of fold only (``--gate``; docs/security.md, "Round 13"): ``all``
scores every sentence of four words or more, ``groups`` also one that holds a word of any structural group
(``_GROUPS``) but no trigger. ``--mark`` adds the feature ``k:open`` to a sentence only the wider gate
opened. None was shipped: the scan's own gate is unchanged, so these change the training sentences only."""
"""Whether the sentences' features hold the character 4-grams (``--candidate``: format 4)."""
LOOKALIKE_FAMILY = {
    "lookalikes": "e",
    "lookalikes-2": "f",
    "lookalikes-3": "h",
    "lookalikes-4": "i",
    "lookalikes-5": "j",
    "lookalikes-6": "l",
    "lookalikes-held-out-5": "m",
    "lookalikes-held-out-6": "n",
    "lookalikes-held-out-7": "o",
}
"""The written look-alikes were each written with one poisoned family, by the same author in the same hour,
so they are held out with it: a fold tests a family and the look-alikes written beside it together."""
MAX_FP = 0.005
CANDIDATE_MAX_FP = 0.0045
"""Round 12's budget: at 0.5 % the candidate failed a blind floor (docs/security.md, "Round 12"); at 0.45 %
it still beats round 9's recipe at 0.5 % on the same eleven folds, pooled, by the scorer alone and by the
rules or the scorer."""
MIN_COUNT = 2
L2 = 3e-4
L2_WORDS = 1e-4
"""The L2 penalty of word features (``u:``, ``b:``, ``f:``); :data:`L2` is that of the structural ones.
Round 8: 1e-4 (was 3e-4). With the 1,425 real tools of ``benign_real_5.json`` as negatives, a word may weigh
more without the real tools paying for it: out of fold, 12 of 3,760 real tuning tools over the threshold (18
at 3e-4) and every left-out family caught more often (docs/security.md, round 8)."""
L2_GRAMS = 1e-3
"""The L2 penalty of the character 4-grams (``c:``, round 12)."""
MIN_COUNT_GRAMS = 2
"""A character 4-gram is a feature when it occurs in this many training sentences or more."""
STEPS = 400
RATE = 0.05
PRUNE = 0.002
"""Weights smaller than this are left out of the file (they move no score by a visible amount)."""


def tool_texts(tool: dict[str, Any]) -> list[tuple[str, bool]]:
    """The strings of a definition the scorer reads (description, title, schema texts; not names),
    normalised as the scan normalises them, each with whether it is inside a schema value."""
    texts = [(tool.get("description") or "", False), (tool.get("title") or "", False)]
    schema = tool.get("inputSchema")
    if isinstance(schema, dict):
        texts += [
            (text, is_value_field(field))
            for field, text, is_name in _schema_strings(schema, "inputSchema")
            if not is_name
        ]
    return [(_normalise(text), value) for text, value in texts if text]


class _Open(frozenset[str]):
    """A trigger set that every sentence holds (``--gate all``)."""

    def isdisjoint(self, other: Iterable[object]) -> bool:
        return False


def widen(gate: str, mark: bool) -> None:
    """Read the training sentences through a wider gate (:data:`GATES`), for ``--folds-only``."""
    global features
    narrow = _injection_model._TRIGGERS
    groups = (word for lexicon in _injection_model._GROUPS.values() for word in lexicon)
    wide = _Open(narrow) if gate == "all" else frozenset((*narrow, *groups))
    read = _injection_model.features

    def opened(
        sentence: str, markup: bool = False, value: bool = False, grams: bool = False
    ) -> list[str] | None:
        found = read(sentence, markup, value, grams)
        if found is not None:
            return found
        _injection_model._TRIGGERS = wide  # type: ignore[misc]
        try:
            found = read(sentence, markup, value, grams)
        finally:
            _injection_model._TRIGGERS = narrow  # type: ignore[misc]
        return None if found is None or not mark else [*found, "k:open"]

    features = opened


def tool_sentences(tool: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The scored sentences of a definition, with their features."""
    found = []
    for text, value in tool_texts(tool):
        for sentence, markup in sentences(text):
            feats = features(sentence, markup, value, GRAMS)
            if feats is not None:
                found.append((sentence, feats))
    return found


def _carrier_sentences() -> frozenset[str]:
    carriers = [*build_poisoned.CARRIERS, {"description": "Advanced options.", "inputSchema": {}}]
    # The blind parts' builders wrote carriers of their own (as (source, tool) pairs).
    for builder in (build_poisoned_m, build_poisoned_n, build_poisoned_o):
        carriers += [tool for _, tool in builder.CARRIERS]
    return frozenset(sentence for tool in carriers for sentence, _ in tool_sentences(tool))


@dataclass(frozen=True)
class Example:
    """One tool: its group (for the folds), label, and scored sentences."""

    key: str
    fold: str
    label: int
    sentences: tuple[tuple[str, tuple[str, ...]], ...]
    """(sentence, features) whose label is the tool's (carrier sentences of poisoned tools are kept apart
    in ``negatives``)."""
    negatives: tuple[tuple[str, tuple[str, ...]], ...] = ()
    written: bool = False
    """A benign look-alike written for the corpus (not listed from a real server): trained on, but not
    counted in the false-positive rate the threshold is picked for (see :func:`cross_validate`)."""
    rules_caught: bool = False
    """Whether the textual rules alone (no scorer) block or withhold the tool: the scorer only adds to
    them, so the combined out-of-fold figure is "rules caught it, or the held-out model scores it over"."""


def _benign_fold(package: str) -> str:
    """A real benign package's fold: one of the training families' letters, by a hash of its name."""
    digest = hashlib.sha256(f"fold:{package}".encode()).digest()[0]
    return TRAINING_FAMILIES[digest % len(TRAINING_FAMILIES)]


def _rules_catch(tool: dict[str, Any]) -> bool:
    """Whether the textual rules alone block or withhold ``tool``."""
    _, findings = graded_scan(tool)
    return grade([finding for finding in findings if finding.rule != LEARNED_SCORE]) != "clean"


def examples(*, rules: bool = True) -> list[Example]:
    """Every tool of the tuning parts as an :class:`Example` (benign folds by package, poisoned by family);
    with ``rules``, each with whether the textual rules catch it (the slow part; the model does not need
    it)."""
    carriers = _carrier_sentences()

    def _rules_caught(tool: dict[str, Any]) -> bool:
        return rules and _rules_catch(tool)

    found = []
    for split in BENIGN_SPLITS:
        for tool in benign_tools(split):
            scored = tuple((s, tuple(f)) for s, f in tool_sentences(tool))
            key = f"{tool['registry']}:{tool['package']}/{tool['name']}"
            written = tool["registry"] == LOOKALIKES
            fold = LOOKALIKE_FAMILY[tool["package"]] if written else _benign_fold(tool["package"])
            found.append(Example(key, fold, 0, scored, written=written, rules_caught=_rules_caught(tool)))
    for index, tool in enumerate(load("benign_tools.json")["tools"]):
        scored = tuple((s, tuple(f)) for s, f in tool_sentences(tool))
        first = {"title": None, **tool}
        fold = _benign_fold(f"first:{index // 10}")
        found.append(Example(f"first:{index}", fold, 0, scored, rules_caught=_rules_caught(first)))
    for tool in poisoned_tools():
        if tool["family"] not in TRAINING_FAMILIES:
            continue
        scored = tool_sentences(tool)
        positive = tuple((s, tuple(f)) for s, f in scored if s not in carriers)
        negative = tuple((s, tuple(f)) for s, f in scored if s in carriers)
        caught = _rules_caught(tool)
        found.append(Example(tool["id"], tool["family"], 1, positive, negative, rules_caught=caught))
    return found


def _sentence_rows(train: Sequence[Example]) -> tuple[list[tuple[str, ...]], list[int]]:
    """Distinct (features, label) sentence rows of the training tools; a sentence seen with both labels is
    kept once as each."""
    seen: dict[tuple[tuple[str, ...], int], None] = {}
    for example in train:
        for _, feats in example.sentences:
            seen.setdefault((feats, example.label), None)
        for _, feats in example.negatives:
            seen.setdefault((feats, 0), None)
    rows = list(seen)
    return [feats for feats, _ in rows], [label for _, label in rows]


def fit(train: Sequence[Example], threshold: float = 0.5) -> Model:
    """Fit the logistic model on the training tools' sentences."""
    rows, labels = _sentence_rows(train)
    counts = Counter(feature for feats in rows for feature in set(feats))
    vocabulary = sorted(
        feature
        for feature, count in counts.items()
        if count >= (MIN_COUNT_GRAMS if feature.startswith("c:") else MIN_COUNT)
    )
    index = {feature: number for number, feature in enumerate(vocabulary)}
    row_ids: list[int] = []
    col_ids: list[int] = []
    for row, feats in enumerate(rows):
        for feature in sorted(set(feats)):
            column = index.get(feature)
            if column is not None:
                row_ids.append(row)
                col_ids.append(column)
    r = np.asarray(row_ids, dtype=np.int64)
    c = np.asarray(col_ids, dtype=np.int64)
    y = np.asarray(labels, dtype=np.float64)
    n, d = len(rows), len(vocabulary)
    positives = max(1.0, float(y.sum()))
    negatives = max(1.0, n - float(y.sum()))
    sample_weight = np.where(y == 1, n / (2 * positives), n / (2 * negatives)) / n
    penalty = np.asarray(
        [L2_WORDS if f[:2] in ("u:", "b:", "f:") else L2_GRAMS if f[:2] == "c:" else L2 for f in vocabulary]
    )
    w = np.zeros(d)
    b = 0.0
    m_w = np.zeros(d)
    v_w = np.zeros(d)
    m_b = v_b = 0.0
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for step in range(1, STEPS + 1):
        z = np.bincount(r, weights=w[c], minlength=n) + b
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
        g = (p - y) * sample_weight
        grad_w = np.bincount(c, weights=g[r], minlength=d) + 2 * penalty * w
        grad_b = float(g.sum())
        m_w = beta1 * m_w + (1 - beta1) * grad_w
        v_w = beta2 * v_w + (1 - beta2) * grad_w * grad_w
        m_b = beta1 * m_b + (1 - beta1) * grad_b
        v_b = beta2 * v_b + (1 - beta2) * grad_b * grad_b
        correction1 = 1 - beta1**step
        correction2 = 1 - beta2**step
        w -= RATE * (m_w / correction1) / (np.sqrt(v_w / correction2) + eps)
        b -= RATE * (m_b / correction1) / (np.sqrt(v_b / correction2) + eps)
    weights = {
        feature: round(float(weight), 4)
        for feature, weight in zip(vocabulary, w, strict=True)
        if abs(weight) >= PRUNE
    }
    return Model(round(b, 4), threshold, weights, grams=GRAMS)


def tool_score(model: Model, example: Example) -> float:
    """The highest sentence probability of a tool (0 when no sentence is scored)."""
    all_sentences = (*example.sentences, *example.negatives)
    if not all_sentences:
        return 0.0
    logit = max(model.logit(feats) for _, feats in all_sentences)
    return float(1.0 / (1.0 + np.exp(-logit)))


def pick_threshold(benign_scores: Iterable[float], kept_out_by_rules: Sequence[bool] = ()) -> float:
    """The lowest threshold (on a 0.0001 grid) at which at most :data:`MAX_FP` of benign tools score at
    or above it; with ``kept_out_by_rules`` (one flag per score), at which at most that share are kept out
    by the rules or the scorer (round 9: the scan's rate, not the scorer's alone)."""
    pairs = list(itertools.zip_longest(benign_scores, kept_out_by_rules, fillvalue=False))
    allowed = int(MAX_FP * len(pairs)) - sum(bool(caught) for _, caught in pairs)
    scores = sorted((float(score) for score, caught in pairs if not caught), reverse=True)
    allowed = max(0, allowed)
    # A threshold just above the (allowed+1)-th highest benign score lets exactly `allowed` through.
    cut = scores[allowed] if allowed < len(scores) else 0.0
    return min(0.9999, max(0.5, np.floor(cut * 10000 + 1) / 10000))


@dataclass(frozen=True)
class Folds:
    """What leave-one-family-out cross-validation measured (every figure out of fold)."""

    threshold: float
    scorer: dict[str, tuple[int, int]]
    """Per left-out family: (tools the scorer alone scores over the threshold, tools)."""
    combined: dict[str, tuple[int, int]]
    """Per left-out family: (tools the rules or the scorer keep from the model, tools)."""
    benign: tuple[int, int, int]
    """Real benign tuning tools: (the scorer over the threshold, the rules or the scorer, total)."""
    written: tuple[int, int, int]
    """Written look-alikes, the same three counts."""


def cross_validate(all_examples: Sequence[Example], *, quiet: bool = False) -> Folds:
    """Leave one family out: for each training family, fit on every other family's poisoned tools and on
    the benign tools of the other folds, and score the left-out family and its benign fold (the real
    packages hashed to it and the look-alikes written with it). The threshold comes from the pooled
    out-of-fold scores of the real benign tools; each family's catch rate at it is the estimate of how the
    scan does on a family it has not seen."""
    scored: list[tuple[Example, float]] = []
    for family in TRAINING_FAMILIES:
        train = [example for example in all_examples if example.fold != family]
        model = fit(train)
        held = [example for example in all_examples if example.fold == family]
        scored += [(example, tool_score(model, example)) for example in held]
    real = [(example, score) for example, score in scored if not example.label and not example.written]
    # Round 9: the budget is the whole scan's. The real tools the rules already keep out are counted
    # against it, so the scorer gets what is left (with one more family the scorer-alone budget had put the
    # scan's out-of-fold rate at 22 of 3,760 real tools, 0.59 %).
    threshold = pick_threshold([score for _, score in real], [example.rules_caught for example, _ in real])

    def counts(chosen: list[tuple[Example, float]]) -> tuple[int, int, int]:
        over = sum(score >= threshold for _, score in chosen)
        either = sum(score >= threshold or example.rules_caught for example, score in chosen)
        return over, either, len(chosen)

    real_counts = counts(real)
    written = counts([(e, score) for e, score in scored if not e.label and e.written])
    scorer: dict[str, tuple[int, int]] = {}
    combined: dict[str, tuple[int, int]] = {}
    for family in TRAINING_FAMILIES:
        over, either, total = counts([(e, score) for e, score in scored if e.label and e.fold == family])
        scorer[family] = (over, total)
        combined[family] = (either, total)
    folds = Folds(threshold, scorer, combined, real_counts, written)
    if not quiet:
        print(
            f"cross-validated threshold {threshold:.4f}: over it {real_counts[0]}/{real_counts[2]} real "
            f"benign tools and {written[0]}/{written[2]} written look-alikes; kept out by rules or scorer "
            f"{real_counts[1]}/{real_counts[2]} "
            f"and {written[1]}/{written[2]}"
        )
        hit = sum(either for either, _ in combined.values())
        total = sum(total for _, total in combined.values())
        for family in TRAINING_FAMILIES:
            (over, size), (either, _) = scorer[family], combined[family]
            print(
                f"  family {family} left out ({size}): scorer {over} ({over / size:.1%}), rules or scorer "
                f"{either} ({either / size:.1%})"
            )
        alone = sum(over for over, _ in scorer.values())
        print(f"  all families, scorer alone: {alone}/{total} ({alone / total:.1%})")
        print(f"  all families, rules or scorer: {hit}/{total} ({hit / total:.1%})")
    return folds


def use_candidate() -> None:
    """Switch this module to round 12's recipe: eleven families, the character 4-grams, a 0.45 % budget."""
    global TRAINING_FAMILIES, BENIGN_SPLITS, GRAMS, MAX_FP
    TRAINING_FAMILIES, BENIGN_SPLITS = CANDIDATE_FAMILIES, CANDIDATE_SPLITS
    GRAMS, MAX_FP = True, CANDIDATE_MAX_FP


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--candidate", action="store_true", help="round 12's recipe (not shipped)")
    parser.add_argument("--gate", choices=GATES, help="a wider gate, out of fold only (round 13)")
    parser.add_argument("--mark", action="store_true", help="with --gate: mark opened sentences k:open")
    parser.add_argument("--budget", type=float, help="with --folds-only: the real tools' budget (a share)")
    parser.add_argument("--out", type=Path, default=MODEL_FILE)
    parser.add_argument("--check", action="store_true", help="fail if the file differs from a fresh build")
    parser.add_argument("--folds-only", action="store_true", help="only print the cross-validation")
    options = parser.parse_args(argv)
    if options.candidate:
        use_candidate()
    if (options.gate or options.budget is not None) and not options.folds_only:
        parser.error("--gate and --budget measure out of fold only: add --folds-only")
    if options.gate:
        widen(options.gate, options.mark)
    if options.budget is not None:
        global MAX_FP
        MAX_FP = options.budget
    # The rules are read in --check too: the threshold's budget counts what they keep out.
    all_examples = examples()
    print(
        f"{sum(not e.label for e in all_examples)} benign and {sum(e.label for e in all_examples)} poisoned "
        f"tuning tools"
    )
    threshold = cross_validate(all_examples, quiet=options.check).threshold
    if options.folds_only:
        return 0
    model = fit(all_examples, threshold)
    data = dump(model)
    print(f"{len(model.weights)} features, bias {model.bias}, threshold {threshold}, {len(data)} bytes")
    if options.check:
        same = options.out.exists() and options.out.read_bytes() == data
        print("up to date" if same else f"{options.out} differs from a fresh build")
        return 0 if same else 1
    options.out.write_bytes(data)
    print(f"-> {options.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
