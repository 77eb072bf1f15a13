"""The content checks of a tool's input schema: one walk for the schema check and the scan, cached by content.

Judging a tool used to walk its ``inputSchema`` three times: the size bounds
(:mod:`~mcp_troupe.policy.bounds`) over every JSON value, the structural schema check
(:mod:`~mcp_troupe.policy.schema`) over every subschema, and the injection scan's gathering of the strings
the model reads (:mod:`~mcp_troupe.policy.injection`) over every subschema again; then the fingerprint
serialised it. On a catalog of 10,000 small tools that was a third of the first policy pass (issue 18).

Two of those walks visit the same nodes in the same order, so :func:`schema_checks` does them as one: at each
subschema it runs the schema check's per-node check (``schema._check_node``, unchanged) and collects the
node's texts, in the order ``injection._schema_strings`` yields them. The results are those of the two walks
(``tests/unit/test_policy_definition.py`` holds them equal over every corpus and generated schemas).

The bounds keep their own walk, and it stays first: nothing walks a definition recursively, compiles its
patterns or hashes it before it is known to be within ``tools.mcp.limits``. Measured, folding the bounds
into the same walk saved less (~4 µs a definition) than it cost on every definition whose checks are cached
(~11 µs more than the bounds walk alone), so they were left apart.

Everything here is a function of the schema's content alone, and many tools of one server share a schema
(no parameters, one ``path``, the same pagination arguments). So a :class:`SchemaEntry` is kept in a bounded
cache keyed by the schema's exact JSON text (key order kept: a problem list and the order of findings
follow the document's order); one C-encoder pass a definition finds it, and a schema seen before costs no
bounds walk, no schema check, no scan of its strings and no canonical serialisation for the fingerprint
(issue 18: on the 10,000 tools of the benchmark server, which share one schema, those were about 30 µs of
the 85 µs a tool took). The key is written before the bounds walk; that is one linear pass in C over a
value the frame decoder built, in C, from at least as many bytes, so it adds less than the decoding cost to
a definition too big to be judged, and the walk then rejects it as before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from mcp_troupe.policy.bounds import CatalogLimits, schema_problem
from mcp_troupe.policy.fingerprint import canonical_json
from mcp_troupe.policy.injection import _DATA_KEYWORDS, _TEXT_KEYWORDS, Finding, _data_strings, scan_strings
from mcp_troupe.policy.schema import MAX_NODES, _Walk, _walk, check_input_schema
from mcp_troupe.protocol.deepjson import TooDeep
from mcp_troupe.protocol.jsonrpc import compact_encoder

__all__ = ["SchemaChecks", "SchemaEntry", "schema_checks", "schema_entry"]

_INPUT_ROOT = "inputSchema"

SchemaText = tuple[str, str, bool]
"""(field, text, is_name): one string of a schema that the model reads, as the injection scan takes it."""

_CACHE_ENTRIES: Final = 1024
_CACHE_KEY_MAX_CHARS: Final = 4096
"""Schemas whose JSON is longer are not cached: the cache holds at most about 4 MiB of keys, and a long schema
is rarely shared word for word."""
_IDENTITY_ENTRIES: Final = 64
"""How many schema objects the cache knows by identity (the last ones whose JSON text it wrote)."""

# The exact JSON text of a schema, in the document's key order, with the encoder and its C encoder made once
# (JSONEncoder.encode makes one per call, a fifth of the cost of writing a small schema). The wire cannot make
# a cycle; a hand-built one ends in RecursionError.
_EXACT_JSON, _C_EXACT_JSON = compact_encoder(allow_nan=True)


def _exact_json(schema: Mapping[str, Any]) -> str:
    """``_EXACT_JSON.encode(schema)`` (the same text), with the C encoder made once."""
    if _C_EXACT_JSON is None:
        return _EXACT_JSON.encode(schema)
    return "".join(_C_EXACT_JSON(schema, 0))


@dataclass(frozen=True, slots=True)
class SchemaChecks:
    """What the policy finds in one ``inputSchema``: the schema check's ``problems``, and (only when there
    are none: a broken schema is rejected unscanned) the injection ``findings`` of the strings in it."""

    problems: tuple[str, ...]
    findings: tuple[Finding, ...]


class SchemaEntry:
    """What policy knows of one input schema by its exact JSON text: checks, bounds, canonical JSON.

    Each part is computed the first time a tool with this schema needs it, from that tool's schema (any
    value with the same JSON text gives the same result, see :func:`schema_entry`), and kept for the next
    tool. Safe across threads: every part is a pure function of the text, so two threads computing one part
    at once store equal values.
    """

    __slots__ = ("_bounds", "_canonical", "_checks", "_may_hold_marker")

    def __init__(self, may_hold_marker: bool) -> None:
        self._checks: SchemaChecks | None = None
        self._canonical: str | None = None
        self._bounds: tuple[CatalogLimits, str | None] | None = None
        self._may_hold_marker = may_hold_marker

    def checks(self, schema: Mapping[str, Any]) -> SchemaChecks:
        """The schema check and the scan of the schema's strings (see :func:`schema_checks`)."""
        checks = self._checks
        if checks is None:
            checks = self._checks = _schema_checks(schema)
        return checks

    def bounds_problem(self, schema: Mapping[str, Any], limits: CatalogLimits) -> str | None:
        """``bounds.schema_problem(schema, "inputSchema", limits)``, measured once per limits.

        Not reused for a text that holds the words of a :class:`~mcp_troupe.protocol.deepjson.TooDeep`
        marker: the marker (what the frame decoder puts where a container nests too deeply) is a string, its
        JSON text that of a plain string with those words, and the walk rejects the one and not the other.
        Any other text says exactly what the walk finds in the value it was written from.
        """
        if self._may_hold_marker:
            return schema_problem(schema, _INPUT_ROOT, limits)
        known = self._bounds
        if known is not None and (known[0] is limits or known[0] == limits):
            return known[1]
        problem = schema_problem(schema, _INPUT_ROOT, limits)
        self._bounds = (limits, problem)
        return problem

    def canonical(self, schema: Mapping[str, Any]) -> str:
        """The schema's canonical JSON, as :func:`~mcp_troupe.policy.fingerprint.fingerprint` writes it."""
        canonical = self._canonical
        if canonical is None:
            canonical = self._canonical = canonical_json(schema)
        return canonical


