"""mcp_troupe._frozen: the direct constructor makes the very object the dataclass's own __init__ makes."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe._frozen import constructor
from mcp_troupe.policy.catalog import ToolVerdict
from mcp_troupe.policy.names import NameVerdict
from mcp_troupe.types import Risk, ToolSpec

TOOL_SPEC = constructor(ToolSpec)


def _fields(value: object) -> dict[str, object]:
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}  # type: ignore[arg-type]


def test_a_tool_spec_with_only_the_required_fields_gets_every_default() -> None:
    made = TOOL_SPEC(name="mcp__s__t", original_name="t", server="s", description="d", input_schema={})
    expected = ToolSpec(name="mcp__s__t", original_name="t", server="s", description="d", input_schema={})
    assert made == expected and _fields(made) == _fields(expected)
    assert type(made) is ToolSpec
    # A factory's default is a new object each time, as with the dataclass.
    other = TOOL_SPEC(name="x", original_name="x", server="s", description="", input_schema={})
    assert made.annotations == {} and made.annotations is not other.annotations


@given(
    st.text(max_size=8),
    st.one_of(st.none(), st.text(max_size=8)),
    st.sampled_from(list(Risk)),
    st.booleans(),
    st.lists(st.text(max_size=5), max_size=3).map(tuple),
)
def test_a_tool_spec_equals_the_dataclass_one(
    name: str, title: str | None, risk: Risk, quarantined: bool, warnings: tuple[str, ...]
) -> None:
    values = {
        "name": name,
        "original_name": name[::-1],
        "server": "srv",
        "description": f"about {name}",
        "input_schema": {"type": "object"},
        "title": title,
        "output_schema": None,
        "annotations": {"readOnlyHint": quarantined},
        "risk": risk,
        "is_quarantined": quarantined,
        "warnings": warnings,
        "icons": (),
        "meta": {"ui": {"resourceUri": f"ui://{name}"}},
    }
    made, expected = TOOL_SPEC(**values), ToolSpec(**values)  # type: ignore[arg-type]
    assert made == expected and repr(made) == repr(expected)


def test_the_made_objects_stay_frozen() -> None:
    made = TOOL_SPEC(name="n", original_name="n", server="s", description="", input_schema={})
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.name = "other"  # type: ignore[misc]
    verdict = constructor(NameVerdict)("s", "t", "mcp__s__t", None)
    assert verdict == NameVerdict(server="s", tool="t", qualified="mcp__s__t", rejected_reason=None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        verdict.tool = "u"  # type: ignore[misc]


def test_positional_and_keyword_calls_match_the_dataclass() -> None:
    make = constructor(ToolVerdict)
    assert make(None, Risk.EXEC, "f") == ToolVerdict(rejected=None, risk=Risk.EXEC, fingerprint="f")
    assert make("no", Risk.DANGEROUS, "f", warnings=("w",)) == ToolVerdict(
        rejected="no", risk=Risk.DANGEROUS, fingerprint="f", warnings=("w",)
    )
    with pytest.raises(TypeError):
        make(None)  # a required field is missing, as with the dataclass


def test_classes_it_cannot_build_faithfully_are_refused_when_asked() -> None:
    @dataclass(frozen=True, slots=True)
    class Checked:
        value: int

        def __post_init__(self) -> None:
            assert self.value >= 0

    @dataclass(frozen=True, slots=True)
    class Hidden:
        value: int
        derived: int = field(init=False, default=0)

    @dataclass(frozen=True)
    class NoSlots:
        value: int

    for cls in (Checked, Hidden, NoSlots):
        with pytest.raises(TypeError):
            constructor(cls)
