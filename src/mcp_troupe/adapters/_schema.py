"""Input schemas rewritten into what each provider's function calling accepts, and the way back.

Pure code: a JSON Schema in, a provider schema and an :class:`ArgumentMap` out, or :class:`Unconvertible`
with the reason. The rules, per provider (each learned from the providers' documented limits and from the
400s peers report):

- **OpenAI, not strict**: any JSON Schema with an object root; an object root without ``properties`` gets an
  empty one (the API refuses "object schema missing properties").
- **OpenAI strict** (structured outputs): every object has ``additionalProperties: false`` and lists every
  property in ``required``; an optional property becomes required *and nullable*, and the model's ``null``
  is dropped again by :meth:`ArgumentMap.apply`. Only the supported keywords stay; ``oneOf`` becomes
  ``anyOf``; ``allOf`` of objects is merged; a keyword that carries meaning but is unsupported (``default``,
  ``minLength`` ...) moves into the description, so the model still reads it. A free-form value (``{}``, an
  object without properties) cannot be strict: it becomes a JSON-encoded string that ``apply`` decodes. At
  most 10 levels of nesting and 5000 properties (the API's limits); recursion is refused.
- **Anthropic**: JSON Schema with an object root; ``oneOf``/``anyOf``/``allOf`` at the root are refused by
  the API, so such a tool is left out.
- **Gemini** (the OpenAPI-3 subset of ``Schema``): no ``$ref``/``$defs`` (inlined; recursion is refused),
  ``type`` one upper-case name with ``nullable``, ``enum`` only of strings, ``anyOf`` instead of
  ``oneOf``, ``items`` required on arrays, no ``additionalProperties``; an object without properties becomes
  a JSON-encoded string; a property name outside ``[A-Za-z_][A-Za-z0-9_.:-]*`` (at most 64) is renamed and
  mapped back.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = [
    "ArgumentMap",
    "Unconvertible",
    "anthropic_schema",
    "gemini_schema",
    "openai_schema",
]

MAX_INLINED_NODES: Final = 20_000
"""Schema nodes that inlining ``$ref`` may produce before the tool is refused (a ref bomb grows fast)."""
OPENAI_STRICT_MAX_DEPTH: Final = 10
OPENAI_STRICT_MAX_PROPERTIES: Final = 5000
OPENAI_STRICT_MAX_ENUM_VALUES: Final = 1000

_GEMINI_NAME: Final = re.compile(r"\A[A-Za-z_][A-Za-z0-9_.:\-]{0,63}\Z")
_GEMINI_UNSAFE: Final = re.compile(r"[^A-Za-z0-9_.:\-]")
_GEMINI_TYPES: Final = {
    "string": "STRING",
    "number": "NUMBER",
    "integer": "INTEGER",
    "boolean": "BOOLEAN",
    "array": "ARRAY",
    "object": "OBJECT",
    "null": "NULL",
}
# Gemini's Schema knows these formats only (others are refused or ignored by the API); the rest go to the
# description so the model still sees them.
_GEMINI_FORMATS: Final = {
    "STRING": {"enum", "date-time"},
    "INTEGER": {"int32", "int64"},
    "NUMBER": {"float", "double"},
}
_OPENAI_STRICT_FORMATS: Final = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
_OPENAI_STRICT_KEEP: Final = frozenset(
    {
        "type",
        "description",
        "title",
        "enum",
        "const",
        "pattern",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
    }
)
_GEMINI_KEEP: Final = frozenset(
    {
        "description",
        "title",
        "pattern",
        "minimum",
        "maximum",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "minProperties",
        "maxProperties",
    }
)
# Keywords whose meaning the model should still read when the provider cannot take them.
_DESCRIBED: Final = (
    "default",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "pattern",
    "format",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "examples",
)


class Unconvertible(Exception):
    """The schema cannot be expressed for this provider; ``str(exc)`` says why and where."""


@dataclass(slots=True)
class ArgumentMap:
    """How to turn the arguments a model sent for a converted schema back into what the tool expects.

    ``properties`` maps the provider-side property name to ``(original name, map of its value, drop when
    null)``; ``items`` maps each array element; ``is_json`` means the provider saw a JSON-encoded string.
    An empty map (:attr:`is_identity`) changes nothing.
    """

    properties: dict[str, tuple[str, ArgumentMap, bool]] = field(default_factory=dict)
    items: ArgumentMap | None = None
    is_json: bool = False

    @property
    def is_identity(self) -> bool:
        """Whether :meth:`apply` returns its input unchanged."""
        if self.is_json or (self.items is not None and not self.items.is_identity):
            return False
        return all(
            provider == original and child.is_identity and not drop
            for provider, (original, child, drop) in self.properties.items()
        )

    def apply(self, value: Any) -> Any:
        """Map one value the model sent back to the original schema's shape.

        A string the tool wanted as an object or array is decoded; one that does not parse is passed on as
        it is, so the server's validation names the problem instead of this client guessing.
        """
        if self.is_json:
            if isinstance(value, str):
                try:
                    return json.loads(value)
                except ValueError:
                    return value
            return value
        if isinstance(value, list) and self.items is not None:
            return [self.items.apply(element) for element in value]
        if isinstance(value, dict) and self.properties:
            result: dict[str, Any] = {}
            for key, element in value.items():
                entry = self.properties.get(key)
                if entry is None:
                    result[key] = element
                    continue
                original, child, drop_null = entry
                if element is None and drop_null:
                    continue  # an optional field the provider made required-nullable, left unset
                result[original] = child.apply(element)
            return result
        return value


# ---- shared steps ------------------------------------------------------------------------------------------


def _resolve_pointer(root: Mapping[str, Any], ref: str, path: str) -> Any:
    if not ref.startswith("#"):
        raise Unconvertible(f"{path}: $ref {ref!r} points outside the schema")
    node: Any = root
    for raw in ref[1:].split("/")[1:] if ref != "#" else []:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise Unconvertible(f"{path}: $ref {ref!r} does not resolve")
    return node


def inline_refs(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``schema`` with every local ``$ref`` replaced by what it points at, ``$defs`` dropped.

    Raises :class:`Unconvertible` for a recursive ref (it has no finite inline form) or an inlined schema
    past :data:`MAX_INLINED_NODES` nodes.
    """
    count = [0]

    def walk(node: Any, stack: tuple[str, ...], path: str) -> Any:
        count[0] += 1
        if count[0] > MAX_INLINED_NODES:
            raise Unconvertible(f"inlining $ref grows the schema past {MAX_INLINED_NODES} nodes")
        if isinstance(node, list):
            return [walk(item, stack, f"{path}/{index}") for index, item in enumerate(node)]
        if not isinstance(node, Mapping):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            if ref in stack:
                raise Unconvertible(f"{path}: recursive $ref {ref!r}")
            target = walk(_resolve_pointer(schema, ref, path), (*stack, ref), path)
            siblings = {key: value for key, value in node.items() if key != "$ref"}
            if siblings and isinstance(target, dict):
                # Keywords beside a $ref (2020-12 allows them) apply too; the referring side's win.
                return {**target, **{key: walk(value, stack, path) for key, value in siblings.items()}}
            return target
        return {
            key: walk(value, stack, f"{path}/{key}")
            for key, value in node.items()
            if key not in ("$defs", "definitions", "$schema", "$id", "$comment")
        }

    result = walk(schema, (), "#")
    assert isinstance(result, dict)
    return result


