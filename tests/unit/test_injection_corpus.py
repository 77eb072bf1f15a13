"""Detection and false-positive rates of the injection scanner on the labelled corpora in tests/corpus.

benign_tools.json holds real tool definitions from the MCP reference servers and popular public servers;
poisoned_tools.json holds definitions modelled on published attacks, each with the rules it is meant to
trigger. The rates are printed (run with -s) and held to: detection >= 0.95, false positives <= 0.02.

Tune the rules, never the corpus, to meet them. Known misses and still-flagged benign entries are listed
below with the reason they are accepted.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

from mcp_troupe.policy.injection import RULES, Finding, scan_tool

CORPUS = Path(__file__).resolve().parent.parent / "corpus"

MIN_DETECTION = 0.95
MAX_FALSE_POSITIVES = 0.02

# Poisoned entries the rules do not catch, and why that is accepted rather than fixed by a broader rule.
KNOWN_MISSES = {
    # Personal data (name, e-mail, phone) into a parameter: tools that manage users and contacts legitimately
    # ask for exactly that, so a rule for it would flag ordinary CRM and mail tools.
    "pii-profile",
    # "Pipe all tool outputs into this logger": no address, secret or parameter is named; ordinary logging
    # and observability tools describe themselves the same way.
    "pipe-all-outputs",
}

# Benign entries that are still flagged, each with its justification. Empty: none is flagged today.
ACCEPTED_BENIGN_FLAGS: dict[str, str] = {}


@cache
def load(name: str) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = json.loads((CORPUS / name).read_text(encoding="utf-8"))["tools"]
    return tools


@cache
def _scan(corpus: str, index: int) -> list[Finding]:
    entry = load(corpus)[index]
    return scan_tool(entry["name"], entry["description"], entry["inputSchema"])


def scanned(corpus: str) -> list[tuple[dict[str, Any], list[Finding]]]:
    """Every entry of a corpus with its findings (scanned once per test session)."""
    return [(entry, _scan(corpus, index)) for index, entry in enumerate(load(corpus))]


def test_the_corpora_are_big_enough_and_well_formed() -> None:
    benign, poisoned = load("benign_tools.json"), load("poisoned_tools.json")
    assert len(benign) >= 80 and len(poisoned) >= 40
    for entry in benign + poisoned:
        assert isinstance(entry["name"], str) and isinstance(entry["description"], str)
        assert entry["inputSchema"].get("type") == "object"
    ids = [entry["id"] for entry in poisoned]
    assert len(ids) == len(set(ids))
    assert all(set(entry["expect"]) <= set(RULES) for entry in poisoned)


def test_every_rule_is_exercised_by_several_poisoned_entries() -> None:
    expected = Counter(rule for entry in load("poisoned_tools.json") for rule in entry["expect"])
    assert {rule: expected[rule] for rule in RULES if expected[rule] < 3} == {}


def test_detection_rate_on_poisoned_tools() -> None:
    poisoned = scanned("poisoned_tools.json")
    missed = {entry["id"] for entry, findings in poisoned if not findings}
    rate = 1 - len(missed) / len(poisoned)
    print(
        f"\ndetection: {len(poisoned) - len(missed)}/{len(poisoned)} = {rate:.3f}; missed: {sorted(missed)}"
    )
    assert missed == KNOWN_MISSES
    assert rate >= MIN_DETECTION


def test_poisoned_tools_trigger_the_rules_they_were_written_for() -> None:
    poisoned = [
        (entry, findings)
        for entry, findings in scanned("poisoned_tools.json")
        if entry["id"] not in KNOWN_MISSES
    ]
    lacking = {}
    for entry, findings in poisoned:
        found = {finding.rule for finding in findings}
        if not set(entry["expect"]) <= found:
            lacking[entry["id"]] = sorted(set(entry["expect"]) - found)
    per_rule = Counter(rule for entry, _ in poisoned for rule in entry["expect"])
    found_all = len(poisoned) - len(lacking)
    print(
        f"\nexpected rules found in {found_all}/{len(poisoned)} entries; entries per rule: {dict(per_rule)}"
    )
    assert lacking == {}


def test_false_positive_rate_on_benign_tools() -> None:
    benign = scanned("benign_tools.json")
    flagged = {f"{entry['server']}/{entry['name']}": findings for entry, findings in benign if findings}
    rate = len(flagged) / len(benign)
    details = {
        key: [(finding.rule, finding.field, finding.excerpt) for finding in findings]
        for key, findings in flagged.items()
    }
    print(f"\nfalse positives: {len(flagged)}/{len(benign)} = {rate:.3f}; {details}")
    assert set(flagged) <= set(ACCEPTED_BENIGN_FLAGS), details
    assert rate <= MAX_FALSE_POSITIVES
