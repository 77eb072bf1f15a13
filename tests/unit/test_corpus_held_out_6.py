"""The format of the former held-out part ``held-out-6`` (poisoned family ``n``, new PyPI packages, new
look-alikes), now the tuning part ``tuning-10``.

Only the format is checked here: counts, classes, languages, placement, reserved example values, no repeat of
an earlier corpus and no package shared with any other part. The part was measured blind by its author on
round 9's scan and once by the lead on round 10's (docs/security.md, "held-out-6"), then tuned on in round 11,
as ``tuning-9`` was: its files keep their "HELD OUT" header and ``split`` label, but it is part of ``all``,
and its floors in ``test_injection_corpus.py`` are in-sample floors.
"""

from __future__ import annotations

import re
from collections import Counter

from tests.corpus import (
    build_benign,
    build_benign_3,
    build_benign_4,
    build_benign_5,
    build_benign_6,
    build_benign_7,
    build_lookalikes_6,
    build_poisoned_n,
)
from tests.corpus._part_checks import (
    ENCODINGS,
    benign_repeats,
    clear,
    names_used_before,
    payloads_per_class,
    placement_problems,
    serialized,
    unfresh,
    unreserved_addresses,
)
from tests.corpus.evaluate import (
    BLIND_PARTS,
    CORPUS,
    HELD_OUT,
    HELD_OUT_2,
    HELD_OUT_6,
    HELD_OUT_6_FILES,
    LOOKALIKES,
    LOOKALIKES_6,
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
    benign_split,
    benign_tools,
    held_out_6_benign,
    load,
    poisoned_tools,
)

MIN_POISONED = 240
MIN_PAYLOADS = 120
MIN_PAYLOADS_PER_CLASS = 4
# The classes the part weights more (issue 15's weakest readings of earlier rounds).
WEIGHTED = (
    "persona-jailbreak",
    "context-extraction",
    "rug-pull-update",
    "concealment",
    "parameter-name-poisoning",
)
MIN_PAYLOADS_WEIGHTED = 6
MIN_OTHER_LANGUAGES = 15
MIN_OTHER_LANGUAGE_SHARE = 0.25
REQUIRED_LANGUAGES = {
    *("tr", "nl", "pt", "pl", "vi", "id", "hi", "ar", "he", "ja"),
    *("ko", "zh", "de", "fr", "es", "it", "ru", "uk", "sv"),
}
MIN_PACKAGES = 30
MIN_REAL_TOOLS = 800
MIN_LOOKALIKES = 60
MIN_LOOKALIKES_PER_KIND = 8
MIN_LOOKALIKES_OTHER_LANGUAGES = 12
LOOKALIKE_KINDS = {
    "defensive-statement",
    "product-naming",
    "structural-tags",
    "secrets-purpose",
    "hidden-field",
    "usage-note",
    "destructive-honest",
}
EARLIER_BUILDERS = (build_benign, build_benign_3, build_benign_4, build_benign_5, build_benign_6)
"""The builders of the earlier parts, whose package tables count as used."""
MINE = set(HELD_OUT_6_FILES.values())


def _payloads() -> list[str]:
    return [payload for payloads in build_poisoned_n.N.values() for _, payload in payloads]


def test_every_file_of_the_part_says_it_is_held_out() -> None:
    for name in HELD_OUT_6_FILES.values():
        assert load(name)["about"].startswith("HELD OUT (part held-out-6)"), name


def test_family_n_covers_every_class_each_payload_placed_twice() -> None:
    tools = poisoned_tools(HELD_OUT_6)
    assert len(tools) >= MIN_POISONED
    assert len(_payloads()) >= MIN_PAYLOADS
    carriers = {source for source, _ in build_poisoned_n.CARRIERS}
    assert not placement_problems(tools, family="n", split=HELD_OUT_6, carriers=carriers)
    payloads = payloads_per_class(tools)
    assert min(payloads.values()) >= MIN_PAYLOADS_PER_CLASS, payloads
    assert min(payloads[attack] for attack in WEIGHTED) >= MIN_PAYLOADS_WEIGHTED, payloads
    # A quarter or more in other languages, many of them, the brief's list among them.
    languages = Counter(tool["language"] for tool in tools)
    assert len(languages) - 1 >= MIN_OTHER_LANGUAGES, languages
    assert set(languages) >= REQUIRED_LANGUAGES, languages
    assert (len(tools) - languages["en"]) / len(tools) >= MIN_OTHER_LANGUAGE_SHARE, languages
    # The special forms are spelled by the shared placement, so each must carry a known prefix.
    for attack in ("invisible-smuggling", "encoded-payload"):
        for _, payload in build_poisoned_n.N[attack]:
            assert payload.partition(":")[0] in ENCODINGS, payload
    # A poisoned parameter name is a plain identifier, as a server would declare it.
    for _, payload in build_poisoned_n.N["parameter-name-poisoning"]:
        assert re.fullmatch(r"[a-z][a-z0-9_]{8,80}", payload), payload


def test_the_written_files_are_what_their_builders_write_byte_for_byte() -> None:
    for name, builder in (
        (HELD_OUT_6_FILES["poisoned"], build_poisoned_n),
        (HELD_OUT_6_FILES["written"], build_lookalikes_6),
    ):
        assert (CORPUS / name).read_text(encoding="utf-8") == serialized(builder.document()), name


