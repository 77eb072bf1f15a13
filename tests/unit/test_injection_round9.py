"""Round 9 of the injection scan: family ``l`` and its look-alikes (``tuning-8``), and the readings added for
the classes and languages the round-8 scan kept out least often (docs/security.md, "Round 9")."""

from __future__ import annotations

from collections import Counter

from tests.corpus.evaluate import TUNING_8, benign_tools, load, poisoned_tools
from tests.corpus.family_l import FAMILY_L, LOOKALIKES_6

KINDS = {
    "defensive-statement",
    "product-naming",
    "structural-tags",
    "secrets-tool",
    "hidden-field",
    "usage-note",
    "destructive-honest",
}


def test_family_l_is_weighted_to_the_weak_classes_and_languages() -> None:
    family = poisoned_tools(TUNING_8)
    classes = Counter(tool["class"] for tool in family)
    assert len(family) >= 160 and set(classes) == set(load("poisoned_real.json")["classes"])
    assert min(classes.values()) >= 4
    weak = ("persona-jailbreak", "context-extraction", "rug-pull-update", "concealment")
    assert all(classes[attack] >= 10 for attack in (*weak, "parameter-name-poisoning"))
    languages = Counter(tool["language"] for tool in family)
    assert languages["tr"] >= 40 and languages["nl"] >= 20 and languages["pt"] >= 30
    assert {tool["family"] for tool in family} == {"l"}


def test_family_l_shares_no_payload_or_eight_word_run_with_an_earlier_tuning_family() -> None:
    from tests.corpus.build_poisoned import CLASSES

    def runs(text: str) -> set[tuple[str, ...]]:
        words = text.lower().split()
        return {tuple(words[i : i + 8]) for i in range(len(words) - 7)}

    earlier: set[tuple[str, ...]] = set()
    for _, _, families in CLASSES.values():
        for family, payloads in families.items():
            if family in ("a", "b", "e", "f", "h", "i", "j"):
                earlier.update(run for payload in payloads for run in runs(payload))
    for payloads in FAMILY_L.values():
        for payload in payloads:
            assert not runs(payload) & earlier, payload


def test_the_round_9_look_alikes_cover_the_seven_kinds() -> None:
    written = benign_tools(TUNING_8)
    assert {tool["package"] for tool in written} == {"lookalikes-6"} and len(written) >= 60
    kinds = Counter(tool["kind"] for tool in written)
    assert set(kinds) == KINDS and min(kinds.values()) >= 8
    assert len(written) == len(LOOKALIKES_6)
