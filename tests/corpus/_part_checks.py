"""What the blind parts' format tests (``tests/unit/test_corpus_held_out_*.py``) read a definition with.

Each part's test keeps its own counts and rules; these are the readings they share: every string of a
definition, keys included, and the eight-word runs two texts are compared by.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any


def strings(value: Any) -> Iterator[str]:
    """Every string in a definition, keys included (a property name can be a payload)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def shingles(text: str) -> set[tuple[str, ...]]:
    """The runs of eight words of ``text`` (lower case): two texts sharing one share a sentence's worth."""
    words = re.findall(r"\w+", text.lower())
    return {tuple(words[i : i + 8]) for i in range(len(words) - 7)}