def _types_of(node: Mapping[str, Any]) -> list[str]:
    kind = node.get("type")
    if isinstance(kind, str):
        return [kind]
    if isinstance(kind, list):
        return [item for item in kind if isinstance(item, str)]
    if "properties" in node:
        return ["object"]
    if "items" in node:
        return ["array"]
    return []


def _note(description: object, extra: list[str]) -> str | None:
    text = description if isinstance(description, str) else ""
    if not extra:
        return text or None
    joined = "; ".join(extra)
    return f"{text} ({joined})" if text else f"({joined})"


def _describe_dropped(node: Mapping[str, Any], kept: frozenset[str]) -> list[str]:
    notes = []
    for key in _DESCRIBED:
        if key in node and key not in kept:
            notes.append(f"{key}: {json.dumps(node[key], ensure_ascii=False, sort_keys=True)[:200]}")
    return notes


def _merge_all_of(node: Mapping[str, Any], path: str) -> dict[str, Any]:
    """Fold ``allOf`` into its node when every part is an object schema (the common "base + extra" use)."""
    parts = node.get("allOf")
    if not isinstance(parts, list):
        return dict(node)
    merged: dict[str, Any] = {key: value for key, value in node.items() if key != "allOf"}
    for index, part in enumerate(parts):
        if not isinstance(part, Mapping):
            raise Unconvertible(f"{path}/allOf/{index}: not a schema")
        part = _merge_all_of(part, f"{path}/allOf/{index}")
        for key, value in part.items():
            if key == "properties" and isinstance(value, Mapping):
                merged["properties"] = {**merged.get("properties", {}), **value}
            elif key == "required" and isinstance(value, list):
                merged["required"] = list(dict.fromkeys([*merged.get("required", []), *value]))
            elif key in merged and merged[key] != value and key not in ("description", "title"):
                raise Unconvertible(f"{path}/allOf: parts disagree on {key!r}")
            else:
                merged.setdefault(key, value)
    return merged


