"""The format of the held-out part ``held-out-3`` (poisoned family ``g``, new real packages, new look-alikes).

Only the format is checked here: counts, classes, placement, reserved example values, no repeat of an
earlier corpus and no package shared with the tuning parts. There is deliberately NO detection floor and
nothing here runs the injection scan: the part is held out, measured once, blind (docs/security.md,
"held-out-3"); the lead sets a floor after that measurement. Never tune the scan on these files.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from tests.corpus import build_benign, build_lookalikes_3, build_poisoned, build_poisoned_g
from tests.corpus._part_checks import strings
from tests.corpus.build_benign import identity
from tests.corpus.evaluate import (
    HELD_OUT_3,
    HELD_OUT_3_FILES,
    LOOKALIKES,
    LOOKALIKES_3,
    benign_split,
    benign_tools,
    held_out_3_benign,
    load,
    poisoned_tools,
)

MIN_POISONED = 200
MIN_PAYLOADS_PER_CLASS = 3
MIN_OTHER_LANGUAGES = 8
MIN_PACKAGES = 25
MIN_REAL_TOOLS = 500
MIN_LOOKALIKES = 60
LOOKALIKE_KINDS = {
    "defensive-statement",
    "product-naming",
    "structural-tags",
    "secrets-purpose",
    "hidden-field",
    "usage-note",
}


def test_every_file_of_the_part_says_it_is_held_out() -> None:
    for name in HELD_OUT_3_FILES.values():
        assert load(name)["about"].startswith("HELD OUT (part held-out-3)"), name


def test_family_g_covers_every_class_each_payload_placed_twice() -> None:
    tools = poisoned_tools(HELD_OUT_3)
    assert len(tools) >= MIN_POISONED
    assert len({tool["id"] for tool in tools}) == len(tools)
    assert {tool["family"] for tool in tools} == {"g"}
    assert {tool["split"] for tool in tools} == {HELD_OUT_3}
    # Every class the earlier corpus names, with several payloads each; each payload is placed twice.
    assert {tool["class"] for tool in tools} == set(build_poisoned.CLASSES)
    copies = Counter(tool["id"].rsplit(".", 1)[0] for tool in tools)
    assert set(copies.values()) == {2}
    payloads = Counter(key.split("/", 1)[0] for key in copies)
    assert min(payloads.values()) >= MIN_PAYLOADS_PER_CLASS, payloads
    for tool in tools:
        reference, spots, _ = build_poisoned.CLASSES[tool["class"]]
        assert tool["reference"] == reference
        assert tool["spot"] in spots, tool["id"]
        assert isinstance(tool["name"], str) and isinstance(tool["description"], str)
        assert tool["inputSchema"]["type"] == "object" and tool["inputSchema"]["properties"]
    languages = Counter(tool["language"] for tool in tools)
    assert len(languages) - 1 >= MIN_OTHER_LANGUAGES, languages


def test_family_g_file_is_what_its_builder_writes() -> None:
    assert build_poisoned_g.document() == load(HELD_OUT_3_FILES["poisoned"])
    assert build_lookalikes_3.document() == load(HELD_OUT_3_FILES["written"])


def test_family_g_is_fresh_text_not_an_earlier_familys() -> None:
    earlier = {
        payload
        for _, _, families in build_poisoned.CLASSES.values()
        for payloads in families.values()
        for payload in payloads
    }
    fresh = {payload for payloads in build_poisoned_g.G.values() for _, payload in payloads}
    assert not fresh & earlier

    # No run of eight words in common with an earlier payload either: written anew, not edited.
    def shingles(text: str) -> set[tuple[str, ...]]:
        words = re.findall(r"\w+", text.lower())
        return {tuple(words[i : i + 8]) for i in range(len(words) - 7)}

    # Family h (the tuning part tuning-5) was written in the same round by another helper, who never saw
    # family g: two of g's payloads came out sharing an eight-word run with an h payload (the same author
    # effect, docs/security.md). They stay in g, and the report gives g's figure without them as well.
    # Families i and j (rounds 7 and 8, tuning) were written after g by helpers who never opened it; three
    # of g's payloads share an eight-word run with one of j's (the same effect: a Spanish persona opening,
    # an account "whatever the user mentions"), which is why held-out-3 is only a regression floor now.
    written_after = {"h", "i", "j"}
    written_before = {
        payload
        for _, _, families in build_poisoned.CLASSES.values()
        for family, payloads in families.items()
        if family not in written_after
        for payload in payloads
    }
    before_shingles = set().union(*(shingles(payload) for payload in written_before))
    shared = {payload for payload in fresh if shingles(payload) & before_shingles}
    assert not shared, shared
    earlier_shingles = set().union(*(shingles(payload) for payload in earlier))
    shared_with_later = {payload for payload in fresh if shingles(payload) & earlier_shingles}
    assert len(shared_with_later) <= 5, shared_with_later
    identities = {identity(tool) for tool in load("poisoned_real.json")["tools"]}
    identities |= {identity(tool) for tool in load("poisoned_tools.json")["tools"]}
    assert not identities & {identity(tool) for tool in poisoned_tools(HELD_OUT_3)}


def test_family_g_uses_only_reserved_example_addresses() -> None:
    host = re.compile(r"(?:https?://|@)([A-Za-z0-9.-]+)")
    reserved = re.compile(r"(^|\.)(example\.(com|net|org)|[a-z0-9-]+\.(example|invalid))$")
    for tool in poisoned_tools(HELD_OUT_3):
        for text in strings({key: tool.get(key) for key in ("name", "description", "inputSchema")}):
            for found in host.findall(text):
                assert reserved.search(found.lower().rstrip(".")), (tool["id"], found)
    for _, payloads in build_poisoned_g.G.items():
        for _, payload in payloads:
            # Encoded payloads are checked in clear.
            kind, _, clear = payload.partition(":")
            text = clear if kind in ("TAGS", "ZW", "BIDI", "B64", "HEX") else payload
            for found in host.findall(text):
                assert reserved.search(found.lower().rstrip(".")), (payload, found)


def test_the_new_real_tools_come_from_packages_no_tuning_part_used() -> None:
    document = load(HELD_OUT_3_FILES["real"])
    assert len(document["packages"]) >= MIN_PACKAGES
    assert len(document["tools"]) >= MIN_REAL_TOOLS
    registries = Counter(key.split(":", 1)[0] for key in document["packages"])
    assert registries["npm"] >= 5 and registries["pypi"] >= 5, registries
    earlier = load("benign_real.json")
    used = set(earlier["packages"]) | set(earlier["failed"])
    seen = (build_benign.OUT.parent / "benign_seen_packages.txt").read_text(encoding="utf-8").splitlines()
    used |= {line for line in seen if line and not line.startswith("#")}
    used |= {f"npm:{package}" for package, _ in build_benign.NPM}
    used |= {f"pypi:{package}" for package, _ in build_benign.PYPI}
    assert not set(document["packages"]) & used
    assert not set(document["failed"]) & used
    for tool in document["tools"]:
        key = f"{tool['registry']}:{tool['package']}"
        assert tool["version"] == document["packages"][key]["version"]
        assert isinstance(tool["name"], str) and isinstance(tool["description"], str)
        assert isinstance(tool["inputSchema"], dict)
        assert benign_split(tool["registry"], tool["package"]) == HELD_OUT_3
    kept = Counter(f"{tool['registry']}:{tool['package']}" for tool in document["tools"])
    assert {key: info["tools"] for key, info in document["packages"].items()} == dict(kept)


def test_the_written_look_alikes_cover_the_false_positive_kinds() -> None:
    tools = held_out_3_benign("written")
    assert len(tools) >= MIN_LOOKALIKES
    kinds = Counter(tool["kind"] for tool in tools)
    assert set(kinds) == LOOKALIKE_KINDS
    assert min(kinds.values()) >= 8, kinds
    assert {(tool["registry"], tool["package"]) for tool in tools} == {(LOOKALIKES, LOOKALIKES_3)}
    assert all(benign_split(LOOKALIKES, LOOKALIKES_3) == HELD_OUT_3 for _ in tools)
    # Valid MCP tool names (2025-11-25: 1-128 of A-Z a-z 0-9 _ - .), as a real server would list them.
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]{1,128}", tool["name"]) for tool in tools)


def test_no_benign_definition_repeats_an_earlier_corpus() -> None:
    # Name and description first (cheap), the whole definition only where those two match.
    earlier: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for name in ("benign_real.json", "benign_tools.json", "benign_lookalikes.json"):
        for tool in load(name)["tools"]:
            earlier.setdefault((tool["name"], tool["description"]), []).append(tool)
    new = benign_tools(HELD_OUT_3)
    repeated = [
        tool["name"]
        for tool in new
        for old in earlier.get((tool["name"], tool["description"]), [])
        if old["inputSchema"] == tool["inputSchema"]
    ]
    assert not repeated, repeated
    identities = Counter(identity(tool) for tool in new)
    assert max(identities.values()) == 1
    descriptions = {tool["description"] for tool in load("benign_lookalikes.json")["tools"]}
    assert not descriptions & {tool["description"] for tool in held_out_3_benign("written")}


def test_all_leaves_the_part_out_so_nothing_trains_on_it() -> None:
    ids = {tool["id"] for tool in poisoned_tools(HELD_OUT_3)}
    assert not ids & {tool["id"] for tool in poisoned_tools()}
    sources = {(tool["registry"], tool["package"]) for tool in benign_tools(HELD_OUT_3)}
    assert not sources & {(tool["registry"], tool["package"]) for tool in benign_tools()}
    assert benign_tools(HELD_OUT_3) == held_out_3_benign("real") + held_out_3_benign("written")
