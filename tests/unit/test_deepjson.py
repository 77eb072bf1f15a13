"""The recursion-free JSON decoder: json.loads's answers on what json.loads takes, bounded depth past it."""

from __future__ import annotations

import json
import math
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe.errors import MalformedMessage
from mcp_troupe.protocol import jsonrpc
from mcp_troupe.protocol.deepjson import MAX_DEPTH, TooDeep, loads

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=30,
)


@given(JSON_VALUES, st.sampled_from([None, 2]))
def test_it_decodes_what_json_loads_decodes_identically(value: object, indent: int | None) -> None:
    text = json.dumps(value, indent=indent)
    assert repr(loads(text)) == repr(json.loads(text))


@given(st.binary(max_size=40))
def test_on_any_bytes_it_agrees_with_json_loads_on_accepting_them(data: bytes) -> None:
    try:
        expected: object = json.loads(data.decode("utf-8"))
    except ValueError:
        with pytest.raises(ValueError):
            loads(data)
    else:
        assert repr(loads(data)) == repr(expected)


def test_nan_infinity_and_duplicate_keys_behave_as_in_json_loads() -> None:
    value = loads('[NaN, Infinity, -Infinity, {"a": 1, "a": 2}, -0, 1e2, 0.5]')
    assert math.isnan(value[0]) and value[1:3] == [math.inf, -math.inf]
    assert value[3:] == [{"a": 2}, 0, 100.0, 0.5]


@pytest.mark.parametrize(
    "bad", ["[1,]", '{"a"}', "[", "", "1 2", '{"a":1,}', "[01]", "tru", "{1:2}", "[1 2]"]
)
def test_what_json_loads_refuses_it_refuses(bad: str) -> None:
    with pytest.raises(ValueError):
        loads(bad)


def test_past_max_depth_containers_become_markers_and_nothing_recurses() -> None:
    depth = 50_000  # far past any recursion limit
    value = loads("[" * depth + '"leaf"' + "]" * depth + "\n")
    levels = 0
    while isinstance(value, list):
        (value,) = value
        levels += 1
    assert levels == MAX_DEPTH and isinstance(value, TooDeep)
    assert "deeper than" in value


def test_a_deep_value_leaves_its_siblings_intact() -> None:
    value = loads('{"a": ' + "[" * 300 + "]" * 300 + ', "b": 5}')
    assert value["b"] == 5


def test_the_frame_decoder_falls_back_to_it_on_a_frame_too_deep_for_json_loads() -> None:
    deep = "[" * (sys.getrecursionlimit() + 50) + "]" * (sys.getrecursionlimit() + 50)
    frame = '{"jsonrpc": "2.0", "id": 7, "result": {"tools": [{"name": "x", "default": ' + deep + "}]}}"
    message = jsonrpc.decode(frame.encode())
    assert isinstance(message, jsonrpc.Response) and message.id == 7
    with pytest.raises(MalformedMessage, match="nested too deeply, and not valid JSON"):
        jsonrpc.decode(("[" * 5000 + "}").encode())