def _is_free_form(node: Mapping[str, Any], types: list[str]) -> bool:
    """An object whose keys the schema does not name (a map), or a value of any type at all."""
    if not types and not any(key in node for key in ("enum", "const", "anyOf", "oneOf", "allOf")):
        return True
    return types == ["object"] and not node.get("properties")


def _json_string(node: Mapping[str, Any], nullable: bool) -> tuple[dict[str, Any], ArgumentMap]:
    what = "an object" if _types_of(node) == ["object"] else "a value"
    description = _note(node.get("description"), [f"{what} encoded as a JSON string"])
    converted: dict[str, Any] = {"type": ["string", "null"] if nullable else "string"}
    if description:
        converted["description"] = description
    return converted, ArgumentMap(is_json=True)


# ---- OpenAI ------------------------------------------------------------------------------------------------


def openai_schema(schema: Mapping[str, Any], *, strict: bool) -> tuple[dict[str, Any], ArgumentMap]:
    """The ``parameters`` of an OpenAI function tool, and how to map the model's arguments back."""
    if _types_of(schema) not in (["object"], []):
        raise Unconvertible("the input schema's root is not an object")
    if not strict:
        result = copy.deepcopy(dict(schema))
        result.pop("$schema", None)
        result["type"] = "object"
        result.setdefault("properties", {})
        return result, ArgumentMap()
    if any(key in schema for key in ("anyOf", "oneOf")):
        raise Unconvertible("strict mode refuses anyOf/oneOf at the root")
    inlined = inline_refs(schema)
    counter = {"properties": 0, "enum": 0}
    converted, mapping = _openai_strict_node(inlined, "#", depth=0, nullable=False, counter=counter)
    if converted.get("type") != "object":
        raise Unconvertible("the input schema's root is not an object")
    return converted, mapping