def test_family_n_is_fresh_text_not_an_earlier_familys() -> None:
    fresh = [clear(payload) for payload in _payloads()]
    assert len(set(fresh)) == len(fresh)
    # Not one earlier text, nor a run of eight words in common with one: written anew, not edited from one.
    assert not unfresh(_payloads(), poisoned_tools(HELD_OUT_6), MINE)


def test_family_n_uses_only_reserved_example_addresses() -> None:
    assert not unreserved_addresses(poisoned_tools(HELD_OUT_6), _payloads())


def test_the_real_tools_come_from_pypi_packages_no_other_part_used() -> None:
    document = load(HELD_OUT_6_FILES["real"])
    assert len(document["packages"]) >= MIN_PACKAGES
    assert len(document["tools"]) >= MIN_REAL_TOOLS
    assert {key.split(":", 1)[0] for key in document["packages"]} == {"pypi"}
    # Not even under another registry: a name used before is out, whichever registry it was.
    candidates = {package.lower() for package, _ in build_benign_7.PYPI}
    used = names_used_before(MINE, EARLIER_BUILDERS)
    assert not candidates & used, sorted(candidates & used)
    assert {f"pypi:{package}" for package, _ in build_benign_7.PYPI} >= {
        *document["packages"],
        *document["failed"],
    }
    for key, info in document["packages"].items():
        package = key.split(":", 1)[1]
        # Each package records how it was installed, so that a rebuild installs the same.
        assert info.get("constraint") == (None if package in build_benign_7.MCP2 else "mcp<2"), key
    for tool in document["tools"]:
        key = f"{tool['registry']}:{tool['package']}"
        assert tool["version"] == document["packages"][key]["version"]
        assert isinstance(tool["name"], str) and isinstance(tool["description"], str)
        assert isinstance(tool["inputSchema"], dict)
        assert benign_split(tool["registry"], tool["package"]) == TUNING_10
    kept = Counter(f"{tool['registry']}:{tool['package']}" for tool in document["tools"])
    assert {key: info["tools"] for key, info in document["packages"].items()} == dict(kept)
    assert all(isinstance(reason, str) and reason for reason in document["failed"].values())


def test_the_written_look_alikes_cover_the_false_positive_kinds() -> None:
    tools = held_out_6_benign("written")
    assert len(tools) >= MIN_LOOKALIKES
    kinds = Counter(tool["kind"] for tool in tools)
    assert set(kinds) == LOOKALIKE_KINDS
    assert min(kinds.values()) >= MIN_LOOKALIKES_PER_KIND, kinds
    languages = Counter(tool["language"] for tool in tools)
    assert len(languages) - 1 >= 5, languages
    assert len(tools) - languages["en"] >= MIN_LOOKALIKES_OTHER_LANGUAGES, languages
    assert {(tool["registry"], tool["package"]) for tool in tools} == {(LOOKALIKES, LOOKALIKES_6)}
    assert benign_split(LOOKALIKES, LOOKALIKES_6) == TUNING_10
    # Valid MCP tool names (2025-11-25: 1-128 of A-Z a-z 0-9 _ - .), as a real server would list them.
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]{1,128}", tool["name"]) for tool in tools)
    assert len({tool["name"] for tool in tools}) == len(tools)


def test_no_benign_definition_repeats_another_corpus_file() -> None:
    problems = benign_repeats(benign_tools(HELD_OUT_6), held_out_6_benign("written"), MINE)
    assert not problems, problems


def test_no_other_part_holds_the_part() -> None:
    ids = {tool["id"] for tool in poisoned_tools(TUNING_10)}
    sources = {(tool["registry"], tool["package"]) for tool in benign_tools(TUNING_10)}
    others = [
        HELD_OUT,
        HELD_OUT_2,
        TUNING,
        TUNING_2,
        TUNING_3,
        TUNING_4,
        TUNING_5,
        TUNING_6,
        TUNING_7,
        TUNING_8,
        TUNING_9,
        TUNING_11,
        *BLIND_PARTS,
    ]
    for part in others:
        assert not ids & {tool["id"] for tool in poisoned_tools(part)}, part
        assert not sources & {(tool["registry"], tool["package"]) for tool in benign_tools(part)}, part


def test_the_part_is_tuning_data_now() -> None:
    # Measured twice blind, then tuned on (round 11): "all" holds it whole, and the old name is an alias.
    assert TUNING_10 not in BLIND_PARTS and HELD_OUT_6 not in BLIND_PARTS
    assert {tool["id"] for tool in poisoned_tools(TUNING_10)} <= {tool["id"] for tool in poisoned_tools()}

    def keys(split: str) -> set[tuple[str, str, str]]:
        return {(tool["registry"], tool["package"], tool["name"]) for tool in benign_tools(split)}

    assert keys(TUNING_10) <= keys("all")
    assert benign_tools(TUNING_10) == held_out_6_benign("real") + held_out_6_benign("written")
    assert poisoned_tools(TUNING_10) == load(HELD_OUT_6_FILES["poisoned"])["tools"]
    assert benign_tools(HELD_OUT_6) == benign_tools(TUNING_10)
    assert poisoned_tools(HELD_OUT_6) == poisoned_tools(TUNING_10)
