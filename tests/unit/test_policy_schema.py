"""inputSchema and outputSchema checks: valid JSON Schema, object root, arrays with items, refs, bounds."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mcp_troupe.policy.schema import (
    _FAST_KEYWORD_TESTS,
    MAX_DEPTH,
    MAX_NODES,
    _walk,
    check_input_schema,
    check_output_schema,
)

CORPUS = Path(__file__).resolve().parent.parent / "corpus"

STRING = {"type": "string"}


def obj(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


VALID_INPUT_SCHEMAS = {
    "empty object": {"type": "object"},
    "no properties": {"type": "object", "properties": {}},
    "simple": {"type": "object", "properties": {"path": STRING}, "required": ["path"]},
    "array with items": obj(tags={"type": "array", "items": STRING}),
    "array with prefixItems": obj(pair={"type": "array", "prefixItems": [STRING, {"type": "integer"}]}),
    "draft-07 tuple items": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"pair": {"type": "array", "items": [STRING, STRING]}},
    },
    "2019-09 by $schema": {"$schema": "https://json-schema.org/draft/2019-09/schema", "type": "object"},
    "2020-12 without trailing #": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
    },
    "boolean subschemas": {"type": "object", "properties": {"any": True}, "additionalProperties": False},
    "local $ref into $defs": {
        "type": "object",
        "properties": {"item": {"$ref": "#/$defs/Item"}},
        "$defs": {"Item": {"type": "object", "properties": {"tags": {"type": "array", "items": STRING}}}},
    },
    "local $ref into properties": {
        "type": "object",
        "properties": {"a": {"type": "boolean"}, "b": {"$ref": "#/properties/a"}},
    },
    "$ref to an $anchor": {
        "type": "object",
        "properties": {"a": {"$ref": "#thing"}},
        "$defs": {"Thing": {"$anchor": "thing", "type": "string"}},
    },
    "draft-07 $id fragment as an anchor": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"a": {"$ref": "#item"}},
        "definitions": {"Item": {"$id": "#item", "type": "string"}},
    },
    "nullable array via type list": obj(tags={"type": ["array", "null"], "items": STRING}),
    "unknown keywords are ignored": obj(a={"type": "string", "x-vendor": {"anything": [1, 2]}}),
    "anyOf of arrays with items": obj(v={"anyOf": [{"type": "array", "items": STRING}, STRING]}),
    "a property named like keywords": obj(type=STRING, required=STRING, items=STRING),
    "valid pattern": obj(code={"type": "string", "pattern": "^[A-Z]{3}$"}),
    "numeric bounds": obj(n={"type": "integer", "minimum": 0, "maximum": 10, "multipleOf": 2}),
}


@pytest.mark.parametrize("schema", VALID_INPUT_SCHEMAS.values(), ids=VALID_INPUT_SCHEMAS.keys())
def test_a_valid_input_schema_has_no_problems(schema: dict[str, Any]) -> None:
    assert check_input_schema(schema) == []


def deep_schema(levels: int) -> dict[str, Any]:
    root: dict[str, Any] = {"type": "object"}
    node = root
    for _ in range(levels):
        child: dict[str, Any] = {"type": "object"}
        node["properties"] = {"x": child}
        node = child
    return root


INVALID_INPUT_SCHEMAS = [
    # (name, schema, a piece of the one expected problem)
    ("not an object", ["type", "object"], "must be a JSON object, got an array"),
    ("null", None, "must be a JSON object, got null"),
    ("missing root type", {"properties": {"a": STRING}}, "inputSchema has no 'type'"),
    ("root type array", {"type": "array", "items": STRING}, "inputSchema.type is 'array'"),
    ("root type list", {"type": ["object", "null"]}, 'MCP requires type: "object" at the root'),
    ("array without items", obj(tags={"type": "array"}), "inputSchema.properties.tags: an array must say"),
    (
        "array without items, deep in $defs",
        {"type": "object", "$defs": {"A": obj(list={"type": "array"})}},
        "inputSchema.$defs.A.properties.list: an array",
    ),
    (
        "array without items inside anyOf",
        obj(v={"anyOf": [{"type": "array"}, STRING]}),
        "inputSchema.properties.v.anyOf[0]: an array",
    ),
    ("array in a type list without items", obj(v={"type": ["array", "null"]}), "an array must say"),
    ("required not a list", {"type": "object", "required": "a"}, "inputSchema.required must be a list"),
    (
        "required with a number",
        {"type": "object", "required": ["a", 1]},
        "inputSchema.required[1] is not a string",
    ),
    ("remote $ref", obj(a={"$ref": "https://example.com/s.json"}), "remote $ref not allowed"),
    ("relative $ref", obj(a={"$ref": "other.json#/x"}), "remote $ref not allowed"),
    (
        "remote $dynamicRef",
        obj(a={"$dynamicRef": "https://example.com/s.json#meta"}),
        "remote $ref not allowed",
    ),
    ("dangling local $ref", obj(a={"$ref": "#/$defs/Missing"}), "points at nothing"),
    ("unknown anchor", obj(a={"$ref": "#nowhere"}), "points at nothing"),
    (
        "unsupported dialect",
        {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"},
        "draft-04",
    ),
    ("unknown type name", obj(a={"type": "strng"}), "inputSchema.properties.a.type: not a valid JSON Schema"),
    ("bad regex", obj(a={"type": "string", "pattern": "("}), "is not a 'regex'"),
    (
        "items as a list in 2020-12",
        obj(a={"type": "array", "items": [STRING]}),
        "not a valid JSON Schema (2020-12)",
    ),
    ("negative minLength", obj(a={"type": "string", "minLength": -1}), "not a valid JSON Schema"),
    ("properties not an object", {"type": "object", "properties": ["a"]}, "not a valid JSON Schema"),
    ("too deep", deep_schema(MAX_DEPTH + 1), f"nests deeper than {MAX_DEPTH} levels"),
    (
        "too many subschemas",
        {"type": "object", "properties": {f"p{i}": STRING for i in range(MAX_NODES)}},
        f"more than {MAX_NODES} subschemas",
    ),
]


@pytest.mark.parametrize(
    ("schema", "expected"),
    [(schema, expected) for _, schema, expected in INVALID_INPUT_SCHEMAS],
    ids=[name for name, _, _ in INVALID_INPUT_SCHEMAS],
)
def test_an_invalid_input_schema_is_rejected_with_its_reason(schema: object, expected: str) -> None:
    problems = check_input_schema(schema)
    assert problems, "expected a problem"
    assert any(expected in problem for problem in problems), problems


def test_a_schema_exactly_at_the_depth_bound_is_accepted() -> None:
    assert check_input_schema(deep_schema(MAX_DEPTH)) == []


def test_every_problem_of_a_stage_is_reported() -> None:
    schema = obj(a={"type": "array"}, b={"$ref": "http://example.com/x"})
    problems = check_input_schema(schema)
    assert len(problems) == 2


def test_the_benign_corpus_schemas_are_all_accepted() -> None:
    tools = json.loads((CORPUS / "benign_tools.json").read_text(encoding="utf-8"))["tools"]
    rejected = {tool["name"]: check_input_schema(tool["inputSchema"]) for tool in tools}
    assert {name: problems for name, problems in rejected.items() if problems} == {}


# --- the fast path never vouches for a schema the meta-schemas reject -------------------------------------

META_VALIDATORS = [
    cls(cls.META_SCHEMA, format_checker=cls.FORMAT_CHECKER)
    for cls in (jsonschema.Draft7Validator, jsonschema.Draft201909Validator, jsonschema.Draft202012Validator)
]

SAMPLE_VALUES: list[object] = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    -0.5,
    "",
    "x",
    "(",
    "string",
    "#/$defs/A",
    "#a b",
    "http://example.com/x",
    [],
    ["a"],
    ["a", "a"],
    ["string", "null"],
    ["strng"],
    [1],
    [{}],
    [True, {}],
    {},
    {"a": {}},
    {"a": 1},
    {"a": True},
]


@pytest.mark.parametrize("keyword", sorted(_FAST_KEYWORD_TESTS))
def test_a_keyword_value_the_fast_path_accepts_is_meta_valid_in_every_dialect(keyword: str) -> None:
    accepts = _FAST_KEYWORD_TESTS[keyword]
    for value in SAMPLE_VALUES:
        if not accepts(value):
            continue
        schema = {"type": "object", "properties": {"p": {keyword: value}}}
        for validator in META_VALIDATORS:
            errors = list(validator.iter_errors(schema))
            assert errors == [], f"{keyword}={value!r} vouched for but invalid: {errors[0].message}"


def test_corpus_schemas_take_the_fast_path_and_are_valid_in_their_dialect() -> None:
    tools = json.loads((CORPUS / "benign_tools.json").read_text(encoding="utf-8"))["tools"]
    schemas = [tool["inputSchema"] for tool in tools]
    fast = [schema for schema in schemas if not _walk(schema, "x", arrays_need_items=True).needs_meta_check]
    assert len(fast) > len(schemas) // 2
    for schema in fast:
        jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator).check_schema(
            schema
        )


def test_ten_thousand_simple_schemas_are_checked_in_well_under_a_second() -> None:
    schemas = [
        {
            "type": "object",
            "properties": {
                f"name_{i}": {"type": "string", "description": "a name"},
                "count": {"type": "integer"},
            },
            "required": [f"name_{i}"],
        }
        for i in range(10_000)
    ]
    started = time.process_time()
    results = [check_input_schema(schema) for schema in schemas]
    # CPU time of this process, so that a busy machine does not fail the test.
    elapsed = time.process_time() - started
    assert all(result == [] for result in results)
    assert elapsed < 1.0, f"{elapsed:.2f} s"


# --- outputSchema ---------------------------------------------------------------------------------------


def test_an_output_schema_may_hold_an_array_without_items() -> None:
    assert check_output_schema(obj(rows={"type": "array"})) == []


def test_an_output_schema_root_must_be_an_object_before_2026() -> None:
    problems = check_output_schema({"type": "array", "items": STRING}, protocol_version="2025-06-18")
    assert problems and "outputSchema.type is 'array'" in problems[0]
    assert check_output_schema({"type": "array"}) != []


def test_an_output_schema_may_have_any_root_from_2026_07_28() -> None:
    assert check_output_schema({"type": "array", "items": STRING}, protocol_version="2026-07-28") == []


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        (obj(a={"$ref": "https://example.com/x.json"}), "remote $ref not allowed"),
        (obj(a={"type": "nope"}), "outputSchema.properties.a.type: not a valid JSON Schema"),
        ("object", "outputSchema must be a JSON object"),
    ],
)
def test_an_invalid_output_schema_is_rejected(schema: object, expected: str) -> None:
    problems = check_output_schema(schema)
    assert any(expected in problem for problem in problems), problems