def _openai_strict_node(
    node: Mapping[str, Any], path: str, *, depth: int, nullable: bool, counter: dict[str, int]
) -> tuple[dict[str, Any], ArgumentMap]:
    if depth > OPENAI_STRICT_MAX_DEPTH:
        raise Unconvertible(f"{path}: nested deeper than strict mode's {OPENAI_STRICT_MAX_DEPTH} levels")
    node = _merge_all_of(node, path)
    if "oneOf" in node and "anyOf" not in node:
        node = {**{k: v for k, v in node.items() if k != "oneOf"}, "anyOf": node["oneOf"]}
    types = _types_of(node)
    if "null" in types:
        nullable, types = True, [kind for kind in types if kind != "null"]
    if path != "#" and _is_free_form(node, types):
        return _json_string(node, nullable)
    if isinstance(node.get("items"), list) or "prefixItems" in node:
        raise Unconvertible(f"{path}: tuple arrays (items as a list) are not supported in strict mode")
    kept = _OPENAI_STRICT_KEEP | {"properties", "items", "anyOf", "required", "additionalProperties"}
    out: dict[str, Any] = {}
    for key in _OPENAI_STRICT_KEEP:
        if key in node:
            out[key] = copy.deepcopy(node[key])
    if "format" in node and node["format"] in _OPENAI_STRICT_FORMATS:
        out["format"] = node["format"]
        kept = kept | {"format"}
    notes = _describe_dropped(node, kept)
    description = _note(node.get("description"), notes)
    if description:
        out["description"] = description
    mapping = ArgumentMap()
    if "enum" in out and not isinstance(out["enum"], list):
        raise Unconvertible(f"{path}/enum: not a list")
    if "enum" in out:
        counter["enum"] += len(out["enum"]) if isinstance(out["enum"], list) else 0
        if counter["enum"] > OPENAI_STRICT_MAX_ENUM_VALUES:
            raise Unconvertible(f"more than {OPENAI_STRICT_MAX_ENUM_VALUES} enum values in all")
    if "anyOf" in node:
        options = node["anyOf"]
        if not isinstance(options, list) or not options:
            raise Unconvertible(f"{path}/anyOf: not a list of schemas")
        converted_options = []
        for index, option in enumerate(options):
            if not isinstance(option, Mapping):
                raise Unconvertible(f"{path}/anyOf/{index}: not a schema")
            option_out, option_map = _openai_strict_node(
                option, f"{path}/anyOf/{index}", depth=depth + 1, nullable=False, counter=counter
            )
            if not option_map.is_identity:
                # Which branch the model took is not known when mapping back; keep the branches verbatim.
                raise Unconvertible(f"{path}/anyOf/{index}: a free-form branch cannot be mapped back")
            converted_options.append(option_out)
        if nullable and not any(option.get("type") == "null" for option in converted_options):
            converted_options.append({"type": "null"})
        out.pop("type", None)
        out["anyOf"] = converted_options
        return out, mapping
    if types == ["object"]:
        properties = node.get("properties", {})
        if not isinstance(properties, Mapping):
            raise Unconvertible(f"{path}/properties: not an object")
        required = set(node.get("required", [])) if isinstance(node.get("required"), list) else set()
        out_properties: dict[str, Any] = {}
        for name, child in properties.items():
            counter["properties"] += 1
            if counter["properties"] > OPENAI_STRICT_MAX_PROPERTIES:
                raise Unconvertible(f"more than {OPENAI_STRICT_MAX_PROPERTIES} properties in all")
            if not isinstance(child, Mapping):
                child = {}
            is_optional = name not in required
            child_out, child_map = _openai_strict_node(
                child,
                f"{path}/properties/{name}",
                depth=depth + 1,
                nullable=is_optional,
                counter=counter,
            )
            out_properties[name] = child_out
            # An optional field's null means "left out" unless the original accepted null itself.
            drop_null = is_optional and "null" not in _types_of(child)
            mapping.properties[name] = (name, child_map, drop_null)
        out["type"] = ["object", "null"] if nullable else "object"
        out["properties"] = out_properties
        out["required"] = list(out_properties)
        out["additionalProperties"] = False
        return out, mapping
    if types == ["array"]:
        items = node.get("items")
        if not isinstance(items, Mapping):
            items = {}
        items_out, items_map = _openai_strict_node(
            items, f"{path}/items", depth=depth + 1, nullable=False, counter=counter
        )
        out["items"] = items_out
        if not items_map.is_identity:
            mapping.items = items_map
    if types:
        kinds = list(types)
        if nullable:
            kinds.append("null")
        out["type"] = kinds[0] if len(kinds) == 1 else kinds
        if nullable and isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    elif nullable and "enum" in out:
        out["enum"] = [*out["enum"], None] if None not in out["enum"] else out["enum"]
    elif nullable and "const" in out:
        out = {"anyOf": [out, {"type": "null"}]}
    return out, mapping


# ---- Anthropic ---------------------------------------------------------------------------------------------


def anthropic_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The ``input_schema`` of an Anthropic tool (JSON Schema with a plain object root)."""
    if _types_of(schema) not in (["object"], []):
        raise Unconvertible("the input schema's root is not an object")
    for key in ("oneOf", "anyOf", "allOf"):
        if key in schema:
            raise Unconvertible(f"the API refuses {key} at the root of input_schema")
    result = copy.deepcopy(dict(schema))
    result["type"] = "object"
    return result


# ---- Gemini ------------------------------------------------------------------------------------------------


def gemini_name(name: str) -> str:
    """``name`` made to fit Gemini's rule for function and parameter names (may collide: callers check)."""
    safe = _GEMINI_UNSAFE.sub("_", name) or "_"
    if not (safe[0].isascii() and (safe[0].isalpha() or safe[0] == "_")):
        safe = f"_{safe}"
    return safe[:64]


def gemini_schema(schema: Mapping[str, Any]) -> tuple[dict[str, Any] | None, ArgumentMap]:
    """The ``parameters`` of a Gemini function declaration (``None`` when it takes no arguments)."""
    if _types_of(schema) not in (["object"], []):
        raise Unconvertible("the input schema's root is not an object")
    inlined = inline_refs(schema)
    if not inlined.get("properties") and "allOf" not in inlined:
        return None, ArgumentMap()
    converted, mapping = _gemini_node(inlined, "#", nullable=False)
    return converted, mapping


