"""Qualified tool names: sanitising, shortening to the provider limit, and collision rejection."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe.policy.names import (
    BUILTIN_PREFIX,
    MAX_NAME_LENGTH,
    NAME_PATTERN,
    SERVER_NAME_PATTERN,
    NameTable,
    NameVerdict,
    assign_names,
    qualify,
    sanitize,
)

LONG_TOOL = "get_cost_and_usage_comparisons_with_forecast_by_dimension_value"  # 63 chars


# --- sanitize -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("part", "expected"),
    [
        ("read_file", "read_file"),
        ("Read-File_2", "Read-File_2"),
        ("admin.tools.list", "admin_tools_list"),
        ("read file", "read_file"),
        ("a,b;c/d", "a_b_c_d"),
        ("café", "caf_"),
        ("数据", "__"),
        ("🙂x", "_x"),
        ("\ud800", "_"),  # a lone surrogate, as server JSON may carry
        ("", "_"),
        ("   ", "___"),
    ],
)
def test_sanitize_replaces_every_character_outside_the_provider_alphabet(part: str, expected: str) -> None:
    assert sanitize(part) == expected


# --- qualify --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("server", "tool", "expected"),
    [
        ("fs", "read_file", "mcp__fs__read_file"),
        ("fs", "a.b", "mcp__fs__a_b"),
        ("my.server", "get user", "mcp__my_server__get_user"),
        ("fs", "", "mcp__fs___"),
        ("a", "b__c", "mcp__a__b__c"),
    ],
)
def test_qualify_joins_sanitised_parts_with_the_mcp_prefix(server: str, tool: str, expected: str) -> None:
    assert qualify(server, tool) == expected


def test_qualify_keeps_a_name_of_exactly_64_characters_unshortened() -> None:
    tool = "t" * (MAX_NAME_LENGTH - len("mcp__fs__"))

    assert qualify("fs", tool) == f"mcp__fs__{tool}"


@pytest.mark.parametrize(
    ("server", "tool"),
    [
        ("billing", LONG_TOOL),
        ("s" * 64, "read"),
        ("s" * 64, "t" * 128),
        ("fs", "t" * (MAX_NAME_LENGTH - len("mcp__fs__") + 1)),
        ("fs", "é" * 100),
        ("fs", "\ud800" * 100),
    ],
)
def test_qualify_shortens_a_long_name_to_the_provider_pattern(server: str, tool: str) -> None:
    qualified = qualify(server, tool)

    assert NAME_PATTERN.match(qualified)
    assert len(qualified) == MAX_NAME_LENGTH
    assert qualified.startswith(BUILTIN_PREFIX)


def test_shortened_name_keeps_a_readable_prefix_and_ends_in_the_hash_of_the_originals() -> None:
    digest = hashlib.sha256(f"billing\x00{LONG_TOOL}".encode()).hexdigest()[:8]

    qualified = qualify("billing", LONG_TOOL)

    assert qualified == f"mcp__billing__{LONG_TOOL[:41]}_{digest}"


def test_shortened_name_keeps_the_whole_tool_part_when_only_the_server_is_long() -> None:
    assert qualify("s" * 64, "read").startswith(f"mcp__{'s' * 44}__read_")


def test_shortened_names_share_the_budget_when_both_parts_are_long() -> None:
    assert qualify("s" * 64, "t" * 64).startswith(f"mcp__{'s' * 24}__{'t' * 24}_")


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (("billing", LONG_TOOL + "_a"), ("billing", LONG_TOOL + "_b")),  # differ after the cut
        (("billing", LONG_TOOL + ".x"), ("billing", LONG_TOOL + "_x")),  # differ only before sanitising
        (("s" * 64, "read"), ("s" * 63 + "z", "read")),  # differ only in the cut-off server part
        (("fs", "é" * 60), ("fs", "ü" * 60)),  # sanitise to the same text
    ],
)
def test_distinct_long_names_get_distinct_qualified_names(
    first: tuple[str, str], second: tuple[str, str]
) -> None:
    assert qualify(*first) != qualify(*second)


def test_qualify_gives_the_same_name_on_every_call() -> None:
    assert qualify("billing", LONG_TOOL) == qualify("billing", LONG_TOOL)


def test_qualify_gives_the_same_shortened_name_in_every_process() -> None:
    # Pinned: a name built from hash() would change with PYTHONHASHSEED and break the operator's allow-lists.
    assert qualify("billing", LONG_TOOL) == "mcp__billing__get_cost_and_usage_comparisons_with_forec_0099313b"


# Any text, lone surrogates included: server JSON can carry them and they still must map to a valid name.
any_text = st.text(alphabet=st.one_of(st.characters(), st.characters(categories=["Cs"])), max_size=150)


@given(server=any_text, tool=any_text)
def test_qualify_always_matches_the_provider_pattern(server: str, tool: str) -> None:
    assert NAME_PATTERN.match(qualify(server, tool))


@pytest.mark.parametrize(
    ("name", "is_valid"),
    [("fs", True), ("my.server-2_b", True), ("s" * 64, True), ("", False), ("s" * 65, False), ("a b", False)],
)
def test_server_name_pattern(name: str, is_valid: bool) -> None:
    assert bool(SERVER_NAME_PATTERN.match(name)) is is_valid
    assert not SERVER_NAME_PATTERN.match(name + "\n")  # no trailing newline slips through


# --- assign_names ---------------------------------------------------------------------------------------


def reasons(verdicts: dict[tuple[str, str], NameVerdict]) -> dict[tuple[str, str], str | None]:
    return {key: verdict.rejected_reason for key, verdict in verdicts.items()}


def test_tools_without_collisions_are_all_accepted() -> None:
    verdicts = assign_names({"fs": ["read_file", "write_file"], "git": ["read_file"]})

    assert verdicts == {
        ("fs", "read_file"): NameVerdict("fs", "read_file", "mcp__fs__read_file", None),
        ("fs", "write_file"): NameVerdict("fs", "write_file", "mcp__fs__write_file", None),
        ("git", "read_file"): NameVerdict("git", "read_file", "mcp__git__read_file", None),
    }
    assert all(verdict.is_accepted for verdict in verdicts.values())


def test_two_tools_of_one_server_that_sanitise_alike_are_both_rejected() -> None:
    verdicts = assign_names({"fs": ["a.b", "a_b", "c"]})

    assert reasons(verdicts) == {
        ("fs", "a.b"): "qualified name 'mcp__fs__a_b' collides with 'a_b' of server 'fs'",
        ("fs", "a_b"): "qualified name 'mcp__fs__a_b' collides with 'a.b' of server 'fs'",
        ("fs", "c"): None,
    }


def test_tools_of_two_servers_whose_qualified_names_meet_are_both_rejected() -> None:
    verdicts = assign_names({"a": ["b__c"], "a__b": ["c"]})

    assert reasons(verdicts) == {
        ("a", "b__c"): "qualified name 'mcp__a__b__c' collides with 'c' of server 'a__b'",
        ("a__b", "c"): "qualified name 'mcp__a__b__c' collides with 'b__c' of server 'a'",
    }


def test_servers_whose_names_sanitise_alike_lose_only_their_shared_tools() -> None:
    verdicts = assign_names({"my.fs": ["read", "only_here"], "my_fs": ["read"]})

    assert reasons(verdicts) == {
        ("my.fs", "read"): "qualified name 'mcp__my_fs__read' collides with 'read' of server 'my_fs'",
        ("my.fs", "only_here"): None,
        ("my_fs", "read"): "qualified name 'mcp__my_fs__read' collides with 'read' of server 'my.fs'",
    }


def test_every_side_of_a_three_way_collision_is_rejected_naming_the_other_two() -> None:
    verdicts = assign_names({"fs": ["a__b", "a._b"], "fs__a": ["b"]})

    assert reasons(verdicts) == {
        ("fs", "a__b"): "qualified name 'mcp__fs__a__b' collides with 'a._b' of server 'fs', "
        "'b' of server 'fs__a'",
        ("fs", "a._b"): "qualified name 'mcp__fs__a__b' collides with 'a__b' of server 'fs', "
        "'b' of server 'fs__a'",
        ("fs__a", "b"): "qualified name 'mcp__fs__a__b' collides with 'a__b' of server 'fs', "
        "'a._b' of server 'fs'",
    }


def test_a_tool_whose_qualified_name_is_a_builtin_is_rejected() -> None:
    verdicts = assign_names({"x": ["y", "z"]}, reserved={"mcp__x__y"})

    assert reasons(verdicts) == {
        ("x", "y"): "qualified name 'mcp__x__y' is a built-in tool of the agent",
        ("x", "z"): None,
    }


def test_a_tool_named_exactly_like_a_builtin_is_rejected() -> None:
    verdicts = assign_names({"fs": ["mcp_resources", "mcp_resources_2"]}, reserved=["mcp_resources"])

    assert reasons(verdicts) == {
        ("fs", "mcp_resources"): "tool 'mcp_resources' of server 'fs' is named like the built-in tool "
        "'mcp_resources'",
        ("fs", "mcp_resources_2"): None,
    }


def test_a_tool_listed_twice_by_its_server_is_rejected() -> None:
    verdicts = assign_names({"fs": ["read", "write", "read"]})

    assert reasons(verdicts) == {
        ("fs", "read"): "tool 'read' is listed 2 times by server 'fs'",
        ("fs", "write"): None,
    }


def test_a_tool_with_several_problems_gets_every_reason() -> None:
    verdicts = assign_names({"fs": ["a.b", "a.b", "a_b"]}, reserved={"a.b"})

    assert verdicts[("fs", "a.b")].rejected_reason == (
        "tool 'a.b' is listed 2 times by server 'fs'; "
        "tool 'a.b' of server 'fs' is named like the built-in tool 'a.b'; "
        "qualified name 'mcp__fs__a_b' collides with 'a_b' of server 'fs'"
    )
    assert verdicts[("fs", "a_b")].rejected_reason == (
        "qualified name 'mcp__fs__a_b' collides with 'a.b' of server 'fs'"
    )


def test_a_long_name_is_qualified_in_its_verdict() -> None:
    verdict = assign_names({"billing": [LONG_TOOL]})[("billing", LONG_TOOL)]

    assert verdict.qualified == qualify("billing", LONG_TOOL)
    assert verdict.is_accepted


def test_no_servers_give_no_verdicts() -> None:
    assert assign_names({}) == {}


def test_the_same_input_gives_the_same_output_in_the_same_order() -> None:
    batches = {"fs": ["a.b", "x", "a_b", "x"], "fs__a": ["b"], "git": ["status"]}

    first = assign_names(batches, reserved={"mcp_prompts"})
    second = assign_names(dict(batches), reserved=["mcp_prompts"])

    assert list(first.items()) == list(second.items())
    assert list(first) == [("fs", "a.b"), ("fs", "x"), ("fs", "a_b"), ("fs__a", "b"), ("git", "status")]


@given(batches=st.dictionaries(st.text(max_size=70), st.lists(st.text(max_size=70), max_size=6), max_size=4))
def test_no_two_accepted_tools_share_a_qualified_name(batches: dict[str, list[str]]) -> None:
    accepted = [verdict.qualified for verdict in assign_names(batches).values() if verdict.is_accepted]

    assert len(accepted) == len(set(accepted))
    assert all(NAME_PATTERN.match(name) for name in accepted)


# --- NameTable: assign_names kept up to date one server at a time ----------------------------------------

_SERVERS = ("a", "a__b", "fs", "fs__a", "my.fs", "my_fs")
_TOOLS = ("b__c", "c", "b", "a.b", "a_b", "read", "a__b", "mcp_prompts")


@given(
    steps=st.lists(
        st.tuples(st.sampled_from(_SERVERS), st.none() | st.lists(st.sampled_from(_TOOLS), max_size=5)),
        max_size=12,
    )
)
def test_a_name_table_updated_server_by_server_equals_naming_everything_at_once(
    steps: list[tuple[str, list[str] | None]],
) -> None:
    table = NameTable(_SERVERS, reserved={"mcp_prompts"})
    current: dict[str, list[str]] = {}
    verdicts: dict[tuple[str, str], NameVerdict] = {}
    for server, tools in steps:
        touched = table.set_server(server, tools)
        if tools is None:
            current.pop(server, None)
        else:
            current[server] = tools
        for key in [key for key in verdicts if key[0] == server or verdicts[key].qualified in touched]:
            del verdicts[key]
        for qualified in touched:
            verdicts.update({(v.server, v.tool): v for v in table.verdicts_of(qualified)})

        expected = assign_names(
            {name: current[name] for name in _SERVERS if name in current}, reserved={"mcp_prompts"}
        )
        assert verdicts == expected
        for name in _SERVERS:
            assert list(table.names_of(name)) == list(dict.fromkeys(current.get(name, [])))


@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(_SERVERS),
            st.booleans(),
            st.none() | st.lists(st.sampled_from(_TOOLS), max_size=5),
        ),
        max_size=12,
    )
)
def test_a_name_table_extended_slice_by_slice_equals_naming_everything_at_once(
    steps: list[tuple[str, bool, list[str] | None]],
) -> None:
    # extend_server appends a judged slice to a server's names (actors/judging.py); mixed with set_server,
    # removals and collisions, each name's holders (one kept as itself, several as an ordered set) must give
    # assign_names' verdicts.
    table = NameTable(_SERVERS, reserved={"mcp_prompts"})
    current: dict[str, list[str]] = {}
    for server, is_extension, tools in steps:
        if is_extension and tools is not None:
            table.extend_server(server, tools)
            current[server] = current.get(server, []) + tools
        else:
            table.set_server(server, tools)
            if tools is None:
                current.pop(server, None)
            else:
                current[server] = tools
        verdicts = {
            (v.server, v.tool): v
            for name in _SERVERS
            for qualified in table.names_of(name).values()
            for v in table.verdicts_of(qualified)
        }
        expected = assign_names(
            {name: current[name] for name in _SERVERS if name in current}, reserved={"mcp_prompts"}
        )
        assert verdicts == expected
        for name in _SERVERS:
            assert list(table.names_of(name)) == list(dict.fromkeys(current.get(name, [])))


def test_a_server_outside_the_given_order_comes_after_the_known_ones() -> None:
    table = NameTable(["fs"])
    table.set_server("zz", ["x__y"])
    touched = table.set_server("fs", [])
    touched += table.set_server("zz__x", ["y"])

    (first, second) = table.verdicts_of("mcp__zz__x__y")
    assert (first.server, second.server) == ("zz", "zz__x")
    assert "collides with 'y' of server 'zz__x'" in (first.rejected_reason or "")
    assert touched == ["mcp__zz__x__y"]
