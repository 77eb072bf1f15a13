"""Effective risk: annotations are believed only from trusted servers, and may only raise risk otherwise."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from mcp_troupe.policy.trust import TrustLevel, effective_risk, parse_annotations
from mcp_troupe.types import Risk

ABSENT = object()


def hints(read_only: object, destructive: object) -> dict[str, object]:
    """Build annotations, leaving out a hint given as ABSENT."""
    pairs = {"readOnlyHint": read_only, "destructiveHint": destructive}
    return {key: value for key, value in pairs.items() if value is not ABSENT}


# Every combination of the two hints that decide risk, for both trust levels.
RISK_TABLE = [
    # readOnlyHint, destructiveHint, untrusted, trusted
    (ABSENT, ABSENT, Risk.EXEC, Risk.EXEC),
    (ABSENT, True, Risk.DANGEROUS, Risk.DANGEROUS),
    (ABSENT, False, Risk.EXEC, Risk.EXEC),
    (True, ABSENT, Risk.EXEC, Risk.READ_ONLY),
    (True, True, Risk.DANGEROUS, Risk.READ_ONLY),
    (True, False, Risk.EXEC, Risk.READ_ONLY),
    (False, ABSENT, Risk.EXEC, Risk.EXEC),
    (False, True, Risk.DANGEROUS, Risk.DANGEROUS),
    (False, False, Risk.EXEC, Risk.EXEC),
]


@pytest.mark.parametrize(("read_only", "destructive", "expected", "_trusted"), RISK_TABLE)
def test_untrusted_server_hints_only_raise_risk(
    read_only: object, destructive: object, expected: Risk, _trusted: Risk
) -> None:
    assert effective_risk(hints(read_only, destructive), "untrusted") is expected


@pytest.mark.parametrize(("read_only", "destructive", "_untrusted", "expected"), RISK_TABLE)
def test_trusted_server_hints_are_believed(
    read_only: object, destructive: object, _untrusted: Risk, expected: Risk
) -> None:
    assert effective_risk(hints(read_only, destructive), "trusted") is expected


@pytest.mark.parametrize("trust", ["trusted", "untrusted"])
def test_a_tool_without_annotations_is_exec(trust: TrustLevel) -> None:
    assert effective_risk(None, trust) is Risk.EXEC
    assert effective_risk({}, trust) is Risk.EXEC


def test_a_server_is_untrusted_by_default() -> None:
    assert effective_risk({"readOnlyHint": True}) is Risk.EXEC


@pytest.mark.parametrize("garbage", ["yes", "true", 1, 0, 1.0, None, [], {}, "false"])
@pytest.mark.parametrize("trust", ["trusted", "untrusted"])
def test_hints_that_are_not_booleans_count_as_absent(garbage: object, trust: TrustLevel) -> None:
    assert effective_risk({"readOnlyHint": garbage, "destructiveHint": garbage}, trust) is Risk.EXEC


@pytest.mark.parametrize("trust", ["trusted", "untrusted"])
def test_other_hints_do_not_change_risk(trust: TrustLevel) -> None:
    annotations = {"idempotentHint": True, "openWorldHint": True, "title": "Delete everything"}

    assert effective_risk(annotations, trust) is Risk.EXEC


@pytest.mark.parametrize("raw", [None, "readOnlyHint", ["readOnlyHint", True], 42])
def test_annotations_that_are_not_an_object_are_ignored(raw: object) -> None:
    assert effective_risk(raw, "trusted") is Risk.EXEC  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (None, {}),
        ("not an object", {}),
        ([("readOnlyHint", True)], {}),
        ({}, {}),
        (
            {
                "title": "Read file",
                "readOnlyHint": True,
                "destructiveHint": False,
                "idempotentHint": True,
                "openWorldHint": False,
            },
            {
                "title": "Read file",
                "readOnlyHint": True,
                "destructiveHint": False,
                "idempotentHint": True,
                "openWorldHint": False,
            },
        ),
        ({"title": 7, "readOnlyHint": "yes", "destructiveHint": 1, "openWorldHint": None}, {}),
        ({"title": "", "idempotentHint": False}, {"title": "", "idempotentHint": False}),
        ({"readonlyhint": True, "x-vendor": True, "readOnlyHint": True}, {"readOnlyHint": True}),
    ],
)
def test_parse_annotations_keeps_only_known_keys_of_the_right_type(
    raw: object, expected: Mapping[str, object]
) -> None:
    assert parse_annotations(raw) == expected


def test_parse_annotations_returns_a_new_dict() -> None:
    raw = {"readOnlyHint": True}

    parsed = parse_annotations(raw)
    parsed["readOnlyHint"] = False

    assert raw == {"readOnlyHint": True}