def _gemini_node(node: Mapping[str, Any], path: str, *, nullable: bool) -> tuple[dict[str, Any], ArgumentMap]:
    node = _merge_all_of(node, path)
    if "oneOf" in node and "anyOf" not in node:
        node = {**{k: v for k, v in node.items() if k != "oneOf"}, "anyOf": node["oneOf"]}
    types = _types_of(node)
    if "const" in node and "enum" not in node:
        node = {**node, "enum": [node["const"]]}
    if "null" in types:
        nullable, types = True, [kind for kind in types if kind != "null"]
    if path != "#" and _is_free_form(node, types):
        converted, mapping = _json_string(node, False)
        converted["type"] = "STRING"
        if nullable:
            converted["nullable"] = True
        return converted, mapping
    out: dict[str, Any] = {key: copy.deepcopy(node[key]) for key in _GEMINI_KEEP if key in node}
    notes: list[str] = []
    if "anyOf" in node and not types:
        options = node["anyOf"]
        if not isinstance(options, list) or not options:
            raise Unconvertible(f"{path}/anyOf: not a list of schemas")
        converted_options = []
        for index, option in enumerate(options):
            if not isinstance(option, Mapping):
                raise Unconvertible(f"{path}/anyOf/{index}: not a schema")
            if _types_of(option) == ["null"]:
                nullable = True
                continue
            option_out, option_map = _gemini_node(option, f"{path}/anyOf/{index}", nullable=False)
            if not option_map.is_identity:
                raise Unconvertible(f"{path}/anyOf/{index}: a branch that needs mapping back")
            converted_options.append(option_out)
        if len(converted_options) == 1:
            out.update(converted_options[0])
        else:
            out["anyOf"] = converted_options
        if nullable:
            out["nullable"] = True
        return out, ArgumentMap()
    if len(types) > 1:
        # Several types: one branch per type, each with the keywords that apply to it.
        rest = {key: value for key, value in node.items() if key != "type"}
        branches = [{**rest, "type": kind} for kind in types]
        return _gemini_node(
            {"anyOf": branches, "description": node.get("description")}, path, nullable=nullable
        )
    kind = types[0] if types else "string"
    out["type"] = _GEMINI_TYPES.get(kind, "STRING")
    if kind not in _GEMINI_TYPES:
        raise Unconvertible(f"{path}: unknown type {kind!r}")
    fmt = node.get("format")
    if isinstance(fmt, str):
        if fmt in _GEMINI_FORMATS.get(out["type"], set()):
            out["format"] = fmt
        else:
            notes.append(f"format: {fmt}")
    if "enum" in node and isinstance(node["enum"], list):
        values = [value for value in node["enum"] if value is not None]
        if None in node["enum"]:
            nullable = True
        if all(isinstance(value, str) for value in values) and out["type"] == "STRING":
            out["enum"] = values
            out["format"] = "enum"
        else:
            notes.append(
                "one of: " + ", ".join(json.dumps(value, ensure_ascii=False) for value in values)[:400]
            )
    if "default" in node:
        notes.append(f"default: {json.dumps(node['default'], ensure_ascii=False, sort_keys=True)[:200]}")
    description = _note(node.get("description"), notes)
    if description:
        out["description"] = description
    if nullable:
        out["nullable"] = True
    mapping = ArgumentMap()
    if kind == "object":
        properties = node.get("properties", {})
        if not isinstance(properties, Mapping):
            raise Unconvertible(f"{path}/properties: not an object")
        required = node.get("required", []) if isinstance(node.get("required"), list) else []
        out_properties: dict[str, Any] = {}
        renamed: dict[str, str] = {}
        for name, child in properties.items():
            provider_name = name if _GEMINI_NAME.match(name) else gemini_name(name)
            if provider_name in out_properties or (provider_name in properties and provider_name != name):
                raise Unconvertible(
                    f"{path}/properties: {name!r} cannot be renamed for Gemini without a clash"
                )
            renamed[name] = provider_name
            child_out, child_map = _gemini_node(
                child if isinstance(child, Mapping) else {}, f"{path}/properties/{name}", nullable=False
            )
            out_properties[provider_name] = child_out
            mapping.properties[provider_name] = (name, child_map, False)
        out["properties"] = out_properties
        wanted = [renamed[name] for name in required if name in renamed]
        if wanted:
            out["required"] = wanted
    elif kind == "array":
        items = node.get("items")
        if isinstance(items, list):
            raise Unconvertible(f"{path}/items: tuple arrays (items as a list) are not supported")
        if not isinstance(items, Mapping):
            # The API requires items ("items: missing field"); an untyped list travels as JSON instead.
            converted, json_map = _json_string(node, False)
            converted["type"] = "STRING"
            return converted, json_map
        items_out, items_map = _gemini_node(items, f"{path}/items", nullable=False)
        out["items"] = items_out
        if not items_map.is_identity:
            mapping.items = items_map
    return out, mapping
