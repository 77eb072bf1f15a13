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

The bounds keep their own walk, and it stays first: nothing may serialise or read a definition before it is
known to be within ``tools.mcp.limits``, and the serialisation (the fingerprint) decides whether anything
else runs at all, since an unchanged definition takes its checks from the caller's cache. Measured, folding
the bounds into the same walk saved less (~4 µs a definition) than it cost on every definition whose checks
are cached (~11 µs more than the bounds walk alone), so they were left apart.

The result of the schema part is a function of the schema's content alone, and many tools of one server
share a schema (no parameters, one ``path``, the same pagination arguments). So it is kept in a bounded
cache keyed by the schema's exact JSON text (key order kept: a problem list and the order of findings
follow the document's order), which costs one C-encoder pass a definition and saves the walk, the check and
the scan of the schema's strings for every schema seen before.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from mcp_troupe.policy.injection import _DATA_KEYWORDS, _TEXT_KEYWORDS, Finding, _data_strings, scan_strings
from mcp_troupe.policy.schema import MAX_NODES, _Walk, _walk, check_input_schema

__all__ = ["SchemaChecks", "schema_checks"]

_INPUT_ROOT = "inputSchema"

SchemaText = tuple[str, str, bool]
"""(field, text, is_name): one string of a schema that the model reads, as the injection scan takes it."""

_CACHE_ENTRIES: Final = 1024
_CACHE_KEY_MAX_CHARS: Final = 4096
"""Schemas whose JSON is longer are not cached: the cache holds at most about 4 MiB of keys, and a long schema
is rarely shared word for word."""

# The exact JSON text of a schema, in the document's key order. Reused rather than built per call
# (json.dumps with options builds a new encoder each time).
_EXACT_JSON: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=True)


@dataclass(frozen=True, slots=True)
class SchemaChecks:
    """What the policy finds in one ``inputSchema``: the schema check's ``problems``, and (only when there
    are none: a broken schema is rejected unscanned) the injection ``findings`` of the strings in it."""

    problems: tuple[str, ...]
    findings: tuple[Finding, ...]


class _Cache:
    """A bounded least-recently-used map from a schema's JSON text to its checks; safe across threads."""

    def __init__(self, entries: int) -> None:
        self._entries = entries
        self._items: OrderedDict[str, SchemaChecks] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> SchemaChecks | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: str, value: SchemaChecks) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._entries:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


_CACHE: Final = _Cache(_CACHE_ENTRIES)


def schema_checks(schema: Mapping[str, Any]) -> SchemaChecks:
    """The schema check of a tool's ``inputSchema`` and the scan of its strings, from one walk (or the cache).

    Equal to ``check_input_schema(schema)`` and, when that finds nothing, to the findings
    :func:`~mcp_troupe.policy.injection.scan_tool` reports for ``inputSchema.*`` fields. Call it only on a
    schema already within the bounds (:func:`~mcp_troupe.policy.bounds.definition_problem`).
    """
    try:
        key: str | None = _EXACT_JSON.encode(schema)
    except (TypeError, ValueError):
        key = None  # not JSON (a hand-built definition): checked, not cached
    if key is not None and len(key) > _CACHE_KEY_MAX_CHARS:
        key = None
    if key is not None:
        cached = _CACHE.get(key)
        if cached is not None:
            return cached
    checks = _schema_checks(schema)
    if key is not None:
        _CACHE.put(key, checks)
    return checks


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
