"""One walk of a tool definition's input schema that feeds every policy check on it (issue 18).

Judging a tool used to walk its ``inputSchema`` three times before hashing it: the size bounds
(:mod:`~mcp_troupe.policy.bounds`) over every JSON value, the structural schema checks
(:mod:`~mcp_troupe.policy.schema`) over every subschema, and the injection scan's gathering of the strings
the model reads (:mod:`~mcp_troupe.policy.injection`) over every subschema again. On a catalog of 10,000
small tools those walks cost about as much as the scan itself, all of it on the way to a first ``ready``.

:func:`read_definition` walks the subschemas once, in document order, and at each one does the work of all
three: it measures the node for the bounds (and measures, without descending into subschemas, the values
that are not subschemas: ``default``, ``enum``, ``required``, the ``properties`` map itself), notes the
node's structural faults and whether the meta-schema fast path holds, and collects its texts. The results are
exactly those of the three walks:

- the set of JSON values measured is the set the bounds walk measures, each once, so "some bound is
  crossed" comes out the same whatever the order. Only the *reason* depends on the order the bounds walk
  meets values in, so when a bound is crossed (a hostile or broken definition, never a real one) the
  reason is taken from :func:`~mcp_troupe.policy.bounds.definition_problem` itself, which stops at its
  first breach;
- the subschemas are visited in the order, and with the paths, of the schema check's own walk, whose
  per-node check (``schema._check_node``) runs unchanged; the texts come out in the order the scan's
  gathering yields them.

``tests/unit/test_policy_definition.py`` holds the one walk equal to the three over the real-tools corpus,
the poisoned corpora and generated schemas. The fingerprint stays ``json.dumps`` (in C) over the whole
definition: it must stay byte-for-byte what reviews were recorded under, and a Python walk building it would
cost more than the C encoder does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcp_troupe.policy.bounds import CatalogLimits, _schema_problem, definition_problem
from mcp_troupe.policy.injection import _DATA_KEYWORDS, _TEXT_KEYWORDS, _data_strings
from mcp_troupe.policy.schema import (
    _ONE_SUBSCHEMA,
    _SUBSCHEMA_LIST,
    _SUBSCHEMA_MAP,
    MAX_DEPTH,
    MAX_NODES,
    _check_node,
    _join,
    _short,
    _Walk,
)
from mcp_troupe.protocol.deepjson import TooDeep
from mcp_troupe.protocol.mcp import ToolDefinition

__all__ = ["DefinitionReading", "read_definition"]

_INPUT_ROOT = "inputSchema"

SchemaText = tuple[str, str, bool]
"""(field, text, is_name): one string of a schema that the model reads, as the injection scan takes it."""


@dataclass(frozen=True, slots=True)
class DefinitionReading:
    """What one walk of a tool definition found.

    ``too_big`` is the bounds' reason to reject the definition unread (``None`` when ``limits`` were not
    given or none is crossed); when it is set, nothing else is meaningful. Otherwise ``schema_walk`` is the
    schema check's walk of the ``inputSchema`` (``None`` when the schema is not a JSON object, which the
    check reports by itself) and ``texts`` the strings of the ``inputSchema`` that the scan reads.
    """

    too_big: str | None
    schema_walk: _Walk | None
    texts: tuple[SchemaText, ...]


class _Meter:
    """The bounds' measure of a schema (size so far, depth and pattern limits), a value at a time.

    Each method measures one JSON value by the rules of ``bounds._schema_problem`` and says whether a bound
    is crossed; :meth:`value` descends, :meth:`mapping` and :meth:`sequence` measure a container alone
    (its members are measured where the walk meets them, as subschemas).
    """

    __slots__ = ("max_bytes", "max_depth", "max_pattern", "size")

    def __init__(self, limits: CatalogLimits) -> None:
        self.size = 0
        self.max_bytes = limits.max_schema_bytes
        self.max_depth = limits.max_schema_depth
        self.max_pattern = limits.max_pattern_chars

    def mapping(self, value: Mapping[Any, Any], level: int) -> bool:
        if level > self.max_depth:
            return True
        size = self.size + 2 + 4 * len(value)
        pattern = value.get("pattern")
        if isinstance(pattern, str) and len(pattern) > self.max_pattern:
            return True
        pattern_map = value.get("patternProperties")
        if isinstance(pattern_map, dict):
            for key in pattern_map:
                if isinstance(key, str) and len(key) > self.max_pattern:
                    return True
        for key in value:
            size += len(key) if isinstance(key, str) else 8
        self.size = size
        return size > self.max_bytes

    def sequence(self, value: list[Any], level: int) -> bool:
        if level > self.max_depth:
            return True
        self.size += 2 + len(value)
        return self.size > self.max_bytes

    def value(self, value: object, level: int) -> bool:
        stack: list[tuple[object, int]] = [(value, level)]
        while stack:
            node, depth = stack.pop()
            if isinstance(node, TooDeep):
                return True  # the frame decoder stopped here: deeper than any bound (protocol.deepjson)
            if isinstance(node, dict):
                if self.mapping(node, depth):
                    return True
                stack.extend((child, depth + 1) for child in node.values())
            elif isinstance(node, list):
                if self.sequence(node, depth):
                    return True
                stack.extend((child, depth + 1) for child in node)
            else:
                self.size += len(node) + 2 if isinstance(node, str) else 8
                if self.size > self.max_bytes:
                    return True
        return False


def read_definition(tool: ToolDefinition, limits: CatalogLimits | None) -> DefinitionReading:
    """Walk ``tool``'s definition once for the bounds (when ``limits`` are given), the schema check and the
    scan's texts (see the module docstring)."""
    if limits is not None:
        for text in (tool.description, tool.title):
            if text is not None and len(text) > limits.max_description_chars:
                return DefinitionReading(definition_problem(tool, limits), None, ())
    schema = tool.input_schema
    if not isinstance(schema, dict):
        # Not a schema at all: the schema check says so; the bounds walk of a non-object is its own.
        too_big = definition_problem(tool, limits) if limits is not None else None
        return DefinitionReading(too_big, None, ())
    meter = _Meter(limits) if limits is not None else None
    found, texts, is_measured, is_crossed = _walk(schema, meter)
    if limits is not None:
        if is_crossed or not is_measured:
            # A bound is crossed (or the schema walk stopped before measuring everything): the reason, and
            # whether there is one, come from the bounds' own walk, which stops at its first breach.
            too_big = definition_problem(tool, limits)
            if too_big is not None:
                return DefinitionReading(too_big, None, ())
            if is_crossed:
                # Never expected (the tests hold the measures equal), but a walk cut short must not be
                # taken for a whole one: walk again without measuring.
                found, texts, _, _ = _walk(schema, None)
        elif tool.output_schema is not None:
            too_big = _schema_problem(tool.output_schema, "outputSchema", limits)
            if too_big is not None:
                return DefinitionReading(too_big, None, ())
    return DefinitionReading(None, found, tuple(texts))