_MARKER_TEXT: Final = str(TooDeep())


class _Cache:
    """A bounded least-recently-used map from a schema's JSON text to its entry; safe across threads."""

    def __init__(self, entries: int) -> None:
        self._entries = entries
        self._items: OrderedDict[str, SchemaEntry] = OrderedDict()
        self._lock = threading.Lock()
        # The entries of the schema objects seen last, by identity (each kept alive with its entry, so that
        # its id cannot be reused while it is here): a listing's tools that share one schema object
        # (protocol.mcp.SharedSchemas) find its entry without writing its JSON text again.
        self._by_identity: dict[int, tuple[Mapping[str, Any], SchemaEntry]] = {}

    def known(self, schema: Mapping[str, Any]) -> SchemaEntry | None:
        """The entry found for this very ``schema`` object lately, if any (no lock: one dict read)."""
        known = self._by_identity.get(id(schema))
        return known[1] if known is not None and known[0] is schema else None

    def remember(self, schema: Mapping[str, Any], entry: SchemaEntry) -> None:
        """Keep ``entry`` as this ``schema`` object's, for :meth:`known`."""
        with self._lock:
            if len(self._by_identity) >= _IDENTITY_ENTRIES:
                self._by_identity.clear()
            self._by_identity[id(schema)] = (schema, entry)

    def entry(self, key: str) -> SchemaEntry:
        """The entry of ``key``, made (and the oldest dropped beyond the bound) when it is new."""
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
                return value
            value = self._items[key] = SchemaEntry(_MARKER_TEXT in key)
            while len(self._items) > self._entries:
                self._items.popitem(last=False)
            return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._by_identity.clear()


