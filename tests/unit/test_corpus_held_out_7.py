"""The format of the former held-out part ``held-out-7`` (poisoned family ``o``, new npm packages, new
look-alikes), now the tuning part ``tuning-11``.

Only the format is checked here: counts, classes, languages, placement, reserved example values, no repeat of
an earlier corpus and no package shared with any other part. The part was measured blind by its author on
round 10's scan and once by the lead on round 11's (docs/security.md, "held-out-7"), then tuned and trained
on in round 12, as ``tuning-10`` was: its files keep their "HELD OUT" header and ``split`` label, but it is
part of ``all``, and its floors in ``test_injection_corpus.py`` are in-sample floors.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Any

from tests.corpus import (
    build_benign,
    build_benign_3,
    build_benign_4,
    build_benign_5,
    build_benign_6,
    build_benign_7,
    build_benign_8,
    build_lookalikes_7,
    build_poisoned_o,
)
from tests.corpus._part_checks import (
    ENCODINGS,
    benign_repeats,
    clear,
    listing_problems,
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
    HELD_OUT_7,
    HELD_OUT_7_FILES,
    LOOKALIKES,
    LOOKALIKES_7,
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
    held_out_7_benign,
    load,
    poisoned_tools,
)

MIN_POISONED = 240
MIN_PAYLOADS = 120
MIN_PAYLOADS_PER_CLASS = 4
# The classes the part weights more: the misses issue 15 names, and earlier rounds' weakest readings.
WEIGHTED = (
    "authority-notice",
    "deprecated-replacement",
    "url-parameter-exfiltration",
    "markdown-image-exfiltration",
    "secrets-tool-chaining",
    "hide-output",
    "context-extraction",
    "persona-jailbreak",
    "instruction-override",
    "parameter-name-poisoning",
)
MIN_PAYLOADS_WEIGHTED = 5
MIN_OTHER_LANGUAGES = 15
MIN_OTHER_LANGUAGE_SHARE = 0.33
MIN_NON_LATIN_LANGUAGES = 10
REQUIRED_LANGUAGES = {
    *("de", "fr", "es", "it", "pt", "nl", "pl", "tr", "vi", "id", "sv", "cs", "ro", "hu", "fi", "sw"),
    *("ru", "uk", "el", "ar", "fa", "he", "hi", "bn", "th", "ja", "ko", "zh"),
}
MIN_PACKAGES = 40
MIN_REAL_TOOLS = 1500
LOOKALIKES_COUNT = 63
LOOKALIKES_PER_KIND = 9
LOOKALIKES_OTHER_LANGUAGES = 15
LOOKALIKE_KINDS = {
    "defensive-statement",
    "product-naming",
    "structural-tags",
    "secrets-purpose",
    "hidden-field",
    "usage-note",
    "destructive-honest",
}
EARLIER_BUILDERS = (
    build_benign,
    build_benign_3,
    build_benign_4,
    build_benign_5,
    build_benign_6,
    build_benign_7,
)
"""The builders of the earlier parts, whose package tables count as used."""
MINE = set(HELD_OUT_7_FILES.values())


def _payloads() -> list[str]:
    return [payload for payloads in build_poisoned_o.FAMILY_O.values() for _, payload in payloads]


def _is_latin(text: str) -> bool:
    letters = [char for char in text if char.isalpha()]
    return all("LATIN" in unicodedata.name(char, "") for char in letters)


def test_every_file_of_the_part_says_it_is_held_out() -> None:
    for name in HELD_OUT_7_FILES.values():
        assert load(name)["about"].startswith("HELD OUT (part held-out-7)"), name


def test_family_o_covers_every_class_each_payload_placed_twice() -> None:
    tools = poisoned_tools(HELD_OUT_7)
    assert len(tools) >= MIN_POISONED
    assert len(_payloads()) >= MIN_PAYLOADS
    carriers = {source for source, _ in build_poisoned_o.CARRIERS}
    assert not placement_problems(tools, family="o", split=HELD_OUT_7, carriers=carriers)
    payloads = payloads_per_class(tools)
    assert min(payloads.values()) >= MIN_PAYLOADS_PER_CLASS, payloads
    assert min(payloads[attack] for attack in WEIGHTED) >= MIN_PAYLOADS_WEIGHTED, payloads
    # A third or more in other languages, many of them, the brief's list among them.
    languages = Counter(tool["language"] for tool in tools)
    assert len(languages) - 1 >= MIN_OTHER_LANGUAGES, languages
    assert set(languages) >= REQUIRED_LANGUAGES, languages
    assert (len(tools) - languages["en"]) / len(tools) >= MIN_OTHER_LANGUAGE_SHARE, languages
    # Some of them in scripts other than Latin, as the text is written (not transliterated).
    non_latin = {
        language
        for payloads in build_poisoned_o.FAMILY_O.values()
        for language, payload in payloads
        if not _is_latin(clear(payload))
    }
    assert len(non_latin) >= MIN_NON_LATIN_LANGUAGES, non_latin
    # The special forms are spelled by the shared placement, so each must carry a known prefix.
    for attack in ("invisible-smuggling", "encoded-payload"):
        for _, payload in build_poisoned_o.FAMILY_O[attack]:
            assert payload.partition(":")[0] in ENCODINGS, payload
    # A poisoned parameter name is a plain identifier, as a server would declare it.
    for _, payload in build_poisoned_o.FAMILY_O["parameter-name-poisoning"]:
        assert re.fullmatch(r"[a-z][a-z0-9_]{8,80}", payload), payload


def test_the_written_files_are_what_their_builders_write_byte_for_byte() -> None:
    for name, builder in (
        (HELD_OUT_7_FILES["poisoned"], build_poisoned_o),
        (HELD_OUT_7_FILES["written"], build_lookalikes_7),
    ):
        assert (CORPUS / name).read_text(encoding="utf-8") == serialized(builder.document()), name


def test_family_o_is_fresh_text_not_an_earlier_familys() -> None:
    fresh = [clear(payload) for payload in _payloads()]
    assert len(set(fresh)) == len(fresh)
    # Not one earlier text, nor a run of eight words in common with one: written anew, not edited from one.
    assert not unfresh(_payloads(), poisoned_tools(HELD_OUT_7), MINE)


def test_the_part_uses_only_reserved_example_addresses() -> None:
    assert not unreserved_addresses(poisoned_tools(HELD_OUT_7) + held_out_7_benign("written"), _payloads())


def test_the_real_tools_come_from_npm_packages_no_other_part_used() -> None:
    document = load(HELD_OUT_7_FILES["real"])
    candidates = [package for package, _ in build_benign_8.NPM]
    used = names_used_before(MINE, EARLIER_BUILDERS)
    assert not listing_problems(
        document,
        registry="npm",
        candidates=candidates,
        used=used,
        split=TUNING_11,
        min_packages=MIN_PACKAGES,
        min_tools=MIN_REAL_TOOLS,
        benign_split=benign_split,
    )
    # No one package outweighs the rest: a big one is capped, and says how many it listed.
    for key, info in document["packages"].items():
        assert info["tools"] <= build_benign_8.MAX_PER_PACKAGE, key
        if "listed" in info:
            assert info["listed"] > info["tools"] == build_benign_8.MAX_PER_PACKAGE, key


def test_the_cap_keeps_a_hash_chosen_share_of_a_big_package_and_all_of_a_small_one() -> None:
    tools = [{"registry": "npm", "package": "big", "name": f"tool_{number:03}"} for number in range(10)]
    tools += [{"registry": "npm", "package": "small", "name": "only_tool"}]
    packages: dict[str, Any] = {"npm:big": {"tools": 10}, "npm:small": {"tools": 1}}
    kept = build_benign_8.capped(packages, tools, limit=4)
    assert [tool["name"] for tool in kept if tool["package"] == "small"] == ["only_tool"]
    big = [tool["name"] for tool in kept if tool["package"] == "big"]
    # Four of ten, in the listed order, not simply the first four names.
    assert len(big) == 4 and big == sorted(big) and big != [f"tool_{number:03}" for number in range(4)]
    assert packages == {"npm:big": {"tools": 4, "listed": 10}, "npm:small": {"tools": 1}}


def test_the_written_look_alikes_cover_the_false_positive_kinds() -> None:
    tools = held_out_7_benign("written")
    assert len(tools) == LOOKALIKES_COUNT
    kinds = Counter(tool["kind"] for tool in tools)
    assert set(kinds) == LOOKALIKE_KINDS
    assert set(kinds.values()) == {LOOKALIKES_PER_KIND}, kinds
    languages = Counter(tool["language"] for tool in tools)
    assert len(languages) - 1 >= 5, languages
    assert len(tools) - languages["en"] == LOOKALIKES_OTHER_LANGUAGES, languages
    assert {(tool["registry"], tool["package"]) for tool in tools} == {(LOOKALIKES, LOOKALIKES_7)}
    assert build_lookalikes_7.PACKAGE == LOOKALIKES_7
    assert benign_split(LOOKALIKES, LOOKALIKES_7) == TUNING_11
    # Valid MCP tool names (2025-11-25: 1-128 of A-Z a-z 0-9 _ - .), as a real server would list them.
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]{1,128}", tool["name"]) for tool in tools)
    assert len({tool["name"] for tool in tools}) == len(tools)


def test_no_benign_definition_repeats_another_corpus_file() -> None:
    problems = benign_repeats(benign_tools(HELD_OUT_7), held_out_7_benign("written"), MINE)
    assert not problems, problems


def test_no_other_part_holds_the_part() -> None:
    ids = {tool["id"] for tool in poisoned_tools(TUNING_11)}
    sources = {(tool["registry"], tool["package"]) for tool in benign_tools(TUNING_11)}
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
        TUNING_10,
        *BLIND_PARTS,
    ]
    for part in others:
        assert not ids & {tool["id"] for tool in poisoned_tools(part)}, part
        assert not sources & {(tool["registry"], tool["package"]) for tool in benign_tools(part)}, part


def test_the_part_is_tuning_data_now() -> None:
    # Measured twice blind, then tuned and trained on (round 12): "all" holds it whole, the old name is an
    # alias.
    assert TUNING_11 not in BLIND_PARTS and HELD_OUT_7 not in BLIND_PARTS
    assert {tool["id"] for tool in poisoned_tools(TUNING_11)} <= {tool["id"] for tool in poisoned_tools()}

    def keys(split: str) -> set[tuple[str, str, str]]:
        return {(tool["registry"], tool["package"], tool["name"]) for tool in benign_tools(split)}

    assert keys(TUNING_11) <= keys("all")
    assert benign_tools(TUNING_11) == held_out_7_benign("real") + held_out_7_benign("written")
    assert poisoned_tools(TUNING_11) == load(HELD_OUT_7_FILES["poisoned"])["tools"]
    assert benign_tools(HELD_OUT_7) == benign_tools(TUNING_11)
    assert poisoned_tools(HELD_OUT_7) == poisoned_tools(TUNING_11)
