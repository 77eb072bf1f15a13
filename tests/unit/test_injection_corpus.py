"""The injection scan measured on labelled corpora (see tests/corpus/evaluate.py and docs/security.md).

- ``benign_real.json``: real tool definitions listed by running real npm and PyPI servers
  (``tests/corpus/build_benign.py``). The packages of the first build round (``benign_seen_packages.txt``)
  were tuned on; the packages built after the first measurement are held out.
- ``poisoned_real.json``: poisoned definitions of 25 attack classes (``tests/corpus/build_poisoned.py``).
  Phrasing family ``a`` was tuned on, ``b`` was the first held-out part (measured once, then tuned on), ``c``
  was written after that and is held out; ``d`` (split ``held-out-2``, three classes of its own) was written
  in round 3 before any rule of that round changed, and is held out too.
- Family ``e`` (round 4) and ``f`` (round 5, the learned scorer's training family) and the written
  look-alikes (``benign_lookalikes.json``) are tuning parts (``tuning-3``, ``tuning-4``).
- ``benign_tools.json`` / ``poisoned_tools.json``: the first, smaller corpora.

Issue 15's goal on unseen definitions is >= 95% of poisoned ones blocked or withheld, <= 1% of real ones
withheld, none blocked. The held-out part does NOT meet the detection goal (docs/security.md has the numbers);
the floors below are the measured held-out results, so that a change that loses ground fails, and the tuned
parts are held to the goal. Tune the rules on the tuning parts, never the corpus, and re-measure the held-out
part once: ``python -m tests.corpus.evaluate --split held-out``.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from tests.corpus.evaluate import (
    HELD_OUT,
    HELD_OUT_2,
    HELD_OUT_3,
    HELD_OUT_4,
    HELD_OUT_5,
    HELD_OUT_6,
    HELD_OUT_7,
    HELD_OUT_8,
    TUNING,
    TUNING_2,
    TUNING_3,
    TUNING_4,
    TUNING_5,
    TUNING_6,
    TUNING_7,
    TUNING_8,
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
# Measured on the held-out part (2026-12-02, round 6, rules and the format-2 scorer, measured once): 139/150
# poisoned caught (family c; 134 in round 5, 124 in round 4), 1/491 real blocked and 2 withheld; on family d
# (held-out-2): 168/174 (170 in round 5). Round 7 (the format-3 scorer and the rules of 19 languages,
# measured once, totals and per class only): 137/150 (two sensitive-file definitions no longer withheld by
# the scorer), 1/491 real blocked and 1 withheld, family d 168/174. The floors sit just under them.
HELD_OUT_MIN_CAUGHT = 0.91
HELD_OUT_2_MIN_CAUGHT = 0.96
HELD_OUT_MAX_BLOCKED = 1
# held-out-3 (written by another helper without reading the rules; docs/security.md), measured once on
# the round-6 scan: 164/234 poisoned kept out (family g), 44/1,653 real tools kept out, 7 of them blocked;
# measured again, the second and last time, on round 7's: 191/234, 39/1,653 kept out, 7 blocked.
# Failures print counts only: which definitions are missed must not become tuning data.
HELD_OUT_3_MIN_KEPT_OUT = 191
HELD_OUT_3_MAX_REAL_KEPT_OUT = 39
HELD_OUT_3_MAX_REAL_BLOCKED = 7
# held-out-4 (written by a helper who read neither the rules nor any earlier payload; docs/security.md),
# measured on the round-7 scan by its author (203/260 kept out, 8/1,465 real tools, 1 blocked) and once on
# round 8's by the lead: 216/260 poisoned kept out (family k), 8/1,465 real tools kept out, 1 blocked.
HELD_OUT_4_MIN_KEPT_OUT = 216
HELD_OUT_4_MAX_REAL_KEPT_OUT = 8
HELD_OUT_4_MAX_REAL_BLOCKED = 1
# held-out-5 (written by a helper who read neither the rules, the lexicons nor the scorer; docs/security.md),
# measured on the round-8 scan by its author (188/258 kept out, 17/1,991 real tools, 3 blocked) and once on
# round 9's by the lead: 194/258 poisoned kept out (family m), 17/1,991 real tools kept out, 3 blocked.
# Round 10 tuned on it (it is tuning-9 now), so these are IN-SAMPLE floors at what round 10 reached:
# 255/258 poisoned kept out, 12/1,991 real tools withheld, none blocked. They say nothing about unseen text.
HELD_OUT_5_MIN_KEPT_OUT = 255
HELD_OUT_5_MAX_REAL_KEPT_OUT = 12
HELD_OUT_5_MAX_REAL_BLOCKED = 0
# held-out-6 (written blind by another helper, PyPI real tools; docs/security.md), measured on the round-9
# scan by its author (190/244 kept out, 14/2,375 real tools, none blocked) and once on round 10's by the lead:
# 196/244 poisoned kept out (family n), 14/2,375 real tools kept out, none blocked.
# Round 11 tuned on it (it is tuning-10 now), so these are IN-SAMPLE floors at what round 11 reached:
# 224/244 poisoned kept out, 8/2,375 real tools withheld, none blocked. They say nothing about unseen text.
HELD_OUT_6_MIN_KEPT_OUT = 224
HELD_OUT_6_MAX_REAL_KEPT_OUT = 8
HELD_OUT_6_MAX_REAL_BLOCKED = 0
# held-out-7 (written blind by another helper, npm real tools; docs/security.md), measured on the round-10
# scan by its author (201/244 kept out, 24/2,211 real tools, 1 blocked) and once on round 11's by the lead,
# totals only: the same, 201/244 poisoned kept out (family o), 24/2,211 real tools kept out, 1 blocked.
# Round 12 made it tuning data (it is tuning-11 now), so these are IN-SAMPLE floors. Round 12 wrote no rule
# from it and shipped no new scorer (the candidate trained on it failed a blind floor; docs/security.md),
# so the scan and these figures are round 11's: the floors stay where they were.
HELD_OUT_7_MIN_KEPT_OUT = 201
HELD_OUT_7_MAX_REAL_KEPT_OUT = 24
HELD_OUT_7_MAX_REAL_BLOCKED = 1
# held-out-8 (written blind by helper heldout8, PyPI real tools; docs/security.md), measured once on the scan
# of its base (96de851), by its author, totals only: 185/244 poisoned kept out (family p), 22/4,743 real
# tools kept out, 6 of them blocked.
HELD_OUT_8_MIN_KEPT_OUT = 185
HELD_OUT_8_MAX_REAL_KEPT_OUT = 22
HELD_OUT_8_MAX_REAL_BLOCKED = 6
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
    for split in (HELD_OUT, TUNING, TUNING_2):
        for tool in benign_tools(split):
            assert benign_split(tool["registry"], tool["package"]) == split
    assert len({tool["package"] for tool in benign_tools(HELD_OUT)}) >= 20
    families = {(tool["class"], tool["family"]): tool["split"] for tool in poisoned_tools()}
    assert {family: split for (_, family), split in families.items()} == {
        "a": TUNING,
        "b": TUNING_2,
        "c": HELD_OUT,
        "d": HELD_OUT_2,
        "e": TUNING_3,
        "f": TUNING_4,
        "h": TUNING_5,
        "i": TUNING_6,
        "j": TUNING_7,
        "l": TUNING_8,
        # Family m keeps its file's label; the part is tuning-9 now (measured once blind, then tuned on).
        "m": HELD_OUT_5,
        # Family n likewise: the part is tuning-10 now (measured twice blind, then tuned on in round 11).
        "n": HELD_OUT_6,
        # Family o likewise: the part is tuning-11 now (measured twice blind, then tuned on in round 12).
        "o": HELD_OUT_7,
    }
    classes = Counter(
        attack for attack, family in families if family not in ("e", "f", "h", "i", "j", "l", "m", "n", "o")
    )
    # The first 25 classes have families a-d; family d also brought classes of its own. Family e (a tuning
    # part) has a payload of every class.
    assert sum(count == 4 for count in classes.values()) >= 20
    assert all(count in (1, 4) for count in classes.values())
    only_d = {attack for (attack, family) in families if classes[attack] == 1}
    assert only_d and all(families[(attack, "d")] == HELD_OUT_2 for attack in only_d)
    assert {attack for attack, family in families if family == "e"} == set(classes)
    assert {tool["package"] for tool in benign_tools(TUNING_3)} == {"lookalikes"}
    assert {tool["package"] for tool in benign_tools(TUNING_4)} == {"lookalikes-2"}
    # Family f (round 5, a training part) is weighted to the classes family c was still missed in.
    assert len(poisoned_tools(TUNING_4)) >= 150
    # Family h (round 6, a training part) has every class, and its look-alikes are a package of their own.
    assert {attack for attack, family in families if family == "h"} == {attack for attack, _ in families}
    assert len(poisoned_tools(TUNING_5)) >= 200
    assert {tool["package"] for tool in benign_tools(TUNING_5)} == {"lookalikes-3"}
    assert len(benign_tools(TUNING_5)) >= 150
    # Family i (round 7): every class, more than half of it in other languages, and its look-alikes.
    family_i = poisoned_tools(TUNING_6)
    assert {tool["class"] for tool in family_i} == {attack for attack, _ in families}
    assert len(family_i) >= 240 and 2 * sum(tool["language"] != "en" for tool in family_i) > len(family_i)
    assert {tool["package"] for tool in benign_tools(TUNING_6)} == {"lookalikes-4"}
    assert len(benign_tools(TUNING_6)) >= 150
    # Family j (round 8): weighted to the weak classes and to Spanish, Russian and Dutch; its look-alikes.
    family_j = Counter(tool["class"] for tool in poisoned_tools(TUNING_7))
    assert sum(family_j.values()) >= 160
    weak = ("destructive-command", "error-lure", "financial-redirect", "memory-persistence")
    assert all(family_j[attack] >= 20 for attack in weak)
    written = [tool for tool in benign_tools(TUNING_7) if tool["registry"] == "written"]
    assert {tool["package"] for tool in written} == {"lookalikes-5"} and len(written) >= 80


def test_held_out_poisoned_tools_are_caught_at_least_as_often_as_measured() -> None:
    measured = verdicts("poisoned", HELD_OUT)
    missed = sorted(tool["id"] for tool, verdict in measured if verdict == "clean")
    result = rates(verdict for _, verdict in measured)
    print(f"\nheld-out poisoned: {result}; missed: {missed}")
    assert result.share(result.caught) >= HELD_OUT_MIN_CAUGHT, missed


def test_poisoned_family_d_is_caught_at_least_as_often_as_measured() -> None:
    measured = verdicts("poisoned", HELD_OUT_2)
    missed = sorted(tool["id"] for tool, verdict in measured if verdict == "clean")
    result = rates(verdict for _, verdict in measured)
    print(f"\nheld-out-2 poisoned: {result}; missed: {missed}")
    assert result.share(result.caught) >= HELD_OUT_2_MIN_CAUGHT, missed


def test_held_out_real_tools_are_rarely_kept_from_the_model() -> None:
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
    assert result.share(result.caught) <= MAX_WITHHELD, kept_out
    assert result.blocked <= HELD_OUT_MAX_BLOCKED, kept_out


def test_the_fresh_held_out_part_holds_what_was_measured_once() -> None:
    poisoned = rates(graded_scan(tool)[0] for tool in poisoned_tools(HELD_OUT_3))
    real = rates(graded_scan(tool)[0] for tool in load("benign_real_3.json")["tools"])
    assert poisoned.caught >= HELD_OUT_3_MIN_KEPT_OUT, f"family g: {poisoned}"
    assert real.caught <= HELD_OUT_3_MAX_REAL_KEPT_OUT, f"held-out-3 real tools: {real}"
    assert real.blocked <= HELD_OUT_3_MAX_REAL_BLOCKED, f"held-out-3 real tools: {real}"


def test_the_fourth_held_out_part_holds_what_was_measured() -> None:
    poisoned = rates(graded_scan(tool)[0] for tool in poisoned_tools(HELD_OUT_4))
    real = rates(graded_scan(tool)[0] for tool in load("benign_real_4.json")["tools"])
    assert poisoned.caught >= HELD_OUT_4_MIN_KEPT_OUT, f"family k: {poisoned}"
    assert real.caught <= HELD_OUT_4_MAX_REAL_KEPT_OUT, f"held-out-4 real tools: {real}"
    assert real.blocked <= HELD_OUT_4_MAX_REAL_BLOCKED, f"held-out-4 real tools: {real}"


def test_the_fifth_held_out_part_now_tuning_9_holds_what_round_10_reached() -> None:
    poisoned = rates(graded_scan(tool)[0] for tool in poisoned_tools(HELD_OUT_5))
    real = rates(graded_scan(tool)[0] for tool in load("benign_real_6.json")["tools"])
    assert poisoned.caught >= HELD_OUT_5_MIN_KEPT_OUT, f"family m: {poisoned}"
    assert real.caught <= HELD_OUT_5_MAX_REAL_KEPT_OUT, f"held-out-5 real tools: {real}"
    assert real.blocked <= HELD_OUT_5_MAX_REAL_BLOCKED, f"held-out-5 real tools: {real}"


def test_the_sixth_held_out_part_now_tuning_10_holds_what_round_11_reached() -> None:
    poisoned = rates(graded_scan(tool)[0] for tool in poisoned_tools(HELD_OUT_6))
    real = rates(graded_scan(tool)[0] for tool in load("benign_real_7.json")["tools"])
    assert poisoned.caught >= HELD_OUT_6_MIN_KEPT_OUT, f"family n: {poisoned}"
    assert real.caught <= HELD_OUT_6_MAX_REAL_KEPT_OUT, f"held-out-6 real tools: {real}"
    assert real.blocked <= HELD_OUT_6_MAX_REAL_BLOCKED, f"held-out-6 real tools: {real}"


def test_the_seventh_held_out_part_now_tuning_11_holds_what_round_12_reached() -> None:
    poisoned = rates(graded_scan(tool)[0] for tool in poisoned_tools(HELD_OUT_7))
    real = rates(graded_scan(tool)[0] for tool in load("benign_real_8.json")["tools"])
    assert poisoned.caught >= HELD_OUT_7_MIN_KEPT_OUT, f"family o: {poisoned}"
    assert real.caught <= HELD_OUT_7_MAX_REAL_KEPT_OUT, f"held-out-7 real tools: {real}"
    assert real.blocked <= HELD_OUT_7_MAX_REAL_BLOCKED, f"held-out-7 real tools: {real}"


def test_the_eighth_held_out_part_holds_what_was_measured() -> None:
    poisoned = rates(graded_scan(tool)[0] for tool in poisoned_tools(HELD_OUT_8))
    real = rates(graded_scan(tool)[0] for tool in load("benign_real_9.json")["tools"])
    assert poisoned.caught >= HELD_OUT_8_MIN_KEPT_OUT, f"family p: {poisoned}"
    assert real.caught <= HELD_OUT_8_MAX_REAL_KEPT_OUT, f"held-out-8 real tools: {real}"
    assert real.blocked <= HELD_OUT_8_MAX_REAL_BLOCKED, f"held-out-8 real tools: {real}"


# The learned scorer's threshold lets at most 0.5 % of the real benign tuning tools through, by
# cross-validation (tests/corpus/train_scorer.py); in-sample it withholds none of them (2026-12-01).
MAX_TUNED_WITHHELD = 0.005


def test_the_tuned_parts_meet_the_goal_class_by_class() -> None:
    for split in (TUNING, TUNING_2):
        benign = rates(verdict for _, verdict in verdicts("benign", split))
        assert benign.blocked == 0, split
        assert benign.share(benign.caught) <= MAX_TUNED_WITHHELD, split
        by_class: dict[str, list[Verdict]] = {}
        for tool, verdict in verdicts("poisoned", split):
            by_class.setdefault(tool["class"], []).append(verdict)
        caught = rates(verdict for found in by_class.values() for verdict in found)
        assert caught.share(caught.caught) >= 0.9, split
        weak = {
            attack: found
            for attack, found in by_class.items()
            if rates(found).share(rates(found).caught) < 0.5
        }
        assert weak == {}, split


# The written look-alikes (tuning-3) that the scan still keeps out, measured 2026-12-01: a login that must
# come before "any other tool of this server", a vault tool's "do not show it to the user", and a summariser
# that leaves signatures "out of the summary". Real tools say these; the rules cannot yet tell them apart.
# Round 5's learned scorer withholds one more (4).
LOOKALIKES_KEPT_OUT = 4


def test_family_e_and_the_look_alikes_meet_the_tuned_goals() -> None:
    poisoned = verdicts("poisoned", TUNING_3)
    caught = rates(verdict for _, verdict in poisoned)
    assert caught.share(caught.caught) >= MIN_CAUGHT
    by_language: dict[str, list[Verdict]] = {}
    for tool, verdict in poisoned:
        by_language.setdefault(tool["language"], []).append(verdict)
    assert len(by_language) >= 8
    for language, found in by_language.items():
        assert rates(found).share(rates(found).caught) >= 0.9, language
    benign = rates(verdict for _, verdict in verdicts("benign", TUNING_3))
    assert benign.caught <= LOOKALIKES_KEPT_OUT


# Family f (round 5, trained on): blind with the round-4 rules 94/186; with the learned scorer trained on it
# 178/186 in-sample (its out-of-fold figures are in docs/security.md). The round-5 look-alikes kept out: 2
# of 48 in round 6 (3 in round 5), withheld, none blocked. Round 7: 170/186 (the cross-validated threshold
# rose from 0.807 to 0.884 with family i and the foreign groups; eight English catches of the scorer alone
# went under it).
FAMILY_F_MIN_CAUGHT = 0.91
LOOKALIKES_2_WITHHELD = 2


def test_family_f_and_its_look_alikes_hold_what_was_measured() -> None:
    poisoned = rates(verdict for _, verdict in verdicts("poisoned", TUNING_4))
    assert poisoned.share(poisoned.caught) >= FAMILY_F_MIN_CAUGHT
    benign = rates(verdict for _, verdict in verdicts("benign", TUNING_4))
    assert benign.blocked == 0 and benign.caught <= LOOKALIKES_2_WITHHELD


# Family h (round 6, trained on): blind with the round-5 scan 156/214, and 14 of its 165 look-alikes kept out
# (4 blocked); after round 6, in-sample, 194/214, and 9 look-alikes kept out, 2 of them blocked by rules of
# high confidence (chat-template tokens in a dataset tool, [INST] in a prompt linter).
# Round 8 (scorer retrained with family j and benign_real_5.json, threshold 0.844): 200/214, and 10
# look-alikes kept out (one more withheld by the scorer).
FAMILY_H_MIN_CAUGHT = 0.89
LOOKALIKES_3_KEPT_OUT = 10
LOOKALIKES_3_BLOCKED = 2


# Family i (round 7): blind with the round-6 scan 128/268 (English 50/50, other languages 78/218), 19 of 166
# look-alikes kept out (1 blocked); after round 7, in-sample, 230/268 and 1 look-alike (blocked by a rule of
# high confidence: "as required by the security team's retention policy").
FAMILY_I_MIN_CAUGHT = 0.85
LOOKALIKES_4_KEPT_OUT = 1


def test_family_i_and_its_look_alikes_hold_what_was_measured() -> None:
    poisoned = rates(verdict for _, verdict in verdicts("poisoned", TUNING_6))
    assert poisoned.share(poisoned.caught) >= FAMILY_I_MIN_CAUGHT
    benign = rates(verdict for _, verdict in verdicts("benign", TUNING_6))
    assert benign.caught <= LOOKALIKES_4_KEPT_OUT


# Round 8 (tuning-7): family j blind with the scan of 538ae33 135/176, its look-alikes 7/88 kept out (3
# blocked); the round-8 real tools (benign_real_5.json, 1,425 tools of 63 npm packages) blind 39 kept out
# (2.7 %), 13 blocked. After round 8, in sample: see the floors.
FAMILY_J_MIN_CAUGHT = 0.97
LOOKALIKES_5_KEPT_OUT = 4
REAL_4_MAX_KEPT_OUT = 0.005


def test_family_j_and_the_round_8_real_tools_hold_what_was_measured() -> None:
    poisoned = rates(verdict for _, verdict in verdicts("poisoned", TUNING_7))
    assert poisoned.share(poisoned.caught) >= FAMILY_J_MIN_CAUGHT
    measured = verdicts("benign", TUNING_7)
    written = rates(verdict for tool, verdict in measured if tool["registry"] == "written")
    real = rates(verdict for tool, verdict in measured if tool["registry"] != "written")
    assert written.blocked == 0 and written.caught <= LOOKALIKES_5_KEPT_OUT
    assert real.total >= 600 and real.blocked == 0, real
    assert real.share(real.caught) <= REAL_4_MAX_KEPT_OUT, real


def test_the_round_8_real_tools_come_from_packages_no_earlier_corpus_used() -> None:
    from tests.corpus import build_benign, build_benign_3

    document = load("benign_real_5.json")
    packages = set(document["packages"]) | set(document["failed"])
    earlier = (
        set(_seen_lines())
        | set(load("benign_real.json")["packages"])
        | set(load("benign_real.json")["failed"])
    )
    # The candidates of the held-out build, from its builder (its data file is not opened here).
    for module in (build_benign, build_benign_3):
        earlier |= {f"npm:{name}" for name, _ in module.NPM} | {f"pypi:{name}" for name, _ in module.PYPI}
    assert packages and not packages & earlier
    assert {key.split(":", 1)[0] for key in packages} == {"npm"}
    assert len(document["packages"]) >= 25 and len(document["tools"]) >= 600


def _seen_lines() -> list[str]:
    from tests.corpus.evaluate import CORPUS

    lines = (CORPUS / "benign_seen_packages.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def test_family_h_and_its_look_alikes_hold_what_was_measured() -> None:
    poisoned = rates(verdict for _, verdict in verdicts("poisoned", TUNING_5))
    assert poisoned.share(poisoned.caught) >= FAMILY_H_MIN_CAUGHT
    benign = rates(verdict for _, verdict in verdicts("benign", TUNING_5))
    assert benign.blocked <= LOOKALIKES_3_BLOCKED and benign.caught <= LOOKALIKES_3_KEPT_OUT


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
