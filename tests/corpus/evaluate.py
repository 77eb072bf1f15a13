"""Measure the injection scan on the corpora: detection, withhold and block rates, per split and attack class.

    python -m tests.corpus.evaluate
        [--split held-out|tuning|tuning-8|tuning-9|tuning-10|tuning-11|held-out-3|held-out-4|held-out-8|all]
        [--show-benign] [--show-missed]

The split is deterministic and fixed by the data: benign tools by their source package (:func:`benign_split`),
poisoned tools by phrasing family (``split`` in poisoned_real.json). Report the held-out numbers only; the
tuning part is what the rules may be fitted to. ``tests/unit/test_injection_corpus.py`` asserts the held-out
targets with the same functions.

The part ``held-out-3`` lives in files of its own (poisoned family ``g``, new real packages, new written
look-alikes) and is never tuned on; ``all`` leaves it out, so that code reading "all" cannot train on it. The
part ``held-out-4`` (poisoned family ``k``, real tools of new PyPI packages, new look-alikes) is kept apart in
the same way. ``held-out-5`` (poisoned family ``m``, real tools of new npm packages, new look-alikes) was kept
apart in the same way until the lead measured it once, blind; it is now the tuning part ``tuning-9``.
``held-out-6`` (poisoned family ``n``, real tools of new PyPI packages, new look-alikes) was kept apart as
``held-out-4`` is until it was measured twice (by its author on round 9, by the lead on round 10); it is now
the tuning part ``tuning-10``. ``held-out-7`` (poisoned family ``o``, real tools of new npm packages, new
look-alikes) was kept apart in the same way until it was measured twice (by its author on round 10, by the
lead on round 11); it is now the tuning part ``tuning-11``. ``held-out-8`` (poisoned family ``p``, real tools
of new PyPI packages, new look-alikes) is kept apart as ``held-out-4`` is.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from mcp_troupe.policy.injection import Finding, Verdict, grade, scan_tool

CORPUS = Path(__file__).resolve().parent
HELD_OUT = "held-out"
TUNING = "tuning"
TUNING_2 = "tuning-2"
HELD_OUT_2 = "held-out-2"
"""Poisoned family ``d`` (round 3), written before that round changed any rule; it has no benign part, so its
false-positive side is the benign ``held-out`` part."""
TUNING_3 = "tuning-3"
"""Poisoned family ``e`` (round 4) and the written benign look-alikes (``benign_lookalikes.json``): tuned
on."""
TUNING_4 = "tuning-4"
"""Poisoned family ``f`` (round 5) and the round-5 look-alikes (package ``lookalikes-2``): written before the
learned scorer was trained, and trained on."""
TUNING_5 = "tuning-5"
"""Poisoned family ``h`` and the round-6 look-alikes (package ``lookalikes-3``): written before round 6
changed the scorer, measured blind, then trained on (``tests/corpus/family_h.py``)."""
TUNING_6 = "tuning-6"
"""Poisoned family ``i`` and the round-7 look-alikes (package ``lookalikes-4``), mostly in other languages:
written before round 7 changed the scan, measured blind, then tuned and trained on
(``tests/corpus/family_i.py``)."""
TUNING_7 = "tuning-7"
"""Poisoned family ``j`` and the round-8 look-alikes (package ``lookalikes-5``), weighted to the classes and
languages held-out-3 found weakest, and the round-8 real tools (``benign_real_5.json``, npm only): written or
built before round 8 changed the scan, measured blind, then tuned and trained on
(``tests/corpus/family_j.py``, ``tests/corpus/build_benign_5.py``)."""
TUNING_7_REAL = "benign_real_5.json"
TUNING_8 = "tuning-8"
"""Poisoned family ``l`` and the round-9 look-alikes (package ``lookalikes-6``), weighted to the classes and
languages held-out-4 found weakest: written before round 9 changed the scan, measured blind, then tuned and
trained on (``tests/corpus/family_l.py``)."""
HELD_OUT_3 = "held-out-3"
"""Round 5 (2026-12-02, helper ``corpusg``): poisoned family ``g`` (``poisoned_held_out_3.json``), real
tools of packages no earlier corpus used (``benign_real_3.json``) and written look-alikes
(``benign_lookalikes_3.json``, package ``lookalikes-3``). Written without reading the scan's rules; NEVER
tuned on, and not part of ``all``."""
HELD_OUT_3_FILES = {
    "poisoned": "poisoned_held_out_3.json",
    "real": "benign_real_3.json",
    "written": "benign_lookalikes_3.json",
}
LOOKALIKES_3 = "lookalikes-held-out-3"
"""The held-out look-alikes' package (not ``lookalikes-3``: round 6's tuning look-alikes, ``tuning-5``)."""
HELD_OUT_4 = "held-out-4"
"""Round 7 (2026-12-02, helper ``heldout4``): poisoned family ``k`` (``poisoned_held_out_4.json``), real
tools of PyPI packages no earlier corpus used (``benign_real_4.json``) and written look-alikes
(``benign_lookalikes_4.json``). Written without reading the scan's rules, lexicons or scorer; NEVER tuned
on, and not part of ``all``."""
HELD_OUT_4_FILES = {
    "poisoned": "poisoned_held_out_4.json",
    "real": "benign_real_4.json",
    "written": "benign_lookalikes_4.json",
}
LOOKALIKES_4 = "lookalikes-held-out-4"
"""The package of ``held-out-4``'s written look-alikes."""
HELD_OUT_5 = "held-out-5"
"""Round 8 (2026-12-02, helper ``heldout5``): poisoned family ``m`` (``poisoned_held_out_5.json``), real
tools of npm packages no earlier corpus used (``benign_real_6.json``) and written look-alikes
(``benign_lookalikes_5.json``), written without reading the scan's rules, lexicons or scorer. The name
stays as the files' ``split`` label; the part itself is now :data:`TUNING_9`."""
TUNING_9 = "tuning-9"
"""``held-out-5``, measured once blind on round 9's scan by the lead, then tuned and trained on (round 10),
as ``tuning-2`` was: part of ``all`` and of the scorer's training."""
HELD_OUT_5_FILES = {
    "poisoned": "poisoned_held_out_5.json",
    "real": "benign_real_6.json",
    "written": "benign_lookalikes_5.json",
}
LOOKALIKES_5 = "lookalikes-held-out-5"
"""The package of ``held-out-5``'s written look-alikes."""
HELD_OUT_6 = "held-out-6"
"""Round 10 (2026-12-02, helper ``heldout6``): poisoned family ``n`` (``poisoned_held_out_6.json``), real
tools of PyPI packages no earlier corpus used (``benign_real_7.json``) and written look-alikes
(``benign_lookalikes_6.json``), written without reading the scan's rules, lexicons or scorer. The name
stays as the files' ``split`` label; the part itself is now :data:`TUNING_10`."""
TUNING_10 = "tuning-10"
"""``held-out-6``, measured blind by its author on round 9's scan and once by the lead on round 10's, then
tuned on (round 11), as ``tuning-9`` was: part of ``all``."""
HELD_OUT_6_FILES = {
    "poisoned": "poisoned_held_out_6.json",
    "real": "benign_real_7.json",
    "written": "benign_lookalikes_6.json",
}
LOOKALIKES_6 = "lookalikes-held-out-6"
"""The package of ``held-out-6``'s written look-alikes."""
HELD_OUT_7 = "held-out-7"
"""Round 11 (2026-12-03, helper ``heldout7``): poisoned family ``o`` (``poisoned_held_out_7.json``), real
tools of npm packages no earlier corpus used (``benign_real_8.json``) and written look-alikes
(``benign_lookalikes_7.json``), written without reading the scan's rules, lexicons or scorer. The name
stays as the files' ``split`` label; the part itself is now :data:`TUNING_11`."""
TUNING_11 = "tuning-11"
"""``held-out-7``, measured blind by its author on round 10's scan and once by the lead on round 11's, then
tuned and trained on (round 12), as ``tuning-10`` was: part of ``all``."""
HELD_OUT_7_FILES = {
    "poisoned": "poisoned_held_out_7.json",
    "real": "benign_real_8.json",
    "written": "benign_lookalikes_7.json",
}
LOOKALIKES_7 = "lookalikes-held-out-7"
"""The package of ``held-out-7``'s written look-alikes."""
HELD_OUT_8 = "held-out-8"
"""Stop 27 (2026-12-04, helper ``heldout8``): poisoned family ``p`` (``poisoned_held_out_8.json``), real
tools of PyPI packages no earlier corpus used (``benign_real_9.json``) and written look-alikes
(``benign_lookalikes_8.json``). Written without reading the scan's rules, lexicons or scorer; NEVER tuned
on, and not part of ``all``."""
HELD_OUT_8_FILES = {
    "poisoned": "poisoned_held_out_8.json",
    "real": "benign_real_9.json",
    "written": "benign_lookalikes_8.json",
}
LOOKALIKES_8 = "lookalikes-held-out-8"
"""The package of ``held-out-8``'s written look-alikes."""
BLIND_PARTS = {HELD_OUT_3: HELD_OUT_3_FILES, HELD_OUT_4: HELD_OUT_4_FILES}
"""The parts that live in files of their own and are never tuned on, with their files."""
BLIND_PARTS[HELD_OUT_8] = HELD_OUT_8_FILES
LOOKALIKES = "written"
"""The ``registry`` of the benign look-alikes: written for the project, not listed from a real server."""


