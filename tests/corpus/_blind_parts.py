"""What the builders of the blind parts' written files share (``held-out-3`` to ``held-out-5``).

A poisoned family placed in its carriers (each payload twice, with ``build_poisoned``'s placement), and
the documents of a part's poisoned and look-alike files. The data (payloads, carriers, look-alikes) stays
in each part's own builder, written by its own author.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tests.corpus.build_poisoned import CLASSES, _digest, _place

Carrier = tuple[str, dict[str, Any]]


def object_schema(required: list[str], **properties: dict[str, Any]) -> dict[str, Any]:
    """A carrier's input schema: an object of ``properties``, ``required`` listed."""
    return {"type": "object", "properties": properties, "required": required}


def string_property(description: str = "", **extra: Any) -> dict[str, Any]:
    """A string property of a carrier, described unless ``description`` is empty."""
    prop: dict[str, Any] = {"type": "string", **extra}
    if description:
        prop["description"] = description
    return prop


def placed(
    family: str,
    payloads: Mapping[str, Sequence[tuple[str, str]]],
    carriers: Sequence[Carrier],
    *,
    split: str,
    stride: int,
) -> list[dict[str, Any]]:
    """Every payload of ``payloads`` (class -> ``(language, payload)``) placed twice: two carriers, chosen
    ``stride`` apart from the payload's digest, and two spots where its class has more than one (the same
    deterministic choice as ``build_poisoned``, over the family's own carriers)."""
    entries = []
    for attack, texts in sorted(payloads.items()):
        reference, spots, _ = CLASSES[attack]
        for number, (language, payload) in enumerate(texts):
            digest = _digest(f"{family}/{attack}/{payload}")
            first_spot = (digest >> 8) % len(spots)
            for copy_number in range(2):
                source, carrier = carriers[(digest + stride * copy_number) % len(carriers)]
                spot = spots[(first_spot + copy_number) % len(spots)]
                tool = _place(carrier, payload, spot, attack)
                entries.append(
                    {
                        "id": f"{attack}/{family}{number}.{copy_number}",
                        "class": attack,
                        "family": family,
                        "split": split,
                        "spot": spot,
                        "reference": reference,
                        "language": language,
                        "carrier": source or "written",
                        **tool,
                    }
                )
    return entries


def poisoned_file(
    part: str,
    family: str,
    builder: str,
    payloads: Mapping[str, Sequence[tuple[str, str]]],
    carriers: Sequence[Carrier],
    stride: int,
) -> dict[str, Any]:
    """The poisoned file of blind part ``part``: family ``family``, written by ``builder`` (its module
    name), each payload placed twice in ``carriers`` (:func:`placed`)."""
    return {
        "about": (
            f"HELD OUT (part {part}): never tune the injection scan on this file. Poisoned MCP tool "
            f"definitions of family '{family}', written for mcp-troupe by tests/corpus/{builder}.py: "
            "one payload of a published attack class placed in an ordinary carrier tool, each payload "
            "twice. Every address and account is a reserved example value. Do not edit entries."
        ),
        "classes": {attack: CLASSES[attack][0] for attack in sorted(payloads)},
        "tools": placed(family, payloads, carriers, split=part, stride=stride),
    }


def lookalikes_file(part: str, builder: str, package: str, tools: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The written look-alikes' file of blind part ``part``, written by ``builder`` (its module name)."""
    entries = [
        {"package": package, "registry": "written", "version": "1", "id": f"{package}/{number}", **tool}
        for number, tool in enumerate(tools)
    ]
    return {
        "about": (
            f"HELD OUT (part {part}): never tune the injection scan on this file. Benign tool definitions "
            f"written for mcp-troupe by tests/corpus/{builder}.py in real servers' style, of the "
            "false-positive kinds of issue 15 (field 'kind'). Do not edit entries."
        ),
        "kinds": sorted({tool["kind"] for tool in tools}),
        "tools": entries,
    }


def write(out: Path, built: Mapping[str, Any]) -> None:
    """Write a part's file as the committed files are written (indented, UTF-8 as is)."""
    out.write_text(json.dumps(built, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
