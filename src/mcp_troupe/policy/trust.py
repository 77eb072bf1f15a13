"""Effective risk of a tool, from its annotations and its server's trust level.

Tool annotations are hints, and clients MUST treat them as untrusted unless the server is trusted
(spec: 2025-03-26+ server/tools, ToolAnnotations). So for an untrusted server a hint may only *raise* a
tool's risk, never lower it; only the operator, by trusting a server, lets ``readOnlyHint`` lower it.

==========================  =========  =========
annotations                 untrusted  trusted
==========================  =========  =========
none                        EXEC       EXEC
readOnlyHint                EXEC       READ_ONLY
destructiveHint             DANGEROUS  DANGEROUS
readOnlyHint + destructive  DANGEROUS  READ_ONLY
destructiveHint: false      EXEC       EXEC
==========================  =========  =========

Absent hints: the spec's defaults (``readOnlyHint`` false, ``destructiveHint`` true) would make every tool
without annotations DANGEROUS, and most servers send none. A level that every tool gets tells the operator
nothing and trains them to approve everything, so only an *explicit* ``destructiveHint: true`` raises a tool
to DANGEROUS, and an unannotated tool is EXEC: it can act, but has not said it destroys.

Contradictory hints: the spec makes ``destructiveHint`` meaningful only when ``readOnlyHint`` is false, so a
trusted server's ``readOnlyHint: true`` wins. An untrusted server's hints cannot lower risk, so there the
worse of the two counts.

Malformed hints: a hint whose value is not a JSON boolean (``"yes"``, ``1``, ``null``) is treated as absent.
The bytes come from the server, and a value it did not spell as the spec says is not believed in either
direction: the tool stays at the EXEC floor unless a well-formed hint moves it.
``idempotentHint`` and ``openWorldHint`` are kept by :func:`parse_annotations` but do not change the risk.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, assert_never

from mcp_troupe.types import Risk

__all__ = ["TrustLevel", "effective_risk", "parse_annotations"]

TrustLevel = Literal["trusted", "untrusted"]
"""Whether the operator believes a server's annotations (config ``trust``)."""

_HINT_KEYS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


def parse_annotations(raw: object) -> dict[str, bool | str]:
    """Keep the known tool annotations that have the right type; drop everything else.

    ``title`` must be a string and the four hints booleans; anything that is not a mapping gives ``{}``.
    """
    if not isinstance(raw, Mapping):
        return {}
    parsed: dict[str, bool | str] = {}
    title = raw.get("title")
    if isinstance(title, str):
        parsed["title"] = title
    for key in _HINT_KEYS:
        # isinstance(1, bool) is False, so integers are not mistaken for hints.
        value = raw.get(key)
        if isinstance(value, bool):
            parsed[key] = value
    return parsed


def effective_risk(annotations: Mapping[str, object] | None, trust: TrustLevel = "untrusted") -> Risk:
    """Return the risk of calling a tool with these annotations on a server of this trust level."""
    # No annotations (most tools) parse to no hints.
    hints = parse_annotations(annotations) if annotations else {}
    is_read_only = hints.get("readOnlyHint") is True
    is_destructive = hints.get("destructiveHint") is True
    match trust:
        case "untrusted":
            # readOnlyHint is ignored: an untrusted hint may raise risk, never lower it.
            return Risk.DANGEROUS if is_destructive else Risk.EXEC
        case "trusted":
            if is_read_only:
                # spec: destructiveHint is meaningful only when readOnlyHint is false.
                return Risk.READ_ONLY
            return Risk.DANGEROUS if is_destructive else Risk.EXEC
        case _:
            assert_never(trust)
