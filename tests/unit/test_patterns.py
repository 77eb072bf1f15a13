"""Server patterns run in RE2: linear time, and a deliberate verdict on what RE2 cannot run."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe.policy.patterns import (
    UnverifiablePattern,
    is_valid_regex,
    pattern_search,
    safe_validator,
    unverifiable_reason,
)
from mcp_troupe.protocol.content import structured_content_problem

CATASTROPHIC = "^(a|aa)+$"


def test_a_catastrophic_pattern_is_answered_in_linear_time() -> None:
    started = time.monotonic()
    assert not pattern_search(CATASTROPHIC, "a" * 5000 + "b")
    assert not pattern_search("(x+x+)+y", "x" * 100_000)
    assert time.monotonic() - started < 1.0


def test_the_search_is_unanchored_and_dollar_means_the_very_end() -> None:
    assert pattern_search("b", "abc")
    assert not pattern_search("^a$", "a\n")  # ECMA-262 and RE2; Python's re would say it matches


@pytest.mark.parametrize("pattern", [r"(a)\1", r"(?=a)b", r"(?<!a)b", "a{1001}"])
def test_a_pattern_that_needs_backtracking_is_unverifiable(pattern: str) -> None:
    assert unverifiable_reason(pattern) is not None
    with pytest.raises(UnverifiablePattern):
        pattern_search(pattern, "aa")


def test_format_regex_accepts_valid_backtracking_syntax_and_rejects_garbage() -> None:
    assert is_valid_regex(r"(a)\1")  # valid, just not runnable by us
    assert is_valid_regex("^[a-z]+$")
    assert not is_valid_regex("(unclosed")
    assert is_valid_regex(42)  # formats ignore non-strings


def test_structured_content_with_a_catastrophic_pattern_is_checked_at_once() -> None:
    schema = {"type": "object", "properties": {"word": {"type": "string", "pattern": CATASTROPHIC}}}
    started = time.monotonic()
    problem = structured_content_problem({"structuredContent": {"word": "a" * 40 + "b"}}, schema)
    assert time.monotonic() - started < 1.0
    assert problem is not None and "does not match" in problem
    assert structured_content_problem({"structuredContent": {"word": "aaaa"}}, schema) is None


def test_pattern_properties_and_additional_properties_use_re2() -> None:
    schema = {
        "type": "object",
        "patternProperties": {CATASTROPHIC: {"type": "integer"}},
        "additionalProperties": False,
    }
    validator = safe_validator(schema)
    started = time.monotonic()
    errors = list(validator.iter_errors({"a" * 40 + "b": 1}))
    assert time.monotonic() - started < 1.0
    assert errors and "not allowed" in errors[0].message
    assert list(validator.iter_errors({"aaaa": 1})) == []
    assert list(validator.iter_errors({"aaaa": "x"}))  # matched by the pattern, so checked as an integer


def test_an_unrunnable_output_pattern_is_reported_as_unchecked_not_as_a_mismatch() -> None:
    schema = {"type": "object", "properties": {"w": {"type": "string", "pattern": r"^(a+)\1$"}}}
    problem = structured_content_problem({"structuredContent": {"w": "aaaa"}}, schema)
    assert problem is not None and "could not be checked in bounded time" in problem


def test_unevaluated_properties_with_pattern_properties_is_refused() -> None:
    schema = {"type": "object", "patternProperties": {"^x": {}}, "unevaluatedProperties": False}
    problem = structured_content_problem({"structuredContent": {"x": 1}}, schema)
    assert problem is not None and "could not be checked in bounded time" in problem


@given(st.text(alphabet="ab()|+*?^$[]\\.{}1", max_size=12), st.text(alphabet="ab\n", max_size=30))
def test_any_pattern_and_text_give_an_answer_or_a_clear_refusal(pattern: str, text: str) -> None:
    try:
        result = pattern_search(pattern, text)
    except UnverifiablePattern as exc:
        assert exc.reason
    else:
        assert isinstance(result, bool)