def _walk(root: dict[str, Any], meter: _Meter | None) -> tuple[_Walk, list[SchemaText], bool, bool]:
    """The one walk: ``(schema walk, texts, every value measured, a bound crossed)``.

    The subschema order, paths and stopping rules are those of ``schema._walk``; the texts those of
    ``injection._schema_strings``; the measure that of ``bounds._schema_problem``.
    """
    found = _Walk()
    texts: list[SchemaText] = []
    budget = [MAX_NODES * 4]  # injection._schema_strings' budget of data strings
    # (node, path, subschema depth, JSON nesting level: the root is level 1, as in policy.bounds)
    stack: list[tuple[object, str, int, int]] = [(root, _INPUT_ROOT, 0, 1)]
    visited = 0
    while stack:
        node, path, depth, level = stack.pop()
        visited += 1
        if visited > MAX_NODES:
            found.problems.append(
                f"{_INPUT_ROOT} has more than {MAX_NODES} subschemas; it is not checked further"
            )
            found.exceeded_bounds = True
            return found, texts, False, False
        if depth > MAX_DEPTH:
            found.problems.append(f"{_INPUT_ROOT} nests deeper than {MAX_DEPTH} levels (at {_short(path)})")
            found.exceeded_bounds = True
            return found, texts, False, False
        if not isinstance(node, dict):
            if not isinstance(node, bool):
                found.needs_meta_check = True
            if meter is not None and meter.value(node, level):
                return found, texts, True, True
            continue
        # Children in schema.child_schemas' order; every other value measured here, once.
        if meter is not None and meter.mapping(node, level):
            return found, texts, True, True
        children: list[tuple[object, str, int]] = []
        for key, value in node.items():
            if key in _ONE_SUBSCHEMA or (key == "items" and not isinstance(value, list)):
                children.append((value, _join(path, key), level + 1))
            elif (key == "items" or key in _SUBSCHEMA_LIST) and isinstance(value, list):
                # draft-07 and 2019-09 allow a list of schemas under items (tuple form).
                if meter is not None and meter.sequence(value, level + 1):
                    return found, texts, True, True
                where = _join(path, key)
                children.extend((item, _join(where, index), level + 2) for index, item in enumerate(value))
            elif key in _SUBSCHEMA_MAP and isinstance(value, dict):
                if meter is not None and meter.mapping(value, level + 1):
                    return found, texts, True, True
                where = _join(path, key)
                children.extend((item, _join(where, name), level + 2) for name, item in value.items())
            elif key == "dependencies" and isinstance(value, dict):
                # draft-07: a schema or a list of property names each; only schemas are subschemas.
                if meter is not None and meter.mapping(value, level + 1):
                    return found, texts, True, True
                where = _join(path, key)
                for name, item in value.items():
                    if isinstance(item, dict):
                        children.append((item, _join(where, name), level + 2))
                    elif meter is not None and meter.value(item, level + 2):
                        return found, texts, True, True
            elif meter is not None and meter.value(value, level + 1):
                return found, texts, True, True
        # Measured first: nothing reads a value (a pattern through the regex compiler) that the bounds reject.
        _check_node(node, path, found, is_root=depth == 0, arrays_need_items=True)
        # The scan's texts of this subschema, in injection._schema_strings' order.
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

        # Reversed so that the stack pops them in document order, as schema._walk does.
        stack.extend(
            (child, child_path, depth + 1, child_level)
            for child, child_path, child_level in reversed(children)
        )
    return found, texts, True, False
