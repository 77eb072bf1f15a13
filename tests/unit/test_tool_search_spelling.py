"""Tool search's typo tolerance: one edit apart, the bucketed vocabulary, and its use by the index."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe.search.ranking import ToolDocument, ToolIndex
from mcp_troupe.search.spelling import MAX_NEIGHBOURS, Vocabulary, one_edit_apart


def _edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance (Damerau's edits, each letter edited once): the reference."""
    rows = [list(range(len(b) + 1))] + [[i] + [0] * len(b) for i in range(1, len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
    return rows[len(a)][len(b)]


def test_one_edit_is_a_letter_left_out_added_changed_or_two_swapped() -> None:
    assert one_edit_apart("screnshot", "screenshot")  # left out
    assert one_edit_apart("screenshot", "screnshot")
    assert one_edit_apart("calender", "calendar")  # changed
    assert one_edit_apart("pasword", "password")
    assert one_edit_apart("reciept", "receipt")  # swapped
    assert not one_edit_apart("issue", "issue")
    assert not one_edit_apart("issue", "tissues")
    assert not one_edit_apart("invoice", "involve")  # two changes


@given(st.text(alphabet="abcde", max_size=7), st.text(alphabet="abcde", max_size=7))
def test_one_edit_apart_agrees_with_the_edit_distance(a: str, b: str) -> None:
    assert one_edit_apart(a, b) == (_edit_distance(a, b) == 1)


def test_the_vocabulary_corrects_only_words_it_does_not_hold() -> None:
    vocabulary = Vocabulary()
    for term in ("screenshot", "screenshot", "repository", "search", "milk"):
        vocabulary.add(term)
    assert vocabulary.corrections("screnshot") == ["screenshot"]
    assert vocabulary.corrections("reposatory") == ["repository"]
    assert vocabulary.corrections("search") == []  # known: never corrected
    assert vocabulary.corrections("silk") == []  # too short to guess at
    assert vocabulary.corrections("xearch") == []  # the first letter is taken as typed
    assert vocabulary.corrections("scr3nshot") == []  # not a word


def test_a_term_leaves_the_vocabulary_with_the_last_tool_holding_it() -> None:
    vocabulary = Vocabulary()
    vocabulary.add("calendar")
    vocabulary.add("calendar")
    vocabulary.discard("calendar")
    assert "calendar" in vocabulary and vocabulary.corrections("calender") == ["calendar"]
    vocabulary.discard("calendar")
    vocabulary.discard("calendar")  # more discards than adds change nothing
    vocabulary.discard("")
    assert "calendar" not in vocabulary and vocabulary.corrections("calender") == []


def test_corrections_are_capped_and_the_most_widely_held_come_first() -> None:
    vocabulary = Vocabulary()
    for count, term in enumerate(("parta", "partb", "partc", "partd", "parte", "partf"), start=1):
        for _ in range(count):
            vocabulary.add(term)
    found = vocabulary.corrections("partz")
    assert len(found) == MAX_NEIGHBOURS and found[0] == "partf"


def _doc(key: str, server: str, description: str) -> ToolDocument:
    return ToolDocument(key=key, server=server, name=key.split("/")[-1], description=description)


def test_a_need_with_typos_finds_the_tool_and_a_removed_server_is_no_longer_a_guess() -> None:
    index = ToolIndex()
    screenshot = _doc("browser/take_screenshot", "browser", "Capture the page as an image")
    index.replace_server("browser", [screenshot])
    index.replace_server("git", [_doc("git/search_repositories", "git", "Find repositories by name")])
    assert index.search("screnshot of the page", 1)[0][0] == "browser/take_screenshot"
    assert index.search("searh my reposatories", 1)[0][0] == "git/search_repositories"
    index.replace_server("browser", [])
    assert index.search("screnshot", 5) == []
