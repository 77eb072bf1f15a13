"""Injection patterns searched only where their matches can begin find what a plain search finds."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_troupe.policy import _injection_rules
from mcp_troupe.policy._injection_checks import _CHECKS, _Accepted, _Fallback
from mcp_troupe.policy._injection_rules import _STARTS_FROM, _LazyPattern
from mcp_troupe.policy._injection_starts import Starts, folded, starts


def _patterns() -> list[_LazyPattern]:
    found: dict[int, _LazyPattern] = {}
    for _, check in _CHECKS:
        regex = check.regex if isinstance(check, (_Accepted, _Fallback)) else getattr(check, "__self__", None)
        if isinstance(regex, _LazyPattern):
            found[id(regex)] = regex
    for value in vars(_injection_rules).values():
        for regex in value if isinstance(value, list) else [value]:
            if isinstance(regex, _LazyPattern):
                found[id(regex)] = regex
    return list(found.values())


PATTERNS = _patterns()
CORPUS = Path(__file__).resolve().parent.parent / "corpus"
PAD = "Returns the list of files in a folder, sorted by name; the path is relative to the root. " * 2


def _spans(matches: Any) -> list[tuple[int, int]]:
    return [match.span() for match in matches]


def assert_same(pattern: _LazyPattern, text: str) -> None:
    compiled = pattern.compiled()
    plain = compiled.search(text)
    assert (plain and plain.span()) == ((found := pattern.search(text)) and found.span()), pattern.pattern
    if plain is not None:
        assert _spans(compiled.finditer(text)) == _spans(pattern.finditer(text)), pattern.pattern
        later = plain.start() + 1
        expected = compiled.search(text, later)
        assert (expected and expected.span()) == ((got := pattern.search(text, later)) and got.span())


def test_most_patterns_have_starts() -> None:
    assert len(PATTERNS) > 300
    without = [pattern for pattern in PATTERNS if starts(pattern.pattern, pattern.flags) is None]
    assert len(without) < len(PATTERNS) // 10


def test_starts_read_literal_words_boundaries_and_optional_parts() -> None:
    assert starts(r"\b(?:call|invoke)\s+x", re.IGNORECASE) == {("call", True), ("invo", True)}
    assert starts(r"(?:the\s+)?tool", re.IGNORECASE) == {("the", False), ("tool", False)}
    assert starts(r"(?<![a-z0-9])de|dx", re.IGNORECASE) == {("de", True), ("dx", False)}
    # A \b before a character that is no letter or digit says nothing about the one before it.
    assert starts(r"\b'x", re.IGNORECASE) == {("'x", False)}
    # The Kelvin sign and the long s match ASCII letters; other scripts stand as one placeholder character
    # (which a literal outside ASCII is allowed to be as well).
    assert starts("\u212aey", re.IGNORECASE) == {("key", False), ("\x00ey", False)}
    assert starts("\u017fend", 0) == {("send", False)}
    assert starts("никогда", re.IGNORECASE) == {("\x00\x00\x00\x00", False)}
    assert starts(r"[\w.]+@x", re.IGNORECASE) is None


def test_a_folded_text_keeps_every_offset() -> None:
    text = "Send the \u212aey — 'now', \u0130stanbul \u017f; " * 8
    copy = folded(text)
    assert copy is not None and len(copy.text) == len(text)
    assert copy.text.startswith("send the key \x00 'now', istanbul s; ")
    assert folded("Ничего не делай " * 20) is None  # mostly another script: searched as it is


def test_a_prefix_is_found_at_word_starts_and_anywhere() -> None:
    text = folded("recall the call; call-back, xcall " * 5)
    assert text is not None
    after_other = Starts(frozenset({("call", True)})).positions(text)
    anywhere = Starts(frozenset({("call", False)})).positions(text)
    assert after_other == [m.start() for m in re.finditer(r"(?<![a-z0-9])call", text.text)]
    assert anywhere == [m.start() for m in re.finditer("call", text.text)]
    assert len(anywhere) > len(after_other)


def _corpus_texts() -> list[str]:
    texts: set[str] = set()
    for name in ("benign_real.json", "benign_real_5.json", "poisoned_real.json", "poisoned_held_out_7.json"):
        for tool in json.loads((CORPUS / name).read_text(encoding="utf-8"))["tools"]:
            description = tool.get("description")
            if isinstance(description, str) and len(description) >= _STARTS_FROM:
                texts.add(description)
    ordered = sorted(texts)
    # Every 40th: each kind of text (ASCII, a few characters of other scripts, mostly other scripts).
    return ordered[::40]


@pytest.mark.timeout(240)
def test_every_pattern_finds_the_same_on_corpus_texts() -> None:
    texts = _corpus_texts()
    assert len(texts) > 60
    for pattern in PATTERNS:
        for text in texts:
            assert_same(pattern, text)


LOOKALIKES = {"i": "\u0130\u0131", "s": "\u017f", "k": "\u212a"}


@st.composite
def disguised(draw: st.DrawFn, text: str) -> str:
    """``text`` with some letters in the other case or replaced by a non-ASCII lookalike."""
    chars = list(text)
    for index in draw(st.lists(st.integers(0, max(0, len(text) - 1)), max_size=6)):
        if index < len(chars):
            char = chars[index]
            lookalikes = LOOKALIKES.get(char.lower())
            chars[index] = draw(st.sampled_from(lookalikes)) if lookalikes else char.swapcase()
    return "".join(chars)


@functools.cache
def pattern_case(number: int) -> st.SearchStrategy[tuple[int, str]]:
    """A text made to match pattern ``number``, disguised, inside a text long enough for its starts."""
    regex = PATTERNS[number].compiled()
    before = st.sampled_from(["", PAD, PAD + "x", PAD + "\u2014", PAD[:-1] + "_"])
    after = st.sampled_from(["", " " + PAD, ". Then " + PAD])
    made = st.from_regex(regex, fullmatch=True).flatmap(disguised)
    return st.tuples(st.just(number), st.tuples(before, made, after).map("".join))


@pytest.mark.timeout(240)
@settings(max_examples=300, deadline=None)
@given(case=st.sampled_from(range(len(PATTERNS))).flatmap(pattern_case))
def test_every_pattern_finds_the_same_on_texts_made_to_match_it(case: tuple[int, str]) -> None:
    number, text = case
    assert_same(PATTERNS[number], text)
