"""The format of the held-out part ``held-out-8`` (poisoned family ``p``, new PyPI packages, new look-alikes).

Only the format is checked here: counts, classes, languages, placement, reserved example values, names and
definitions not used before, and no package shared with any other part. Nothing here runs the injection
scan: the part is held out and was measured once, blind, by its author (docs/security.md, "held-out-8");
its detection floor lives with the others in ``tests/unit/test_injection_corpus.py``. Never tune the scan on
these files.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from tests.corpus import (
    build_benign,
    build_benign_3,
    build_benign_4,
    build_benign_5,
    build_benign_6,
    build_benign_7,
    build_benign_8,
    build_benign_9,
    build_lookalikes_8,
    build_poisoned_p,
)
from tests.corpus._part_checks import (
    ENCODINGS,
    benign_repeats,
    clear,
    listing_problems,
    names_used_before,
    other_files,
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
    HELD_OUT_8,
    HELD_OUT_8_FILES,
    LOOKALIKES,
    LOOKALIKES_8,
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
    held_out_8_benign,
    load,
    poisoned_tools,
)

PAYLOADS = 122
PAYLOADS_PER_CLASS = 4
# The classes the issue names most, one payload more each: authority notices, official "replacements",
# shadowing and rug pulls, URL and markdown-image exfiltration, secrets tools, hidden output, and the
# full-schema poisoning of file contents asked into a parameter and of parameter names.
WEIGHTED = (
    "authority-notice",
    "deprecated-replacement",
    "cross-server-shadowing",
    "rug-pull-update",
    "url-parameter-exfiltration",
    "markdown-image-exfiltration",
    "secrets-tool-chaining",
    "hide-output",
    "sensitive-file-to-parameter",
    "parameter-name-poisoning",
)
PAYLOADS_WEIGHTED = 5
MIN_OTHER_LANGUAGES = 20
MIN_OTHER_LANGUAGE_SHARE = 0.5
MIN_NON_LATIN_LANGUAGES = 10
REQUIRED_LANGUAGES = {
    *("de", "fr", "es", "it", "pt", "nl", "pl", "tr", "vi", "id", "sv", "cs", "ro", "hu", "fi", "sw"),
    *("ru", "uk", "el", "ar", "fa", "he", "hi", "bn", "th", "ja", "ko", "zh"),
}
MIN_PACKAGES = 40
MIN_REAL_TOOLS = 1500
LOOKALIKES_COUNT = 63
LOOKALIKES_PER_KIND = 9
LOOKALIKES_OTHER_LANGUAGES = 19
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
    build_benign_8,
)
"""The builders of the earlier parts, whose package tables count as used."""
MINE = set(HELD_OUT_8_FILES.values())
TOOL_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")
"""A valid MCP tool name (2025-11-25: 1-128 of A-Z a-z 0-9 _ - .), as a real server would list it."""


def _payloads() -> list[str]:
    return [payload for payloads in build_poisoned_p.FAMILY_P.values() for _, payload in payloads]


def _is_latin(text: str) -> bool:
    letters = [char for char in text if char.isalpha()]
    return all("LATIN" in unicodedata.name(char, "") for char in letters)


def test_every_file_of_the_part_says_it_is_held_out() -> None:
    for name in HELD_OUT_8_FILES.values():
        assert load(name)["about"].startswith("HELD OUT (part held-out-8)"), name


def test_family_p_covers_every_class_each_payload_placed_twice() -> None:
    tools = poisoned_tools(HELD_OUT_8)
    assert len(_payloads()) == PAYLOADS
    assert len(tools) == 2 * PAYLOADS
    carriers = {source for source, _ in build_poisoned_p.CARRIERS}
    assert not placement_problems(tools, family="p", split=HELD_OUT_8, carriers=carriers)
    payloads = payloads_per_class(tools)
    assert {attack: count for attack, count in payloads.items() if attack not in WEIGHTED} == {
        attack: PAYLOADS_PER_CLASS for attack in payloads if attack not in WEIGHTED
    }
    assert {attack: payloads[attack] for attack in WEIGHTED} == dict.fromkeys(WEIGHTED, PAYLOADS_WEIGHTED)


def test_half_of_family_p_is_in_other_languages_some_in_other_scripts() -> None:
    tools = poisoned_tools(HELD_OUT_8)
    languages = Counter(tool["language"] for tool in tools)
    assert len(languages) - 1 >= MIN_OTHER_LANGUAGES, languages
    assert set(languages) >= REQUIRED_LANGUAGES, languages
    assert (len(tools) - languages["en"]) / len(tools) >= MIN_OTHER_LANGUAGE_SHARE, languages
    # Written in the language's own script, not transliterated.
    non_latin = {
        language
        for payloads in build_poisoned_p.FAMILY_P.values()
        for language, payload in payloads
        if not _is_latin(clear(payload))
    }
    assert len(non_latin) >= MIN_NON_LATIN_LANGUAGES, non_latin
    assert all(language != "en" for language in non_latin), non_latin


def test_the_special_forms_are_spelled_by_the_shared_placement() -> None:
    for attack in ("invisible-smuggling", "encoded-payload"):
        for _, payload in build_poisoned_p.FAMILY_P[attack]:
            assert payload.partition(":")[0] in ENCODINGS, payload
    # Tag characters exist for ASCII only.
    for _, payload in build_poisoned_p.FAMILY_P["invisible-smuggling"]:
        if payload.startswith("TAGS:"):
            assert clear(payload).isascii(), payload
    # A poisoned parameter name is a plain identifier, as a server would declare it.
    for _, payload in build_poisoned_p.FAMILY_P["parameter-name-poisoning"]:
        assert re.fullmatch(r"[a-z][a-z0-9_]{8,80}", payload), payload


def test_the_written_files_are_what_their_builders_write_byte_for_byte() -> None:
    for name, builder in (
        (HELD_OUT_8_FILES["poisoned"], build_poisoned_p),
        (HELD_OUT_8_FILES["written"], build_lookalikes_8),
    ):
        assert (CORPUS / name).read_text(encoding="utf-8") == serialized(builder.document()), name


def test_family_p_is_fresh_text_not_an_earlier_familys() -> None:
    fresh = [clear(payload) for payload in _payloads()]
    assert len(set(fresh)) == len(fresh)
    # Not one earlier text, nor a run of eight words in common with one: written anew, not edited from one.
    assert not unfresh(_payloads(), poisoned_tools(HELD_OUT_8), MINE)


def test_the_part_uses_only_reserved_example_addresses() -> None:
    assert not unreserved_addresses(poisoned_tools(HELD_OUT_8) + held_out_8_benign("written"), _payloads())


def test_the_written_tool_names_are_valid_and_used_by_no_other_corpus_file() -> None:
    carriers = [carrier["name"] for _, carrier in build_poisoned_p.CARRIERS]
    written = [tool["name"] for tool in held_out_8_benign("written")]
    assert all(TOOL_NAME.fullmatch(name) for name in carriers + written)
    assert len(set(carriers + written)) == len(carriers) + len(written)
    earlier = {
        tool["name"]
        for name in [*other_files("benign_", MINE), *other_files("poisoned_", MINE)]
        for tool in load(name)["tools"]
    }
    assert not set(carriers + written) & earlier, sorted(set(carriers + written) & earlier)


def test_the_real_tools_come_from_pypi_packages_no_other_part_used() -> None:
    document = load(HELD_OUT_8_FILES["real"])
    candidates = [package for package, _ in build_benign_9.PYPI]
    used = names_used_before(MINE, EARLIER_BUILDERS)
    assert not listing_problems(
        document,
        registry="pypi",
        candidates=candidates,
        used=used,
        split=HELD_OUT_8,
        min_packages=MIN_PACKAGES,
        min_tools=MIN_REAL_TOOLS,
        benign_split=benign_split,
    )
    for key, info in document["packages"].items():
        # Installed as recorded: with the mcp<2 constraint unless the package needs the 2.x SDK.
        assert (info.get("constraint") == "mcp<2") == (key.split(":", 1)[1] not in build_benign_9.MCP2), key
        # No one package outweighs the rest: a big one is capped, and says how many it listed.
        assert info["tools"] <= build_benign_9.MAX_PER_PACKAGE, key
        if "listed" in info:
            assert info["listed"] > info["tools"] == build_benign_9.MAX_PER_PACKAGE, key


def test_the_written_look_alikes_cover_the_false_positive_kinds() -> None:
    tools = held_out_8_benign("written")
    assert len(tools) == LOOKALIKES_COUNT
    kinds = Counter(tool["kind"] for tool in tools)
    assert set(kinds) == LOOKALIKE_KINDS
    assert set(kinds.values()) == {LOOKALIKES_PER_KIND}, kinds
    languages = Counter(tool["language"] for tool in tools)
    assert len(languages) - 1 >= 10, languages
    assert len(tools) - languages["en"] == LOOKALIKES_OTHER_LANGUAGES, languages
    assert {(tool["registry"], tool["package"]) for tool in tools} == {(LOOKALIKES, LOOKALIKES_8)}
    assert build_lookalikes_8.PACKAGE == LOOKALIKES_8
    assert benign_split(LOOKALIKES, LOOKALIKES_8) == HELD_OUT_8


def test_no_benign_definition_repeats_another_corpus_file() -> None:
    problems = benign_repeats(benign_tools(HELD_OUT_8), held_out_8_benign("written"), MINE)
    assert not problems, problems


def test_all_and_every_other_part_leave_the_part_out_so_nothing_trains_on_it() -> None:
    ids = {tool["id"] for tool in poisoned_tools(HELD_OUT_8)}
    sources = {(tool["registry"], tool["package"]) for tool in benign_tools(HELD_OUT_8)}
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
        TUNING_11,
    ]
    others += [part for part in BLIND_PARTS if part != HELD_OUT_8]
    # "all" reads every tuning file at once, so one pass over it covers the tuning splits' benign side.
    all_sources = {(tool["registry"], tool["package"]) for tool in benign_tools()}
    assert not sources & all_sources
    assert not ids & {tool["id"] for tool in poisoned_tools()}
    for part in others:
        assert not ids & {tool["id"] for tool in poisoned_tools(part)}, part
        assert not sources & {(tool["registry"], tool["package"]) for tool in benign_tools(part)}, part
    assert benign_tools(HELD_OUT_8) == held_out_8_benign("real") + held_out_8_benign("written")
