"""tools_include / tools_exclude: exact names and * / ? globs on the server's own tool names."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from mcp_troupe.policy.filters import first_match, is_included, matches

MATCHES = [
    # (name, pattern, expected)
    ("read_file", "read_file", True),
    ("read_file", "read_files", False),
    ("read_file", "Read_file", False),
    ("read_file", "read_*", True),
    ("read_file", "*_file", True),
    ("read_file", "*", True),
    ("", "*", True),
    ("read_file", "read_fil?", True),
    ("read_file", "read_fi?", False),
    ("read_file", "*write*", False),
    ("mcp__github__create_issue", "mcp__github__*", True),
    ("mcp__gitlab__create_issue", "mcp__github__*", False),
    ("admin.tools.list", "admin.*", True),
    ("adminXtools", "admin.*", False),
    ("tool[1]", "tool[1]", True),
    ("tool1", "tool[1]", False),
    ("a\nb", "a*b", True),
]


@pytest.mark.parametrize(("name", "pattern", "expected"), MATCHES)
def test_a_pattern_is_an_exact_name_or_a_star_question_glob(name: str, pattern: str, expected: bool) -> None:
    assert matches(name, pattern) is expected


def test_first_match_returns_the_first_matching_pattern() -> None:
    assert first_match("read_file", ["write_*", "read_*", "*"]) == "read_*"
    assert first_match("read_file", ["write_*"]) is None
    assert first_match("read_file", []) is None


FILTERS = [
    # (tool, include, exclude, kept, piece of the reason)
    ("read_file", None, [], True, ""),
    ("read_file", ["read_file", "write_file"], [], True, ""),
    ("delete_file", ["read_file", "write_file"], [], False, "matches no pattern in tools_include"),
    ("read_file", ["read_*"], [], True, ""),
    ("read_file", [], [], False, "tools_include is empty"),
    ("dangerous_tool", None, ["dangerous_tool"], False, "'dangerous_tool' is listed in tools_exclude"),
    ("drop_table", None, ["drop_*"], False, "matches 'drop_*' in tools_exclude"),
    ("read_file", None, ["drop_*"], True, ""),
    ("read_file", ["read_*"], ["read_file"], False, "in tools_exclude"),
]


@pytest.mark.parametrize(("tool", "include", "exclude", "kept", "reason"), FILTERS)
def test_is_included_keeps_or_gives_the_reason(
    tool: str, include: Sequence[str] | None, exclude: Sequence[str], kept: bool, reason: str
) -> None:
    verdict = is_included(tool, include, exclude)
    if kept:
        assert verdict is None
    else:
        assert verdict is not None and reason in verdict
        assert repr(tool) in verdict
