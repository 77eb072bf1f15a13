"""The format of the held-out part ``held-out-4`` (poisoned family ``k``, new PyPI packages, new look-alikes).

Only the format is checked here: counts, classes, languages, placement, reserved example values, no repeat of
an earlier corpus and no package shared with any other part. There is deliberately NO detection floor and
nothing here runs the injection scan: the part is held out and measured once, blind (docs/security.md,
"held-out-4"); the lead sets a floor after measuring. Never tune the scan on these files.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from tests.corpus import (
    build_benign,
    build_benign_3,
    build_benign_4,
    build_lookalikes_4,
    build_poisoned,
    build_poisoned_g,
    build_poisoned_k,
)
from tests.corpus._part_checks import shingles, strings
from tests.corpus.build_benign import identity
from tests.corpus.evaluate import (
    HELD_OUT_3,
    HELD_OUT_4,
    HELD_OUT_4_FILES,
    LOOKALIKES,
    LOOKALIKES_4,
    benign_split,
    benign_tools,
    held_out_4_benign,
    load,
    poisoned_tools,
)

MIN_POISONED = 220
MIN_PAYLOADS_PER_CLASS = 4
MIN_OTHER_LANGUAGES = 15
MIN_OTHER_LANGUAGE_SHARE = 0.2
MIN_PACKAGES = 25
MIN_REAL_TOOLS = 500
MIN_LOOKALIKES = 60
MIN_LOOKALIKES_PER_KIND = 8
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


def _family_k_payloads() -> list[str]:
    return [payload for payloads in build_poisoned_k.K.values() for _, payload in payloads]


def test_every_file_of_the_part_says_it_is_held_out() -> None:
    for name in HELD_OUT_4_FILES.values():
        assert load(name)["about"].startswith("HELD OUT (part held-out-4)"), name


def test_family_k_covers_every_class_each_payload_placed_twice() -> None:
    tools = poisoned_tools(HELD_OUT_4)
    assert len(tools) >= MIN_POISONED
    assert len({tool["id"] for tool in tools}) == len(tools)
    assert {tool["family"] for tool in tools} == {"k"}
    assert {tool["split"] for tool in tools} == {HELD_OUT_4}
    assert {tool["class"] for tool in tools} == set(build_poisoned.CLASSES)
    copies = Counter(tool["id"].rsplit(".", 1)[0] for tool in tools)
    assert set(copies.values()) == {2}
    payloads = Counter(key.split("/", 1)[0] for key in copies)
    assert min(payloads.values()) >= MIN_PAYLOADS_PER_CLASS, payloads
    carriers = {source for source, _ in build_poisoned_k.CARRIERS}
    for tool in tools:
        reference, spots, _ = build_poisoned.CLASSES[tool["class"]]
        assert tool["reference"] == reference
        assert tool["spot"] in spots, tool["id"]
        assert tool["carrier"] in carriers, tool["id"]
        assert isinstance(tool["name"], str) and isinstance(tool["description"], str)
        assert tool["inputSchema"]["type"] == "object" and tool["inputSchema"]["properties"]
    # About a quarter in other languages, many of them; each placed in an English carrier (a mixed case).
    languages = Counter(tool["language"] for tool in tools)
    assert len(languages) - 1 >= MIN_OTHER_LANGUAGES, languages
    assert (len(tools) - languages["en"]) / len(tools) >= MIN_OTHER_LANGUAGE_SHARE, languages
    # The special forms are spelled by build_poisoned._place, so each must carry a known prefix.
    for attack in ("invisible-smuggling", "encoded-payload"):
        for _, payload in build_poisoned_k.K[attack]:
            assert payload.partition(":")[0] in ENCODINGS, payload


def test_the_part_files_are_what_their_builders_write() -> None:
    assert build_poisoned_k.document() == load(HELD_OUT_4_FILES["poisoned"])
    assert build_lookalikes_4.document() == load(HELD_OUT_4_FILES["written"])


def test_family_k_is_fresh_text_not_an_earlier_familys() -> None:
    earlier = {
        payload
        for _, _, families in build_poisoned.CLASSES.values()
        for payloads in families.values()
        for payload in payloads
    }
    earlier |= {payload for payloads in build_poisoned_g.G.values() for _, payload in payloads}
    fresh = _family_k_payloads()
    assert len(set(fresh)) == len(fresh)
    assert not set(fresh) & earlier
    # No run of eight words in common with any earlier payload either (families a to i and g): written
    # anew, not edited from one.
    earlier_shingles = set().union(*(shingles(payload) for payload in earlier))
    shared = [payload for payload in fresh if shingles(payload) & earlier_shingles]
    assert not shared, shared
    identities: set[str] = set()
    for name in ("poisoned_real.json", "poisoned_tools.json", "poisoned_held_out_3.json"):
        identities |= {identity(tool) for tool in load(name)["tools"]}
    assert not identities & {identity(tool) for tool in poisoned_tools(HELD_OUT_4)}


def test_family_k_uses_only_reserved_example_addresses() -> None:
    host = re.compile(r"(?:https?://|@)([A-Za-z0-9.-]+)")
    reserved = re.compile(r"(^|\.)(example\.(com|net|org)|[a-z0-9-]+\.(example|invalid))$")
    # A right-to-left override spells its text backwards; that span is checked in clear below.
    reversed_span = re.compile("\u202e[^\u202c]*\u202c")
    for tool in poisoned_tools(HELD_OUT_4):
        for text in strings({key: tool.get(key) for key in ("name", "description", "inputSchema")}):
            for found in host.findall(reversed_span.sub("", text)):
                assert reserved.search(found.lower().rstrip(".")), (tool["id"], found)
    for payload in _family_k_payloads():
        # Encoded payloads are checked in clear.
        kind, _, clear = payload.partition(":")
        text = clear if kind in ENCODINGS else payload
        for found in host.findall(text):
            assert reserved.search(found.lower().rstrip(".")), (payload, found)


def _names_used_before() -> set[str]:
    """Every package an earlier build listed, tried or recorded as failed, in any registry."""
    used: set[str] = set()
    for name in ("benign_real.json", "benign_real_3.json"):
        document = load(name)
        used |= set(document["packages"]) | set(document["failed"])
    seen = (build_benign.OUT.parent / "benign_seen_packages.txt").read_text(encoding="utf-8").splitlines()
    used |= {line for line in seen if line and not line.startswith("#")}
    for module in (build_benign, build_benign_3):
        used |= {f"npm:{package}" for package, _ in module.NPM}
        used |= {f"pypi:{package}" for package, _ in module.PYPI}
    return used


def test_the_new_real_tools_come_from_pypi_packages_no_other_part_used() -> None:
    document = load(HELD_OUT_4_FILES["real"])
    assert len(document["packages"]) >= MIN_PACKAGES
    assert len(document["tools"]) >= MIN_REAL_TOOLS
    assert {key.split(":", 1)[0] for key in document["packages"]} == {"pypi"}
    # Not even under another registry: a name used before is out, whichever registry it was.
    used = {key.split(":", 1)[1].lower() for key in _names_used_before()}
    mine = {key.split(":", 1)[1].lower() for key in [*document["packages"], *document["failed"]]}
    assert not mine & used, sorted(mine & used)
    assert {f"pypi:{package}" for package, _ in build_benign_4.PYPI} >= set(document["packages"])
    for tool in document["tools"]:
        key = f"{tool['registry']}:{tool['package']}"
        assert tool["version"] == document["packages"][key]["version"]
        assert isinstance(tool["name"], str) and isinstance(tool["description"], str)
        assert isinstance(tool["inputSchema"], dict)
        assert benign_split(tool["registry"], tool["package"]) == HELD_OUT_4
    kept = Counter(f"{tool['registry']}:{tool['package']}" for tool in document["tools"])
    assert {key: info["tools"] for key, info in document["packages"].items()} == dict(kept)


def test_the_written_look_alikes_cover_the_false_positive_kinds() -> None:
    tools = held_out_4_benign("written")
    assert len(tools) >= MIN_LOOKALIKES
    kinds = Counter(tool["kind"] for tool in tools)
    assert set(kinds) == LOOKALIKE_KINDS
    assert min(kinds.values()) >= MIN_LOOKALIKES_PER_KIND, kinds
    languages = Counter(tool["language"] for tool in tools)
    assert len(languages) - 1 >= 5, languages
    assert {(tool["registry"], tool["package"]) for tool in tools} == {(LOOKALIKES, LOOKALIKES_4)}
    assert benign_split(LOOKALIKES, LOOKALIKES_4) == HELD_OUT_4
    # Valid MCP tool names (2025-11-25: 1-128 of A-Z a-z 0-9 _ - .), as a real server would list them.
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]{1,128}", tool["name"]) for tool in tools)


def test_no_benign_definition_repeats_an_earlier_corpus() -> None:
    earlier: dict[tuple[str, str], list[dict[str, Any]]] = {}
    names = ("benign_real.json", "benign_real_3.json", "benign_tools.json")
    for name in (*names, "benign_lookalikes.json", "benign_lookalikes_3.json"):
        for tool in load(name)["tools"]:
            earlier.setdefault((tool["name"], tool["description"]), []).append(tool)
    new = benign_tools(HELD_OUT_4)
    repeated = [
        tool["name"]
        for tool in new
        for old in earlier.get((tool["name"], tool["description"]), [])
        if old["inputSchema"] == tool["inputSchema"]
    ]
    assert not repeated, repeated
    assert max(Counter(identity(tool) for tool in new).values()) == 1
    descriptions = {
        tool["description"]
        for name in ("benign_lookalikes.json", "benign_lookalikes_3.json")
        for tool in load(name)["tools"]
    }
    assert not descriptions & {tool["description"] for tool in held_out_4_benign("written")}


def test_all_and_held_out_3_leave_the_part_out_so_nothing_trains_on_it() -> None:
    ids = {tool["id"] for tool in poisoned_tools(HELD_OUT_4)}
    assert not ids & {tool["id"] for tool in poisoned_tools()}
    assert not ids & {tool["id"] for tool in poisoned_tools(HELD_OUT_3)}
    sources = {(tool["registry"], tool["package"]) for tool in benign_tools(HELD_OUT_4)}
    assert not sources & {(tool["registry"], tool["package"]) for tool in benign_tools()}
    assert not sources & {(tool["registry"], tool["package"]) for tool in benign_tools(HELD_OUT_3)}
    assert benign_tools(HELD_OUT_4) == held_out_4_benign("real") + held_out_4_benign("written")
