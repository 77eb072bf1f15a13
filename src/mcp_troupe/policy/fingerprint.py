"""Tool fingerprints and the book of approved definitions, to catch rug pulls.

A rug pull is a server that shows a harmless definition, gets it approved, and later (through
``notifications/tools/list_changed`` or a reconnect) changes what the tool says or takes. The defence, after
goose's TOFU fingerprints (PEERS.md §2.8, goose #9126): pin a fingerprint of each approved definition, and
treat a tool whose current definition no longer matches as *changed* — listed, so the operator sees it, but
not callable until approved again.

The fingerprint covers exactly what the model reads to decide what a tool does and how to call it: ``name``,
``description`` and ``inputSchema``. Annotations and ``_meta`` are left out on purpose: they are hints the
trust policy handles on its own (an untrusted server's hints can only raise risk), and a server toggling them
must not knock every approved tool into quarantine — while a server cannot dodge the pin by changing what it
*says*, since every word of that is in the fingerprint.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any, Final, Literal

__all__ = ["ApprovalBook", "ApprovalStatus", "canonical_json", "fingerprint", "fingerprint_of_parts"]

ApprovalStatus = Literal["new", "approved", "changed"]
"""``new``: never approved; ``approved``: approved with this very definition; ``changed``: approved, but the
definition is not the one that was approved (quarantined until approved again)."""


# json.dumps(..., sort_keys=True, separators=(",", ":"), ensure_ascii=False) with its encoder built once:
# given options, dumps builds one per call, about a quarter of the cost of hashing a small definition.
_CANONICAL: Final = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
# What that encoder writes a string with (ensure_ascii=False: the C encode_basestring, when there is one).
_STRING: Final = json.encoder.encode_basestring


def fingerprint(name: str, description: str, input_schema: Mapping[str, Any]) -> str:
    """Return the SHA-256 (hex) of the canonical JSON of a tool's name, description and input schema.

    Canonical: keys sorted at every level, no insignificant whitespace, non-ASCII kept as UTF-8, so the same
    definition gives the same fingerprint in every process and whatever order the server wrote its keys in.
    Pass ``""`` for a tool without a description. Values are taken as parsed: a server that starts sending
    ``1.0`` where it sent ``1`` has changed its definition.
    """
    canonical = _CANONICAL.encode({"name": name, "description": description, "inputSchema": input_schema})
    # surrogatepass: server JSON may carry lone surrogates, which strict UTF-8 cannot encode.
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def canonical_json(value: Any) -> str:
    """``value`` as :func:`fingerprint` writes it inside the canonical JSON (keys sorted, compact, UTF-8)."""
    return _CANONICAL.encode(value)


def fingerprint_of_parts(name: str, description: str, schema_json: str) -> str:
    """:func:`fingerprint` of a tool whose input schema's :func:`canonical_json` is ``schema_json``.

    The same bytes: with sorted keys the canonical object is ``description``, ``inputSchema``, ``name`` in
    that order, each string written by the encoder's own string function. A schema that many tools share is
    then written once, not once per tool (issue 18). Only for ``str`` name and description (what
    :func:`~mcp_troupe.protocol.mcp.parse_tool` makes); :func:`fingerprint` takes anything JSON.
    """
    canonical = f'{{"description":{_STRING(description)},"inputSchema":{schema_json},"name":{_STRING(name)}}}'
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


class ApprovalBook:
    """The fingerprints of approved tool definitions, keyed by (server, original tool name).

    Pure and in memory; not thread-safe: one actor (the registry) owns it and is the only one to touch it.

    The book never forgets on absence: a tool that disappears from a listing and comes back later is compared
    with the fingerprint it was approved under, so a server cannot hide a tool for one listing and bring it
    back rewritten as "new". Only :meth:`revoke` forgets.
    """

    def __init__(self) -> None:
        self._approved: dict[tuple[str, str], str] = {}

    def approve(self, server: str, tool: str, fp: str) -> None:
        """Record that this definition of ``tool`` on ``server`` is approved, replacing any earlier one."""
        self._approved[(server, tool)] = fp

    def status(self, server: str, tool: str, fp: str) -> ApprovalStatus:
        """Compare a tool's current fingerprint with the approved one."""
        if not self._approved:
            return "new"  # nothing approved yet (every tool of a first connect): no key to build
        approved = self._approved.get((server, tool))
        if approved is None:
            return "new"
        return "approved" if approved == fp else "changed"

    def approved_fingerprint(self, server: str, tool: str) -> str | None:
        """The fingerprint ``tool`` was approved under, or ``None``."""
        return self._approved.get((server, tool))

    def revoke(self, server: str, tool: str) -> None:
        """Forget the approval of ``tool`` (no error when there was none); it is ``new`` again."""
        self._approved.pop((server, tool), None)

    def __len__(self) -> int:
        return len(self._approved)
