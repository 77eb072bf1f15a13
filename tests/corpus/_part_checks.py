"""What the blind parts' format tests (``tests/unit/test_corpus_held_out_*.py``) read a definition with.

Each part's test keeps its own counts and rules; these are the readings they share: every string of a
definition, keys included, and the eight-word runs two texts are compared by; and, for the parts since
``held-out-6``, the checks they make the same way (freshness, reserved addresses, packages used before).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from types import ModuleType
from typing import Any

from tests.corpus import build_poisoned
from tests.corpus.build_benign import identity
from tests.corpus.evaluate import CORPUS, load


def strings(value: Any) -> Iterator[str]:
    """Every string in a definition, keys included (a property name can be a payload)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def shingles(text: str) -> set[tuple[str, ...]]:
    """The runs of eight words of ``text`` (lower case): two texts sharing one share a sentence's worth."""
    words = re.findall(r"\w+", text.lower())
    return {tuple(words[i : i + 8]) for i in range(len(words) - 7)}


# ---- what the parts since held-out-6 check the same way ------------------------------------------------

ENCODINGS = ("TAGS", "ZW", "BIDI", "B64", "HEX")
"""The prefixes of the payloads the shared placement hides or encodes (``build_poisoned._place``)."""

_HOST = re.compile(r"(?:https?://|@)([A-Za-z0-9.-]+)")
_RESERVED = re.compile(
    r"(^|\.)(example\.(com|net|org)|[a-z0-9-]+\.(example|invalid))$|^(192\.0\.2|203\.0\.113)\.\d{1,3}$"
)
_BARE_DOMAIN = re.compile(r"\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io)\b")
# A right-to-left override spells its text backwards; that span is checked in clear, in the payload.
_REVERSED_SPAN = re.compile("\u202e[^\u202c]*\u202c")
MODEL_FIELDS = ("name", "description", "inputSchema")


def clear(payload: str) -> str:
    """A payload as written, before the shared placement hides or encodes it."""
    kind, _, text = payload.partition(":")
    return text if kind in ENCODINGS else payload


def serialized(document: dict[str, Any]) -> str:
    """A part's file as its builder writes it."""
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def other_files(prefix: str, mine: set[str]) -> list[str]:
    """The corpus files named ``prefix*.json`` that are not the part's own (``mine``)."""
    return sorted(path.name for path in CORPUS.glob(f"{prefix}*.json") if path.name not in mine)


def unfresh(payloads: Sequence[str], placed: Sequence[dict[str, Any]], mine: set[str]) -> list[object]:
    """What of a new family is not fresh: a payload (in clear) equal to an earlier corpus's text or sharing
    an eight-word run with one, and placed definitions equal to an earlier one (by identity)."""
    earlier_texts: set[str] = set()
    earlier_identities: set[str] = set()
    for name in other_files("poisoned_", mine):
        for tool in load(name)["tools"]:
            earlier_texts.update(strings({key: tool.get(key) for key in MODEL_FIELDS}))
            earlier_identities.add(identity(tool))
    earlier_texts |= {
        payload
        for _, _, families in build_poisoned.CLASSES.values()
        for texts in families.values()
        for payload in texts
    }
    fresh = [clear(payload) for payload in payloads]
    earlier_shingles = set().union(*(shingles(text) for text in earlier_texts))
    return [
        *sorted(set(fresh) & earlier_texts),
        *(payload for payload in fresh if shingles(payload) & earlier_shingles),
        *(tool["id"] for tool in placed if identity(tool) in earlier_identities),
    ]


def unreserved_addresses(tools: Sequence[dict[str, Any]], payloads: Sequence[str]) -> list[tuple[str, str]]:
    """Every host, mailbox domain or bare domain in ``tools`` and ``payloads`` that is not a reserved
    example one (RFC 2606, RFC 5737), with where it was found."""
    found: list[tuple[str, str]] = []
    for tool in tools:
        for text in strings({key: tool.get(key) for key in MODEL_FIELDS}):
            for host in _HOST.findall(_REVERSED_SPAN.sub("", text)):
                if not _RESERVED.search(host.lower().rstrip(".")):
                    found.append((tool["id"], host))
    for payload in payloads:
        for host in _HOST.findall(clear(payload)):
            if not _RESERVED.search(host.lower().rstrip(".")):
                found.append((payload, host))
        for domain in _BARE_DOMAIN.findall(clear(payload)):
            if not _RESERVED.search(domain):
                found.append((payload, domain))
    return found


def names_used_before(mine: set[str], builders: Iterable[ModuleType]) -> set[str]:
    """Every package name an earlier part listed, tried or recorded as failed, in any registry, lower case
    (the other ``benign_real*`` files, ``benign_tools.json``, the seen list, and the ``builders``' tables)."""
    used: set[str] = set()
    for name in [*other_files("benign_real", mine), "benign_tools.json"]:
        document = load(name)
        used |= set(document.get("packages", {})) | set(document.get("failed", {}))
        used |= {f"{tool['registry']}:{tool['package']}" for tool in document["tools"] if "package" in tool}
    seen = (CORPUS / "benign_seen_packages.txt").read_text(encoding="utf-8").splitlines()
    used |= {line for line in seen if line and not line.startswith("#")}
    for module in builders:
        used |= {f"npm:{package}" for package, _ in getattr(module, "NPM", [])}
        used |= {f"pypi:{package}" for package, _ in getattr(module, "PYPI", [])}
    return {key.split(":", 1)[-1].lower() for key in used}


