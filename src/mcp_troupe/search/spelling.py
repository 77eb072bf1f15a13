"""Typo tolerance for tool search: the index terms one slip of the keyboard away from a need's word.

Pure code. A :class:`Vocabulary` holds the index's terms in buckets by first letter and length, updated
term by term as tools come and go, so looking up the neighbours of a word reads a few hundred terms at
most, never the whole vocabulary. "screnshot", "reposatory", "calender", "pasword" each have one edit
(a letter left out, added, changed, or two swapped) to a term of the tools ("screenshot", "repository",
"calendar", "password"); a need's word that the index knows is never corrected.

Only words of :data:`MIN_LENGTH` letters or more are corrected: short words are one edit away from too
many others ("milk" → "mil", "silk") for a guess to say anything. The first letter is taken as typed,
as it almost always is.
"""

from __future__ import annotations

from typing import Final

__all__ = ["MIN_LENGTH", "Vocabulary", "one_edit_apart"]

MIN_LENGTH: Final = 5
"""The shortest word that is looked up for a typo."""
MAX_NEIGHBOURS: Final = 4
"""At most this many corrections per word (the ones held by the most tools); more means no clear guess."""


def one_edit_apart(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by exactly one inserted, deleted or changed letter, or by two
    neighbouring letters swapped (Damerau's edits)."""
    if a == b:
        return False
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la > lb:
        a, b, la, lb = b, a, lb, la
    start = 0
    while start < la and a[start] == b[start]:
        start += 1
    if la == lb:
        if a[start + 1 :] == b[start + 1 :]:
            return True  # one letter changed
        # two neighbouring letters swapped
        return (
            start + 1 < la
            and a[start] == b[start + 1]
            and a[start + 1] == b[start]
            and a[start + 2 :] == b[start + 2 :]
        )
    return a[start:] == b[start + 1 :]  # one letter inserted into a


class Vocabulary:
    """The set of index terms, with a count of the tools holding each, bucketed for typo look-ups."""

    def __init__(self) -> None:
        """An empty vocabulary."""
        self._buckets: dict[tuple[str, int], dict[str, int]] = {}

    def add(self, term: str) -> None:
        """One more tool holds ``term``."""
        if term:
            bucket = self._buckets.setdefault((term[0], len(term)), {})
            bucket[term] = bucket.get(term, 0) + 1

    def discard(self, term: str) -> None:
        """One tool fewer holds ``term`` (it leaves the vocabulary with the last one)."""
        if not term:
            return
        key = (term[0], len(term))
        bucket = self._buckets.get(key)
        if bucket is None or term not in bucket:
            return
        left = bucket[term] - 1
        if left > 0:
            bucket[term] = left
            return
        del bucket[term]
        if not bucket:
            del self._buckets[key]

    def __contains__(self, term: object) -> bool:
        return isinstance(term, str) and bool(term) and term in self._buckets.get((term[0], len(term)), {})

    def corrections(self, word: str) -> list[str]:
        """The terms one edit from ``word`` (most widely held first, at most :data:`MAX_NEIGHBOURS`);
        empty when ``word`` is itself a term, too short, or has no such neighbour."""
        if len(word) < MIN_LENGTH or not word.isalpha() or word in self:
            return []
        found: list[tuple[int, str]] = []
        for length in (len(word) - 1, len(word), len(word) + 1):
            for term, holders in self._buckets.get((word[0], length), {}).items():
                if one_edit_apart(word, term):
                    found.append((holders, term))
        found.sort(key=lambda item: (-item[0], item[1]))
        return [term for _, term in found[:MAX_NEIGHBOURS]]
