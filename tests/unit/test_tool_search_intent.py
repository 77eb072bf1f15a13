"""Tool search intent: the action a need asks for against the action a tool's name says."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe.search.intent import (
    ACTION_BOOST,
    CONFLICT_FACTOR,
    OPPOSITE_FACTOR,
    READ,
    action_factor,
    need_actions,
    tool_action,
)
from mcp_troupe.search.ranking import ToolDocument, ToolIndex, split_words


def test_a_question_reads_whatever_verb_follows() -> None:
    assert need_actions(split_words("what files have I changed")) == (frozenset({READ}), "what")
    assert need_actions(split_words("which teams exist in linear"))[0] == {READ}


def test_an_imperative_says_its_action_in_its_first_verb() -> None:
    assert need_actions(split_words("please archive the old list")) == (frozenset({"delete"}), "archive")
    assert need_actions(split_words("can you create a ticket"))[0] == {"create"}
    assert need_actions(split_words("how do I delete a branch"))[0] == {"delete"}
    assert need_actions(split_words("show me the logs"))[0] == {READ}
    assert need_actions(split_words("grab a picture")) == (frozenset(), None)  # unknown: no opinion
    assert need_actions([]) == (frozenset(), None)


def test_a_tool_name_says_its_action_after_the_server_prefix() -> None:
    assert tool_action(split_words("linear_getTeams"), split_words("tacticlaunch-linear")) == (READ, "get")
    assert tool_action(split_words("brave_news_search"), split_words("brave-brave-search")) == (
        READ,
        "search",
    )
    assert tool_action(split_words("API-post-search"), split_words("notion")) == (READ, "search")  # weak post
    assert tool_action(split_words("bb_post"), split_words("bitbucket")) == ("create", "post")
    assert tool_action(split_words("interact"), ()) == (None, None)


def test_agreement_lifts_and_conflict_lowers() -> None:
    read = frozenset({READ})
    assert action_factor(read, "which", READ, "get") == ACTION_BOOST
    assert action_factor(read, "which", "create", "create") == CONFLICT_FACTOR
    assert action_factor(frozenset({"create"}), "add", "delete", "remove") == OPPOSITE_FACTOR
    assert action_factor(frozenset({"state"}), "lock", "state", "unlock") == OPPOSITE_FACTOR
    assert action_factor(frozenset(), None, "delete", "delete") == 1.0


@given(st.lists(st.text(max_size=12), max_size=8))
def test_any_words_give_an_answer(words: list[str]) -> None:
    needed, _verb = need_actions(words)
    action, verb = tool_action(words)
    assert 0.0 < action_factor(needed, words[0] if words else None, action, verb) <= ACTION_BOOST


def test_a_question_prefers_the_tool_that_reads() -> None:
    index = ToolIndex()
    index.replace_server(
        "t",
        [
            ToolDocument(key=f"t/{name}", server="t", name=name, description=f"{name.split('_')[0]} teams")
            for name in ("create_team", "archive_team", "list_teams")
        ],
    )
    assert index.search("which teams exist", 1)[0][0] == "t/list_teams"
    assert index.search("archive that team", 1)[0][0] == "t/archive_team"
