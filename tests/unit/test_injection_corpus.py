"""The injection scan measured on labelled corpora, on their held-out parts only (see tests/corpus/evaluate.py).

- ``benign_real.json``: thousands of real tool definitions listed by running real npm and PyPI servers
  (``tests/corpus/build_benign.py``); half of the packages, chosen by a hash of the name, are held out.
- ``poisoned_real.json``: poisoned definitions of 25 attack classes (``tests/corpus/build_poisoned.py``);
  phrasing family ``b`` of every class is held out.
- ``benign_tools.json`` / ``poisoned_tools.json``: the first, smaller corpora the rules were tuned on.

The targets (issue 15): on the held-out definitions at least 95% of the poisoned ones are blocked or withheld,
at most 1% of the real ones are withheld, and none is blocked. Tune the rules on the tuning part, never the
corpus, to meet them; run ``python -m tests.corpus.evaluate --split tuning --show-benign --show-missed``.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from tests.corpus.evaluate import (
    HELD_OUT,
    TUNING,
    benign_split,
    benign_tools,
    graded_scan,
    load,
    poisoned_tools,
    rates,
)

from mcp_troupe.policy.injection import RULES, Finding, Verdict, grade, scan_tool

MIN_CAUGHT = 0.95
MAX_WITHHELD = 0.01
MIN_PACKAGES = 60
MIN_BENIGN = 2000


@cache
def _scanned(corpus: str) -> dict[str, tuple[Verdict, tuple[Finding, ...]]]:
    """Every tool of a corpus scanned once per test session, by key."""
    tools = benign_tools() if corpus == "benign" else poisoned_tools()
    scanned = {}
    for tool in tools:
        verdict, findings = graded_scan(tool)
        scanned[_key(tool)] = (verdict, tuple(findings))
    return scanned


def _verdict(corpus: str, key: str) -> tuple[Verdict, tuple[Finding, ...]]:
    return _scanned(corpus)[key]


def _key(tool: dict[str, Any]) -> str:
    return str(tool.get("id") or f"{tool['registry']}:{tool['package']}/{tool['name']}")


def verdicts(corpus: str, split: str) -> list[tuple[dict[str, Any], Verdict]]:
    tools = benign_tools(split) if corpus == "benign" else poisoned_tools(split)
    return [(tool, _verdict(corpus, _key(tool))[0]) for tool in tools]


def test_the_real_corpus_is_big_and_records_package_and_version() -> None:
    document = load("benign_real.json")
    assert len(document["packages"]) >= MIN_PACKAGES
    assert len(document["tools"]) >= MIN_BENIGN
    registries = Counter(key.split(":", 1)[0] for key in document["packages"])
    assert registries["npm"] >= 20 and registries["pypi"] >= 20
    for tool in document["tools"]:
        assert tool["version"] == document["packages"][f"{tool['registry']}:{tool['package']}"]["version"]
        assert isinstance(tool["name"], str) and isinstance(tool["description"], str)
        assert isinstance(tool["inputSchema"], dict)


def test_the_splits_keep_a_package_and_a_phrasing_family_on_one_side() -> None:
    for tool in benign_tools(HELD_OUT):
        assert benign_split(tool["package"]) == HELD_OUT
    packages = {tool["package"] for tool in benign_tools()}
    held = {package for package in packages if benign_split(package) == HELD_OUT}
    assert 0.3 < len(held) / len(packages) < 0.7
    families = {(tool["class"], tool["family"]): tool["split"] for tool in poisoned_tools()}
    assert {split for (_, family), split in families.items() if family == "b"} == {HELD_OUT}
    assert {split for (_, family), split in families.items() if family == "a"} == {TUNING}
    # Every class is in both parts, and the held-out part has at least 20 classes.
    classes = Counter(attack for attack, _ in families)
    assert all(count == 2 for count in classes.values()) and len(classes) >= 20


def test_held_out_poisoned_tools_are_blocked_or_withheld() -> None:
    measured = verdicts("poisoned", HELD_OUT)
    missed = sorted(tool["id"] for tool, verdict in measured if verdict == "clean")
    result = rates(verdict for _, verdict in measured)
    print(f"\nheld-out poisoned: {result}; missed: {missed}")
    assert result.share(result.caught) >= MIN_CAUGHT, missed


def test_held_out_real_tools_are_rarely_withheld_and_never_blocked() -> None:
    measured = verdicts("benign", HELD_OUT)
    kept_out = {
        f"{tool['package']}/{tool['name']}": [
            (f.confidence, f.rule, f.field, f.excerpt) for f in _verdict("benign", _key(tool))[1]
        ]
        for tool, verdict in measured
        if verdict != "clean"
    }
    result = rates(verdict for _, verdict in measured)
    print(f"\nheld-out benign: {result}; kept out: {kept_out}")
    assert result.blocked == 0, kept_out
    assert result.share(result.withheld) <= MAX_WITHHELD, kept_out


def test_every_held_out_attack_class_is_mostly_caught() -> None:
    measured = verdicts("poisoned", HELD_OUT)
    by_class: dict[str, list[Verdict]] = {}
    for tool, verdict in measured:
        by_class.setdefault(tool["class"], []).append(verdict)
    weak = {
        attack: f"{rates(found).caught}/{len(found)}"
        for attack, found in by_class.items()
        if rates(found).share(rates(found).caught) < 0.6
    }
    assert weak == {}


# --- the first corpora ----------------------------------------------------------------------------------


def _old(name: str) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = load(name)["tools"]
    return tools


def test_the_first_corpora_still_hold() -> None:
    def graded(name: str) -> list[Verdict]:
        return [grade(scan_tool(t["name"], t["description"], t["inputSchema"])) for t in _old(name)]

    poisoned, benign = graded("poisoned_tools.json"), graded("benign_tools.json")
    assert rates(poisoned).share(rates(poisoned).caught) >= MIN_CAUGHT
    assert rates(benign).caught == 0
    assert all(set(entry["expect"]) <= set(RULES) for entry in _old("poisoned_tools.json"))