def placement_problems(
    tools: Sequence[dict[str, Any]], *, family: str, split: str, carriers: set[str]
) -> list[str]:
    """What is wrong with how a family was placed (``_blind_parts.placed``): ids repeated, another family or
    split, a class missing, a payload not placed exactly twice or twice at one place, a class's reference or
    spot not its own, a carrier not the family's, a definition without a name, description or object schema.
    Empty when nothing is."""
    problems: list[str] = []
    ids = [tool["id"] for tool in tools]
    if len(set(ids)) != len(ids):
        problems.append("an id is repeated")
    if {tool["family"] for tool in tools} != {family}:
        problems.append(f"families {sorted({tool['family'] for tool in tools})}, not {family!r}")
    if {tool["split"] for tool in tools} != {split}:
        problems.append(f"splits {sorted({tool['split'] for tool in tools})}, not {split!r}")
    missing = set(build_poisoned.CLASSES) - {tool["class"] for tool in tools}
    if missing:
        problems.append(f"classes missing: {sorted(missing)}")
    places: dict[str, set[tuple[str, str]]] = {}
    for tool in tools:
        places.setdefault(tool["id"].rsplit(".", 1)[0], set()).add((tool["name"], tool["spot"]))
        reference, spots, _ = build_poisoned.CLASSES[tool["class"]]
        if tool["reference"] != reference or tool["spot"] not in spots or tool["carrier"] not in carriers:
            problems.append(f"{tool['id']}: reference, spot or carrier not its class's or family's")
        schema = tool["inputSchema"]
        if not isinstance(tool["name"], str) or not isinstance(tool["description"], str):
            problems.append(f"{tool['id']}: name or description not a string")
        elif schema.get("type") != "object" or not schema.get("properties"):
            problems.append(f"{tool['id']}: the input schema is not an object with properties")
    copies = Counter(tool["id"].rsplit(".", 1)[0] for tool in tools)
    problems += [f"{key}: placed {count} times, not twice" for key, count in copies.items() if count != 2]
    # The two copies of a payload sit in different carriers or at different spots.
    problems += [
        f"{key}: both copies at one place" for key, at in places.items() if copies[key] == 2 and len(at) != 2
    ]
    return problems


def payloads_per_class(tools: Sequence[dict[str, Any]]) -> Counter[str]:
    """How many payloads (each placed twice) a family holds of each class."""
    return Counter(key.split("/", 1)[0] for key in {tool["id"].rsplit(".", 1)[0] for tool in tools})


def benign_repeats(
    tools: Sequence[dict[str, Any]], written: Sequence[dict[str, Any]], mine: set[str]
) -> list[str]:
    """What of a part's benign definitions is not new: one equal (by identity) to a definition of another
    corpus file or to another of its own, and a written look-alike whose description another file has."""
    earlier: set[str] = set()
    descriptions: set[str] = set()
    for name in [*other_files("benign_", mine), *other_files("poisoned_", mine)]:
        for tool in load(name)["tools"]:
            earlier.add(identity(tool))
            descriptions.add(tool.get("description", ""))
    counts = Counter(identity(tool) for tool in tools)
    return [
        *(f"{tool['name']}: in another corpus file" for tool in tools if identity(tool) in earlier),
        *(f"{tool['name']}: listed twice" for tool in tools if counts[identity(tool)] > 1),
        *(f"{tool['name']}: its description is another file's" for tool in written
          if tool["description"] in descriptions),
    ]  # fmt: skip


def listing_problems(
    document: dict[str, Any],
    *,
    registry: str,
    candidates: Sequence[str],
    used: set[str],
    split: str,
    min_packages: int,
    min_tools: int,
    benign_split: Any,
) -> list[str]:
    """What is wrong with a blind part's file of real tools (``benign_real_N.json``): too few packages or
    tools, another registry, a candidate named twice or used by an earlier part (under any registry), a
    kept or failed package that was no candidate, a package both kept and failed, a tool whose version is
    not its package's or whose fields are not what a listing gives, a tool of another split, a package's
    count that is not its tools', a failure without its reason."""
    problems: list[str] = []
    packages, failed, tools = document["packages"], document["failed"], document["tools"]
    if len(packages) < min_packages or len(tools) < min_tools:
        problems.append(f"{len(packages)} packages, {len(tools)} tools")
    if {key.split(":", 1)[0] for key in packages} != {registry}:
        problems.append(f"packages not all of {registry}")
    names = [package.lower() for package in candidates]
    if len(set(names)) != len(names):
        problems.append("a candidate named twice")
    # Not even under another registry: a name used before is out, whichever registry it was.
    if set(names) & used:
        problems.append(f"used before: {sorted(set(names) & used)}")
    # A package all of whose tools repeat an earlier corpus is neither kept nor failed, hence a subset.
    if not {f"{registry}:{package}" for package in candidates} >= {*packages, *failed}:
        problems.append("a kept or failed package that was no candidate")
    if set(packages) & set(failed):
        problems.append(f"kept and failed: {sorted(set(packages) & set(failed))}")
    for tool in tools:
        key = f"{tool['registry']}:{tool['package']}"
        # Each tool records the version it was listed from, the same as its package's.
        if tool["version"] != packages[key]["version"]:
            problems.append(f"{key} {tool['name']}: version {tool['version']}")
        if not (
            isinstance(tool["name"], str)
            and isinstance(tool["description"], str)
            and isinstance(tool["inputSchema"], dict)
        ):
            problems.append(f"{key}: a tool whose fields are not a listing's")
        if benign_split(tool["registry"], tool["package"]) != split:
            problems.append(f"{key}: not in {split}")
    kept = Counter(f"{tool['registry']}:{tool['package']}" for tool in tools)
    if {key: info["tools"] for key, info in packages.items()} != dict(kept):
        problems.append("a package's count is not its tools'")
    if not all(isinstance(reason, str) and reason for reason in failed.values()):
        problems.append("a failure without its reason")
    return problems