_CACHE: Final = _Cache(_CACHE_ENTRIES)


def schema_entry(schema: Mapping[str, Any]) -> SchemaEntry | None:
    """The shared entry of an input schema, keyed by its exact JSON text; ``None`` when it is not cached.

    Not cached: a schema that is not JSON (a hand-built definition holding a set, a non-string key that
    JSON cannot keep apart) or whose JSON is longer than :data:`_CACHE_KEY_MAX_CHARS`. The text is that of
    the C encoder, one pass over a value the frame decoder built, in C, from at least as many bytes: it
    comes before the bounds walk (which it lets many tools skip), and costs less than the decoding did, so
    a schema too big to be judged is not made dearer to reject by more than that.

    A schema object met lately is known by identity and not written again: the tools of one listing that
    share a schema object (:class:`~mcp_troupe.protocol.mcp.SharedSchemas`) cost one text between them. So a
    schema must not be changed in place once judged, the rule the registry follows for a definition already
    (an unchanged definition object keeps its verdict).
    """
    known = _CACHE.known(schema)
    if known is not None:
        return known
    try:
        key = _exact_json(schema)
    except (TypeError, ValueError, RecursionError):
        return None  # not JSON (a hand-built definition): checked, not cached
    if len(key) > _CACHE_KEY_MAX_CHARS:
        return None
    entry = _CACHE.entry(key)
    _CACHE.remember(schema, entry)
    return entry


def schema_checks(schema: Mapping[str, Any]) -> SchemaChecks:
    """The schema check of a tool's ``inputSchema`` and the scan of its strings, from one walk (or the cache).

    Equal to ``check_input_schema(schema)`` and, when that finds nothing, to the findings
    :func:`~mcp_troupe.policy.injection.scan_tool` reports for ``inputSchema.*`` fields. Call it only on a
    schema already within the bounds (:func:`~mcp_troupe.policy.bounds.definition_problem`).
    """
    entry = schema_entry(schema)
    return entry.checks(schema) if entry is not None else _schema_checks(schema)


def _schema_checks(schema: Mapping[str, Any]) -> SchemaChecks:
    if not isinstance(schema, dict):
        # Not an object: the check says so by itself, without a walk.
        return SchemaChecks(tuple(check_input_schema(schema)), ())
    found, texts = walk_schema(schema)
    problems = tuple(check_input_schema(schema, walked=found))
    if problems:
        return SchemaChecks(problems, ())
    return SchemaChecks((), tuple(scan_strings(texts)))


def walk_schema(root: dict[str, Any]) -> tuple[_Walk, list[SchemaText]]:
    """The one walk of an ``inputSchema``: the schema check's findings and the texts the scan reads.

    It is ``schema._walk`` itself, which collects, at each object subschema, the texts in
    ``injection._schema_strings``' order. When the walk stops at its bounds (:data:`~mcp_troupe.policy.
    schema.MAX_NODES`, :data:`~mcp_troupe.policy.schema.MAX_DEPTH`) the schema is rejected, and the texts
    so far are not meaningful.
    """
    texts: list[SchemaText] = []
    budget = [MAX_NODES * 4]  # injection._schema_strings' budget of data strings

    def collect(node: Mapping[str, Any], path: str) -> None:
        for key in _TEXT_KEYWORDS:
            text = node.get(key)
            if isinstance(text, str):
                texts.append((f"{path}.{key}", text, False))
        properties = node.get("properties")
        if isinstance(properties, dict):
            for name in properties:
                if isinstance(name, str):
                    texts.append((f"{path}.properties.{name}", name, True))
        for key in _DATA_KEYWORDS:
            if key in node:
                for where, text in _data_strings(node[key], f"{path}.{key}", budget):
                    texts.append((where, text, False))

    found = _walk(root, _INPUT_ROOT, arrays_need_items=True, visit=collect)
    return found, texts