@cache
def load(name: str) -> dict[str, Any]:
    """One corpus file, parsed once."""
    path = (
        Path(os.environ.get("INJECTION_BENIGN", CORPUS / name))
        if name == "benign_real.json"
        else CORPUS / name
    )
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


@cache
def _seen_packages() -> frozenset[str]:
    lines = (CORPUS / "benign_seen_packages.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


def first_split(package: str) -> str:
    """The first split: half the packages, by a hash of the name (measured once, then tuned on)."""
    return HELD_OUT if hashlib.sha256(f"split:{package}".encode()).digest()[0] < 128 else TUNING


@cache
def _held_out_3_packages() -> frozenset[str]:
    return frozenset(load(HELD_OUT_3_FILES["real"])["packages"])


@cache
def _held_out_4_packages() -> frozenset[str]:
    return frozenset(load(HELD_OUT_4_FILES["real"])["packages"])


@cache
def _held_out_5_packages() -> frozenset[str]:
    return frozenset(load(HELD_OUT_5_FILES["real"])["packages"])


@cache
def _held_out_6_packages() -> frozenset[str]:
    return frozenset(load(HELD_OUT_6_FILES["real"])["packages"])


@cache
def _held_out_7_packages() -> frozenset[str]:
    return frozenset(load(HELD_OUT_7_FILES["real"])["packages"])


@cache
def _held_out_8_packages() -> frozenset[str]:
    return frozenset(load(HELD_OUT_8_FILES["real"])["packages"])


@cache
def _tuning_7_packages() -> frozenset[str]:
    if not (CORPUS / TUNING_7_REAL).exists():
        return frozenset()
    return frozenset(load(TUNING_7_REAL)["packages"])


def benign_split(registry: str, package: str) -> str:
    """``held-out`` for the packages built after the first measurement, else the first split's side
    (``tuning`` or ``tuning-2``); ``tuning-3`` to ``tuning-8`` for the written look-alikes;
    ``held-out-3`` and ``held-out-4`` for the packages and look-alikes of those parts, ``tuning-9``,
    ``tuning-10`` and ``tuning-11`` for those of the former ``held-out-5``, ``held-out-6`` and
    ``held-out-7``; ``held-out-8`` for that part's. A package's tools are never split."""
    if (registry, package) == (LOOKALIKES, LOOKALIKES_8) or f"{registry}:{package}" in _held_out_8_packages():
        return HELD_OUT_8
    if registry == LOOKALIKES:
        if package == LOOKALIKES_3:
            return HELD_OUT_3
        if package == LOOKALIKES_4:
            return HELD_OUT_4
        if package == LOOKALIKES_5:
            return TUNING_9
        if package == LOOKALIKES_6:
            return TUNING_10
        if package == LOOKALIKES_7:
            return TUNING_11
        return {
            "lookalikes-2": TUNING_4,
            "lookalikes-3": TUNING_5,
            "lookalikes-4": TUNING_6,
            "lookalikes-5": TUNING_7,
            "lookalikes-6": TUNING_8,
        }.get(package, TUNING_3)
    if f"{registry}:{package}" in _held_out_3_packages():
        return HELD_OUT_3
    if f"{registry}:{package}" in _held_out_4_packages():
        return HELD_OUT_4
    if f"{registry}:{package}" in _held_out_5_packages():
        return TUNING_9
    if f"{registry}:{package}" in _held_out_6_packages():
        return TUNING_10
    if f"{registry}:{package}" in _held_out_7_packages():
        return TUNING_11
    if f"{registry}:{package}" in _tuning_7_packages():
        return TUNING_7
    if f"{registry}:{package}" not in _seen_packages():
        return HELD_OUT
    return TUNING if first_split(package) == TUNING else TUNING_2


def benign_tools(split: str = "all") -> list[dict[str, Any]]:
    """The benign definitions of ``split`` (or all of them but the blind parts ``held-out-3``, ``-4`` and
    ``-8``), each with its package and registry: the real ones, and the written look-alikes."""
    if split == HELD_OUT_3:
        return held_out_3_benign("real") + held_out_3_benign("written")
    if split == HELD_OUT_4:
        return held_out_4_benign("real") + held_out_4_benign("written")
    if split in (TUNING_9, HELD_OUT_5):
        return held_out_5_benign("real") + held_out_5_benign("written")
    if split in (TUNING_10, HELD_OUT_6):
        return held_out_6_benign("real") + held_out_6_benign("written")
    if split in (TUNING_11, HELD_OUT_7):
        return held_out_7_benign("real") + held_out_7_benign("written")
    if split == HELD_OUT_8:
        return held_out_8_benign("real") + held_out_8_benign("written")
    tools: list[dict[str, Any]] = load("benign_real.json")["tools"] + load("benign_lookalikes.json")["tools"]
    if split in (TUNING_7, "all") and (CORPUS / TUNING_7_REAL).exists():
        tools = tools + load(TUNING_7_REAL)["tools"]
    if split == "all":
        tools = tools + held_out_5_benign("real") + held_out_5_benign("written")
        tools = tools + held_out_6_benign("real") + held_out_6_benign("written")
        tools = tools + held_out_7_benign("real") + held_out_7_benign("written")
    return [
        tool for tool in tools if split == "all" or benign_split(tool["registry"], tool["package"]) == split
    ]


def held_out_3_benign(side: str) -> list[dict[str, Any]]:
    """The benign definitions of ``held-out-3``: ``real`` (listed from running servers) or ``written``."""
    tools: list[dict[str, Any]] = load(HELD_OUT_3_FILES[side])["tools"]
    return tools


def held_out_4_benign(side: str) -> list[dict[str, Any]]:
    """The benign definitions of ``held-out-4``: ``real`` (listed from running servers) or ``written``."""
    tools: list[dict[str, Any]] = load(HELD_OUT_4_FILES[side])["tools"]
    return tools


def held_out_5_benign(side: str) -> list[dict[str, Any]]:
    """The benign definitions of ``held-out-5`` (now ``tuning-9``): ``real`` or ``written``."""
    tools: list[dict[str, Any]] = load(HELD_OUT_5_FILES[side])["tools"]
    return tools


def held_out_6_benign(side: str) -> list[dict[str, Any]]:
    """The benign definitions of ``held-out-6`` (now ``tuning-10``): ``real`` or ``written``."""
    tools: list[dict[str, Any]] = load(HELD_OUT_6_FILES[side])["tools"]
    return tools


def held_out_7_benign(side: str) -> list[dict[str, Any]]:
    """The benign definitions of ``held-out-7`` (now ``tuning-11``): ``real`` or ``written``."""
    tools: list[dict[str, Any]] = load(HELD_OUT_7_FILES[side])["tools"]
    return tools


def held_out_8_benign(side: str) -> list[dict[str, Any]]:
    """The benign definitions of ``held-out-8``: ``real`` (listed from running servers) or ``written``."""
    tools: list[dict[str, Any]] = load(HELD_OUT_8_FILES[side])["tools"]
    return tools


def poisoned_tools(split: str = "all") -> list[dict[str, Any]]:
    """The poisoned definitions of ``split`` (or all of them but the blind parts ``held-out-3``, ``-4`` and
    ``-8``); ``tuning-9``'s, ``tuning-10``'s and ``tuning-11``'s keep their file's ``split`` label,
    ``held-out-5``, ``held-out-6`` and ``held-out-7`` (which still name the parts here)."""
    if split in BLIND_PARTS:
        own: list[dict[str, Any]] = load(BLIND_PARTS[split]["poisoned"])["tools"]
        return own
    family_m: list[dict[str, Any]] = load(HELD_OUT_5_FILES["poisoned"])["tools"]
    family_n: list[dict[str, Any]] = load(HELD_OUT_6_FILES["poisoned"])["tools"]
    family_o: list[dict[str, Any]] = load(HELD_OUT_7_FILES["poisoned"])["tools"]
    if split in (TUNING_9, HELD_OUT_5):
        return family_m
    if split in (TUNING_10, HELD_OUT_6):
        return family_n
    if split in (TUNING_11, HELD_OUT_7):
        return family_o
    tools: list[dict[str, Any]] = load("poisoned_real.json")["tools"]
    chosen = [tool for tool in tools if split == "all" or tool["split"] == split]
    return chosen + family_m + family_n + family_o if split == "all" else chosen


Scanner = Callable[[dict[str, Any]], tuple[Verdict, list[Finding]]]


def graded_scan(tool: dict[str, Any]) -> tuple[Verdict, list[Finding]]:
    """The scan as the registry applies it: findings of every field the model reads, and their grade."""
    findings = scan_tool(
        tool["name"],
        tool["description"],
        tool["inputSchema"],
        title=tool.get("title"),
    )
    return grade(findings), findings


@dataclass(frozen=True)
class Rates:
    """What a scanner did to a set of tools."""

    total: int
    blocked: int
    withheld: int

    @property
    def caught(self) -> int:
        """Blocked or withheld: kept from the model."""
        return self.blocked + self.withheld

    def share(self, count: int) -> float:
        """``count`` as a share of the set (0 for an empty set)."""
        return count / self.total if self.total else 0.0


def rates(verdicts: Iterable[Verdict]) -> Rates:
    """Count the blocks and withholds among ``verdicts``."""
    counted = Counter(verdicts)
    return Rates(sum(counted.values()), counted["block"], counted["withhold"])


def _line(label: str, measured: Rates) -> str:
    return (
        f"{label:<34} {measured.total:>5}"
        f"  caught {measured.caught:>4} ({measured.share(measured.caught):6.1%})"
        f"  blocked {measured.blocked:>4} ({measured.share(measured.blocked):6.1%})"
        f"  withheld {measured.withheld:>4} ({measured.share(measured.withheld):6.1%})"
    )


def report(split: str, scanner: Scanner, *, show_benign: bool, show_missed: bool) -> None:
    """Print the rates of ``scanner`` on ``split``."""
    benign_part = HELD_OUT if split == HELD_OUT_2 else split
    benign = [(tool, *scanner(tool)) for tool in benign_tools(benign_part)]
    poisoned = [(tool, *scanner(tool)) for tool in poisoned_tools(split)]
    packages = {tool["package"] for tool in benign_tools(benign_part)}
    print(f"split: {split}; benign from {len(packages)} packages")
    print(_line("benign", rates(verdict for _, verdict, _ in benign)))
    parts = {
        **BLIND_PARTS,
        TUNING_9: HELD_OUT_5_FILES,
        HELD_OUT_5: HELD_OUT_5_FILES,
        TUNING_10: HELD_OUT_6_FILES,
        HELD_OUT_6: HELD_OUT_6_FILES,
        TUNING_11: HELD_OUT_7_FILES,
        HELD_OUT_7: HELD_OUT_7_FILES,
    }
    if split in parts:
        # The real tools and the written look-alikes are reported apart: they answer different questions.
        written = {tool["id"] for tool in load(parts[split]["written"])["tools"]}
        print(_line("  real", rates(verdict for tool, verdict, _ in benign if tool.get("id") not in written)))
        # One big generated package can outweigh the rest, so also count packages touched.
        real_packages = {tool["package"] for tool, _, _ in benign if tool.get("id") not in written}
        touched = {
            tool["package"]
            for tool, verdict, _ in benign
            if tool.get("id") not in written and verdict != "clean"
        }
        print(f"  real packages with a tool kept out: {len(touched)} of {len(real_packages)}")
        print(_line("  written", rates(verdict for tool, verdict, _ in benign if tool.get("id") in written)))
        for kind in sorted({tool["kind"] for tool, _, _ in benign if tool.get("id") in written}):
            print(
                _line(
                    f"    {kind}",
                    rates(verdict for tool, verdict, _ in benign if tool.get("kind") == kind),
                )
            )
    print(_line("poisoned", rates(verdict for _, verdict, _ in poisoned)))
    for attack in sorted({tool["class"] for tool, _, _ in poisoned}):
        print(
            _line(f"  {attack}", rates(verdict for tool, verdict, _ in poisoned if tool["class"] == attack))
        )
    languages = sorted({tool.get("language", "en") for tool, _, _ in poisoned})
    if len(languages) > 1:
        for language in languages:
            print(
                _line(
                    f"  language {language}",
                    rates(verdict for tool, verdict, _ in poisoned if tool.get("language", "en") == language),
                )
            )
    if show_benign:
        for tool, verdict, findings in benign:
            if verdict != "clean":
                print(f"\n[{verdict}] {tool['package']} / {tool['name']}")
                for finding in findings:
                    print(
                        f"    {finding.confidence:<4} {finding.rule:<18} {finding.field}: {finding.excerpt}"
                    )
    if show_missed:
        for tool, verdict, findings in poisoned:
            if verdict == "clean" or (show_missed and verdict == "withhold"):
                print(f"\n[{verdict}] {tool['id']} ({tool['spot']})")
                for finding in findings:
                    print(
                        f"    {finding.confidence:<4} {finding.rule:<18} {finding.field}: {finding.excerpt}"
                    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--split",
        choices=(
            HELD_OUT,
            HELD_OUT_2,
            HELD_OUT_3,
            HELD_OUT_4,
            HELD_OUT_8,
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
            "all",
        ),
        default=HELD_OUT,
    )
    parser.add_argument(
        "--show-benign", action="store_true", help="list the benign tools kept from the model"
    )
    parser.add_argument("--show-missed", action="store_true", help="list the poisoned tools not blocked")
    options = parser.parse_args()
    report(options.split, graded_scan, show_benign=options.show_benign, show_missed=options.show_missed)


if __name__ == "__main__":
    main()
