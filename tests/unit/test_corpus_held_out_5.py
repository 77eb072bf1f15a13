"""The format of the former held-out part ``held-out-5`` (poisoned family ``m``, new npm packages, new
look-alikes), now the tuning part ``tuning-9``.

Only the format is checked here: counts, classes, languages, placement, reserved example values, no repeat of
an earlier corpus and no package shared with any other part. The part was measured once, blind, on round 9's
scan (docs/security.md, "held-out-5"), then tuned and trained on in round 10, as ``tuning-2`` once was: its
files keep their "HELD OUT" header and ``split`` label, but it is part of ``all`` and of the scorer's
training, and its floors in ``test_injection_corpus.py`` are in-sample floors.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from tests.corpus import (
    build_benign,
    build_benign_3,
    build_benign_4,
    build_benign_5,
    build_benign_6,
    build_lookalikes_5,
    build_poisoned,
    build_poisoned_g,
    build_poisoned_k,
    build_poisoned_m,
)
from tests.corpus._blind_parts import write
from tests.corpus._part_checks import shingles, strings
from tests.corpus.build_benign import identity
from tests.corpus.evaluate import (
    BLIND_PARTS,
    CORPUS,
    HELD_OUT,
    HELD_OUT_2,
    HELD_OUT_3,
    HELD_OUT_4,
    HELD_OUT_5,
    HELD_OUT_5_FILES,
    LOOKALIKES,
    LOOKALIKES_5,
    TUNING,
    TUNING_2,
    TUNING_3,
    TUNING_4,
    TUNING_5,
    TUNING_6,
    TUNING_7,
    TUNING_8,
    TUNING_9,
    benign_split,
    benign_tools,
    held_out_5_benign,
    load,
    poisoned_tools,
)

MIN_POISONED = 240
MIN_PAYLOADS = 120
MIN_PAYLOADS_PER_CLASS = 4
# The classes issue 15 asked this part to weight a little more.
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
REQUIRED_LANGUAGES = frozenset(
    {"tr", "nl", "pt", "pl", "vi", "id", "hi", "ar", "he", "ja", "ko", "zh",
     "de", "fr", "es", "it", "ru", "uk", "sv"}
)  # fmt: skip
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
ENCODINGS = ("TAGS", "ZW", "BIDI", "B64", "HEX")
EARLIER_POISONED = (
    "poisoned_real.json",
    "poisoned_tools.json",
    "poisoned_held_out_3.json",
    "poisoned_held_out_4.json",
)
EARLIER_BENIGN = (
    "benign_real.json",
    "benign_real_3.json",
    "benign_real_4.json",
    "benign_real_5.json",
    "benign_tools.json",
    "benign_lookalikes.json",
    "benign_lookalikes_3.json",
    "benign_lookalikes_4.json",
)
TUNING_SPLITS = (
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
)
# Reserved names (RFC 2606, RFC 6761) and documentation addresses (RFC 5737) only.
RESERVED_HOST = re.compile(
    r"(^|\.)(example\.(com|net|org)|[a-z0-9-]+\.(example|invalid))$|^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d+$"
)
HOST = re.compile(r"(?:https?://|@)([A-Za-z0-9.-]+)")


def _family_m_payloads() -> list[str]:
    return [payload for payloads in build_poisoned_m.M.values() for _, payload in payloads]


def test_every_file_of_the_part_says_it_is_held_out() -> None:
    for name in HELD_OUT_5_FILES.values():
        assert load(name)["about"].startswith("HELD OUT (part held-out-5)"), name


def test_family_m_covers_every_class_each_payload_placed_twice() -> None:
    tools = poisoned_tools(HELD_OUT_5)
    assert len(tools) >= MIN_POISONED
    assert len({tool["id"] for tool in tools}) == len(tools)
    assert {tool["family"] for tool in tools} == {"m"}
    assert {tool["split"] for tool in tools} == {HELD_OUT_5}
    assert {tool["class"] for tool in tools} == set(build_poisoned.CLASSES)
    copies = Counter(tool["id"].rsplit(".", 1)[0] for tool in tools)
    assert set(copies.values()) == {2}
    assert len(copies) >= MIN_PAYLOADS
    payloads = Counter(key.split("/", 1)[0] for key in copies)
    assert min(payloads.values()) >= MIN_PAYLOADS_PER_CLASS, payloads
    assert min(payloads[attack] for attack in WEIGHTED) >= MIN_PAYLOADS_WEIGHTED, payloads
    carriers = {source for source, _ in build_poisoned_m.CARRIERS}
    for tool in tools:
        reference, spots, _ = build_poisoned.CLASSES[tool["class"]]
        assert tool["reference"] == reference
        assert tool["spot"] in spots, tool["id"]
        assert tool["carrier"] in carriers, tool["id"]
        assert isinstance(tool["name"], str) and isinstance(tool["description"], str)
        assert tool["inputSchema"]["type"] == "object" and tool["inputSchema"]["properties"]
    # The two copies of a payload sit in two different carriers.
    placed: dict[str, set[str]] = {}
    for tool in tools:
        placed.setdefault(tool["id"].rsplit(".", 1)[0], set()).add(tool["name"])
    assert all(len(names) == 2 for names in placed.values()), placed
    # A quarter or more in other languages, many of them; each placed in an English carrier (a mixed case).
    languages = Counter(tool["language"] for tool in tools)
    assert len(languages) - 1 >= MIN_OTHER_LANGUAGES, languages
    assert set(languages) >= REQUIRED_LANGUAGES, REQUIRED_LANGUAGES - set(languages)
    assert (len(tools) - languages["en"]) / len(tools) >= MIN_OTHER_LANGUAGE_SHARE, languages
    # The special forms are spelled by build_poisoned._place, so each must carry a known prefix.
    for attack in ("invisible-smuggling", "encoded-payload"):
        for _, payload in build_poisoned_m.M[attack]:
            assert payload.partition(":")[0] in ENCODINGS, payload
    # A parameter name is a name a schema can carry.
    for _, payload in build_poisoned_m.M["parameter-name-poisoning"]:
        assert re.fullmatch(r"[a-z][a-z0-9_]{2,63}", payload), payload


def test_the_part_files_are_what_their_builders_write(tmp_path: Path) -> None:
    for built, side in (
        (build_poisoned_m.document(), "poisoned"),
        (build_lookalikes_5.document(), "written"),
    ):
        written = tmp_path / HELD_OUT_5_FILES[side]
        write(written, built)
        assert written.read_bytes() == (CORPUS / HELD_OUT_5_FILES[side]).read_bytes(), side
    # The real tools need the registry to rebuild; the file is at least what their writer writes from it.
    real = tmp_path / HELD_OUT_5_FILES["real"]
    build_benign.write_document(json.loads((CORPUS / HELD_OUT_5_FILES["real"]).read_text("utf-8")), real)
    assert real.read_bytes() == (CORPUS / HELD_OUT_5_FILES["real"]).read_bytes()


def test_family_m_is_fresh_text_not_an_earlier_familys() -> None:
    earlier = {
        payload
        for _, _, families in build_poisoned.CLASSES.values()
        for payloads in families.values()
        for payload in payloads
    }
    for module in (build_poisoned_g.G, build_poisoned_k.K):
        earlier |= {payload for payloads in module.values() for _, payload in payloads}
    fresh = _family_m_payloads()
    assert len(set(fresh)) == len(fresh)
    assert not set(fresh) & earlier
    # No run of eight words in common with any earlier payload either: written anew, not edited from one.
    earlier_shingles = set().union(*(shingles(payload) for payload in earlier))
    shared = [payload for payload in fresh if shingles(payload) & earlier_shingles]
    assert not shared, shared
    identities: set[str] = set()
    for name in EARLIER_POISONED:
        identities |= {identity(tool) for tool in load(name)["tools"]}
    assert not identities & {identity(tool) for tool in poisoned_tools(HELD_OUT_5)}


def test_family_m_uses_only_reserved_example_addresses() -> None:
    # A right-to-left override spells its text backwards; that span is checked in clear below.
    reversed_span = re.compile("\u202e[^\u202c]*\u202c")
    for tool in poisoned_tools(HELD_OUT_5):
        for text in strings({key: tool.get(key) for key in ("name", "description", "inputSchema")}):
            for found in HOST.findall(reversed_span.sub("", text)):
                assert RESERVED_HOST.search(found.lower().rstrip(".")), (tool["id"], found)
    for payload in _family_m_payloads():
        # Encoded payloads are checked in clear.
        kind, _, clear = payload.partition(":")
        text = clear if kind in ENCODINGS else payload
        for found in HOST.findall(text):
            assert RESERVED_HOST.search(found.lower().rstrip(".")), (payload, found)


def _names_used_before() -> set[str]:
    """Every package name an earlier part listed, tried or recorded as failed, in any registry."""
    used: set[str] = set()
    for name in ("benign_real.json", "benign_real_3.json", "benign_real_4.json", "benign_real_5.json"):
        document = load(name)
        used |= set(document["packages"]) | set(document["failed"])
    # benign_tools.json names each server's package first in its source line ("@scope/name 1.2.3 (npm)").
    used |= {f"any:{source.split()[0]}" for source in load("benign_tools.json")["sources"].values()}
    seen = (CORPUS / "benign_seen_packages.txt").read_text(encoding="utf-8").splitlines()
    used |= {line for line in seen if line and not line.startswith("#")}
    for module in (build_benign, build_benign_3, build_benign_4, build_benign_5):
        used |= {f"npm:{package}" for package, _ in getattr(module, "NPM", [])}
        used |= {f"pypi:{package}" for package, _ in getattr(module, "PYPI", [])}
    return {key.split(":", 1)[-1].lower() for key in used}


def test_the_new_real_tools_come_from_packages_no_other_part_used() -> None:
    document = load(HELD_OUT_5_FILES["real"])
    assert len(document["packages"]) >= MIN_PACKAGES
    assert len(document["tools"]) >= MIN_REAL_TOOLS
    # Not even under another registry: a name used before is out, whichever registry it was.
    mine = {key.split(":", 1)[1].lower() for key in [*document["packages"], *document["failed"]]}
    used = _names_used_before()
    assert not mine & used, sorted(mine & used)
    assert {f"npm:{package}" for package, _ in build_benign_6.NPM} >= {
        *document["packages"],
        *document["failed"],
    }
    for tool in document["tools"]:
        key = f"{tool['registry']}:{tool['package']}"
        assert tool["version"] == document["packages"][key]["version"]
        assert isinstance(tool["name"], str) and isinstance(tool["description"], str)
        assert isinstance(tool["inputSchema"], dict)
        assert benign_split(tool["registry"], tool["package"]) == TUNING_9
    kept = Counter(f"{tool['registry']}:{tool['package']}" for tool in document["tools"])
    assert {key: info["tools"] for key, info in document["packages"].items()} == dict(kept)
    # Every failed candidate says why.
    assert all(isinstance(reason, str) and reason for reason in document["failed"].values())


def test_no_other_blind_part_shares_a_package_with_this_one() -> None:
    mine = set(load(HELD_OUT_5_FILES["real"])["packages"])
    for part, files in BLIND_PARTS.items():
        if part != HELD_OUT_5:
            assert not mine & set(load(files["real"])["packages"]), part


def test_the_written_look_alikes_cover_the_false_positive_kinds() -> None:
    tools = held_out_5_benign("written")
    assert len(tools) >= MIN_LOOKALIKES
    kinds = Counter(tool["kind"] for tool in tools)
    assert set(kinds) == LOOKALIKE_KINDS
    assert min(kinds.values()) >= MIN_LOOKALIKES_PER_KIND, kinds
    languages = Counter(tool["language"] for tool in tools)
    assert len(tools) - languages["en"] >= MIN_LOOKALIKES_OTHER_LANGUAGES, languages
    assert {(tool["registry"], tool["package"]) for tool in tools} == {(LOOKALIKES, LOOKALIKES_5)}
    assert benign_split(LOOKALIKES, LOOKALIKES_5) == TUNING_9
    # Valid MCP tool names (2025-11-25: 1-128 of A-Z a-z 0-9 _ - .), as a real server would list them.
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]{1,128}", tool["name"]) for tool in tools)
    assert len({tool["name"] for tool in tools}) == len(tools)


def test_no_benign_definition_repeats_an_earlier_corpus() -> None:
    earlier = {identity(tool) for name in EARLIER_BENIGN for tool in load(name)["tools"]}
    for part, files in BLIND_PARTS.items():
        if part != HELD_OUT_5:
            earlier |= {identity(tool) for side in ("real", "written") for tool in load(files[side])["tools"]}
    new = benign_tools(HELD_OUT_5)
    assert not earlier & {identity(tool) for tool in new}
    assert max(Counter(identity(tool) for tool in new).values()) == 1
    descriptions = {
        tool["description"]
        for name in ("benign_lookalikes.json", "benign_lookalikes_3.json", "benign_lookalikes_4.json")
        for tool in load(name)["tools"]
    }
    assert not descriptions & {tool["description"] for tool in held_out_5_benign("written")}


@pytest.mark.parametrize("split", [*TUNING_SPLITS, HELD_OUT_3, HELD_OUT_4])
def test_no_other_split_holds_the_part(split: str) -> None:
    ids = {tool["id"] for tool in poisoned_tools(TUNING_9)}
    assert not ids & {tool.get("id") for tool in poisoned_tools(split)}
    sources = {(tool["registry"], tool["package"]) for tool in benign_tools(TUNING_9)}
    assert not sources & {(tool["registry"], tool["package"]) for tool in benign_tools(split)}


def test_the_part_is_tuning_data_now() -> None:
    # Measured once blind, then tuned on (round 10): "all" (what the scorer trains on) holds it whole.
    assert TUNING_9 not in BLIND_PARTS and HELD_OUT_5 not in BLIND_PARTS
    ids = {tool["id"] for tool in poisoned_tools(TUNING_9)}
    assert ids <= {tool["id"] for tool in poisoned_tools("all")}

    def keys(split: str) -> set[tuple[str, str, str]]:
        return {(tool["registry"], tool["package"], tool["name"]) for tool in benign_tools(split)}

    assert keys(TUNING_9) <= keys("all")


def test_the_part_is_its_three_files() -> None:
    assert benign_tools(TUNING_9) == held_out_5_benign("real") + held_out_5_benign("written")
    assert poisoned_tools(TUNING_9) == load(HELD_OUT_5_FILES["poisoned"])["tools"]
    assert benign_tools(HELD_OUT_5) == benign_tools(TUNING_9)
    assert poisoned_tools(HELD_OUT_5) == poisoned_tools(TUNING_9)
