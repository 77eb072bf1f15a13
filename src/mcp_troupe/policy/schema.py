"""Checks on a tool's ``inputSchema`` and ``outputSchema`` before the tool is registered.

A schema the model provider cannot use breaks the *whole* request that carries the tool list, not just the
one tool, so a bad schema is rejected here with a reason the operator can act on, and the server's other
tools stay.

What is checked, in this order (a stage runs only when the one before it found nothing, so each reason is
about the schema as it is, not about the echo of an earlier fault):

1. **Shape.** The schema is a JSON object; a ``$schema`` names a dialect we validate (draft-07, 2019-09,
   2020-12; none means 2020-12, spec: 2025-11-25 basic "JSON Schema Usage"); an input schema's root has
   ``type: "object"`` (every MCP revision requires it; a missing ``type`` is rejected too, because providers
   read a root without it as "any value").
2. **Structure**, over every subschema (``properties``, ``items``, ``$defs``, ``anyOf``, ...), never into
   data (``default``, ``enum``, ``const``, ``examples``):

   - an input subschema of type ``array`` has ``items`` or ``prefixItems`` (providers such as OpenAI and
     Gemini reject an array without them);
   - ``required`` is a list of strings;
   - every ``$ref`` is local (``#...``) and resolves inside the schema. Remote references are never
     followed (spec: 2026-07-28 MUST NOT auto-dereference network ``$ref``), so a schema that needs one
     cannot be checked and is rejected;
   - the walk is bounded: at most :data:`MAX_DEPTH` levels and :data:`MAX_NODES` subschemas. A bigger schema
     is rejected rather than walked (spec: 2026-07-28 SHOULD bound the cost of composition keywords).
3. **Meta-schema.** The schema is valid against its dialect's meta-schema, as ``check_schema`` of that
   dialect's jsonschema validator would say (format ``regex`` included).

Speed: a tool list can hold thousands of tools and is re-checked on every ``list_changed``. Validating
against the 2020-12 meta-schema costs about a millisecond a schema in jsonschema, so the walk of stage 2 also
decides, keyword by keyword, whether the schema uses only keywords whose values it can prove meta-valid in
all three dialects (``type``, ``properties``, ``required``, ``items`` as a schema, ``enum``,
``description``, the numeric bounds, ...). Only a schema that uses anything else, or a value outside those
proofs, pays for the full meta-schema validation. The shortcut can only skip a check whose answer is already
known: when in doubt it falls back, and the tests compare both paths.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import unquote

import jsonschema
from jsonschema.exceptions import best_match
from jsonschema.protocols import Validator

from mcp_troupe.policy.patterns import is_valid_regex, meta_format_checker

__all__ = [
    "DIALECTS",
    "MAX_DEPTH",
    "MAX_NODES",
    "check_input_schema",
    "check_output_schema",
    "child_schemas",
]

MAX_DEPTH: Final = 64
"""Deepest subschema nesting that is checked; a deeper schema is rejected."""

MAX_NODES: Final = 10_000
"""Most subschemas one schema may hold; a bigger schema is rejected."""

_DRAFT_07 = "draft-07"
_DRAFT_2019_09 = "2019-09"
_DRAFT_2020_12 = "2020-12"

# `$schema` values we recognise, without a trailing "#", keyed to the dialect's short name. Both schemes are
# accepted for each: tools write either, and the meta-schema behind them is the same.
DIALECTS: Final[Mapping[str, str]] = {
    "http://json-schema.org/draft-07/schema": _DRAFT_07,
    "https://json-schema.org/draft-07/schema": _DRAFT_07,
    "https://json-schema.org/draft/2019-09/schema": _DRAFT_2019_09,
    "http://json-schema.org/draft/2019-09/schema": _DRAFT_2019_09,
    "https://json-schema.org/draft/2020-12/schema": _DRAFT_2020_12,
    "http://json-schema.org/draft/2020-12/schema": _DRAFT_2020_12,
}
"""``$schema`` URIs (trailing ``#`` removed) that the checks accept, and the dialect each names."""

_VALIDATOR_CLASSES: Final[Mapping[str, Any]] = {
    _DRAFT_07: jsonschema.Draft7Validator,
    _DRAFT_2019_09: jsonschema.Draft201909Validator,
    _DRAFT_2020_12: jsonschema.Draft202012Validator,
}

# Where a problem names a place in the schema, it starts here, like the MCP field it comes from.
_INPUT_ROOT = "inputSchema"
_OUTPUT_ROOT = "outputSchema"

# Revisions before this one require an object root for outputSchema too (spec: 2026-07-28 lets it be any
# 2020-12 schema). Revision names are dates, so string order is time order.
_OUTPUT_ANY_ROOT_SINCE = "2026-07-28"

_MAX_PROBLEMS = 20
_MAX_MESSAGE_CHARS = 200

# Keywords whose value is one subschema, a list of subschemas, or a map of name -> subschema. The walk follows
# these and nothing else, so data keywords (default, enum, const, examples) are never read as schemas.
_ONE_SUBSCHEMA = frozenset(
    {
        "additionalItems",
        "additionalProperties",
        "contains",
        "contentSchema",
        "else",
        "if",
        "not",
        "propertyNames",
        "then",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
_SUBSCHEMA_LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_SUBSCHEMA_MAP = frozenset({"$defs", "definitions", "dependentSchemas", "patternProperties", "properties"})

# Every keyword of draft-07, 2019-09 and 2020-12. A key outside this set is ignored by all three
# meta-schemas, so it cannot make a schema invalid; a keyword in it that the fast path does not handle sends
# the schema to the full meta-schema check.
_KNOWN_KEYWORDS = frozenset(
    {
        "$anchor",
        "$comment",
        "$defs",
        "$dynamicAnchor",
        "$dynamicRef",
        "$id",
        "$recursiveAnchor",
        "$recursiveRef",
        "$ref",
        "$schema",
        "$vocabulary",
        "additionalItems",
        "additionalProperties",
        "allOf",
        "anyOf",
        "const",
        "contains",
        "contentEncoding",
        "contentMediaType",
        "contentSchema",
        "default",
        "definitions",
        "dependencies",
        "dependentRequired",
        "dependentSchemas",
        "deprecated",
        "description",
        "else",
        "enum",
        "examples",
        "exclusiveMaximum",
        "exclusiveMinimum",
        "format",
        "if",
        "items",
        "maxContains",
        "maxItems",
        "maxLength",
        "maxProperties",
        "maximum",
        "minContains",
        "minItems",
        "minLength",
        "minProperties",
        "minimum",
        "multipleOf",
        "not",
        "oneOf",
        "pattern",
        "patternProperties",
        "prefixItems",
        "properties",
        "propertyNames",
        "readOnly",
        "required",
        "then",
        "title",
        "type",
        "unevaluatedItems",
        "unevaluatedProperties",
        "uniqueItems",
        "writeOnly",
    }
)

_SIMPLE_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})

# A `$ref` the fast path accepts without the meta-schema: a JSON-pointer fragment made only of characters a
# URI fragment may hold, so it is a valid uri-reference whatever format checker is installed.
_SAFE_POINTER_REF = re.compile(r"#(?:/(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})*)*")


def _is_schema(value: object) -> bool:
    # Boolean schemas are valid in every dialect we accept (draft-06 onwards).
    return isinstance(value, dict | bool)


def _is_number(value: object) -> bool:
    # bool is an int in Python but not a number in JSON Schema.
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_non_negative_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_string_set(value: object) -> bool:
    return (
        isinstance(value, list)
        and all(isinstance(item, str) for item in value)
        and len(set(value)) == len(value)
    )


def _is_type_value(value: object) -> bool:
    if isinstance(value, str):
        return value in _SIMPLE_TYPES
    return (
        isinstance(value, list) and bool(value) and _is_string_set(value) and _SIMPLE_TYPES.issuperset(value)
    )


def _is_positive_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


def _is_schema_list(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(_is_schema(item) for item in value)


def _is_schema_map(value: object) -> bool:
    return isinstance(value, dict) and all(_is_schema(item) for item in value.values())


def _is_regex(value: object) -> bool:
    # Never re.compile a server's pattern directly as the check: see policy.patterns (RE2 first).
    return isinstance(value, str) and is_valid_regex(value)


def _anything(_value: object) -> bool:
    return True


# The fast path's proofs: keyword -> a test that, when true, makes the keyword's value valid against the
# draft-07, 2019-09 and 2020-12 meta-schemas alike. Each test is at least as strict as the strictest of the
# three (e.g. `items` only as a single schema, which 2020-12 requires; integers only as Python ints).
_FAST_KEYWORD_TESTS: Final[Mapping[str, Callable[[object], bool]]] = {
    "$comment": lambda value: isinstance(value, str),
    "$defs": _is_schema_map,
    "$ref": lambda value: isinstance(value, str) and _SAFE_POINTER_REF.fullmatch(value) is not None,
    "additionalItems": _is_schema,
    "additionalProperties": _is_schema,
    "allOf": _is_schema_list,
    "anyOf": _is_schema_list,
    "const": _anything,
    "contains": _is_schema,
    "contentEncoding": lambda value: isinstance(value, str),
    "contentMediaType": lambda value: isinstance(value, str),
    "default": _anything,
    "definitions": _is_schema_map,
    "deprecated": lambda value: isinstance(value, bool),
    "description": lambda value: isinstance(value, str),
    "else": _is_schema,
    "enum": lambda value: isinstance(value, list),
    "examples": lambda value: isinstance(value, list),
    "exclusiveMaximum": _is_number,
    "exclusiveMinimum": _is_number,
    "format": lambda value: isinstance(value, str),
    "if": _is_schema,
    "items": _is_schema,
    "maxItems": _is_non_negative_int,
    "maxLength": _is_non_negative_int,
    "maxProperties": _is_non_negative_int,
    "maximum": _is_number,
    "minItems": _is_non_negative_int,
    "minLength": _is_non_negative_int,
    "minProperties": _is_non_negative_int,
    "minimum": _is_number,
    "multipleOf": _is_positive_number,
    "not": _is_schema,
    "oneOf": _is_schema_list,
    "pattern": _is_regex,
    "properties": _is_schema_map,
    "propertyNames": _is_schema,
    "readOnly": lambda value: isinstance(value, bool),
    "required": _is_string_set,
    "then": _is_schema,
    "title": lambda value: isinstance(value, str),
    "type": _is_type_value,
    "uniqueItems": lambda value: isinstance(value, bool),
    "writeOnly": lambda value: isinstance(value, bool),
}


@functools.cache
def _meta_validator(dialect: str) -> Validator:
    """Return the (cached) validator of a dialect's meta-schema, with its format checker (as check_schema)."""
    cls = _VALIDATOR_CLASSES[dialect]
    meta_cls = jsonschema.validators.validator_for(cls.META_SCHEMA, default=cls)
    # Its "regex" format goes through RE2 (policy.patterns), like every other use of a server's pattern.
    validator: Validator = meta_cls(cls.META_SCHEMA, format_checker=meta_format_checker(meta_cls))
    return validator


def _join(path: str, key: str | int) -> str:
    return f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}"


def _short(text: str) -> str:
    return text if len(text) <= _MAX_MESSAGE_CHARS else text[: _MAX_MESSAGE_CHARS - 1] + "…"


@dataclass
class _Walk:
    """What one walk over a schema found."""

    problems: list[str] = field(default_factory=list)
    needs_meta_check: bool = False
    exceeded_bounds: bool = False
    local_refs: list[tuple[str, str]] = field(default_factory=list)
    """(where, ref) of every local reference, resolved after the walk."""
    anchors: set[str] = field(default_factory=set)


def child_schemas(node: Mapping[str, Any], path: str) -> Iterator[tuple[object, str]]:
    """Yield every subschema directly inside the schema ``node``, each with its path under ``path``.

    Only schema-valued keywords are followed (``properties``, ``items``, ``$defs``, ``anyOf``, ...); data
    keywords such as ``default`` or ``enum`` are not. The injection scanner walks schemas with this too.
    """
    for key, value in node.items():
        if key in _ONE_SUBSCHEMA:
            yield value, _join(path, key)
        elif key == "items":
            # draft-07 and 2019-09 allow a list of schemas (tuple form); 2020-12 only one schema.
            if isinstance(value, list):
                for index, item in enumerate(value):
                    yield item, _join(_join(path, key), index)
            else:
                yield value, _join(path, key)
        elif key in _SUBSCHEMA_LIST and isinstance(value, list):
            for index, item in enumerate(value):
                yield item, _join(_join(path, key), index)
        elif key in _SUBSCHEMA_MAP and isinstance(value, dict):
            for name, item in value.items():
                yield item, _join(_join(path, key), name)
        elif key == "dependencies" and isinstance(value, dict):
            # draft-07: each value is a schema or a list of property names; only schemas are walked.
            for name, item in value.items():
                if isinstance(item, dict):
                    yield item, _join(_join(path, key), name)


def _walk(
    root: Mapping[str, Any],
    root_path: str,
    *,
    arrays_need_items: bool,
    visit: Callable[[Mapping[str, Any], str], None] | None = None,
) -> _Walk:
    """Walk every subschema (iteratively, within bounds), noting faults and whether the fast path holds.

    ``visit`` is called with each object subschema and its path, in document order, after its check: how
    the policy pass gathers the texts the injection scan reads in this same walk (``policy/definition.py``).
    """
    found = _Walk()
    stack: list[tuple[object, str, int]] = [(root, root_path, 0)]
    visited = 0
    while stack:
        node, path, depth = stack.pop()
        visited += 1
        if visited > MAX_NODES:
            found.problems.append(
                f"{root_path} has more than {MAX_NODES} subschemas; it is not checked further"
            )
            found.exceeded_bounds = True
            return found
        if depth > MAX_DEPTH:
            found.problems.append(f"{root_path} nests deeper than {MAX_DEPTH} levels (at {_short(path)})")
            found.exceeded_bounds = True
            return found
        if not isinstance(node, dict):
            # A boolean is a valid schema; anything else is left to the meta-schema to name.
            if not isinstance(node, bool):
                found.needs_meta_check = True
            continue
        _check_node(node, path, found, is_root=depth == 0, arrays_need_items=arrays_need_items)
        if visit is not None:
            visit(node, path)
        children = list(child_schemas(node, path))
        # Reversed so that the stack pops them, and reports their faults, in document order.
        stack.extend((child, child_path, depth + 1) for child, child_path in reversed(children))
    return found


def _check_node(
    node: Mapping[str, Any], path: str, found: _Walk, *, is_root: bool, arrays_need_items: bool
) -> None:
    """Note the structural faults of one subschema, and whether the fast path can vouch for its keywords."""
    for key, value in node.items():
        if key not in _KNOWN_KEYWORDS:
            continue
        test = _FAST_KEYWORD_TESTS.get(key)
        # `$schema` is vouched for only at the root, where check_* has already matched it against DIALECTS.
        if not (key == "$schema" and is_root) and (test is None or not test(value)):
            found.needs_meta_check = True
        if key in ("$ref", "$dynamicRef", "$recursiveRef") and isinstance(value, str):
            if value.startswith("#"):
                found.local_refs.append((_join(path, key), value))
            else:
                found.problems.append(f"{_join(path, key)}: remote $ref not allowed ({_short(value)!r})")
        elif key in ("$anchor", "$dynamicAnchor") and isinstance(value, str):
            found.anchors.add(value)
        elif key == "$id" and isinstance(value, str) and value.startswith("#"):
            # draft-07 names a plain-name fragment with "$id": "#name" rather than "$anchor".
            found.anchors.add(value[1:])

    required = node.get("required")
    if required is not None:
        if not isinstance(required, list):
            found.problems.append(f"{_join(path, 'required')} must be a list of property names")
        else:
            for index, entry in enumerate(required):
                if not isinstance(entry, str):
                    found.problems.append(
                        f"{_join(_join(path, 'required'), index)} is not a string: {entry!r:.60}"
                    )

    if arrays_need_items:
        declared = node.get("type")
        is_array = declared == "array" or (isinstance(declared, list) and "array" in declared)
        if is_array and "items" not in node and "prefixItems" not in node:
            found.problems.append(f"{path}: an array must say what it holds ('items' or 'prefixItems')")


def _resolve_pointer(root: object, pointer: str) -> bool:
    """Whether a JSON pointer (RFC 6901, already URI-decoded) names a value inside ``root``."""
    node = root
    if not pointer:
        return True
    if not pointer.startswith("/"):
        return False
    for raw_token in pointer[1:].split("/"):
        token = raw_token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False
    return True


def _check_refs(root: Mapping[str, Any], found: _Walk) -> None:
    """Report local references that point at nothing."""
    for where, ref in found.local_refs:
        fragment = unquote(ref[1:])
        if fragment.startswith("/") or not fragment:
            resolves = _resolve_pointer(root, fragment)
        else:
            resolves = fragment in found.anchors
        if not resolves:
            found.problems.append(f"{where}: $ref {_short(ref)!r} points at nothing in the schema")


def _meta_problem(schema: Mapping[str, Any], dialect: str, root_path: str) -> str | None:
    """Validate against the dialect's meta-schema; return the most relevant error as a sentence."""
    try:
        error = best_match(_meta_validator(dialect).iter_errors(schema))
    except RecursionError:
        # Bounded depth makes this unlikely, but a `$ref` cycle through the meta-schema must not crash policy.
        return f"{root_path} is too complex to validate against the JSON Schema {dialect} meta-schema"
    if error is None:
        return None
    where = root_path
    for part in error.absolute_path:
        where = _join(where, part)
    return f"{where}: not a valid JSON Schema ({dialect}): {_short(error.message)}"


def _dialect(schema: Mapping[str, Any], root_path: str) -> tuple[str | None, str | None]:
    """Return (dialect, problem) for the root's ``$schema``; 2020-12 when it is absent."""
    declared = schema.get("$schema")
    if declared is None:
        return _DRAFT_2020_12, None
    if isinstance(declared, str):
        dialect = DIALECTS.get(declared.rstrip("#"))
        if dialect is not None:
            return dialect, None
    supported = ", ".join(sorted(set(DIALECTS.values())))
    return None, f"{root_path}.$schema {declared!r:.80} is not a JSON Schema dialect we check ({supported})"


def _check(
    schema: object,
    root_path: str,
    *,
    root_must_be_object: bool,
    arrays_need_items: bool,
    walked: _Walk | None = None,
) -> list[str]:
    if not isinstance(schema, dict):
        return [f"{root_path} must be a JSON object, got {_json_type(schema)}"]
    dialect, problem = _dialect(schema, root_path)
    shape: list[str] = [problem] if problem else []
    if root_must_be_object:
        declared = schema.get("type")
        if declared is None:
            shape.append(f"{root_path} has no 'type'; MCP requires type: \"object\" at the root")
        elif declared != "object":
            shape.append(f'{root_path}.type is {declared!r:.60}; MCP requires type: "object" at the root')
    if shape:
        return shape

    # A walk done already (policy.definition walks a definition once for every check) is taken as it is.
    found = walked if walked is not None else _walk(schema, root_path, arrays_need_items=arrays_need_items)
    if not found.exceeded_bounds:
        _check_refs(schema, found)
    if found.problems:
        return found.problems[:_MAX_PROBLEMS]

    assert dialect is not None  # a None dialect always comes with a problem, returned above
    if found.needs_meta_check:
        meta = _meta_problem(schema, dialect, root_path)
        if meta is not None:
            return [meta]
    return []


def _json_type(value: object) -> str:
    match value:
        case None:
            return "null"
        case bool():
            return "a boolean"
        case int() | float():
            return "a number"
        case str():
            return "a string"
        case list() | tuple():
            return "an array"
        case _:
            return type(value).__name__


def check_input_schema(schema: object, *, walked: _Walk | None = None) -> list[str]:
    """Return what is wrong with a tool's ``inputSchema``; an empty list means it may be registered.

    Each problem is one sentence that starts with where it is (``inputSchema.properties.tags: ...``).
    ``walked`` is this schema's walk done already by :func:`mcp_troupe.policy.definition.walk_schema`
    (the walk is then not repeated).
    """
    return _check(schema, _INPUT_ROOT, root_must_be_object=True, arrays_need_items=True, walked=walked)


def check_output_schema(schema: object, *, protocol_version: str | None = None) -> list[str]:
    """Return what is wrong with a tool's ``outputSchema``; an empty list means it may be used.

    The same checks as :func:`check_input_schema` except that an array may leave out ``items`` (the schema
    only validates results, it is not sent to a model provider), and the root must be ``type: "object"``
    only for revisions before 2026-07-28 (``protocol_version=None`` means an older revision, the strict case).
    """
    any_root = protocol_version is not None and protocol_version >= _OUTPUT_ANY_ROOT_SINCE
    return _check(schema, _OUTPUT_ROOT, root_must_be_object=not any_root, arrays_need_items=False)
